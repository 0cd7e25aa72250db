#include "sinew/constraints/newton_solver.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <cmath>

#include "newton_globalization.hpp"
#include "sinew/constraints/indicator_newton_step.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {

namespace {

using ColMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;

// Up to this many rows kAuto forms the Newton matrix densely: 16 contacts, where a dense LU
// (m^3 / 3 flops) still costs less than SparseLU's ordering and symbolic analysis.
constexpr Index kDenseLuRows = 48;

// Omega and E of eq. (25) with one dense block per problem block (1x1 or 3x3), stored row-major
// block after block: exactly the value order of a CSR matrix with that block-diagonal pattern.
struct BlockJacobian {
  std::vector<Index> row, size, value;  // per block: first row, size, first value
  std::vector<double> omega, e;         // concatenated row-major blocks
};

BlockJacobian make_block_jacobian(const DelassusProblem& p, const std::vector<Index>& offsets) {
  BlockJacobian J;
  Index v = 0;
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index s = block_size(p.blocks[b].kind);
    J.row.push_back(offsets[b]);
    J.size.push_back(s);
    J.value.push_back(v);
    v += s * s;
  }
  J.omega.assign(static_cast<std::size_t>(v), 0.0);
  J.e.assign(static_cast<std::size_t>(v), 0.0);
  return J;
}

// The block-diagonal pattern of J as a CSR matrix with the given values.
CsrMatrix block_diagonal_csr(const BlockJacobian& J, Index m, const std::vector<double>& values) {
  CsrMatrix C;
  C.rows = C.cols = m;
  C.row_ptr.assign(1, 0);
  for (std::size_t b = 0; b < J.row.size(); ++b)
    for (Index i = 0; i < J.size[b]; ++i) {
      for (Index j = 0; j < J.size[b]; ++j) C.col_idx.push_back(J.row[b] + j);
      C.row_ptr.push_back(static_cast<Index>(C.col_idx.size()));
    }
  C.values = values;
  return C;
}

// Per-block NCP values and Jacobian blocks at (u, r); returns 1/2 ||phi||^2.
double evaluate(const DelassusProblem& p, const Eigen::VectorXd& rho, NcpFunction fn, const Eigen::VectorXd& u,
                const Eigen::VectorXd& r, Eigen::VectorXd& phi, BlockJacobian& J) {
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = J.row[b];
    double* om = J.omega.data() + J.value[b];
    double* e = J.e.data() + J.value[b];
    if (p.blocks[b].kind == BlockKind::kBilateral) {
      phi[i] = u[i];
      *om = 1.0;
      *e = 0.0;
    } else if (p.blocks[b].kind == BlockKind::kUnilateral) {
      NcpRow row;
      unilateral_ncp(fn, u[i], r[i], rho[i], row);
      phi[i] = row.phi;
      *om = row.omega;
      *e = row.e;
    } else {
      NcpContact c;
      contact_ncp(fn, u.data() + i, r.data() + i, p.blocks[b].mu, rho[i], rho[i + 1], c);
      for (int k = 0; k < 3; ++k) phi[i + k] = c.phi[k];
      for (int k = 0; k < 9; ++k) {
        om[k] = c.omega[k];
        e[k] = c.e[k];
      }
    }
  }
  return 0.5 * phi.squaredNorm();
}

