/// @file
/// @brief Linear (small-strain) isotropic elasticity as a function of the deformation gradient:
/// energy density, first Piola-Kirchhoff stress and its derivative.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Linear elasticity: Psi(F) = mu eps:eps + lambda/2 tr(eps)^2 with the small strain
/// eps = (F + F^T)/2 - I (e.g. Sifakis and Barbic 2012, "FEM simulation of 3D deformable solids"). Not rotation
/// invariant: a rigid rotation costs energy, which is why the co-rotational model exists. Its dP/dF is constant and PSD
/// for mu > 0, 3 lambda + 2 mu > 0.
struct LinearElasticity {
  /// Energy density Psi(F) per unit rest volume.
  static SINEW_HD double energy(const Mat3& F, const LameParameters& p) {
    const Mat3 eps = mat3_sub(symmetric_part(F), identity3());
    const double tr = trace(eps);
    return p.mu * frobenius_norm2(eps) + 0.5 * p.lambda * tr * tr;
  }

  /// First Piola-Kirchhoff stress P = dPsi/dF = 2 mu eps + lambda tr(eps) I.
  static SINEW_HD Mat3 stress(const Mat3& F, const LameParameters& p) {
    const Mat3 eps = mat3_sub(symmetric_part(F), identity3());
    return mat3_axpby(2.0 * p.mu, eps, p.lambda * trace(eps), identity3());
  }

  /// dP/dF (9x9, row-major vec(F) order): dP = 2 mu sym(dF) + lambda tr(dF) I.
  static SINEW_HD Mat9 hessian(const Mat3& /*F*/, const LameParameters& p) {
    Mat9 H{};
    for (int k = 0; k < 9; ++k) {
      const Mat3 dF = basis3(k);
      const Mat3 dP = mat3_axpby(2.0 * p.mu, symmetric_part(dF), p.lambda * trace(dF), identity3());
      for (int i = 0; i < 9; ++i) H(i, k) = dP.m[i];
    }
    return H;
  }
};

}  // namespace sinew
