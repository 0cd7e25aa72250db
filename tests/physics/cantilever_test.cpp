// A cantilever beam of linear tetrahedra sagging under its own weight against Euler-Bernoulli:
// tip deflection w L^4 / (8 E I) with w = rho g A, approached from below (linear tets are stiff
// in bending) as the mesh is refined.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include "quick_tests.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "statics.hpp"

namespace sinew::physics_cantilever_test {
namespace {

struct BeamResult {
  double tip_deflection;  // mean downward displacement of the nodes at x = L
  int iterations;
};

BeamResult sag(int nx, int nyz, MaterialModel model) {
  const double L = 1.0, a = 0.1, rho = 1000.0, E = 1e8, nu = 0.0, g = 9.81;
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, -a / 2, -a / 2}}, Vec3{{L, a / 2, a / 2}}, nx, nyz, nyz);
  model::MechanicalSystem system;
  scene::add_deformable_body(system, mesh, rho, model, {E, nu});
  system.set_gravity(Vec3{{0, 0, -g}});
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (mesh.vertices[i][0] == 0.0) system.fix_particle(static_cast<Index>(i));
  const test::Statics s = test::solve_statics(system, system.initial_positions());
  double sum = 0.0;
  int count = 0;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (mesh.vertices[i][0] == L) {
      sum += mesh.vertices[i][2] - s.q[system.particle_position_offset(static_cast<Index>(i)) + 2];
      ++count;
    }
  return {sum / count, s.iterations};
}

TEST(Cantilever, ConvergesToEulerBernoulliUnderRefinement) {
  const double L = 1.0, a = 0.1, rho = 1000.0, E = 1e8, g = 9.81;
  const double I = a * a * a * a / 12.0;
  const double euler_bernoulli = rho * g * a * a * std::pow(L, 4) / (8.0 * E * I);  // 14.7 mm
  if (test::quick_tests())
    GTEST_SKIP() << "SINEW_QUICK_TESTS: four meshes up to 5120 cells (half a minute under sanitizers)";
  std::vector<double> ratio;
  for (int level : {1, 2, 4, 8}) {  // cells of side a / level: 10 level x level x level
    const BeamResult r = sag(10 * level, level, MaterialModel::kLinear);
    ratio.push_back(r.tip_deflection / euler_bernoulli);
    std::printf("cantilever %dx%dx%d: tip %.6e m, Euler-Bernoulli %.6e m, ratio %.4f\n", 10 * level, level, level,
                r.tip_deflection, euler_bernoulli, ratio.back());
    EXPECT_EQ(r.iterations, 1) << "linear elasticity: one Newton step is exact";
    EXPECT_LT(ratio.back(), 1.0) << "linear tets are stiffer than the beam";
    if (ratio.size() > 1) {
      EXPECT_GT(ratio.back(), ratio[ratio.size() - 2]) << "refinement must soften";
    }
  }
  EXPECT_GT(ratio.back(), 0.95) << "the finest mesh within 5% of Euler-Bernoulli";
  // Displacements of linear elements converge as h^2: the error quarters from level 4 to 8, and
  // the Richardson extrapolation lands within 1.5% of Euler-Bernoulli (Timoshenko's shear term,
  // w L^2 / (2 kappa G A), would add 0.8% here with nu = 0, kappa = 5/6).
  const double order = std::log2((1.0 - ratio[2]) / (1.0 - ratio[3]));
  EXPECT_NEAR(order, 2.0, 0.3);
  const double extrapolated = ratio[3] + (ratio[3] - ratio[2]) / 3.0;
  std::printf("cantilever: observed order %.2f, extrapolated ratio %.4f (Timoshenko 1.008)\n", order, extrapolated);
  EXPECT_NEAR(extrapolated, 1.0, 0.015);
}

}  // namespace
}  // namespace sinew::physics_cantilever_test
