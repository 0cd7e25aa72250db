// Stick and slip at every slope with LocalGlobalIntegrator's default contact settings: a slab on
// an incline of 5 to 45 degrees, time steps 1e-3 to 1e-2 s, friction 0.001 below and above
// mu* = tan(angle). A stiff slab follows Coulomb's closed form for a rigid block (sliding
// x(t) = g (sin a - mu cos a) t^2 / 2 to 1%, sticking below 1e-6 m in 1 s, start-up included); so
// does a soft slab released in its sliding shape (friction at mu* everywhere). Released
// undeformed or from a rest held by high friction, a soft slab's start-up is elastodynamic (its
// compression and shear oscillate, stored shear turns into a kick that converges in h, which
// the rigid closed form ignores), and after it the slab slides, decelerates or rests exactly as
// Coulomb's law says. The seed's own Algorithm 4 steps (the former default) fail the same bounds:
// they creep.
// bench/studies/slope_sweep.cpp writes the same runs as CSV and a plot; docs/lib_integrators.md
// ("Stick and slip at every slope") gives the figures.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "flat_tet_mesh.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_slope_test {
namespace {

constexpr double kPi = 3.14159265358979323846, kG = 9.81, kT = 1.0;

// The seed's stick/slip slab (Sec. 7.5), 0.1 x 0.1 x 0.04 m in 4 x 4 x 2 cells, ARAP, rho = 1000,
// nu = 0.3, on the plane z = 0 with gravity tilted by the slope angle about y (the slope runs
// along +x), its bottom vertices the contact vertices. Flat, so that it does not tip before
// tan a = 0.05 / 0.02 (68 degrees).
LocalGlobalDescription slab(double angle_deg, double h, double modulus, double mu) {
  const test::FlatTetMesh m = test::flat_box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, 0.04}}, 4, 4, 2);
  LocalGlobalDescription d;
  d.rest_positions = m.x;
  d.tets = m.tets;
  d.model = MaterialModel::kArap;
  d.elastic = {modulus, 0.3};
  d.density = 1000.0;
  d.time_step = h;
  const double a = angle_deg * kPi / 180.0;
  d.gravity = Vec3{{kG * std::sin(a), 0.0, -kG * std::cos(a)}};
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, mu));
  for (std::size_t v = 0; v < m.x.size() / 3; ++v)
    if (m.x[3 * v + 2] == 0.0) d.contact_vertices.push_back(static_cast<Index>(v));
  return d;
}

// The slip of one run.
struct SlopeRun {
  std::vector<double> slip;  // (steps) mass-weighted mean x-displacement of the bottom vertices (m)
  double max_error = 0.0;    // largest contact_error over the steps
  // Mean slip velocity over the tenth of kT ending at step @p end (exclusive, >= steps / 10).
  double velocity(std::size_t end, double h) const {
    const std::size_t w = slip.size() / 10;
    return (slip[end - 1] - slip[end - 1 - w]) / (static_cast<double>(w) * h);
  }
};

// One run of kT seconds from rest, in the undeformed shape or in @p start's positions.
SlopeRun run(const LocalGlobalDescription& d, const LocalGlobalOptions& options = {},
             const std::vector<double>* start = nullptr) {
  auto backend = make_backend("serial");
  LocalGlobalOptions o = options;
  o.record_energy = false;
  LocalGlobalIntegrator lg(*backend, d, o);
  if (start) lg.set_state(*start, std::vector<double>(start->size(), 0.0));
  const std::vector<double> x0 = lg.positions();
  const std::vector<double>& m = lg.masses();
  SlopeRun r;
  const long steps = std::lround(kT / d.time_step);
  for (long s = 0; s < steps; ++s) {
    const LocalGlobalReport report = lg.step();
    EXPECT_TRUE(report.ok()) << report.message;
    if (!report.ok()) break;
    r.max_error = std::max(r.max_error, report.contact_error);
    const std::vector<double> x = lg.positions();
    double sum = 0.0, total = 0.0;
    for (Index v : d.contact_vertices) {
      sum += m[v] * (x[3 * v] - x0[3 * v]);
      total += m[v];
    }
    r.slip.push_back(sum / total);
  }
  return r;
}

