// Per-F checks shared by every isotropic model (linear, co-rotational, ARAP, St. Venant-Kirchhoff,
// stable Neo-Hookean), as one typed suite so that each model passes the same physics.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "finite_difference.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::materials_isotropic_models_test {
namespace {

using test::Deformation;

// E = 1e5 Pa, nu = 0.3: mu ~ 3.8e4, lambda ~ 5.8e4, the cloth/soft-solid scale of the seed paper.
const ElasticParameters kElastic{1e5, 0.3};

template <class Model>
struct ModelTraits {
  static constexpr bool kRotationInvariant = true;
  static constexpr bool kHasVolumeTerm = true;  // false: lambda ignored (ARAP)
  static constexpr bool kCanBeIndefinite = true;
};
template <>
struct ModelTraits<LinearElasticity> {
  static constexpr bool kRotationInvariant = false;
  static constexpr bool kHasVolumeTerm = true;
  static constexpr bool kCanBeIndefinite = false;
};
template <>
struct ModelTraits<Arap> {
  static constexpr bool kRotationInvariant = true;
  static constexpr bool kHasVolumeTerm = false;
  static constexpr bool kCanBeIndefinite = true;
};

template <class Model>
class IsotropicModel : public ::testing::Test {
 protected:
  LameParameters lame_ = lame_parameters(kElastic);

  Eigen::VectorXd stress(const Eigen::VectorXd& f) const { return test::vec(Model::stress(test::unvec(f), lame_)); }
  double energy(const Eigen::VectorXd& f) const { return Model::energy(test::unvec(f), lame_); }
  Eigen::MatrixXd hessian(const Eigen::VectorXd& f) const {
    return test::to_eigen(Model::hessian(test::unvec(f), lame_));
  }

  // The lateral stretch s of F = diag(1 + e, 1 + s, 1 + s) where P_yy = 0 (free lateral faces),
  // by bisection on [-e, e], where P_yy changes sign for nu in (-1, 0.5).
  double free_lateral_strain(double e) const {
    double lo = -e, hi = e;
    for (int it = 0; it < 200; ++it) {
      const double mid = 0.5 * (lo + hi);
      const double pyy = Model::stress(diagonal3(1 + e, 1 + mid, 1 + mid), lame_)(1, 1);
      (pyy > 0 ? hi : lo) = mid;
    }
    return 0.5 * (lo + hi);
  }
};

using Models = ::testing::Types<LinearElasticity, Corotational, Arap, StVenantKirchhoff, StableNeoHookean>;
TYPED_TEST_SUITE(IsotropicModel, Models);

TYPED_TEST(IsotropicModel, StressIsEnergyGradientAndHessianIsStressDerivative) {
  std::mt19937_64 rng(11);
  // The FD step is relative to F ~ 1, the tolerance relative to the largest entry.
  test::FdOptions opt;
  opt.rel_tol = 1e-6;
  for (Deformation kind : {Deformation::kMild, Deformation::kStrong, Deformation::kInverted})
    for (int sample = 0; sample < 4; ++sample) {
      const Eigen::VectorXd f = test::vec(test::random_deformation(rng, kind));
      SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " sample " << sample);
      EXPECT_TRUE(test::check_gradient([&](const Eigen::VectorXd& y) { return this->energy(y); },
                                       [&](const Eigen::VectorXd& y) { return this->stress(y); }, f, opt));
      EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& y) { return this->stress(y); },
                                       [&](const Eigen::VectorXd& y) { return this->hessian(y); }, f, opt));
    }
}

TYPED_TEST(IsotropicModel, HessianIsSymmetric) {
  std::mt19937_64 rng(12);
  for (Deformation kind : {Deformation::kMild, Deformation::kStrong, Deformation::kInverted}) {
    const Eigen::MatrixXd H = this->hessian(test::vec(test::random_deformation(rng, kind)));
    EXPECT_LE((H - H.transpose()).cwiseAbs().maxCoeff(), 1e-10 * H.cwiseAbs().maxCoeff());
  }
}

