// Per-cell measures written with the output meshes (Simulation::output_meshes()): the von Mises
// stress of a tet (cell field "stress") and the largest principal stretch of a triangle (cell
// field "max_principal_stretch"). Shared by LocalGlobalSimulation and MultibodySimulation, and
// checked against closed-form states by tests/scene/cell_measures_test.cpp.
#pragma once

#include <algorithm>
#include <cmath>

#include "sinew/core/small_matrix.hpp"

namespace sinew::scene {

/// von Mises stress sqrt(3 J2) of the Cauchy stress sigma = P F^T / det F (symmetrized) of the
/// first Piola-Kirchhoff stress @p P at deformation gradient @p F (Pa); 0 when det F is 0.
inline double von_mises_stress(const Mat3& P, const Mat3& F) {
  const double J = F(0, 0) * (F(1, 1) * F(2, 2) - F(1, 2) * F(2, 1)) -
                   F(0, 1) * (F(1, 0) * F(2, 2) - F(1, 2) * F(2, 0)) +
                   F(0, 2) * (F(1, 0) * F(2, 1) - F(1, 1) * F(2, 0));
  if (!(std::abs(J) > 1e-300)) return 0.0;
  double s[3][3];
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      double a = 0.0;
      for (int k = 0; k < 3; ++k) a += P(i, k) * F(j, k);
      s[i][j] = a / J;
    }
  auto c = [&](int i, int j) { return 0.5 * (s[i][j] + s[j][i]); };
  const double d01 = c(0, 0) - c(1, 1), d12 = c(1, 1) - c(2, 2), d20 = c(2, 2) - c(0, 0);
  const double shear = c(0, 1) * c(0, 1) + c(1, 2) * c(1, 2) + c(2, 0) * c(2, 0);
  return std::sqrt(0.5 * (d01 * d01 + d12 * d12 + d20 * d20) + 3.0 * shear);
}

/// Largest principal stretch of a triangle with rest corners @p rest and current corners @p cur:
/// sqrt of the largest eigenvalue of G0^-1 G, with G0 and G the Gram matrices of the rest and
/// current edge vectors (the 3x2 F's largest singular value); 0 for a degenerate rest triangle.
inline double max_principal_stretch(const Vec3 rest[3], const Vec3 cur[3]) {
  auto gram = [](const Vec3 p[3], double g[3]) {
    const Vec3 a{{p[1][0] - p[0][0], p[1][1] - p[0][1], p[1][2] - p[0][2]}};
    const Vec3 b{{p[2][0] - p[0][0], p[2][1] - p[0][1], p[2][2] - p[0][2]}};
    g[0] = a[0] * a[0] + a[1] * a[1] + a[2] * a[2];
    g[1] = a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
    g[2] = b[0] * b[0] + b[1] * b[1] + b[2] * b[2];
  };
  double g0[3], g[3];
  gram(rest, g0);
  gram(cur, g);
  const double det0 = g0[0] * g0[2] - g0[1] * g0[1];
  if (!(det0 > 0.0)) return 0.0;
  // M = G0^-1 G; its eigenvalues from trace and determinant.
  const double m00 = (g0[2] * g[0] - g0[1] * g[1]) / det0, m01 = (g0[2] * g[1] - g0[1] * g[2]) / det0;
  const double m10 = (g0[0] * g[1] - g0[1] * g[0]) / det0, m11 = (g0[0] * g[2] - g0[1] * g[1]) / det0;
  const double tr = m00 + m11, det = m00 * m11 - m01 * m10;
  const double lmax = 0.5 * tr + std::sqrt(std::max(0.0, 0.25 * tr * tr - det));
  return std::sqrt(std::max(0.0, lmax));
}

}  // namespace sinew::scene