// y = (Omega W + E) P^-1 x on the backend, P^-1 the inverses of the diagonal blocks of
// Omega W + E: right preconditioning, so BiCGSTAB's residual is the true Newton residual.
class PreconditionedJacobian final : public LinearOperator {
 public:
  PreconditionedJacobian(Backend& backend, const DeviceCsr& W, const DeviceCsr& omega, const DeviceCsr& e,
                         const DeviceCsr& pinv, DeviceArray<double>& t1, DeviceArray<double>& t2)
      : be_(&backend), W_(&W), omega_(&omega), e_(&e), pinv_(&pinv), t1_(&t1), t2_(&t2) {}
  Index rows() const override { return W_->rows; }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    be_->spmv(1.0, *pinv_, Op::kNoTranspose, x, 0.0, *t1_);   // t1 = P^-1 x
    be_->spmv(1.0, *W_, Op::kNoTranspose, *t1_, 0.0, *t2_);   // t2 = W t1
    be_->spmv(1.0, *omega_, Op::kNoTranspose, *t2_, 0.0, y);  // y = Omega W t1
    be_->spmv(1.0, *e_, Op::kNoTranspose, *t1_, 1.0, y);      // y += E t1
  }

 private:
  Backend* be_;
  const DeviceCsr *W_, *omega_, *e_, *pinv_;
  DeviceArray<double>*t1_, *t2_;
};

// BiCGSTAB (van der Vorst 1992) for non-symmetric A, on the backend's vectors. Preconditioning
// is left to the operator (see PreconditionedJacobian); an inverse diagonal, if given, is ignored.
class BiCgStab final : public KrylovSolver {
 public:
  using KrylovSolver::KrylovSolver;
  std::string name() const override { return "bicgstab"; }

 protected:
  void iterate(LinearOperator& A, const DeviceArray<double>&, DeviceArray<double>& x, const KrylovOptions& options,
               const DeviceArray<double>*, double b_norm, KrylovResult& result) override {
    Backend& be = *backend_;
    DeviceArray<double>&r = work(0), &r0 = work(2), &p = work(3), &v = work(4), &s = work(5), &t = work(6);
    be.copy(r, r0);
    be.fill(p, 0.0);
    be.fill(v, 0.0);
    double rho_old = 1.0, alpha = 1.0, omega = 1.0;
    for (int it = 0; it < options.max_iterations; ++it) {
      const double rho = be.dot(r0, r);
      if (rho == 0.0 || !std::isfinite(rho)) return breakdown(result, "r0^T r", rho);
      const double beta = (rho / rho_old) * (alpha / omega);
      be.axpby(-omega, v, 1.0, p);  // p = r + beta (p - omega v)
      be.axpby(1.0, r, beta, p);
      A.apply(p, v);
      const double r0v = be.dot(r0, v);
      if (r0v == 0.0 || !std::isfinite(r0v)) return breakdown(result, "r0^T A p", r0v);
      alpha = rho / r0v;
      be.copy(r, s);
      be.axpby(-alpha, v, 1.0, s);
      be.axpby(alpha, p, 1.0, x);
      const double s_norm = be.nrm2(s);
      if (s_norm / b_norm <= options.tolerance) {
        be.copy(s, r);
        record(s_norm / b_norm, options, result);
        return;
      }
      A.apply(s, t);
      const double tt = be.dot(t, t);
      if (!(tt > 0.0)) return breakdown(result, "(A s)^T (A s)", tt);
      omega = be.dot(t, s) / tt;
      be.axpby(omega, s, 1.0, x);
      be.copy(s, r);
      be.axpby(-omega, t, 1.0, r);
      if (record(be.nrm2(r) / b_norm, options, result)) return;
      if (omega == 0.0) return breakdown(result, "omega", omega);
      rho_old = rho;
    }
  }

 private:
  static void breakdown(KrylovResult& result, const std::string& what, double value) {
    result.status = std::isfinite(value) ? KrylovStatus::kBreakdown : KrylovStatus::kNonFinite;
    result.message = what + " = " + number_text(value) + " at iteration " + std::to_string(result.iterations + 1);
  }
};

// y = A x or A^T x for the block-diagonal A of @p J (values @p blocks: J.omega or J.e).
Eigen::VectorXd block_apply(const BlockJacobian& J, const std::vector<double>& blocks, const Eigen::VectorXd& x,
                            bool transpose) {
  Eigen::VectorXd y = Eigen::VectorXd::Zero(x.size());
  for (std::size_t b = 0; b < J.row.size(); ++b) {
    const Index s = J.size[b], o = J.row[b];
    const double* A = blocks.data() + J.value[b];
    for (Index i = 0; i < s; ++i)
      for (Index j = 0; j < s; ++j) y[o + i] += (transpose ? A[j * s + i] : A[i * s + j]) * x[o + j];
  }
  return y;
}

