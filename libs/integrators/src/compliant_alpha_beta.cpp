#include "sinew/integrators/compliant_alpha_beta.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

void CompliantAlphaBetaOptions::validate() const {
  require(std::isfinite(alpha) && alpha >= 0.0 && alpha <= 1.0,
          [&] { return "CompliantAlphaBetaOptions: alpha must be in [0, 1], got " + number_text(alpha); });
  require(std::isfinite(beta) && beta >= 0.0 && beta <= 1.0,
          [&] { return "CompliantAlphaBetaOptions: beta must be in [0, 1], got " + number_text(beta); });
  newton.validate();
}

CompliantAlphaBeta::CompliantAlphaBeta(const CompliantAlphaBetaOptions& options)
    : options_(options), ws_(std::make_unique<detail::Workspace>()) {
  options_.validate();
}

CompliantAlphaBeta::~CompliantAlphaBeta() = default;

StepReport CompliantAlphaBeta::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  // f_{n+1} at x_{n+1} = x_n + h (beta v + (1 - beta) v_n) (a = 1, c = beta) and v (b = 1),
  // weighted alpha against f_n; A = M + h alpha D + h^2 alpha beta K, projected by P.
  detail::VelocityStage stage;
  stage.a = 1.0;
  stage.c = options_.beta;
  stage.b = 1.0;
  stage.w = options_.alpha;
  stage.c_end = options_.beta;
  stage.gyroscopic_implicit = true;
  stage.linearly_implicit = options_.linearly_implicit;
  return detail::solve_velocity_stage("compliant_alpha_beta", system, in, h, stage, options_.newton, *ws_, out);
}

}  // namespace sinew::integrators
