// Rolling (issue 21, theta-method-convex-contact.tex "Contact Resolution"): a rigid sphere rolls
// without slipping down a 20-degree incline (mu = 1). The two-stage step with the symplectic
// midpoint rule (theta = 1/2: free motion by the theta-method, then A (v - v*) = J^T gamma with
// A = M + theta_q theta_vq dt^2 K + theta_v dt D, positions by v^theta_vq) keeps the energy,
// since stiction does no work; implicit Euler on the same scene loses it at O(dt). Both keep
// v = omega r and the analytic speed (5/7) g sin(alpha) t.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/integrators/theta_method.hpp"

namespace sinew::physics_rolling_test {
namespace {

constexpr double kG = 9.81, kRadius = 0.1, kMass = 1.0, kH = 1e-3;
const double kAlpha = 20.0 * 3.14159265358979323846 / 180.0;

struct Rolled {
  double energy_drift;  // max |E - E0| over the run / kinetic energy at the end
  double speed_error;   // |v - (5/7) g sin(alpha) t| / v at the end
  double slip;          // max |contact point velocity| / |v|
};

Rolled roll(bool midpoint, int steps) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const double I = 0.4 * kMass * kRadius * kRadius;
  const Vec3 n{{-std::sin(kAlpha), 0, std::cos(kAlpha)}};  // the incline's normal, downhill along +x
  const Index ball = sys.add_body(make_spatial_inertia(kMass, Vec3{{0, 0, 0}}, Mat3{{I, 0, 0, 0, I, 0, 0, 0, I}}),
                                  kRadius * n, quat_identity(), "ball");
  constraints::ContactOptions co;
  co.mu = 1.0;
  constraints::ContactConstraint contact(co);
  const Obstacle incline = half_space_obstacle(Vec3{{0, 0, 0}}, n);
  contact.add_obstacle(incline.shape, incline.pose);
  contact.add_body_collider(ball, Shape{ShapeType::kSphere, {kRadius, 0, 0}});
  auto backend = make_backend("serial");
  integrators::ContactStepOptions options;
  if (midpoint) options.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), options);
  integrators::State s{0.0, sys.initial_positions(), sys.initial_velocities()};
  auto energy = [&] {
    CsrMatrix M;
    sys.mass_matrix(s.t, s.q, M);
    return 0.5 * s.u.dot(to_eigen(M) * s.u) + kMass * kG * s.q[sys.body_position_offset(ball) + 2];
  };
  const double e0 = energy();
  Rolled out{0, 0, 0};
  double drift = 0.0;
  const Index d = sys.body_velocity_offset(ball);
  for (int k = 0; k < steps; ++k) {
    const integrators::ContactStepReport r = stepper.step(sys, {&contact}, s, kH);
    EXPECT_TRUE(r.ok()) << k << ": " << r.message;
    if (!r.ok()) break;
    drift = std::max(drift, std::abs(energy() - e0));
    const Eigen::Vector3d v = s.u.segment<3>(d), w = s.u.segment<3>(d + 3);
    const Eigen::Vector3d contact_point_velocity = v + w.cross(-kRadius * to_eigen(n));
    if (k > 10) out.slip = std::max(out.slip, contact_point_velocity.norm() / v.norm());
  }
  const Eigen::Vector3d v = s.u.segment<3>(d);
  const double speed = 5.0 / 7.0 * kG * std::sin(kAlpha) * s.t;
  const double kinetic = energy() - kMass * kG * s.q[sys.body_position_offset(ball) + 2];
  out.energy_drift = drift / kinetic;
  out.speed_error = std::abs(v.norm() - speed) / speed;
  std::printf(
      "ball rolling down 20 deg, %s, %d steps of 1 ms: energy drift %.2e of the kinetic energy, speed error "
      "%.2e, slip |v_contact|/|v| %.2e\n",
      midpoint ? "midpoint (theta = 1/2)" : "implicit Euler", steps, out.energy_drift, out.speed_error, out.slip);
  return out;
}

TEST(Rolling, TheMidpointRuleKeepsTheEnergyOfRollingAndImplicitEulerDoesNot) {
  const Rolled mid = roll(true, 1000), euler = roll(false, 1000);
  EXPECT_LT(mid.energy_drift, 1e-3);
  EXPECT_GT(euler.energy_drift, 10 * mid.energy_drift);
  for (const Rolled& r : {mid, euler}) {
    EXPECT_LT(r.slip, 1e-6);         // v = omega r
    EXPECT_LT(r.speed_error, 1e-9);  // the analytic rolling speed (constant acceleration: exact)
  }
}

}  // namespace
}  // namespace sinew::physics_rolling_test
