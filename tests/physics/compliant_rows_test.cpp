// The compliant alpha/beta scheme with constraint rows (issue 21; compliant-constraints-implicit-
// integration.tex, "Time integration"): ContactStep with ContactStepOptions::alpha_beta against
// the seed's Schur complement worked by hand for a particle on a compliant, damped ball joint
// (any alpha, beta, c, d), energy kept exactly by alpha = beta = 1/2 and lost by implicit Euler,
// open contacts that keep their gap through the position update of the midpoint rule, and the
// schemes a compliant row cannot be stepped with.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <utility>

#include "contact_scenes.hpp"
#include "expect_error.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/integrators/contact_step.hpp"

namespace sinew::physics_compliant_rows_test {
namespace {

constexpr double kMass = 2.0;
const Vec3 kGravity{{0, 0, -9.81}};

// A particle of kMass at @p x0 with velocity @p v0 on a ball joint to the world origin of
// compliance @p c and damping @p d.
struct Spring {
  model::MechanicalSystem system;
  std::unique_ptr<constraints::BallJoint> joint;
  Spring(const Vec3& x0, const Vec3& v0, double c, double d, bool gravity) {
    system.add_particle(kMass, x0, "p", v0);
    if (gravity) system.set_gravity(kGravity);
    joint = std::make_unique<constraints::BallJoint>("spring", constraints::world_side(Vec3{{0, 0, 0}}),
                                                     constraints::particle_side(0), constraints::JointCompliance{c, d});
  }
};

integrators::ContactStepOptions alpha_beta(double alpha, double beta) {
  integrators::ContactStepOptions o;
  o.alpha_beta = integrators::CompliantAlphaBetaOptions{};
  o.alpha_beta->alpha = alpha;
  o.alpha_beta->beta = beta;
  return o;
}

std::unique_ptr<integrators::ContactStep> stepper(const integrators::ContactStepOptions& o) {
  static std::unique_ptr<Backend> backend = make_backend("serial");
  return std::make_unique<integrators::ContactStep>(contact_test::make_contact_solver("newton_fb", *backend, 1e-14), o);
}

TEST(CompliantRows, AlphaBetaStepsTheSeedsSchurComplement) {
  // The seed for J = I, P = I, M = m I, f = m g, per axis:
  //   (h / m + c / l) avlam = -(x + (d + alpha h) v) / l - h g,  l = alpha (h beta + d),
  //   dv = h g + (h / m) avlam,  x += h (v + beta dv),  v += dv.
  const double h = 0.01;
  const Vec3 x0{{0.1, -0.05, 0.2}}, v0{{0.3, 0.2, -0.1}};
  struct Case {
    double alpha, beta, c, d;
  };
  for (const Case& k : {Case{1, 1, 1e-3, 0}, Case{0.5, 0.5, 1e-3, 0}, Case{1, 0.5, 1e-3, 0.01},
                        Case{0.7, 0.9, 1e-2, 0.005}, Case{0.5, 1, 2e-3, 0.02}}) {
    Spring s(x0, v0, k.c, k.d, true);
    auto step = stepper(alpha_beta(k.alpha, k.beta));
    integrators::State state{0.0, s.system.initial_positions(), s.system.initial_velocities()};
    std::array<double, 3> x{x0[0], x0[1], x0[2]}, v{v0[0], v0[1], v0[2]};
    const double l = k.alpha * (h * k.beta + k.d);
    double err = 0.0, scale = 0.0;
    for (int n = 0; n < 200; ++n) {
      const integrators::ContactStepReport r = step->step(s.system, {s.joint.get()}, state, h);
      ASSERT_TRUE(r.ok()) << r.message;
      for (int i = 0; i < 3; ++i) {
        const double lam = (-(x[i] + (k.d + k.alpha * h) * v[i]) / l - h * kGravity[i]) / (h / kMass + k.c / l);
        const double dv = h * kGravity[i] + h / kMass * lam;
        x[i] += h * (v[i] + k.beta * dv);
        v[i] += dv;
        err = std::max({err, std::abs(state.q[i] - x[i]), std::abs(state.u[i] - v[i])});
        scale = std::max(scale, std::abs(x[i]));
      }
    }
    std::printf("alpha %.2g beta %.2g c %.0e d %.3g: largest difference from the seed by hand %.1e (|x| up to %.2g)\n",
                k.alpha, k.beta, k.c, k.d, err, scale);
    EXPECT_LT(err, 1e-12) << "alpha " << k.alpha << " beta " << k.beta;
  }
}

// Energy 1/2 m |v|^2 + 1/2 |x|^2 / c of the spring of @p s at @p state.
double energy(const integrators::State& state, double c) {
  return 0.5 * kMass * state.u.squaredNorm() + 0.5 * state.q.squaredNorm() / c;
}

TEST(CompliantRows, HalfAndHalfKeepsTheSpringsEnergyAndImplicitEulerLosesIt) {
  // Without gravity or damping the ball joint is a zero-length spring (k = 1 / c): alpha = beta =
  // 1/2 is the trapezoidal rule, which keeps a linear oscillator's energy exactly.
  const double c = 1e-3, h = 0.01;
  double drift[2] = {0, 0};
  for (int scheme = 0; scheme < 2; ++scheme) {
    Spring s(Vec3{{0.1, -0.05, 0.2}}, Vec3{{0.3, 0.2, -0.1}}, c, 0.0, false);
    auto step = stepper(scheme == 0 ? alpha_beta(0.5, 0.5) : alpha_beta(1, 1));
    integrators::State state{0.0, s.system.initial_positions(), s.system.initial_velocities()};
    const double e0 = energy(state, c);
    for (int n = 0; n < 1000; ++n) ASSERT_TRUE(step->step(s.system, {s.joint.get()}, state, h).ok());
    drift[scheme] = std::abs(energy(state, c) / e0 - 1.0);
  }
  std::printf("spring energy after 1000 steps: alpha = beta = 1/2 %.1e, implicit Euler %.1e (relative change)\n",
              drift[0], drift[1]);
  EXPECT_LT(drift[0], 1e-11);
  EXPECT_GT(drift[1], 0.5);
}

TEST(CompliantRows, AnOpenContactKeepsItsGapThroughTheMidpointPositionUpdate) {
  // A particle 1 mm above the floor falling at 2 m/s: the midpoint rule moves positions by
  // h (v + v0) / 2, so the contact must hold the gap on that velocity, not on v alone (which
  // would end 9.5 mm inside the floor). Theta midpoint and alpha = beta = 1/2 alike.
  for (int scheme = 0; scheme < 2; ++scheme) {
    model::MechanicalSystem system;
    system.add_particle(1.0, Vec3{{0, 0, 0.001}}, "p", Vec3{{0.5, 0, -2.0}});
    system.set_gravity(kGravity);
    constraints::ContactConstraint contact;
    const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
    contact.add_obstacle(floor.shape, floor.pose);
    contact.add_particles(0, 1);
    integrators::ContactStepOptions o;
    if (scheme == 0)
      o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
    else
      o = alpha_beta(0.5, 0.5);
    auto step = stepper(o);
    integrators::State state{0.0, system.initial_positions(), system.initial_velocities()};
    double lowest = 1.0;
    for (int n = 0; n < 20; ++n) {
      const integrators::ContactStepReport r = step->step(system, {&contact}, state, 0.01);
      ASSERT_TRUE(r.ok()) << r.message;
      lowest = std::min(lowest, state.q[2]);
    }
    EXPECT_GT(lowest, -1e-12) << (scheme == 0 ? "theta midpoint" : "alpha = beta = 1/2");
  }
}

TEST(CompliantRows, SchemesThatCannotCarryConstraintRowsAreRefused) {
  integrators::ContactStepOptions both = alpha_beta(0.5, 0.5);
  both.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kImplicitEuler);
  EXPECT_SINEW_ERROR(both.validate(), "four schemes; set at most one");
  integrators::ContactStepOptions two;
  two.trapezoidal = integrators::TrapezoidalOptions{};
  two.bridson_marino = integrators::BridsonMarinoOptions{};
  EXPECT_SINEW_ERROR(two.validate(), "four schemes; set at most one");
  // Explicit Euler and beta = 0 move positions by the start velocity alone: a step with rows
  // fails and says why. Symplectic Euler evaluates forces at the start positions: an undamped
  // compliant row is then an explicit force. The state stays in each case.
  integrators::ContactStepOptions explicit_euler, symplectic;
  explicit_euler.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kExplicitEuler);
  symplectic.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticEuler);
  for (const auto& [o, why] : {std::make_pair(explicit_euler, "cannot be constrained by the end velocity"),
                               std::make_pair(alpha_beta(1, 0), "cannot be constrained by the end velocity"),
                               std::make_pair(symplectic, "an explicit force")}) {
    Spring s(Vec3{{0.1, 0, 0}}, Vec3{{0, 0, 0}}, 1e-3, 0.0, false);
    auto step = stepper(o);
    integrators::State state{0.0, s.system.initial_positions(), s.system.initial_velocities()};
    const integrators::ContactStepReport r = step->step(s.system, {s.joint.get()}, state, 0.01);
    EXPECT_FALSE(r.ok());
    EXPECT_NE(r.message.find(why), std::string::npos) << r.message;
    EXPECT_EQ(state.q[0], 0.1);
  }
}

}  // namespace
}  // namespace sinew::physics_compliant_rows_test
