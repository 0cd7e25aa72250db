#include "sinew/materials/small_dense.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>

#include "material_test_support.hpp"

namespace sinew::materials_small_dense_test {
namespace {

Mat12 random_symmetric(std::mt19937_64& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Mat12 A;
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c <= r; ++c) A(r, c) = A(c, r) = u(rng);
  return A;
}

TEST(SmallDense, JacobiEigenMatchesEigen) {
  std::mt19937_64 rng(31);
  for (int sample = 0; sample < 5; ++sample) {
    const Mat12 A = random_symmetric(rng);
    double lambda[12];
    Mat12 Q;
    jacobi_eigen_symmetric(A, lambda, Q);
    const Eigen::MatrixXd Ae = test::to_eigen(A), Qe = test::to_eigen(Q);
    Eigen::VectorXd l = Eigen::Map<Eigen::VectorXd>(lambda, 12);
    EXPECT_LE((Qe * l.asDiagonal() * Qe.transpose() - Ae).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LE((Qe.transpose() * Qe - Eigen::MatrixXd::Identity(12, 12)).cwiseAbs().maxCoeff(), 1e-12);
    std::sort(l.data(), l.data() + 12);
    const Eigen::VectorXd ref = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Ae).eigenvalues();
    EXPECT_LE((l - ref).cwiseAbs().maxCoeff(), 1e-12);
  }
}

TEST(SmallDense, ProjectPsdClampsNegativeEigenvaluesOnly) {
  std::mt19937_64 rng(32);
  const Mat12 A = random_symmetric(rng);  // indefinite with overwhelming probability
  Mat12 P = A;
  project_psd(P);
  const Eigen::MatrixXd Ae = test::to_eigen(A), Pe = test::to_eigen(P);
  Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> es(Ae);
  ASSERT_LT(es.eigenvalues().minCoeff(), 0.0);
  const Eigen::MatrixXd ref =
      es.eigenvectors() * es.eigenvalues().cwiseMax(0.0).asDiagonal() * es.eigenvectors().transpose();
  EXPECT_LE((Pe - ref).cwiseAbs().maxCoeff(), 1e-12);
  // A PSD matrix comes back bit for bit.
  Mat12 S;
  const Eigen::MatrixXd Se = Ae * Ae.transpose();
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) S(r, c) = Se(r, c);
  symmetrize(S);
  const Mat12 S0 = S;
  project_psd(S);
  for (int i = 0; i < 144; ++i) EXPECT_EQ(S.m[i], S0.m[i]);
}

}  // namespace
}  // namespace sinew::materials_small_dense_test
