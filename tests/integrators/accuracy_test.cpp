// Orders of accuracy measured by halving the step, and closed-form answers: projectile, the
// small-angle pendulum period and the frequency of a mass on a spring.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "integration_helpers.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "test_systems.hpp"

namespace sinew::integrators::integrators_accuracy_test {
namespace {

using testing::fitted_order;
using testing::run_steps;

struct OrderCase {
  std::string name;  // make_integrator name, or "alpha_beta_half" (alpha = beta = 1/2)
  double order;      // expected order
};

std::unique_ptr<Integrator> make(const std::string& name) {
  if (name == "alpha_beta_half") {
    CompliantAlphaBetaOptions o;
    o.alpha = o.beta = 0.5;
    return std::make_unique<CompliantAlphaBeta>(o);
  }
  if (name == "theta_midpoint_implicit_g") {
    ThetaOptions o = ThetaOptions::preset(ThetaPreset::kSymplecticMidpoint);
    o.gyroscopic = GyroscopicTreatment::kImplicit;
    return std::make_unique<ThetaMethod>(o);
  }
  return make_integrator(name);
}

const std::vector<OrderCase> kOrderCases = {
    {"symplectic_euler", 1.0},     {"implicit_euler", 1.0},       {"trapezoidal", 2.0},
    {"bridson_marino", 2.0},       {"theta_explicit_euler", 1.0}, {"theta_symplectic_euler", 1.0},
    {"theta_implicit_euler", 1.0}, {"theta_midpoint", 2.0},       {"compliant_alpha_beta", 1.0},
    {"alpha_beta_half", 2.0},
};

// Damped large-amplitude pendulum (theta0 = 1 rad) to T = 1 s against RK4 with 2^15 steps, with
// h = T/20 ... T/320 (four halvings).
TEST(IntegratorOrder, DampedNonlinearPendulum) {
  testing::Pendulum p;
  p.c = 0.3;
  const double T = 1.0, theta0 = 1.0, omega0 = 0.5;
  const Eigen::Vector2d ref =
      testing::rk4(Eigen::Vector2d(theta0, omega0), T, 1 << 15, [&](const Eigen::Vector2d& y) { return p.rate(y); });
  for (const OrderCase& oc : kOrderCases) {
    std::vector<double> hs, errors;
    for (int steps = 20; steps <= 320; steps *= 2) {
      auto integrator = make(oc.name);
      State s{0.0, Eigen::VectorXd::Constant(1, theta0), Eigen::VectorXd::Constant(1, omega0)};
      const double h = T / steps;
      run_steps(*integrator, p, s, h, steps);
      hs.push_back(h);
      errors.push_back(std::hypot(s.q[0] - ref[0], s.u[0] - ref[1]));
    }
    const double order = fitted_order(hs, errors);
    std::printf("[order] pendulum %-24s order %.3f  errors %.2e -> %.2e\n", oc.name.c_str(), order, errors.front(),
                errors.back());
    EXPECT_NEAR(order, oc.order, 0.15) << oc.name;
  }
}

// A 3-D chain of three particles hanging from an anchor by cubic springs, with dashpots and
// gravity, started off-vertical and moving: K has its geometric (transverse) part. Against RK4
// on (q, u) with 2^14 steps to T = 0.5 s; h = T/80 ... T/1280: implicit Euler's large error
// constant (its damping of the fast spring modes) needs steps this small to show its order.
TEST(IntegratorOrder, NonlinearSpringChain3d) {
  testing::SpringChain chain;
  chain.n = 3;
  chain.k = 60.0;
  chain.k3 = 400.0;
  chain.c = 0.2;
  const double T = 0.5;
  Eigen::VectorXd q0(9), u0(9);
  q0 << 0.6, 0.2, -0.9, 1.1, 0.5, -1.7, 1.3, 0.4, -2.8;
  u0 << 0.3, -0.4, 0.1, 0.0, 0.8, -0.2, -0.5, 0.2, 0.6;
  Eigen::VectorXd y0(18);
  y0 << q0, u0;
  const Eigen::VectorXd ref = testing::rk4(y0, T, 1 << 14, [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd f;
    chain.forces(0.0, y.head(9), y.tail(9), model::ForcePart::kAll, f);
    Eigen::VectorXd r(18);
    r << y.tail(9), f / chain.m;
    return r;
  });
  const std::vector<OrderCase> cases = {{"implicit_euler", 1.0}, {"trapezoidal", 2.0},     {"bridson_marino", 2.0},
                                        {"theta_midpoint", 2.0}, {"alpha_beta_half", 2.0}, {"symplectic_euler", 1.0}};
  for (const OrderCase& oc : cases) {
    std::vector<double> hs, errors;
    for (int steps = 80; steps <= 1280; steps *= 2) {
      auto integrator = make(oc.name);
      State s{0.0, q0, u0};
      const double h = T / steps;
      run_steps(*integrator, chain, s, h, steps);
      hs.push_back(h);
      errors.push_back((s.q - ref.head(9)).norm() + (s.u - ref.tail(9)).norm());
    }
    const double order = fitted_order(hs, errors);
    std::printf("[order] spring chain %-24s order %.3f  errors %.2e -> %.2e\n", oc.name.c_str(), order, errors.front(),
                errors.back());
    EXPECT_NEAR(order, oc.order, 0.15) << oc.name;
  }
}

// Torque-free asymmetric rigid body with quaternion positions (exponential-map update) against
// RK4 on (q, w) with qdot = 1/2 q (0, w); errors in the rotation matrix and in w.
TEST(IntegratorOrder, TorqueFreeRigidBody) {
  testing::RigidBody body;
  const double T = 1.0;
  const Eigen::Vector3d w0(0.4, 1.5, -0.7);
  using Vec7 = Eigen::Matrix<double, 7, 1>;
  Vec7 y0;
  y0 << 1, 0, 0, 0, w0;
  const Vec7 ref = testing::rk4(y0, T, 1 << 15, [&](const Vec7& y) {
    const Quaternion q{y[0], Vec3{{y[1], y[2], y[3]}}};
    const Quaternion qd = quat_derivative_body(q, Vec3{{y[4], y[5], y[6]}});
    const Eigen::Vector3d w = y.tail<3>();
    Vec7 r;
    r << qd.s, qd.v[0], qd.v[1], qd.v[2], (-w.cross(Eigen::Vector3d(body.J.cwiseProduct(w)))).cwiseQuotient(body.J);
    return r;
  });
  const Eigen::Matrix3d R_ref = testing::RigidBody::rotation(Eigen::VectorXd(ref.head<4>().normalized()));
  // The seed's explicit G makes every theta preset first order in w, so the midpoint is
  // measured with G implicit; the ArtiSynth schemes treat the whole force alike.
  const std::vector<OrderCase> cases = {{"implicit_euler", 1.0},       {"trapezoidal", 2.0},
                                        {"theta_implicit_euler", 1.0}, {"theta_midpoint_implicit_g", 2.0},
                                        {"theta_midpoint", 1.0},       {"symplectic_euler", 1.0}};
  for (const OrderCase& oc : cases) {
    std::vector<double> hs, errors;
    for (int steps = 20; steps <= 320; steps *= 2) {
      auto integrator = make(oc.name);
      State s{0.0, Eigen::Vector4d(1, 0, 0, 0), w0};
      const double h = T / steps;
      run_steps(*integrator, body, s, h, steps);
      hs.push_back(h);
      errors.push_back((testing::RigidBody::rotation(s.q) - R_ref).norm() + (s.u - ref.tail<3>()).norm());
    }
    const double order = fitted_order(hs, errors);
    std::printf("[order] rigid body %-24s order %.3f  errors %.2e -> %.2e\n", oc.name.c_str(), order, errors.front(),
                errors.back());
    EXPECT_NEAR(order, oc.order, 0.15) << oc.name;
  }
}

// Projectile: constant force, so every scheme has a closed-form error. With t = N h,
// x_exact = x0 + v0 t + g t^2 / 2; velocities are exact for all schemes; positions are exact
// for the second-order schemes and off by +- g h t / 2 for the Euler family.
TEST(IntegratorProjectile, ExactOrKnownSchemeError) {
  testing::SpringChain ball;
  ball.n = 1;
  ball.use_anchor = false;
  ball.m = 2.0;
  const Eigen::Vector3d x0(0.5, -1.0, 3.0), v0(1.0, 2.0, 5.0), g(0.0, 0.0, -ball.g);
  const double h = 0.01;
  const int steps = 100;
  const double t = h * steps;
  struct Case {
    std::string name;
    double position_error_factor;  // x - x_exact = factor * g h t
  };
  const std::vector<Case> cases = {{"symplectic_euler", 0.5},       {"implicit_euler", 0.5},
                                   {"theta_symplectic_euler", 0.5}, {"theta_implicit_euler", 0.5},
                                   {"compliant_alpha_beta", 0.5},   {"theta_explicit_euler", -0.5},
                                   {"theta_midpoint", 0.0},         {"trapezoidal", 0.0},
                                   {"bridson_marino", 0.0},         {"alpha_beta_half", 0.0}};
  for (const Case& c : cases) {
    auto integrator = make(c.name);
    State s{0.0, x0, v0};
    run_steps(*integrator, ball, s, h, steps);
    const Eigen::Vector3d x_exact = x0 + v0 * t + 0.5 * g * t * t + c.position_error_factor * g * h * t;
    EXPECT_NEAR((s.q - x_exact).norm(), 0.0, 1e-11) << c.name;
    EXPECT_NEAR((s.u - (v0 + g * t)).norm(), 0.0, 1e-11) << c.name;
    EXPECT_NEAR(s.t, t, 1e-12) << c.name;
  }
}

// Times of upward zero crossings of x(t), linearly interpolated between steps.
std::vector<double> upward_crossings(Integrator& integrator, const model::DynamicalSystem& system, State s, double h,
                                     int steps, int component) {
  std::vector<double> times;
  double previous = s.q[component], previous_t = s.t;
  run_steps(integrator, system, s, h, steps, [&](const State& now) {
    const double x = now.q[component];
    if (previous < 0.0 && x >= 0.0) times.push_back(previous_t + h * (-previous) / (x - previous));
    previous = x;
    previous_t = now.t;
  });
  return times;
}

// Small-angle pendulum: period 2 pi sqrt(L / g) (1 + theta0^2 / 16) with the first finite-
// amplitude correction; measured over 5 periods with the symplectic midpoint rule.
TEST(IntegratorPendulum, SmallAnglePeriod) {
  testing::Pendulum p;
  p.L = 0.7;
  const double theta0 = 0.01;
  auto integrator = make_integrator("theta_midpoint");
  State s{0.0, Eigen::VectorXd::Constant(1, -theta0), Eigen::VectorXd::Zero(1)};
  const std::vector<double> times = upward_crossings(*integrator, p, s, 1e-3, 9000, 0);
  ASSERT_GE(times.size(), 5u);
  const double period = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  const double expected = 2.0 * M_PI * std::sqrt(p.L / p.g) * (1.0 + theta0 * theta0 / 16.0);
  std::printf("[period] pendulum: measured %.9f expected %.9f relative error %.2e\n", period, expected,
              std::fabs(period - expected) / expected);
  EXPECT_NEAR(period / expected, 1.0, 1e-5);
}

// Mass on a linear spring in 3-D (no gravity), oscillating along the spring's axis: period
// 2 pi sqrt(m / k), and the motion stays on the axis. Trapezoidal rule, 20 periods.
TEST(IntegratorMassSpring, FrequencyAlongTheAxis) {
  testing::SpringChain spring;
  spring.n = 1;
  spring.g = 0.0;
  spring.m = 0.5;
  spring.k = 200.0;
  const Eigen::Vector3d axis = Eigen::Vector3d(1.0, 2.0, 2.0) / 3.0;
  auto integrator = make_integrator("trapezoidal");
  // Oscillation about the rest length along the axis: track the extension via a shifted origin.
  spring.anchor = -spring.L0 * axis;
  State s{0.0, Eigen::VectorXd(-0.05 * axis), Eigen::VectorXd::Zero(3)};
  const double omega = std::sqrt(spring.k / spring.m), period = 2.0 * M_PI / omega;
  const double h = period / 2000.0;
  const std::vector<double> times = upward_crossings(*integrator, spring, s, h, 20 * 2000, 0);
  ASSERT_GE(times.size(), 19u);
  const double measured = (times.back() - times.front()) / static_cast<double>(times.size() - 1);
  std::printf("[period] mass-spring: measured %.9f expected %.9f relative error %.2e\n", measured, period,
              std::fabs(measured - period) / period);
  EXPECT_NEAR(measured / period, 1.0, 1e-5);
  // Off-axis component stays at round-off.
  State t{0.0, Eigen::VectorXd(-0.05 * axis), Eigen::VectorXd::Zero(3)};
  run_steps(*integrator, spring, t, h, 1234);
  const Eigen::Vector3d x = t.q;
  EXPECT_LT((x - x.dot(axis) * axis).norm(), 1e-12);
  EXPECT_GT(std::fabs(x.dot(axis)), 1e-3);
}

}  // namespace
}  // namespace sinew::integrators::integrators_accuracy_test
