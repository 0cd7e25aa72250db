// Self-contact of a cloth (cloth_self_contacts.hpp): hand-computed vertex-triangle and edge-edge
// contacts (distance, normal, weights) on either side of a sheet, the side kept from the last
// step's contact, the prediction, the exclusion of a vertex's own triangles, edges and neighbours
// and of edges sharing a vertex, one contact per mesh feature, an output that does not depend on
// the order of the query vertices or the thread count, steady buffers, and bad input named.
#include "sinew/collision/cloth_self_contacts.hpp"

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

namespace sinew::collision_cloth_self_contacts_test {
namespace {

using Tris = std::vector<std::array<Index, 3>>;

// Triangle 0 = (0, 1, 2) in the plane z = 0, normal +z; triangle 1 = (3, 4, 5) with vertex 3 at
// @p p and its other two vertices far above, so that only vertex 3 comes near triangle 0.
std::vector<Vec3> vertex_over_triangle(const Vec3& p) {
  return {v3::make(0, 0, 0), v3::make(1, 0, 0), v3::make(0, 1, 0), p, v3::make(2, 2, 1.5), v3::make(3, 2, 1.5)};
}
const Tris kTwo = {{0, 1, 2}, {3, 4, 5}};

TEST(ClothSelfContactDetector, VertexAboveAndBelowATriangleHandComputed) {
  ClothSelfContactDetector det(kTwo, 6);
  std::vector<ClothVertexTriangleContact> vt;
  std::vector<ClothEdgeEdgeContact> ee;
  for (double z : {0.05, -0.05}) {
    const std::vector<Vec3> x = vertex_over_triangle(v3::make(0.2, 0.3, z));
    det.detect(x, nullptr, 0.1, nullptr, nullptr, vt, ee);
    ASSERT_EQ(vt.size(), 1u) << "z = " << z;
    EXPECT_TRUE(ee.empty());
    const ClothVertexTriangleContact& c = vt[0];
    EXPECT_EQ(c.vertex, 3);
    EXPECT_EQ(c.triangle, 0);
    EXPECT_EQ(c.region, TriangleRegion::kFace);
    EXPECT_NEAR(c.distance, 0.05, 1e-15) << "the side it is on: a positive distance either way";
    EXPECT_NEAR(c.normal[2], z > 0 ? 1.0 : -1.0, 1e-15) << "from the triangle toward the vertex";
    EXPECT_NEAR(c.bary[0], 0.5, 1e-15);
    EXPECT_NEAR(c.bary[1], 0.2, 1e-15);
    EXPECT_NEAR(c.bary[2], 0.3, 1e-15);
    EXPECT_NEAR(c.closest[0], 0.2, 1e-15);
    EXPECT_NEAR(c.closest[1], 0.3, 1e-15);
    EXPECT_EQ(c.predicted, c.distance);
  }
  // Beyond the margin: none.
  det.detect(vertex_over_triangle(v3::make(0.2, 0.3, 0.11)), nullptr, 0.1, nullptr, nullptr, vt, ee);
  EXPECT_TRUE(vt.empty());
  // Off the face, beside edge (1, 2): distance to the edge, normal from its closest point.
  det.detect(vertex_over_triangle(v3::make(0.55, 0.55, 0.0)), nullptr, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_EQ(vt[0].region, TriangleRegion::kEdgeBC);
  EXPECT_NEAR(vt[0].distance, 0.05 * std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(vt[0].normal[0], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(vt[0].normal[1], std::sqrt(0.5), 1e-15);
  EXPECT_NEAR(vt[0].bary[1], 0.5, 1e-15);
}

TEST(ClothSelfContactDetector, TheLastStepsSideIsKeptAndThePredictionCounts) {
  ClothSelfContactDetector det(kTwo, 6);
  std::vector<ClothVertexTriangleContact> vt, previous;
  std::vector<ClothEdgeEdgeContact> ee;
  // The last step's contact had the vertex above (normal +z); an inexact solve left it 1 cm below.
  ClothVertexTriangleContact above;
  above.vertex = 3;
  above.triangle = 0;
  above.normal = v3::make(0, 0, 1);
  previous.push_back(above);
  const std::vector<Vec3> x = vertex_over_triangle(v3::make(0.2, 0.3, -0.01));
  det.detect(x, nullptr, 0.1, &previous, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_NEAR(vt[0].distance, -0.01, 1e-15) << "behind the kept side: negative, so it is pushed back up";
  EXPECT_EQ(vt[0].normal[2], 1.0);
  // Without the last step's contact it takes the side it is on.
  det.detect(x, nullptr, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_NEAR(vt[0].distance, 0.01, 1e-15);
  EXPECT_EQ(vt[0].normal[2], -1.0);
  // A fast vertex: far above at the positions, through the triangle at the prediction.
  const std::vector<Vec3> far = vertex_over_triangle(v3::make(0.2, 0.3, 0.5));
  std::vector<Vec3> y = far;
  y[3] = v3::make(0.2, 0.3, -0.2);
  det.detect(far, nullptr, 0.1, nullptr, nullptr, vt, ee);
  EXPECT_TRUE(vt.empty());
  det.detect(far, &y, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_NEAR(vt[0].distance, 0.5, 1e-15);
  EXPECT_NEAR(vt[0].predicted, -0.2, 1e-15) << "the side of the start, so the prediction is behind it";
}

// Edge (0, 1) along x at z = 0 and edge (3, 4) along y at z = h, crossing over the origin; the
// triangles' third vertices lean away so that only the edges come near each other.
std::vector<Vec3> crossing_edges(double h) {
  return {v3::make(-1, 0, 0),   v3::make(1, 0, 0),    v3::make(0, -1, -1),
          v3::make(0.1, -1, h), v3::make(-0.1, 1, h), v3::make(0.6, 0, 1)};
}

TEST(ClothSelfContactDetector, CrossingEdgesHandComputedWithTheirSideKept) {
  ClothSelfContactDetector det(kTwo, 6);
  ASSERT_EQ(det.edges().size(), 6u);
  const auto& edges = det.edges();
  std::vector<ClothVertexTriangleContact> vt;
  std::vector<ClothEdgeEdgeContact> ee;
  det.detect(crossing_edges(0.05), nullptr, 0.1, nullptr, nullptr, vt, ee);
  EXPECT_TRUE(vt.empty());
  ASSERT_EQ(ee.size(), 1u);
  const ClothEdgeEdgeContact& c = ee[0];
  EXPECT_EQ(edges[c.edge_a], (std::array<Index, 2>{0, 1}));
  EXPECT_EQ(edges[c.edge_b], (std::array<Index, 2>{3, 4}));
  EXPECT_NEAR(c.s, 0.5, 1e-14);
  EXPECT_NEAR(c.t, 0.5, 1e-14);
  EXPECT_NEAR(c.distance, 0.05, 1e-14);
  EXPECT_NEAR(c.normal[2], -1.0, 1e-14) << "from b (above) toward a (below)";
  // a's side kept while b dips 1 cm through it.
  std::vector<ClothEdgeEdgeContact> previous = ee;
  det.detect(crossing_edges(-0.01), nullptr, 0.1, nullptr, &previous, vt, ee);
  ASSERT_EQ(ee.size(), 1u);
  EXPECT_NEAR(ee[0].distance, -0.01, 1e-14);
  EXPECT_NEAR(ee[0].normal[2], -1.0, 1e-14);
  det.detect(crossing_edges(-0.01), nullptr, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(ee.size(), 1u);
  EXPECT_NEAR(ee[0].distance, 0.01, 1e-14) << "without it, the side it is on";
  EXPECT_NEAR(ee[0].normal[2], 1.0, 1e-14);
}

TEST(ClothSelfContactDetector, AdjacentPrimitivesAreExcludedAndEachFeatureIsOneContact) {
  // A flat 4 x 4 grid of unit cells and, far above it, a separate triangle (p, q, r). With a margin
  // of 1.05 each grid vertex is within it of triangles that do not hold it (0.707 from the diagonal
  // across its own triangle, 1 from a neighbour), but those features are its own triangles' edges
  // and its neighbours: no contact. Nor between edges: coplanar edges meet at ends only.
  const int n = 4;
  std::vector<Vec3> x;
  Tris tris;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) x.push_back(v3::make(i, j, 0));
  auto id = [&](int i, int j) { return static_cast<Index>(i + (n + 1) * j); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      tris.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      tris.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  const Index p = static_cast<Index>(x.size());
  x.insert(x.end(), {v3::make(2.5, 2.5, 10), v3::make(2.5, 2.5, 12), v3::make(3.5, 2.5, 12)});
  tris.push_back({p, p + 1, p + 2});
  ClothSelfContactDetector det(tris, static_cast<Index>(x.size()));
  std::vector<ClothVertexTriangleContact> vt;
  std::vector<ClothEdgeEdgeContact> ee;
  det.detect(x, nullptr, 1.05, nullptr, nullptr, vt, ee);
  EXPECT_TRUE(vt.empty()) << vt.size() << " contacts in a flat sheet, the first of vertex " << vt[0].vertex;
  EXPECT_TRUE(ee.empty()) << ee.size() << " edge-edge contacts in a flat sheet";
  EXPECT_GT(det.candidates(), 100u) << "the broad phase had pairs to reject";
  // p just above the middle of the diagonal (2, 2)-(3, 3), shared by two triangles: one contact
  // (the edge's owner's), not one per triangle of the edge.
  x[p] = v3::make(2.5, 2.5, 0.05);
  det.detect(x, nullptr, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_EQ(vt[0].vertex, p);
  EXPECT_GE(static_cast<int>(vt[0].region), 3);
  EXPECT_LT(static_cast<int>(vt[0].region), 6);
  EXPECT_NEAR(vt[0].distance, 0.05, 1e-15);
  EXPECT_NEAR(vt[0].normal[2], 1.0, 1e-15);
  // Above grid vertex (2, 2), shared by six triangles: one contact, vertex on vertex (p on the
  // vertex's owner and (2, 2) on p's triangle are the same pair: the smaller vertex's is kept).
  x[p] = v3::make(2.0, 2.0, 0.05);
  det.detect(x, nullptr, 0.1, nullptr, nullptr, vt, ee);
  ASSERT_EQ(vt.size(), 1u);
  EXPECT_EQ(vt[0].vertex, id(2, 2));
  EXPECT_EQ(vt[0].triangle, static_cast<Index>(tris.size() - 1));
  EXPECT_EQ(vt[0].region, TriangleRegion::kVertexA);
  EXPECT_NEAR(vt[0].normal[2], -1.0, 1e-15) << "from p down to (2, 2)";
  EXPECT_NEAR(vt[0].distance, 0.05, 1e-15);
}

// A 12 x 12 sheet over [0, 1]^2 folded at x = 0.5: the right half laid over the left half 3 cm
// above it, then jittered.
std::vector<Vec3> folded_sheet(Tris& tris, test::Rng& rng) {
  const int n = 12;
  std::vector<Vec3> x;
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const double u = static_cast<double>(i) / n, w = static_cast<double>(j) / n;
      x.push_back(u <= 0.5 ? v3::make(u, w, 0.0) : v3::make(1.0 - u, w, 0.03));
    }
  auto id = [&](int i, int j) { return static_cast<Index>(i + (n + 1) * j); };
  tris.clear();
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      tris.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      tris.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  for (Vec3& p : x) p = v3::add(p, v3::scale(0.004, rng.vec(-1, 1)));
  return x;
}

TEST(ClothSelfContactDetector, OrderIsStableWhateverTheQueriesAndThreads) {
  test::Rng rng(11);
  Tris tris;
  const std::vector<Vec3> x = folded_sheet(tris, rng);
  const Index nv = static_cast<Index>(x.size());
  ClothSelfContactDetector det(tris, nv);
  std::vector<ClothVertexTriangleContact> vt;
  std::vector<ClothEdgeEdgeContact> ee;
  det.detect(x, nullptr, 0.05, nullptr, nullptr, vt, ee);
  ASSERT_GT(vt.size(), 50u) << "each layer's vertices against the other's triangles";
  ASSERT_GT(ee.size(), 10u);
  const auto& edges = det.edges();
  int up = 0;
  for (std::size_t i = 0; i < vt.size(); ++i) {
    for (Index u : tris[vt[i].triangle]) EXPECT_NE(u, vt[i].vertex);
    EXPECT_LT(vt[i].distance, 0.05);
    EXPECT_GT(vt[i].distance, 0.0);
    up += vt[i].normal[2] > 0.9;
    if (i > 0) {
      EXPECT_TRUE(std::tie(vt[i - 1].vertex, vt[i - 1].triangle) < std::tie(vt[i].vertex, vt[i].triangle));
    }
  }
  EXPECT_GT(up, 0) << "the top layer's vertices over the bottom";
  EXPECT_LT(up, static_cast<int>(vt.size())) << "and the bottom's under the top";
  for (std::size_t i = 0; i < ee.size(); ++i) {
    const auto& a = edges[ee[i].edge_a];
    const auto& b = edges[ee[i].edge_b];
    EXPECT_TRUE(a[0] != b[0] && a[0] != b[1] && a[1] != b[0] && a[1] != b[1]) << "no shared vertex";
    EXPECT_LT(ee[i].edge_a, ee[i].edge_b);
    if (i > 0) {
      EXPECT_TRUE(std::tie(ee[i - 1].edge_a, ee[i - 1].edge_b) < std::tie(ee[i].edge_a, ee[i].edge_b));
    }
  }
  auto same = [&](const std::vector<ClothVertexTriangleContact>& a, const std::vector<ClothEdgeEdgeContact>& b) {
    ASSERT_EQ(a.size(), vt.size());
    ASSERT_EQ(b.size(), ee.size());
    for (std::size_t i = 0; i < a.size(); ++i) {
      EXPECT_EQ(a[i].vertex, vt[i].vertex);
      EXPECT_EQ(a[i].triangle, vt[i].triangle);
      EXPECT_EQ(a[i].distance, vt[i].distance);
      for (int k = 0; k < 3; ++k) {
        EXPECT_EQ(a[i].normal[k], vt[i].normal[k]);
        EXPECT_EQ(a[i].bary[k], vt[i].bary[k]);
      }
    }
    for (std::size_t i = 0; i < b.size(); ++i) {
      EXPECT_EQ(b[i].edge_a, ee[i].edge_a);
      EXPECT_EQ(b[i].edge_b, ee[i].edge_b);
      EXPECT_EQ(b[i].distance, ee[i].distance);
      EXPECT_EQ(b[i].s, ee[i].s);
    }
  };
  // Shuffled and repeated query vertices.
  std::vector<Index> queries(static_cast<std::size_t>(nv));
  std::iota(queries.begin(), queries.end(), Index{0});
  queries.insert(queries.end(), queries.begin(), queries.begin() + 10);
  std::shuffle(queries.begin(), queries.end(), rng.gen);
  ClothSelfContactDetector shuffled(tris, nv, queries, "hash");
  std::vector<ClothVertexTriangleContact> vt2;
  std::vector<ClothEdgeEdgeContact> ee2;
  shuffled.detect(x, nullptr, 0.05, nullptr, nullptr, vt2, ee2);
  same(vt2, ee2);
#if SINEW_TEST_HAVE_TBB
  for (int threads : {1, 2}) {
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, threads);
    ClothSelfContactDetector d(tris, nv);
    d.detect(x, nullptr, 0.05, nullptr, nullptr, vt2, ee2);
    same(vt2, ee2);
  }
#endif
  // Repeated detection reuses its buffers: the outputs' capacities hold.
  const std::size_t cap_vt = vt2.capacity(), cap_ee = ee2.capacity();
  for (int i = 0; i < 3; ++i) det.detect(x, nullptr, 0.05, &vt, &ee, vt2, ee2);
  EXPECT_EQ(vt2.capacity(), cap_vt);
  EXPECT_EQ(ee2.capacity(), cap_ee);
  same(vt2, ee2);
}

TEST(ClothSelfContactDetector, BadInputIsNamed) {
  EXPECT_SINEW_ERROR(ClothSelfContactDetector(Tris{{0, 1, 7}}, 6), "triangle 0", "vertex 7", "out of range");
  EXPECT_SINEW_ERROR(ClothSelfContactDetector(Tris{{0, 1, 2}, {3, 3, 4}}, 6), "triangle 1", "repeats");
  EXPECT_SINEW_ERROR(ClothSelfContactDetector(kTwo, 6, {0, 9}), "vertices[1] = 9");
  EXPECT_SINEW_ERROR(ClothSelfContactDetector(kTwo, 6, {}, "octree"), "octree");
  ClothSelfContactDetector det(kTwo, 6);
  std::vector<ClothVertexTriangleContact> vt;
  std::vector<ClothEdgeEdgeContact> ee;
  std::vector<Vec3> x = vertex_over_triangle(v3::make(0.2, 0.3, 0.05));
  std::vector<Vec3> short_x(x.begin(), x.end() - 1);
  EXPECT_SINEW_ERROR(det.detect(short_x, nullptr, 0.1, nullptr, nullptr, vt, ee), "x must have", "(6)");
  EXPECT_SINEW_ERROR(det.detect(x, &short_x, 0.1, nullptr, nullptr, vt, ee), "predicted");
  EXPECT_SINEW_ERROR(det.detect(x, nullptr, -0.1, nullptr, nullptr, vt, ee), "margin");
  std::vector<Vec3> nan = x;
  nan[4][1] = std::nan("");
  EXPECT_SINEW_ERROR(det.detect(nan, nullptr, 0.1, nullptr, nullptr, vt, ee), "vertex 4", "non-finite");
  std::vector<ClothVertexTriangleContact> bad_vt(1);
  bad_vt[0].vertex = 3;
  bad_vt[0].triangle = 2;
  EXPECT_SINEW_ERROR(det.detect(x, nullptr, 0.1, &bad_vt, nullptr, vt, ee), "triangle 2");
  std::vector<ClothEdgeEdgeContact> bad_ee(1);
  bad_ee[0].edge_a = 0;
  bad_ee[0].edge_b = 6;
  EXPECT_SINEW_ERROR(det.detect(x, nullptr, 0.1, nullptr, &bad_ee, vt, ee), "edges 0 and 6");
}

}  // namespace
}  // namespace sinew::collision_cloth_self_contacts_test
