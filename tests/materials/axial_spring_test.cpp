#include "sinew/materials/axial_spring.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"

namespace sinew::materials_axial_spring_test {
namespace {

// A nonlinear, velocity-dependent law F = k (l - r)^3 + k (l - r) + d ldot |ldot| to check the
// general F(l, ldot) chain rule of section 0.12 beyond the linear spring.
struct CubicLaw {
  double k = 50.0, r = 0.7, d = 3.0;
  AxialTension operator()(double l, double ldot) const {
    const double e = l - r;
    return AxialTension{k * e * e * e + k * e + d * ldot * std::fabs(ldot), 3 * k * e * e + k, 2 * d * std::fabs(ldot)};
  }
};

const Eigen::VectorXd kX = (Eigen::VectorXd(6) << 0.1, -0.3, 0.2, 1.0, 0.4, -0.5).finished();
const Eigen::VectorXd kV = (Eigen::VectorXd(6) << 0.5, -1.0, 0.3, -0.2, 0.7, 0.9).finished();

template <class Law>
Eigen::VectorXd forces(const Law& law, const Eigen::VectorXd& x, const Eigen::VectorXd& v) {
  Eigen::VectorXd f(6);
  axial_spring_forces(law, x.data(), v.data(), f.data());
  return f;
}

Eigen::MatrixXd to_eigen6(const Mat6& M) { return test::to_eigen(M); }

TEST(AxialSpring, ForceIsAlongTheSpringWithDamping) {
  const LinearAxialSpring spring{200.0, 4.0, 0.5};
  const Eigen::VectorXd f = forces(spring, kX, kV);
  const Eigen::Vector3d d = kX.segment<3>(3) - kX.segment<3>(0);
  const Eigen::Vector3d u = d.normalized();
  const double ldot = u.dot(kV.segment<3>(3) - kV.segment<3>(0));
  const double F = 200.0 * (d.norm() - 0.5) + 4.0 * ldot;
  EXPECT_LE((f.segment<3>(0) - F * u).cwiseAbs().maxCoeff(), 1e-12 * std::fabs(F));
  EXPECT_LE((f.segment<3>(3) + F * u).cwiseAbs().maxCoeff(), 1e-12 * std::fabs(F));
  EXPECT_GT(std::fabs(ldot), 0.1);  // the damping term is really exercised
  // A stretched spring at rest pulls point 1 towards point 2.
  const Eigen::VectorXd f0 = forces(spring, kX, Eigen::VectorXd::Zero(6));
  EXPECT_GT(f0.segment<3>(0).dot(d), 0.0);
}

TEST(AxialSpring, EnergyGradientIsMinusForce) {
  const LinearAxialSpring spring{200.0, 0.0, 0.5};
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
  EXPECT_TRUE(
      test::check_gradient([&](const Eigen::VectorXd& x) { return linear_axial_spring_energy(spring, x.data()); },
                           [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(-forces(spring, x, zero)); }, kX));
}

template <class Law>
void check_jacobians(const Law& law) {
  const auto dfdx = [&](const Eigen::VectorXd& x) {
    return to_eigen6(two_point_matrix(axial_spring_jacobian(law, x.data(), kV.data()).dfdx));
  };
  const auto dfdv = [&](const Eigen::VectorXd& v) {
    return to_eigen6(two_point_matrix(axial_spring_jacobian(law, kX.data(), v.data()).dfdv));
  };
  EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& x) { return forces(law, x, kV); }, dfdx, kX));
  EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& v) { return forces(law, kX, v); }, dfdv, kV));
}

TEST(AxialSpring, JacobiansMatchFiniteDifferencesForLinearLaw) {
  check_jacobians(LinearAxialSpring{200.0, 4.0, 0.5});
  check_jacobians(LinearAxialSpring{200.0, 4.0, 3.0});  // compressed
}

TEST(AxialSpring, JacobiansMatchFiniteDifferencesForGeneralLaw) { check_jacobians(CubicLaw{}); }

TEST(AxialSpring, DampingMakesThePositionJacobianNonSymmetric) {
  // The u (v2 - v1)^T U_p term of section 0.12: absent without damping.
  const Mat3 K = axial_spring_jacobian(LinearAxialSpring{200.0, 4.0, 0.5}, kX.data(), kV.data()).dfdx;
  const Mat3 K0 = axial_spring_jacobian(LinearAxialSpring{200.0, 0.0, 0.5}, kX.data(), kV.data()).dfdx;
  const Eigen::Matrix3d A = test::to_eigen(K), A0 = test::to_eigen(K0);
  EXPECT_GT((A - A.transpose()).cwiseAbs().maxCoeff(), 1e-3);
  EXPECT_LE((A0 - A0.transpose()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(AxialSpring, HessianAndProjectionOfLinearSpring) {
  for (double rest : {0.5, 3.0}) {  // stretched (PSD) and compressed (indefinite)
    const LinearAxialSpring spring{200.0, 0.0, rest};
    const Eigen::VectorXd zero = Eigen::VectorXd::Zero(6);
    const Eigen::MatrixXd H = to_eigen6(two_point_matrix(linear_axial_spring_stiffness(spring, kX.data(), false)));
    const Eigen::MatrixXd Hp = to_eigen6(two_point_matrix(linear_axial_spring_stiffness(spring, kX.data(), true)));
    EXPECT_TRUE(
        test::check_jacobian([&](const Eigen::VectorXd& x) { return Eigen::VectorXd(-forces(spring, x, zero)); },
                             [&](const Eigen::VectorXd&) { return H; }, kX));
    const double min_eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff();
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues().minCoeff(), -1e-10);
    if (rest < 1.0) {
      EXPECT_GE(min_eig, -1e-10);
      EXPECT_LE((Hp - H).cwiseAbs().maxCoeff(), 1e-12);
    } else {
      EXPECT_LT(min_eig, -1.0);
      // Only the normal directions change; the axial stiffness k u u^T stays.
      const Eigen::Vector3d u = (kX.segment<3>(3) - kX.segment<3>(0)).normalized();
      Eigen::VectorXd w(6);
      w << -u, u;
      EXPECT_NEAR(w.dot(Hp * w), w.dot(H * w), 1e-9);
    }
  }
}

TEST(AxialSpring, ValidateRejectsNegativeParameters) {
  EXPECT_NO_THROW(validate(LinearAxialSpring{}));
  EXPECT_SINEW_ERROR(validate(LinearAxialSpring{-1.0, 0.0, 0.0}), "stiffness", ">= 0");
  EXPECT_SINEW_ERROR(validate(LinearAxialSpring{1.0, -0.1, 0.0}), "damping");
  EXPECT_SINEW_ERROR(validate(LinearAxialSpring{1.0, 0.0, std::numeric_limits<double>::quiet_NaN()}), "rest_length");
}

}  // namespace
}  // namespace sinew::materials_axial_spring_test