// The slope angles of a sweep (degrees): every 10 from 5 to 45 (@p coarse: 5, 25, 45); 5 and 45
// under SINEW_QUICK_TESTS (the stiff slab at h = 1e-3: 45 alone, its largest start-up), which
// the sanitizer stage sets. bench/studies/slope_sweep.cpp runs every 5 degrees.
std::vector<double> angles(bool coarse) {
  if (test::quick_tests()) return {5.0, 45.0};
  if (coarse) return {5.0, 25.0, 45.0};
  return {5.0, 15.0, 25.0, 35.0, 45.0};
}

class SlopeSweep : public ::testing::TestWithParam<double> {};

// E = 1e9 Pa (hard plastic, wood). Its start-up transients, the elastic waves of a block released
// in its undeformed shape, slip it by up to 4e-8 m; at E = 1e8 they reach 2.4e-6 m (45 degrees,
// h = 1e-3) and grow as h shrinks (less numerical damping), i.e. they are the elastodynamics of
// the slab, not solver error (figures in docs/lib_integrators.md). The sliding bound allows the
// scheme's own first-order term: implicit Euler's x_N = a h^2 N (N + 1) / 2 = a T (T + h) / 2
// exceeds a T^2 / 2 by h / T (1% at h = 1e-2), so x is checked against a T (T + h) / 2 within
// 1% of a T^2 / 2.
TEST_P(SlopeSweep, StiffSlabFollowsTheClosedForm) {
  const double h = GetParam();
  if (test::quick_tests() && (h == 2e-3 || h == 5e-3)) GTEST_SKIP() << "SINEW_QUICK_TESTS: h = 1e-3 and 1e-2 only";
  const std::vector<double> sweep = test::quick_tests() && h == 1e-3 ? std::vector<double>{45.0} : angles(false);
  for (double angle : sweep) {
    const double a = angle * kPi / 180.0, mu_star = std::tan(a);
    const double mu_slide = mu_star - 0.001, mu_stick = mu_star + 0.001;
    const SlopeRun slide = run(slab(angle, h, 1e9, mu_slide));
    const SlopeRun stick = run(slab(angle, h, 1e9, mu_stick));
    const double acc = kG * (std::sin(a) - mu_slide * std::cos(a)), closed = 0.5 * acc * kT * kT;
    const double x = slide.slip.back();
    std::printf(
        "%4.0f deg h = %.0e: slides %.6e m (closed form %.6e, %+.3f%%; scheme's %+.3f%%), sticks %.2e m, "
        "contact_error <= %.1e / %.1e\n",
        angle, h, x, closed, 100.0 * (x / closed - 1.0), 100.0 * (x / (closed * (1.0 + h / kT)) - 1.0),
        stick.slip.back(), slide.max_error, stick.max_error);
    EXPECT_NEAR(x, closed * (1.0 + h / kT), 0.01 * closed) << angle << " deg, h = " << h;
    double worst = 0.0;  // the largest displacement at any step, the first included
    for (double s : stick.slip) worst = std::max(worst, std::abs(s));
    EXPECT_LT(worst, 1e-6) << angle << " deg, h = " << h << ": sticks";
    EXPECT_GT(stick.slip.front(), -1e-6);
    // Every L-G iteration's solve reached its tolerance, so every step's end state did.
    EXPECT_LE(slide.max_error, 1e-8);
    EXPECT_LE(stick.max_error, 1e-8);
  }
}

