/// @file
/// @brief Linear tetrahedron element: rest shape, deformation gradient F = Ds Dm^-1, and the
/// element energy, gradient, Hessian and projected Hessian of any per-F material model.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Rest data of one tetrahedron, precomputed once (model data, never changed by a step).
struct TetRest {
  Mat3 Dm_inv;    ///< inverse of the rest edge matrix Dm = [X1 - X0, X2 - X0, X3 - X0]
  double volume;  ///< rest volume det(Dm) / 6 (> 0 for a positively oriented rest element)
};

/// Edge matrix [x1 - x0, x2 - x0, x3 - x0] (columns) of a tetrahedron.
/// @param x  (12) vertex coordinates x0 y0 z0 x1 y1 z1 x2 y2 z2 x3 y3 z3.
SINEW_HD Mat3 tet_edge_matrix(const double x[12]) {
  Mat3 D{};
  for (int a = 0; a < 3; ++a)
    for (int i = 0; i < 3; ++i) D(i, a) = x[3 * (a + 1) + i] - x[i];
  return D;
}

/// Rest data from rest coordinates, unchecked: the caller ensures det(Dm) > 0 (see
/// make_tet_rest() for the checked host version).
/// @param X  (12) rest vertex coordinates X0 Y0 Z0 X1 ... Z3.
SINEW_HD TetRest tet_rest(const double X[12]) {
  const Mat3 Dm = tet_edge_matrix(X);
  return TetRest{inverse3(Dm), determinant(Dm) / 6.0};
}

/// Rest data from rest coordinates, checked.
/// @param X  (12) rest vertex coordinates X0 Y0 Z0 X1 ... Z3.
/// @throws sinew::Error when the rest tetrahedron is degenerate or negatively oriented
///         (det(Dm) <= 1e-14 |Dm|^3), naming the signed volume.
TetRest make_tet_rest(const double X[12]);

/// Deformation gradient F = Ds Dm^-1 (Ds = tet_edge_matrix(x)), constant over the element.
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param x  (12) deformed vertex coordinates x0 y0 z0 x1 ... z3.
SINEW_HD Mat3 tet_deformation_gradient(const TetRest& rest, const double x[12]) {
  return tet_edge_matrix(x) * rest.Dm_inv;
}

/// Coefficients of dF/dx: dF_ij / dx_{a,k} = delta_ik c[a][j], with c[a][j] = (Dm^-1)_{a-1,j}
/// for vertices a = 1..3 and c[0][j] = -sum_b (Dm^-1)_{b,j} (the gradients of the linear shape
/// functions).
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param c  (4 x 3) output, row a is vertex a.
SINEW_HD void tet_shape_gradients(const TetRest& rest, double c[4][3]) {
  for (int j = 0; j < 3; ++j) {
    c[0][j] = 0.0;
    for (int b = 0; b < 3; ++b) {
      c[b + 1][j] = rest.Dm_inv(b, j);
      c[0][j] -= rest.Dm_inv(b, j);
    }
  }
}

/// Element energy V Psi(F) of a material model (a type with static energy(), stress() and
/// hessian() of F and LameParameters, e.g. StableNeoHookean).
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param x  (12) deformed vertex coordinates x0 y0 z0 x1 ... z3.
/// @param p     Lame parameters of the material.
template <class Model>
SINEW_HD double tet_energy(const TetRest& rest, const double x[12], const LameParameters& p) {
  return rest.volume * Model::energy(tet_deformation_gradient(rest, x), p);
}

/// Element gradient g = V (dF/dx)^T vec(P): g_{a,i} = V sum_j P_ij c[a][j] (the elastic force
/// is -g).
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param x  (12) deformed vertex coordinates x0 y0 z0 x1 ... z3.
/// @param p     Lame parameters of the material.
/// @param g  (12) output, same layout as x.
template <class Model>
SINEW_HD void tet_gradient(const TetRest& rest, const double x[12], const LameParameters& p, double g[12]) {
  const Mat3 P = Model::stress(tet_deformation_gradient(rest, x), p);
  double c[4][3];
  tet_shape_gradients(rest, c);
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      g[3 * a + i] = rest.volume * (P(i, 0) * c[a][0] + P(i, 1) * c[a][1] + P(i, 2) * c[a][2]);
}

/// Maps a 9x9 dP/dF to the 12x12 element Hessian V (dF/dx)^T (dP/dF) (dF/dx):
/// H_{(a,i),(b,k)} = V sum_{j,l} dPdF_{(i,j),(k,l)} c[a][j] c[b][l].
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param dPdF  (9 x 9) dP/dF of a model, rows and columns in row-major vec(F) order.
/// @param H  (12 x 12) output, rows and columns x0 y0 z0 x1 ... z3.
SINEW_HD void tet_hessian_from_stress_derivative(const TetRest& rest, const Mat9& dPdF, Mat12& H) {
  double c[4][3];
  tet_shape_gradients(rest, c);
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i)
      for (int b = 0; b < 4; ++b)
        for (int k = 0; k < 3; ++k) {
          double s = 0.0;
          for (int j = 0; j < 3; ++j)
            for (int l = 0; l < 3; ++l) s += dPdF(3 * i + j, 3 * k + l) * c[a][j] * c[b][l];
          H(3 * a + i, 3 * b + k) = rest.volume * s;
        }
}

/// Element Hessian d^2(V Psi)/dx^2 (12x12), exact (possibly indefinite).
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param x  (12) deformed vertex coordinates x0 y0 z0 x1 ... z3.
/// @param p     Lame parameters of the material.
/// @param H  (12 x 12) output, rows and columns in the layout of x.
template <class Model>
SINEW_HD void tet_hessian(const TetRest& rest, const double x[12], const LameParameters& p, Mat12& H) {
  tet_hessian_from_stress_derivative(rest, Model::hessian(tet_deformation_gradient(rest, x), p), H);
}

/// Projected element Hessian: dP/dF with its negative eigenvalues clamped to zero (project_psd()
/// on the 9x9 matrix), then mapped like tet_hessian(). Since dF/dx is onto R^9, the result is PSD,
/// and it equals the exact Hessian whenever that is PSD (Teran et al. 2005 clamp per element;
/// clamping the 9x9 rather than the 12x12 keeps the translation null space exact).
/// @param rest  rest data from tet_rest() or make_tet_rest().
/// @param x  (12) deformed vertex coordinates x0 y0 z0 x1 ... z3.
/// @param p     Lame parameters of the material.
/// @param H  (12 x 12) output, rows and columns in the layout of x.
template <class Model>
SINEW_HD void tet_projected_hessian(const TetRest& rest, const double x[12], const LameParameters& p, Mat12& H) {
  Mat9 dPdF = Model::hessian(tet_deformation_gradient(rest, x), p);
  project_psd(dPdF);
  tet_hessian_from_stress_derivative(rest, dPdF, H);
}

}  // namespace sinew