// Inverse of one diagonal block Omega_c W_cc + E_c (s x s, row-major) into @p out; a block that
// is numerically singular (a contact whose rows of W are dependent) falls back to a scaled
// identity, which is still a valid, if weaker, preconditioner.
void invert_block(const double* A, Index s, double* out) {
  if (s == 1) {
    out[0] = A[0] != 0.0 ? 1.0 / A[0] : 1.0;
    return;
  }
  const Eigen::Matrix3d M = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(A);
  Eigen::Matrix3d inv;
  bool ok = false;
  M.computeInverseWithCheck(inv, ok, 1e-14 * (M.cwiseAbs().maxCoeff() + 1e-300));
  if (!ok || !inv.allFinite()) inv = Eigen::Matrix3d::Identity() / (M.cwiseAbs().maxCoeff() + 1e-300);
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> result(out);
  result = inv;
}

// Direct steps: (Omega W + E + diag(shift)) dr = -phi assembled column-major and factored by
// SparseLU. The pattern (W's, with full diagonal blocks in Omega and E, explicit zeros kept) is
// fixed, so it is analysed once per solve; only the numeric factorization runs per step. Small
// problems (@p dense: a few contacts, where SparseLU's symbolic work and bookkeeping cost more
// than the arithmetic) form the matrix densely, row block by row block, and factor it by LU with
// partial pivoting.
class LuStep {
 public:
  LuStep(const EigenCsr& W, Index m, bool dense) : W_rows_(&W), dense_(dense) {
    // A last-resort shift when the matrix is exactly singular, far below W's scale.
    singular_shift_ = 1e-10 * W.diagonal().sum() / static_cast<double>(m > 0 ? m : 1);
    if (dense_) return;
    W_ = W;
    Om_.resize(m, m);
    E_.resize(m, m);
    jac_.resize(m, m);
  }

