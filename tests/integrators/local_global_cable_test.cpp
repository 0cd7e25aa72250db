// Cables of LocalGlobalIntegrator (local_global_cable.hpp; seed Sec. 7.8, Fig. 11): a bilateral
// row of H per pulled cable, solved with the contacts in the constrained global step. A bar with
// a cable along its top edge curls up when the cable is pulled, the cable's length reaches its
// target, a slack cable changes nothing bit for bit, the length gradient matches central
// differences, and bad input is named.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <memory>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew::integrators::integrators_local_global_cable_test {
namespace {

// The bar [0, 0.4] x [0, 0.1] x [0, 0.1] of 8 x 2 x 2 cubes (6 Kuhn tetrahedra each), clamped at
// x = 0, ARAP E = 1e5 Pa, no gravity (unless asked), and a cable along its top edge y = 0.05,
// z = 0.1 from the clamp to the tip (9 vertices).
constexpr int kNx = 8, kNy = 2, kNz = 2;
Index vid(int i, int j, int k) { return i + (kNx + 1) * (j + (kNy + 1) * k); }

LocalGlobalDescription bar_with_cable(bool gravity) {
  LocalGlobalDescription d;
  test::FlatTetMesh m =
      test::flat_box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.05 * kNx, 0.05 * kNy, 0.05 * kNz}}, kNx, kNy, kNz);
  d.rest_positions = std::move(m.x);
  d.tets = std::move(m.tets);
  for (int k = 0; k <= kNz; ++k)
    for (int j = 0; j <= kNy; ++j) d.targets.push_back({vid(0, j, k), Vec3{{0.0, 0.05 * j, 0.05 * k}}, 0.0});
  d.model = MaterialModel::kArap;
  d.elastic = {1e5, 0.3};
  d.time_step = 0.01;
  if (!gravity) d.gravity = Vec3{{0, 0, 0}};
  Cable cable;
  for (int i = 0; i <= kNx; ++i) cable.vertices.push_back(vid(i, 1, kNz));
  d.cables.push_back(cable);
  return d;
}

// Pulling the top cable by 2 cm (5% of the bar) over 10 steps curls the bar up with nothing
// else acting on it (no gravity): at step 60 the tip's bottom vertex has risen 4.2 cm, its top
// vertex 4.0 cm, and the top edge has shortened to x = 0.377 (serial). The impulse is negative:
// the row is +dL/dq, and shortening pulls along -dL/dq.
TEST(LocalGlobalCable, PulledCableBendsTheBarTowardItsSide) {
  const LocalGlobalDescription d = bar_with_cable(false);
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  LocalGlobalReport report;
  for (int s = 0; s < 60; ++s) {
    lg.set_cable_pull(0, 0.02 * std::min(1.0, (s + 1) / 10.0));
    report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
  }
  const std::vector<double> x = lg.positions();
  const double tip_bottom_z = x[3 * vid(kNx, 1, 0) + 2], tip_top_z = x[3 * vid(kNx, 1, kNz) + 2];
  std::printf("tip bottom z %.4f m, top z %.4f m, cable impulse %.4e N s\n", tip_bottom_z, tip_top_z,
              report.cable_impulses[0]);
  EXPECT_GT(tip_bottom_z, 0.02) << "the tip curls toward the cable side (+z)";
  EXPECT_GT(tip_top_z, 0.1 + 0.02);
  EXPECT_LT(x[3 * vid(kNx, 1, kNz)], 0.4 - 0.01) << "the cable side shortens";
  ASSERT_EQ(report.cable_impulses.size(), 1u);
  EXPECT_LT(report.cable_impulses[0], 0.0) << "a pulling cable: r < 0 along +dL/dq";
  EXPECT_EQ(report.contacts, 0u);
  EXPECT_LT(report.contact_error, 1e-8) << "the bilateral row is solved (u = 0)";
}

