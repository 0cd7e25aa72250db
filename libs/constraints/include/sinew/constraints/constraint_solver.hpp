/// @file
/// @brief ConstraintSolver: the interface every solver of the local (Delassus) problem
/// implements, and the report it returns (iterations, error history, status).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/ncp_functions.hpp"

namespace sinew::constraints {

/// How a constraint solve ended.
enum class SolverStatus {
  kConverged,     ///< the natural-map error reached the tolerance
  kNotConverged,  ///< the iteration limit came first: r is the last iterate, not a solution
  kFailed         ///< numerical trouble (NaN, a singular local system): see the message
};

/// Short name of a status, e.g. "converged".
std::string to_string(SolverStatus status);

/// Stopping rules shared by the solvers.
struct ConstraintSolverOptions {
  /// Natural-map error relative to ||q|| (natural_map.hpp) to reach. 1e-8 is Siconos' usual
  /// benchmark tolerance for FCLIB problems and well above round-off for m up to ~10^4.
  double tolerance = 1e-8;
  /// Iteration limit (sweeps for PGS, Newton steps for Newton, steps for SAP).
  int max_iterations = 1000;
};

/// Outcome of one solve; the solver's r holds the last iterate whatever the status.
struct SolverReport {
  SolverStatus status = SolverStatus::kNotConverged;  ///< how it ended
  int iterations = 0;                                 ///< iterations performed
  double error = 0.0;                                 ///< final natural-map error (relative, natural_map.hpp)
  std::vector<double> error_history;  ///< natural-map error after each iteration evaluated (PGS: its checks)
  std::vector<RowState> states;       ///< (blocks) branch of each block at the final r
  int inner_iterations = 0;           ///< linear-solver iterations summed (Newton: CR)
  std::string message;                ///< what happened, e.g. why it did not converge

  /// True when status is kConverged.
  bool converged() const { return status == SolverStatus::kConverged; }
  /// Back to a fresh report's values, keeping the storage of the vectors and the message (a
  /// report filled in place solve after solve allocates nothing once they have grown).
  void reset();
};

/// A solver of the local problem u = W r + q with per-block laws (constraint_problem.hpp).
/// solve() checks the problem and r once, then calls do_solve(), which may assume valid input.
class ConstraintSolver {
 public:
  virtual ~ConstraintSolver() = default;
  /// Short name, e.g. "pgs".
  virtual std::string name() const = 0;

  /// Solves @p problem starting from @p r (m entries: the warm start; resized and zeroed when
  /// empty). Numerical trouble and non-convergence are reported, not thrown.
  /// @throws sinew::Error on an invalid problem, a warm start of the wrong size or non-finite,
  ///         or block kinds this solver does not handle. With InputCheck::kTrusted (a problem
  ///         to_delassus() built from a checked step problem, r the last step's) only the sizes
  ///         and block kinds are checked.
  SolverReport solve(const DelassusProblem& problem, Eigen::VectorXd& r, InputCheck check = InputCheck::kFull);
  /// solve() into @p report, whose storage is reused (SolverReport::reset()): a caller that keeps
  /// its report from step to step allocates nothing here with a solver that fills reports in place
  /// (NewtonSolver); the others assign a fresh report.
  void solve(const DelassusProblem& problem, Eigen::VectorXd& r, SolverReport& report,
             InputCheck check = InputCheck::kFull);

 protected:
  /// The solve itself on a validated problem and a sized, finite r.
  virtual SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) = 0;
  /// do_solve() into @p report; the default assigns do_solve()'s report.
  virtual void do_solve_into(const DelassusProblem& problem, Eigen::VectorXd& r, SolverReport& report) {
    report = do_solve(problem, r);
  }
  /// Throws sinew::Error when the solver cannot handle @p problem's block kinds (default: all fine).
  virtual void check_supported(const DelassusProblem& problem) const;
};

/// Branch of every block of @p problem at (u, r) (min-map predicates with rho = 1 for
/// unilateral rows; contacts by the Coulomb law: open r_n = 0, stick ||r_T|| < mu r_n, slip).
std::vector<RowState> block_states(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u);
/// block_states() into @p states, whose storage is reused.
void block_states(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                  std::vector<RowState>& states);

}  // namespace sinew::constraints
