/// @file
/// @brief Projected Gauss-Seidel with Coulomb friction on the local problem (ArtiSynth notes
/// 0.15-0.16, Gauss-Seidel friction), circular cone or box, with relaxation and a fixed order.
#pragma once

#include "sinew/constraints/constraint_solver.hpp"

namespace sinew::constraints {

/// Options of PgsSolver.
struct PgsOptions {
  ConstraintSolverOptions stop;  ///< tolerance and sweep limit
  /// Relaxation factor in (0, 2); 1 is plain Gauss-Seidel, the safe default for SPD W.
  double relaxation = 1.0;
  /// Evaluate the natural-map error (a product u = W r + q, as costly as a sweep) on a schedule
  /// instead of after every sweep: after the first 8 sweeps, the next check comes after half the
  /// sweeps that the rate measured between the last two checks predicts to the tolerance (at
  /// most 64, and at most a quarter of the sweeps so far), so a solve stops at most 25% of its
  /// sweeps late and spends about half the time of checking every sweep. false: every sweep (the stopping sweep is then
  /// the first below the tolerance).
  bool scheduled_checks = true;
};

/// Block projected Gauss-Seidel. One sweep visits the blocks in row order (deterministic); per
/// block it computes u = W r + q from W's rows and updates
///   bilateral   r_i <- r_i - w u_i / W_ii;
///   unilateral  r_i <- max(0, r_i - w u_i / W_ii);
///   contact     r_n <- max(0, r_n - w u_n / W_nn), then with u_T recomputed,
///               r_T <- proj(r_T - w u_T / d_t) onto the disk ||r_T|| <= mu r_n (circular) or
///               the square |r_t| <= mu r_n (box), d_t the largest eigenvalue of W's tangent
///               2x2 block: one scalar step for both tangents keeps the fixed point's friction
///               opposite to the slip (maximal dissipation), which per-tangent steps would not.
/// The error is the natural-map error (natural_map.hpp), evaluated after every sweep or on the
/// schedule of PgsOptions::scheduled_checks (SolverReport::error_history then holds the checks
/// only), and always after the last sweep.
class PgsSolver final : public ConstraintSolver {
 public:
  /// A solver with @p options; throws sinew::Error unless 0 < relaxation < 2 and max_iterations >= 1.
  explicit PgsSolver(const PgsOptions& options = {});
  std::string name() const override { return "pgs"; }

 protected:
  SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) override;
  /// Fills @p report in place: a solve allocates nothing once its storage has grown.
  void do_solve_into(const DelassusProblem& problem, Eigen::VectorXd& r, SolverReport& report) override;

 private:
  PgsOptions options_;
  std::vector<Index> offsets_;  // the blocks' first rows, kept between solves
  Eigen::VectorXd step_, u_;    // the diagonal steps and u = W r + q, kept between solves
};

}  // namespace sinew::constraints
