// The self-contact of LocalGlobalIntegrator's cloth (LocalGlobalDescription::self_contact,
// cloth_self_contacts.hpp): a square cloth lying on a table, its right half lifted by its edge and
// folded over onto its left half, then pressed down. With self-contact no edge of the cloth crosses
// a triangle of the cloth at any of the 200 frames (segment-triangle test) and the fold rests a
// thickness above the bottom layer; without it the folded half falls through the bottom layer (so
// the test can fail). Host backends give the same bits, a checkpoint taken while the layers touch
// resumes bit for bit (the pairs' sides ride in the warm start), and bad input is named.
#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "host_backends.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/vec3_ops.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_self_contact_test {
namespace {

constexpr int kCells = 16;              // cells per side
constexpr double kSide = 0.32;          // m: 2 cm cells
constexpr double kThickness = 0.002;    // m: contact_thickness, the gap kept from the table and between layers
constexpr int kFrames = 200;            // steps of h = 0.01 s
constexpr int kFoldFrames = 100;        // the edge's half-turn over the cloth
constexpr int kPressFrames = 40;        // then lowered below the table
constexpr double kLand = 0.15 * kSide;  // x where the folded edge comes down
constexpr double kPress = -0.003;       // m: how far below the table its targets end

Index id(int i, int j) { return static_cast<Index>(i + (kCells + 1) * j); }

// The cloth flat on the table z = 0 (kThickness above it), the right edge (i = kCells) driven by
// targets, the left half (x <= side/2, the fold line included) touching the table: the folded half
// meets only the bottom layer, so without self-contact nothing stops it.
LocalGlobalDescription fold_on_table(bool self_contact) {
  LocalGlobalDescription d;
  for (int j = 0; j <= kCells; ++j)
    for (int i = 0; i <= kCells; ++i)
      d.rest_positions.insert(d.rest_positions.end(), {kSide * i / kCells, kSide * j / kCells, kThickness});
  for (int j = 0; j < kCells; ++j)
    for (int i = 0; i < kCells; ++i) {
      const Index a = id(i, j), b = id(i + 1, j), c = id(i, j + 1), e = id(i + 1, j + 1);
      if ((i + j) % 2 == 0) {
        d.triangles.insert(d.triangles.end(), {a, b, e, a, e, c});
      } else {
        d.triangles.insert(d.triangles.end(), {a, b, c, b, e, c});
      }
      // Alternating diagonals: no preferred direction.
    }
  d.model = MaterialModel::kArap;
  d.elastic = {1e5, 0.45};  // the seed's cloth (cloth_scenes.hpp): a 1 kg/m^2 sheet
  d.thickness = 1e-3;
  d.bending = BendingModel::kQuadratic;
  d.time_step = 0.01;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  for (int j = 0; j <= kCells; ++j)
    for (int i = 0; i <= kCells / 2; ++i) d.contact_vertices.push_back(id(i, j));
  d.contact_thickness = kThickness;
  d.contact_margin = 0.005;
  for (int j = 0; j <= kCells; ++j) {
    PositionalTarget t;
    t.vertex = id(kCells, j);
    t.target = Vec3{{kSide, kSide * j / kCells, kThickness}};
    t.weight = 20.0;  // N/m: soft enough that pressing it into the fold asks ~0.1 N of each contact
    d.targets.push_back(t);
  }
  d.self_contact = self_contact;
  return d;
}

// The targets' height and x at @p frame: a half-turn about x = (side + land) / 2 from the right edge
// to x = land, then straight down to kPress, then held.
void move_targets(LocalGlobalIntegrator& lg, int frame) {
  const double pi = 3.14159265358979323846;
  const double c = 0.5 * (kSide + kLand), r = 0.5 * (kSide - kLand);
  double x = kLand, z = kThickness;
  if (frame < kFoldFrames) {
    const double theta = pi * (frame + 1) / kFoldFrames;
    x = c + r * std::cos(theta);
    z = kThickness + r * std::sin(theta);
  } else {
    const double s = std::min(1.0, static_cast<double>(frame + 1 - kFoldFrames) / kPressFrames);
    z = kThickness + s * (kPress - kThickness);
  }
  for (int j = 0; j <= kCells; ++j) lg.set_target(static_cast<std::size_t>(j), Vec3{{x, kSide * j / kCells, z}});
}

double orient(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  return dot(cross(v3::sub(b, a), v3::sub(c, a)), v3::sub(d, a));
}

// The edges of the cloth that cross a triangle of the cloth sharing no vertex with them: the edge's
// ends strictly on both sides of the triangle's plane and the crossing point strictly inside it
// (the three orientations of the edge with the triangle's sides of one sign).
struct CrossingCheck {
  std::vector<std::array<Index, 3>> triangles;
  std::vector<std::array<Index, 2>> edges;
  ElementVertices tri_vertices, edge_vertices;
  std::unique_ptr<BroadPhase> broad = make_broad_phase("bvh");
  std::vector<CandidatePair> pairs;

