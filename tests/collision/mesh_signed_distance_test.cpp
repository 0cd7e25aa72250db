// MeshSignedDistance: the exact signed distance of a closed triangle mesh against the analytic
// box (the same distances, normals and closest points), signs on a coarse sphere, bad meshes.
#include "sinew/collision/mesh_signed_distance.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "collision_test_util.hpp"
#include "expect_error.hpp"
#include "sinew/collision/obstacle.hpp"

namespace sinew::collision_mesh_signed_distance_test {
namespace {

// A box mesh (faces split k x k) gives point_shape()'s answer for the box: distance, normal and
// closest point, inside and outside, wherever the closest point is unique (away from the
// box's medial surfaces, where the normal may be either face's).
TEST(MeshSignedDistance, ABoxMeshIsTheAnalyticBox) {
  const Vec3 h = v3::make(0.5, 0.3, 0.2);
  const Shape box{ShapeType::kBox, {h[0], h[1], h[2]}};
  for (int k : {1, 3}) {
    const test::Cloth m = test::box_mesh(h, k);
    MeshSignedDistance mesh;
    mesh.build(m.x, m.tri);
    test::Rng rng(40 + k);
    int inside = 0, outside = 0;
    for (int i = 0; i < 3000; ++i) {
      const Vec3 p = rng.vec(-0.9, 0.9);
      const SignedDistance a = point_shape(p, box, identity_pose()), b = mesh.query(p);
      EXPECT_NEAR(b.distance, a.distance, 1e-12) << "k " << k << " point " << i;
      // The closest point is unique unless two faces are (nearly) equally close from inside.
      double face[6];
      for (int axis = 0; axis < 3; ++axis) {
        face[2 * axis] = h[axis] - p[axis];
        face[2 * axis + 1] = h[axis] + p[axis];
      }
      std::sort(face, face + 6);
      if (a.distance < 0.0 && face[1] - face[0] < 1e-6) continue;
      EXPECT_LT(norm(v3::sub(b.normal, a.normal)), 1e-9) << "k " << k << " point " << i;
      EXPECT_LT(norm(v3::sub(b.closest, a.closest)), 1e-12) << "k " << k << " point " << i;
      (a.distance < 0.0 ? inside : outside)++;
    }
    EXPECT_GT(inside, 80);  // the box fills 4% of the sampled cube
    EXPECT_GT(outside, 1000);
    // On the surface: distance 0 and the face's normal.
    const SignedDistance on = mesh.query(v3::make(0.1, 0.05, 0.2));
    EXPECT_NEAR(on.distance, 0.0, 1e-15);
    EXPECT_LT(norm(v3::sub(on.normal, v3::make(0, 0, 1))), 1e-12);
  }
}

// obstacle_distance() of a grid obstacle is the grid's trilinear answer in the obstacle's frame,
// not the mesh's exact one: both agree over a face's interior (the distance is linear there), and
// differ beyond an edge, where the exact distance is round and the interpolant is not.
TEST(GridObstacle, DistancesComeFromTheGridAtThePose) {
  const Vec3 h = v3::make(0.5, 0.3, 0.2);
  const test::Cloth m = test::box_mesh(h, 1);
  Pose pose = identity_pose();
  pose.translation = v3::make(1.0, -2.0, 0.5);
  pose.rotation = Mat3{{0, -1, 0, 1, 0, 0, 0, 0, 1}};  // a quarter turn about z
  SdfGridOptions options;
  options.cell_size = 0.1;
  const Obstacle grid = grid_obstacle(m.x, m.tri, options, pose, 0.3);
  const Obstacle exact = mesh_obstacle(m.x, m.tri, pose, 0.3);
  ASSERT_TRUE(grid.grid && grid.mesh);  // the mesh is kept for drawing
  EXPECT_EQ(grid.friction, 0.3);
  // Above the top face's interior (local (0.1, 0.05, 0.2 + 0.03)): the same distance and normal.
  const Vec3 over = to_world(pose, v3::make(0.1, 0.05, 0.23));
  const SignedDistance a = obstacle_distance(over, grid), b = obstacle_distance(over, exact);
  EXPECT_NEAR(a.distance, 0.03, 1e-12);
  EXPECT_NEAR(b.distance, 0.03, 1e-12);
  EXPECT_LT(norm(v3::sub(a.normal, v3::make(0, 0, 1))), 1e-12);  // local +z stays +z under the turn
  EXPECT_LT(norm(v3::sub(a.closest, to_world(pose, v3::make(0.1, 0.05, 0.2)))), 1e-12);
  // Beyond the edge x = 0.5, z = 0.2 (local): the grid's value is the interpolant of its nodes.
  const Vec3 local = v3::make(0.55, 0.0, 0.25);
  const SignedDistance c = obstacle_distance(to_world(pose, local), grid);
  const SignedDistance d = obstacle_distance(to_world(pose, local), exact);
  EXPECT_NEAR(d.distance, std::sqrt(2.0) * 0.05, 1e-12);
  EXPECT_EQ(c.distance, grid.grid->query(local).distance);
  EXPECT_GT(std::abs(c.distance - d.distance), 1e-4) << "an edge's round distance is not trilinear";
  EXPECT_LT(std::abs(c.distance - d.distance), options.cell_size);
}

// A two-sided sheet (an open 2 x 2 quad of a cloth grid, z = 0, faces up): from above and below
// the distance is the height z, signed by the faces' side, the normal their +z; beyond the border,
// the distance to it, negative below. The same open mesh is refused as a closed solid.
TEST(MeshSignedDistance, ATwoSidedSheetIsSignedByItsSide) {
  const test::Cloth sheet = test::make_cloth(5, 5, 2.0, 2.0, 0.0);
  MeshSignedDistance mesh;
  EXPECT_SINEW_ERROR(mesh.build(sheet.x, sheet.tri), "must be closed");
  mesh.build(sheet.x, sheet.tri, MeshSides::kTwoSided);
  EXPECT_EQ(mesh.sides(), MeshSides::kTwoSided);
  test::Rng rng(45);
  for (int i = 0; i < 500; ++i) {
    const Vec3 p = v3::add(rng.vec(0.0, 2.0), v3::make(0, 0, -1.0));  // over or under the sheet
    const SignedDistance d = mesh.query(p);
    EXPECT_NEAR(d.distance, p[2], 1e-12) << "point " << i;
    EXPECT_LT(norm(v3::sub(d.normal, v3::make(0, 0, 1))), 1e-12) << "point " << i;
    EXPECT_LT(norm(v3::sub(d.closest, v3::make(p[0], p[1], 0.0))), 1e-12);
  }
  const SignedDistance beyond = mesh.query(v3::make(2.3, 1.0, -0.4));  // past the edge x = 2, below
  EXPECT_NEAR(beyond.distance, -0.5, 1e-12);
  EXPECT_LT(norm(v3::sub(beyond.normal, v3::make(-0.6, 0.0, 0.8))), 1e-12);
}

// An icosahedron: every point's sign is its side of the polyhedron's face planes.
TEST(MeshSignedDistance, SignsOfAConvexPolyhedronAreItsFacePlanes) {
  const double g = (1.0 + std::sqrt(5.0)) / 2.0;
  const std::vector<Vec3> x = {v3::make(-1, g, 0), v3::make(1, g, 0), v3::make(-1, -g, 0), v3::make(1, -g, 0),
                               v3::make(0, -1, g), v3::make(0, 1, g), v3::make(0, -1, -g), v3::make(0, 1, -g),
                               v3::make(g, 0, -1), v3::make(g, 0, 1), v3::make(-g, 0, -1), v3::make(-g, 0, 1)};
  const std::vector<std::array<Index, 3>> tri = {{0, 11, 5}, {0, 5, 1},  {0, 1, 7},   {0, 7, 10}, {0, 10, 11},
                                                 {1, 5, 9},  {5, 11, 4}, {11, 10, 2}, {10, 7, 6}, {7, 1, 8},
                                                 {3, 9, 4},  {3, 4, 2},  {3, 2, 6},   {3, 6, 8},  {3, 8, 9},
                                                 {4, 9, 5},  {2, 4, 11}, {6, 2, 10},  {8, 6, 7},  {9, 8, 1}};
  MeshSignedDistance mesh;
  mesh.build(x, tri);
  test::Rng rng(44);
  for (int i = 0; i < 2000; ++i) {
    const Vec3 p = rng.vec(-2.5, 2.5);
    double beyond = -HUGE_VAL;  // largest signed distance to a face plane: > 0 outside
    for (const auto& t : tri) {
      const Vec3 n = v3::normalized_or(cross(v3::sub(x[t[1]], x[t[0]]), v3::sub(x[t[2]], x[t[0]])), v3::make(0, 0, 0));
      beyond = std::max(beyond, dot(n, v3::sub(p, x[t[0]])));
    }
    if (std::fabs(beyond) < 1e-9) continue;
    const SignedDistance d = mesh.query(p);
    EXPECT_EQ(d.distance < 0.0, beyond < 0.0) << "point " << i;
    if (beyond < 0.0) {
      EXPECT_NEAR(d.distance, beyond, 1e-12) << "inside: the nearest face plane (convex)";
    }
    EXPECT_NEAR(norm(d.normal), 1.0, 1e-12);
  }
}

TEST(MeshSignedDistance, BadMeshesAreErrorsAndKeepNothing) {
  const test::Cloth m = test::box_mesh(v3::make(1, 1, 1), 1);
  MeshSignedDistance mesh;
  EXPECT_SINEW_ERROR(mesh.query(v3::make(0, 0, 0)), "build() first");
  auto open = m.tri;
  open.pop_back();
  EXPECT_SINEW_ERROR(mesh.build(m.x, open), "must be closed", "shared by 1 triangles");
  EXPECT_FALSE(mesh.built());
  auto bad = m.tri;
  bad[5][2] = 100;
  EXPECT_SINEW_ERROR(mesh.build(m.x, bad), "triangle 5", "vertex index 100");
  EXPECT_SINEW_ERROR(mesh.build(m.x, {}), "no triangles");
  auto nan = m.x;
  nan[3][1] = NAN;
  EXPECT_SINEW_ERROR(mesh.build(nan, m.tri), "point 3", "not finite");
  EXPECT_FALSE(mesh.built());
}

}  // namespace
}  // namespace sinew::collision_mesh_signed_distance_test
