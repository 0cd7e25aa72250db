#include "sinew/materials/quadratic_bending.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"

namespace sinew::materials_quadratic_bending_test {
namespace {

// A flat, irregular hinge in the z = 0 plane: edge x0 x1, opposite vertices x2 (y > 0), x3 (y < 0).
constexpr double kFlat[12] = {0.0, 0.0, 0.0, 1.0, 0.1, 0.0, 0.4, 0.8, 0.0, 0.7, -0.6, 0.0};

// The hinge folded about its edge by the dihedral angle theta: x3 rotated about the edge axis.
Eigen::VectorXd folded(double theta) {
  Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(kFlat, 12);
  const Eigen::Vector3d a = x.segment<3>(0), axis = (x.segment<3>(3) - a).normalized();
  x.segment<3>(9) = a + Eigen::AngleAxisd(theta, axis) * (x.segment<3>(9) - a);
  return x;
}

TEST(QuadraticBending, FlatHingeAndItsRigidMotionsCostNothing) {
  const BendingHinge h = make_bending_hinge(kFlat);
  // The cotangent weights reproduce linear functions: sum_i K_i x_i = 0 on the flat hinge.
  for (int d = 0; d < 3; ++d) {
    double s = 0.0;
    for (int i = 0; i < 4; ++i) s += h.K[i] * kFlat[3 * i + d];
    EXPECT_NEAR(s, 0.0, 1e-12);
  }
  EXPECT_GT(std::fabs(h.K[0]) + std::fabs(h.K[2]), 0.5);
  std::mt19937_64 rng(51);
  const Eigen::Matrix3d R = test::random_rotation(rng);
  Eigen::VectorXd x(12);
  for (int i = 0; i < 4; ++i)
    x.segment<3>(3 * i) =
        R * Eigen::Vector3d(kFlat[3 * i], kFlat[3 * i + 1], kFlat[3 * i + 2]) + Eigen::Vector3d(1, 2, 3);
  EXPECT_NEAR(bending_energy(h, 2.0, x.data()), 0.0, 1e-12);
  Eigen::VectorXd g(12);
  bending_gradient(h, 2.0, x.data(), g.data());
  EXPECT_LE(g.cwiseAbs().maxCoeff(), 1e-12);
}

TEST(QuadraticBending, EnergyGrowsWithTheSquareOfTheFoldAngle) {
  const BendingHinge h = make_bending_hinge(kFlat);
  const double e1 = bending_energy(h, 1.0, folded(0.01).data()), e2 = bending_energy(h, 1.0, folded(0.02).data());
  EXPECT_GT(e1, 0.0);
  EXPECT_NEAR(e2 / e1, 4.0, 1e-3);
  // Folding up or down costs the same.
  EXPECT_NEAR(bending_energy(h, 1.0, folded(-0.01).data()), e1, 1e-9 * e1);
}

TEST(QuadraticBending, GradientAndHessianMatchFiniteDifferencesAndHessianIsPsd) {
  const BendingHinge h = make_bending_hinge(kFlat);
  const double k = 3.0;
  std::mt19937_64 rng(52);
  std::uniform_real_distribution<double> u(-0.3, 0.3);
  Eigen::VectorXd x = folded(0.7);
  for (int i = 0; i < 12; ++i) x[i] += u(rng);
  const auto grad = [&](const Eigen::VectorXd& y) {
    Eigen::VectorXd g(12);
    bending_gradient(h, k, y.data(), g.data());
    return g;
  };
  Mat12 H;
  bending_hessian(h, k, H);
  const Eigen::MatrixXd He = test::to_eigen(H);
  EXPECT_TRUE(test::check_gradient([&](const Eigen::VectorXd& y) { return bending_energy(h, k, y.data()); }, grad, x));
  EXPECT_TRUE(test::check_jacobian(
      grad, [&](const Eigen::VectorXd&) { return He; }, x));
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(He).eigenvalues().minCoeff(), -1e-12 * He.norm());
}

TEST(QuadraticBending, RejectsDegenerateHinges) {
  double X[12];
  std::copy(kFlat, kFlat + 12, X);
  X[9] = 2.0, X[10] = 0.2, X[11] = 0.0;  // x3 on the edge line: triangle (x0, x1, x3) is flat
  EXPECT_SINEW_ERROR(make_bending_hinge(X), "bending hinge", "(x0, x1, x3)", "degenerate");
}

}  // namespace
}  // namespace sinew::materials_quadratic_bending_test
