// The globalization NewtonSolver and IndicatorNewtonSolver share, private to constraints: the
// checks of their common options and the Levenberg-Marquardt schedule of the proximal shift
// c ||residual|| / (1 + ||residual||) rho that both add to their Newton matrix's diagonal.
#pragma once

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints::detail {

/// Throws sinew::Error, naming @p who and the key, unless the options both Newton solvers share
/// are in range: stop.max_iterations >= 1, stop.tolerance finite and >= 0, and globalization's
/// line_search_steps >= 0, proximal finite and >= 0, proximal_growth and proximal_range finite and >= 1.
template <class Options>
void check_globalization(const std::string& who, const Options& o) {
  require(o.stop.max_iterations >= 1,
          [&] { return who + ": stop.max_iterations must be >= 1, got " + std::to_string(o.stop.max_iterations); });
  require(o.stop.tolerance >= 0.0 && std::isfinite(o.stop.tolerance),
          [&] { return who + ": stop.tolerance must be finite and >= 0, got " + number_text(o.stop.tolerance); });
  require(o.globalization.line_search_steps >= 0, [&] {
    return who + ": globalization.line_search_steps must be >= 0, got " +
           std::to_string(o.globalization.line_search_steps);
  });
  require(o.globalization.proximal >= 0.0 && std::isfinite(o.globalization.proximal), [&] {
    return who + ": globalization.proximal must be finite and >= 0, got " + number_text(o.globalization.proximal);
  });
  require(o.globalization.proximal_growth >= 1.0 && std::isfinite(o.globalization.proximal_growth), [&] {
    return who + ": globalization.proximal_growth must be finite and >= 1, got " +
           number_text(o.globalization.proximal_growth);
  });
  require(o.globalization.proximal_range >= 1.0 && std::isfinite(o.globalization.proximal_range), [&] {
    return who + ": globalization.proximal_range must be finite and >= 1, got " +
           number_text(o.globalization.proximal_range);
  });
}

/// Throws sinew::Error, naming @p who and the block, when @p problem has a box-friction block: the
/// NCP functions of both Newton solvers model circular cones only.
inline void check_no_box_friction(const std::string& who, const DelassusProblem& problem) {
  for (std::size_t b = 0; b < problem.blocks.size(); ++b)
    require(problem.blocks[b].kind != BlockKind::kContactBoxFriction, [&] {
      return who + ": block " + std::to_string(b) +
             " uses box friction, which the NCP functions do not model; use PgsSolver or a circular cone";
    });
}

/// The factor lambda of the proximal shift: it starts at the options' proximal, grows by
/// proximal_growth while steps need damping (a larger shift bends the step toward the gradient and
/// shortens it) up to proximal x proximal_range, and relaxes back on full steps, so that
/// well-posed problems keep the fixed factor and their quadratic rate.
class ProximalSchedule {
 public:
  /// The schedule of checked options (check_globalization()).
  template <class Options>
  explicit ProximalSchedule(const Options& o)
      : base_(o.globalization.proximal),
        growth_(o.globalization.proximal_growth),
        max_(o.globalization.proximal * o.globalization.proximal_range),
        lambda_(o.globalization.proximal) {}
  /// The shift weight lambda e / (1 + e) at residual measure @p e: it vanishes with the residual.
  double shift(double e) const { return lambda_ * e / (1.0 + e); }
  /// True while one more growth stays within the range (never with proximal = 0 or growth = 1).
  bool can_grow() const { return lambda_ > 0.0 && growth_ > 1.0 && lambda_ * growth_ <= max_; }
  /// lambda x proximal_growth.
  void grow() { lambda_ *= growth_; }
  /// lambda / proximal_growth, not below proximal: after a full step.
  void relax() { lambda_ = std::max(base_, lambda_ / growth_); }
  /// Back to proximal.
  void reset() { lambda_ = base_; }

 private:
  double base_, growth_, max_, lambda_;
};

}  // namespace sinew::constraints::detail