// E = 1e5 Pa (soft rubber). Released undeformed, the slab's compression and shear oscillate, and
// while the normal force dips or the friction turns sideways it slips: 0.001 above mu* it slips
// 1.7e-5 to 3.6e-2 m and sliding slabs run ahead of the closed form (bench/studies). After
// that start-up Coulomb's law holds exactly: between T/2 and T a sliding slab accelerates at
// g (sin a - mu cos a) and one above mu* either rests (no creep) or decelerates at that rate.
TEST_P(SlopeSweep, SoftSlabObeysCoulombAfterItsStartUp) {
  const double h = GetParam();
  if (test::quick_tests() && h < 1e-2) GTEST_SKIP() << "SINEW_QUICK_TESTS: h = 1e-2 only";
  for (double angle : angles(true)) {
    const double a = angle * kPi / 180.0, mu_star = std::tan(a);
    for (double mu : {mu_star - 0.001, mu_star + 0.001}) {
      const SlopeRun r = run(slab(angle, h, 1e5, mu));
      const std::size_t n = r.slip.size(), w = n / 10;
      const double coulomb = kG * (std::sin(a) - mu * std::cos(a));
      const double v_late = r.velocity(n, h), v_mid = r.velocity(n / 2, h);
      const double late_acc = (v_late - v_mid) / (static_cast<double>(n - n / 2) * h);
      std::printf("%4.0f deg h = %.0e mu = mu* %+.3f: x(T) = %.3e m, v(T) = %.3e m/s, a = %.6e (Coulomb %.6e)\n", angle,
                  h, mu - mu_star, r.slip.back(), v_late, late_acc, coulomb);
      EXPECT_LE(r.max_error, 1e-8);
      if (mu > mu_star && std::abs(v_late) < 1e-6) {  // at rest: it does not creep
        EXPECT_LT(std::abs(r.slip[n - 1] - r.slip[n - 1 - w]), 1e-9) << angle << " deg, h = " << h;
      } else {  // sliding, or decelerating after the start-up's kick
        EXPECT_GT(v_late, 0.0);
        EXPECT_NEAR(late_acc, coulomb, 0.01 * std::abs(coulomb)) << angle << " deg, h = " << h << ", mu = " << mu;
      }
    }
  }
}

// The soft slab at rest on the slope in @p angle's static equilibrium for friction @p settle_mu:
// from the undeformed shape, 1 s at h = 1e-2 (implicit Euler damps the elastic waves).
std::vector<double> settled_shape(double angle, double modulus, double settle_mu) {
  auto backend = make_backend("serial");
  LocalGlobalOptions o;
  o.record_energy = false;
  LocalGlobalIntegrator lg(*backend, slab(angle, 1e-2, modulus, settle_mu), o);
  for (int s = 0; s < 100; ++s) EXPECT_TRUE(lg.step().ok());
  return lg.positions();
}

// The soft slab's shape while it slides steadily at mu = mu* (every contact's friction at mu*
// times its normal force): settled with mu = mu*, whose start-up leaves it sliding at a constant
// velocity in that shape. The shape of a steady slide is a static equilibrium, the same at every h.
std::vector<double> sliding_shape(double angle, double modulus) {
  return settled_shape(angle, modulus, std::tan(angle * kPi / 180.0));
}