// The length is held at rest_length - pull from the first step on, while the pull ramps and
// while the bar (under gravity, undamped) swings: the gradient is frozen at q_t but the length
// is re-measured at each L-G iterate (relinearize_cables()), so what is left is the 5 L-G
// iterations' convergence: within 5e-6 m of the target, 2.5e-4 of the pull, at every step
// (measured <= 1.1e-6 m over 100 steps; a single linearization at q_t left 2.4e-4 m).
TEST(LocalGlobalCable, CableLengthReachesItsTarget) {
  const LocalGlobalDescription d = bar_with_cable(true);
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  const double rest = cable_length(d.cables[0], d.rest_positions);
  EXPECT_NEAR(rest, 0.4, 1e-15);
  double worst = 0.0;
  for (int s = 0; s < 100; ++s) {
    const double pull = 0.02 * std::min(1.0, (s + 1) / 10.0);
    lg.set_cable_pull(0, pull);
    ASSERT_TRUE(lg.step().ok());
    const double error = std::abs(cable_length(d.cables[0], lg.positions()) - (rest - pull));
    worst = std::max(worst, error);
    EXPECT_LT(error, 5e-6) << "step " << s;
  }
  std::printf("worst length error over 100 steps %.2e m\n", worst);
}

// A slack cable (pull 0) adds no row: the bar sagging under gravity is bit for bit the bar
// without the cable, before and after a pull is released.
TEST(LocalGlobalCable, ZeroPullIsBitwiseTheBarWithoutTheCable) {
  LocalGlobalDescription with = bar_with_cable(true), without = with;
  without.cables.clear();
  auto backend = make_backend("serial");
  LocalGlobalIntegrator a(*backend, with), b(*backend, without);
  for (int s = 0; s < 20; ++s) {
    ASSERT_TRUE(a.step().ok());
    ASSERT_TRUE(b.step().ok());
  }
  const std::vector<double> xa = a.positions(), xb = b.positions();
  ASSERT_EQ(xa.size(), xb.size());
  for (std::size_t i = 0; i < xa.size(); ++i) ASSERT_EQ(xa[i], xb[i]) << "coordinate " << i;
  EXPECT_LT(xa[3 * vid(kNx, 1, 0) + 2], -1e-4) << "the bar sags: the comparison is not trivial";
}

// dL/dx matches central differences of L (relative 1e-7) on a bent chain.
TEST(LocalGlobalCable, LengthGradientMatchesCentralDifferences) {
  std::vector<double> x = {0, 0, 0, 0.1, 0.02, -0.01, 0.17, 0.08, 0.03, 0.2, 0.15, 0.1};
  Cable c;
  c.vertices = {0, 1, 2, 3};
  std::vector<Vec3> g;
  const double L = cable_length_gradient(c, x.data(), g);
  EXPECT_DOUBLE_EQ(L, cable_length(c, x));
  const double eps = 1e-6;
  double worst = 0.0, scale = 0.0;
  for (std::size_t i = 0; i < x.size(); ++i) {
    std::vector<double> p = x, m = x;
    p[i] += eps;
    m[i] -= eps;
    const double fd = (cable_length(c, p) - cable_length(c, m)) / (2 * eps);
    worst = std::max(worst, std::abs(fd - g[i / 3][static_cast<int>(i % 3)]));
    scale = std::max(scale, std::abs(fd));
  }
  EXPECT_GT(scale, 0.5) << "a non-trivial gradient";
  EXPECT_LT(worst, 1e-7 * scale);
}

TEST(LocalGlobalCable, BadInputIsNamed) {
  auto backend = make_backend("serial");
  LocalGlobalDescription d = bar_with_cable(false);
  d.cables[0].vertices = {vid(0, 0, 0)};
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "cables[0].vertices", "at least 2");
  d = bar_with_cable(false);
  d.cables[0].vertices.push_back(vid(0, 1, kNz));
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "cables[0].vertices", "distinct");
  d = bar_with_cable(false);
  d.cables[0].vertices[3] = 100000;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "cables[0].vertices[3]", "out of range");
  d = bar_with_cable(false);
  d.cables[0].pull = 0.5;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "cables[0].pull");
  d = bar_with_cable(false);
  LocalGlobalOptions jacobi;
  jacobi.global_step = GlobalStepKind::kJacobi;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d, jacobi), "cables", "kSparseInverse");
  LocalGlobalIntegrator lg(*backend, bar_with_cable(false));
  EXPECT_SINEW_ERROR(lg.set_cable_pull(1, 0.01), "set_cable_pull", "out of range");
  EXPECT_SINEW_ERROR(lg.set_cable_pull(0, -0.01), "set_cable_pull", "pull");
  EXPECT_SINEW_ERROR(lg.set_cable_pull(0, 0.4), "set_cable_pull", "pull");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_cable_test
