/// @file
/// @brief The implicit alpha/beta scheme of compliant-constraints-implicit-integration.tex,
/// Sec. "Time integration" (SOFA's compliant implicit solver), without constraints:
///   v_{n+1} = v_n + h M^-1 (alpha f_{n+1} + (1 - alpha) f_n)
///   x_{n+1} = x_n + h (beta v_{n+1} + (1 - beta) v_n)
/// with the projection P that zeroes fixed velocity DOFs: (1/h) P M dv = P f in the seed's
/// system, solved here as P A P + (I - P) with A = M + h alpha D + h^2 alpha beta K.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
}

/// Options of CompliantAlphaBeta; alpha = beta = 1 is implicit Euler, 1/2 and 1/2 the
/// trapezoidal-like energy-conserving variant.
struct CompliantAlphaBetaOptions {
  double alpha = 1.0;  ///< implicit velocity factor, in [0, 1] (1: stable for any stiffness)
  double beta = 1.0;   ///< implicit position factor, in [0, 1]
  /// SOFA solves one linearized system per step; false (default) iterates Newton to tolerance so
  /// that the step's accuracy does not depend on the force's nonlinearity.
  bool linearly_implicit = false;
  NewtonOptions newton;  ///< tolerances, iterations, line search, linear solver
  /// Throws sinew::Error naming the first invalid field.
  void validate() const;
};

/// Compliant implicit alpha/beta integrator (compliant-constraints Sec. "Time integration").
/// Velocity DOFs listed by DynamicalSystem::fixed_velocity_dofs() get zero velocity (P v_n is
/// used as start velocity), so their positions never change.
class CompliantAlphaBeta final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit CompliantAlphaBeta(const CompliantAlphaBetaOptions& options = {});
  ~CompliantAlphaBeta() override;
  std::string name() const override { return "compliant_alpha_beta"; }
  /// The options in use.
  const CompliantAlphaBetaOptions& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  CompliantAlphaBetaOptions options_;
  std::unique_ptr<detail::Workspace> ws_;
};

}  // namespace sinew::integrators