  // Returns false (with the reason) when the matrix is singular even after the shift.
  bool solve(const BlockJacobian& J, const Eigen::VectorXd& shift, const Eigen::VectorXd& phi, Eigen::VectorXd& dr,
             int& factorizations, std::string& message) {
    if (dense_) return solve_dense(J, shift, phi, dr, factorizations, message);
    tri_om_.clear();
    tri_e_.clear();
    for (std::size_t b = 0; b < J.row.size(); ++b)
      for (Index i = 0; i < J.size[b]; ++i)
        for (Index j = 0; j < J.size[b]; ++j) {
          const std::size_t k = static_cast<std::size_t>(J.value[b] + i * J.size[b] + j);
          tri_om_.emplace_back(J.row[b] + i, J.row[b] + j, J.omega[k]);
          tri_e_.emplace_back(J.row[b] + i, J.row[b] + j, J.e[k] + (i == j ? shift[J.row[b] + i] : 0.0));
        }
    Om_.setFromTriplets(tri_om_.begin(), tri_om_.end());
    E_.setFromTriplets(tri_e_.begin(), tri_e_.end());
    jac_ = Om_ * W_;
    jac_ += E_;
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (attempt == 1)  // singular: a Levenberg-Marquardt-like shift, then give up
        for (Index i = 0; i < jac_.rows(); ++i) jac_.coeffRef(i, i) += singular_shift_;
      if (jac_.nonZeros() != analysed_nnz_) {
        lu_.analyzePattern(jac_);
        analysed_nnz_ = jac_.nonZeros();
      }
      lu_.factorize(jac_);
      ++factorizations;
      if (lu_.info() == Eigen::Success) {
        dr = lu_.solve(-phi);
        return true;
      }
    }
    message = lu_.lastErrorMessage();
    return false;
  }

 private:
  // The dense form of solve(): row i of block b is sum_j Omega_b(i, j) W(o + j, :) + E_b(i, :).
  bool solve_dense(const BlockJacobian& J, const Eigen::VectorXd& shift, const Eigen::VectorXd& phi,
                   Eigen::VectorXd& dr, int& factorizations, std::string& message) {
    const EigenCsr& W = *W_rows_;
    dense_jac_.setZero(W.rows(), W.cols());
    for (std::size_t b = 0; b < J.row.size(); ++b) {
      const Index s = J.size[b], o = J.row[b];
      const std::size_t v = static_cast<std::size_t>(J.value[b]);
      for (Index i = 0; i < s; ++i) {
        for (Index j = 0; j < s; ++j) {
          const double w = J.omega[v + static_cast<std::size_t>(i * s + j)];
          if (w == 0.0) continue;
          for (EigenCsr::InnerIterator it(W, o + j); it; ++it) dense_jac_(o + i, it.col()) += w * it.value();
        }
        for (Index j = 0; j < s; ++j) dense_jac_(o + i, o + j) += J.e[v + static_cast<std::size_t>(i * s + j)];
        dense_jac_(o + i, o + i) += shift[o + i];
      }
    }
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (attempt == 1) dense_jac_.diagonal().array() += singular_shift_;  // as the sparse path
      dense_lu_.compute(dense_jac_);
      ++factorizations;
      if ((dense_lu_.matrixLU().diagonal().array() != 0.0).all()) {
        dr = dense_lu_.solve(-phi);
        if (dr.allFinite()) return true;
      }
    }
    message = "the dense LU has a zero pivot";
    return false;
  }

  const EigenCsr* W_rows_;  // W by rows (the dense form), alive for the solve
  bool dense_;
  Eigen::MatrixXd dense_jac_;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu_;
  ColMatrix W_, Om_, E_, jac_;
  std::vector<Eigen::Triplet<double, Index>> tri_om_, tri_e_;
  Eigen::SparseLU<ColMatrix, Eigen::COLAMDOrdering<Index>> lu_;
  Index analysed_nnz_ = -1;
  double singular_shift_ = 0.0;
};

// Matrix-free steps on the backend: W uploaded once, block-diagonal Omega, E + diag(shift) and
// the block-Jacobi P^-1 uploaded per step into fixed patterns, BiCGSTAB on (Omega W + E) P^-1.
class KrylovStep {
 public:
  KrylovStep(Backend& backend, KrylovSolver& krylov, const CsrMatrix& W, const EigenCsr& W_host, const BlockJacobian& J)
      : be_(&backend), krylov_(&krylov), J_(&J), m_(W.rows) {
    W_ = to_device(backend, W);
    const CsrMatrix pattern = block_diagonal_csr(J, m_, J.omega);
    Om_ = to_device(backend, pattern);
    E_ = to_device(backend, pattern);
    P_ = to_device(backend, pattern);
    for (DeviceArray<double>* a : {&t1_, &t2_, &rhs_, &z_, &dr_}) *a = backend.allocate<double>(m_);
    wblocks_.assign(J.omega.size(), 0.0);  // diagonal blocks W_cc, row-major
    for (std::size_t b = 0; b < J.row.size(); ++b)
      for (Index i = 0; i < J.size[b]; ++i)
        for (Index j = 0; j < J.size[b]; ++j)
          wblocks_[J.value[b] + i * J.size[b] + j] = W_host.coeff(J.row[b] + i, J.row[b] + j);
    pinv_.assign(J.omega.size(), 0.0);
  }

