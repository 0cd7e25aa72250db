// The trapezoidal rule and Bridson-Marino with constraints (ArtiSynth notes 0.9.3, 0.9.4, 0.10;
// issue 21, part 5): ContactStep with these schemes is its integrator where no row is active, the
// trapezoidal rule slides a particle down a rough incline exactly (constant acceleration, the
// average-velocity position update) where implicit Euler lags by h a t / 2, so does
// Bridson-Marino (its constraint acts on the half-step velocity that moves the positions), and
// Bridson-Marino holds a box at rest with the floor carrying its weight.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_point.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::physics_contact_schemes_test {
namespace {

using integrators::ContactStep;
using integrators::ContactStepOptions;
using integrators::State;

ContactStepOptions scheme(const std::string& name) {
  ContactStepOptions o;
  if (name == "trapezoidal") o.trapezoidal = integrators::TrapezoidalOptions{};
  if (name == "bridson_marino") o.bridson_marino = integrators::BridsonMarinoOptions{};
  if (name == "theta_midpoint")
    o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  return o;
}

std::unique_ptr<ContactStep> make_step(const std::string& name, Backend& backend) {
  return std::make_unique<ContactStep>(contact_test::make_contact_solver("newton_fb", backend, 1e-13), scheme(name));
}

// Two particles on a spring swinging under gravity, far above a floor: no row is ever active.
TEST(ContactSchemes, WithoutActiveRowsEachIsItsIntegrator) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Index a = sys.add_particle(1.0, Vec3{{0, 0, 1}}, "a", Vec3{{0.3, 0, 0}});
  const Index b = sys.add_particle(2.0, Vec3{{0.2, 0.1, 1.1}}, "b", Vec3{{0, -0.2, 0.1}});
  auto springs = std::make_shared<model::AxialSpringField>();
  LinearAxialSpring spring;
  spring.stiffness = 500.0;
  spring.damping = 0.5;
  spring.rest_length = 0.15;
  springs->add(model::particle_point(a), model::particle_point(b), spring);
  sys.add_force_field(springs);
  constraints::ContactConstraint contact;
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_particles(0, 2);
  auto backend = make_backend("serial");
  for (const std::string name : {"trapezoidal", "bridson_marino"}) {
    SCOPED_TRACE(name);
    auto step = make_step(name, *backend);
    auto integrator = integrators::make_integrator(name);
    State s{0.0, sys.initial_positions(), sys.initial_velocities()}, r = s;
    for (int k = 0; k < 50; ++k) {
      const auto report = step->step(sys, {&contact}, s, 2e-3);
      ASSERT_TRUE(report.ok()) << report.message;
      ASSERT_EQ(report.rows, 0);
      ASSERT_TRUE(integrator->step(sys, r, 2e-3).ok());
    }
    EXPECT_EQ(s.q, r.q);
    EXPECT_EQ(s.u, r.u);
    EXPECT_GT((s.q - sys.initial_positions()).norm(), 0.01) << "the particles move";
  }
}

// A particle released on a rough incline of 30 degrees (mu = 0.3) slides with the constant
// acceleration a = g (sin - mu cos): x = a t^2 / 2 along the slope.
struct Slide {
  double error = 0.0;  // |distance along the slope - a t^2 / 2| at t = 0.3 s
  double lift = 0.0;   // largest |distance from the plane|
};

