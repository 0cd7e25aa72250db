// shape_obstacle_contacts(): a rigid shape against a mesh obstacle. A box resting on a box mesh
// has the analytic box-box contacts; a mesh's corner pressing into a box and a blade's edge across
// a capsule give the contacts of those features; a sheet's side memory (SheetSides) keeps a point
// on the side it touched from; the mesh's edges and their face angles.
#include "sinew/collision/shape_obstacle_contacts.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <vector>

#include "collision_test_util.hpp"
#include "sinew/collision/box_pairs.hpp"
#include "sinew/core/quaternion.hpp"

namespace sinew::collision_shape_obstacle_contacts_test {
namespace {

constexpr double kMargin = 0.01;

std::vector<ShapePairContact> contacts(const Shape& a, const Pose& pa, const Obstacle& b,
                                       double sharp_edge_angle = 0.1) {
  ShapeObstacleOptions options;
  options.margin = kMargin;
  options.sharp_edge_angle = sharp_edge_angle;
  ShapeObstacleWorkspace work;
  std::vector<ShapePairContact> out;
  shape_obstacle_contacts(a, pa, b, options, work, out);
  return out;
}

// The pose at @p x turned by @p angle about @p axis.
Pose at(const Vec3& x, const Vec3& axis, double angle) {
  return Pose{rotation_matrix(quat_from_axis_angle(axis, angle)), x};
}

// A box lying on a box mesh's top face, turned and shifted, 3 mm above it or 1 mm into it: the
// contacts of collide_box_box() against the analytic box, in the same order.
TEST(ShapeObstacleContacts, ABoxOnABoxMeshHasTheBoxBoxContacts) {
  const Vec3 h = v3::make(0.5, 0.4, 0.1);
  const test::Cloth m = test::box_mesh(h, 2);
  const Pose pb = at(v3::make(0.02, -0.01, -0.1), v3::make(0, 0, 1), 0.2);
  const Obstacle mesh = mesh_obstacle(m.x, m.tri, pb);
  const Shape a{ShapeType::kBox, {0.05, 0.04, 0.03}};
  const Shape b{ShapeType::kBox, {h[0], h[1], h[2]}};
  for (double lift : {0.003, -0.001}) {
    const Pose pa = at(v3::make(0.1, 0.05, 0.03 + lift), v3::make(0, 0, 1), 0.7);
    ShapePairContact expected[kMaxPairContacts];
    const int n = collide_box_box(a, pa, b, pb, kMargin, expected);
    const std::vector<ShapePairContact> got = contacts(a, pa, mesh);
    ASSERT_EQ(n, 4);
    ASSERT_EQ(got.size(), 4u);
    for (int k = 0; k < n; ++k) {
      EXPECT_LT(norm(v3::sub(got[k].point_a, expected[k].point_a)), 1e-14);
      EXPECT_LT(norm(v3::sub(got[k].point_b, expected[k].point_b)), 1e-14);
      // (p - closest) / gap: round-off over a gap of millimetres
      EXPECT_LT(norm(v3::sub(got[k].normal, expected[k].normal)), 1e-12);
      EXPECT_NEAR(got[k].gap, lift, 1e-14);
    }
  }
}

// A pyramid's apex 2 mm into a box's bottom face from below (no corner of the box near the
// pyramid's faces): one contact, the apex against the face, normal from the pyramid up into the box.
TEST(ShapeObstacleContacts, AMeshCornerPressesIntoABoxFace) {
  const std::vector<Vec3> x = {v3::make(-0.3, -0.3, -0.3), v3::make(0.3, -0.3, -0.3), v3::make(0.3, 0.3, -0.3),
                               v3::make(-0.3, 0.3, -0.3), v3::make(0, 0, 0)};
  const std::vector<std::array<Index, 3>> tri = {{0, 2, 1}, {0, 3, 2}, {0, 1, 4}, {1, 2, 4}, {2, 3, 4}, {3, 0, 4}};
  const Obstacle pyramid = mesh_obstacle(x, tri, identity_pose());
  const Shape a{ShapeType::kBox, {0.2, 0.2, 0.05}};
  const std::vector<ShapePairContact> got =
      contacts(a, at(v3::make(0.01, 0.02, 0.048), v3::make(0, 0, 1), 0.3), pyramid);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0].gap, -0.002, 1e-14);
  EXPECT_LT(norm(v3::sub(got[0].point_b, v3::make(0, 0, 0))), 1e-15);
  EXPECT_LT(norm(v3::sub(got[0].normal, v3::make(0, 0, 1))), 1e-14);
  EXPECT_LT(norm(v3::sub(got[0].point_a, v3::make(0, 0, -0.002))), 1e-14);
}