TYPED_TEST(IsotropicModel, ZeroEnergyAndStressAtRest) {
  const Mat3 I = identity3();
  EXPECT_NEAR(TypeParam::energy(I, this->lame_), 0.0, 1e-12 * this->lame_.mu);
  EXPECT_LE(test::to_eigen(TypeParam::stress(I, this->lame_)).cwiseAbs().maxCoeff(), 1e-12 * this->lame_.mu);
}

TYPED_TEST(IsotropicModel, RigidRotationCostsNothingExactlyWhenRotationInvariant) {
  std::mt19937_64 rng(13);
  for (int sample = 0; sample < 5; ++sample) {
    const Mat3 R = to_mat3(test::random_rotation(rng));
    const double psi = TypeParam::energy(R, this->lame_);
    const double stress = test::to_eigen(TypeParam::stress(R, this->lame_)).cwiseAbs().maxCoeff();
    if (ModelTraits<TypeParam>::kRotationInvariant) {
      EXPECT_NEAR(psi, 0.0, 1e-10 * this->lame_.mu);
      EXPECT_LE(stress, 1e-10 * this->lame_.mu);
    } else {  // the linear model's known flaw: a finite rotation strains it
      EXPECT_GT(psi, 1e-3 * this->lame_.mu);
    }
  }
}

TYPED_TEST(IsotropicModel, StressRotatesWithTheDeformationExactlyWhenRotationInvariant) {
  // Frame indifference: P(Q F) = Q P(F) for rotation-invariant models; the linear model breaks it.
  std::mt19937_64 rng(14);
  const Mat3 F = test::random_deformation(rng, Deformation::kStrong);
  const Mat3 Q = to_mat3(test::random_rotation(rng));
  const Eigen::Matrix3d lhs = test::to_eigen(TypeParam::stress(Q * F, this->lame_));
  const Eigen::Matrix3d rhs = test::to_eigen(Q) * test::to_eigen(TypeParam::stress(F, this->lame_));
  const double error = (lhs - rhs).cwiseAbs().maxCoeff(), scale = rhs.cwiseAbs().maxCoeff();
  if (ModelTraits<TypeParam>::kRotationInvariant) {
    EXPECT_LE(error, 1e-9 * scale);
  } else {
    EXPECT_GT(error, 1e-2 * scale);
  }
}

TYPED_TEST(IsotropicModel, SmallStrainResponseEqualsLinearElasticity) {
  // Rest Hessians agree exactly (ARAP with lambda = 0); energies agree to O(strain^3).
  LameParameters reference = this->lame_;
  if (!ModelTraits<TypeParam>::kHasVolumeTerm) reference.lambda = 0.0;
  const Eigen::MatrixXd H = test::to_eigen(TypeParam::hessian(identity3(), this->lame_));
  const Eigen::MatrixXd H_lin = test::to_eigen(LinearElasticity::hessian(identity3(), reference));
  EXPECT_LE((H - H_lin).cwiseAbs().maxCoeff(), 1e-9 * H_lin.cwiseAbs().maxCoeff());
  std::mt19937_64 rng(15);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  for (int sample = 0; sample < 5; ++sample) {
    Mat3 F = identity3();
    for (double& v : F.m) v += 1e-4 * u(rng);
    const double psi_lin = LinearElasticity::energy(F, reference);
    EXPECT_NEAR(TypeParam::energy(F, this->lame_), psi_lin, 1e-3 * psi_lin);
  }
}

TYPED_TEST(IsotropicModel, UniaxialStretchGivesYoungsModulusAndPoissonRatio) {
  const double e = 1e-5;
  const double s = this->free_lateral_strain(e);
  const double pxx = TypeParam::stress(diagonal3(1 + e, 1 + s, 1 + s), this->lame_)(0, 0);
  // ARAP has no volume term: E = 2 mu, nu = 0.
  const bool volume = ModelTraits<TypeParam>::kHasVolumeTerm;
  const double E = volume ? kElastic.youngs_modulus : 2.0 * this->lame_.mu;
  const double nu = volume ? kElastic.poisson_ratio : 0.0;
  EXPECT_NEAR(pxx / e, E, 1e-4 * E);
  EXPECT_NEAR(-s / e, nu, 1e-4);
}

