/// @file
/// @brief As-rigid-as-possible (ARAP) energy and the rotation projection of local-global solvers.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/svd3.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/polar_differential.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// As-rigid-as-possible energy: Psi(F) = mu ||F - R||^2 with R the polar rotation of F
/// (Chao et al. 2010; the projective-dynamics strain energy of Bouaziz et al. 2014). It has no
/// volume term (lambda is ignored), so in uniaxial stretch nu = 0 and E = 2 mu.
struct Arap {
  /// Energy density Psi(F) = mu sum_i (sigma_i - 1)^2 per unit rest volume.
  static SINEW_HD double energy(const Mat3& F, const LameParameters& p) {
    const Svd3 s = svd3(F);
    const double d0 = s.sigma[0] - 1.0, d1 = s.sigma[1] - 1.0, d2 = s.sigma[2] - 1.0;
    return p.mu * (d0 * d0 + d1 * d1 + d2 * d2);
  }

  /// First Piola-Kirchhoff stress P = 2 mu (F - R).
  static SINEW_HD Mat3 stress(const Mat3& F, const LameParameters& p) {
    return mat3_scale(2.0 * p.mu, mat3_sub(F, polar_rotation(F)));
  }

  /// dP/dF (9x9, row-major vec(F) order): dP = 2 mu (dF - dR), dR from
  /// polar_rotation_differential(); PSD when every sigma_i + sigma_j >= 2.
  static SINEW_HD Mat9 hessian(const Mat3& F, const LameParameters& p) {
    const Svd3 s = svd3(F);
    Mat9 H{};
    for (int k = 0; k < 9; ++k) {
      const Mat3 dF = basis3(k);
      const Mat3 dP = mat3_scale(2.0 * p.mu, mat3_sub(dF, polar_rotation_differential(s, dF)));
      for (int i = 0; i < 9; ++i) H(i, k) = dP.m[i];
    }
    return H;
  }
};

/// Local step of local-global (projective-dynamics) solvers for ARAP and co-rotational elements:
/// p = argmin_{p in SO(3)} ||p - F||^2 = R, the polar rotation of F = G_i q (seed paper
/// "realtime hyperelastic frictional contact", eq. 5 with zeta the SO(3) indicator; the global
/// step eq. 6 then uses w_i G_i^T p). A proper rotation also for inverted F.
SINEW_HD Mat3 rotation_local_projection(const Mat3& F) { return polar_rotation(F); }

}  // namespace sinew
