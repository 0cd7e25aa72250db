#include "sinew/materials/axial_stress_spring.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/axial_spring.hpp"

namespace sinew::materials_axial_stress_spring_test {
namespace {

const Eigen::VectorXd kX = (Eigen::VectorXd(6) << 0.1, -0.3, 0.2, 1.0, 0.4, -0.5).finished();

template <class Law>
Eigen::VectorXd forces(const Law& law, const Eigen::VectorXd& x) {
  Eigen::VectorXd f(6);
  axial_stress_forces(law, x.data(), f.data());
  return f;
}

TEST(AxialStressSpring, LinearStressFormEqualsTheLinearSpring) {
  // Section 0.13 reformulates section 0.12.1: same forces and same Jacobian.
  const double zero[6] = {0, 0, 0, 0, 0, 0};
  for (double rest : {0.0, 0.5, 3.0}) {
    const LinearAxialStress stress{200.0, rest};
    const LinearAxialSpring spring{200.0, 0.0, rest};
    double f_spring[6];
    axial_spring_forces(spring, kX.data(), zero, f_spring);
    const Eigen::VectorXd f = forces(stress, kX);
    for (int i = 0; i < 6; ++i) EXPECT_NEAR(f[i], f_spring[i], 1e-12 * f.norm());
    const Eigen::Matrix3d J = test::to_eigen(axial_stress_jacobian(stress, kX.data()));
    const Eigen::Matrix3d J_spring = test::to_eigen(axial_spring_jacobian(spring, kX.data(), zero).dfdx);
    EXPECT_LE((J - J_spring).cwiseAbs().maxCoeff(), 1e-12 * J.norm());
  }
  // Zero rest length: df1/dx1 = -k I.
  const Eigen::Matrix3d J0 = test::to_eigen(axial_stress_jacobian(LinearAxialStress{200.0, 0.0}, kX.data()));
  EXPECT_LE((J0 + 200.0 * Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(), 1e-12);
}

TEST(AxialStressSpring, GreenStrainEnergyForceAndJacobian) {
  for (double rest : {0.6, 2.5}) {  // stretched and strongly compressed
    const GreenStrainAxialStress law{300.0, rest};
    EXPECT_TRUE(
        test::check_gradient([&](const Eigen::VectorXd& x) { return green_strain_spring_energy(law, x.data()); },
                             [&](const Eigen::VectorXd& x) { return Eigen::VectorXd(-forces(law, x)); }, kX));
    EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& x) { return forces(law, x); },
                                     [&](const Eigen::VectorXd& x) {
                                       return test::to_eigen(two_point_matrix(axial_stress_jacobian(law, x.data())));
                                     },
                                     kX));
    const Eigen::MatrixXd H = test::to_eigen(two_point_matrix(green_strain_spring_stiffness(law, kX.data(), false)));
    const Eigen::MatrixXd Hp = test::to_eigen(two_point_matrix(green_strain_spring_stiffness(law, kX.data(), true)));
    const Eigen::MatrixXd minus_J = -test::to_eigen(two_point_matrix(axial_stress_jacobian(law, kX.data())));
    EXPECT_LE((H - minus_J).cwiseAbs().maxCoeff(), 1e-10 * H.norm());
    const double min_eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff();
    EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues().minCoeff(), -1e-10 * H.norm());
    if (rest < 1.0) {
      EXPECT_LE((Hp - H).cwiseAbs().maxCoeff(), 1e-12 * H.norm());
    } else {
      EXPECT_LT(min_eig, -1.0);
      EXPECT_GT((Hp - H).cwiseAbs().maxCoeff(), 1.0);
    }
  }
}

TEST(AxialStressSpring, ValidateGreenStrainLaw) {
  EXPECT_NO_THROW(validate(GreenStrainAxialStress{}));
  EXPECT_SINEW_ERROR(validate(GreenStrainAxialStress{-1.0, 1.0}), "stiffness", ">= 0");
  EXPECT_SINEW_ERROR(validate(GreenStrainAxialStress{1.0, 0.0}), "rest_length", "> 0");
}

}  // namespace
}  // namespace sinew::materials_axial_stress_spring_test