  explicit CrossingCheck(const LocalGlobalDescription& d) {
    for (std::size_t t = 0; t < d.triangles.size(); t += 3)
      triangles.push_back({d.triangles[t], d.triangles[t + 1], d.triangles[t + 2]});
    edges = mesh_edges(triangles, static_cast<Index>(d.rest_positions.size() / 3));
    tri_vertices.assign(triangles.begin(), triangles.end());
    for (const auto& e : edges) edge_vertices.push_back({e[0], e[1], -1});
  }
  int count(const std::vector<double>& q) {
    std::vector<Vec3> x(q.size() / 3);
    for (std::size_t v = 0; v < x.size(); ++v) x[v] = Vec3{{q[3 * v], q[3 * v + 1], q[3 * v + 2]}};
    broad->build(triangle_boxes(x, triangles));
    broad->query_pairs_into(edge_boxes(x, edges), 0.0, &edge_vertices, &tri_vertices, pairs);
    int crossings = 0;
    for (const CandidatePair& p : pairs) {
      const Vec3 &u = x[edges[p.first][0]], &w = x[edges[p.first][1]];
      const auto& t = triangles[p.second];
      const Vec3 &a = x[t[0]], &b = x[t[1]], &c = x[t[2]];
      const double su = orient(a, b, c, u), sw = orient(a, b, c, w);
      if (!((su > 0.0 && sw < 0.0) || (su < 0.0 && sw > 0.0))) continue;
      const double o1 = orient(u, w, a, b), o2 = orient(u, w, b, c), o3 = orient(u, w, c, a);
      if ((o1 > 0.0 && o2 > 0.0 && o3 > 0.0) || (o1 < 0.0 && o2 < 0.0 && o3 < 0.0)) ++crossings;
    }
    return crossings;
  }
};

struct FoldRun {
  int crossing_frames = 0;  // frames with a crossing edge
  int first_crossing = -1;  // the first of them
  int most_crossings = 0;   // the most crossing edges in one frame
  std::size_t most_contacts = 0;
  double fold_min_z = 1e9;     // lowest vertex of the folded half over the bottom layer, last frame
  double bottom_max_z = -1e9;  // highest vertex of the bottom layer away from the fold, last frame
  std::vector<double> x;
};

FoldRun run_fold(Backend& be, bool self_contact, int frames, bool check) {
  const LocalGlobalDescription d = fold_on_table(self_contact);
  LocalGlobalIntegrator lg(be, d);
  CrossingCheck crossing(d);
  FoldRun r;
  for (int f = 0; f < frames; ++f) {
    move_targets(lg, f);
    const LocalGlobalReport rep = lg.step();
    EXPECT_TRUE(rep.ok()) << "frame " << f << ": " << rep.message;
    if (!rep.ok()) break;
    r.most_contacts = std::max(r.most_contacts, rep.contacts);
    if (!check) continue;
    const int n = crossing.count(lg.positions());
    if (n > 0 && r.first_crossing < 0) r.first_crossing = f;
    r.crossing_frames += n > 0;
    r.most_crossings = std::max(r.most_crossings, n);
  }
  r.x = lg.positions();
  for (int j = 2; j <= kCells - 2; ++j)
    for (int i = 0; i <= kCells; ++i) {
      const double* p = &r.x[3 * static_cast<std::size_t>(id(i, j))];
      if (i > kCells / 2 && p[0] > kLand + 0.04 && p[0] < 0.5 * kSide - 0.06)
        r.fold_min_z = std::min(r.fold_min_z, p[2]);
      if (i < kCells / 2 - 3) r.bottom_max_z = std::max(r.bottom_max_z, p[2]);
    }
  return r;
}

TEST(LocalGlobalSelfContact, AClothFoldedOnItselfOnATableHasNoCrossingEdges) {
  auto be = make_backend("serial");
  const int frames = test::quick_tests() ? 120 : kFrames;
  const FoldRun with = run_fold(*be, true, frames, true);
  const FoldRun without = run_fold(*be, false, frames, true);
  std::printf(
      "self-contact: %d frames with crossing edges (most %d), up to %zu contacts, folded half's lowest "
      "%.4f m over a bottom layer at most %.4f m\n",
      with.crossing_frames, with.most_crossings, with.most_contacts, with.fold_min_z, with.bottom_max_z);
  std::printf("without: %d frames with crossing edges (first %d, most %d), folded half's lowest %.4f m\n",
              without.crossing_frames, without.first_crossing, without.most_crossings, without.fold_min_z);
  EXPECT_EQ(with.crossing_frames, 0) << "first at frame " << with.first_crossing;
  EXPECT_GT(without.crossing_frames, 5) << "without self-contact the folded half falls through the bottom layer";
  EXPECT_LT(without.fold_min_z, 0.0);
  // The fold rests on the bottom layer, a thickness above it (contact_thickness), not in it.
  EXPECT_NEAR(with.bottom_max_z, kThickness, 2e-4);
  EXPECT_GT(with.fold_min_z, 2.0 * kThickness - 5e-4);
  EXPECT_LT(with.fold_min_z, 2.0 * kThickness + 0.01) << "and does lie on it";
}

// The backends from the fold's state as it reaches the bottom layer (so that each runs only the
// frames with self-contacts), and the checkpoint taken among them.
TEST(LocalGlobalSelfContact, BackendsAndCheckpointGiveTheSameBits) {
  auto be = make_backend("serial");
  const LocalGlobalDescription d = fold_on_table(true);
  LocalGlobalIntegrator a(*be, d), b(*be, d);
  constexpr int kStart = 100, kFrom = 105, kEnd = 110;
  int f = 0;
  for (; f < kStart; ++f) {
    move_targets(a, f);
    ASSERT_TRUE(a.step().ok());
  }
  const std::vector<double> x0 = a.positions(), v0 = a.velocities();
  test::expect_host_backends_bitwise_equal(
      [&](Backend& backend) {
        LocalGlobalIntegrator lg(backend, d);
        lg.set_state(x0, v0);
        std::size_t contacts = 0;
        for (int g = kStart; g < kEnd; ++g) {
          move_targets(lg, g);
          const LocalGlobalReport rep = lg.step();
          EXPECT_TRUE(rep.ok());
          contacts = std::max(contacts, rep.contacts);
        }
        EXPECT_GT(contacts, 100u);
        return lg.positions();
      },
      "cloth fold");
  std::size_t contacts = 0;
  for (; f < kFrom; ++f) {
    move_targets(a, f);
    contacts = a.step().contacts;
  }
  ASSERT_GT(contacts, 100u);
  std::stringstream saved;
  a.save(saved);
  b.restore(saved);
  for (; f < kEnd; ++f) {
    move_targets(a, f);
    move_targets(b, f);
    const LocalGlobalReport ra = a.step(), rb = b.step();
    ASSERT_TRUE(ra.ok() && rb.ok());
    EXPECT_EQ(ra.contacts, rb.contacts);
  }
  const std::vector<double> xa = a.positions(), xb = b.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0) << "resumed bit for bit";
}

