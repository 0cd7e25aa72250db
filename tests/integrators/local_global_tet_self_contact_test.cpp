// The self-contact of LocalGlobalIntegrator's tet bodies (LocalGlobalDescription::self_contact with
// tets: VertexTriangleDetector's and EdgeEdgeDetector's self-contact mode): a soft 40 x 4 x 4 cm bar
// (20 x 2 x 2 cells) lying on a table, pinned at its left end, its right end turned over by soft
// targets (a half-turn about a line across the bar) onto the bar's own top face and then pressed
// 12 mm into it. With self-contact no vertex of the bar enters a tetrahedron of its own other part
// at any frame; without it the turned-over end passes into the bar (so the test can fail). Host
// backends give the same bits; a bar at rest is unchanged by the flag; bad input is named.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "host_backends.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_tet_self_contact_test {
namespace {

constexpr double kLength = 0.4, kWidth = 0.04, kDepth = 0.04;  // m: the bar, 2 cm cells
constexpr int kCellsX = 20, kCellsY = 2, kCellsZ = 2;
constexpr std::size_t kDriven = (kCellsY + 1) * (kCellsZ + 1);  // the end's vertices
constexpr double kGap = 0.001;          // m: contact_thickness, kept from the table and between the layers
constexpr double kTop = kGap + kDepth;  // the bar's top face at rest
constexpr double kLand = 0.1;           // x where the turned-over end comes down
constexpr double kPress = 0.012;        // m: how far below the top face its targets end
constexpr int kFoldFrames = 100, kPressFrames = 30, kFrames = 150;

// The bar [0, L] x [0, W] x [gap, gap + depth] on the table z = 0, pinned at x = 0, its end x = L
// held by soft targets (the first targets of the description, in vertex order).
LocalGlobalDescription bar(bool self_contact) {
  LocalGlobalDescription d;
  const test::FlatTetMesh m =
      test::flat_box_tet_mesh(Vec3{{0, 0, kGap}}, Vec3{{kLength, kWidth, kTop}}, kCellsX, kCellsY, kCellsZ);
  d.rest_positions = m.x;
  d.tets = m.tets;
  d.model = MaterialModel::kArap;
  d.elastic = {1e5, 0.3};  // a soft rubber
  d.density = 1000.0;
  d.time_step = 0.01;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  d.contact_thickness = kGap;
  d.contact_margin = 0.003;  // well below the bar's thickness: its faces do not touch each other at rest
  const Index n = static_cast<Index>(d.rest_positions.size() / 3);
  for (Index v = 0; v < n; ++v) {
    const double* p = &d.rest_positions[3 * static_cast<std::size_t>(v)];
    if (p[0] > kLength - 1e-9) d.targets.push_back({v, Vec3{{p[0], p[1], p[2]}}, 300.0});  // N/m
  }
  const std::size_t driven = d.targets.size();
  for (Index v = 0; v < n; ++v) {
    const double* p = &d.rest_positions[3 * static_cast<std::size_t>(v)];
    if (p[0] < 1e-9) d.targets.push_back({v, Vec3{{p[0], p[1], p[2]}}, 0.0});  // pinned (automatic weight)
  }
  EXPECT_EQ(driven, kDriven);
  d.self_contact = self_contact;
  return d;
}

// The driven targets at @p frame: each rest point of the end turned about the line y-parallel
// through ((L + land) / 2, top) by pi (frame + 1) / kFoldFrames, upward first (the end lands upside
// down on the top face at x = land), then lowered by kPress, then held.
void move_targets(const LocalGlobalDescription& d, LocalGlobalIntegrator& lg, int frame) {
  const double pi = 3.14159265358979323846;
  const double xc = 0.5 * (kLength + kLand), zc = kTop;
  const double theta = pi * std::min(1.0, static_cast<double>(frame + 1) / kFoldFrames);
  const double down = kPress * std::clamp(static_cast<double>(frame + 1 - kFoldFrames) / kPressFrames, 0.0, 1.0);
  const double c = std::cos(theta), s = std::sin(theta);
  for (std::size_t k = 0; k < kDriven; ++k) {
    const Vec3& p = d.targets[k].target;
    const double dx = p[0] - xc, dz = p[2] - zc;
    lg.set_target(k, Vec3{{xc + c * dx - s * dz, p[1], zc + s * dx + c * dz - down}});
  }
}

// The vertices strictly inside a tetrahedron of the bar's other part: a tet whose four rest
// positions are all more than kApart along x from the vertex's.
struct InsideCheck {
  static constexpr double kApart = 0.08;
  std::vector<double> rest;
  std::vector<std::array<Index, 4>> tets;

