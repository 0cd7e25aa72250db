// Vertex-triangle contacts between deformable bodies (vertex_triangle_contacts.hpp): the bodies and
// outward boundary faces of tet meshes, hand-computed gaps, normals and barycentric weights for
// a face, a penetrating vertex, an edge and a corner (the side from the feature's pseudo-normal),
// the margin and the prediction, no self-contact, and
// an output that does not depend on the order of the query vertices, of the triangles or on the
// thread count.
#include "sinew/collision/vertex_triangle_contacts.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <numeric>
#include <random>
#include <tuple>
#include <vector>

#include "collision_test_util.hpp"
#include "expect_error.hpp"

namespace sinew::collision_vertex_triangle_contacts_test {
namespace {

using test::append_box;
using test::orientation;

Vec3 face_normal(const std::vector<Vec3>& x, const std::array<Index, 3>& t) {
  return cross(v3::sub(x[t[1]], x[t[0]]), v3::sub(x[t[2]], x[t[0]]));
}

// Tet A: (0,0,0), (0,1,0), (1,0,0), (0,0,-1), its top face z = 0 pointing up. Tet B: a vertex p
// (index 4) below three vertices high above, so that only p comes near A.
struct TwoTets {
  std::vector<Vec3> x;
  std::vector<Index> tets;
  TetSurfaces s;
};

TwoTets two_tets(const Vec3& p) {
  TwoTets t;
  t.x = {v3::make(0, 0, 0),
         v3::make(0, 1, 0),
         v3::make(1, 0, 0),
         v3::make(0, 0, -1),
         p,
         v3::add(p, v3::make(0, 0, 2)),
         v3::add(p, v3::make(1, 0, 2)),
         v3::add(p, v3::make(0, 1, 2))};
  t.tets = {0, 1, 2, 3, 4, 5, 6, 7};
  if (orientation(t.x, t.tets.data() + 4) < 0) std::swap(t.tets[6], t.tets[7]);
  t.s = tet_surfaces(t.tets, 8);
  return t;
}

// The weight of vertex v in contact c of surfaces s (0 when v is not on its triangle).
double weight_of(const TetSurfaces& s, const VertexTriangleContact& c, Index v) {
  for (int k = 0; k < 3; ++k)
    if (s.triangles[c.triangle][k] == v) return c.bary[k];
  return 0.0;
}

TEST(TetSurfaces, BodiesAndOutwardBoundaryFaces) {
  std::vector<Vec3> x;
  std::vector<Index> tets;
  append_box(x, tets, v3::make(0, 0, 0), v3::make(1, 1, 1), 2, 2, 2);
  append_box(x, tets, v3::make(2, 0, 0), v3::make(3, 1, 1), 1, 1, 1);
  const TetSurfaces s = tet_surfaces(tets, static_cast<Index>(x.size()));
  EXPECT_EQ(s.bodies, 2);
  // 6 faces x 2 x 2 cells x 2 triangles, and 6 x 2 for the single cube.
  EXPECT_EQ(s.triangles.size(), 48u + 12u);
  EXPECT_EQ(s.vertex_body[0], 0);
  EXPECT_EQ(s.vertex_body[27], 1);
  double area = 0.0;
  for (std::size_t t = 0; t < s.triangles.size(); ++t) {
    const std::array<Index, 3>& tri = s.triangles[t];
    EXPECT_EQ(s.triangle_body[t], s.vertex_body[tri[0]]);
    // Outward: the face normal points away from its body's centre.
    const Vec3 centre = s.triangle_body[t] == 0 ? v3::make(0.5, 0.5, 0.5) : v3::make(2.5, 0.5, 0.5);
    const Vec3 mid = v3::scale(1.0 / 3.0, v3::add(v3::add(x[tri[0]], x[tri[1]]), x[tri[2]]));
    EXPECT_GT(dot(face_normal(x, tri), v3::sub(mid, centre)), 0.0) << "triangle " << t;
    area += 0.5 * norm(face_normal(x, tri));
  }
  EXPECT_NEAR(area, 12.0, 1e-12);  // two unit cubes' surfaces
  // A vertex in no tet has no body.
  const TetSurfaces lone = tet_surfaces({0, 1, 2, 3}, 5);
  EXPECT_EQ(lone.vertex_body[4], -1);
  EXPECT_EQ(lone.triangles.size(), 4u);
}

TEST(TetSurfaces, BadInputIsNamed) {
  EXPECT_SINEW_ERROR(tet_surfaces({0, 1, 2}, 3), "tet_surfaces", "4 indices");
  EXPECT_SINEW_ERROR(tet_surfaces({0, 1, 2, 7}, 4), "tet_surfaces", "tets[3]", "out of range");
}

// p above the interior of A's top face: gap 0.05, normal +z, closest (0.2, 0.3, 0) with weights
// 0.5 on (0,0,0), 0.2 on (1,0,0) and 0.3 on (0,1,0).
TEST(VertexTriangleDetector, FaceContactHandComputed) {
  const TwoTets t = two_tets(v3::make(0.2, 0.3, 0.05));
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  std::vector<Index> all(8);
  std::iota(all.begin(), all.end(), Index{0});
  det.detect(t.s, all, t.x, nullptr, 0.1, out);
  ASSERT_EQ(out.size(), 1u);
  const VertexTriangleContact& c = out[0];
  EXPECT_EQ(c.vertex, 4);
  EXPECT_EQ(t.s.triangle_body[c.triangle], 0);
  EXPECT_NEAR(c.distance, 0.05, 1e-15);
  EXPECT_EQ(c.predicted, c.distance);
  EXPECT_NEAR(c.normal[0], 0.0, 1e-15);
  EXPECT_NEAR(c.normal[1], 0.0, 1e-15);
  EXPECT_NEAR(c.normal[2], 1.0, 1e-15);
  EXPECT_NEAR(c.closest[0], 0.2, 1e-15);
  EXPECT_NEAR(c.closest[1], 0.3, 1e-15);
  EXPECT_NEAR(c.closest[2], 0.0, 1e-15);
  EXPECT_NEAR(weight_of(t.s, c, 0), 0.5, 1e-15);
  EXPECT_NEAR(weight_of(t.s, c, 2), 0.2, 1e-15);
  EXPECT_NEAR(weight_of(t.s, c, 1), 0.3, 1e-15);
  EXPECT_EQ(c.region, TriangleRegion::kFace);
  // Below the margin only: at 0.05 and margin 0.04 there is none.
  det.detect(t.s, all, t.x, nullptr, 0.04, out);
  EXPECT_TRUE(out.empty());
}

// p inside A, 5 cm under its top face (the nearest of A's faces): gap -0.05, the normal still
// the outward +z (it points from the surface toward where p must go). A vertex is found this
// deep only within the margin of the face's box (the broad phase's rule): 6 cm here.
TEST(VertexTriangleDetector, PenetratingVertexHasNegativeGapAndOutwardNormal) {
  const TwoTets t = two_tets(v3::make(0.2, 0.3, -0.05));
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  det.detect(t.s, {4}, t.x, nullptr, 0.06, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].distance, -0.05, 1e-15);
  EXPECT_NEAR(out[0].normal[2], 1.0, 1e-15);
  EXPECT_NEAR(weight_of(t.s, out[0], 0), 0.5, 1e-15);
}

// p off the edge y = 0 of A's top face: the closest point is the edge's midpoint (0.5, 0, 0) on
// both faces that share it, at distance 0.2 sqrt 2, with the normal (0, -1, 1) / sqrt 2.
TEST(VertexTriangleDetector, EdgeContactHandComputed) {
  const TwoTets t = two_tets(v3::make(0.5, -0.2, 0.2));
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  det.detect(t.s, {4}, t.x, nullptr, 0.3, out);
  ASSERT_EQ(out.size(), 1u) << "one contact per (vertex, other body): the nearest triangle";
  const VertexTriangleContact& c = out[0];
  EXPECT_NEAR(c.distance, 0.2 * std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(c.normal[0], 0.0, 1e-15);
  EXPECT_NEAR(c.normal[1], -std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(c.normal[2], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(weight_of(t.s, c, 0), 0.5, 1e-15);
  EXPECT_NEAR(weight_of(t.s, c, 2), 0.5, 1e-15);
  EXPECT_TRUE(c.region == TriangleRegion::kEdgeAB || c.region == TriangleRegion::kEdgeBC ||
              c.region == TriangleRegion::kEdgeCA);
}

// p outside A's corner (1, 0, 0) but 2 cm below the plane of its top face, which holds the
// closest point as much as the corner's other faces do: the side comes from the corner's
// angle-weighted pseudo-normal, so the gap is +|p - corner|, not negative.
TEST(VertexTriangleDetector, OutsideAConvexCornerIsOutside) {
  const Vec3 d = v3::make(0.3, -0.05, -0.02);
  const TwoTets t = two_tets(v3::add(v3::make(1, 0, 0), d));
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  det.detect(t.s, {4}, t.x, nullptr, 0.4, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].distance, norm(d), 1e-15);
  for (int k = 0; k < 3; ++k) EXPECT_NEAR(out[0].normal[k], d[k] / norm(d), 1e-15);
  EXPECT_NEAR(weight_of(t.s, out[0], 2), 1.0, 1e-15);
  EXPECT_LT(static_cast<int>(out[0].region), 3) << "a vertex region";
}

// A vertex 0.3 above A, predicted 0.02 above it: found through the prediction, with the gap at
// the positions (0.3) and the predicted one (0.02).
TEST(VertexTriangleDetector, ThePredictionCatchesAFastVertex) {
  TwoTets t = two_tets(v3::make(0.2, 0.3, 0.3));
  std::vector<Vec3> y = t.x;
  for (Index v = 4; v < 8; ++v) y[v][2] -= 0.28;
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  det.detect(t.s, {4}, t.x, nullptr, 0.05, out);
  EXPECT_TRUE(out.empty());
  det.detect(t.s, {4}, t.x, &y, 0.05, out);
  ASSERT_EQ(out.size(), 1u);
  EXPECT_NEAR(out[0].distance, 0.3, 1e-15);
  EXPECT_NEAR(out[0].predicted, 0.02, 1e-15);
}

// Two boxes 1 cm apart, their facing sides jittered: every contact pairs vertices and triangles
// of different bodies, and the output is the same after shuffling the query vertices, the
// triangles (mapped back through their vertices) and on 1 or 2 threads.
TEST(VertexTriangleDetector, OrderIsStableAndThereIsNoSelfContact) {
  std::vector<Vec3> x;
  std::vector<Index> tets;
  append_box(x, tets, v3::make(0, 0, 0), v3::make(1, 1, 0.5), 6, 6, 3);
  const Index second = append_box(x, tets, v3::make(0.05, 0.1, 0.51), v3::make(0.95, 0.9, 1.0), 5, 5, 3);
  test::Rng rng(7);
  for (Vec3& p : x) p = v3::add(p, v3::scale(0.004, rng.vec(-1, 1)));
  const TetSurfaces s = tet_surfaces(tets, static_cast<Index>(x.size()));
  ASSERT_EQ(s.bodies, 2);
  std::vector<Index> queries(x.size());
  std::iota(queries.begin(), queries.end(), Index{0});
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> ref;
  det.detect(s, queries, x, nullptr, 0.03, ref);
  ASSERT_GT(ref.size(), 20u);
  int from_top = 0;
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_NE(s.vertex_body[ref[i].vertex], s.triangle_body[ref[i].triangle]) << "no self-contact";
    from_top += ref[i].vertex >= second;
    EXPECT_LT(ref[i].distance, 0.03);
    if (i > 0) {
      EXPECT_TRUE(std::tie(ref[i - 1].vertex, ref[i - 1].triangle) < std::tie(ref[i].vertex, ref[i].triangle));
    }
  }
  EXPECT_GT(from_top, 0) << "both ways: the top's vertices against the bottom's triangles";
  EXPECT_LT(from_top, static_cast<int>(ref.size())) << "and the bottom's against the top's";
  auto same = [](const std::vector<VertexTriangleContact>& a, const std::vector<VertexTriangleContact>& b) {
    ASSERT_EQ(a.size(), b.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].vertex, b[i].vertex);
      EXPECT_EQ(a[i].triangle, b[i].triangle);
      EXPECT_EQ(a[i].distance, b[i].distance);
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(a[i].normal[k], b[i].normal[k]);
        EXPECT_EQ(a[i].bary[k], b[i].bary[k]);
      }
    }
  };
  // Shuffled and repeated query vertices.
  std::vector<Index> shuffled = queries;
  shuffled.insert(shuffled.end(), queries.begin(), queries.begin() + 10);
  std::shuffle(shuffled.begin(), shuffled.end(), rng.gen);
  std::vector<VertexTriangleContact> out;
  det.detect(s, shuffled, x, nullptr, 0.03, out);
  same(ref, out);
  // Shuffled triangles: the same (vertex, triangle vertices) pairs.
  const TetSurfaces p = test::shuffled_triangles(s, rng);
  VertexTriangleDetector fresh;
  fresh.detect(p, queries, x, nullptr, 0.03, out);
  ASSERT_EQ(out.size(), ref.size());
  for (std::size_t i = 0; i < ref.size(); ++i) {
    EXPECT_EQ(out[i].vertex, ref[i].vertex);
    EXPECT_EQ(p.triangles[out[i].triangle], s.triangles[ref[i].triangle]);
    EXPECT_EQ(out[i].distance, ref[i].distance);
  }
