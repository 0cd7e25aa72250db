// The converged contact solve of LocalGlobalIntegrator (ContactSolve::kConverged, private): each
// L-G iteration's local problem u = W r + q_loc (local_global_contact.hpp) solved to a tolerance
// by constraints::NewtonSolver (exact per-contact generalized Jacobians, line search) on a host
// copy of W taken once per step.
#pragma once

#include <memory>
#include <vector>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::detail {

/// The local problem of one step on the host and the Newton solver that solves it.
class ConvergedLocalSolve {
 public:
  /// A solve on @p backend (which must outlive it) with @p options' function, tolerance and step cap.
  ConvergedLocalSolve(Backend& backend, const LocalGlobalContactOptions& options);
  ~ConvergedLocalSolve();
  /// Takes this step's @p W (m x m, host) and row @p blocks; q_loc changes per L-G iteration.
  void prepare(CsrMatrix W, const std::vector<constraints::ConstraintBlock>& blocks);
  /// Solves u = W r + q with @p q (m, backend) from @p r (m, backend; updated in place), adding the
  /// Newton steps and the linear solves (LU factorizations or BiCGSTAB iterations) to @p report.
  void solve(const DeviceArray<double>& q, DeviceArray<double>& r, LocalGlobalReport& report);

 private:
  Backend* be_;
  std::unique_ptr<constraints::NewtonSolver> newton_;
  constraints::DelassusProblem problem_;  // W (m x m) and blocks of the step; q per iteration
  Eigen::VectorXd r_;                     // (m) impulses on the host
};

}  // namespace sinew::integrators::detail
