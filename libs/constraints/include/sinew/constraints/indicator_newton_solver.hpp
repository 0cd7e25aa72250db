/// @file
/// @brief The realtime hyperelastic paper's own non-smooth Newton step (Sec. 5.2-5.4,
/// Algorithm 3's inner solve): DIAGONAL non-smooth indicators (eq. (25), ncp_indicators.hpp),
/// the symmetric Schur complement Omega W Omega^T + E (eq. (26)) with W formed once, the
/// complementarity preconditioner from diag(W) (eq. (28)) and a few conjugate-residual
/// iterations per step, all on a Backend.
///
/// The step in FCLIB's variables. With per-row indicators omega_i >= 0 and e_i >= 0 at the
/// current (u, r), u = W r + q, the seed's linearization (eqs. (17), (21)-(22)) is
///   (Omega W + E) dr = -phi.                                                      (a)
/// Rows with omega_i = 0 (open unilateral rows under min-map, inactive friction, FB rows whose
/// omega is below 1e-8) do not see W: dr_i = -phi_i / e_i (their e_i > 0). Call them O, the
/// others C. For C substitute dr_C = Omega_C y: row i of (a) then reads
///   omega_i (W Omega y)_i + e_i omega_i y_i = -phi_i - omega_i (W dr_O)_i,
/// i.e. (Omega W Omega + E Omega) y = -phi_C - Omega W dr_O, symmetric positive semi-definite
/// (E Omega >= 0 diagonal). This is eq. (26)'s Omega W Omega^T + E: the seed applies the
/// constraint forces through J^T = H^T Omega (eq. (21)), so its multipliers are y and FCLIB's
/// impulses are r = Omega y, and its E on y is our E Omega. Rows of O get 1 on the operator's
/// diagonal and 0 on the right-hand side (y_O = 0), so CR sees one nonsingular-on-O symmetric
/// matrix. The step is dr = Omega y + dr_O.
/// Why not the other symmetric form (W_CC + E_C Omega_C^-1) dr_C = -Omega_C^-1 phi_C - W_CO dr_O
/// (row i divided by omega_i)? It is the same system scaled by Omega on both sides, and the
/// Jacobi-preconditioned CR iterates are invariant under such a scaling (the preconditioner
/// omega_i^2 W_ii + e_i omega_i scales with it), so it is not better; the seed's form is kept.
///
/// Preconditioner of CR: the inverse diagonal 1 / (omega_i^2 W_ii + e_i omega_i) (1 on O).
/// Friction uses the seed's fixed-point split (E_f frozen within a step), so convergence is
/// linear at best.
///
/// Globalization (not in the seed, whose Algorithm 3 takes ~10 undamped steps per time step and
/// never checks convergence). The undamped iteration cycles wherever W is rank-deficient, which
/// is the common case of rigid bodies with several contacts: on a box resting on its 4 corners
/// (12 rows of rank 6) the friction jumps between the front and back pairs every step (one pair
/// classified stick takes the whole load, leaving the other outside its cone, and back), and it
/// stalls far above the tolerance there (figures in docs/benchmarks.md). So, by default:
///  - a backtracking search on the natural-map error (the reported measure) damps the step;
///  - a proximal shift c err / (1 + err) rho is added to E on coupled rows (the diagonal stays
///    diagonal, the matrix symmetric): it picks, among the steps of a singular Omega W Omega, one
///    close to the current r, and it vanishes with the error; c adapts like Levenberg-Marquardt
///    (grows after a damped or failed step, shrinks after a full one, restarts when capped).
/// With globalization.line_search_steps = 0 and globalization.proximal = 0 it is the seed's
/// undamped iteration.
///
/// Domain of validity, and what happens outside it. The frozen friction compliance can stall
/// for good on real problems: the 60-contact LMGC90 problem of Siconos' test data at 0.18, the
/// 4-contact Confeti problem at 5e-4, after 2000 steps. So when the least error has not dropped
/// tenfold in stall_steps steps, the solve goes on from the current r with NewtonSolver's exact
/// generalized Jacobians (on the same backend, same NCP function) and the report says so; with
/// stall_steps = 0 the seed's iteration runs alone to its limit.
#pragma once

