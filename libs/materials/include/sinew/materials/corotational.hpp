/// @file
/// @brief Co-rotational linear elasticity: linear elasticity in the frame of the polar rotation.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/svd3.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/polar_differential.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Co-rotational elasticity: Psi(F) = mu ||F - R||^2 + lambda/2 tr(R^T F - I)^2 with R the polar
/// rotation of F (Stomakhin et al. 2012, "Energetically consistent invertible elasticity";
/// the co-rotational model of the seed paper's Fig. 10). Rotation invariant; defined for inverted
/// elements through the signed SVD (tr(R^T F) = sigma0 + sigma1 + sigma2 with sigma2 < 0).
struct Corotational {
  /// Energy density Psi(F) per unit rest volume.
  static SINEW_HD double energy(const Mat3& F, const LameParameters& p) {
    const Svd3 s = svd3(F);
    const double d0 = s.sigma[0] - 1.0, d1 = s.sigma[1] - 1.0, d2 = s.sigma[2] - 1.0;
    const double tr = d0 + d1 + d2;
    return p.mu * (d0 * d0 + d1 * d1 + d2 * d2) + 0.5 * p.lambda * tr * tr;
  }

  /// First Piola-Kirchhoff stress P = 2 mu (F - R) + lambda tr(R^T F - I) R (the variation of R
  /// drops out because R^T F is symmetric).
  static SINEW_HD Mat3 stress(const Mat3& F, const LameParameters& p) {
    const Svd3 s = svd3(F);
    const Mat3 R = s.U * transpose(s.V);
    const double tr = s.sigma[0] + s.sigma[1] + s.sigma[2] - 3.0;
    return mat3_axpby(2.0 * p.mu, mat3_sub(F, R), p.lambda * tr, R);
  }

  /// dP/dF (9x9, row-major vec(F) order):
  /// dP = 2 mu (dF - dR) + lambda (R : dF) R + lambda tr(R^T F - I) dR, dR from
  /// polar_rotation_differential(). Indefinite under compression and inversion.
  static SINEW_HD Mat9 hessian(const Mat3& F, const LameParameters& p) {
    const Svd3 s = svd3(F);
    const Mat3 R = s.U * transpose(s.V);
    const double tr = s.sigma[0] + s.sigma[1] + s.sigma[2] - 3.0;
    Mat9 H{};
    for (int k = 0; k < 9; ++k) {
      const Mat3 dF = basis3(k);
      const Mat3 dR = polar_rotation_differential(s, dF);
      const Mat3 dP =
          mat3_add(mat3_axpby(2.0 * p.mu, mat3_sub(dF, dR), p.lambda * ddot(R, dF), R), mat3_scale(p.lambda * tr, dR));
      for (int i = 0; i < 9; ++i) H(i, k) = dP.m[i];
    }
    return H;
  }
};

}  // namespace sinew