  explicit InsideCheck(const LocalGlobalDescription& d) : rest(d.rest_positions) {
    for (std::size_t t = 0; t < d.tets.size(); t += 4)
      tets.push_back({d.tets[t], d.tets[t + 1], d.tets[t + 2], d.tets[t + 3]});
  }
  int count(const std::vector<double>& q, double* deepest) const {
    const auto at = [&](Index v) {
      return Vec3{{q[3 * static_cast<std::size_t>(v)], q[3 * static_cast<std::size_t>(v) + 1],
                   q[3 * static_cast<std::size_t>(v) + 2]}};
    };
    const auto sub = [](const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; };
    int inside = 0;
    const Index n = static_cast<Index>(q.size() / 3);
    for (Index v = 0; v < n; ++v) {
      const Vec3 x = at(v);
      const double rx = rest[3 * static_cast<std::size_t>(v)];
      bool in = false;
      for (const auto& t : tets) {
        bool apart = true;
        for (Index u : t) apart = apart && std::abs(rest[3 * static_cast<std::size_t>(u)] - rx) > kApart;
        if (!apart) continue;
        const Vec3 a = at(t[0]);
        const Vec3 e1 = sub(at(t[1]), a), e2 = sub(at(t[2]), a), e3 = sub(at(t[3]), a), r = sub(x, a);
        const double det = dot(e1, cross(e2, e3));
        if (det <= 0.0) continue;  // an inverted element holds nothing
        const double b1 = dot(r, cross(e2, e3)) / det, b2 = dot(e1, cross(r, e3)) / det,
                     b3 = dot(e1, cross(e2, r)) / det, b0 = 1.0 - b1 - b2 - b3;
        const double least = std::min(std::min(b0, b1), std::min(b2, b3));
        if (least <= 0.0) continue;
        in = true;
        // Depth: the barycentric margin times the element's size (1 cm).
        *deepest = std::max(*deepest, least * 0.02);
      }
      inside += in;
    }
    return inside;
  }
};

struct BarRun {
  int inside_frames = 0;  // frames with a vertex inside the bar's other part
  int first_inside = -1;
  int most_inside = 0;
  double deepest = 0.0;
  int most_self_contacts = 0;  // contacts not against an obstacle
  double end_min_z = 1e9;      // the lowest driven vertex, last frame
  std::vector<double> x;
};

BarRun run_bar(Backend& be, bool self_contact, int frames) {
  const LocalGlobalDescription d = bar(self_contact);
  LocalGlobalIntegrator lg(be, d);
  const InsideCheck check(d);
  BarRun r;
  for (int f = 0; f < frames; ++f) {
    move_targets(d, lg, f);
    const LocalGlobalReport rep = lg.step();
    EXPECT_TRUE(rep.ok()) << "frame " << f << ": " << rep.message;
    if (!rep.ok()) break;
    int self = 0;
    for (std::size_t j = 0; j < rep.contacts; ++j) self += rep.contact_obstacle[j] < 0;
    r.most_self_contacts = std::max(r.most_self_contacts, self);
    const int n = check.count(lg.positions(), &r.deepest);
    if (n > 0 && r.first_inside < 0) r.first_inside = f;
    r.inside_frames += n > 0;
    r.most_inside = std::max(r.most_inside, n);
  }
  r.x = lg.positions();
  for (std::size_t k = 0; k < kDriven; ++k)
    r.end_min_z = std::min(r.end_min_z, r.x[3 * static_cast<std::size_t>(d.targets[k].vertex) + 2]);
  return r;
}

TEST(LocalGlobalTetSelfContact, ABarTurnedOverOntoItselfDoesNotEnterItself) {
  auto be = make_backend("serial");
  const int frames = test::quick_tests() ? kFoldFrames + kPressFrames : kFrames;
  const BarRun with = run_bar(*be, true, frames);
  const BarRun without = run_bar(*be, false, frames);
  std::printf(
      "self-contact: %d frames with a vertex inside the bar (most %d, deepest %.2e m), up to %d self-contacts, "
      "end's lowest vertex %.4f m (top face at rest %.4f m)\n",
      with.inside_frames, with.most_inside, with.deepest, with.most_self_contacts, with.end_min_z, kTop);
  std::printf("without: %d frames with a vertex inside (first %d, most %d, deepest %.2e m), end's lowest %.4f m\n",
              without.inside_frames, without.first_inside, without.most_inside, without.deepest, without.end_min_z);
  EXPECT_EQ(with.inside_frames, 0) << "first at frame " << with.first_inside;
  EXPECT_GT(with.most_self_contacts, 5);
  EXPECT_GT(without.inside_frames, 20) << "without self-contact the turned-over end enters the bar";
  EXPECT_GT(without.most_inside, 10);
  EXPECT_EQ(without.most_self_contacts, 0);
  // The end rests on the bar's top face (pressed down with it), the other run's end sinks into the bar.
  EXPECT_GT(with.end_min_z - without.end_min_z, 0.005);
}

// The host backends from the fold's last frames (the self-contacts active) give the same bits.
TEST(LocalGlobalTetSelfContact, HostBackendsGiveTheSameBits) {
  auto be = make_backend("serial");
  const LocalGlobalDescription d = bar(true);
  LocalGlobalIntegrator a(*be, d);
  constexpr int kStart = 105, kEnd = 108;
  for (int f = 0; f < kStart; ++f) {
    move_targets(d, a, f);
    ASSERT_TRUE(a.step().ok());
  }
  const std::vector<double> x0 = a.positions(), v0 = a.velocities();
  test::expect_host_backends_bitwise_equal(
      [&](Backend& backend) {
        LocalGlobalIntegrator lg(backend, d);
        lg.set_state(x0, v0);
        std::size_t contacts = 0;
        for (int g = kStart; g < kEnd; ++g) {
          move_targets(d, lg, g);
          const LocalGlobalReport rep = lg.step();
          EXPECT_TRUE(rep.ok());
          contacts = std::max(contacts, rep.contacts);
        }
        EXPECT_GT(contacts, 30u);
        return lg.positions();
      },
      "bar fold");
}

// A bar lying still finds no self-contact (its parts are thicker than the margin): the same bits as
// without the flag; self-contact of a body needs the sparse inverse, named.
TEST(LocalGlobalTetSelfContact, ABarAtRestIsUnchangedAndBadInputIsNamed) {
  auto be = make_backend("serial");
  const LocalGlobalDescription on_d = bar(true), off_d = bar(false);
  LocalGlobalIntegrator on(*be, on_d), off(*be, off_d);
  for (int f = 0; f < 10; ++f) {
    const LocalGlobalReport a = on.step(), b = off.step();
    ASSERT_TRUE(a.ok() && b.ok());
    EXPECT_EQ(a.contacts, b.contacts) << "only the table's";
  }
  const std::vector<double> xa = on.positions(), xb = off.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0);
  LocalGlobalOptions cholmod;
  cholmod.global_step = GlobalStepKind::kCholmod;
  LocalGlobalDescription alone = on_d;  // no obstacle: only the self-contact asks for contact rows
  alone.obstacles.clear();
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*be, alone, cholmod), "body_contact", "self_contact", "kSparseInverse");
  alone.self_contact = false;
  EXPECT_NO_THROW(LocalGlobalIntegrator(*be, alone, cholmod));
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_tet_self_contact_test
