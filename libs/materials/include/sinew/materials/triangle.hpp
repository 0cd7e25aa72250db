/// @file
/// @brief Linear triangle (membrane) element in 3D: rest frame, 3x2 deformation gradient
/// F = Ds Dm^-1, and the element energy, gradient, Hessian and projected Hessian of any membrane
/// model (see membrane_models.hpp).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Rest data of one triangle, precomputed once.
struct TriRest {
  double Dm_inv[4];  ///< (2 x 2) row-major inverse of the rest edge matrix in the rest frame (t0, t1)
  double area;       ///< rest area (> 0)
  Vec3 t0;           ///< unit rest tangent along X1 - X0
  Vec3 t1;           ///< unit rest tangent n x t0 in the rest plane (n the rest unit normal)
};

/// Rest data from rest coordinates, unchecked: the caller ensures a non-degenerate triangle (see
/// make_tri_rest()). The rest frame is t0 = (X1 - X0)/|X1 - X0|, t1 = n x t0, in which
/// Dm = [[|e1|, t0.e2], [0, t1.e2]] with e1 = X1 - X0, e2 = X2 - X0.
/// @param X  (9) rest vertex coordinates X0 Y0 Z0 X1 Y1 Z1 X2 Y2 Z2.
SINEW_HD TriRest tri_rest(const double X[9]) {
  const Vec3 e1{{X[3] - X[0], X[4] - X[1], X[5] - X[2]}}, e2{{X[6] - X[0], X[7] - X[1], X[8] - X[2]}};
  const Vec3 nn = cross(e1, e2);
  const double l1 = norm(e1), twice_area = norm(nn);
  const Vec3 t0{{e1[0] / l1, e1[1] / l1, e1[2] / l1}};
  const Vec3 n{{nn[0] / twice_area, nn[1] / twice_area, nn[2] / twice_area}};
  const Vec3 t1 = cross(n, t0);
  const double a = l1, b = dot(t0, e2), d = dot(t1, e2);  // Dm = [[a, b], [0, d]], det = a d
  return TriRest{{1.0 / a, -b / (a * d), 0.0, 1.0 / d}, 0.5 * twice_area, t0, t1};
}

/// Rest data from rest coordinates, checked.
/// @param X  (9) rest vertex coordinates X0 Y0 Z0 X1 ... Z2.
/// @throws sinew::Error when the rest triangle is degenerate (area <= 1e-14 |edges|^2), naming
///         the area.
TriRest make_tri_rest(const double X[9]);

/// Coefficients of dF/dx: F = sum_a x_a c[a]^T, i.e. dF_ij / dx_{a,k} = delta_ik c[a][j], with
/// c[a][j] = (Dm^-1)_{a-1,j} for a = 1, 2 and c[0][j] = -sum_b (Dm^-1)_{b,j}.
/// @param rest  rest data from tri_rest() or make_tri_rest().
/// @param c     (3 x 2) output, row a is vertex a.
SINEW_HD void tri_shape_gradients(const TriRest& rest, double c[3][2]) {
  for (int j = 0; j < 2; ++j) {
    c[1][j] = rest.Dm_inv[j];
    c[2][j] = rest.Dm_inv[2 + j];
    c[0][j] = -c[1][j] - c[2][j];
  }
}

/// Deformation gradient F = Ds Dm^-1 (3 x 2) stored by columns: y = (f0, f1) with
/// y[3 j + i] = F_ij; f0, f1 are the deformed images of the rest tangents t0, t1.
/// @param rest  rest data.
/// @param x     (9) deformed vertex coordinates x0 y0 z0 x1 ... z2.
/// @param y     (6) output F by columns.
SINEW_HD void tri_deformation_gradient(const TriRest& rest, const double x[9], double y[6]) {
  double c[3][2];
  tri_shape_gradients(rest, c);
  for (int j = 0; j < 2; ++j)
    for (int i = 0; i < 3; ++i) y[3 * j + i] = x[i] * c[0][j] + x[3 + i] * c[1][j] + x[6 + i] * c[2][j];
}

