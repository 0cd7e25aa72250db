// Contact records (ConstraintRows::contacts): one per contact block, in block order, whose witness
// points lie a gap apart along the normal, whose frame is the frame of the block's rows, and whose
// sides are the components the rows move: where both sides are known (an obstacle, a rigid body,
// a particle), the block's rows applied to the velocities are the frame's components of the
// relative velocity of the two witness points. Rigid boxes on the floor and on each other (their
// points at the box's corners), particles on the floor and on a collider, a point on a particle
// triangle, a sphere on that triangle's face, rigid mesh edges crossing, and a contact constraint
// on mapped points after another constraint's blocks.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <memory>
#include <vector>

#include "joint_test_support.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/constraints/mapped_constraint.hpp"
#include "sinew/core/error.hpp"

namespace sinew::constraints::contact_record_test {
namespace {

using Kind = ContactSide::Kind;
using testing::dense_jacobian;
using testing::rows_at;

constexpr double kPi = 3.14159265358979323846;

SpatialInertia box_inertia(double m, const Vec3& h) {
  const double a = 4 * h[0] * h[0], b = 4 * h[1] * h[1], c = 4 * h[2] * h[2];
  return make_spatial_inertia(m, Vec3{{0, 0, 0}},
                              Mat3{{m * (b + c) / 12, 0, 0, 0, m * (a + c) / 12, 0, 0, 0, m * (a + b) / 12}});
}

Shape box(const Vec3& h) { return Shape{ShapeType::kBox, {h[0], h[1], h[2]}}; }

// Velocity of the material point of @p side at world point @p p (0 for an obstacle); false when
// the side is a combination of points.
bool side_velocity(const model::SystemState& s, const ContactSide& side, const Vec3& p, Vec3& v) {
  switch (side.kind) {
    case Kind::kObstacle:
      v = Vec3{{0, 0, 0}};
      return true;
    case Kind::kBody: {
      const model::BodyState& b = s.bodies[static_cast<std::size_t>(side.index)];
      v = b.v + cross(b.w, p - b.x);
      return true;
    }
    case Kind::kParticle:
      v = s.v[static_cast<std::size_t>(side.index)];
      return true;
    case Kind::kPoints:
      return false;
  }
  return false;
}

// The checks of the file comment on @p rows (evaluated at @p q, @p u); returns how many blocks
// had both sides known (their rows checked against the witness points' velocities).
int expect_records_match_rows(const model::MechanicalSystem& sys, const ConstraintRows& rows, const Eigen::VectorXd& q,
                              const Eigen::VectorXd& u) {
  model::SystemState s;
  sys.evaluate_state(0.0, q, u, s);
  const std::vector<Index> offsets = block_offsets(rows.blocks);
  const Eigen::VectorXd Ju = dense_jacobian(rows, sys.num_velocities()) * u;
  std::size_t contact_blocks = 0;
  for (const ConstraintBlock& b : rows.blocks)
    contact_blocks += b.kind == BlockKind::kContact || b.kind == BlockKind::kContactBoxFriction;
  EXPECT_EQ(rows.contacts.size(), contact_blocks) << "one record per contact block";
  int checked = 0;
  for (std::size_t k = 0; k < rows.contacts.size(); ++k) {
    const ContactRecord& c = rows.contacts[k];
    if (k > 0) {
      EXPECT_LT(rows.contacts[k - 1].block, c.block) << "in block order";
    }
    const Index row = offsets[static_cast<std::size_t>(c.block)];
    const Vec3 d = c.point_a - c.point_b;
    const Vec3* dirs[3] = {&c.frame.normal, &c.frame.tangent1, &c.frame.tangent2};
    EXPECT_NEAR(dot(c.frame.normal, d), rows.phi[static_cast<std::size_t>(row)], 1e-12) << "the gap, contact " << k;
    EXPECT_NEAR(norm(cross(c.frame.normal, d)), 0.0, 1e-12) << "points on the normal line, contact " << k;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) EXPECT_NEAR(dot(*dirs[i], *dirs[j]), i == j ? 1.0 : 0.0, 1e-14) << k;
    Vec3 va, vb;
    if (!side_velocity(s, c.a, c.point_a, va) || !side_velocity(s, c.b, c.point_b, vb)) continue;
    const Vec3 relative = va - vb;
    EXPECT_GT(norm(relative), 1e-3) << "not trivially at rest, contact " << k;
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(Ju[row + i], dot(*dirs[i], relative), 1e-12) << "row " << i << " of " << k;
    ++checked;
  }
  return checked;
}

bool is(const ContactSide& side, Kind kind, Index index) { return side.kind == kind && side.index == index; }

TEST(ContactRecord, RigidBoxesRecordTheirCornersFramesAndBodies) {
  // Box 0 (half 0.1 x 0.1 x 0.05) 1 mm into the floor z = 0, turned 0.3 rad about z; box 1 (half
  // 0.05) 2 mm above it, turned 0.5 rad; both moving. A far sphere is obstacle 0, the floor 1.
  model::MechanicalSystem sys;
  const Vec3 h0{{0.1, 0.1, 0.05}}, h1{{0.05, 0.05, 0.05}};
  const Quaternion r0 = quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.3);
  sys.add_body(box_inertia(1.0, h0), Vec3{{0.2, -0.1, 0.049}}, r0, "lower", Vec3{{0.3, -0.2, 0.1}},
               Vec3{{0.2, -0.1, 0.5}});
  sys.add_body(box_inertia(0.5, h1), Vec3{{0.21, -0.09, 0.152}}, quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.5), "upper",
               Vec3{{-0.1, 0.4, -0.2}}, Vec3{{0.1, 0.3, -0.6}});
  ContactConstraint c;
  c.add_obstacle(Shape{ShapeType::kSphere, {0.1, 0, 0}}, Pose{identity3(), Vec3{{5, 5, 5}}});
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  c.add_obstacle(floor.shape, floor.pose);
  c.add_body_collider(0, box(h0));
  c.add_body_collider(1, box(h1));
  c.check(sys);
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const ConstraintRows rows = rows_at(c, sys, q, u);
  ASSERT_EQ(rows.contacts.size(), 8u) << "4 corners on the floor, 4 of the upper box's on the lower";
  EXPECT_EQ(expect_records_match_rows(sys, rows, q, u), 8);
  const Mat3 R0 = rotation_matrix(r0);
  for (std::size_t k = 0; k < 4; ++k) {
    const ContactRecord& r = rows.contacts[k];
    EXPECT_TRUE(is(r.a, Kind::kBody, 0) && is(r.b, Kind::kObstacle, 1)) << k;
    EXPECT_NEAR(r.frame.normal[2], 1.0, 1e-15);
    EXPECT_NEAR(r.point_b[2], 0.0, 1e-15) << "on the floor";
    // A bottom corner of box 0: its body coordinates are (+-0.1, +-0.1, -0.05).
    const Vec3 local = v3::mul_t(R0, r.point_a - Vec3{{0.2, -0.1, 0.049}});
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(std::abs(local[i]), h0[i], 1e-12) << "corner, contact " << k;
    EXPECT_LT(local[2], 0.0);
  }
  for (std::size_t k = 4; k < 8; ++k) {
    const ContactRecord& r = rows.contacts[k];
    EXPECT_TRUE(is(r.a, Kind::kBody, 0) && is(r.b, Kind::kBody, 1)) << k;
    EXPECT_NEAR(r.frame.normal[2], -1.0, 1e-12) << "from the upper box (B) to the lower (A)";
    EXPECT_NEAR(r.point_b[2], 0.152 - 0.05, 1e-12) << "the upper box's bottom face";
    EXPECT_NEAR(r.point_a[2], 0.049 + 0.05, 1e-12) << "the lower box's top face";
  }
}

