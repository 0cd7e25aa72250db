// Velocity-level constraints: the knife edge and the rolling disk. Their rows have no position
// level (phi = 0) except the disk's optional contact row, whose Jacobian is checked against
// central differences; the allowed motions are checked as null spaces, and two closed-form
// dynamics: a disk rolling at constant speed, and a sliding disk caught by no-slip (v = 2/3 v0).
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
#include <memory>
#include <vector>

#include "chain_stepper.hpp"
#include "expect_error.hpp"
#include "joint_test_support.hpp"
#include "sinew/constraints/velocity_constraint.hpp"

namespace sinew::constraints::constraints_joint_velocity_constraint_test {
namespace {

using testing::dense_jacobian;
using testing::rows_at;

const Vec3 kX{{1, 0, 0}}, kY{{0, 1, 0}}, kZ{{0, 0, 1}};

// Twist (v, w) of a rotation w about an axis through p for a body with origin x.
Eigen::Matrix<double, 6, 1> rotation_about(const Eigen::Vector3d& w, const Eigen::Vector3d& p,
                                           const Eigen::Vector3d& x) {
  Eigen::Matrix<double, 6, 1> t;
  t << w.cross(x - p), w;
  return t;
}

TEST(KnifeEdge, StopsOnlyTheSidewaysVelocityOfTheBlade) {
  std::mt19937 rng(21);
  auto sys = testing::random_system(rng, false);
  const KnifeEdgeConstraint knife("skate", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0.2, -0.1, 0.3}}, kY));
  knife.check(*sys);
  const Eigen::VectorXd q = sys->initial_positions(), u = Eigen::VectorXd::Zero(12);
  const ConstraintRows rows = rows_at(knife, *sys, q, u);
  ASSERT_EQ(rows.rows(), 1);
  EXPECT_EQ(rows.phi[0], 0.0) << "velocity level only";
  const Eigen::MatrixXd J = dense_jacobian(rows, 12).leftCols(6);
  model::SystemState s;
  sys->evaluate_state(0, q, u, s);
  const JointFrame blade = evaluate_joint_frame(s, knife.side_b());
  const Eigen::Vector3d lateral = to_eigen(column(blade.R, 2)), p = to_eigen(blade.p), x = to_eigen(s.bodies[0].x);
  // Allowed: translations across the lateral direction, any rotation about the blade point.
  std::vector<Eigen::Matrix<double, 6, 1>> allowed;
  for (const Eigen::Vector3d& d : {to_eigen(column(blade.R, 0)), to_eigen(column(blade.R, 1))}) {
    Eigen::Matrix<double, 6, 1> t;
    t << d, Eigen::Vector3d::Zero();
    allowed.push_back(t);
  }
  for (int k = 0; k < 3; ++k) allowed.push_back(rotation_about(Eigen::Vector3d::Unit(k), p, x));
  for (const auto& t : allowed) EXPECT_NEAR((J * t)(0), 0.0, 1e-14);
  Eigen::Matrix<double, 6, 1> sideways;
  sideways << lateral, Eigen::Vector3d::Zero();
  EXPECT_NEAR((J * sideways)(0), 1.0, 1e-14) << "the sideways velocity is the row's value";
}

TEST(KnifeEdge, SledKeepsOnlyItsForwardVelocity) {
  // A sled with its centre of mass on the blade, blade along x (lateral y), no gravity: one step
  // projects v0 = (1, 1, 0) onto the blade, (1, 0, 0), with no spin.
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->add_body(make_spatial_inertia(2, Vec3{{0, 0, 0}}, Mat3{{0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3}}), Vec3{{0, 0, 0}},
                quat_identity(), "sled", Vec3{{1, 1, 0}});
  auto knife =
      std::make_shared<KnifeEdgeConstraint>("sled", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}, kY));
  testing::ChainStepper st(*sys, {knife}, 1e-2, testing::StepSolver::kKkt);
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0;
  st.step(t, q, u);
  EXPECT_NEAR(u[0], 1.0, 1e-14);
  EXPECT_NEAR(u[1], 0.0, 1e-14);
  EXPECT_NEAR(u.tail<3>().norm(), 0.0, 1e-14);
}

// A uniform disk (mass m, radius R; axis = body z) standing upright on the ground z = 0 with
// its axis along world y, centre at height R.
struct Disk {
  std::unique_ptr<model::MechanicalSystem> sys = std::make_unique<model::MechanicalSystem>();
  std::shared_ptr<RollingDiskConstraint> rolling;
};

Disk upright_disk(double m, double R, const Vec3& v, const Vec3& w) {
  Disk d;
  d.sys->set_gravity(Vec3{{0, 0, -9.81}});
  const double Ia = 0.5 * m * R * R, Id = 0.25 * m * R * R;
  d.sys->add_body(make_spatial_inertia(m, Vec3{{0, 0, 0}}, Mat3{{Id, 0, 0, 0, Id, 0, 0, 0, Ia}}), Vec3{{0, 0, R}},
                  quat_from_axis_angle(kX, -1.5707963267948966), "disk", v, w);
  RollingDiskOptions o;
  o.radius = R;
  d.rolling =
      std::make_shared<RollingDiskConstraint>("wheel", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}), o);
  d.rolling->check(*d.sys);
  return d;
}

