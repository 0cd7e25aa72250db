/// @file
/// @brief Non-smooth Newton on the NCP reformulation of the local problem (realtime paper
/// Sec. 5.1-5.4, Algorithm 3's inner step): Alart-Curnier (min-map) or second-order-cone
/// Fischer-Burmeister, complementarity preconditioner from diag(W) (eq. (28)), exact per-contact
/// 3x3 generalized Jacobians split as Omega W + E (eqs. (25)-(26)), solved by sparse LU or
/// matrix-free BiCGSTAB on a Backend.
#pragma once

#include <memory>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/constraints/globalization_options.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/linalg/krylov.hpp"

namespace sinew::constraints {

/// How each Newton step's system (Omega W + E) dr = -phi is solved. The matrix is not symmetric
/// once the slip blocks are exact, so the seed's conjugate residual no longer applies. Both
/// give the same Newton iterates to the inner tolerance (the same outer iteration counts); they
/// differ in cost: LU is faster on small problems, BiCGSTAB on large ones, whose LU fills in
/// (timings in docs/benchmarks.md).
enum class NewtonLinearSolver {
  /// A dense LU (partial pivoting) up to 48 rows, kSparseLu up to kAutoLuRows rows, kBiCgStab
  /// above: the fastest at each size. Up to kAutoLuRows, a W of bandwidth b with 4 (b + 1) <= m
  /// and at least a third of its band stored (contacts ordered along a stack or a chain) is
  /// factored in band storage by LU with partial pivoting within the band instead of kSparseLu:
  /// O(m b^2) and no allocation per step.
  kAuto,
  /// Eigen::SparseLU (COLAMD) of the assembled Omega W + E: exact steps, one symbolic analysis per
  /// solve (the pattern of W plus the diagonal blocks is fixed) and one numeric factorization per
  /// step; a singular matrix is retried with a small diagonal shift. Host only.
  kSparseLu,
  /// Matrix-free BiCGSTAB on the backend (SpMV with W formed once, block-diagonal Omega, E per
  /// step, eq. (26)), right-preconditioned by the inverses of the diagonal blocks
  /// Omega_c W_cc + E_c; inexact steps to NewtonOptions::krylov's tolerance. Scales to large m
  /// and runs on device backends.
  kBiCgStab
};

/// Largest problem (rows) that NewtonLinearSolver::kAuto solves by sparse LU.
constexpr Index kAutoLuRows = 512;

/// Options of NewtonSolver.
struct NewtonOptions {
  ConstraintSolverOptions stop{1e-8, 100};  ///< tolerance and Newton-step limit (100: generous for FB/min-map)
  NcpFunction function = NcpFunction::kFischerBurmeister;  ///< the seed's choice (Sec. 6)
  /// Stopping rule of the BiCGSTAB inner solve (matrix-free steps only); 1e-10 keeps the inexact Newton
  /// step accurate enough for quadratic convergence down to the outer tolerance.
  KrylovOptions krylov{1e-10, 500, false};
  NewtonLinearSolver linear = NewtonLinearSolver::kAuto;  ///< how each step's system is solved
  /// Armijo on the merit 1/2 ||phi||^2, shift c ||phi|| / (1 + ||phi||) diag(rho). 20 halvings;
  /// c = 0.01, because it cuts the steps on rank-deficient heaps and leaves the others' counts
  /// unchanged; growth 10 up to 1e10, which the condensed chain over a box (W dense and singular)
  /// needs: with a fixed factor both NCP functions stall above the tolerance there.
  GlobalizationOptions globalization{20, 0.01, 10.0, 1e10};
  /// Non-monotone line search: Armijo is measured from the largest merit of the last this many
  /// iterates (and the current one), which lets min-map steps cross the kinks of its merit (with
  /// 0, monotone, min-map stalls on the chain over a box).
  int merit_memory = 10;
};

/// Non-smooth Newton. Per step, with u = W r + q and per-block (phi, Omega_c, E_c) from
/// ncp_functions.hpp, it solves the generalized Newton system (Omega W + E) dr = -phi, Omega and
/// E block-diagonal (1x1 per bilateral/unilateral row, 3x3 per contact, exact derivatives of the
/// NCP functions, so convergence is quadratic near a strictly complementary solution). W is
/// formed once per solve; only the block-diagonal factors change per step (eq. (26)). A
/// non-monotone backtracking line search on 1/2 ||phi||^2 damps the step (the exact step is a
/// descent direction of that merit); damped steps raise the proximal shift (Levenberg-Marquardt),
/// and when no trial meets Armijo the step is re-solved with a larger shift, then steepest
/// descent on that merit from the Cauchy point is tried, and the solve reports kNotConverged
/// ("stalled") when neither decreases it. An exactly singular LU is retried with
/// 1e-10 tr(W) / m added to the diagonal. Handles bilateral, unilateral and circular-cone
/// contacts; requires W_ii > 0 (eq. (28)). Deterministic: the same input gives the same iterates
/// on a given backend. report.inner_iterations counts LU factorizations or BiCGSTAB iterations.
class NewtonSolver final : public ConstraintSolver {
 public:
  /// A solver whose Krylov vectors live on @p backend (which must outlive it). Throws sinew::Error
  /// when max_iterations < 1, merit_memory < 0, or a globalization option is out of range
  /// (line_search_steps < 0, proximal < 0 or not finite, proximal_growth or proximal_range < 1).
  /// solve() throws for box-friction blocks.
  explicit NewtonSolver(Backend& backend, const NewtonOptions& options = {});
  ~NewtonSolver() override;
  std::string name() const override;

 protected:
  SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) override;
  /// Fills @p report in place: a converged solve allocates nothing once its storage has grown.
  void do_solve_into(const DelassusProblem& problem, Eigen::VectorXd& r, SolverReport& report) override;
  void check_supported(const DelassusProblem& problem) const override;

 private:
  struct Workspace;  // the iterates, Jacobian blocks and direct factorization, kept between solves

  Backend* backend_;
  NewtonOptions options_;
  std::unique_ptr<KrylovSolver> krylov_;
  std::unique_ptr<Workspace> work_;  // a solve of a size seen before allocates no scratch
};

}  // namespace sinew::constraints