// A blade (a sheet's rim along x at z = 0) under a capsule lying across it along y, 3 mm above:
// the edge's point under the axis, gap 3 mm, normal +z; with no edge sharp, nothing (the
// capsule's ends are 0.1 m beside the blade).
TEST(ShapeObstacleContacts, ABladeEdgeHoldsACapsuleAcrossIt) {
  const std::vector<Vec3> x = {v3::make(-0.5, 0, -0.2), v3::make(0.5, 0, -0.2), v3::make(0.5, 0, 0),
                               v3::make(-0.5, 0, 0)};
  const Obstacle blade = mesh_obstacle(x, {{0, 1, 2}, {0, 2, 3}}, identity_pose(), 0.0, MeshSides::kTwoSided);
  const Shape capsule{ShapeType::kCapsule, {0.02, 0.1, 0}};
  const Pose pa = at(v3::make(0.07, 0, 0.023), v3::make(1, 0, 0), 1.5707963267948966);
  const std::vector<ShapePairContact> got = contacts(capsule, pa, blade);
  ASSERT_EQ(got.size(), 1u);
  EXPECT_NEAR(got[0].gap, 0.003, 1e-9);
  EXPECT_LT(norm(v3::sub(got[0].point_b, v3::make(0.07, 0, 0))), 1e-9);
  // The golden-section search places the point within ~1e-10 m where the distance is flat to
  // second order, so the normal from it to the axis is good to ~1e-8.
  EXPECT_LT(norm(v3::sub(got[0].normal, v3::make(0, 0, 1))), 1e-7);
  EXPECT_TRUE(contacts(capsule, pa, blade, 3.14159265358979323846).empty());
}

// The edges of a box mesh: 18 (12 box edges, 6 face diagonals), cosines 0 and 1; a sheet's rim -1.
TEST(ShapeObstacleContacts, MeshEdgesKnowTheirFaceAngles) {
  const test::Cloth m = test::box_mesh(v3::make(0.5, 0.4, 0.1), 1);
  MeshSignedDistance box;
  box.build(m.x, m.tri);
  ASSERT_EQ(box.edges().size(), 18u);
  int sharp = 0;
  for (double c : box.edge_cosines()) {
    EXPECT_TRUE(std::abs(c) < 1e-12 || std::abs(c - 1.0) < 1e-12) << c;
    sharp += std::abs(c) < 1e-12 ? 1 : 0;
  }
  EXPECT_EQ(sharp, 12);
  MeshSignedDistance sheet;
  sheet.build({v3::make(0, 0, 0), v3::make(1, 0, 0), v3::make(1, 1, 0), v3::make(0, 1, 0)}, {{0, 1, 2}, {0, 2, 3}},
              MeshSides::kTwoSided);
  ASSERT_EQ(sheet.edges().size(), 5u);
  for (std::size_t e = 0; e < 5; ++e) {
    const bool diagonal = sheet.edges()[e] == std::array<Index, 2>{0, 2};
    EXPECT_EQ(sheet.edge_cosines()[e], diagonal ? 1.0 : -1.0);
  }
}

// A point that touched a sheet from the front keeps the front after sinking a little behind it;
// one that did not touch it in the last pass takes the side it is on.
TEST(SheetSides, APointKeepsTheSideItTouchedFrom) {
  SheetSides sides;
  const SheetSides::Key p{{0, 0, 7, 0}}, q{{0, 0, 8, 0}};
  const SignedDistance behind{-1e-4, v3::make(0, 0, 1), v3::make(0, 0, 0)};
  sides.begin_pass();
  const SignedDistance first = sides.orient(p, SignedDistance{2e-3, v3::make(0, 0, 1), v3::make(0, 0, 0)});
  EXPECT_EQ(first.distance, 2e-3);
  sides.record(p, first.normal);
  sides.begin_pass();
  const SignedDistance kept = sides.orient(p, behind), other = sides.orient(q, behind);
  EXPECT_EQ(kept.distance, -1e-4);  // still in front: a penetration, pushed back
  EXPECT_EQ(kept.normal[2], 1.0);
  EXPECT_EQ(other.distance, 1e-4);  // behind: the back is its side
  EXPECT_EQ(other.normal[2], -1.0);
  sides.begin_pass();  // p not recorded in the last pass: forgotten
  EXPECT_EQ(sides.orient(p, behind).distance, 1e-4);
}

}  // namespace
}  // namespace sinew::collision_shape_obstacle_contacts_test
