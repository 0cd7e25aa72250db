/// @file
/// @brief The globalization options both non-smooth Newton solvers share (NewtonSolver and
/// IndicatorNewtonSolver): a backtracking line search on the solver's merit and a proximal shift
/// of the Newton matrix adapted like Levenberg-Marquardt. Each solver sets its own defaults and
/// says why (docs/benchmarks.md, "Why the defaults are what they are", has the measurements).
#pragma once

namespace sinew::constraints {

/// How a non-smooth Newton step is damped where the exact step fails: rank-deficient W among
/// sticking contacts, or kinks of the merit. With line_search_steps = 0 and proximal = 0 the
/// iteration is the seeds' undamped one.
struct GlobalizationOptions {
  /// Step halvings of the backtracking search on the solver's merit (sufficient decrease 1e-4
  /// alpha); 0 = full steps.
  int line_search_steps = 0;
  /// Initial and smallest proximal factor c: each step adds c e / (1 + e) diag(rho) to the
  /// Newton matrix (e the merit's residual measure), which vanishes with e, so the local rate is
  /// kept, and regularizes (nearly) singular steps; 0 = the exact Newton matrix.
  double proximal = 0.0;
  /// Factor by which c grows after a damped or failed step (the step is then re-solved) and
  /// shrinks, down to proximal, after a full one; 1 = a fixed factor.
  double proximal_growth = 1.0;
  /// Largest c relative to proximal; when reached and no trial decreases the merit, the solver
  /// gives up the search (see its own documentation for what it does then).
  double proximal_range = 1.0;
};

}  // namespace sinew::constraints
