// KinematicTree (kinematic_tree.hpp) against what does not use its algorithms: the kinetic
// energy of every body from finite differences of the poses (the mass matrix), the potential's
// gradient (gravity's generalized force) and Hessian (the stiffness), a pendulum's and a
// slider's closed-form accelerations, and bad input refused with the body and field named.
#include <gtest/gtest.h>

#include <Eigen/Eigenvalues>
#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "random_tree.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/model/kinematic_tree.hpp"

namespace sinew::model::model_kinematic_tree_test {
namespace {

using test::random_tree;

Eigen::VectorXd random_vector(std::mt19937& rng, Index n, double scale) {
  std::uniform_real_distribution<double> U(-scale, scale);
  Eigen::VectorXd v(n);
  for (Index i = 0; i < n; ++i) v[i] = U(rng);
  return v;
}

// Kinetic energy summed body by body from central differences of the poses along u.
double kinetic_energy_from_poses(const KinematicTree& tree, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  const double eps = 1e-6;
  const Eigen::VectorXd qp = q + eps * u, qm = q - eps * u;
  double T = 0.0;
  for (Index b = 0; b < tree.num_bodies(); ++b) {
    Vec3 x, xp, xm;
    Mat3 R, Rp, Rm;
    tree.body_pose(q, b, x, R);
    tree.body_pose(qp, b, xp, Rp);
    tree.body_pose(qm, b, xm, Rm);
    const Eigen::Vector3d com = to_eigen(tree.body(b).inertia.com);
    const Eigen::Vector3d vc = ((to_eigen(xp) + to_eigen(Rp) * com) - (to_eigen(xm) + to_eigen(Rm) * com)) / (2 * eps);
    const Eigen::Matrix3d W = (to_eigen(Rp) - to_eigen(Rm)) / (2 * eps) * to_eigen(R).transpose();  // [w]
    const Eigen::Vector3d w(W(2, 1), W(0, 2), W(1, 0));
    const Eigen::Matrix3d Jw = to_eigen(R) * to_eigen(tree.body(b).inertia.J) * to_eigen(R).transpose();
    T += 0.5 * tree.body(b).inertia.mass * vc.squaredNorm() + 0.5 * w.dot(Jw * w);
  }
  return T;
}

TEST(KinematicTree, MassMatrixGivesEveryBodysKineticEnergy) {
  std::mt19937 rng(7);
  const KinematicTree tree = random_tree(rng);
  for (int trial = 0; trial < 5; ++trial) {
    const Eigen::VectorXd q = random_vector(rng, 6, 2.0), u = random_vector(rng, 6, 3.0);
    Eigen::MatrixXd M;
    tree.dense_mass_matrix(q, M);
    EXPECT_LT((M - M.transpose()).norm(), 1e-14 * M.norm());
    EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().minCoeff(), 0.0);
    const double T = tree.kinetic_energy(0.0, q, u);
    EXPECT_NEAR(T, 0.5 * u.dot(M * u), 1e-13 * T);
    EXPECT_NEAR(T, kinetic_energy_from_poses(tree, q, u), 1e-8 * T) << "trial " << trial;
    // Joints on different branches (1 and 3, both under 0; 5 under the world) do not couple.
    EXPECT_EQ(M(1, 3), 0.0);
    EXPECT_EQ(M(2, 4), 0.0);
    EXPECT_EQ(M(0, 5), 0.0);
    EXPECT_NE(M(2, 0), 0.0);
  }
}

// J u of a point is its velocity and the body's angular velocity: central differences of the
// point's position and of the body's rotation along u; joints off the body's path have zero columns.
TEST(KinematicTree, PointJacobianGivesThePointsVelocity) {
  std::mt19937 rng(5);
  const KinematicTree tree = random_tree(rng);
  const Eigen::VectorXd q = random_vector(rng, 6, 2.0), u = random_vector(rng, 6, 3.0);
  const double eps = 1e-6;
  for (Index b = 0; b < 6; ++b) {
    const Vec3 local{{0.1, -0.2, 0.05}};
    Eigen::MatrixXd J;
    tree.point_jacobian(q, b, local, J);
    const Eigen::VectorXd qp = q + eps * u, qm = q - eps * u;
    const Eigen::Vector3d v =
        (to_eigen(tree.body_point(qp, b, local)) - to_eigen(tree.body_point(qm, b, local))) / (2 * eps);
    Vec3 x, xp, xm;
    Mat3 R, Rp, Rm;
    tree.body_pose(q, b, x, R);
    tree.body_pose(qp, b, xp, Rp);
    tree.body_pose(qm, b, xm, Rm);
    const Eigen::Matrix3d W = (to_eigen(Rp) - to_eigen(Rm)) / (2 * eps) * to_eigen(R).transpose();
    const Eigen::Vector3d w(W(2, 1), W(0, 2), W(1, 0));
    const Eigen::VectorXd Ju = J * u;
    EXPECT_LT((Ju.head<3>() - v).norm(), 1e-7 * (1.0 + v.norm())) << "body " << b;
    EXPECT_LT((Ju.tail<3>() - w).norm(), 1e-7 * (1.0 + w.norm())) << "body " << b;
  }
  Eigen::MatrixXd J;
  tree.point_jacobian(q, 4, Vec3{{0, 0, 0}}, J);  // body 4 hangs from 3, which hangs from 0
  EXPECT_EQ(J.col(1).norm() + J.col(2).norm() + J.col(5).norm(), 0.0);
  EXPECT_GT(J.col(0).norm() * J.col(3).norm() * J.col(4).norm(), 0.0);
}

TEST(KinematicTree, GravityForceIsMinusThePotentialsGradient) {
  std::mt19937 rng(11);
  const KinematicTree tree = random_tree(rng);
  const Eigen::VectorXd q = random_vector(rng, 6, 2.0), u = random_vector(rng, 6, 3.0);
  Eigen::VectorXd f;
  tree.forces(0.0, q, u, ForcePart::kElastic, f);
  for (Index j = 0; j < 6; ++j) {
    const double eps = 1e-6;
    Eigen::VectorXd qp = q, qm = q;
    qp[j] += eps;
    qm[j] -= eps;
    const double dV = (tree.potential_energy(0.0, qp) - tree.potential_energy(0.0, qm)) / (2 * eps);
    EXPECT_NEAR(f[j], -dV, 1e-7 * (1.0 + std::abs(dV))) << "joint " << j;
  }
  // The whole force is gravity's and the velocity terms'.
  Eigen::VectorXd all, velocity;
  tree.forces(0.0, q, u, ForcePart::kAll, all);
  tree.forces(0.0, q, u, ForcePart::kGyroscopic, velocity);
  EXPECT_LT((all - f - velocity).norm(), 1e-12 * all.norm());
  EXPECT_GT(velocity.norm(), 0.1);
}

// The stiffness K = d^2 V / dq^2 against differences of the gravity force, and its projection onto
// the positive semi-definite matrices: V max(l, 0) V^T from an independent eigendecomposition of K
// where K is indefinite, K itself where it is positive definite (the pendulum hanging down).
TEST(KinematicTree, StiffnessIsTheGravityForcesJacobianAndProjectsToItsPositivePart) {
  std::mt19937 rng(5);
  const KinematicTree tree = random_tree(rng);
  int indefinite = 0;
  for (int trial = 0; trial < 4; ++trial) {
    const Eigen::VectorXd q = random_vector(rng, 6, 2.0), u = Eigen::VectorXd::Zero(6);
    CsrMatrix K, P;
    tree.stiffness(0.0, q, u, false, K);
    tree.stiffness(0.0, q, u, true, P);
    const Eigen::MatrixXd k = Eigen::MatrixXd(as_eigen(K)), p = Eigen::MatrixXd(as_eigen(P));
    for (Index j = 0; j < 6; ++j) {  // K's columns: -(F(q + e_j) - F(q - e_j)) / 2 eps
      const double eps = 1e-5;
      Eigen::VectorXd qp = q, qm = q, fp, fm;
      qp[j] += eps;
      qm[j] -= eps;
      tree.forces(0.0, qp, u, ForcePart::kElastic, fp);
      tree.forces(0.0, qm, u, ForcePart::kElastic, fm);
      const Eigen::VectorXd column = -(fp - fm) / (2 * eps);
      EXPECT_LT((k.col(j) - column).norm(), 1e-6 * (1.0 + column.norm())) << "trial " << trial << ", joint " << j;
    }
    const Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eig(k);
    const Eigen::MatrixXd expected =
        eig.eigenvectors() * eig.eigenvalues().cwiseMax(0.0).asDiagonal() * eig.eigenvectors().transpose();
    EXPECT_LT((p - expected).norm(), 1e-12 * (1.0 + k.norm())) << "trial " << trial;
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(p).eigenvalues().minCoeff(), -1e-12 * k.norm());
    indefinite += eig.eigenvalues().minCoeff() < 0.0 ? 1 : 0;
  }
  EXPECT_GT(indefinite, 0);  // the projection was exercised
  // A hinge chain hanging straight down: gravity's stiffness is positive definite, its own projection.
  KinematicTree chain(Vec3{{0, 0, -9.81}});
  for (int i = 0; i < 4; ++i) {
    TreeBody b;
    b.parent = i - 1;
    b.axis = Vec3{{0, 1, 0}};
    b.joint_in_parent = Vec3{{0, 0, i == 0 ? 0.0 : -0.05}};
    b.joint_in_body = Vec3{{0, 0, 0.05}};
    b.inertia = make_spatial_inertia(0.2, Vec3{{0, 0, 0}}, Mat3{{1.7e-4, 0, 0, 0, 1.7e-4, 0, 0, 0, 1e-5}});
    chain.add_body(b);
  }
  CsrMatrix K, P;
  const Eigen::VectorXd hanging = Eigen::VectorXd::Zero(4);
  chain.stiffness(0.0, hanging, hanging, false, K);
  chain.stiffness(0.0, hanging, hanging, true, P);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Eigen::MatrixXd(as_eigen(K))).eigenvalues().minCoeff(), 0.0);
  EXPECT_EQ(P.values, K.values);
}