#if SINEW_TEST_HAVE_TBB
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    VertexTriangleDetector d;
    d.detect(s, queries, x, nullptr, 0.03, out);
    same(ref, out);
  }
#endif
  // Repeated detection reuses the same buffers: the output's capacity holds.
  const std::size_t capacity = out.capacity();
  for (int i = 0; i < 3; ++i) det.detect(s, queries, x, nullptr, 0.03, out);
  EXPECT_EQ(out.capacity(), capacity);
  same(ref, out);
}

TEST(VertexTriangleDetector, BadInputIsNamed) {
  const TwoTets t = two_tets(v3::make(0.2, 0.3, 0.05));
  VertexTriangleDetector det;
  std::vector<VertexTriangleContact> out;
  EXPECT_SINEW_ERROR(det.detect(t.s, {4}, t.x, nullptr, -1.0, out), "margin");
  EXPECT_SINEW_ERROR(det.detect(t.s, {9}, t.x, nullptr, 0.1, out), "query vertex", "out of range");
  std::vector<Vec3> y(3);
  EXPECT_SINEW_ERROR(det.detect(t.s, {4}, t.x, &y, 0.1, out), "predicted");
  std::vector<Vec3> bad = t.x;
  bad[4][0] = std::nan("");
  EXPECT_SINEW_ERROR(det.detect(t.s, {4}, bad, nullptr, 0.1, out), "non-finite", "vertex 4");
  EXPECT_SINEW_ERROR(VertexTriangleDetector("octree"), "octree");
}

}  // namespace
}  // namespace sinew::collision_vertex_triangle_contacts_test
