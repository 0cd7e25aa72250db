#include "sinew/materials/frame_spring.hpp"
#include "sinew/core/eigen_interop.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"

namespace sinew::materials_frame_spring_test {
namespace {

struct SpringPair {
  FrameSpring spring;
  RigidState A, B;
};

SpringPair make_setup(std::uint64_t seed, bool damped) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const auto rv = [&] { return Eigen::Vector3d(u(rng), u(rng), u(rng)); };
  SpringPair s;
  s.spring.translational_stiffness = 30.0;
  s.spring.rotational_stiffness = 7.0;
  s.spring.translational_damping = damped ? 2.0 : 0.0;
  s.spring.rotational_damping = damped ? 0.5 : 0.0;
  s.spring.R_1A = to_mat3(test::random_rotation(rng));
  s.spring.p1 = to_vec3(rv());
  s.spring.R_2B = to_mat3(test::random_rotation(rng));
  s.spring.p2 = to_vec3(rv());
  s.A = RigidState{to_mat3(test::random_rotation(rng)), to_vec3(rv()), to_vec3(rv()), to_vec3(rv())};
  s.B = RigidState{to_mat3(test::random_rotation(rng)), to_vec3(rv()), to_vec3(rv()), to_vec3(rv())};
  return s;
}

Eigen::VectorXd wrench(const SpringPair& s, const RigidState& A, const RigidState& B) {
  const FrameSpringWrench w = frame_spring_wrench(s.spring, A, B);
  Eigen::VectorXd r(12);
  r << to_eigen(w.f_A), to_eigen(w.tau_A), to_eigen(w.f_B), to_eigen(w.tau_B);
  return r;
}

// Pose perturbed on the manifold by body-coordinate (dx_A, dtheta_A, dx_B, dtheta_B):
// x <- x + R dx, R <- R exp([dtheta]); world velocities unchanged.
Eigen::VectorXd wrench_at_pose(const SpringPair& s, const Eigen::VectorXd& q) {
  RigidState A = s.A, B = s.B;
  const Eigen::Matrix3d RA = test::to_eigen(A.R), RB = test::to_eigen(B.R);
  A.x = to_vec3(to_eigen(A.x) + RA * q.segment<3>(0));
  B.x = to_vec3(to_eigen(B.x) + RB * q.segment<3>(6));
  const auto expmap = [](const Eigen::Vector3d& t) {
    return t.norm() == 0 ? Eigen::Matrix3d::Identity() : Eigen::AngleAxisd(t.norm(), t.normalized()).toRotationMatrix();
  };
  A.R = to_mat3(RA * expmap(q.segment<3>(3)));
  B.R = to_mat3(RB * expmap(q.segment<3>(9)));
  return wrench(s, A, B);
}

// Body-coordinate velocities (v_A, w_A, v_B, w_B) mapped to world and evaluated.
Eigen::VectorXd wrench_at_velocity(const SpringPair& s, const Eigen::VectorXd& u) {
  RigidState A = s.A, B = s.B;
  const Eigen::Matrix3d RA = test::to_eigen(A.R), RB = test::to_eigen(B.R);
  A.v = to_vec3(RA * u.segment<3>(0));
  A.w = to_vec3(RA * u.segment<3>(3));
  B.v = to_vec3(RB * u.segment<3>(6));
  B.w = to_vec3(RB * u.segment<3>(9));
  return wrench(s, A, B);
}

TEST(FrameSpring, RotationVectorAndItsRateMatrix) {
  for (double phi : {0.0, 1e-6, 0.3, 2.0, 3.1}) {
    const Eigen::Vector3d axis = Eigen::Vector3d(0.3, -0.5, 0.8).normalized();
    const Eigen::Matrix3d R = Eigen::AngleAxisd(phi, axis).toRotationMatrix();
    EXPECT_LE((to_eigen(rotation_vector(to_mat3(R))) - phi * axis).norm(), 1e-9) << "phi " << phi;
    // d(phi u)/dt = U omega (eq. 0.45) for R(t) = exp(t [omega]) R, omega the angular velocity of
    // frame 2 relative to 1 in frame-1 coordinates: compare with central differences.
    const Eigen::Vector3d omega(0.2, 0.7, -0.4), v = phi * axis;
    const double h = 1e-6;
    const Eigen::Matrix3d Rp = Eigen::AngleAxisd(h * omega.norm(), omega.normalized()).toRotationMatrix() * R;
    const Eigen::Matrix3d Rm = Eigen::AngleAxisd(-h * omega.norm(), omega.normalized()).toRotationMatrix() * R;
    const Eigen::Vector3d fd =
        (to_eigen(rotation_vector(to_mat3(Rp))) - to_eigen(rotation_vector(to_mat3(Rm)))) / (2 * h);
    const Eigen::Vector3d an = test::to_eigen(rotation_vector_jacobian(to_vec3(v))) * omega;
    EXPECT_LE((fd - an).norm(), 1e-6 * an.norm()) << "phi " << phi;
  }
  // Within 1e-8 of pi the axis comes from R + I (sin(phi) is too small to divide by).
  const Eigen::Vector3d axis = Eigen::Vector3d(-0.6, 0.0, 0.8);
  const double phi = std::acos(-1.0) - 1e-8;
  const Eigen::Matrix3d R = Eigen::AngleAxisd(phi, axis).toRotationMatrix();
  EXPECT_LE((to_eigen(rotation_vector(to_mat3(R))) - phi * axis).norm(), 1e-7);
}

TEST(FrameSpring, WrenchIsZeroWhenFramesCoincideAtRest) {
  SpringPair s = make_setup(72, true);
  // Place B so that frame 2 coincides with frame 1, with equal rigid velocities.
  const Eigen::Matrix3d R1W = test::to_eigen(s.A.R) * test::to_eigen(s.spring.R_1A);
  const Eigen::Matrix3d RB = R1W * test::to_eigen(s.spring.R_2B).transpose();
  const Eigen::Vector3d x1 = to_eigen(s.A.x) + test::to_eigen(s.A.R) * to_eigen(s.spring.p1);
  s.B.R = to_mat3(RB);
  s.B.x = to_vec3(x1 - RB * to_eigen(s.spring.p2));
  s.B.w = s.A.w;
  s.B.v = to_vec3(to_eigen(s.A.v) + to_eigen(s.A.w).cross(to_eigen(s.B.x) - to_eigen(s.A.x)));  // same rigid motion
  EXPECT_LE(wrench(s, s.A, s.B).norm(), 1e-12);
}

TEST(FrameSpring, WrenchBalancesInWorldCoordinates) {
  // The spring is internal: world forces cancel and world torques about a common point cancel.
  const SpringPair s = make_setup(73, true);
  const Eigen::VectorXd w = wrench(s, s.A, s.B);
  const Eigen::Matrix3d RA = test::to_eigen(s.A.R), RB = test::to_eigen(s.B.R);
  const Eigen::Vector3d fA = RA * w.segment<3>(0), fB = RB * w.segment<3>(6);
  const Eigen::Vector3d tA = RA * w.segment<3>(3) + to_eigen(s.A.x).cross(fA);
  const Eigen::Vector3d tB = RB * w.segment<3>(9) + to_eigen(s.B.x).cross(fB);
  EXPECT_GT(fA.norm(), 1.0);
  EXPECT_LE((fA + fB).norm(), 1e-12 * fA.norm());
  // Pure torques are equal and opposite; the force pair acts at x1 on A and at x2 on B, which leaves
  // the couple (x1 - x2) x f_A in the sum of world torques about the origin.
  const Eigen::Vector3d x1 = to_eigen(s.A.x) + RA * to_eigen(s.spring.p1),
                        x2 = to_eigen(s.B.x) + RB * to_eigen(s.spring.p2);
  EXPECT_LE((tA + tB - (x1 - x2).cross(fA)).norm(), 1e-10 * tA.norm());
}

TEST(FrameSpring, PositionJacobianMatchesFiniteDifferencesOnTheManifold) {
  for (bool damped : {false, true}) {
    const SpringPair s = make_setup(damped ? 74 : 75, damped);
    Mat12 Jp;
    frame_spring_position_jacobian(s.spring, s.A, s.B, Jp);
    const Eigen::MatrixXd J = test::to_eigen(Jp);
    SCOPED_TRACE(damped ? "damped" : "undamped");
    EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& q) { return wrench_at_pose(s, q); },
                                     [&](const Eigen::VectorXd&) { return J; }, Eigen::VectorXd::Zero(12)));
  }
}