// One hinge: a rod of mass m, centre of mass l from the pivot, inertia J about its centre.
// theta'' = -m g l sin(theta) / (J + m l^2), K = d^2 V / d theta^2 = m g l cos(theta).
TEST(KinematicTree, APendulumAndASliderMoveAsTheirClosedForms) {
  const double m = 0.7, l = 0.35, J = 0.012, g = 9.81;
  KinematicTree tree(Vec3{{0, 0, -g}});
  TreeBody rod;
  rod.axis = Vec3{{0, 2, 0}};  // normalized by add_body
  rod.joint_in_parent = Vec3{{0.1, 0.2, 1.0}};
  rod.joint_in_body = Vec3{{0, 0, l}};  // the body's origin (its centre of mass) hangs l below the pivot
  rod.inertia = make_spatial_inertia(m, Vec3{{0, 0, 0}}, Mat3{{J, 0, 0, 0, J, 0, 0, 0, J}});
  tree.add_body(rod);
  TreeBody slide;
  slide.parent = 0;
  slide.joint = TreeJointKind::kSlider;
  slide.axis = Vec3{{1, 0, 0}};
  slide.inertia = make_spatial_inertia(1e-3, Vec3{{0, 0, 0}}, Mat3{{1e-6, 0, 0, 0, 1e-6, 0, 0, 0, 1e-6}});
  KinematicTree pendulum = tree;
  for (double theta : {0.3, -1.2, 2.5}) {
    Eigen::VectorXd q(1), u(1), qdd;
    q << theta;
    u << 1.7;  // a hinge about a fixed axis has no velocity terms of its own
    ASSERT_TRUE(pendulum.accelerations(0.0, q, u, qdd));
    EXPECT_NEAR(qdd[0], -m * g * l * std::sin(theta) / (J + m * l * l), 1e-13) << theta;
    CsrMatrix K;
    pendulum.stiffness(0.0, q, u, false, K);
    EXPECT_NEAR(K.values[0], m * g * l * std::cos(theta), 1e-7) << theta;
    pendulum.stiffness(0.0, q, u, true, K);
    EXPECT_NEAR(K.values[0], std::max(0.0, m * g * l * std::cos(theta)), 1e-7) << theta;
  }
  // A bead sliding along the rod's x axis: with the rod turned by theta about y, gravity pulls it
  // along the rod by m_b g sin(theta).
  tree.add_body(slide);
  Eigen::VectorXd q(2), u = Eigen::VectorXd::Zero(2), f;
  q << 0.4, 0.05;
  tree.forces(0.0, q, u, ForcePart::kElastic, f);
  EXPECT_NEAR(f[1], 1e-3 * g * std::sin(0.4), 1e-15);
}

