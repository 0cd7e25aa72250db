// Rigid transforms against Eigen::Isometry3d (composition, inverse, point and vector maps), and
// the twist/wrench changes of frame: the velocity of a body point computed from a moving pose by
// finite differences and from the transformed twist, power invariance, and the 6x6 matrices.
#include "sinew/core/rigid_transform.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "rigid_test_util.hpp"

namespace sinew::core_rigid_transform_test {
namespace {

using test::to_eigen;
constexpr double kEps = std::numeric_limits<double>::epsilon();

Eigen::Isometry3d to_iso(const RigidTransform& X) {
  Eigen::Isometry3d T = Eigen::Isometry3d::Identity();
  T.linear() = to_eigen(X.R);
  T.translation() = to_eigen(X.p);
  return T;
}

RigidTransform random_transform(test::Rng& rng) { return RigidTransform{rng.rotation(), 3.0 * rng.vec()}; }

TEST(RigidTransform, ComposeInvertMatchEigen) {
  test::Rng rng(11);
  for (int t = 0; t < 200; ++t) {
    const RigidTransform a = random_transform(rng), b = random_transform(rng);
    const Vec3 x = rng.vec();
    EXPECT_LE((to_iso(a * b).matrix() - (to_iso(a) * to_iso(b)).matrix()).norm(), 32 * kEps);
    EXPECT_LE((to_iso(inverse(a)).matrix() - to_iso(a).inverse().matrix()).norm(), 32 * kEps);
    EXPECT_LE((to_eigen(transform_point(a, x)) - to_iso(a) * to_eigen(x)).norm(), 32 * kEps);
    EXPECT_LE((to_eigen(transform_vector(a, x)) - to_iso(a).linear() * to_eigen(x)).norm(), 32 * kEps);
    EXPECT_LE(norm(transform_point(a * b, x) - transform_point(a, transform_point(b, x))), 32 * kEps);
    const RigidTransform e = a * inverse(a);
    EXPECT_LE((to_iso(e).matrix() - Eigen::Matrix4d::Identity()).norm(), 32 * kEps);
  }
  const Quaternion q = normalized(Quaternion{0.3, Vec3{{0.1, -0.7, 0.2}}});
  const RigidTransform X = rigid_from_quaternion(q, Vec3{{1, 2, 3}});
  const Vec3 x{{0.5, -0.4, 0.1}};
  EXPECT_LE(norm(transform_point(X, x) - (rotate(q, x) + Vec3{{1, 2, 3}})), 8 * kEps);
  EXPECT_EQ(norm(transform_point(rigid_identity(), x) - x), 0.0);
}

// A body frame B moves in the world: X_BW(t) = (exp(t a) R0, p0 + t v0 + t^2 c0). Its body-frame
// twist V_B = (R^T pdot, (R^T Rdot)^vee) moves a fixed body point x_B with world velocity
// d/dt (R x_B + p); the twist carried to the world frame gives the same velocity at x_W.
TEST(RigidTransform, TwistToParentGivesPointVelocityOfMovingFrame) {
  test::Rng rng(12);
  for (int t = 0; t < 50; ++t) {
    const Mat3 R0 = rng.rotation();
    const Vec3 a = 2.0 * rng.vec(), p0 = rng.vec(), v0 = rng.vec(), c0 = rng.vec(), xB = 2.0 * rng.vec();
    const double t0 = rng.scalar();
    const auto pose = [&](double tt) {
      return RigidTransform{rotation_matrix(quat_exp(tt * a)) * R0, p0 + tt * v0 + (tt * tt) * c0};
    };
    const RigidTransform X = pose(t0);
    // Analytic body twist: Rdot = [a] R so R^T Rdot = [R^T a]; pdot = v0 + 2 t c0.
    const Twist VB{transpose_times(X.R, v0 + (2 * t0) * c0), transpose_times(X.R, a)};
    const double h = 1e-5;
    const Vec3 fd = (0.5 / h) * (transform_point(pose(t0 + h), xB) - transform_point(pose(t0 - h), xB));
    const Vec3 via_body = transform_vector(X, point_velocity(VB, xB));
    const Twist VW = twist_to_parent(X, VB);
    const Vec3 via_world = point_velocity(VW, transform_point(X, xB));
    EXPECT_LE(norm(fd - via_body), 1e-8);
    EXPECT_LE(norm(fd - via_world), 1e-8);
    EXPECT_LE(norm(via_body - via_world), 64 * kEps);
    const Twist back = twist_from_parent(X, VW);
    EXPECT_LE(norm(back.v - VB.v) + norm(back.w - VB.w), 64 * kEps);
  }
}

TEST(RigidTransform, WrenchPowerInvarianceAndMatrices) {
  test::Rng rng(13);
  for (int t = 0; t < 100; ++t) {
    const RigidTransform X = random_transform(rng), Y = random_transform(rng);
    const Twist V = rng.twist();
    const Wrench F = rng.wrench();
    const Wrench FA = wrench_to_parent(X, F);
    EXPECT_NEAR(power(twist_to_parent(X, V), FA), power(V, F), 64 * kEps);
    const Wrench back = wrench_from_parent(X, FA);
    EXPECT_LE(norm(back.f - F.f) + norm(back.tau - F.tau), 64 * kEps);
    // A pure force f through the point x_B (torque x_B x f about B's origin) keeps its line of
    // action: its torque about A's origin is x_A x f_A.
    const Vec3 xB = rng.vec(), f = rng.vec();
    const Wrench Fp = wrench_to_parent(X, Wrench{f, cross(xB, f)});
    EXPECT_LE(norm(Fp.tau - cross(transform_point(X, xB), transform_vector(X, f))), 64 * kEps);
    // Matrices agree with the functions, Ad^{-T} is the wrench map, and Ad composes.
    const Eigen::Matrix<double, 6, 6> Ad = to_eigen(adjoint_matrix(X));
    EXPECT_LE((Ad * to_eigen(V) - to_eigen(twist_to_parent(X, V))).norm(), 64 * kEps);
    EXPECT_LE((to_eigen(wrench_transform_matrix(X)) * to_eigen(F) - to_eigen(FA)).norm(), 64 * kEps);
    EXPECT_LE((to_eigen(wrench_transform_matrix(X)) - Ad.inverse().transpose()).norm(), 1e-12);
    EXPECT_LE((to_eigen(adjoint_matrix(X * Y)) - to_eigen(adjoint_matrix(X) * adjoint_matrix(Y))).norm(), 1e-12);
    EXPECT_LE((to_eigen(adjoint_matrix(inverse(X))) - Ad.inverse()).norm(), 1e-12);
    Vec3 y0{}, y1{};
    spatial_multiply(adjoint_matrix(X), V.v, V.w, y0, y1);
    EXPECT_LE(norm(y0 - twist_to_parent(X, V).v) + norm(y1 - twist_to_parent(X, V).w), 64 * kEps);
  }
}

}  // namespace
}  // namespace sinew::core_rigid_transform_test