TEST(ContactRecord, ParticlesTrianglesAndShapesRecordTheirSides) {
  model::MechanicalSystem sys;
  sys.add_particle(1.0, Vec3{{0.1, 0, 0.002}}, "", Vec3{{0.3, 0.1, -0.2}});  // 0: over the floor
  sys.add_particle(1.0, Vec3{{2.0, 0, 0.603}}, "", Vec3{{0.0, 0.2, -0.1}});  // 1: on the collider's top
  // 2-4: a triangle at z = 1 (counter-clockwise seen from +z); 5: a point 3 mm over its face.
  for (const Vec3& p : {Vec3{{-0.3, -0.3, 1}}, Vec3{{0.3, -0.3, 1}}, Vec3{{0, 0.3, 1}}})
    sys.add_particle(1.0, p, "", Vec3{{0.1, 0, 0.1}});
  sys.add_particle(1.0, Vec3{{0.05, -0.1, 1.003}}, "", Vec3{{0, 0, -0.5}});
  sys.add_body(box_inertia(1.0, Vec3{{0.1, 0.1, 0.1}}), Vec3{{2.0, 0, 0.5}}, Quaternion{1, Vec3{{0, 0, 0}}}, "collider",
               Vec3{{0.1, -0.1, 0}}, Vec3{{0, 0, 0.4}});
  ContactConstraint c;
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  c.add_obstacle(floor.shape, floor.pose);
  // 1: a sphere 2 mm above the triangle's face, far from the point.
  c.add_obstacle(Shape{ShapeType::kSphere, {0.2, 0, 0}}, Pose{identity3(), Vec3{{-0.12, -0.1, 1.202}}});
  c.add_body_collider(0, box(Vec3{{0.1, 0.1, 0.1}}));
  c.add_particles(0, 2);
  std::vector<model::MappedPoint> tri, point;
  for (Index i = 2; i < 5; ++i) tri.push_back({{model::particle_point(i), 1.0}});
  point.push_back({{model::particle_point(5), 1.0}});
  c.add_surface(std::make_shared<model::MappedPoints>(sys, std::move(tri), "triangle"), {{0, 1, 2}});
  c.add_points(std::make_shared<model::MappedPoints>(sys, std::move(point), "point"), 0, true);
  c.check(sys);
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const ConstraintRows rows = rows_at(c, sys, q, u);
  int floor_contacts = 0, collider = 0, on_triangle = 0, sphere = 0;
  for (const ContactRecord& r : rows.contacts) {
    if (is(r.a, Kind::kParticle, 0) && is(r.b, Kind::kObstacle, 0)) {
      ++floor_contacts;
      for (int i = 0; i < 3; ++i) EXPECT_EQ(r.point_a[i], sys.particle_position(q, 0)[i]);
      EXPECT_NEAR(r.point_b[2], 0.0, 1e-15);
    } else if (is(r.a, Kind::kParticle, 1) && is(r.b, Kind::kBody, 0)) {
      ++collider;
      EXPECT_NEAR(r.point_b[2], 0.6, 1e-15) << "the collider's top face";
    } else if (is(r.a, Kind::kParticle, 5) && is(r.b, Kind::kPoints, -1)) {
      ++on_triangle;
      EXPECT_NEAR(r.point_b[2], 1.0, 1e-15) << "the triangle's point under it";
      EXPECT_NEAR(r.point_b[0], 0.05, 1e-15);
    } else if (is(r.a, Kind::kPoints, -1) && is(r.b, Kind::kObstacle, 1)) {
      ++sphere;
      EXPECT_NEAR(r.point_a[2], 1.0, 1e-15) << "the face's point";
      EXPECT_NEAR(r.point_b[2], 1.002, 1e-12) << "the sphere's lowest point";
    } else {
      ADD_FAILURE() << "unexpected sides " << static_cast<int>(r.a.kind) << " " << r.a.index << " / "
                    << static_cast<int>(r.b.kind) << " " << r.b.index;
    }
  }
  EXPECT_EQ(floor_contacts, 1);
  EXPECT_EQ(collider, 1);
  EXPECT_EQ(on_triangle, 1);
  EXPECT_EQ(sphere, 1);
  EXPECT_EQ(expect_records_match_rows(sys, rows, q, u), 2);
}