/// Element energy A Psi(F) of a membrane model (a type with static energy(y, rest, p),
/// stress(y, rest, p, P) and hessian(y, rest, p, H) of the column-stacked F, e.g.
/// MembraneStableNeoHookean).
/// @param rest  rest data.
/// @param x     (9) deformed vertex coordinates x0 y0 z0 x1 ... z2.
/// @param p     Lame parameters of the material.
template <class Model>
SINEW_HD double tri_energy(const TriRest& rest, const double x[9], const LameParameters& p) {
  double y[6];
  tri_deformation_gradient(rest, x, y);
  return rest.area * Model::energy(y, rest, p);
}

/// Element gradient g_{a,i} = A sum_j P_ij c[a][j] with P = dPsi/dF (3 x 2).
/// @param rest  rest data.
/// @param x     (9) deformed vertex coordinates x0 y0 z0 x1 ... z2.
/// @param p     Lame parameters of the material.
/// @param g     (9) output, same layout as x.
template <class Model>
SINEW_HD void tri_gradient(const TriRest& rest, const double x[9], const LameParameters& p, double g[9]) {
  double y[6], P[6], c[3][2];
  tri_deformation_gradient(rest, x, y);
  Model::stress(y, rest, p, P);
  tri_shape_gradients(rest, c);
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 3; ++i) g[3 * a + i] = rest.area * (P[i] * c[a][0] + P[3 + i] * c[a][1]);
}

/// Maps a 6x6 d^2Psi/dy^2 (y = F by columns) to the 9x9 element Hessian
/// H_{(a,i),(b,k)} = A sum_{j,l} Hy_{(3j+i),(3l+k)} c[a][j] c[b][l].
/// @param rest  rest data.
/// @param Hy    (6 x 6) second derivative of Psi with respect to y.
/// @param H     (9 x 9) output, rows and columns x0 y0 z0 x1 ... z2.
SINEW_HD void tri_hessian_from_stress_derivative(const TriRest& rest, const Mat6& Hy, Mat9& H) {
  double c[3][2];
  tri_shape_gradients(rest, c);
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 3; ++i)
      for (int b = 0; b < 3; ++b)
        for (int k = 0; k < 3; ++k) {
          double s = 0.0;
          for (int j = 0; j < 2; ++j)
            for (int l = 0; l < 2; ++l) s += Hy(3 * j + i, 3 * l + k) * c[a][j] * c[b][l];
          H(3 * a + i, 3 * b + k) = rest.area * s;
        }
}

/// Element Hessian (9x9), exact (possibly indefinite).
/// @param rest  rest data.
/// @param x     (9) deformed vertex coordinates x0 y0 z0 x1 ... z2.
/// @param p     Lame parameters of the material.
/// @param H     (9 x 9) output, rows and columns in the layout of x.
template <class Model>
SINEW_HD void tri_hessian(const TriRest& rest, const double x[9], const LameParameters& p, Mat9& H) {
  double y[6];
  tri_deformation_gradient(rest, x, y);
  Mat6 Hy;
  Model::hessian(y, rest, p, Hy);
  tri_hessian_from_stress_derivative(rest, Hy, H);
}

/// Projected element Hessian: the 6x6 d^2Psi/dF^2 with negative eigenvalues clamped
/// (project_psd()), then mapped like tri_hessian(); PSD, and equal to the exact Hessian where
/// that is PSD (dF/dx maps onto R^6).
/// @param rest  rest data.
/// @param x     (9) deformed vertex coordinates x0 y0 z0 x1 ... z2.
/// @param p     Lame parameters of the material.
/// @param H     (9 x 9) output, rows and columns in the layout of x.
template <class Model>
SINEW_HD void tri_projected_hessian(const TriRest& rest, const double x[9], const LameParameters& p, Mat9& H) {
  double y[6];
  tri_deformation_gradient(rest, x, y);
  Mat6 Hy;
  Model::hessian(y, rest, p, Hy);
  project_psd(Hy);
  tri_hessian_from_stress_derivative(rest, Hy, H);
}

}  // namespace sinew
