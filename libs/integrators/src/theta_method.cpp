#include "sinew/integrators/theta_method.hpp"

#include <cmath>
#include <cstdio>

#include "rigid_stage.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

ThetaOptions ThetaOptions::preset(ThetaPreset preset) {
  ThetaOptions o;
  switch (preset) {
    case ThetaPreset::kExplicitEuler:
      o.theta_q = o.theta_v = o.theta_vq = 0.0;
      break;
    case ThetaPreset::kSymplecticEuler:
      o.theta_q = 0.0;
      o.theta_v = o.theta_vq = 1.0;
      break;
    case ThetaPreset::kImplicitEuler:
      o.theta_q = o.theta_v = o.theta_vq = 1.0;
      break;
    case ThetaPreset::kSymplecticMidpoint:
      o.theta_q = o.theta_v = o.theta_vq = 0.5;
      break;
  }
  return o;
}

void ThetaOptions::validate() const {
  auto in_unit = [](double x) { return std::isfinite(x) && x >= 0.0 && x <= 1.0; };
  require(in_unit(theta_q), [&] { return "ThetaOptions: theta_q must be in [0, 1], got " + number_text(theta_q); });
  require(in_unit(theta_v), [&] { return "ThetaOptions: theta_v must be in [0, 1], got " + number_text(theta_v); });
  require(in_unit(theta_vq), [&] { return "ThetaOptions: theta_vq must be in [0, 1], got " + number_text(theta_vq); });
  require(gyroscopic == GyroscopicTreatment::kExplicit || gyroscopic == GyroscopicTreatment::kImplicit,
          "ThetaOptions: gyroscopic must be kExplicit or kImplicit");
  newton.validate();
}

ThetaMethod::ThetaMethod(const ThetaOptions& options)
    : options_(options),
      ws_(std::make_unique<detail::Workspace>()),
      rigid_ws_(std::make_unique<detail::RigidStageWorkspace>()) {
  options_.validate();
  name_ = name();  // made once: messages name the scheme, steps build no string
}

ThetaMethod::~ThetaMethod() = default;

std::string ThetaMethod::name() const {
  const double q = options_.theta_q, v = options_.theta_v, vq = options_.theta_vq;
  if (q == 0.0 && v == 0.0 && vq == 0.0) return "theta_explicit_euler";
  if (q == 0.0 && v == 1.0 && vq == 1.0) return "theta_symplectic_euler";
  if (q == 1.0 && v == 1.0 && vq == 1.0) return "theta_implicit_euler";
  if (q == 0.5 && v == 0.5 && vq == 0.5) return "theta_midpoint";
  char buf[96];
  std::snprintf(buf, sizeof buf, "theta(%g,%g,%g)", q, v, vq);
  return buf;
}

StepReport ThetaMethod::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  // eq. position_update: q^theta_q = q0 (+) h theta_q v^theta_vq (a = theta_q, c = theta_vq);
  // eq. v_update: F at (q^theta_q, v^theta_v) with weight 1, M at q^theta_q; eq. q_update: end
  // positions with v^theta_vq.
  detail::VelocityStage stage;
  stage.a = options_.theta_q;
  stage.c = options_.theta_vq;
  stage.b = options_.theta_v;
  stage.w = 1.0;
  stage.c_end = options_.theta_vq;
  stage.gyroscopic_implicit = options_.gyroscopic == GyroscopicTreatment::kImplicit;
  stage.mass_at_force_point = true;
  // Rigid bodies under gravity alone: the same iteration body by body (rigid_stage.hpp).
  if (const model::MechanicalSystem* rigid = detail::rigid_stage_system(system, options_.newton, stage)) {
    StepReport report;
    if (detail::solve_rigid_stage(name_.c_str(), *rigid, in, h, stage, options_.newton, *rigid_ws_, out, report))
      return report;
  }
  return detail::solve_velocity_stage(name_.c_str(), system, in, h, stage, options_.newton, *ws_, out);
}

}  // namespace sinew::integrators