TEST(ContactRecord, RigidMeshEdgesCrossingAreTheirBodies) {
  // Two moving cubes turned 45 degrees about x and y, their edges crossing 3 mm apart: the
  // surfaces' points merge into one marker per body, so both sides are the bodies.
  model::MechanicalSystem sys;
  const Vec3 h{{0.1, 0.1, 0.1}};
  const double ridge = 0.1 * std::sqrt(2.0);
  sys.add_body(box_inertia(1.0, h), Vec3{{0, 0, 0}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, kPi / 4), "lower",
               Vec3{{0.1, 0, 0}}, Vec3{{0, 0.3, 0.1}});
  sys.add_body(box_inertia(1.0, h), Vec3{{0.01, -0.02, 2 * ridge + 0.003}},
               quat_from_axis_angle(Vec3{{0, 1, 0}}, kPi / 4), "upper", Vec3{{0, 0.2, -0.1}}, Vec3{{0.4, 0, -0.2}});
  const std::vector<std::array<Index, 3>> triangles = {{0, 2, 3}, {0, 3, 1}, {4, 5, 7}, {4, 7, 6},
                                                       {0, 1, 5}, {0, 5, 4}, {2, 6, 7}, {2, 7, 3},
                                                       {0, 4, 6}, {0, 6, 2}, {1, 3, 7}, {1, 7, 5}};
  ContactConstraint c;
  for (Index b = 0; b < 2; ++b) {
    std::vector<model::MappedPoint> corners;
    for (int i = 0; i < 8; ++i)
      corners.push_back(
          model::rigid_point(b, Vec3{{(i & 1) ? h[0] : -h[0], (i & 2) ? h[1] : -h[1], (i & 4) ? h[2] : -h[2]}}));
    c.add_surface(std::make_shared<model::MappedPoints>(sys, std::move(corners), "corners"), triangles);
  }
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const ConstraintRows rows = rows_at(c, sys, q, u);
  ASSERT_EQ(rows.contacts.size(), 1u);
  const ContactRecord& r = rows.contacts[0];
  EXPECT_TRUE(is(r.a, Kind::kBody, 0) && is(r.b, Kind::kBody, 1));
  EXPECT_NEAR(r.point_a[2], ridge, 1e-12) << "the lower ridge";
  EXPECT_NEAR(r.point_b[2], ridge + 0.003, 1e-12) << "the upper ridge";
  EXPECT_EQ(expect_records_match_rows(sys, rows, q, u), 1);
}