// Armature adds to the joint's inertia, damping opposes its rate, and joint forces enter as given:
// theta'' = (tau - m g l sin(theta) - d theta') / (J + m l^2 + a); a motor giving m g l sin(theta)
// holds the pendulum still.
TEST(KinematicTree, ArmatureDampingAndJointForcesEnterTheirClosedForm) {
  const double m = 0.7, l = 0.35, J = 0.012, a = 0.004, d = 0.03, g = 9.81;
  KinematicTree tree(Vec3{{0, 0, -g}});
  TreeBody rod;
  rod.axis = Vec3{{0, 1, 0}};
  rod.joint_in_body = Vec3{{0, 0, l}};
  rod.inertia = make_spatial_inertia(m, Vec3{{0, 0, 0}}, Mat3{{J, 0, 0, 0, J, 0, 0, 0, J}});
  rod.armature = a;
  rod.damping = d;
  tree.add_body(rod);
  Eigen::VectorXd q(1), u(1), qdd, f;
  q << 0.8;
  u << -1.3;
  ASSERT_TRUE(tree.accelerations(0.0, q, u, qdd));
  EXPECT_NEAR(qdd[0], (-m * g * l * std::sin(0.8) + d * 1.3) / (J + m * l * l + a), 1e-13);
  EXPECT_NEAR(tree.kinetic_energy(0.0, q, u), 0.5 * (J + m * l * l + a) * 1.3 * 1.3, 1e-14);
  tree.forces(0.0, q, u, ForcePart::kElastic, f);
  EXPECT_NEAR(f[0], -m * g * l * std::sin(0.8) + d * 1.3, 1e-13);
  CsrMatrix D;
  tree.damping(0.0, q, u, D);
  EXPECT_EQ(D.values.size(), 1u);
  EXPECT_EQ(D.values[0], d);

  tree.set_joint_force([&](double t, const Eigen::VectorXd& qq, const Eigen::VectorXd&, Eigen::VectorXd& tau) {
    tau[0] = m * g * l * std::sin(qq[0]) + t;  // holds the rod, plus t
  });
  u << 0.0;
  ASSERT_TRUE(tree.accelerations(0.0, q, u, qdd));
  EXPECT_NEAR(qdd[0], 0.0, 1e-13);
  ASSERT_TRUE(tree.accelerations(0.5, q, u, qdd));
  EXPECT_NEAR(qdd[0], 0.5 / (J + m * l * l + a), 1e-13);
  tree.forces(0.5, q, u, ForcePart::kGyroscopic, f);  // joint forces are in the explicit part
  EXPECT_NEAR(f[0], m * g * l * std::sin(0.8) + 0.5, 1e-13);
  tree.set_joint_force(
      [](double, const Eigen::VectorXd&, const Eigen::VectorXd&, Eigen::VectorXd& tau) { tau.resize(3); });
  EXPECT_SINEW_ERROR(tree.accelerations(0.0, q, u, qdd), "joint force wrote 3 entries", "one per joint (1)");
}

