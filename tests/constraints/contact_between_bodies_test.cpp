// Contact points against moving rigid colliders (both sides carry the rows), mapped contact
// points, and friction per pair of materials (contact_constraint.hpp): the rows against finite
// differences of the gap over every velocity direction of both bodies, and by hand.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "expect_error.hpp"
#include "joint_test_support.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/contact_constraint.hpp"

namespace sinew::constraints::contact_between_bodies_test {
namespace {

using testing::dense_jacobian;
using testing::rows_at;

const Shape kBox{ShapeType::kBox, {0.2, 0.15, 0.1}};

// A tilted, moving box (body 0) and two particles just above its top face near its centre.
model::MechanicalSystem& box_and_particles(model::MechanicalSystem& sys) {
  sys.add_body(make_spatial_inertia(2.0, Vec3{{0.02, 0, 0}}, Mat3{{0.1, 0, 0, 0, 0.12, 0, 0, 0, 0.15}}),
               Vec3{{0.1, -0.2, 0.3}}, quat_from_axis_angle(Vec3{{0.8, 0.6, 0}}, 0.2), "box", Vec3{{0.1, 0, -0.2}},
               Vec3{{0.3, -0.1, 0.2}});
  const model::SystemState s = [&] {
    model::SystemState st;
    sys.evaluate_state(0, sys.initial_positions(), sys.initial_velocities(), st);
    return st;
  }();
  for (const Vec3& local : {Vec3{{0.05, 0.02, 0.102}}, Vec3{{-0.03, 0.04, 0.1015}}})
    sys.add_particle(0.1, s.bodies[0].x + s.bodies[0].R * local, "", Vec3{{0, 0.1, -0.3}});
  return sys;
}

TEST(ContactBetweenBodies, AParticleOnAMovingColliderHasRowsOnBothSidesThatMatchTheGap) {
  model::MechanicalSystem sys;
  box_and_particles(sys);
  ContactConstraint c;
  c.add_body_collider(0, kBox);
  c.add_particles(0, 2);
  c.check(sys);
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const ConstraintRows rows = rows_at(c, sys, q, u);
  ASSERT_EQ(rows.blocks.size(), 2u);
  EXPECT_NEAR(rows.phi[0], 0.002, 1e-12);
  EXPECT_NEAR(rows.phi[3], 0.0015, 1e-12);
  // Normal row: n on the particle, -n^T [I, -[r]] on the box (r from its origin to the witness).
  const Eigen::MatrixXd J = dense_jacobian(rows, sys.num_velocities());
  const Eigen::Vector3d n = J.block(0, 6, 1, 3).transpose();
  EXPECT_NEAR(n.norm(), 1.0, 1e-14);
  EXPECT_TRUE(J.block(0, 0, 1, 3).transpose().isApprox(-n, 1e-14));
  // Its rate is the gap's: both the particle and the box move.
  EXPECT_LT(testing::jacobian_fd_error(c, sys, q, 1), 1e-7);
  // The relative velocity along the normal is what the row gives: n . (v_p - v_box at the point).
  model::SystemState s;
  sys.evaluate_state(0, q, u, s);
  const Vec3 x = s.x[0], r = x - s.bodies[0].x;
  const Vec3 rel = s.v[0] - (s.bodies[0].v + cross(s.bodies[0].w, r));
  EXPECT_NEAR((J.row(0) * u)(0), n.dot(to_eigen(rel)), 1e-12);
}

TEST(ContactBetweenBodies, MappedContactPointsCarryTheirMappingJacobian) {
  model::MechanicalSystem sys;
  box_and_particles(sys);
  const Index tool = sys.add_body(
      make_spatial_inertia(0.5, Vec3{{0, 0, 0}}, Mat3{{0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01}}), Vec3{{0.1, -0.2, 0.6}},
      quat_from_axis_angle(Vec3{{0, 1, 0}}, 0.3), "tool", Vec3{{0, 0, -0.1}}, Vec3{{0.2, 0.4, -0.1}});
  // A surface point between the two particles, and a point of the tool mixed with a particle.
  auto points = std::make_shared<model::MappedPoints>(
      sys,
      std::vector<model::MappedPoint>{
          model::barycentric_point({0, 1}, {0.4, 0.6}),
          {{model::particle_point(0), 0.9}, {model::body_point(tool, Vec3{{0.01, 0, 0}}), 0.1}}},
      "surface");
  ContactConstraint c;
  c.add_body_collider(0, kBox);
  c.add_points(points);
  c.check(sys);
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const ConstraintRows rows = rows_at(c, sys, q, u);
  ASSERT_EQ(rows.blocks.size(), 1u);  // the mixed point is far above the box
  EXPECT_LT(testing::jacobian_fd_error(c, sys, q, 1), 1e-7);
  EXPECT_NEAR(rows.phi[0], 0.4 * 0.002 + 0.6 * 0.0015, 1e-9);
  model::MechanicalSystem other;
  box_and_particles(other);
  ContactConstraint d;
  d.add_points(points);
  EXPECT_SINEW_ERROR(d.check(other), "surface", "another MechanicalSystem");
}

TEST(ContactBetweenBodies, FrictionIsPerPairOfMaterials) {
  model::MechanicalSystem sys;
  box_and_particles(sys);
  ContactOptions o;
  o.mu = 0.3;
  ContactConstraint c(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0.5}}, Vec3{{0, 0, 1}});
  c.add_obstacle(floor.shape, floor.pose, 1);  // ice, above the particles: everything penetrates it
  c.add_body_collider(0, kBox, 2);             // rubber
  c.add_particles(0, 2, 3);
  c.set_friction(3, 2, 0.9);
  c.set_friction(1, 3, 0.05);
  c.set_friction(3, 1, 0.02);  // either order names the same pair
  EXPECT_EQ(c.friction(2, 3), 0.9);
  EXPECT_EQ(c.friction(1, 3), 0.02);
  EXPECT_EQ(c.friction(1, 2), 0.3);  // not set
  const ConstraintRows rows = rows_at(c, sys, sys.initial_positions(), sys.initial_velocities());
  // Order: the box against the floor, then each particle against the floor and the box.
  ASSERT_GE(rows.blocks.size(), 4u);
  const std::size_t nb = rows.blocks.size();
  EXPECT_EQ(rows.blocks[nb - 4].mu, 0.02);
  EXPECT_EQ(rows.blocks[nb - 3].mu, 0.9);
  EXPECT_EQ(rows.blocks[nb - 2].mu, 0.02);
  EXPECT_EQ(rows.blocks[nb - 1].mu, 0.9);
  for (std::size_t k = 0; k + 4 < nb; ++k) EXPECT_EQ(rows.blocks[k].mu, 0.3) << k;  // box on the floor
  EXPECT_SINEW_ERROR(c.set_friction(0, 1, -0.1), "materials 0 and 1", ">= 0");
  EXPECT_SINEW_ERROR(c.add_particles(0, 1, -2), "material");
}

