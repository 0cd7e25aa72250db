// The per-cell measures of the output meshes checked against closed-form states: the von Mises
// "stress" of tets (uniaxial stress and simple shear at small strain, where every material model
// is linear elasticity: sigma_xx = E eps, sigma_xy = mu gamma), through MultibodySimulation's
// output meshes and through the function LocalGlobalSimulation calls, and the cloth's
// "max_principal_stretch" of a stretched, rotated and sheared triangle.
#include <gtest/gtest.h>

#include <cmath>
#include <memory>
#include <string>
#include <vector>

#include "cell_measures.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene_cell_measures_test {
namespace {

using scene::max_principal_stretch;
using scene::von_mises_stress;

constexpr double kYoung = 2e6, kPoisson = 0.3;
// Small strain: the models agree with linear elasticity to O(eps) relative, far inside kRel, while
// a wrong factor (sqrt(3 J2) vs sqrt(J2), mu vs 2 mu, nominal vs Cauchy at large strain) is not.
constexpr double kEps = 1e-4, kRel = 2e-3;

// The "stress" cell field of a unit block (6 tets) of @p model whose vertices are moved from X to
// x(X) = F X, taken from MultibodySimulation::output_meshes() before any step.
std::vector<double> block_stress(MaterialModel model, const Mat3& F) {
  scene::MultibodyScene ms;
  ms.scene.name = "block";
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 1, 1, 1);
  const scene::DeformableBody body =
      scene::add_deformable_body(*ms.scene.system, mesh, 1000.0, model, {kYoung, kPoisson});
  ms.scene.init();
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Index o = ms.scene.system->particle_position_offset(body.first_particle + static_cast<Index>(i));
    for (int r = 0; r < 3; ++r) {
      double x = 0.0;
      for (int c = 0; c < 3; ++c) x += F(r, c) * mesh.vertices[i][c];
      ms.scene.state.q[o + r] = x;
    }
  }
  ms.fem_bodies.push_back(
      {"block", body.first_particle, body.num_particles, mesh.tets, model, {kYoung, kPoisson}, {}, {}});
  scene::MultibodySimulation sim(std::move(ms), integrators::make_integrator("implicit_euler"));
  for (const scene::OutputMesh& m : sim.output_meshes())
    for (const scene::VtuField& f : m.frame.cell_fields)
      if (f.name == "stress") return f.values;
  ADD_FAILURE() << "no stress field";
  return {};
}

Mat3 diagonal(double a, double b, double c) {
  Mat3 F{};
  F(0, 0) = a;
  F(1, 1) = b;
  F(2, 2) = c;
  return F;
}

// Uniaxial stress along x: stretch eps, lateral contraction -nu eps; sigma = diag(E eps, 0, 0).
Mat3 uniaxial_stress() { return diagonal(1.0 + kEps, 1.0 - kPoisson * kEps, 1.0 - kPoisson * kEps); }

// Simple shear x += gamma y: sigma_xy = mu gamma, von Mises sqrt(3) mu gamma.
Mat3 simple_shear() {
  Mat3 F = diagonal(1.0, 1.0, 1.0);
  F(0, 1) = kEps;
  return F;
}

const double kMu = kYoung / (2.0 * (1.0 + kPoisson));