  KrylovResult solve(const Eigen::VectorXd& shift, const Eigen::VectorXd& phi, const KrylovOptions& options,
                     Eigen::VectorXd& dr) {
    const BlockJacobian& J = *J_;
    e_ = J.e;
    for (std::size_t b = 0; b < J.row.size(); ++b) {
      const Index s = J.size[b];
      const std::size_t v = static_cast<std::size_t>(J.value[b]);
      for (Index i = 0; i < s; ++i) e_[v + i * (s + 1)] += shift[J.row[b] + i];
      double block[9];  // Omega_c W_cc + E_c
      for (Index i = 0; i < s; ++i)
        for (Index j = 0; j < s; ++j) {
          double sum = e_[v + i * s + j];
          for (Index k = 0; k < s; ++k) sum += J.omega[v + i * s + k] * wblocks_[v + k * s + j];
          block[i * s + j] = sum;
        }
      invert_block(block, s, pinv_.data() + v);
    }
    be_->upload(J.omega.data(), J.omega.size(), Om_.values);
    be_->upload(e_.data(), e_.size(), E_.values);
    be_->upload(pinv_.data(), pinv_.size(), P_.values);
    const Eigen::VectorXd minus_phi = -phi;
    be_->upload(minus_phi.data(), m_, rhs_);
    be_->fill(z_, 0.0);
    PreconditionedJacobian op(*be_, W_, Om_, E_, P_, t1_, t2_);
    const KrylovResult result = krylov_->solve(op, rhs_, z_, options);
    be_->spmv(1.0, P_, Op::kNoTranspose, z_, 0.0, dr_);  // dr = P^-1 z
    be_->download(dr_, dr.data(), m_);
    return result;
  }

 private:
  Backend* be_;
  KrylovSolver* krylov_;
  const BlockJacobian* J_;
  Index m_;
  DeviceCsr W_, Om_, E_, P_;
  DeviceArray<double> t1_, t2_, rhs_, z_, dr_;
  std::vector<double> wblocks_, pinv_, e_;
};

}  // namespace

NewtonSolver::NewtonSolver(Backend& backend, const NewtonOptions& options)
    : backend_(&backend), options_(options), krylov_(std::make_unique<BiCgStab>(backend)) {
  detail::check_globalization("NewtonSolver", options);
  require(options.merit_memory >= 0,
          [&] { return "NewtonSolver: merit_memory must be >= 0, got " + std::to_string(options.merit_memory); });
}

NewtonSolver::~NewtonSolver() = default;

std::string NewtonSolver::name() const {
  return options_.function == NcpFunction::kMinMap ? "newton-minmap" : "newton-fb";
}

void NewtonSolver::check_supported(const DelassusProblem& problem) const {
  detail::check_no_box_friction(name(), problem);
}

