// The three global steps of LocalGlobalIntegrator (global_step.hpp): each factors or inverts the
// constant A_s once at construction, and a solve() does no allocation.
#include "global_step.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <cstddef>
#include <string>
#include <vector>

#include "sinew/core/device_sparse.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/sparse_inverse.hpp"
#include "sinew/linalg/traffic.hpp"

namespace sinew::integrators::detail {

namespace {

/// Eq. (8): q = S'^T (S' b), with A_s^-1 = S'^T S' stored as its sparse factor (Sec. 3.3).
class SparseInverseStep final : public GlobalStep {
 public:
  SparseInverseStep(Backend& backend, const CsrMatrix& As) {
    SparseInverseOptions options;
    options.structure = KroneckerStructure::kKronecker3;  // only A_s is factored and inverted
    inverse_ = std::make_unique<SparseInverse>(kronecker3_expand(As), options);
    op_ = std::make_unique<SparseInverseOperator>(backend, *inverse_);
  }
  void solve(const DeviceArray<double>& b, DeviceArray<double>& q) override { op_->apply(b, q); }
  double bytes_per_apply() const override { return op_->bytes_per_apply(); }
  const SparseInverse* sparse_inverse() const override { return inverse_.get(); }
  SparseInverseOperator* sparse_inverse_operator() override { return op_.get(); }

 private:
  std::unique_ptr<SparseInverse> inverse_;
  std::unique_ptr<SparseInverseOperator> op_;
};

/// CHOLMOD's forward and backward substitutions with the factor of A_s on the host, the three
/// coordinates as three right-hand sides: b goes down from the backend and q comes back up.
class CholmodStep final : public GlobalStep {
 public:
  CholmodStep(Backend& backend, const CsrMatrix& As)
      : backend_(&backend), n_(As.rows), b_(3 * static_cast<std::size_t>(n_)), q_(b_.size()), rhs_(n_, 3) {
    cholmod_.compute(As);
  }
  void solve(const DeviceArray<double>& b, DeviceArray<double>& q) override {
    backend_->download(b, b_.data(), b_.size());
    for (Index i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) rhs_(i, k) = b_[3 * static_cast<std::size_t>(i) + k];
    const Eigen::MatrixXd X = cholmod_.solve(rhs_);
    for (Index i = 0; i < n_; ++i)
      for (int k = 0; k < 3; ++k) q_[3 * static_cast<std::size_t>(i) + k] = X(i, k);
    backend_->upload(q_.data(), q_.size(), q);
  }
  double bytes_per_apply() const override { return 0.0; }

 private:
  Backend* backend_;
  Index n_;
  CholmodSolver cholmod_;
  std::vector<double> b_, q_;  // (3n) transfers
  Eigen::MatrixXd rhs_;        // (n x 3)
};

/// Damped Jacobi sweeps q += omega D^-1 (b - A q), warm-started from the previous iterate (Wang
/// 2015). omega is LocalGlobalOptions::jacobi_relaxation, or 1 / the Gershgorin bound of
/// rho(D^-1 A) when that is 0, which keeps every sweep a contraction.
class JacobiStep final : public GlobalStep {
 public:
  JacobiStep(Backend& backend, const CsrMatrix& As, const LocalGlobalOptions& options)
      : backend_(&backend), iterations_(options.jacobi_iterations) {
    const Index n = As.rows;
    double ratio = 1.0;  // max_i sum_j |a_ij| / a_ii
    std::vector<double> diagonal(static_cast<std::size_t>(n), 0.0);
    for (Index i = 0; i < n; ++i) {
      double row = 0.0;
      for (Index p = As.row_ptr[i]; p < As.row_ptr[i + 1]; ++p) {
        row += std::abs(As.values[p]);
        if (As.col_idx[p] == i) diagonal[i] = As.values[p];
      }
      ratio = std::max(ratio, row / diagonal[i]);
    }
    const double omega = options.jacobi_relaxation > 0.0 ? options.jacobi_relaxation : 1.0 / ratio;
    std::vector<double> scale(3 * static_cast<std::size_t>(n));
    for (Index i = 0; i < n; ++i)
      for (int k = 0; k < 3; ++k) scale[3 * static_cast<std::size_t>(i) + k] = omega / diagonal[i];
    As_ = to_device(backend, As);
    scale_ = backend.upload(scale);
    r_ = backend.allocate<double>(scale.size());
    bytes_ = iterations_ *
             (spmv3_bytes(As.rows, As.cols, As.nnz()) + 8.0 * static_cast<double>(scale.size()) * sizeof(double));
  }
  void solve(const DeviceArray<double>& b, DeviceArray<double>& q) override {
    for (int s = 0; s < iterations_; ++s) {
      backend_->copy(b, r_);
      backend_->spmv3(-1.0, As_, Op::kNoTranspose, q, 1.0, r_);
      backend_->multiply(r_, scale_, r_);
      backend_->axpby(1.0, r_, 1.0, q);
    }
  }
  // Per sweep: copy b to r (2 vectors), r -= A q (spmv3), r *= scale (3), q += r (3).
  double bytes_per_apply() const override { return bytes_; }

 private:
  Backend* backend_;
  int iterations_;
  DeviceCsr As_;
  DeviceArray<double> scale_;  // (3n) omega / a_ii
  DeviceArray<double> r_;      // (3n) residual
  double bytes_ = 0.0;
};

}  // namespace

std::unique_ptr<GlobalStep> make_global_step(Backend& backend, const CsrMatrix& As, const LocalGlobalOptions& options) {
  switch (options.global_step) {
    case GlobalStepKind::kSparseInverse:
      return std::make_unique<SparseInverseStep>(backend, As);
    case GlobalStepKind::kCholmod:
      return std::make_unique<CholmodStep>(backend, As);
    case GlobalStepKind::kJacobi:
      return std::make_unique<JacobiStep>(backend, As, options);
  }
  throw Error("LocalGlobalOptions: global_step has an unknown value " +
              std::to_string(static_cast<int>(options.global_step)));
}

}  // namespace sinew::integrators::detail
