/// @file
/// @brief EigenLdltSolver: Eigen's SimplicialLDLT with AMD ordering, an independent second
/// implementation of LinearSolver to check CHOLMOD against.
#pragma once

#include <memory>
#include <string>

#include "sinew/linalg/linear_solver.hpp"

namespace sinew {

/// Sparse LDL^T through Eigen::SimplicialLDLT (AMD ordering). compute() throws sinew::Error on a
/// zero pivot or a non-positive D entry (A not positive definite).
class EigenLdltSolver final : public LinearSolver {
 public:
  EigenLdltSolver();
  ~EigenLdltSolver() override;
  std::string name() const override { return "eigen-simplicial-ldlt-amd"; }

 protected:
  void do_analyze(const CsrMatrix& A) override;
  void do_factorize(const CsrMatrix& A) override;
  void do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sinew
