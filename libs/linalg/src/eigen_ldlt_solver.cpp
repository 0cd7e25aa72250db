#include "sinew/linalg/eigen_ldlt_solver.hpp"

#include <Eigen/SparseCholesky>

#include "sinew/core/number_text.hpp"

namespace sinew {

struct EigenLdltSolver::Impl {
  Eigen::SimplicialLDLT<Eigen::SparseMatrix<double, Eigen::ColMajor, Index>, Eigen::Lower> ldlt;
  static Eigen::SparseMatrix<double, Eigen::ColMajor, Index> lower(const CsrMatrix& A) {
    return Eigen::SparseMatrix<double, Eigen::ColMajor, Index>(to_eigen(A).triangularView<Eigen::Lower>());
  }
};

EigenLdltSolver::EigenLdltSolver() : impl_(std::make_unique<Impl>()) {}
EigenLdltSolver::~EigenLdltSolver() = default;

void EigenLdltSolver::do_analyze(const CsrMatrix& A) { impl_->ldlt.analyzePattern(Impl::lower(A)); }

void EigenLdltSolver::do_factorize(const CsrMatrix& A) {
  impl_->ldlt.factorize(Impl::lower(A));
  if (impl_->ldlt.info() != Eigen::Success) throw Error(name() + ": factorization failed (zero pivot)");
  const auto d = impl_->ldlt.vectorD();
  for (Eigen::Index k = 0; k < d.size(); ++k)
    if (!(d[k] > 0.0))
      throw Error(name() + ": matrix is not positive definite: pivot " + std::to_string(k) + " is " +
                  number_text(d[k]));
}

void EigenLdltSolver::do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const { X = impl_->ldlt.solve(B); }

}  // namespace sinew