Slide slide(const std::string& name, double h) {
  const double angle = 30.0 * contact_test::kPi / 180.0, mu = 0.3, g = 9.81;
  const Vec3 n{{std::sin(angle), 0, std::cos(angle)}}, down{{std::cos(angle), 0, -std::sin(angle)}};
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -g}});
  sys.add_particle(1.0, Vec3{{0, 0, 0}}, "p");
  constraints::ContactOptions o;
  o.mu = mu;
  constraints::ContactConstraint contact(o);
  const Obstacle plane = half_space_obstacle(Vec3{{0, 0, 0}}, n);
  contact.add_obstacle(plane.shape, plane.pose);
  contact.add_particles(0, 1);
  auto backend = make_backend("serial");
  auto step = make_step(name, *backend);
  State s{0.0, sys.initial_positions(), sys.initial_velocities()};
  Slide out;
  const int steps = static_cast<int>(std::lround(0.3 / h));
  for (int k = 0; k < steps; ++k) {
    const auto r = step->step(sys, {&contact}, s, h);
    if (!r.ok()) {
      ADD_FAILURE() << name << " step " << k << ": " << r.message;
      break;
    }
    const Vec3 x{{s.q[0], s.q[1], s.q[2]}};
    out.lift = std::max(out.lift, std::abs(dot(x, n)));
  }
  const double a = g * (std::sin(angle) - mu * std::cos(angle));
  const Vec3 x{{s.q[0], s.q[1], s.q[2]}};
  out.error = std::abs(dot(x, down) - 0.5 * a * 0.3 * 0.3);
  return out;
}

TEST(ContactSchemes, TheTrapezoidalRuleSlidesDownAnInclineExactly) {
  const Slide trap = slide("trapezoidal", 1e-3), euler = slide("implicit_euler", 1e-3);
  std::printf("[ schemes ] incline slide, 0.3 s of 1 ms steps: trapezoidal error %.2e m, implicit Euler %.2e m\n",
              trap.error, euler.error);
  EXPECT_LT(trap.error, 1e-10);
  EXPECT_LT(trap.lift, 1e-10) << "the particle stays on the plane";
  EXPECT_NEAR(euler.error, 0.5 * 1e-3 * 0.3 * 9.81 * (0.5 - 0.3 * std::sqrt(3.0) / 2), 1e-6)
      << "implicit Euler lags by h a t / 2";
}

// Bridson-Marino's positions move by the constrained half-step velocity, u_k + h/2 a: exact too.
TEST(ContactSchemes, BridsonMarinoSlidesDownAnInclineExactly) {
  for (const double h : {2e-3, 1e-3}) {
    const Slide bm = slide("bridson_marino", h);
    std::printf("[ schemes ] incline slide, Bridson-Marino (h = %g s) error %.2e m\n", h, bm.error);
    EXPECT_LT(bm.error, 1e-10);
    EXPECT_LT(bm.lift, 1e-10) << "the particle stays on the plane";
  }
}

// A box resting on the floor: Bridson-Marino's constraint at the half step removes the velocity
// gravity gives over a whole step (h/2 from the last step's second half, h/2 from this first
// half), so the floor carries m g h per step and the box stays; the end velocity is the second
// half's -g h / 2.
TEST(ContactSchemes, BridsonMarinoHoldsABoxAtRest) {
  scene::ContactScene sc = scene::incline_scene(0.0, 0.5);
  auto backend = make_backend("serial");
  auto step = make_step("bridson_marino", *backend);
  const double h = sc.time_step, m = 1.0, g = 9.81;
  const Eigen::VectorXd q0 = sc.state.q;
  double floor = 0.0;
  for (int k = 0; k < 200; ++k) {
    const auto r = step->step(*sc.system, sc.constraints(), sc.state, h);
    ASSERT_TRUE(r.ok()) << k << ": " << r.message;
    const Eigen::VectorXd& impulses = step->last_impulses();
    floor = 0.0;
    for (Index c = 0; c < r.contacts; ++c) floor += impulses[3 * c];
  }
  EXPECT_LT((sc.state.q - q0).cwiseAbs().maxCoeff(), 1e-12) << "the box stays";
  EXPECT_NEAR(floor, m * g * h, 1e-9 * m * g * h);
  EXPECT_NEAR(sc.state.u[2], -0.5 * g * h, 1e-12);
}

