#include "sinew/integrators/implicit_euler.hpp"

#include "rigid_stage.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

ImplicitEuler::ImplicitEuler(const ImplicitEulerOptions& options)
    : options_(options),
      ws_(std::make_unique<detail::Workspace>()),
      rigid_ws_(std::make_unique<detail::RigidStageWorkspace>()) {
  options_.validate();
}

ImplicitEuler::~ImplicitEuler() = default;

StepReport ImplicitEuler::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  // ArtiSynth 0.9.2: the whole force at the end point (a = b = c = w = 1), M at q_k.
  detail::VelocityStage stage;
  stage.a = stage.b = stage.c = stage.w = stage.c_end = 1.0;
  stage.gyroscopic_implicit = true;
  // Rigid bodies under gravity alone: the same iteration body by body (rigid_stage.hpp).
  if (const model::MechanicalSystem* rigid = detail::rigid_stage_system(system, options_.newton, stage)) {
    StepReport report;
    if (detail::solve_rigid_stage("implicit_euler", *rigid, in, h, stage, options_.newton, *rigid_ws_, out, report))
      return report;
  }
  return detail::solve_velocity_stage("implicit_euler", system, in, h, stage, options_.newton, *ws_, out);
}

}  // namespace sinew::integrators
