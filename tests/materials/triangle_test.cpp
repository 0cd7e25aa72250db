#include "sinew/materials/triangle.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <type_traits>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/membrane_models.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::materials_triangle_test {
namespace {

using test::Deformation;

// An irregular rest triangle, tilted out of every coordinate plane.
constexpr double kRest[9] = {0.1, -0.2, 0.3, 1.2, 0.1, 0.05, 0.3, 1.1, 0.6};

Eigen::Vector3d rest_vertex(int a) { return Eigen::Vector3d(kRest[3 * a], kRest[3 * a + 1], kRest[3 * a + 2]); }

// x_a = F X_a + t plus noise, F a random 3D deformation (its in-plane part stretches the membrane).
Eigen::VectorXd deformed(std::mt19937_64& rng, Deformation kind, double noise) {
  const Eigen::Matrix3d F = test::to_eigen(test::random_deformation(rng, kind));
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  const Eigen::Vector3d t(u(rng), u(rng), u(rng));
  Eigen::VectorXd x(9);
  for (int a = 0; a < 3; ++a)
    x.segment<3>(3 * a) = F * rest_vertex(a) + t + noise * Eigen::Vector3d(u(rng), u(rng), u(rng));
  return x;
}

template <class Model>
struct MembraneTraits {
  static constexpr bool kRotationInvariant = true;
  static constexpr bool kHasVolumeTerm = true;
};
template <>
struct MembraneTraits<MembraneLinear> {
  static constexpr bool kRotationInvariant = false;
  static constexpr bool kHasVolumeTerm = true;
};
template <>
struct MembraneTraits<MembraneArap> {
  static constexpr bool kRotationInvariant = true;
  static constexpr bool kHasVolumeTerm = false;
};

template <class Model>
class TriElement : public ::testing::Test {
 protected:
  TriRest rest_ = make_tri_rest(kRest);
  LameParameters lame_ = lame_parameters({1e5, 0.3});

  double energy(const Eigen::VectorXd& x) const { return tri_energy<Model>(rest_, x.data(), lame_); }
  Eigen::VectorXd gradient(const Eigen::VectorXd& x) const {
    Eigen::VectorXd g(9);
    tri_gradient<Model>(rest_, x.data(), lame_, g.data());
    return g;
  }
  Eigen::MatrixXd hessian(const Eigen::VectorXd& x, bool projected) const {
    Mat9 H;
    if (projected) {
      tri_projected_hessian<Model>(rest_, x.data(), lame_, H);
    } else {
      tri_hessian<Model>(rest_, x.data(), lame_, H);
    }
    return test::to_eigen(H);
  }
  Eigen::VectorXd rest_positions() const { return Eigen::Map<const Eigen::VectorXd>(kRest, 9); }
};

using Models = ::testing::Types<MembraneLinear, MembraneCorotational, MembraneArap, MembraneStVenantKirchhoff,
                                MembraneStableNeoHookean>;
TYPED_TEST_SUITE(TriElement, Models);

TYPED_TEST(TriElement, GradientAndHessianMatchFiniteDifferences) {
  std::mt19937_64 rng(41);
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

TYPED_TEST(TriElement, RestIsForceFreeAndRigidMotionTooWhenRotationInvariant) {
  const double scale = this->lame_.mu * this->rest_.area;
  EXPECT_NEAR(this->energy(this->rest_positions()), 0.0, 1e-12 * scale);
  EXPECT_LE(this->gradient(this->rest_positions()).cwiseAbs().maxCoeff(), 1e-11 * scale);
  std::mt19937_64 rng(42);
  const Eigen::Matrix3d R = test::random_rotation(rng);
  Eigen::VectorXd x(9);
  for (int a = 0; a < 3; ++a) x.segment<3>(3 * a) = R * rest_vertex(a) + Eigen::Vector3d(1, -2, 3);
  if (MembraneTraits<TypeParam>::kRotationInvariant) {
    EXPECT_NEAR(this->energy(x), 0.0, 1e-10 * scale);
    EXPECT_LE(this->gradient(x).cwiseAbs().maxCoeff(), 1e-10 * scale);
  } else {
    EXPECT_GT(this->energy(x), 1e-3 * scale);
  }
}

TYPED_TEST(TriElement, RestHessianEqualsLinearMembrane) {
  LameParameters reference = this->lame_;
  if (!MembraneTraits<TypeParam>::kHasVolumeTerm) reference.lambda = 0.0;
  Mat9 H_lin;
  tri_hessian<MembraneLinear>(this->rest_, kRest, reference, H_lin);
  const Eigen::MatrixXd H = this->hessian(this->rest_positions(), false), L = test::to_eigen(H_lin);
  EXPECT_LE((H - L).cwiseAbs().maxCoeff(), 1e-9 * L.cwiseAbs().maxCoeff());
}

TYPED_TEST(TriElement, UniaxialStretchGivesPlaneStrainModulus) {
  // In-plane uniaxial stress with the thickness stretch held at 1 (plane strain):
  // P_xx / e = E / (1 - nu^2), lateral strain -nu / (1 - nu) e; ARAP (nu = 0): 2 mu and 0.
  const double e = 1e-5;
  const auto stress = [&](double s) {
    const double y[6] = {1 + e, 0, 0, 0, 1 + s, 0};  // F = diag(1+e, 1+s) in the rest frame axes
    double P[6];
    TypeParam::stress(y, TriRest{{1, 0, 0, 1}, 1.0, Vec3{{1, 0, 0}}, Vec3{{0, 1, 0}}}, this->lame_, P);
    return Eigen::Vector2d(P[0], P[4]);
  };
  double lo = -e, hi = e;
  for (int it = 0; it < 200; ++it) {
    const double mid = 0.5 * (lo + hi);
    (stress(mid)[1] > 0 ? hi : lo) = mid;
  }
  const double s = 0.5 * (lo + hi);
  const bool volume = MembraneTraits<TypeParam>::kHasVolumeTerm;
  const double E = volume ? 1e5 : 2.0 * this->lame_.mu, nu = volume ? 0.3 : 0.0;
  EXPECT_NEAR(stress(s)[0] / e, E / (1 - nu * nu), 1e-4 * E);
  EXPECT_NEAR(-s / e, nu / (1 - nu), 1e-4);
}

TYPED_TEST(TriElement, ProjectedHessianIsPsdAndExactWhereHessianIsPsd) {
  std::mt19937_64 rng(43);
  int definite = 0;
  for (Deformation kind : {Deformation::kMild, Deformation::kStrong})
    for (int sample = 0; sample < 4; ++sample) {
      const Eigen::VectorXd x = deformed(rng, kind, 0.05);
      const Eigen::MatrixXd H = this->hessian(x, false), Hp = this->hessian(x, true);
      const double scale = H.cwiseAbs().maxCoeff();
      EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Hp).eigenvalues().minCoeff(), -1e-10 * scale);
      if (Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(H).eigenvalues().minCoeff() >= -1e-10 * scale) {
        ++definite;
        EXPECT_LE((Hp - H).cwiseAbs().maxCoeff(), 1e-10 * scale);
      } else {
        EXPECT_GT((Hp - H).cwiseAbs().maxCoeff(), 1e-6 * scale);
      }
    }
  EXPECT_GT(definite, 0);
}