// A rigid pendulum on a hinge swinging for 1 s: with the hinge's Jacobian at the chord's
// midpoint, the trapezoidal and midpoint rules keep its energy (the rotation's exponential map
// leaves an O(h^2) residue), Bridson-Marino nearly; implicit Euler's rows at the start do not.
double pendulum_energy_loss(const std::string& name) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Index b = sys.add_body(scene::box_inertia(1.0, Vec3{{0.2, 0.02, 0.02}}), Vec3{{0.2, 0, 0}}, quat_identity());
  const constraints::HingeJoint hinge("hinge", constraints::world_side(Vec3{{0, 0, 0}}, Vec3{{0, 1, 0}}),
                                      constraints::body_side(b, Vec3{{-0.2, 0, 0}}, Vec3{{0, 1, 0}}));
  auto backend = make_backend("serial");
  auto step = make_step(name, *backend);
  State s{0.0, sys.initial_positions(), sys.initial_velocities()};
  const double e0 = sys.kinetic_energy(0.0, s.q, s.u) + sys.potential_energy(0.0, s.q);
  for (int k = 0; k < 500; ++k) {
    const auto r = step->step(sys, {&hinge}, s, 2e-3);
    if (!r.ok()) {
      ADD_FAILURE() << name << " step " << k << ": " << r.message;
      break;
    }
  }
  const double e1 = sys.kinetic_energy(s.t, s.q, s.u) + sys.potential_energy(s.t, s.q);
  return (e0 - e1) / (9.81 * 0.2);  // relative to the swing's energy m g L
}

// A particle on a rod swinging from the world for 1 s. With the joint's Jacobian at the chord's
// midpoint (contact_step.cpp), the theta = 1/2 schemes keep the rod's length and the energy to
// round-off (the rod's force does no work on the chord); implicit Euler does neither exactly.
TEST(ContactSchemes, TheHalfSchemesKeepARodPendulumsLengthAndEnergy) {
  for (const std::string name : {"trapezoidal", "theta_midpoint", "implicit_euler"}) {
    SCOPED_TRACE(name);
    model::MechanicalSystem sys;
    sys.set_gravity(Vec3{{0, 0, -9.81}});
    const Index p = sys.add_particle(1.0, Vec3{{0.2, 0, 0}});
    constraints::DistanceOptions rod;
    rod.length = 0.2;
    const constraints::DistanceJoint joint("rod", constraints::world_side(Vec3{{0, 0, 0}}),
                                           constraints::particle_side(p), rod);
    auto backend = make_backend("serial");
    auto step = make_step(name, *backend);
    State s{0.0, sys.initial_positions(), sys.initial_velocities()};
    double drift = 0.0, energy = 0.0;
    for (int k = 0; k < 500; ++k) {
      ASSERT_TRUE(step->step(sys, {&joint}, s, 2e-3).ok()) << k;
      drift = std::max(drift, std::abs(std::hypot(s.q[0], s.q[1], s.q[2]) - 0.2));
      energy = std::max(energy, std::abs(sys.kinetic_energy(s.t, s.q, s.u) + sys.potential_energy(s.t, s.q)));
    }
    std::printf("[ schemes ] rod pendulum, %s: largest |length - L| %.2e m, |energy change| %.2e J (m g L = 1.96 J)\n",
                name.c_str(), drift, energy);
    if (name == "implicit_euler") {
      EXPECT_GT(energy, 1e-3);
    } else {
      EXPECT_LT(drift, 1e-12);
      EXPECT_LT(energy, 1e-9);
    }
  }
}

TEST(ContactSchemes, TheHalfSchemesKeepAHingedPendulumsEnergy) {
  const double trap = pendulum_energy_loss("trapezoidal"), mid = pendulum_energy_loss("theta_midpoint");
  const double euler = pendulum_energy_loss("implicit_euler"), bm = pendulum_energy_loss("bridson_marino");
  std::printf(
      "[ schemes ] hinged rigid pendulum, 1 s of 2 ms steps, energy change / m g L: trapezoidal %.2e, "
      "midpoint %.2e, Bridson-Marino %.2e, implicit Euler %.2e\n",
      -trap, -mid, -bm, -euler);
  EXPECT_LT(std::abs(trap), 1e-4);
  EXPECT_LT(std::abs(mid), 1e-4);
  EXPECT_LT(std::abs(bm), 2e-4);
  EXPECT_GT(std::abs(euler), 10 * std::abs(trap));
}

}  // namespace
}  // namespace sinew::physics_contact_schemes_test
