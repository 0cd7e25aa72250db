#include "sinew/materials/rayleigh_damping.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "expect_error.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew::materials_rayleigh_damping_test {
namespace {

constexpr double kRest[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};

TEST(RayleighDamping, MatrixAndForceOfATetrahedron) {
  const TetRest rest = make_tet_rest(kRest);
  const LameParameters lame = lame_parameters({1e4, 0.3});
  const double x[12] = {0.1, 0, 0, 1.3, 0.1, 0, -0.2, 0.9, 0.1, 0, 0.2, 0.7};
  Mat12 K, M{}, D;
  tet_projected_hessian<StableNeoHookean>(rest, x, lame, K);
  for (int i = 0; i < 12; ++i) M(i, i) = 1000.0 * rest.volume / 4.0;  // lumped mass, density 1000
  const RayleighDamping damping{0.5, 0.01};
  rayleigh_damping_matrix(damping, M, K, D);
  const Eigen::MatrixXd De = test::to_eigen(D);
  EXPECT_LE((De - (0.5 * test::to_eigen(M) + 0.01 * test::to_eigen(K))).cwiseAbs().maxCoeff(), 1e-12 * De.norm());
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(De).eigenvalues().minCoeff(), 0.0);  // alpha > 0: PD
  // Force = -D v; a rigid translation is damped only by the mass term.
  Eigen::VectorXd v = Eigen::VectorXd::LinSpaced(12, -1.0, 1.0), f(12);
  rayleigh_damping_force(damping, M, K, v.data(), f.data());
  EXPECT_LE((f + De * v).cwiseAbs().maxCoeff(), 1e-12 * (De * v).norm());
  Eigen::VectorXd t(12);
  for (int a = 0; a < 4; ++a) t.segment<3>(3 * a) = Eigen::Vector3d(1, -2, 0.5);
  rayleigh_damping_force(RayleighDamping{0.0, 0.01}, M, K, t.data(), f.data());
  EXPECT_LE(f.cwiseAbs().maxCoeff(), 1e-10 * test::to_eigen(K).norm());
}

TEST(RayleighDamping, ValidateRejectsNegativeCoefficients) {
  EXPECT_NO_THROW(validate(RayleighDamping{}));
  EXPECT_SINEW_ERROR(validate(RayleighDamping{-0.1, 0.0}), "mass_coefficient", ">= 0");
  EXPECT_SINEW_ERROR(validate(RayleighDamping{0.0, -0.1}), "stiffness_coefficient", ">= 0");
}

}  // namespace
}  // namespace sinew::materials_rayleigh_damping_test
