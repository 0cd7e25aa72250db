#include "sinew/materials/material.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

#include "expect_error.hpp"
#include "finite_difference.hpp"
#include "material_test_support.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::materials_material_test {
namespace {

// Two tetrahedra sharing the face (1, 2, 3): vertices 0..4.
const std::vector<double> kRestX = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1, 1, 1, 1};
const std::vector<Index> kTets = {0, 1, 2, 3, 4, 3, 2, 1};

std::vector<TetRest> rests() {
  std::vector<TetRest> r;
  for (int e = 0; e < 2; ++e) {
    double X[12];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) X[3 * a + i] = kRestX[3 * kTets[4 * e + a] + i];
    r.push_back(make_tet_rest(X));
  }
  return r;
}

std::vector<double> deformed() {
  std::mt19937_64 rng(61);
  std::uniform_real_distribution<double> u(-0.2, 0.2);
  std::vector<double> x = kRestX;
  for (double& v : x) v += u(rng);
  return x;
}

TEST(TetMaterial, ModelNamesRoundTrip) {
  for (MaterialModel m : {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                          MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean})
    EXPECT_EQ(parse_material_model(material_model_name(m)), m);
  EXPECT_SINEW_ERROR(parse_material_model("neo_hookean"), "unknown name 'neo_hookean'", "stable_neo_hookean");
}

TEST(TetMaterial, BatchEqualsElementSumAndGradientMatchesFiniteDifferences) {
  const auto material = make_tet_material(MaterialModel::kStableNeoHookean, {1e5, 0.3});
  const std::vector<TetRest> r = rests();
  const std::vector<double> x = deformed();
  double expected = 0.0;
  for (int e = 0; e < 2; ++e) {
    double xe[12];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) xe[3 * a + i] = x[3 * kTets[4 * e + a] + i];
    expected += tet_energy<StableNeoHookean>(r[e], xe, material->lame());
  }
  EXPECT_NEAR(material->energy(x, kTets, r), expected, 1e-12 * std::fabs(expected));
  const auto energy = [&](const Eigen::VectorXd& y) {
    return material->energy(std::vector<double>(y.data(), y.data() + y.size()), kTets, r);
  };
  const auto gradient = [&](const Eigen::VectorXd& y) {
    std::vector<double> g(y.size(), 0.0);
    material->add_gradient(std::vector<double>(y.data(), y.data() + y.size()), kTets, r, g);
    return Eigen::VectorXd(Eigen::Map<Eigen::VectorXd>(g.data(), g.size()));
  };
  EXPECT_TRUE(test::check_gradient(energy, gradient, Eigen::Map<const Eigen::VectorXd>(x.data(), x.size())));
}

TEST(TetMaterial, ElementHessiansAreTheElementFunctions) {
  const auto material = make_tet_material(MaterialModel::kCorotational, {1e5, 0.3});
  const std::vector<TetRest> r = rests();
  std::vector<double> x = deformed();
  x[12] = x[13] = x[14] = 0.1;  // vertex 4 through the shared face x + y + z = 1: element 1 inverts
  std::vector<double> H, Hp;
  material->element_hessians(x, kTets, r, false, H);
  material->element_hessians(x, kTets, r, true, Hp);
  ASSERT_EQ(H.size(), 288u);
  double xe[12];
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) xe[3 * a + i] = x[3 * kTets[4 + a] + i];
  EXPECT_LT(determinant(tet_deformation_gradient(r[1], xe)), 0.0);
  Mat12 ref;
  tet_projected_hessian<Corotational>(r[1], xe, material->lame(), ref);
  for (int k = 0; k < 144; ++k) EXPECT_EQ(Hp[144 + k], ref.m[k]);
  EXPECT_NE(H, Hp);
}

TEST(TetMaterial, ChecksItsInput) {
  const auto material = make_tet_material(MaterialModel::kArap, {1e5, 0.3});
  const std::vector<TetRest> r = rests();
  std::vector<double> g(15, 0.0), short_g(3, 0.0);
  EXPECT_SINEW_ERROR(material->energy({0, 0, 0, 1}, kTets, r), "3 entries per vertex");
  EXPECT_SINEW_ERROR(material->energy(kRestX, {0, 1, 2}, r), "4 indices per rest element");
  EXPECT_SINEW_ERROR(material->energy(kRestX, {0, 1, 2, 5, 4, 3, 2, 1}, r), "tetrahedron 0", "vertex index 5", "< 5");
  EXPECT_SINEW_ERROR(material->add_gradient(kRestX, kTets, r, short_g), "gradient", "(15)");
  EXPECT_SINEW_ERROR(make_tet_material(MaterialModel::kLinear, {1e5, 0.6}), "poisson_ratio");
  material->add_gradient(kRestX, kTets, r, g);
  for (double v : g) EXPECT_NEAR(v, 0.0, 1e-9);
}

}  // namespace
}  // namespace sinew::materials_material_test
