/// @file
/// @brief Discrete bending of triangle surfaces: the quadratic (isometric) bending energy of
/// Bergou, Wardetzky, Harmon, Zorin and Grinspun 2006, "A quadratic bending model for
/// inextensible surfaces", on the four-vertex hinge stencil of one interior edge.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Precomputed hinge of a flat rest surface: edge (x0, x1) shared by triangles (x0, x1, x2) and
/// (x0, x1, x3). Under near-isometric deformation the bending energy is quadratic in positions,
/// E = k/2 x^T (Q (x) I3) x with the constant 4x4 Q = 3/(A0 + A1) K K^T, so its Hessian is
/// constant and PSD (no projection needed). Valid for a flat rest state (rest energy zero).
struct BendingHinge {
  double K[4];   ///< (4) cotangent weights (c03 + c04, c01 + c02, -c01 - c03, -c02 - c04)
  double Q[16];  ///< (4 x 4) row-major 3/(A0 + A1) K K^T
};

/// Cotangent of the angle between vectors a and b.
SINEW_HD double cotangent(const Vec3& a, const Vec3& b) { return dot(a, b) / norm(cross(a, b)); }

/// Builds the hinge from rest positions; c0j = cot of the angle between e0 = x1 - x0 and
/// e1 = x2 - x0, e2 = x3 - x0, e3 = x2 - x1, e4 = x3 - x1 (e3, e4 measured against -e0).
/// The caller ensures non-degenerate triangles (make_bending_hinge() checks).
/// @param X  (12) rest positions of x0, x1 (the edge), x2, x3 (the opposite vertices).
SINEW_HD BendingHinge bending_hinge(const double X[12]) {
  const Vec3 x0{{X[0], X[1], X[2]}}, x1{{X[3], X[4], X[5]}}, x2{{X[6], X[7], X[8]}}, x3{{X[9], X[10], X[11]}};
  const Vec3 e0 = vec3_sub(x1, x0), e1 = vec3_sub(x2, x0), e2 = vec3_sub(x3, x0);
  const Vec3 e3 = vec3_sub(x2, x1), e4 = vec3_sub(x3, x1);
  const Vec3 me0{{-e0[0], -e0[1], -e0[2]}};
  const double c01 = cotangent(e0, e1), c02 = cotangent(e0, e2), c03 = cotangent(me0, e3), c04 = cotangent(me0, e4);
  const double A0 = 0.5 * norm(cross(e0, e1)), A1 = 0.5 * norm(cross(e0, e2));
  BendingHinge h{{c03 + c04, c01 + c02, -c01 - c03, -c02 - c04}, {}};
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j) h.Q[4 * i + j] = 3.0 / (A0 + A1) * h.K[i] * h.K[j];
  return h;
}

/// Checked host version of bending_hinge().
/// @param X  (12) rest positions x0, x1 (edge), x2, x3.
/// @throws sinew::Error when a hinge triangle is degenerate.
BendingHinge make_bending_hinge(const double X[12]);

/// Bending energy E = k/2 sum_ij Q_ij x_i . x_j.
/// @param hinge      precomputed hinge.
/// @param stiffness  bending stiffness k (energy units: N m).
/// @param x          (12) positions x0 y0 z0 x1 ... z3.
SINEW_HD double bending_energy(const BendingHinge& hinge, double stiffness, const double x[12]) {
  double e = 0.0;
  for (int i = 0; i < 4; ++i)
    for (int j = 0; j < 4; ++j)
      e += hinge.Q[4 * i + j] * (x[3 * i] * x[3 * j] + x[3 * i + 1] * x[3 * j + 1] + x[3 * i + 2] * x[3 * j + 2]);
  return 0.5 * stiffness * e;
}

/// Bending energy gradient g_i = k sum_j Q_ij x_j.
/// @param hinge      precomputed hinge.
/// @param stiffness  bending stiffness k.
/// @param x          (12) positions x0 y0 z0 x1 ... z3.
/// @param g          (12) output, same layout.
SINEW_HD void bending_gradient(const BendingHinge& hinge, double stiffness, const double x[12], double g[12]) {
  for (int i = 0; i < 4; ++i)
    for (int d = 0; d < 3; ++d) {
      double s = 0.0;
      for (int j = 0; j < 4; ++j) s += hinge.Q[4 * i + j] * x[3 * j + d];
      g[3 * i + d] = stiffness * s;
    }
}

/// Constant bending Hessian k Q (x) I3 (12 x 12, PSD, so it is its own projection).
/// @param hinge      precomputed hinge.
/// @param stiffness  bending stiffness k.
/// @param H          (12 x 12) output, rows and columns x0 y0 z0 x1 ... z3.
SINEW_HD void bending_hessian(const BendingHinge& hinge, double stiffness, Mat12& H) {
  for (int r = 0; r < 12; ++r)
    for (int c = 0; c < 12; ++c) H(r, c) = r % 3 == c % 3 ? stiffness * hinge.Q[4 * (r / 3) + c / 3] : 0.0;
}

}  // namespace sinew
