// Vec3/Mat3 arithmetic, cross-product matrix, outer product and the 3x3 Cholesky factor and
// triangular solves of small_matrix_ops.hpp against Eigen.
#include "sinew/core/small_matrix_ops.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "rigid_test_util.hpp"

namespace sinew::core_small_matrix_ops_test {
namespace {

using test::to_eigen;
constexpr double kEps = std::numeric_limits<double>::epsilon();

TEST(SmallMatrixOps, ArithmeticMatchesEigen) {
  test::Rng rng(31);
  for (int t = 0; t < 100; ++t) {
    const Vec3 a = rng.vec(), b = rng.vec();
    const Mat3 A = rng.rotation() * (2.0 * identity3()) + outer_product(rng.vec(), rng.vec()), B = rng.rotation();
    const double s = rng.scalar();
    const Eigen::Vector3d ae = to_eigen(a), be = to_eigen(b);
    const Eigen::Matrix3d Ae = to_eigen(A), Be = to_eigen(B);
    EXPECT_LE((to_eigen(a + b) - (ae + be)).norm(), 0.0);
    EXPECT_LE((to_eigen(a - b) - (ae - be)).norm(), 0.0);
    EXPECT_LE((to_eigen(-a) + ae).norm(), 0.0);
    EXPECT_LE((to_eigen(s * a) - s * ae).norm(), 0.0);
    EXPECT_LE((to_eigen(a * s) - s * ae).norm(), 0.0);
    EXPECT_LE((to_eigen(A * a) - Ae * ae).norm(), 8 * kEps);
    EXPECT_LE((to_eigen(transpose_times(A, a)) - Ae.transpose() * ae).norm(), 8 * kEps);
    EXPECT_LE((to_eigen(A + B) - (Ae + Be)).norm(), 0.0);
    EXPECT_LE((to_eigen(A - B) - (Ae - Be)).norm(), 0.0);
    EXPECT_LE((to_eigen(s * A) - s * Ae).norm(), 0.0);
    EXPECT_NEAR(squared_norm(a), ae.squaredNorm(), 4 * kEps);
    EXPECT_LE((to_eigen(cross_matrix(a) * b) - ae.cross(be)).norm(), 4 * kEps);
    EXPECT_LE((to_eigen(cross_matrix(a)) + to_eigen(cross_matrix(a)).transpose()).norm(), 0.0);
    EXPECT_LE((to_eigen(outer_product(a, b)) - ae * be.transpose()).norm(), 0.0);
  }
}

// core/eigen_interop.hpp: Mat3's row-major (r, c) is Eigen's (r, c), and the round trips are exact.
TEST(EigenInterop, ConversionsKeepEveryEntryInPlace) {
  const Mat3 A{{1.5, -2.0, 3.25, 4.0, 5.5, -6.0, 7.0, 8.125, 9.0}};
  const Eigen::Matrix3d E = to_eigen(A);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(E(r, c), A.m[3 * r + c]);
  const Mat3 back = to_mat3(E);
  for (int k = 0; k < 9; ++k) EXPECT_EQ(back.m[k], A.m[k]);
  const Vec3 a{{0.1, -0.2, 0.3}};
  const Eigen::Vector3d e = to_eigen(a);
  EXPECT_EQ(e, Eigen::Vector3d(0.1, -0.2, 0.3));
  const Vec3 doubled = to_vec3(2.0 * e);  // an Eigen expression converts too
  for (int i = 0; i < 3; ++i) EXPECT_EQ(doubled[i], 2.0 * a[i]);
  EXPECT_EQ(to_mat3(E.transpose()).m[1], A.m[3]);
}

TEST(SmallMatrixOps, CholeskyAndTriangularSolvesMatchEigen) {
  test::Rng rng(32);
  for (int t = 0; t < 100; ++t) {
    const Eigen::Matrix3d X = to_eigen(outer_product(rng.vec(), rng.vec()) + rng.rotation());
    const Eigen::Matrix3d A = X * X.transpose() + 0.1 * Eigen::Matrix3d::Identity();
    Mat3 L{};
    ASSERT_TRUE(cholesky3(to_mat3(A), L));
    const Eigen::Matrix3d Le = to_eigen(L);
    EXPECT_LE((Le - Eigen::Matrix3d(A.llt().matrixL())).norm(), 1e-12 * A.norm());
    EXPECT_EQ(L(0, 1), 0.0);
    EXPECT_EQ(L(0, 2), 0.0);
    EXPECT_EQ(L(1, 2), 0.0);
    const Vec3 b = rng.vec();
    EXPECT_LE((Le * to_eigen(lower_solve(L, b)) - to_eigen(b)).norm(), 1e-12 * (1 + A.norm()));
    EXPECT_LE((Le.transpose() * to_eigen(lower_transpose_solve(L, b)) - to_eigen(b)).norm(), 1e-12 * (1 + A.norm()));
  }
  Mat3 L{};
  EXPECT_FALSE(cholesky3(Mat3{{-1, 0, 0, 0, 1, 0, 0, 0, 1}}, L));   // first pivot
  EXPECT_FALSE(cholesky3(Mat3{{1, 1, 0, 1, 1, 0, 0, 0, 1}}, L));    // second pivot zero
  EXPECT_FALSE(cholesky3(Mat3{{1, 0, 1, 0, 1, 0, 1, 0, 0.5}}, L));  // third pivot negative
  EXPECT_FALSE(cholesky3(Mat3{{INFINITY, 0, 0, 0, 1, 0, 0, 0, 1}}, L));
  EXPECT_TRUE(cholesky3(identity3(), L));
}

}  // namespace
}  // namespace sinew::core_small_matrix_ops_test