// Three boxes in a row, each overlapping the next by 1 cm: colliders of one body never touch, an
// excluded pair of bodies makes no contacts, and the pair left makes its manifold.
TEST(ContactBetweenBodies, CollidersOfOneBodyAndExcludedPairsMakeNoContacts) {
  model::MechanicalSystem sys;
  const SpatialInertia inertia = make_spatial_inertia(1.0, Vec3{{0, 0, 0}}, Mat3{{0.01, 0, 0, 0, 0.01, 0, 0, 0, 0.01}});
  for (int k = 0; k < 3; ++k) sys.add_body(inertia, Vec3{{0.19 * k, 0, 0}}, quat_identity());
  const Shape box{ShapeType::kBox, {0.1, 0.1, 0.1}};
  const Eigen::VectorXd q = sys.initial_positions(), u = sys.initial_velocities();
  const auto blocks_between = [&](const ContactConstraint& c) { return rows_at(c, sys, q, u).blocks.size(); };

  ContactConstraint all;
  for (int k = 0; k < 3; ++k) all.add_body_collider(k, box);
  all.add_body_collider(1, Shape{ShapeType::kSphere, {0.1, 0, 0}});  // overlaps body 1's box: same body
  all.check(sys);
  const std::size_t both_pairs = blocks_between(all);
  EXPECT_GT(both_pairs, 0u);

  ContactConstraint excluded;
  for (int k = 0; k < 3; ++k) excluded.add_body_collider(k, box);
  excluded.add_body_collider(1, Shape{ShapeType::kSphere, {0.1, 0, 0}});
  excluded.exclude_bodies(1, 0);
  excluded.check(sys);
  EXPECT_FALSE(excluded.bodies_collide(0, 1));
  EXPECT_FALSE(excluded.bodies_collide(1, 1));
  EXPECT_TRUE(excluded.bodies_collide(1, 2));
  const std::size_t one_pair = blocks_between(excluded);
  EXPECT_GT(one_pair, 0u);
  EXPECT_LT(one_pair, both_pairs);
  // The blocks left are between bodies 1 and 2 (x from 0.28 to 0.29), none between 0 and 1.
  for (const ContactRecord& r : rows_at(excluded, sys, q, u).contacts) EXPECT_GT(r.point_a[0], 0.25);

  ContactConstraint bad;
  EXPECT_SINEW_ERROR(bad.exclude_bodies(2, 2), "exclude_bodies needs two different body indices");
  EXPECT_SINEW_ERROR(bad.exclude_bodies(-1, 0), "exclude_bodies needs two different body indices");
  bad.exclude_bodies(0, 5);
  EXPECT_SINEW_ERROR(bad.check(sys), "excluded pair (0, 5)");
}

}  // namespace
}  // namespace sinew::constraints::contact_between_bodies_test
