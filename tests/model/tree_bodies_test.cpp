// TreeBodies: a KinematicTree's bodies as a MechanicalSystem. Its velocities are T(q) u, and they
// are the time derivatives of its positions along u (central differences), on a tree of hinges
// and sliders with offset joints and two roots.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "random_tree.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/model/tree_bodies.hpp"

namespace sinew::model::model_tree_bodies_test {
namespace {

using test::random_tree;

// A body's origin and rotation matrix from the positions of TreeBodies::system().
void pose_of(const TreeBodies& bodies, const Eigen::VectorXd& q_full, Index b, Eigen::Vector3d& x, Eigen::Matrix3d& R) {
  const Index o = bodies.system().body_position_offset(b);
  x = q_full.segment<3>(o);
  R = to_eigen(rotation_matrix(Quaternion{q_full[o + 3], Vec3{{q_full[o + 4], q_full[o + 5], q_full[o + 6]}}}));
}

TEST(TreeBodies, BodiesStartAtTheTreesPosesWithItsInertiaAndNames) {
  std::mt19937 rng(3);
  const KinematicTree tree = random_tree(rng);
  const TreeBodies bodies(tree);
  ASSERT_EQ(bodies.system().num_bodies(), tree.num_bodies());
  EXPECT_EQ(bodies.system().num_particles(), 0);
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(tree.num_bodies());
  Eigen::VectorXd q_full;
  bodies.full_positions(0.0, zero, q_full);
  EXPECT_LT((q_full - bodies.system().initial_positions()).norm(), 1e-15);
  for (Index b = 0; b < tree.num_bodies(); ++b) {
    Vec3 x;
    Mat3 R;
    tree.body_pose(zero, b, x, R);
    Eigen::Vector3d xs;
    Eigen::Matrix3d Rs;
    pose_of(bodies, bodies.system().initial_positions(), b, xs, Rs);
    EXPECT_LT((xs - to_eigen(x)).norm(), 1e-15);
    EXPECT_LT((Rs - to_eigen(R)).norm(), 1e-14);
    EXPECT_NE(bodies.system().body_label(b).find(tree.body(b).name), std::string::npos);
    EXPECT_EQ(bodies.system().body(b).inertia.mass, tree.body(b).inertia.mass);
  }
}

TEST(TreeBodies, VelocitiesAreTuAndTheDerivativeOfThePositions) {
  std::mt19937 rng(11);
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  const KinematicTree tree = random_tree(rng);
  const TreeBodies bodies(tree);
  const Index n = tree.num_bodies();
  for (int trial = 0; trial < 5; ++trial) {
    Eigen::VectorXd q(n), u(n);
    for (Index j = 0; j < n; ++j) {
      q[j] = 2.0 * U(rng);
      u[j] = U(rng);
    }
    Eigen::VectorXd u_full;
    bodies.full_velocities(0.0, q, u, u_full);
    CsrMatrix T;
    bodies.reduction_matrix(0.0, q, T);
    ASSERT_EQ(T.rows, 6 * n);
    ASSERT_EQ(T.cols, n);
    EXPECT_NO_THROW(T.validate());
    EXPECT_LT((to_eigen(T) * u - u_full).norm(), 1e-14 * u_full.norm());

    const double eps = 1e-6;
    Eigen::VectorXd plus, minus;
    bodies.full_positions(0.0, q + eps * u, plus);
    bodies.full_positions(0.0, q - eps * u, minus);
    for (Index b = 0; b < n; ++b) {
      Eigen::Vector3d xp, xm;
      Eigen::Matrix3d Rp, Rm, R;
      pose_of(bodies, plus, b, xp, Rp);
      pose_of(bodies, minus, b, xm, Rm);
      const Index o = bodies.system().body_velocity_offset(b);
      EXPECT_LT(((xp - xm) / (2 * eps) - u_full.segment<3>(o)).norm(), 1e-8) << "body " << b;
      // dR/dt = [w] R: the angular velocity from the skew part of dR/dt R^T.
      const Eigen::Matrix3d W = (Rp - Rm) / (2 * eps) * (0.5 * (Rp + Rm)).transpose();
      const Eigen::Vector3d w(0.5 * (W(2, 1) - W(1, 2)), 0.5 * (W(0, 2) - W(2, 0)), 0.5 * (W(1, 0) - W(0, 1)));
      EXPECT_LT((w - u_full.segment<3>(o + 3)).norm(), 1e-8) << "body " << b;
    }
  }
}

}  // namespace
}  // namespace sinew::model::model_tree_bodies_test