// The membrane densities equal their 3D model at F3 = [f0 f1 n] (thickness stretch 1).
template <class Membrane, class Solid>
void expect_matches_3d(std::uint64_t seed) {
  const LameParameters p = lame_parameters({1e5, 0.3});
  std::mt19937_64 rng(seed);
  const TriRest rest = make_tri_rest(kRest);
  for (int sample = 0; sample < 5; ++sample) {
    const Eigen::VectorXd x = deformed(rng, Deformation::kStrong, 0.1);
    double y[6];
    tri_deformation_gradient(rest, x.data(), y);
    const Eigen::Vector3d f0(y[0], y[1], y[2]), f1(y[3], y[4], y[5]);
    Eigen::Matrix3d F3;
    F3 << f0, f1, f0.cross(f1).normalized();
    const double psi3 = Solid::energy(to_mat3(F3), p);
    EXPECT_NEAR(Membrane::energy(y, rest, p), psi3, 1e-10 * std::fabs(psi3));
    EXPECT_GT(std::fabs(psi3), 1e-3 * p.mu);
  }
}

TEST(MembraneModels, EqualThe3dModelsWithUnitThicknessStretch) {
  expect_matches_3d<MembraneStVenantKirchhoff, StVenantKirchhoff>(44);
  expect_matches_3d<MembraneCorotational, Corotational>(45);
  expect_matches_3d<MembraneArap, Arap>(46);
  expect_matches_3d<MembraneStableNeoHookean, StableNeoHookean>(47);
}

TEST(TriRest, AreaFrameAndRejection) {
  const double X[9] = {1, 1, 1, 3, 1, 1, 1, 1, 4};  // right triangle with legs 2 (x) and 3 (z)
  const TriRest r = make_tri_rest(X);
  EXPECT_NEAR(r.area, 3.0, 1e-14);
  double y[6];
  tri_deformation_gradient(r, X, y);  // at rest F = [t0 t1]
  for (int i = 0; i < 3; ++i) {
    EXPECT_NEAR(y[i], r.t0[i], 1e-14);
    EXPECT_NEAR(y[3 + i], r.t1[i], 1e-14);
  }
  const double line[9] = {0, 0, 0, 1, 1, 1, 2, 2, 2};
  EXPECT_SINEW_ERROR(make_tri_rest(line), "triangle rest shape", "area", "> 0");
}

}  // namespace
}  // namespace sinew::materials_triangle_test