SolverReport NewtonSolver::do_solve(const DelassusProblem& p, Eigen::VectorXd& r) {
  SolverReport report;
  const Index m = p.rows();
  const std::vector<Index> offsets = block_offsets(p.blocks);
  const EigenCsr W = to_eigen(p.W);
  const Eigen::VectorXd diagW = Eigen::VectorXd(W.diagonal());
  // Complementarity preconditioner, eq. (28) with FCLIB's scaling (shared with the seed's step).
  const std::vector<double> rho_values =
      indicator_preconditioner(std::vector<double>(diagW.data(), diagW.data() + diagW.size()), p.blocks);
  const Eigen::VectorXd rho = Eigen::Map<const Eigen::VectorXd>(rho_values.data(), m);
  for (Index i = 0; i < m; ++i) {
    if (!(rho[i] > 0.0)) {
      report.status = SolverStatus::kFailed;
      report.message = name() + ": W(" + std::to_string(i) + ", " + std::to_string(i) +
                       ") is not positive; the complementarity preconditioner (eq. 28) needs W_ii > 0";
      return report;
    }
  }
  BlockJacobian J = make_block_jacobian(p, offsets);
  const bool lu_path = options_.linear == NewtonLinearSolver::kSparseLu ||
                       (options_.linear == NewtonLinearSolver::kAuto && m <= kAutoLuRows);

  std::unique_ptr<LuStep> lu;
  std::unique_ptr<KrylovStep> krylov;
  if (lu_path)
    lu = std::make_unique<LuStep>(W, m, options_.linear == NewtonLinearSolver::kAuto && m <= kDenseLuRows);
  else
    krylov = std::make_unique<KrylovStep>(*backend_, *krylov_, p.W, W, J);

  Eigen::VectorXd u = W * r + p.q, phi(m), shift(m), dr(m), Wdr(m), r_try(m), u_try(m), phi_try(m);
  BlockJacobian J_try = J;
  double psi = evaluate(p, rho, options_.function, u, r, phi, J);
  report.error = natural_map_error(p, r, u).relative;
  const auto finish = [&](SolverStatus status, const std::string& message) {
    report.status = status;
    report.message = name() + ": " + message;
    report.states = block_states(p, r, u);
    return report;
  };
  if (report.error <= options_.stop.tolerance)
    return finish(SolverStatus::kConverged, "the warm start already solves it");

  detail::ProximalSchedule schedule(options_);  // the shift's Levenberg-Marquardt factor
  // The merits of the last NewtonOptions::merit_memory iterates: the line search's reference.
  std::vector<double> recent;
  const std::size_t memory = static_cast<std::size_t>(options_.merit_memory);
  for (int it = 0; it < options_.stop.max_iterations; ++it) {
    const auto step = [&] { return " at Newton step " + std::to_string(it + 1); };  // for messages only
    const double phi_norm = phi.norm();
    // Backtracking on psi = 1/2 ||phi||^2 (Armijo, sigma = 1e-4) along d with slope grad psi . d,
    // non-monotone (Grippo, Lampariello and Lucidi 1986): measured from the largest recent psi,
    // so a step may cross a kink of the min-map merit (a stick/slip switch) where a monotone
    // search only admits vanishing steps. Returns whether Armijo held; best_alpha is then the
    // accepted trial, otherwise that of least psi, best_psi (best_alpha = 0: none below psi).
    double best_alpha = 0.0, best_psi = psi;
    double psi_ref = psi;
    for (double v : recent) psi_ref = std::max(psi_ref, v);
    const auto search = [&](const Eigen::VectorXd& d, const Eigen::VectorXd& Wd, double slope) {
      double alpha = 1.0;
      for (int ls = 0; ls <= options_.globalization.line_search_steps; ++ls, alpha *= 0.5) {
        r_try = r + alpha * d;
        u_try = u + alpha * Wd;
        const double psi_try = evaluate(p, rho, options_.function, u_try, r_try, phi_try, J_try);
        if (psi_try < best_psi) {
          best_psi = psi_try;
          best_alpha = alpha;
        }
        if (psi_try <= psi_ref + 1e-4 * alpha * slope) {
          best_alpha = alpha;  // the accepted trial, even if non-monotone
          return true;
        }
      }
      return false;
    };
    bool armijo = false;
    for (;;) {
      // Proximal shift of the diagonal (NewtonOptions::proximal), vanishing with phi.
      const double proximal = schedule.shift(phi_norm);
      // Only rows coupled through W (a nonzero row of Omega) can make the matrix singular; the
      // others (open contacts, min-map's inactive friction) keep their exact step r -> 0.
      for (std::size_t b = 0; b < J.row.size(); ++b)
        for (Index i = 0; i < J.size[b]; ++i) {
          bool coupled = false;
          for (Index j = 0; j < J.size[b]; ++j) coupled = coupled || J.omega[J.value[b] + i * J.size[b] + j] != 0.0;
          shift[J.row[b] + i] = coupled ? proximal * rho[J.row[b] + i] : 0.0;
        }
      if (lu) {
        std::string why;
        if (!lu->solve(J, shift, phi, dr, report.inner_iterations, why))
          return finish(SolverStatus::kFailed, "the Newton matrix is singular" + step() + ": " + why);
      } else {
        const KrylovResult inner = krylov->solve(shift, phi, options_.krylov, dr);
        report.inner_iterations += inner.iterations;
        if (inner.status == KrylovStatus::kNonFinite)
          return finish(SolverStatus::kFailed, "BiCGSTAB produced non-finite values" + step() + ": " + inner.message);
      }
      if (!dr.allFinite()) return finish(SolverStatus::kFailed, "non-finite Newton direction" + step());
      Wdr = W * dr;
      if (options_.globalization.line_search_steps == 0) break;
      // With the exact Jacobian, dr is a descent direction: grad psi . dr = -||phi||^2; the
      // shifted one stays close to it.
      best_alpha = 0.0;
      best_psi = psi;
      armijo = search(dr, Wdr, -2.0 * psi);
      // A damped or failed step means the model (Omega W + E) is poor or nearly singular along
      // dr: retry with a larger shift, which bends dr toward the gradient and shortens it.
      // No growth left (proximal = 0, proximal_growth = 1, or at the cap): keep this step.
      if ((armijo && best_alpha == 1.0) || !schedule.can_grow()) break;
      schedule.grow();
      if (armijo) break;  // accepted, damped: the larger shift applies from the next step
    }
    if (options_.globalization.line_search_steps > 0 && armijo && best_alpha == 1.0) schedule.relax();

    if (options_.globalization.line_search_steps == 0) {  // the seed's undamped iteration
      r += dr;
      u += Wdr;
    } else if (armijo) {
      r += best_alpha * dr;
      u += best_alpha * Wdr;
    } else {
      // The Newton step failed (a nearly singular matrix: dependent rows of W among sticking
      // contacts, or an inexact step): fall back to steepest descent on psi, g = J^T phi =
      // W Omega^T phi + E^T phi, from the Cauchy step ||g||^2 / ||J g||^2 of the linear model.
      const double newton_alpha = best_alpha;
      const Eigen::VectorXd g = W * block_apply(J, J.omega, phi, true) + block_apply(J, J.e, phi, true);
      const Eigen::VectorXd Wg = W * g;
      const Eigen::VectorXd Jg = block_apply(J, J.omega, Wg, false) + block_apply(J, J.e, g, false);
      const double gg = g.squaredNorm(), JgJg = Jg.squaredNorm();
      const double t = JgJg > 0.0 ? gg / JgJg : 0.0;
      best_alpha = 0.0;
      if (t > 0.0 && std::isfinite(t)) search(-t * g, -t * Wg, -t * gg);
      if (best_alpha > 0.0) {  // the gradient step decreased psi below the Newton trials' best
        r -= best_alpha * t * g;
        u -= best_alpha * t * Wg;
      } else if (newton_alpha > 0.0) {  // a Newton trial decreased psi, without Armijo's margin
        r += newton_alpha * dr;
        u += newton_alpha * Wdr;
      } else {
        // Stalled (typically at round-off, below a tolerance that cannot be reached).
        return finish(SolverStatus::kNotConverged,
                      "stalled: no decrease of 1/2 ||phi||^2 along the Newton or gradient direction" + step() +
                          " (natural-map error " + number_text(report.error, 4) + ")");
      }
    }
    recent.push_back(psi);
    if (recent.size() > memory) recent.erase(recent.begin());
    psi = evaluate(p, rho, options_.function, u, r, phi, J);
    report.iterations = it + 1;
    report.error = natural_map_error(p, r, u).relative;
    report.error_history.push_back(report.error);
    if (!std::isfinite(report.error)) return finish(SolverStatus::kFailed, "non-finite iterate" + step());
    if (report.error <= options_.stop.tolerance)
      return finish(SolverStatus::kConverged, "converged in " + std::to_string(it + 1) + " Newton steps");
  }
  return finish(SolverStatus::kNotConverged, "natural-map error " + number_text(report.error, 4) + " > tolerance " +
                                                 number_text(options_.stop.tolerance) + " after " +
                                                 std::to_string(report.iterations) + " Newton steps");
}

}  // namespace sinew::constraints
