/// @file
/// @brief St. Venant-Kirchhoff elasticity: linear stress-strain law on the Green strain.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// St. Venant-Kirchhoff: Psi(F) = mu E:E + lambda/2 tr(E)^2 with the Green strain
/// E = (F^T F - I)/2 (Sifakis and Barbic 2012). Rotation invariant and defined for every
/// F, but not convex: it softens under compression and an inverted element can sit at a local
/// minimum (its energy vanishes again at F = -I), so Newton needs the projected Hessian.
struct StVenantKirchhoff {
  /// Green strain E = (F^T F - I)/2.
  static SINEW_HD Mat3 green_strain(const Mat3& F) { return mat3_scale(0.5, mat3_sub(transpose(F) * F, identity3())); }

  /// Energy density Psi(F) per unit rest volume.
  static SINEW_HD double energy(const Mat3& F, const LameParameters& p) {
    const Mat3 E = green_strain(F);
    const double tr = trace(E);
    return p.mu * frobenius_norm2(E) + 0.5 * p.lambda * tr * tr;
  }

  /// First Piola-Kirchhoff stress P = F S with the second Piola-Kirchhoff stress
  /// S = 2 mu E + lambda tr(E) I.
  static SINEW_HD Mat3 stress(const Mat3& F, const LameParameters& p) {
    const Mat3 E = green_strain(F);
    return F * mat3_axpby(2.0 * p.mu, E, p.lambda * trace(E), identity3());
  }

  /// dP/dF (9x9, row-major vec(F) order): dP = dF S + F (2 mu dE + lambda tr(dE) I) with
  /// dE = sym(F^T dF).
  static SINEW_HD Mat9 hessian(const Mat3& F, const LameParameters& p) {
    const Mat3 E = green_strain(F);
    const Mat3 S = mat3_axpby(2.0 * p.mu, E, p.lambda * trace(E), identity3());
    const Mat3 Ft = transpose(F);
    Mat9 H{};
    for (int k = 0; k < 9; ++k) {
      const Mat3 dF = basis3(k);
      const Mat3 dE = symmetric_part(Ft * dF);
      const Mat3 dP = mat3_add(dF * S, F * mat3_axpby(2.0 * p.mu, dE, p.lambda * trace(dE), identity3()));
      for (int i = 0; i < 9; ++i) H(i, k) = dP.m[i];
    }
    return H;
  }
};

}  // namespace sinew
