// Vec3/Mat3 arithmetic, cross-product matrix, outer product and the 3x3 Cholesky factor and
// triangular solves of small_matrix_ops.hpp against Eigen.
#include "sinew/core/small_matrix_ops.hpp"

#include <gtest/gtest.h>

#include <limits>

#include "rigid_test_util.hpp"

namespace sinew::core_small_matrix_ops_test {
namespace {

using test::from_eigen;
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

TEST(SmallMatrixOps, CholeskyAndTriangularSolvesMatchEigen) {
  test::Rng rng(32);
  for (int t = 0; t < 100; ++t) {
    const Eigen::Matrix3d X = to_eigen(outer_product(rng.vec(), rng.vec()) + rng.rotation());
    const Eigen::Matrix3d A = X * X.transpose() + 0.1 * Eigen::Matrix3d::Identity();
    Mat3 L{};
    ASSERT_TRUE(cholesky3(from_eigen(A), L));
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
