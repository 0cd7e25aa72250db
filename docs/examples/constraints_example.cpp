// A small frictional contact problem in FCLIB's local form, u = W r + q, solved by projected
// Gauss-Seidel and by non-smooth Newton (Fischer-Burmeister), and checked against its closed-form
// solution: three point masses touching the ground, one sticking, one sliding, one separating.
#include <cmath>
#include <cstdio>

#include "sinew/backends/registry.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sc = sinew::constraints;

int main() {
  // Each contact block is (normal, tangent 1, tangent 2). For a point mass m, W = I / m, and q is
  // the velocity the particle would have without contact (its free velocity after one step).
  const double m = 2.0, mu = 0.5;
  sc::DelassusProblem problem;
  problem.W = sinew::from_eigen(Eigen::MatrixXd(Eigen::MatrixXd::Identity(9, 9) / m).sparseView());
  problem.q.resize(9);
  problem.q << -1.0, 0.3, 0.0,  // pressed down, pushed gently: m |q_T| = 0.6 <= mu r_n = 1, sticks
      -1.0, 1.2, 0.5,           // pressed down, pushed hard: m |q_T| = 2.6 > 1, slides
      0.2, 1.0, 0.0;            // moving away: no impulse
  problem.blocks.assign(3, sc::ConstraintBlock{sc::BlockKind::kContact, mu});
  problem.validate();

  // The closed form: r_n = -m q_n while pressed; r_T = -m q_T when that is inside the friction
  // disk ||r_T|| <= mu r_n, else mu r_n against the slip direction.
  Eigen::VectorXd expected(9);
  const double slip = std::hypot(1.2, 0.5);
  expected << 2.0, -0.6, 0.0, 2.0, -mu * 2.0 * 1.2 / slip, -mu * 2.0 * 0.5 / slip, 0.0, 0.0, 0.0;

  sc::PgsSolver pgs;
  auto backend = sinew::make_backend("serial");  // Newton's inner Krylov vectors live here
  sc::NewtonSolver newton(*backend);

  bool ok = true;
  for (sc::ConstraintSolver* solver :
       {static_cast<sc::ConstraintSolver*>(&pgs), static_cast<sc::ConstraintSolver*>(&newton)}) {
    Eigen::VectorXd r = Eigen::VectorXd::Zero(9);  // initial guess; solvers warm-start from r
    const sc::SolverReport report = solver->solve(problem, r);
    const double error = (r - expected).norm();
    // Every solver reports the same measure: the natural-map residual relative to ||q||.
    std::printf("%-10s %-14s %3d iterations, natural-map error %.1e, |r - r_exact| = %.1e\n", solver->name().c_str(),
                sinew::constraints::to_string(report.status).c_str(), report.iterations, report.error, error);
    ok = ok && report.converged() && error < 1e-6;
  }
  return ok ? 0 : 1;
}
