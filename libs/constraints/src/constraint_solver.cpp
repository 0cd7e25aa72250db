#include "sinew/constraints/constraint_solver.hpp"

#include <cmath>

#include "sinew/core/error.hpp"

namespace sinew::constraints {

std::string to_string(SolverStatus status) {
  switch (status) {
    case SolverStatus::kConverged:
      return "converged";
    case SolverStatus::kNotConverged:
      return "not converged";
    case SolverStatus::kFailed:
      return "failed";
  }
  return "unknown";
}

void ConstraintSolver::check_supported(const DelassusProblem&) const {}

void SolverReport::reset() {
  status = SolverStatus::kNotConverged;
  iterations = 0;
  error = 0.0;
  error_history.clear();
  states.clear();
  inner_iterations = 0;
  message.clear();
}

SolverReport ConstraintSolver::solve(const DelassusProblem& problem, Eigen::VectorXd& r, InputCheck check) {
  SolverReport report;
  solve(problem, r, report, check);
  return report;
}

void ConstraintSolver::solve(const DelassusProblem& problem, Eigen::VectorXd& r, SolverReport& report,
                             InputCheck check) {
  if (check == InputCheck::kFull) problem.validate();
  check_supported(problem);
  if (r.size() == 0) r = Eigen::VectorXd::Zero(problem.rows());
  require(r.size() == problem.rows(), [&] {
    return name() + ": the warm start r must have " + std::to_string(problem.rows()) + " entries, got " +
           std::to_string(r.size());
  });
  if (check == InputCheck::kFull)
    for (Eigen::Index i = 0; i < r.size(); ++i)
      require(std::isfinite(r[i]),
              [&] { return name() + ": warm start entry " + std::to_string(i) + " is not finite"; });
  do_solve_into(problem, r, report);
}

std::vector<RowState> block_states(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u) {
  std::vector<RowState> states;
  block_states(problem, r, u, states);
  return states;
}

void block_states(const DelassusProblem& problem, const Eigen::VectorXd& r, const Eigen::VectorXd& u,
                  std::vector<RowState>& states) {
  // Thresholds relative to the problem's scale, so that round-off at a converged point does not
  // flip a branch: ||q||_inf for velocities, ||r||_inf for impulses.
  const double u_eps = 1e-7 * (problem.q.size() ? problem.q.lpNorm<Eigen::Infinity>() : 0.0);
  const double r_eps = 1e-7 * (r.size() ? r.lpNorm<Eigen::Infinity>() : 0.0);
  states.clear();
  states.reserve(problem.blocks.size());
  Index row = 0;
  for (const ConstraintBlock& block : problem.blocks) {
    const double rn = r[row];
    if (block.kind == BlockKind::kBilateral) {
      states.push_back(RowState::kClosed);
    } else if (block.kind == BlockKind::kUnilateral) {
      states.push_back(rn > r_eps ? RowState::kClosed : RowState::kOpen);
    } else if (rn <= r_eps) {
      states.push_back(RowState::kOpen);
    } else {
      const double ut = std::hypot(u[row + 1], u[row + 2]);
      states.push_back(ut > u_eps ? RowState::kSlip : RowState::kStick);
    }
    row += block_size(block.kind);
  }
}

}  // namespace sinew::constraints
