// Edge-edge contacts between deformable bodies (edge_edge_contacts.hpp): two wedge tets whose
// sharp edges cross, hand-computed (parameters, signed distance, normal), apart and crossed; the
// margin and the prediction; the pairs left to vertex-triangle contacts (parallel edges, an
// endpoint closest, a sharp edge over a flat face's inner edge); and an output that does not
// depend on the order of the triangles or on the thread count.
#include "sinew/collision/edge_edge_contacts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <tuple>
#include <vector>

#include "collision_test_util.hpp"
#include "expect_error.hpp"

namespace sinew::collision_edge_edge_contacts_test {
namespace {

using test::append_box;
using test::orientation;

// Two wedge tets: the upper one (vertices 0-3, body 0) has its bottom edge 0-1 along y at height
// z; the lower one (vertices 4-7, body 1) has its top edge 4-5 along x at z = 0, rotated by
// @p angle about z and shifted by @p shift along x. Every edge of a tet is sharp.
struct Wedges {
  std::vector<Vec3> x;
  std::vector<Index> tets;
  TetSurfaces s;
};

Wedges wedges(double z, double angle = 0.0, double shift = 0.0) {
  Wedges w;
  const double c = std::cos(angle), s = std::sin(angle);
  w.x = {v3::make(0, -1, z),         v3::make(0, 1, z),         v3::make(-1, 0, z + 1),  v3::make(1, 0, z + 1),
         v3::make(shift - c, -s, 0), v3::make(shift + c, s, 0), v3::make(shift, -1, -1), v3::make(shift, 1, -1)};
  w.tets = {0, 1, 2, 3, 4, 5, 6, 7};
  for (int t = 0; t < 2; ++t)
    if (orientation(w.x, w.tets.data() + 4 * t) < 0) std::swap(w.tets[4 * t + 2], w.tets[4 * t + 3]);
  w.s = tet_surfaces(w.tets, 8);
  return w;
}

// Index of edge (u, w) in the detector's edge list.
Index edge_index(const EdgeEdgeDetector& d, Index u, Index w) {
  const auto& e = d.edges();
  const auto it = std::find(e.begin(), e.end(), std::array<Index, 2>{std::min(u, w), std::max(u, w)});
  return it == e.end() ? -1 : static_cast<Index>(it - e.begin());
}

constexpr double kSharp = 10.0 * 3.14159265358979323846 / 180.0;

TEST(EdgeEdgeDetector, CrossingSharpEdgesHandComputed) {
  for (double z : {0.05, -0.02}) {  // apart, then crossed by 2 cm
    SCOPED_TRACE(z);
    const Wedges w = wedges(z, 0.0, 0.1);
    ASSERT_EQ(w.s.bodies, 2);
    EdgeEdgeDetector det;
    std::vector<EdgeEdgeContact> out;
    det.detect(w.s, w.x, nullptr, 0.1, kSharp, out);
    ASSERT_EQ(out.size(), 1u);
    const EdgeEdgeContact& c = out[0];
    EXPECT_EQ(c.edge_a, edge_index(det, 0, 1)) << "the upper body's bottom edge";
    EXPECT_EQ(c.edge_b, edge_index(det, 4, 5)) << "against the lower body's top edge";
    EXPECT_NEAR(c.s, 0.5, 1e-14);          // (0, 0, z) on 0 -> 1
    EXPECT_NEAR(c.t, 0.45, 1e-14);         // (0, 0, 0) on 4 = (-0.9, 0, 0) -> 5 = (1.1, 0, 0)
    EXPECT_NEAR(c.distance, z, 1e-14);     // negative once crossed
    EXPECT_NEAR(c.normal[2], 1.0, 1e-14);  // out of the lower body, toward the upper
    EXPECT_EQ(c.predicted, c.distance);
  }
}

TEST(EdgeEdgeDetector, MarginAndPrediction) {
  const Wedges w = wedges(0.05);
  EdgeEdgeDetector det;
  std::vector<EdgeEdgeContact> out;
  det.detect(w.s, w.x, nullptr, 0.04, kSharp, out);
  EXPECT_TRUE(out.empty()) << "5 cm apart, 4 cm margin";
  std::vector<Vec3> y = w.x;  // the upper body falls 8 cm over the step
  for (int v = 0; v < 4; ++v) y[v][2] -= 0.08;
  det.detect(w.s, w.x, &y, 0.04, kSharp, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].distance, 0.05, 1e-14);
  EXPECT_NEAR(out[0].predicted, -0.03, 1e-14);
}

TEST(EdgeEdgeDetector, EdgesOfOneBodyMeetOnlyWithSelfContactAndAwayFromTheirNeighbourhood) {
  // The two wedges as one body (two parts of one folded surface): their crossing edges meet only
  // when the body self-contacts, then as the two bodies did.
  Wedges w = wedges(0.05, 0.0, 0.1);
  TetSurfaces one = w.s;
  std::fill(one.vertex_body.begin(), one.vertex_body.end(), 0);
  std::fill(one.triangle_body.begin(), one.triangle_body.end(), 0);
  one.bodies = 1;
  EdgeEdgeDetector det, two;
  std::vector<EdgeEdgeContact> out, reference;
  det.detect(one, w.x, nullptr, 0.1, kSharp, out);
  EXPECT_TRUE(out.empty()) << "one body without self-contact";
  const std::vector<char> self{1}, none{0};
  det.detect(one, w.x, nullptr, 0.1, kSharp, out, &none);
  EXPECT_TRUE(out.empty());
  det.detect(one, w.x, nullptr, 0.1, kSharp, out, &self);
  two.detect(w.s, w.x, nullptr, 0.1, kSharp, reference);
  ASSERT_EQ(out.size(), 1u);
  ASSERT_EQ(reference.size(), 1u);
  EXPECT_EQ(out[0].edge_a, reference[0].edge_a);
  EXPECT_EQ(out[0].edge_b, reference[0].edge_b);
  EXPECT_EQ(out[0].distance, reference[0].distance);
  for (int k = 0; k < 3; ++k) EXPECT_EQ(out[0].normal[k], reference[0].normal[k]);
  // A block of 4 x 3 x 2 cells (every outer edge sharp at its corners) with a margin of half a
  // cell meets nothing of itself: near edges share a vertex or an edge, or do not face each other.
  std::vector<Vec3> x;
  std::vector<Index> tets;
  append_box(x, tets, v3::make(0, 0, 0), v3::make(0.4, 0.3, 0.2), 4, 3, 2);
  const TetSurfaces block = tet_surfaces(tets, static_cast<Index>(x.size()));
  det.detect(block, x, nullptr, 0.05, kSharp, out, &self);
  EXPECT_TRUE(out.empty()) << out.size() << " contacts of a block with itself";
  const std::vector<char> wrong{1, 1};
  EXPECT_SINEW_ERROR(det.detect(block, x, nullptr, 0.05, kSharp, out, &wrong),
                     "self_contact must have one entry per body");
}

TEST(EdgeEdgeDetector, PairsOfVertexTriangleContactsAreLeftToThem) {
  EdgeEdgeDetector det;
  std::vector<EdgeEdgeContact> out;
  // Parallel edges (the lower edge turned to lie along y, under the upper one).
  const Wedges parallel = wedges(0.01, 0.5 * 3.14159265358979323846);
  det.detect(parallel.s, parallel.x, nullptr, 0.1, kSharp, out);
  for (const EdgeEdgeContact& c : out) EXPECT_NE(c.edge_a, edge_index(det, 0, 1)) << "parallel to 4-5";
  // The crossing point past the end of the lower edge (shifted 1.5 along x): an endpoint is closest.
  const Wedges past = wedges(0.01, 0.0, 1.5);
  det.detect(past.s, past.x, nullptr, 0.1, kSharp, out);
  EXPECT_TRUE(out.empty());
  // A sharp edge 1 mm over a flat face crosses the face's inner (flat) edges: not a contact.
  std::vector<Vec3> x;
  std::vector<Index> tets;
  append_box(x, tets, v3::make(-1, -1, -1), v3::make(1, 1, 0), 1, 1, 1);  // top face z = 0
  const Index first = static_cast<Index>(x.size());
  const Vec3 wedge[4] = {v3::make(-0.5, 0.3, 0.001), v3::make(0.5, -0.2, 0.001), v3::make(0, 0, 1),
                         v3::make(0.2, 0.5, 1)};
  x.insert(x.end(), wedge, wedge + 4);
  Index tet[4] = {first, first + 1, first + 2, first + 3};
  if (orientation(x, tet) < 0) std::swap(tet[2], tet[3]);
  tets.insert(tets.end(), tet, tet + 4);
  const TetSurfaces s = tet_surfaces(tets, static_cast<Index>(x.size()));
  ASSERT_EQ(s.bodies, 2);
  det.detect(s, x, nullptr, 0.1, kSharp, out);
  EXPECT_TRUE(out.empty()) << out.size() << " contacts with the flat diagonal";
}

// Two randomly perturbed boxes, the upper turned 45 degrees so that its bottom edges cross the
// lower one's top edges: the same contacts (by their vertices) after shuffling the triangles,
// and on 1 or 2 threads; the buffers are reused.
TEST(EdgeEdgeDetector, OrderIsStableAndBuffersAreReused) {
  std::vector<Vec3> x;
  std::vector<Index> tets;
  append_box(x, tets, v3::make(-0.5, -0.5, -0.5), v3::make(0.5, 0.5, 0.0), 4, 4, 2);
  const Index second = append_box(x, tets, v3::make(-0.5, -0.5, 0.0), v3::make(0.5, 0.5, 0.5), 3, 3, 2);
  const double r = std::sqrt(0.5);
  test::Rng rng(11);
  for (Index v = second; v < static_cast<Index>(x.size()); ++v) {  // turn 45 degrees, lift 5 mm
    const Vec3 p = x[v];
    x[v] = v3::make(r * (p[0] - p[1]), r * (p[0] + p[1]), p[2] + 0.005);
  }
  for (Vec3& p : x) p = v3::add(p, v3::scale(0.002, rng.vec(-1, 1)));
  const TetSurfaces s = tet_surfaces(tets, static_cast<Index>(x.size()));
  EdgeEdgeDetector det;
  std::vector<EdgeEdgeContact> ref;
  det.detect(s, x, nullptr, 0.02, kSharp, ref);
  ASSERT_GE(ref.size(), 4u) << "the turned box's bottom edges cross the lower box's four top edges";
  for (std::size_t i = 0; i < ref.size(); ++i) {
    const auto& a = det.edges()[ref[i].edge_a];
    const auto& b = det.edges()[ref[i].edge_b];
    EXPECT_LT(a[1], second) << "edge a on the lower body (body 0)";
    EXPECT_GE(b[0], second) << "edge b on the upper one";
    EXPECT_NEAR(ref[i].normal[2], -1.0, 0.1) << "out of the upper body";
    if (i > 0) {
      EXPECT_TRUE(std::tie(ref[i - 1].edge_a, ref[i - 1].edge_b) < std::tie(ref[i].edge_a, ref[i].edge_b));
    }
  }
  auto same = [](const std::vector<EdgeEdgeContact>& a, const std::vector<EdgeEdgeContact>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].edge_a, b[i].edge_a);
      EXPECT_EQ(a[i].edge_b, b[i].edge_b);
      EXPECT_EQ(a[i].distance, b[i].distance);
      EXPECT_EQ(a[i].s, b[i].s);
      EXPECT_EQ(a[i].t, b[i].t);
      for (int k = 0; k < 3; ++k) EXPECT_EQ(a[i].normal[k], b[i].normal[k]);
    }
  };
  // Shuffled triangles: the edges are named by their vertices, so the same contacts.
  const TetSurfaces p = test::shuffled_triangles(s, rng);
  std::vector<EdgeEdgeContact> out;
  EdgeEdgeDetector fresh;
  fresh.detect(p, x, nullptr, 0.02, kSharp, out);
  same(ref, out);
