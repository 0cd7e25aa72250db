// Mesh-mesh proximity (libs/collision/src/mesh_proximity.cpp): one contact per vertex and local
// closest feature, edge-edge contacts only between edge interiors, checked on closed-form cases
// and against a brute-force oracle on random crumpled meshes.
#include <gtest/gtest.h>

#include <cmath>

#include "collision_test_util.hpp"
#include "mesh_proximity_oracle.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace sinew::collision_mesh_proximity_test {
namespace {

const int kVT = int(ContactKind::kVertexTriangle);
const int kEE = int(ContactKind::kEdgeEdge);

// A fan of n triangles around vertex 0 at the origin, in the plane z = 0 (B), and a point
// cloud (A, no triangles) of the given points.
struct FanScene {
  test::Cloth fan, points;
  FanScene(int n, const std::vector<Vec3>& p) {
    fan.x.push_back(v3::make(0, 0, 0));
    for (int k = 0; k < n; ++k) {
      const double phi = 2 * 3.14159265358979323846 * k / n;
      fan.x.push_back(v3::make(std::cos(phi), std::sin(phi), 0));
    }
    for (int k = 0; k < n; ++k) fan.tri.push_back({0, 1 + k, 1 + (k + 1) % n});
    points.x = p;
  }
  ContactSet contacts(double margin) const {
    ContactSet cs;
    make_narrow_phase()->mesh_mesh_contacts(MeshInstance{0, &points.x, &points.tri},
                                            MeshInstance{1, &fan.x, &fan.tri, Index(points.x.size())}, margin, cs);
    return cs;
  }
};

TEST(MeshProximity, OneContactPerVertexAndClosestFeature) {
  // Above the shared vertex of six triangles: one vertex contact (not six).
  ContactSet cs = FanScene(6, {v3::make(0, 0, 0.05)}).contacts(0.1);
  ASSERT_EQ(cs.size(), 1);
  EXPECT_EQ(cs.kind[0], kVT);
  EXPECT_NEAR(cs.gap[0], 0.05, 1e-15);
  // Above the middle of the shared edge (0, 1) of two triangles: one contact (not two).
  cs = FanScene(6, {v3::make(0.5, 0, 0.05)}).contacts(0.1);
  ASSERT_EQ(cs.size(), 1);
  EXPECT_NEAR(cs.gap[0], 0.05, 1e-15);
  // Above a face near a shared edge: the face contact only; the neighbour's closest point on
  // the shared edge is shadowed by the nearer face.
  cs = FanScene(6, {v3::make(0.5, 0.02, 0.05)}).contacts(0.1);
  ASSERT_EQ(cs.size(), 1);
  EXPECT_NEAR(cs.gap[0], 0.05, 1e-15);
  // Outside a convex rim vertex, below the plane-free side: that vertex only.
  cs = FanScene(4, {v3::make(1.05, 0, 0)}).contacts(0.1);
  ASSERT_EQ(cs.size(), 1);
  EXPECT_NEAR(cs.gap[0], 0.05, 1e-15);
  // Out of the margin: nothing.
  EXPECT_EQ(FanScene(6, {v3::make(0, 0, 0.2)}).contacts(0.1).size(), 0);
}

TEST(MeshProximity, VertexVertexProximityOnce) {
  // Two triangles tip to tip: each tip's closest point on the other triangle is the other tip.
  test::Cloth a, b;
  a.x = {v3::make(0, 0, 0.05), v3::make(-1, 0.3, 0.05), v3::make(-1, -0.3, 0.05)};
  a.tri = {{0, 1, 2}};
  b.x = {v3::make(0, 0, 0), v3::make(1, 0.3, 0), v3::make(1, -0.3, 0)};
  b.tri = {{0, 1, 2}};
  ContactSet cs;
  make_narrow_phase()->mesh_mesh_contacts(MeshInstance{0, &a.x, &a.tri}, MeshInstance{1, &b.x, &b.tri, 3}, 0.1, cs);
  ASSERT_EQ(cs.size(), 1);  // from A's vertex, not again from B's
  EXPECT_EQ(cs.kind[0], kVT);
  EXPECT_EQ(cs.vertices[0], 0);
  EXPECT_EQ(cs.vertices[1], 3);
  EXPECT_NEAR(cs.gap[0], 0.05, 1e-15);
  // The same two triangles as one mesh (self-contact): once, from the lower vertex.
  test::Cloth c;
  c.x = b.x;
  c.x.insert(c.x.end(), a.x.begin(), a.x.end());
  c.tri = {{0, 1, 2}, {3, 4, 5}};
  const MeshInstance mc{0, &c.x, &c.tri};
  cs = ContactSet{};
  make_narrow_phase()->mesh_mesh_contacts(mc, mc, 0.1, cs);
  ASSERT_EQ(cs.size(), 1);
  EXPECT_EQ(cs.vertices[0], 0);
  EXPECT_EQ(cs.vertices[1], 3);
  EXPECT_EQ(test::keys_of(cs, c, c, true), test::brute_mesh(c, c, true, 0.1));
}

TEST(MeshProximity, EdgeEdgeOnlyBetweenEdgeInteriors) {
  // Two single triangles, A upright in the plane x = 0.5: edge (0, 1) of A crosses 0.05 above
  // edge (0, 1) of B, both at their interiors; no other edge pair is within the margin.
  test::Cloth a, b;
  a.x = {v3::make(0.5, -1, 0.05), v3::make(0.5, 1, 0.05), v3::make(0.5, 0, 1.0)};
  a.tri = {{0, 1, 2}};
  b.x = {v3::make(-1, 0, 0), v3::make(1, 0, 0), v3::make(0, -3, 0)};
  b.tri = {{0, 1, 2}};
  const MeshInstance ma{0, &a.x, &a.tri}, mb{1, &b.x, &b.tri, 3};
  ContactSet cs;
  make_narrow_phase()->mesh_mesh_contacts(ma, mb, 0.1, cs);
  int ee = 0;
  for (Index i = 0; i < cs.size(); ++i) {
    if (cs.kind[i] != kEE) continue;
    ++ee;
    EXPECT_NEAR(cs.gap[i], 0.05, 1e-15);
    EXPECT_EQ(std::vector<Index>(cs.vertices.begin() + 4 * i, cs.vertices.begin() + 4 * i + 4),
              (std::vector<Index>{0, 1, 3, 4}));
  }
  EXPECT_EQ(ee, 1);
  // Moved so that the closest points of the two edges sit at A's vertex 0, which is also a
  // vertex-triangle contact: the edge-edge pair is not reported again.
  for (Vec3& x : a.x) x[1] += 1.0;  // vertex 0 now at (0.5, 0, 0.05), just above B's edge
  cs = ContactSet{};
  make_narrow_phase()->mesh_mesh_contacts(ma, mb, 0.1, cs);
  ASSERT_GT(cs.size(), 0);
  for (Index i = 0; i < cs.size(); ++i) {
    EXPECT_EQ(cs.kind[i], kVT) << "contact " << i;
  }
}

// Random crumpled patches: large out-of-plane noise puts many vertices in edge and vertex
// regions, where the duplicates would be.
void crumple(test::Rng& rng, test::Cloth& c, double amplitude) {
  for (Vec3& x : c.x) x = v3::add(x, rng.vec(-amplitude, amplitude));
}

TEST(MeshProximity, MatchesTheBruteForceOracleOnRandomScenes) {
  test::Rng rng(71);
  int vertex_features = 0, edge_features = 0, shadowed = 0;
  for (int scene = 0; scene < 8; ++scene) {
    test::Cloth a = test::make_cloth(12, 10, 1.0, 0.8, 0.0);
    test::Cloth b = test::make_cloth(10, 11, 0.8, 0.9, 0.0);
    crumple(rng, a, 0.03);
    crumple(rng, b, 0.03);
    const Pose pose = rng.pose(0.0);
    for (Vec3& x : b.x) x = v3::add(v3::scale(0.2, v3::sub(x, v3::make(0.4, 0.45, 0))), v3::make(0.5, 0.4, 0.04));
    if (scene % 2) {
      for (Vec3& x : b.x)
        x = v3::add(v3::mul(pose.rotation, v3::sub(x, v3::make(0.5, 0.4, 0))), v3::make(0.5, 0.4, 0.03));
    }
    const double margin = 0.06;
    const MeshInstance ma{0, &a.x, &a.tri}, mb{1, &b.x, &b.tri, Index(a.x.size())};
    for (const char* broad : {"bvh", "hash"}) {
      ContactSet cs;
      make_narrow_phase("table", NarrowPhaseOptions{broad, {}})->mesh_mesh_contacts(ma, mb, margin, cs);
      const auto expected = test::brute_mesh(a, b, false, margin);
      EXPECT_EQ(test::keys_of(cs, a, b, false), expected) << "scene " << scene << " " << broad;
      test::expect_closest_features_covered(cs, a, b, false, margin);
      for (const auto& k : expected) {
        vertex_features += std::get<0>(k) == kVT && std::get<1>(k) == 0;
        edge_features += std::get<0>(k) == kVT && std::get<1>(k) == 1;
      }
    }
    // Self-contact of the crumpled patch folded over itself.
    test::Cloth c = test::make_cloth(14, 6, 1.0, 0.3, 0.0);
    crumple(rng, c, 0.01);
    for (Vec3& x : c.x) {
      if (x[0] > 0.5) x = v3::make(1.0 - x[0], x[1], 0.03 + x[2]);
    }
    const MeshInstance mc{2, &c.x, &c.tri};
    ContactSet cs;
    make_narrow_phase()->mesh_mesh_contacts(mc, mc, margin, cs);
    const auto expected = test::brute_mesh(c, c, true, margin);
    EXPECT_GT(expected.size(), 20u);
    EXPECT_EQ(test::keys_of(cs, c, c, true), expected) << "self scene " << scene;
    test::expect_closest_features_covered(cs, c, c, true, margin);
    // Vertex-triangle candidates within the margin outnumber the contacts: duplicates removed.
    int within = 0;
    for (Index v = 0; v < Index(c.x.size()); ++v)
      for (const auto& t : c.tri) {
        if (t[0] == v || t[1] == v || t[2] == v) continue;
        within += closest_point_triangle(c.x[v], c.x[t[0]], c.x[t[1]], c.x[t[2]]).distance_squared <= margin * margin;
      }
    int vt = 0;
    for (int k : cs.kind) vt += k == kVT;
    shadowed += within - vt;
  }
  // The scenes reach every branch of the rule.
  EXPECT_GT(vertex_features, 5);
  EXPECT_GT(edge_features, 20);
  EXPECT_GT(shadowed, 100);
}

}  // namespace
}  // namespace sinew::collision_mesh_proximity_test
