// ContactConstraint: contact blocks from the collision library's pair functions. The normal row
// of every contact is the time derivative of its gap (central differences along a rigid motion
// of the participants), the tangent rows are the slip velocity along the frame's tangents, and
// open contacts beyond the margin give no block.
#include <gtest/gtest.h>

#include <Eigen/LU>
#include <Eigen/SparseCore>
#include <cmath>
#include <memory>

#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/core/error.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::constraints_contact_constraint_test {
namespace {

using constraints::ConstraintRows;
using constraints::ContactConstraint;
using constraints::ContactOptions;

SpatialInertia unit_box_inertia() {
  Mat3 J{};
  J(0, 0) = J(1, 1) = J(2, 2) = 0.01;
  return make_spatial_inertia(1.0, Vec3{{0, 0, 0}}, J);
}

Quaternion axis_angle(const Vec3& axis, double angle) {
  const double n = norm(axis);
  return Quaternion{std::cos(0.5 * angle), (std::sin(0.5 * angle) / n) * axis};
}

ConstraintRows rows_at(const model::MechanicalSystem& system, const ContactConstraint& c, const Eigen::VectorXd& q,
                       const Eigen::VectorXd& u) {
  model::SystemState s;
  system.evaluate_state(0.0, q, u, s);
  ConstraintRows rows;
  c.add_rows(system, s, rows);
  rows.validate(system.num_velocities());
  return rows;
}

Eigen::VectorXd rows_times(const ConstraintRows& rows, Index n, const Eigen::VectorXd& u) {
  Eigen::SparseMatrix<double> J(rows.rows(), n);
  J.setFromTriplets(rows.jacobian.begin(), rows.jacobian.end());
  return J * u;
}

// Normal rows against central differences of the gaps along q (+) t u.
void expect_normal_rows_are_gap_rates(const model::MechanicalSystem& system, const ContactConstraint& c,
                                      const Eigen::VectorXd& q, const Eigen::VectorXd& u, Index expected_contacts) {
  const ConstraintRows rows = rows_at(system, c, q, u);
  ASSERT_EQ(static_cast<Index>(rows.blocks.size()), expected_contacts);
  const Eigen::VectorXd Ju = rows_times(rows, system.num_velocities(), u);
  const double eps = 1e-6;
  Eigen::VectorXd qp, qm;
  system.advance_positions(q, u, eps, qp);
  system.advance_positions(q, u, -eps, qm);
  const ConstraintRows rp = rows_at(system, c, qp, u), rm = rows_at(system, c, qm, u);
  ASSERT_EQ(rp.rows(), rows.rows());
  ASSERT_EQ(rm.rows(), rows.rows());
  double scale = 0;
  for (Index k = 0; k < rows.rows(); k += 3) scale = std::max(scale, std::abs(Ju[k]));
  ASSERT_GT(scale, 1e-3);  // not trivially zero
  for (Index k = 0; k < rows.rows(); k += 3) {
    const double rate = (rp.phi[k] - rm.phi[k]) / (2 * eps);
    EXPECT_NEAR(Ju[k], rate, 1e-7 * scale) << "contact " << k / 3;
    EXPECT_EQ(rows.blocks[k / 3].kind, constraints::BlockKind::kContact);
    EXPECT_EQ(rows.phi[k + 1], 0.0);
    EXPECT_EQ(rows.phi[k + 2], 0.0);
  }
}

TEST(ContactConstraint, BoxOnTiltedPlaneRowsAreGapRates) {
  model::MechanicalSystem system;
  // A box slightly tilted, its lowest corners within 5 mm of a plane tilted by 10 degrees.
  const Quaternion r = axis_angle(Vec3{{0.2, 1, 0.1}}, 0.18);
  const Index b = system.add_body(unit_box_inertia(), Vec3{{0.3, -0.1, 0.03}}, r, "box", Vec3{{0.4, -0.2, -0.3}},
                                  Vec3{{0.5, 1.1, -0.7}});
  ContactOptions p;
  p.mu = 0.3;
  p.margin = 0.05;
  ContactConstraint c(p);
  const Obstacle plane = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{std::sin(0.1745), 0, std::cos(0.1745)}});
  c.add_obstacle(plane.shape, plane.pose);
  c.add_body_collider(b, Shape{ShapeType::kBox, {0.1, 0.1, 0.05}});
  c.check(system);
  const Eigen::VectorXd q = system.initial_positions(), u = system.initial_velocities();
  const ConstraintRows rows = rows_at(system, c, q, u);
  ASSERT_GE(rows.blocks.size(), 2u);
  for (const auto& block : rows.blocks) EXPECT_EQ(block.mu, 0.3);
  expect_normal_rows_are_gap_rates(system, c, q, u, static_cast<Index>(rows.blocks.size()));
}

