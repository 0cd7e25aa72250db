/// @file
/// @brief Directional derivative of the polar rotation R(F) = U V^T, the piece that the
/// co-rotational and ARAP stress derivatives share.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/svd3.hpp"

namespace sinew {

/// dR = U w V^T, the change of the polar rotation R = U V^T of F = U diag(sigma) V^T (from
/// svd3()) in the direction dF.
///
/// With M = U^T dF V, the skew matrix w has w_ij = (M_ij - M_ji) / (sigma_i + sigma_j) (from
/// dF = dR S + R dS with S = V diag(sigma) V^T symmetric; e.g. Twigg and Kacic-Alesic 2010,
/// "Point cloud glue"). R is not differentiable where sigma_i + sigma_j = 0 (an inverted element
/// with two singular values of opposite sign and equal size): there the denominator is kept at
/// 1e-12 |sigma0| in size so that the result stays finite.
SINEW_HD Mat3 polar_rotation_differential(const Svd3& s, const Mat3& dF) {
  const Mat3 M = transpose(s.U) * dF * s.V;
  const double floor = 1e-12 * fabs(s.sigma[0]) + 1e-300;  // keeps 1 / (sigma_i + sigma_j) finite
  Mat3 w{};
  for (int i = 0; i < 3; ++i)
    for (int j = i + 1; j < 3; ++j) {
      double den = s.sigma[i] + s.sigma[j];
      if (fabs(den) < floor) den = den < 0 ? -floor : floor;
      w(i, j) = (M(i, j) - M(j, i)) / den;
      w(j, i) = -w(i, j);
    }
  return s.U * w * transpose(s.V);
}

}  // namespace sinew