TEST(ContactRecord, AContactConstraintOnMappedPointsRenumbersItsRecords) {
  // A body on the floor (4 blocks), then a contact constraint on two markers of a second body
  // mapped to proxy particles: its records follow the first four blocks, their moving side a
  // combination of points.
  model::MechanicalSystem sys;
  const Vec3 h{{0.1, 0.1, 0.1}};
  sys.add_body(box_inertia(1.0, h), Vec3{{0, 0, 0.1}}, Quaternion{1, Vec3{{0, 0, 0}}}, "box", Vec3{{0.1, 0, 0}},
               Vec3{{0, 0, 0.2}});
  sys.add_body(box_inertia(1.0, h), Vec3{{1, 0, 0.5}}, Quaternion{1, Vec3{{0, 0, 0}}}, "tool", Vec3{{0, 0.1, 0}},
               Vec3{{0.3, 0, 0}});
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  ContactConstraint direct;
  direct.add_obstacle(floor.shape, floor.pose);
  direct.add_body_collider(0, box(h));
  auto points =
      std::make_shared<model::MappedPoints>(sys,
                                            std::vector<model::MappedPoint>{model::rigid_point(1, Vec3{{0, 0, -0.499}}),
                                                                            model::rigid_point(1, Vec3{{0, 0, 0.3}})},
                                            "tips");
  auto on_proxy = std::make_shared<ContactConstraint>();
  on_proxy->add_obstacle(floor.shape, floor.pose);
  on_proxy->add_particles(0, 2);
  const MappedConstraint mapped(points, on_proxy);
  model::SystemState s;
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  sys.evaluate_state(0.0, q, u, s);
  ConstraintRows rows;
  direct.add_rows(sys, s, rows);
  mapped.add_rows(sys, s, rows);
  rows.validate(sys.num_velocities());
  ASSERT_EQ(rows.contacts.size(), 5u);
  const ContactRecord& r = rows.contacts[4];
  EXPECT_EQ(r.block, 4);
  EXPECT_TRUE(is(r.a, Kind::kPoints, -1) && is(r.b, Kind::kObstacle, 0));
  EXPECT_NEAR(r.point_a[2], 0.001, 1e-15) << "the lower tip";
  EXPECT_EQ(expect_records_match_rows(sys, rows, q, u), 4);
  // A record naming a block that is not a contact is refused.
  ConstraintRows bad = rows;
  bad.contacts[4].block = 7;
  EXPECT_THROW(bad.validate(sys.num_velocities()), Error);
}

}  // namespace
}  // namespace sinew::constraints::contact_record_test