TEST(FrameSpring, VelocityJacobianMatchesFiniteDifferences) {
  const SpringPair s = make_setup(76, true);
  Mat12 Jv;
  frame_spring_velocity_jacobian(s.spring, s.A, s.B, Jv);
  const Eigen::MatrixXd J = test::to_eigen(Jv);
  Eigen::VectorXd u(12);
  const Eigen::Matrix3d RA = test::to_eigen(s.A.R), RB = test::to_eigen(s.B.R);
  u << RA.transpose() * to_eigen(s.A.v), RA.transpose() * to_eigen(s.A.w), RB.transpose() * to_eigen(s.B.v),
      RB.transpose() * to_eigen(s.B.w);
  EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& y) { return wrench_at_velocity(s, y); },
                                   [&](const Eigen::VectorXd&) { return J; }, u));
}

}  // namespace
}  // namespace sinew::materials_frame_spring_test

namespace sinew::materials_frame_spring_test {
namespace {

TEST(FrameSpring, ValidateRejectsNegativeCoefficients) {
  EXPECT_NO_THROW(validate(FrameSpring{}));
  FrameSpring s;
  s.rotational_damping = -1.0;
  EXPECT_SINEW_ERROR(validate(s), "rotational_damping", ">= 0");
  s = FrameSpring{};
  s.translational_stiffness = -1.0;
  EXPECT_SINEW_ERROR(validate(s), "translational_stiffness");
}

}  // namespace
}  // namespace sinew::materials_frame_spring_test