TEST(KinematicTree, BadInputIsRefusedNamingTheBodyAndField) {
  KinematicTree tree;
  TreeBody b;
  b.name = "arm";
  b.parent = 0;  // no body yet
  EXPECT_SINEW_ERROR(tree.add_body(b), "body 0 'arm'", "parent", "[0, 0)");
  b.parent = -1;
  b.axis = Vec3{{0, 0, 0}};
  EXPECT_SINEW_ERROR(tree.add_body(b), "body 0 'arm'", "axis", "nonzero");
  b.axis = Vec3{{0, 0, 1}};
  b.joint_in_body = Vec3{{std::nan(""), 0, 0}};
  EXPECT_SINEW_ERROR(tree.add_body(b), "body 0 'arm'", "joint_in_parent and joint_in_body must be finite");
  b.joint_in_body = Vec3{{0, 0, 0}};
  b.inertia.mass = -1.0;
  EXPECT_SINEW_ERROR(tree.add_body(b), "body 0 'arm'", "mass must be finite and > 0");
  b.inertia.mass = 1.0;
  b.damping = -0.1;
  EXPECT_SINEW_ERROR(tree.add_body(b), "body 0 'arm'", "armature and damping must be finite and >= 0");
  EXPECT_EQ(tree.num_bodies(), 0);
  b.damping = 0.0;
  EXPECT_EQ(tree.add_body(b), 0);
  Eigen::VectorXd q(2), u(1), qdd;
  EXPECT_SINEW_ERROR(tree.accelerations(0.0, q, u, qdd), "accelerations", "q has 2 entries", "one per joint (1)");
}

}  // namespace
}  // namespace sinew::model::model_kinematic_tree_test
