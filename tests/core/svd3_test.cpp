// svd3 / polar_rotation against Eigen's JacobiSVD on random, inverted, flat and degenerate
// matrices: reconstruction, orthonormality, proper rotations, singular values.
#include "sinew/core/svd3.hpp"
#include "sinew/core/eigen_interop.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <limits>
#include <random>

namespace sinew::core_svd3_test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// Checks F = U diag(sigma) V^T, U and V proper rotations, |sigma| sorted and matching Eigen's
// singular values, and the sign convention sigma2 < 0 iff det F < 0.
void check_svd(const Eigen::Matrix3d& F) {
  const Svd3 s = svd3(to_mat3(F));
  const Eigen::Matrix3d U = to_eigen(s.U), V = to_eigen(s.V);
  const Eigen::Vector3d sigma(s.sigma[0], s.sigma[1], s.sigma[2]);
  const double scale = std::max(F.norm(), 1e-300);
  EXPECT_LE((U * sigma.asDiagonal() * V.transpose() - F).norm(), 64 * kEps * scale) << F;
  EXPECT_LE((U.transpose() * U - Eigen::Matrix3d::Identity()).norm(), 64 * kEps);
  EXPECT_LE((V.transpose() * V - Eigen::Matrix3d::Identity()).norm(), 64 * kEps);
  EXPECT_NEAR(U.determinant(), 1.0, 64 * kEps);
  EXPECT_NEAR(V.determinant(), 1.0, 64 * kEps);
  const Eigen::Vector3d ref = Eigen::JacobiSVD<Eigen::Matrix3d>(F).singularValues();
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(std::fabs(sigma[i]), ref[i], 64 * kEps * scale) << "sigma " << i << "\n" << F;
  EXPECT_GE(sigma[0], 0.0);
  EXPECT_GE(sigma[1], 0.0);
  if (F.determinant() < -64 * kEps * scale * scale * scale) {
    EXPECT_LT(sigma[2], 0.0);
  }
  if (F.determinant() > 64 * kEps * scale * scale * scale) {
    EXPECT_GT(sigma[2], 0.0);
  }
}

TEST(Svd3, RandomMatrices) {
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 2000; ++t) {
    Eigen::Matrix3d F;
    for (int k = 0; k < 9; ++k) F.data()[k] = u(rng);
    check_svd(F);
  }
}

TEST(Svd3, InvertedElementsPutTheSignInTheSmallestValue) {
  std::mt19937_64 rng(2);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 500; ++t) {
    Eigen::Matrix3d F = Eigen::Matrix3d::Identity() + 0.3 * Eigen::Matrix3d::NullaryExpr([&] { return u(rng); });
    F.col(t % 3) *= -1.0;  // reflect: det F < 0
    ASSERT_LT(F.determinant(), 0.0);
    check_svd(F);
    EXPECT_LT(svd3(to_mat3(F)).sigma[2], 0.0);
  }
}

TEST(Svd3, DegenerateAndIllConditioned) {
  check_svd(Eigen::Matrix3d::Zero());
  check_svd(Eigen::Matrix3d::Identity());
  check_svd(-Eigen::Matrix3d::Identity());
  check_svd(Eigen::Vector3d(3, 3, 3).asDiagonal());                   // repeated singular values
  check_svd(Eigen::Vector3d(1, 1e-9, 0).asDiagonal());                // rank one and a half
  check_svd(Eigen::Vector3d(1, 0, 0) * Eigen::RowVector3d(1, 2, 3));  // rank one
  Eigen::Matrix3d flat = Eigen::Matrix3d::Random();
  flat.col(2) = flat.col(0) + flat.col(1);  // rank two
  check_svd(flat);
  check_svd(Eigen::Vector3d(1e8, 1, 1e-8).asDiagonal());  // condition 1e16
}

TEST(Svd3, SmallSingularValuesKeepRelativeAccuracy) {
  // A rotated diag(1, 1e-3, 1e-7): one-sided Jacobi recovers 1e-7 to relative precision, which
  // an eigen-decomposition of F^T F (condition 1e14) could not.
  const Eigen::Matrix3d Q = Eigen::Quaterniond(0.3, -0.5, 0.7, 0.2).normalized().toRotationMatrix();
  const Eigen::Matrix3d P = Eigen::Quaterniond(-0.1, 0.8, 0.4, 0.3).normalized().toRotationMatrix();
  const Eigen::Matrix3d F = Q * Eigen::Vector3d(1, 1e-3, 1e-7).asDiagonal() * P.transpose();
  const Svd3 s = svd3(to_mat3(F));
  EXPECT_NEAR(s.sigma[2], 1e-7, 1e-7 * 1e-6);
  EXPECT_NEAR(s.sigma[1], 1e-3, 1e-3 * 1e-10);
}

TEST(PolarRotation, IsTheClosestRotation) {
  std::mt19937_64 rng(3);
  std::uniform_real_distribution<double> u(-1, 1);
  for (int t = 0; t < 500; ++t) {
    Eigen::Matrix3d F;
    for (int k = 0; k < 9; ++k) F.data()[k] = u(rng);
    const Eigen::Matrix3d R = to_eigen(polar_rotation(to_mat3(F)));
    EXPECT_NEAR(R.determinant(), 1.0, 1e-13);
    EXPECT_LE((R.transpose() * R - Eigen::Matrix3d::Identity()).norm(), 1e-13);
    if (F.determinant() > 0) {  // then S = R^T F is symmetric positive definite
      const Eigen::Matrix3d S = R.transpose() * F;
      EXPECT_LE((S - S.transpose()).norm(), 1e-13);
      EXPECT_GT(S.selfadjointView<Eigen::Lower>().eigenvalues().minCoeff(), 0.0);
    }
    // No rotation is closer: perturbing R along any generator increases ||F - R||.
    const double d0 = (F - R).norm();
    for (int a = 0; a < 3; ++a) {
      const Eigen::Matrix3d dR = R * Eigen::AngleAxisd(1e-4, Eigen::Vector3d::Unit(a)).toRotationMatrix();
      const Eigen::Matrix3d dR2 = R * Eigen::AngleAxisd(-1e-4, Eigen::Vector3d::Unit(a)).toRotationMatrix();
      EXPECT_GE((F - dR).norm(), d0 - 1e-12);
      EXPECT_GE((F - dR2).norm(), d0 - 1e-12);
    }
  }
}

TEST(PolarRotation, RecoversAKnownRotation) {
  const Eigen::Matrix3d Q = Eigen::AngleAxisd(0.9, Eigen::Vector3d(1, 2, -1).normalized()).toRotationMatrix();
  const Eigen::Matrix3d S = (Eigen::Matrix3d() << 2, 0.3, 0.1, 0.3, 1.5, -0.2, 0.1, -0.2, 0.8).finished();
  const Eigen::Matrix3d R = to_eigen(polar_rotation(to_mat3(Q * S)));
  EXPECT_LE((R - Q).norm(), 1e-14);
}

}  // namespace
}  // namespace sinew::core_svd3_test