// E = 1e5 Pa, released at rest in its sliding shape (sliding_shape) rather than undeformed:
// then no shear is stored that the release could turn into motion, and the soft slab meets the
// stiff slab's bounds, start-up included: 0.001 below mu* it slides by Coulomb's closed form
// (within 1%, with the scheme's h / T), 0.001 above it moves less than 1e-6 m, first step
// included (measured 1e-11 m). Its friction there is at mu* at every contact, below mu* + 0.001.
TEST_P(SlopeSweep, SoftSlabFromItsSlidingShapeFollowsTheClosedForm) {
  const double h = GetParam();
  if (test::quick_tests() && h < 1e-2) GTEST_SKIP() << "SINEW_QUICK_TESTS: h = 1e-2 only";
  for (double angle : angles(false)) {
    const double a = angle * kPi / 180.0, mu_star = std::tan(a);
    const std::vector<double> start = sliding_shape(angle, 1e5);
    const double mu_slide = mu_star - 0.001;
    const SlopeRun slide = run(slab(angle, h, 1e5, mu_slide), {}, &start);
    const SlopeRun stick = run(slab(angle, h, 1e5, mu_star + 0.001), {}, &start);
    const double closed = 0.5 * kG * (std::sin(a) - mu_slide * std::cos(a)) * kT * kT, x = slide.slip.back();
    double worst = 0.0;
    for (double s : stick.slip) worst = std::max(worst, std::abs(s));
    std::printf("%4.0f deg h = %.0e: slides %.6e m (closed form %.6e, scheme's %+.3f%%), sticks within %.2e m\n", angle,
                h, x, closed, 100.0 * (x / (closed * (1.0 + h / kT)) - 1.0), worst);
    EXPECT_NEAR(x, closed * (1.0 + h / kT), 0.01 * closed) << angle << " deg, h = " << h;
    EXPECT_LT(worst, 1e-6) << angle << " deg, h = " << h << ": sticks";
    EXPECT_LE(slide.max_error, 1e-8);
    EXPECT_LE(stick.max_error, 1e-8);
  }
}

// Why the soft slab starts from its sliding shape: one held at rest by high friction (mu = 10,
// its shear then as elasticity distributes it, not mu* times the pressure at each contact) and
// released with mu = mu* - 0.001 turns part of that stored shear into sliding momentum: its base
// springs back uphill in places, where friction then pushes it downhill. That kick is the
// elastodynamics of the slab, not solver error: the slip after 1 s converges as h is halved
// (differences shrink like h: 9.64, 10.31, 10.65 mm) to about 2.6 times the closed form, which
// holds only for a block without stored shear (a rigid one, or this one in its sliding shape).
TEST(LocalGlobalSlope, SoftSlabReleasedFromAHeldRestGetsAKickThatConvergesInH) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 1750 soft-slab steps";
  const double angle = 30.0, a = angle * kPi / 180.0, mu = std::tan(a) - 0.001;
  const double closed = 0.5 * kG * (std::sin(a) - mu * std::cos(a)) * kT * kT;
  const std::vector<double> held = settled_shape(angle, 1e5, 10.0);
  std::vector<double> slips;
  for (double h : {4e-3, 2e-3, 1e-3}) {
    slips.push_back(run(slab(angle, h, 1e5, mu), {}, &held).slip.back());
    std::printf("h = %.0e: slip %.6e m = %.3f x the closed form\n", h, slips.back(), slips.back() / closed);
  }
  EXPECT_GT(slips[2], 1.5 * closed);  // a real kick, not a round-off
  EXPECT_LT(std::fabs(slips[2] - slips[1]), 0.6 * std::fabs(slips[1] - slips[0]));
}

INSTANTIATE_TEST_SUITE_P(TimeSteps, SlopeSweep, ::testing::Values(1e-3, 2e-3, 5e-3, 1e-2),
                         [](const ::testing::TestParamInfo<double>& info) {
                           return "h" + std::to_string(static_cast<int>(std::lround(info.param * 1e4))) + "e_4";
                         });