TEST(RollingDisk, AllowsExactlyTheRotationsAboutTheContactPoint) {
  Disk d = upright_disk(1.0, 0.3, Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}});
  const Eigen::VectorXd q = d.sys->initial_positions(), u = Eigen::VectorXd::Zero(6);
  model::SystemState s;
  d.sys->evaluate_state(0, q, u, s);
  const Eigen::Vector3d p = to_eigen(d.rolling->contact_point(s));
  EXPECT_NEAR(p.norm(), 0.0, 1e-15) << "lowest point of the upright disk";
  const ConstraintRows rows = rows_at(*d.rolling, *d.sys, q, u);
  ASSERT_EQ(rows.rows(), 3);
  const Eigen::MatrixXd J = dense_jacobian(rows, 6);
  EXPECT_EQ(Eigen::FullPivLU<Eigen::MatrixXd>(J).rank(), 3);
  for (int k = 0; k < 3; ++k)
    EXPECT_LT((J * rotation_about(Eigen::Vector3d::Unit(k), p, to_eigen(s.bodies[0].x))).norm(), 1e-14);
}

TEST(RollingDisk, ContactRowMatchesCentralDifferencesWhenTiltedAndOnAMovingPlane) {
  std::mt19937 rng(4);
  auto sys = testing::random_system(rng, false);
  RollingDiskOptions o;
  o.radius = 0.4;
  const Eigen::VectorXd q = sys->initial_positions();
  // Disk = body 1 on the world plane and on a plane carried by body 0 (random, tilted poses):
  // the row's Jacobian ignores the contact point's motion along the rim (envelope argument).
  const RollingDiskConstraint on_world("w", world_side(Vec3{{0, 0, -1}}, Vec3{{0.1, 0.2, 1}}),
                                       body_side(1, Vec3{{0.1, 0, 0}}, Vec3{{0.3, 1, 0.2}}), o);
  const RollingDiskConstraint on_body("b", body_side(0, Vec3{{0.2, 0.1, 0}}, Vec3{{0, 1, 1}}),
                                      body_side(1, Vec3{{0.1, 0, 0}}, Vec3{{0.3, 1, 0.2}}), o);
  for (const RollingDiskConstraint* c : {&on_world, &on_body}) {
    c->check(*sys);
    const double err = testing::jacobian_fd_error(*c, *sys, q, 1);
    std::printf("%s: relative FD error of the contact row %.2e\n", c->name().c_str(), err);
    EXPECT_LT(err, 1e-7) << c->name();
  }
}

TEST(RollingDisk, RollsAtConstantSpeed) {
  // Rolling without slipping with spin w about +y: the centre moves along +x at w R, forever.
  const double R = 0.3, w = 5.0;
  Disk d = upright_disk(1.0, R, Vec3{{w * R, 0, 0}}, Vec3{{0, w, 0}});
  testing::ChainStepper st(*d.sys, {d.rolling}, 1e-3, testing::StepSolver::kKkt);
  Eigen::VectorXd q = d.sys->initial_positions(), u = d.sys->initial_velocities();
  double t = 0;
  for (int k = 0; k < 1000; ++k) st.step(t, q, u);
  EXPECT_NEAR(q[0], w * R * 1.0, 1e-9) << "distance rolled in 1 s";
  EXPECT_NEAR(q[2], R, 1e-12) << "stays on the ground";
  EXPECT_NEAR(u[0], w * R, 1e-9);
  EXPECT_NEAR(u[4], w, 1e-9);
}

TEST(RollingDisk, SlidingDiskIsCaughtAtTwoThirdsOfItsSpeed) {
  // A uniform disk sliding at v0 without spin: the no-slip impulse acts at the contact point, so
  // the angular momentum about it, m v0 R, is kept: m v R + (m R^2 / 2) v / R = m v0 R gives
  // v = 2/3 v0 after one step.
  const double R = 0.25, v0 = 1.5;
  Disk d = upright_disk(2.0, R, Vec3{{v0, 0, 0}}, Vec3{{0, 0, 0}});
  testing::ChainStepper st(*d.sys, {d.rolling}, 1e-3, testing::StepSolver::kKkt);
  Eigen::VectorXd q = d.sys->initial_positions(), u = d.sys->initial_velocities();
  double t = 0;
  st.step(t, q, u);
  EXPECT_NEAR(u[0], 2.0 / 3.0 * v0, 1e-12);
  EXPECT_NEAR(u[4], 2.0 / 3.0 * v0 / R, 1e-12) << "rolling: w = v / R";
}

TEST(RollingDisk, BadInputNamesTheConstraint) {
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->add_particle(1, Vec3{{0, 0, 1}});
  sys->add_body(make_spatial_inertia(1, Vec3{{0, 0, 0}}, Mat3{{1, 0, 0, 0, 1, 0, 0, 0, 1}}), Vec3{{0, 0, 1}},
                quat_identity());
  EXPECT_SINEW_ERROR(RollingDiskConstraint("wheel", world_side(Vec3{{0, 0, 0}}), particle_side(0)).check(*sys),
                     "rolling disk 'wheel'", "rigid body");
  RollingDiskOptions o;
  o.radius = 0;
  EXPECT_SINEW_ERROR(
      RollingDiskConstraint("wheel", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}), o).check(*sys),
      "rolling disk 'wheel'", "radius");
  // Body 0 at the identity: its axis z is the plane's normal, the disk lies flat.
  const RollingDiskConstraint flat("wheel", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}));
  flat.check(*sys);
  model::SystemState s;
  sys->evaluate_state(0, sys->initial_positions(), sys->initial_velocities(), s);
  ConstraintRows rows;
  EXPECT_SINEW_ERROR(flat.add_rows(*sys, s, rows), "rolling disk 'wheel'", "lies flat");
  EXPECT_SINEW_ERROR(
      KnifeEdgeConstraint("skate", world_side(Vec3{{0, 0, 0}}), body_side(3, Vec3{{0, 0, 0}})).check(*sys),
      "knife edge 'skate'", "side B");
}

}  // namespace
}  // namespace sinew::constraints::constraints_joint_velocity_constraint_test
