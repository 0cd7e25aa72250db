#include "sinew/integrators/trapezoidal.hpp"

#include "velocity_newton.hpp"

namespace sinew::integrators {

Trapezoidal::Trapezoidal(const TrapezoidalOptions& options)
    : options_(options), ws_(std::make_unique<detail::Workspace>()) {
  options_.validate();
}

Trapezoidal::~Trapezoidal() = default;

StepReport Trapezoidal::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  // ArtiSynth 0.9.3: force at the end point q_k (+) h/2 (u + u_k) (a = 1, c = 1/2), averaged with
  // the start force (w = 1/2); A = M + h/2 D + h^2/4 K.
  detail::VelocityStage stage;
  stage.a = 1.0;
  stage.c = 0.5;
  stage.b = 1.0;
  stage.w = 0.5;
  stage.c_end = 0.5;
  stage.gyroscopic_implicit = true;
  stage.mass_at_midpoint = true;
  return detail::solve_velocity_stage("trapezoidal", system, in, h, stage, options_.newton, *ws_, out);
}

}  // namespace sinew::integrators
