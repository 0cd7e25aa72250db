/// @file
/// @brief Direct solver for bilateral-only problems: sparse LDL^T / Cholesky through
/// LinearSolver (CHOLMOD or Eigen) on the global form's Schur complement, or on W itself.
#pragma once

#include <memory>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/linalg/linear_solver.hpp"

namespace sinew::constraints {

/// Velocities and impulses of a global problem.
struct GlobalSolution {
  Eigen::VectorXd v;  ///< (n) velocities: M v = H r + f
  Eigen::VectorXd r;  ///< (m) impulses
};

/// Direct KKT solve of bilateral-only problems (ArtiSynth notes 0.6 and 0.11: the Schur
/// complement of M in [M -H; H^T C] with FCLIB's H = J^T). The local solve factors W (+ compliance
/// already in it) with a sparse LDL^T (EigenLdltSolver) and gives r = -W^-1 q in one iteration;
/// the global solve factors M with the given LinearSolver, forms W = H^T M^-1 H + C and
/// q = w + H^T M^-1 f (to_delassus) and recovers v = M^-1 (H r + f). Throws sinew::Error for other block kinds,
/// a W that is not symmetric to 1e-10 relative, and a singular W (redundant hard constraints: add compliance).
class KktSolver final : public ConstraintSolver {
 public:
  /// A solver whose global solves factor M with @p mass_solver (default: EigenLdltSolver).
  explicit KktSolver(std::unique_ptr<LinearSolver> mass_solver = nullptr);
  ~KktSolver() override;
  std::string name() const override { return "kkt"; }

  /// Solves a bilateral-only global problem; @p report (optional) receives the local report.
  /// @throws sinew::Error on invalid input, non-bilateral blocks, or a singular M or W.
  GlobalSolution solve_global(const GlobalProblem& problem, SolverReport* report = nullptr);

 protected:
  SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) override;
  void check_supported(const DelassusProblem& problem) const override;

 private:
  std::unique_ptr<LinearSolver> mass_solver_;
};

}  // namespace sinew::constraints
