#include "sinew/materials/tetrahedron.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <array>
#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::materials_tetrahedron_test {
namespace {

using test::Deformation;

// An irregular, positively oriented rest tetrahedron (edges ~1).
constexpr double kRest[12] = {0.1, -0.2, 0.0, 1.2, 0.1, 0.05, 0.3, 1.1, -0.1, 0.2, 0.3, 0.9};

// Deformed coordinates: x_a = F X_a + t, plus per-vertex noise (so F is not exactly the sampled one).
Eigen::VectorXd deformed(std::mt19937_64& rng, Deformation kind, double noise) {
  const Eigen::Matrix3d F = test::to_eigen(test::random_deformation(rng, kind));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Vector3d t(u(rng), u(rng), u(rng));
  Eigen::VectorXd x(12);
  for (int a = 0; a < 4; ++a) {
    const Eigen::Vector3d X(kRest[3 * a], kRest[3 * a + 1], kRest[3 * a + 2]);
    x.segment<3>(3 * a) = F * X + t + noise * Eigen::Vector3d(u(rng), u(rng), u(rng));
  }
  return x;
}

template <class Model>
class TetElement : public ::testing::Test {
 protected:
  TetRest rest_ = make_tet_rest(kRest);
  LameParameters lame_ = lame_parameters({1e5, 0.3});

  double energy(const Eigen::VectorXd& x) const { return tet_energy<Model>(rest_, x.data(), lame_); }
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const {
    Eigen::VectorXd g(12);
    tet_gradient<Model>(rest_, x.data(), lame_, g.data());
    return g;
  }
  Eigen::MatrixXd hessian(const Eigen::VectorXd& x, bool projected) const {
    Mat12 H;
    if (projected) {
      tet_projected_hessian<Model>(rest_, x.data(), lame_, H);
    } else {
      tet_hessian<Model>(rest_, x.data(), lame_, H);
    }
    return test::to_eigen(H);
  }
};

using Models = ::testing::Types<LinearElasticity, Corotational, Arap, StVenantKirchhoff, StableNeoHookean>;
TYPED_TEST_SUITE(TetElement, Models);

TYPED_TEST(TetElement, GradientAndHessianMatchFiniteDifferences) {
  std::mt19937_64 rng(21);
  for (Deformation kind : {Deformation::kMild, Deformation::kStrong, Deformation::kInverted})
    for (int sample = 0; sample < 3; ++sample) {
      const Eigen::VectorXd x = deformed(rng, kind, 0.05);
      SCOPED_TRACE(::testing::Message() << "kind " << static_cast<int>(kind) << " sample " << sample);
      EXPECT_TRUE(test::check_gradient([&](const Eigen::VectorXd& y) { return this->energy(y); },
                                       [&](const Eigen::VectorXd& y) { return this->gradient(y); }, x));
      EXPECT_TRUE(test::check_jacobian([&](const Eigen::VectorXd& y) { return this->gradient(y); },
                                       [&](const Eigen::VectorXd& y) { return this->hessian(y, false); }, x));
    }
}

TYPED_TEST(TetElement, RestStateAndTranslationAreForceFree) {
  Eigen::VectorXd x(12);
  for (int a = 0; a < 4; ++a)
    x.segment<3>(3 * a) =
        Eigen::Vector3d(kRest[3 * a], kRest[3 * a + 1], kRest[3 * a + 2]) + Eigen::Vector3d(0.3, -2.0, 5.0);
  const double scale = this->lame_.mu * this->rest_.volume;
  EXPECT_NEAR(this->energy(x), 0.0, 1e-12 * scale);
  EXPECT_LE(this->gradient(x).cwiseAbs().maxCoeff(), 1e-11 * scale);
}

TYPED_TEST(TetElement, ForcesSumToZero) {
  // Internal forces: no net force on the element (translation invariance), also when inverted.
  std::mt19937_64 rng(22);
  for (Deformation kind : {Deformation::kStrong, Deformation::kInverted}) {
    const Eigen::VectorXd g = this->gradient(deformed(rng, kind, 0.05));
    const Eigen::Vector3d net = g.segment<3>(0) + g.segment<3>(3) + g.segment<3>(6) + g.segment<3>(9);
    EXPECT_GT(g.cwiseAbs().maxCoeff(), 0.0);
    EXPECT_LE(net.cwiseAbs().maxCoeff(), 1e-11 * g.cwiseAbs().maxCoeff());
  }
}

TYPED_TEST(TetElement, ProjectedHessianIsPsdAndExactWhereHessianIsPsd) {
  std::mt19937_64 rng(23);
  int indefinite = 0, definite = 0;
  for (Deformation kind : {Deformation::kMild, Deformation::kStrong, Deformation::kInverted})
    for (int sample = 0; sample < 4; ++sample) {
      const Eigen::VectorXd x = deformed(rng, kind, 0.05);
      const Eigen::MatrixXd H = this->hessian(x, false), Hp = this->hessian(x, true);
      const double scale = H.cwiseAbs().maxCoeff();
      const Eigen::VectorXd eig = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues();
      const Eigen::VectorXd eig_p = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues();
      EXPECT_GE(eig_p.minCoeff(), -1e-10 * scale);
      EXPECT_LE((Hp - Hp.transpose()).cwiseAbs().maxCoeff(), 1e-12 * scale);
      // The three translations stay in the null space of the projected Hessian.
      for (int axis = 0; axis < 3; ++axis) {
        Eigen::VectorXd t = Eigen::VectorXd::Zero(12);
        for (int a = 0; a < 4; ++a) t[3 * a + axis] = 1.0;
        EXPECT_LE((Hp * t).cwiseAbs().maxCoeff(), 1e-10 * scale);
      }
      if (eig.minCoeff() >= -1e-10 * scale) {
        ++definite;
        EXPECT_LE((Hp - H).cwiseAbs().maxCoeff(), 1e-10 * scale);
      } else {
        ++indefinite;
        EXPECT_GT((Hp - H).cwiseAbs().maxCoeff(), 1e-6 * scale);
        // Clamping removes only the negative part: Hp - H is PSD.
        const Eigen::MatrixXd D = Hp - H;
        EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(D).eigenvalues().minCoeff(), -1e-10 * scale);
      }
    }
  EXPECT_GT(definite, 0);  // both branches are exercised (mild stretch is PSD for every model)
  if (!std::is_same<TypeParam, LinearElasticity>::value) {
    EXPECT_GT(indefinite, 0);
  }
}

