// A 0.2 m cube dropped flat from 0.2 m (bottom face height) while moving at 2 m/s along x, onto
// a floor with mu = 0.5 (issue 6). Closed form for a perfectly inelastic impact with Coulomb
// friction: the flight lasts t_f = sqrt(2 H / g) and covers 2 t_f = 0.404 m; the impact's normal
// impulse m sqrt(2 g H) brings a friction impulse mu m sqrt(2 g H) (the bottom keeps slipping
// through the impact), leaving vx = 2 - mu sqrt(2 g H) = 1.0095 m/s; the slide then covers
// vx^2 / (2 mu g) = 0.104 m. Rest at x = 0.508 m from the start. The velocity-level step
// reproduces the impact impulse (the normal impulse spreads over at most two steps, the friction
// impulse follows it in the same ratio), so the answer is first order in h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"

namespace sinew::physics_contact_drop_test {
namespace {

using contact_test::kGravity;

constexpr double kHalf = 0.1, kDrop = 0.2, kSpeed = 2.0, kMu = 0.5;

double analytic_rest_x() {
  const double vz = std::sqrt(2 * kGravity * kDrop);
  const double vx = kSpeed - kMu * vz;
  return kSpeed * std::sqrt(2 * kDrop / kGravity) + vx * vx / (2 * kMu * kGravity);
}

struct DropRun {
  Vec3 rest{{0, 0, 0}};
  double rest_time = -1, max_tilt = 0;
  contact_test::SolveStats stats;
};

DropRun drop(const std::string& solver, double h = 1e-3) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = scene::drop_scene(kHalf, kDrop, kSpeed, kMu);
  const Index b = 0;  // the cube
  integrators::ContactStep stepper(contact_test::make_contact_solver(solver, *backend));
  DropRun out;
  const int steps = static_cast<int>(std::lround(0.6 / h));
  for (int k = 0; k < steps; ++k) {
    const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, h);
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) break;
    out.stats.add(r);
    const Quaternion q = s.body_orientation(b);
    out.max_tilt = std::max(out.max_tilt, 2 * std::asin(std::min(1.0, norm(q.v))));
    if (out.rest_time < 0 && s.state.t > 0.25 && norm(s.body_velocity(b)) < 1e-9) out.rest_time = s.state.t;
  }
  out.rest = s.body_position(b);
  return out;
}

TEST(ContactDrop, SlidingCubeComesToRestAtTheAnalyticPosition) {
  const double x_exact = analytic_rest_x();  // 0.5077 m
  for (const char* solver : {"pgs", "newton_fb", "newton_minmap", "sap"}) {
    SCOPED_TRACE(solver);
    const DropRun r = drop(solver);
    std::printf(
        "drop (%s): rest x = %.5f m (analytic %.5f, error %.3f%%), z = %.3e m above rest, at t = %.3f s, "
        "max tilt %.2e rad; iterations max %d mean %.1f, natural-map error max %.2e, unconverged %d\n",
        solver, r.rest[0], x_exact, 100 * std::abs(r.rest[0] / x_exact - 1), r.rest[2] - kHalf, r.rest_time, r.max_tilt,
        r.stats.max_iterations, static_cast<double>(r.stats.total_iterations) / std::max(1, r.stats.steps),
        r.stats.max_error, r.stats.unconverged);
    EXPECT_NEAR(r.rest[0], x_exact, 5e-3 * x_exact);
    EXPECT_NEAR(r.rest[1], 0.0, 1e-9);
    EXPECT_GT(r.rest_time, 0.0);  // at rest before the end of the run
    const bool sap = std::string(solver) == "sap";
    EXPECT_NEAR(r.rest[2], kHalf, sap ? 1e-4 : 1e-9);
    EXPECT_LT(r.max_tilt, sap ? 1e-3 : 1e-6);
  }
}

}  // namespace
}  // namespace sinew::physics_contact_drop_test