TEST(ContactConstraint, BoxOnBoxRowsAreRelativeGapRates) {
  model::MechanicalSystem system;
  const Index lower = system.add_body(unit_box_inertia(), Vec3{{0, 0, 0.05}}, axis_angle(Vec3{{0, 0, 1}}, 0.1), "lower",
                                      Vec3{{0.1, 0.2, 0.3}}, Vec3{{0.2, -0.4, 0.3}});
  const Index upper = system.add_body(unit_box_inertia(), Vec3{{0.01, 0.02, 0.1495}}, axis_angle(Vec3{{0, 0, 1}}, 0.4),
                                      "upper", Vec3{{-0.3, 0.1, -0.2}}, Vec3{{0.1, 0.3, -0.6}});
  // The upper box's corners (radius 0.085 m) stay inside the lower box's top face: where a box
  // hangs over an edge, the pair function's edge contacts sit at a kink of the depth along the
  // edge, whose rate is not that of a single normal.
  ContactOptions p;
  p.margin = 2e-3;
  ContactConstraint c(p);
  c.add_body_collider(lower, Shape{ShapeType::kBox, {0.1, 0.1, 0.05}});
  c.add_body_collider(upper, Shape{ShapeType::kBox, {0.06, 0.06, 0.05}});
  const Eigen::VectorXd q = system.initial_positions(), u = system.initial_velocities();
  const ConstraintRows rows = rows_at(system, c, q, u);
  ASSERT_EQ(rows.blocks.size(), 4u);  // the upper box's four bottom corners on the lower's top face
  // Relative rows: both bodies' DOFs appear, with opposite signs on the normal's linear part.
  Eigen::SparseMatrix<double> J(rows.rows(), system.num_velocities());
  J.setFromTriplets(rows.jacobian.begin(), rows.jacobian.end());
  const Eigen::MatrixXd Jd = J;
  for (Index k = 0; k < rows.rows(); k += 3)
    for (int axis = 0; axis < 3; ++axis) EXPECT_NEAR(Jd(k, axis), -Jd(k, 6 + axis), 1e-15);
  expect_normal_rows_are_gap_rates(system, c, q, u, 4);
}

TEST(ContactConstraint, ParticlesAgainstAPlane) {
  model::MechanicalSystem system;
  system.add_particle(1.0, Vec3{{0, 0, 0.5}});         // far: no contact
  system.add_particle(1.0, Vec3{{0.1, 0, 0.001}});     // open, within the margin
  system.add_particle(1.0, Vec3{{0.2, 0.3, -0.002}});  // penetrating
  ContactOptions p;
  p.mu = 0.4;
  ContactConstraint c(p);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  c.add_obstacle(floor.shape, floor.pose);
  c.add_particles(0, 3);
  c.check(system);
  const ConstraintRows rows = rows_at(system, c, system.initial_positions(), system.initial_velocities());
  ASSERT_EQ(rows.blocks.size(), 2u);
  EXPECT_NEAR(rows.phi[0], 0.001, 1e-15);
  EXPECT_NEAR(rows.phi[3], -0.002, 1e-15);
  Eigen::SparseMatrix<double> J(rows.rows(), system.num_velocities());
  J.setFromTriplets(rows.jacobian.begin(), rows.jacobian.end());
  const Eigen::MatrixXd Jd = J;
  // Rows (n, t1, t2) of particle 1 (DOFs 3..5) and particle 2 (DOFs 6..8): an orthonormal frame.
  const Eigen::Matrix3d F1 = Jd.block(0, 3, 3, 3), F2 = Jd.block(3, 6, 3, 3);
  EXPECT_TRUE((F1 * F1.transpose()).isApprox(Eigen::Matrix3d::Identity(), 1e-14));
  EXPECT_TRUE(F1.isApprox(F2, 1e-15));
  EXPECT_NEAR(F1(0, 2), 1.0, 1e-15);  // normal +z
  EXPECT_NEAR(F1.determinant(), 1.0, 1e-14);
}

TEST(ContactConstraint, ChecksItsInput) {
  ContactOptions p;
  p.mu = -0.1;
  EXPECT_THROW(ContactConstraint{p}, Error);
  p.mu = 0.1;
  p.margin = std::nan("");
  EXPECT_THROW(ContactConstraint{p}, Error);
  model::MechanicalSystem system;
  system.add_particle(1.0, Vec3{{0, 0, 0}});
  ContactConstraint c;
  c.add_body_collider(3, Shape{ShapeType::kBox, {0.1, 0.1, 0.1}});
  EXPECT_THROW(c.check(system), Error);  // no body 3
  ContactConstraint d;
  d.add_particles(0, 2);
  EXPECT_THROW(d.check(system), Error);  // only one particle
  EXPECT_THROW(d.add_particles(-1, 1), Error);
  EXPECT_THROW(d.set_mu(-1.0), Error);
}

}  // namespace
}  // namespace sinew::constraints_contact_constraint_test