#if SINEW_TEST_HAVE_TBB
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    EdgeEdgeDetector d;
    d.detect(s, x, nullptr, 0.02, kSharp, out);
    same(ref, out);
  }
#endif
  const std::size_t capacity = out.capacity();
  for (int i = 0; i < 3; ++i) det.detect(s, x, nullptr, 0.02, kSharp, out);
  EXPECT_EQ(out.capacity(), capacity);
  same(ref, out);
  EXPECT_EQ(boundary_edges(s), det.edges());
}

TEST(EdgeEdgeDetector, BadInputIsNamed) {
  const Wedges w = wedges(0.05);
  EdgeEdgeDetector det;
  std::vector<EdgeEdgeContact> out;
  EXPECT_SINEW_ERROR(det.detect(w.s, w.x, nullptr, -1.0, kSharp, out), "EdgeEdgeDetector::detect", "margin");
  EXPECT_SINEW_ERROR(det.detect(w.s, w.x, nullptr, 0.1, 4.0, out), "EdgeEdgeDetector::detect", "sharp_angle");
  std::vector<Vec3> short_y(3);
  EXPECT_SINEW_ERROR(det.detect(w.s, w.x, &short_y, 0.1, kSharp, out), "EdgeEdgeDetector::detect", "predicted");
  std::vector<Vec3> bad = w.x;
  bad[5][1] = std::nan("");
  EXPECT_SINEW_ERROR(det.detect(w.s, bad, nullptr, 0.1, kSharp, out), "EdgeEdgeDetector::detect", "vertex 5",
                     "non-finite");
  EXPECT_SINEW_ERROR(EdgeEdgeDetector("octree"), "octree");
}

}  // namespace
}  // namespace sinew::collision_edge_edge_contacts_test
