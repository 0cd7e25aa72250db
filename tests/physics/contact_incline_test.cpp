// A block on a plane tilted by 10 degrees (issue 6): the friction threshold is mu* = tan(10 deg).
// Just above it the block sticks (the Coulomb cone holds the tangential load), just below it
// slides with the constant acceleration g (sin a - mu cos a) of the sliding branch. Both
// branches are exact for the velocity-level step (the impulse per step is the force over h),
// so the checks are tight: the solver tolerance is the only error.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"

namespace sinew::physics_contact_incline_test {
namespace {

using contact_test::kGravity;
using contact_test::kPi;

const double kAngle = 10.0 * kPi / 180.0;
const double kMuStar = std::tan(kAngle);  // 0.17632698...

// Downhill unit vector of the incline.
double downhill(const Vec3& x) { return std::cos(kAngle) * x[0] - std::sin(kAngle) * x[2]; }
// Distance from the plane along its normal.
double height(const Vec3& x) { return std::sin(kAngle) * x[0] + std::cos(kAngle) * x[2]; }

struct InclineRun {
  double displacement_half = 0, displacement_end = 0;  // downhill displacement at T/2 and T
  double speed_half = 0, speed_end = 0;                // downhill speed at T/2 and T
  double height_error = 0;                             // max |height - 0.05| of the origin
  contact_test::SolveStats stats;
};

InclineRun run_incline(double mu, const std::string& solver, int steps, double h = 1e-3) {
  auto backend = make_backend("serial");
  contact_test::ContactScene scene = contact_test::incline_scene(kAngle, mu);
  integrators::ContactStep stepper(contact_test::make_contact_solver(solver, *backend));
  const Vec3 x0 = scene.body_position(0);
  InclineRun out;
  for (int k = 1; k <= steps; ++k) {
    const integrators::ContactStepReport r = stepper.step(*scene.system, {scene.contact.get()}, scene.state, h);
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) break;
    EXPECT_EQ(r.contacts, 4);  // the four bottom corners
    out.stats.add(r);
    const Vec3 x = scene.body_position(0);
    out.height_error = std::max(out.height_error, std::abs(height(x) - 0.05));
    const double d = downhill(x) - downhill(x0), v = downhill(scene.body_velocity(0));
    if (k == steps / 2) out.displacement_half = d, out.speed_half = v;
    if (k == steps) out.displacement_end = d, out.speed_end = v;
  }
  return out;
}

TEST(ContactIncline, RigidBlockSticksJustAboveTheThreshold) {
  const InclineRun r = run_incline(kMuStar + 0.001, "pgs", 1000);
  std::printf(
      "stick mu* + 0.001 (pgs): displacement after 1 s %.3e m, speed %.3e m/s, max iterations %d, "
      "max natural-map error %.2e\n",
      r.displacement_end, r.speed_end, r.stats.max_iterations, r.stats.max_error);
  EXPECT_LT(std::abs(r.displacement_end), 1e-7);
  EXPECT_LT(std::abs(r.speed_end), 1e-7);
  EXPECT_LT(r.height_error, 1e-9);
  EXPECT_EQ(r.stats.unconverged, 0);
}

TEST(ContactIncline, RigidBlockSlidesJustBelowTheThresholdWithTheAnalyticAcceleration) {
  const double mu = kMuStar - 0.001;
  const double a_exact = kGravity * (std::sin(kAngle) - mu * std::cos(kAngle));  // 9.66e-3 m/s^2
  const InclineRun r = run_incline(mu, "pgs", 1000);
  const double a = (r.speed_end - r.speed_half) / 0.5;
  std::printf(
      "slip mu* - 0.001 (pgs): acceleration %.9e m/s^2, analytic %.9e, relative error %.2e; "
      "displacement after 1 s %.6e m\n",
      a, a_exact, std::abs(a / a_exact - 1), r.displacement_end);
  EXPECT_NEAR(a, a_exact, 1e-5 * a_exact);
  // Velocity after n steps is n h a exactly; positions q_k = q_0 + h sum v_j = a h^2 n (n + 1) / 2.
  EXPECT_NEAR(r.displacement_end, a_exact * 1e-6 * 1000 * 1001 / 2, 1e-5 * r.displacement_end);
  EXPECT_LT(r.height_error, 1e-9);
  EXPECT_EQ(r.stats.unconverged, 0);
}

// The solvers on the sliding branch with mu = 0.1 (clear slip). Non-smooth Newton with min-map
// is left out here: on the four redundant corner contacts of a flat box (12 rows, 6 DOFs, W of
// rank 6) it stalls in some steps (errors up to 0.5 after 100 steps); the step then rejects the
// iterate (ContactStepOptions::accept_error). It runs on the stick branch below and on the
// dropped cube (contact_drop_test.cpp).
TEST(ContactIncline, SolversSlideWithTheAnalyticAcceleration) {
  const double mu = 0.1;
  const double a_exact = kGravity * (std::sin(kAngle) - mu * std::cos(kAngle));
  for (const char* solver : {"pgs", "newton_fb", "sap"}) {
    SCOPED_TRACE(solver);
    const InclineRun r = run_incline(mu, solver, 400);
    const double a = (r.speed_end - r.speed_half) / 0.2;
    std::printf(
        "slide mu = 0.1 (%s): acceleration %.9e m/s^2, analytic %.9e, relative error %.2e; iterations "
        "max %d mean %.1f, natural-map error max %.2e, unconverged %d, height error %.2e\n",
        solver, a, a_exact, std::abs(a / a_exact - 1), r.stats.max_iterations,
        static_cast<double>(r.stats.total_iterations) / r.stats.steps, r.stats.max_error, r.stats.unconverged,
        r.height_error);
    const bool sap = std::string(solver) == "sap";
    EXPECT_NEAR(a, a_exact, (sap ? 2e-2 : 1e-6) * a_exact);
    if (!sap) {
      EXPECT_EQ(r.stats.unconverged, 0);
      EXPECT_LT(r.stats.max_error, 1e-8);
      EXPECT_LT(r.height_error, 1e-9);
    }
  }
}

// The solvers on the stick branch (min-map left out as above: it stalls at one step in 400).
TEST(ContactIncline, SolversStickAboveTheThreshold) {
  for (const char* solver : {"pgs", "newton_fb", "sap"}) {
    SCOPED_TRACE(solver);
    const InclineRun r = run_incline(kMuStar + 0.02, solver, 400);
    std::printf(
        "stick mu* + 0.02 (%s): displacement after 0.4 s %.3e m, speed %.3e m/s, iterations max %d, "
        "natural-map error max %.2e\n",
        solver, r.displacement_end, r.speed_end, r.stats.max_iterations, r.stats.max_error);
    // SAP's regularized friction creeps at a speed ~ sigma (its stiction tolerance): bounded, not zero.
    const bool sap = std::string(solver) == "sap";
    EXPECT_LT(std::abs(r.displacement_end), sap ? 1e-3 : 1e-7);
  }
}

}  // namespace
}  // namespace sinew::physics_contact_incline_test