TEST(TetRest, VolumeAndDeformationGradient) {
  const double X[12] = {0, 0, 0, 2, 0, 0, 0, 3, 0, 0, 0, 4};
  const TetRest rest = make_tet_rest(X);
  EXPECT_NEAR(rest.volume, 2.0 * 3.0 * 4.0 / 6.0, 1e-14);
  // x = A X + t recovers F = A.
  const Eigen::Matrix3d A = (Eigen::Matrix3d() << 1.1, 0.2, -0.3, 0.0, 0.9, 0.4, 0.5, -0.1, 1.3).finished();
  double x[12];
  for (int a = 0; a < 4; ++a) {
    const Eigen::Vector3d y = A * Eigen::Vector3d(X[3 * a], X[3 * a + 1], X[3 * a + 2]) + Eigen::Vector3d(1, 2, 3);
    for (int i = 0; i < 3; ++i) x[3 * a + i] = y[i];
  }
  EXPECT_LE((test::to_eigen(tet_deformation_gradient(rest, x)) - A).cwiseAbs().maxCoeff(), 1e-14);
}

TEST(TetRest, RejectsDegenerateAndInvertedRestShapes) {
  const double flat[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 1, 1, 0};
  const double inverted[12] = {0, 0, 0, 0, 1, 0, 1, 0, 0, 0, 0, 1};
  EXPECT_SINEW_ERROR(make_tet_rest(flat), "tetrahedron rest shape", "signed volume", "> 0");
  EXPECT_SINEW_ERROR(make_tet_rest(inverted), "tetrahedron rest shape", "-0.166");
}

}  // namespace
}  // namespace sinew::materials_tetrahedron_test
