#include "sinew/constraints/kkt_solver.hpp"

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::constraints {

KktSolver::KktSolver(std::unique_ptr<LinearSolver> mass_solver) : mass_solver_(std::move(mass_solver)) {
  if (!mass_solver_) mass_solver_ = std::make_unique<EigenLdltSolver>();
}

KktSolver::~KktSolver() = default;

void KktSolver::check_supported(const DelassusProblem& problem) const {
  for (std::size_t b = 0; b < problem.blocks.size(); ++b)
    require(problem.blocks[b].kind == BlockKind::kBilateral, [&] {
      return "kkt: block " + std::to_string(b) + " is " + to_string(problem.blocks[b].kind) +
             "; the direct KKT solver handles bilateral-only problems (use PgsSolver or NewtonSolver)";
    });
  require_symmetric_w(problem, "kkt", "NewtonSolver or PgsSolver");  // it factors W by LDL^T
}

SolverReport KktSolver::do_solve(const DelassusProblem& p, Eigen::VectorXd& r) {
  SolverReport report;
  if (p.rows() > 0) {
    // W is symmetric positive definite for independent (or compliant) constraints; LinearSolver
    // throws with the failing pivot otherwise, which is the clear error we want here.
    EigenLdltSolver schur;
    schur.compute(p.W);
    r = schur.solve(Eigen::VectorXd(-p.q));
  }
  const Eigen::VectorXd u = to_eigen(p.W) * r + p.q;
  report.iterations = 1;
  report.error = natural_map_error(p, r, u).relative;
  report.error_history.push_back(report.error);
  report.states = block_states(p, r, u);
  report.status = std::isfinite(report.error) ? SolverStatus::kConverged : SolverStatus::kFailed;
  report.message = "kkt: direct LDL^T solve, natural-map error " + number_text(report.error, 4);
  return report;
}

GlobalSolution KktSolver::solve_global(const GlobalProblem& problem, SolverReport* report) {
  const DelassusProblem local = to_delassus(problem, *mass_solver_);
  GlobalSolution solution;
  const SolverReport local_report = solve(local, solution.r);
  solution.v = global_velocity(problem, *mass_solver_, solution.r);
  if (report) *report = local_report;
  return solution;
}

}  // namespace sinew::constraints