TYPED_TEST(IsotropicModel, NonlinearModelsAreIndefiniteSomewhere) {
  // Inverted elements give negative dP/dF eigenvalues for every nonlinear model (the reason for
  // the projected Hessian); the linear model's is constant and PSD, with the three infinitesimal
  // rotations (skew dF) as its null space.
  std::mt19937_64 rng(16);
  double min_eig = 1e300;
  for (int sample = 0; sample < 5; ++sample) {
    const Eigen::MatrixXd H = this->hessian(test::vec(test::random_deformation(rng, Deformation::kInverted)));
    min_eig = std::min(min_eig, Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff());
  }
  if (ModelTraits<TypeParam>::kCanBeIndefinite) {
    EXPECT_LT(min_eig, -1e-3 * this->lame_.mu);
  } else {
    EXPECT_GE(min_eig, -1e-9 * this->lame_.mu);
  }
}

TEST(StableNeoHookean, FiniteAndResistingForFlatAndInvertedElements) {
  const LameParameters p = lame_parameters(kElastic);
  // Squeezing one axis through zero: the energy stays finite, keeps growing and the stress keeps
  // pushing back (P_zz < 0 for J < 1 means an outward restoring force).
  double previous = -1.0;
  for (double sz : {1.0, 0.5, 0.0, -0.5, -1.0}) {
    const Mat3 F = diagonal3(1.0, 1.0, sz);
    const double psi = StableNeoHookean::energy(F, p);
    const Eigen::Matrix3d P = test::to_eigen(StableNeoHookean::stress(F, p));
    const Eigen::MatrixXd H = test::to_eigen(StableNeoHookean::hessian(F, p));
    EXPECT_TRUE(std::isfinite(psi) && P.allFinite() && H.allFinite()) << "sz = " << sz;
    EXPECT_GT(psi, previous) << "sz = " << sz;
    if (sz < 1.0) {
      EXPECT_LT(P(2, 2), 0.0) << "sz = " << sz;
    }
    previous = psi;
  }
  EXPECT_TRUE(std::isfinite(StableNeoHookean::energy(Mat3{}, p)));  // F = 0, fully collapsed
}

TEST(Arap, LocalProjectionIsThePolarRotation) {
  std::mt19937_64 rng(17);
  for (Deformation kind : {Deformation::kMild, Deformation::kInverted}) {
    const Eigen::Matrix3d R0 = test::random_rotation(rng);
    Eigen::Matrix3d S = Eigen::Matrix3d::Random();
    S = S * S.transpose() + 0.5 * Eigen::Matrix3d::Identity();  // SPD stretch
    if (kind == Deformation::kInverted) S = S * Eigen::Vector3d(1, 1, -1).asDiagonal();
    const Eigen::Matrix3d R = test::to_eigen(rotation_local_projection(to_mat3(R0 * S)));
    EXPECT_NEAR(R.determinant(), 1.0, 1e-12);
    EXPECT_LE((R.transpose() * R - Eigen::Matrix3d::Identity()).cwiseAbs().maxCoeff(), 1e-12);
    if (kind == Deformation::kMild) {
      EXPECT_LE((R - R0).cwiseAbs().maxCoeff(), 1e-12);
    }
    // R minimizes ||F - R||: no nearby rotation does better.
    const Eigen::Matrix3d F = R0 * S;
    const double best = (F - R).squaredNorm();
    for (int k = 0; k < 20; ++k) {
      const Eigen::Matrix3d dR = Eigen::AngleAxisd(1e-3, Eigen::Vector3d::Random().normalized()).toRotationMatrix();
      EXPECT_GE((F - R * dR).squaredNorm(), best - 1e-12);
    }
  }
}

}  // namespace
}  // namespace sinew::materials_isotropic_models_test