// The report's self-contacts: rows over a vertex and a triangle's three vertices (-4) or two edges'
// four (-5) whose weights sum to 0 (internal to the cloth: momentum-conserving), no obstacle, pushing
// apart (r_n >= 0).
TEST(LocalGlobalSelfContact, ReportsSelfContactRowsAndNamesBadInput) {
  auto be = make_backend("serial");
  const LocalGlobalDescription d = fold_on_table(true);
  LocalGlobalIntegrator lg(*be, d);
  LocalGlobalReport rep;
  for (int f = 0; f < 110; ++f) {
    move_targets(lg, f);
    rep = lg.step();
    ASSERT_TRUE(rep.ok());
  }
  int vertex_triangle = 0, edge_edge = 0;
  double largest = 0.0, most_negative = 0.0;  // the largest and the most negative normal impulses
  for (std::size_t j = 0; j < rep.contacts; ++j) largest = std::max(largest, rep.impulses[3 * j]);
  for (std::size_t j = 0; j < rep.contacts; ++j) {
    const Index kind = rep.contact_triangle[j];
    if (kind != -4 && kind != -5) continue;
    vertex_triangle += kind == -4;
    edge_edge += kind == -5;
    EXPECT_EQ(rep.contact_obstacle[j], -1);
    double sum = 0.0;
    int nodes = 0;
    for (int k = 0; k < 4; ++k) {
      if (rep.contact_nodes[4 * j + k] < 0) continue;
      ++nodes;
      sum += rep.contact_weights[4 * j + k];
    }
    EXPECT_EQ(nodes, 4);
    EXPECT_NEAR(sum, 0.0, 1e-12);
    most_negative = std::min(most_negative, rep.impulses[3 * j]);
    const double n2 = rep.normals[3 * j] * rep.normals[3 * j] + rep.normals[3 * j + 1] * rep.normals[3 * j + 1] +
                      rep.normals[3 * j + 2] * rep.normals[3 * j + 2];
    EXPECT_NEAR(n2, 1.0, 1e-12);
  }
  std::printf("frame 110: %zu contacts, %d vertex-triangle and %d edge-edge self-contacts\n", rep.contacts,
              vertex_triangle, edge_edge);
  std::printf("normal impulses: largest %.3e N s, most negative %.3e N s; contact error %.3e\n", largest, most_negative,
              rep.contact_error);
  EXPECT_GT(vertex_triangle, 10);
  // They push apart, to the contact solve's accuracy (the seed's one Newton step per L-G iteration).
  EXPECT_GT(most_negative, -0.01 * largest);

  // A cloth that does not touch itself steps bit for bit as without self-contact.
  LocalGlobalDescription hanging = fold_on_table(false);
  hanging.obstacles.clear();
  LocalGlobalDescription hanging_self = hanging;
  hanging_self.self_contact = true;
  LocalGlobalIntegrator off(*be, hanging), on(*be, hanging_self);
  for (int f = 0; f < 10; ++f) {
    ASSERT_TRUE(off.step().ok());
    EXPECT_EQ(on.step().contacts, 0u);
  }
  const std::vector<double> xa = off.positions(), xb = on.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0);

  LocalGlobalOptions cholmod;
  cholmod.global_step = GlobalStepKind::kCholmod;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*be, hanging_self, cholmod), "self_contact", "kSparseInverse", "cholmod");
  EXPECT_NO_THROW(LocalGlobalIntegrator(*be, hanging, cholmod));
  LocalGlobalDescription bad = d;
  bad.self_friction = -0.1;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*be, bad), "self_friction", "-0.1");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_self_contact_test