// The control: the seed's Algorithm 4 (ContactSolve::kSeedSteps, Fischer-Burmeister, 10 L-G
// iterations: the settings) on the stiff slab at 45 degrees, h = 1e-2, 0.001 above mu*.
// Its undamped diagonal-indicator steps leave the friction outside the cone at single contacts
// and cycle, so the slab creeps (measured 6.6e-4 m in 1 s, 3.5e-5 m/s at the end, contact_error
// 2.5e-2) where the converged solve holds it to 3e-8 m.
TEST(LocalGlobalSlope, SeedStepsCreepWhereTheConvergedSolveSticks) {
  const double a = 45.0 * kPi / 180.0;
  LocalGlobalOptions seed;
  seed.iterations = 10;
  seed.contact.solve = ContactSolve::kSeedSteps;
  seed.contact.function = constraints::NcpFunction::kFischerBurmeister;
  const SlopeRun creeping = run(slab(45.0, 1e-2, 1e9, std::tan(a) + 0.001), seed);
  std::printf("seed's steps: %.3e m in 1 s, v(T) = %.3e m/s, contact_error up to %.2e\n", creeping.slip.back(),
              creeping.velocity(creeping.slip.size(), 1e-2), creeping.max_error);
  EXPECT_GT(creeping.slip.back(), 1e-4);
  EXPECT_GT(creeping.velocity(creeping.slip.size(), 1e-2), 1e-6) << "still creeping at 1 s";
  EXPECT_GT(creeping.max_error, 1e-3) << "and its contact_error says so";
}

// contact_error is the natural-map error of the step's end state: recomputed here from the
// positions alone, u = (x - x_t) . (n, t1, t2) / h + d / h per contact (the plane z = 0: d = z_t,
// u_n = z / h), q = u - W r with the step's W and impulses, it matches the report.
TEST(LocalGlobalSlope, ContactErrorIsTheResidualOfTheEndState) {
  const double a = 30.0 * kPi / 180.0;
  for (ContactSolve solve : {ContactSolve::kConverged, ContactSolve::kSeedSteps}) {
    LocalGlobalOptions o;
    o.contact.solve = solve;
    const LocalGlobalDescription d = slab(30.0, 1e-2, 1e8, std::tan(a) + 0.001);
    auto backend = make_backend("serial");
    LocalGlobalIntegrator lg(*backend, d, o);
    for (int s = 0; s < 5; ++s) {
      const std::vector<double> xt = lg.positions();
      const LocalGlobalReport report = lg.step();
      ASSERT_TRUE(report.ok());
      const std::vector<double> x = lg.positions();
      const std::size_t nc = report.contacts, m = 3 * nc;
      ASSERT_EQ(nc, d.contact_vertices.size());
      constraints::DelassusProblem p;
      p.W = lg.delassus();
      p.blocks.assign(nc, constraints::ConstraintBlock{constraints::BlockKind::kContact, std::tan(a) + 0.001});
      Eigen::VectorXd r = Eigen::Map<const Eigen::VectorXd>(report.impulses.data(), static_cast<Index>(m)), u(m);
      for (std::size_t j = 0; j < nc; ++j) {
        const std::size_t v = static_cast<std::size_t>(report.contact_vertex[j]);
        const double n[3] = {report.normals[3 * j], report.normals[3 * j + 1], report.normals[3 * j + 2]};
        const double t1[3] = {report.tangents[3 * j], report.tangents[3 * j + 1], report.tangents[3 * j + 2]};
        const double t2[3] = {n[1] * t1[2] - n[2] * t1[1], n[2] * t1[0] - n[0] * t1[2], n[0] * t1[1] - n[1] * t1[0]};
        double dx[3];
        for (int k = 0; k < 3; ++k) dx[k] = (x[3 * v + k] - xt[3 * v + k]) / 1e-2;
        u[3 * j] = xt[3 * v + 2] / 1e-2 + (n[0] * dx[0] + n[1] * dx[1] + n[2] * dx[2]);
        u[3 * j + 1] = t1[0] * dx[0] + t1[1] * dx[1] + t1[2] * dx[2];
        u[3 * j + 2] = t2[0] * dx[0] + t2[1] * dx[1] + t2[2] * dx[2];
      }
      p.q = u - to_eigen(p.W) * r;
      const constraints::NaturalMapError e = constraints::natural_map_error(p, r, u);
      EXPECT_NEAR(e.relative, report.contact_error, 1e-6 * report.contact_error + 1e-12)
          << (solve == ContactSolve::kSeedSteps ? "seed steps" : "converged") << ", step " << s;
    }
  }
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_slope_test