TEST(CellMeasures, MultibodyStressOfUniaxialStressIsYoungTimesStrain) {
  for (MaterialModel model : {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    const std::vector<double> s = block_stress(model, uniaxial_stress());
    ASSERT_EQ(s.size(), 6u);
    for (double v : s) EXPECT_NEAR(v, kYoung * kEps, kRel * kYoung * kEps) << material_model_name(model);
  }
}

TEST(CellMeasures, MultibodyStressOfSimpleShearIsSqrt3MuGamma) {
  for (MaterialModel model : {MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    const std::vector<double> s = block_stress(model, simple_shear());
    ASSERT_EQ(s.size(), 6u);
    for (double v : s) EXPECT_NEAR(v, std::sqrt(3.0) * kMu * kEps, kRel * kMu * kEps) << material_model_name(model);
  }
}

TEST(CellMeasures, MultibodyStressIsZeroAtRestAndUnderRotation) {
  const double c = std::cos(0.7), s = std::sin(0.7);
  Mat3 R = diagonal(c, c, 1.0);
  R(0, 1) = -s;
  R(1, 0) = s;
  for (const Mat3& F : {diagonal(1.0, 1.0, 1.0), R})
    for (double v : block_stress(MaterialModel::kCorotational, F)) EXPECT_NEAR(v, 0.0, 1e-9 * kYoung);
}

// The local-global simulation's path: von_mises_stress of its models' first Piola-Kirchhoff stress.
TEST(CellMeasures, LocalGlobalModelsGiveTheLinearStress) {
  const LameParameters lame = lame_parameters({kYoung, kPoisson});
  const Mat3 Fu = uniaxial_stress(), Fs = simple_shear();
  EXPECT_NEAR(von_mises_stress(Corotational::stress(Fu, lame), Fu), kYoung * kEps, kRel * kYoung * kEps);
  EXPECT_NEAR(von_mises_stress(StableNeoHookean::stress(Fu, lame), Fu), kYoung * kEps, kRel * kYoung * kEps);
  EXPECT_NEAR(von_mises_stress(Corotational::stress(Fs, lame), Fs), std::sqrt(3.0) * kMu * kEps, kRel * kMu * kEps);
  // ARAP has no volume term (Poisson ratio 0): uniaxial strain eps gives sigma_xx = 2 mu eps alone.
  const Mat3 Fx = diagonal(1.0 + kEps, 1.0, 1.0);
  EXPECT_NEAR(von_mises_stress(Arap::stress(Fx, lame), Fx), 2.0 * kMu * kEps, kRel * kMu * kEps);
}

// At large strain the Cauchy stress is P F^T / J, not P: checked on an exact state.
TEST(CellMeasures, VonMisesUsesTheCauchyStress) {
  // P = diag(3, 0, 0) at F = diag(2, 0.5, 0.5) (J = 0.5): sigma_xx = 3 * 2 / 0.5 = 12, von Mises 12
  // (P itself would read 3, P F^T 6).
  const Mat3 P = diagonal(3.0, 0.0, 0.0), F = diagonal(2.0, 0.5, 0.5);
  EXPECT_DOUBLE_EQ(von_mises_stress(P, F), 12.0);
  // Pure pressure has no von Mises stress; a singular F reads 0.
  EXPECT_NEAR(von_mises_stress(diagonal(5.0, 5.0, 5.0), diagonal(1.0, 1.0, 1.0)), 0.0, 1e-12);
  EXPECT_EQ(von_mises_stress(P, diagonal(1.0, 1.0, 0.0)), 0.0);
}

TEST(CellMeasures, MaxPrincipalStretchOfATriangle) {
  const Vec3 rest[3] = {Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, Vec3{{0, 1, 0}}};
  // Stretched by 1.3 along x and 0.9 along y, rotated about (1, 2, 3) / |.| by 0.8 rad and moved.
  const double n = std::sqrt(14.0), a[3] = {1 / n, 2 / n, 3 / n}, c = std::cos(0.8), s = std::sin(0.8);
  auto rotate = [&](const Vec3& p) {
    const double d = a[0] * p[0] + a[1] * p[1] + a[2] * p[2];
    const Vec3 x{{a[1] * p[2] - a[2] * p[1], a[2] * p[0] - a[0] * p[2], a[0] * p[1] - a[1] * p[0]}};
    Vec3 r;
    for (int k = 0; k < 3; ++k) r[k] = p[k] * c + x[k] * s + a[k] * d * (1 - c) + 0.5 * k;
    return r;
  };
  Vec3 cur[3];
  for (int i = 0; i < 3; ++i) cur[i] = rotate(Vec3{{1.3 * rest[i][0], 0.9 * rest[i][1], 0.0}});
  EXPECT_NEAR(max_principal_stretch(rest, cur), 1.3, 1e-12);
  // Simple shear x += g y: the largest singular value of [[1, g], [0, 1]] is g/2 + sqrt(1 + g^2/4).
  const double g = 0.6;
  const Vec3 sheared[3] = {Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, Vec3{{g, 1, 0}}};
  EXPECT_NEAR(max_principal_stretch(rest, sheared), 0.5 * g + std::sqrt(1.0 + 0.25 * g * g), 1e-12);
  // A degenerate rest triangle reads 0.
  const Vec3 flat[3] = {Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, Vec3{{2, 0, 0}}};
  EXPECT_EQ(max_principal_stretch(flat, cur), 0.0);
}

}  // namespace
}  // namespace sinew::scene_cell_measures_test
