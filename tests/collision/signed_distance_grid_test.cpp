#include "sinew/collision/signed_distance_grid.hpp"

#include <gtest/gtest.h>

#include "collision_test_util.hpp"
#include "expect_error.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace sinew::collision_signed_distance_grid_test {
namespace {

TEST(SignedDistanceGrid, NodesHoldTheExactSignedDistanceOfABox) {
  const Vec3 h = v3::make(0.5, 0.3, 0.2);
  const test::Cloth m = test::box_mesh(h, 3);
  SignedDistanceGrid grid;
  grid.build(m.x, m.tri, SdfGridOptions{0.05, 3});
  const SdfGridView g = grid.view();
  int inside = 0;
  for (int k = 0; k < g.dims[2]; ++k)
    for (int j = 0; j < g.dims[1]; ++j)
      for (int i = 0; i < g.dims[0]; ++i) {
        const Vec3 p = v3::make(g.origin[0] + i * g.cell, g.origin[1] + j * g.cell, g.origin[2] + k * g.cell);
        const double exact = point_box_local(p, h).distance;
        EXPECT_NEAR(g.values[i + g.dims[0] * (j + g.dims[1] * k)], exact, 1e-12);
        inside += exact < 0;
      }
  EXPECT_GT(inside, 50);
}

TEST(SignedDistanceGrid, InterpolationIsCloseAndSignsAreRight) {
  const Vec3 h = v3::make(0.5, 0.3, 0.2);
  const test::Cloth m = test::box_mesh(h, 2);
  SignedDistanceGrid grid;
  const double cell = 0.02;
  grid.build(m.x, m.tri, SdfGridOptions{cell, 3});
  test::Rng rng(61);
  for (int i = 0; i < 5000; ++i) {
    const Vec3 p = rng.vec(-0.6, 0.6);
    const SignedDistance exact = point_box_local(p, h);
    const SignedDistance s = grid.query(p);
    // Trilinear interpolation of a 1-Lipschitz function: error below a cell diagonal.
    EXPECT_NEAR(s.distance, exact.distance, std::sqrt(3.0) * cell);
    if (std::fabs(exact.distance) > 2 * cell) {
      EXPECT_EQ(s.distance < 0, exact.distance < 0);
    }
    EXPECT_NEAR(norm(s.normal), 1.0, 1e-12);
  }
  // Far outside the grid the distance still grows.
  EXPECT_GT(grid.query(v3::make(10, 0, 0)).distance, 9.0);
}

TEST(SignedDistanceGrid, BadMeshesAreErrors) {
  test::Cloth m = test::box_mesh(v3::make(1, 1, 1), 1);
  SignedDistanceGrid grid;
  EXPECT_SINEW_ERROR(grid.query(v3::make(0, 0, 0)), "build() first");
  auto open = m.tri;
  open.pop_back();
  EXPECT_SINEW_ERROR(grid.build(m.x, open), "must be closed", "shared by 1 triangles");
  auto bad = m.tri;
  bad[5][2] = 100;
  EXPECT_SINEW_ERROR(grid.build(m.x, bad), "triangle 5", "vertex index 100");
  EXPECT_SINEW_ERROR(grid.build(m.x, {}), "no triangles");
  EXPECT_SINEW_ERROR(grid.build(m.x, m.tri, SdfGridOptions{-1.0, 3}), "cell_size");
}

TEST(SignedDistanceGrid, NarrowPhaseContactsAgainstAPlacedMovingGrid) {
  const Vec3 h = v3::make(0.5, 0.5, 0.5);
  const test::Cloth m = test::box_mesh(h, 1);
  SignedDistanceGrid grid;
  grid.build(m.x, m.tri, SdfGridOptions{0.05, 3});
  // The box, lifted by 1 and spinning about z, under a cloth hovering 0.02 above its top face.
  const Pose pose{identity3(), v3::make(0, 0, 1)};
  const Motion motion{{{0, 0, 0}}, {{0, 0, 3}}};
  const test::Cloth cloth = test::make_cloth(5, 5, 0.6, 0.6, 1.52);
  std::vector<Vec3> x = cloth.x;
  for (Vec3& p : x) p = v3::sub(p, v3::make(0.3, 0.3, 0));
  ContactSet cs;
  make_narrow_phase()->point_grid_contacts(MeshInstance{0, &x, &cloth.tri}, {GridInstance{5, &grid, pose, motion}},
                                           0.03, cs);
  ASSERT_EQ(cs.size(), 25);
  for (Index i = 0; i < cs.size(); ++i) {
    const Contact c = cs.at(i);
    EXPECT_EQ(c.object_b, 5);
    EXPECT_NEAR(c.gap, 0.02, 1e-12);  // flat face: trilinear interpolation is exact
    EXPECT_NEAR(c.frame.normal[2], 1.0, 1e-12);
    EXPECT_NEAR(c.obstacle_velocity[0], -3.0 * c.point_b[1], 1e-12);
    EXPECT_NEAR(c.obstacle_velocity[1], 3.0 * c.point_b[0], 1e-12);
    EXPECT_NEAR(c.local_b[2], 0.5, 1e-12);
  }
  ContactSet none;
  EXPECT_SINEW_ERROR(make_narrow_phase()->point_grid_contacts(MeshInstance{0, &x, &cloth.tri},
                                                              {GridInstance{5, nullptr, pose, motion}}, 0.03, none),
                     "grid 0", "built SignedDistanceGrid");
}

}  // namespace
}  // namespace sinew::collision_signed_distance_grid_test