#include <memory>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/constraints/globalization_options.hpp"
#include "sinew/constraints/indicator_newton_step.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/linalg/krylov.hpp"

namespace sinew::constraints {

/// Options of IndicatorNewtonSolver; the file comment explains the globalization, and docs/benchmarks.md
/// ("Why the defaults are what they are") gives the measurements behind each default.
struct IndicatorNewtonOptions {
  /// Tolerance on the natural-map error and limit of Newton steps: 2000, not NewtonSolver's 100,
  /// because the fixed-point friction converges only linearly.
  ConstraintSolverOptions stop{1e-8, 2000};
  NcpFunction function = NcpFunction::kFischerBurmeister;  ///< the seed's choice (Sec. 6)
  /// CR iterations per Newton step: 10, the seed's Table 3 count, kept because 5 is no faster
  /// beyond noise and more iterations save Newton steps but not time.
  int cr_iterations = 10;
  /// Steps without a tenfold drop of the least error after which the solve is finished by
  /// NewtonSolver's exact steps (file comment); 50, because linear convergence at a rate of 0.95
  /// per step still drops tenfold in 45 steps and is left alone; 0 = never.
  int stall_steps = 50;
  /// Relative CR residual that ends a step's CR early; 0 (default) = always cr_iterations, the
  /// seed's fixed count, because an early exit was measured no faster.
  double cr_tolerance = 0.0;
  /// The search is on the natural-map error, the shift on the coupled rows' E (the matrix stays
  /// symmetric). 5 halvings, because more did not reduce the steps on the test problems; c = 1,
  /// because it took the fewest steps there and 0 (line search only) failed on two of them;
  /// growth 10 up to 1e6, because smaller caps left the incline box unconverged.
  GlobalizationOptions globalization{5, 1.0, 10.0, 1e6};
};

/// The seed's non-smooth Newton with diagonal indicators and conjugate residual (file comment):
/// a loop of IndicatorNewtonStep directions (indicator_newton_step.hpp) with the globalization above.
/// Per step, on the backend given at construction: one per-block kernel (for_each_range on host
/// backends, a CUDA kernel of the same SINEW_HD functions on "cuda") evaluates phi, omega, e and
/// the CR quantities; CR runs on the operator y -> Omega W Omega y + (E Omega) y with W uploaded
/// once per solve; then r = r_prev + alpha dr and u = W r + q. r and u are downloaded once per
/// trial step to evaluate the natural-map error on the host (the common stopping rule, report
/// and line-search merit). Handles
/// bilateral, unilateral and circular-cone contact blocks; needs W_ii > 0 (eq. (28)).
/// Deterministic: the backends' reductions have a fixed order, so serial and tbb give the same
/// bits. report.inner_iterations counts CR iterations.
class IndicatorNewtonSolver final : public ConstraintSolver {
 public:
  /// A solver on @p backend (which must outlive it); throws sinew::Error on bad options
  /// (max_iterations or cr_iterations < 1, tolerance < 0, cr_tolerance outside [0, 1), or a
  /// globalization option out of range as in NewtonSolver) or a backend that runs
  /// no host code and has no CUDA kernel. solve() throws for box-friction blocks and for a W
  /// that is not symmetric to 1e-10 relative (conjugate residual needs a symmetric operator).
  explicit IndicatorNewtonSolver(Backend& backend, const IndicatorNewtonOptions& options = {});
  ~IndicatorNewtonSolver() override;
  /// "newton-cr-fb" or "newton-cr-minmap".
  std::string name() const override;

 protected:
  SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) override;
  void check_supported(const DelassusProblem& problem) const override;

 private:
  // Goes on from @p r with NewtonSolver after @p steps stalled steps, merging its report.
  SolverReport finish_exactly(const DelassusProblem& p, Eigen::VectorXd& r, SolverReport report, int steps) const;

  Backend* backend_;
  IndicatorNewtonOptions options_;
  std::unique_ptr<IndicatorNewtonStep> step_;  // the per-step machinery (indicator_newton_step.hpp)
};

}  // namespace sinew::constraints
