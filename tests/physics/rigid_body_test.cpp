// A torque-free rigid body through the model (world twists, offset centre of mass, fictitious
// forces in G) and the integrators: the angular momentum about a fixed world point and the
// linear momentum are invariants of the motion, kept to second order by the trapezoidal rule
// and the midpoint rule with implicit G, to first order by the Euler schemes and by the seed's
// explicit G; the orientation quaternion stays unit.
#include <gtest/gtest.h>

#include <Eigen/Geometry>
#include <algorithm>
#include <cmath>
#include <cstdio>

#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::physics_rigid_body_test {
namespace {

struct Invariants {
  Eigen::Vector3d p, L;  // linear momentum, angular momentum about the world origin
  double energy;
};

Invariants invariants(const model::MechanicalSystem& system, const integrators::State& s) {
  CsrMatrix M;
  system.mass_matrix(s.t, s.q, M);
  const Eigen::VectorXd h = to_eigen(M) * s.u;  // (momentum, angular momentum about the body origin)
  const Index o = system.body_position_offset(0);
  const Eigen::Vector3d x(s.q[o], s.q[o + 1], s.q[o + 2]);
  const Eigen::Vector3d p = h.head<3>();
  return {p, Eigen::Vector3d(h.segment<3>(3)) + x.cross(p), 0.5 * s.u.dot(h)};
}

// A box-like body (principal moments 1 : 2 : 3 about a centre of mass off the body origin),
// tumbling near its major axis, moving along y.
void add_tumbling_body(model::MechanicalSystem& system) {
  Mat3 J{};
  J(0, 0) = 1.0;
  J(1, 1) = 2.0;
  J(2, 2) = 3.0;
  J(0, 1) = J(1, 0) = 0.1;
  const SpatialInertia inertia = make_spatial_inertia(2.0, Vec3{{0.1, -0.05, 0.2}}, J);
  const double c = std::cos(0.3), s = std::sin(0.3);
  system.add_body(inertia, Vec3{{0.5, 0, 0}}, Quaternion{c, Vec3{{s / std::sqrt(2.0), 0, s / std::sqrt(2.0)}}}, "box",
                  Vec3{{0, 0.4, 0}}, Vec3{{0.3, -0.2, 2.0}});
}

struct Drift {
  double momentum, angular_momentum, energy, quaternion;
};

std::unique_ptr<integrators::Integrator> make(const std::string& name) {
  if (name != "theta_midpoint_implicit_g") return integrators::make_integrator(name);
  integrators::ThetaOptions o = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  o.gyroscopic = integrators::GyroscopicTreatment::kImplicit;
  return std::make_unique<integrators::ThetaMethod>(o);
}

Drift run(const std::string& integrator_name, double h, double duration) {
  model::MechanicalSystem system;
  add_tumbling_body(system);
  auto integrator = make(integrator_name);
  integrators::State s{0.0, system.initial_positions(), system.initial_velocities()};
  const Invariants start = invariants(system, s);
  Drift d{0, 0, 0, 0};
  const int steps = static_cast<int>(std::lround(duration / h));
  for (int k = 0; k < steps; ++k) {
    const integrators::StepReport r = integrator->step(system, s, h);
    EXPECT_TRUE(r.ok()) << integrator_name << " step " << k << ": " << r.message;
    if (!r.ok()) break;
    const Invariants now = invariants(system, s);
    d.momentum = std::max(d.momentum, (now.p - start.p).norm() / start.p.norm());
    d.angular_momentum = std::max(d.angular_momentum, (now.L - start.L).norm() / start.L.norm());
    d.energy = std::max(d.energy, std::abs(now.energy - start.energy) / start.energy);
    const Index o = system.body_position_offset(0);
    d.quaternion = std::max(d.quaternion, std::abs(s.q.segment<4>(o + 3).norm() - 1.0));
  }
  std::printf("torque-free body, %s, h = %g, %d steps: drift |p| %.2e, |L| %.2e, energy %.2e, |q|-1 %.2e\n",
              integrator_name.c_str(), h, steps, d.momentum, d.angular_momentum, d.energy, d.quaternion);
  return d;
}

// Second-order schemes: every invariant's drift over 2 s shrinks ~4x when h halves, and is small.
TEST(TorqueFreeRigidBody, SecondOrderSchemesConserveToSecondOrder) {
  for (const char* name : {"trapezoidal", "theta_midpoint_implicit_g"}) {
    SCOPED_TRACE(name);
    const Drift coarse = run(name, 2e-3, 2.0), fine = run(name, 1e-3, 2.0);
    EXPECT_NEAR(std::log2(coarse.momentum / fine.momentum), 2.0, 0.3);
    EXPECT_NEAR(std::log2(coarse.angular_momentum / fine.angular_momentum), 2.0, 0.3);
    EXPECT_LT(fine.momentum, 1e-5);
    EXPECT_LT(fine.angular_momentum, 1e-5);
    EXPECT_LT(fine.energy, 1e-5);
    EXPECT_LT(fine.quaternion, 1e-12);
  }
}

// First-order schemes (and the seed's explicit G in the midpoint rule): the drift halves with h.
TEST(TorqueFreeRigidBody, FirstOrderSchemesDriftToFirstOrder) {
  for (const char* name : {"implicit_euler", "symplectic_euler", "theta_midpoint"}) {
    SCOPED_TRACE(name);
    const Drift coarse = run(name, 2e-3, 2.0), fine = run(name, 1e-3, 2.0);
    EXPECT_NEAR(std::log2(coarse.momentum / fine.momentum), 1.0, 0.2);
    EXPECT_LT(fine.quaternion, 1e-12);
  }
}

}  // namespace
}  // namespace sinew::physics_rigid_body_test
