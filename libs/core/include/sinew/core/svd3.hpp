/// @file
/// @brief Singular value and polar decomposition of a 3x3 matrix, written once for host and
/// device: the per-element kernel of co-rotational, ARAP and local-global local steps.
#pragma once

#include <cmath>

#include "sinew/core/small_matrix.hpp"

namespace sinew {

/// Result of svd3(): F = U diag(sigma) V^T with U, V proper rotations (det = +1).
struct Svd3 {
  Mat3 U;      ///< left rotation, columns are left singular vectors
  Vec3 sigma;  ///< singular values, |sigma0| >= |sigma1| >= |sigma2|; sigma2 < 0 iff det F < 0
  Mat3 V;      ///< right rotation, columns are right singular vectors
};

/// Rotation-variant SVD of a 3x3 matrix by one-sided (Hestenes) Jacobi on the columns of F.
///
/// Unlike an eigen-decomposition of F^T F, one-sided Jacobi keeps relative accuracy in small
/// singular values, which matters for nearly flat or inverted elements. U and V are always proper
/// rotations; the sign of det(F) goes into sigma2, so an inverted element (det F < 0) gives
/// sigma2 < 0 (the convention of invertible-FEM and stable Neo-Hookean models). A rank-deficient
/// F still gets orthonormal U (completed by cross products).
SINEW_HD Svd3 svd3(const Mat3& F) {
  Mat3 A = F;
  Mat3 V = identity3();
  constexpr int kMaxSweeps = 12;  // quadratic convergence: 3x3 needs 4-6 sweeps to round-off
  constexpr double kTol = 1e-15;  // |a_p . a_q| below this fraction of |a_p||a_q| counts as zero
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    bool rotated = false;
    for (int pair = 0; pair < 3; ++pair) {
      const int p = pair == 2 ? 1 : 0;
      const int q = pair == 0 ? 1 : 2;
      const Vec3 ap = column(A, p), aq = column(A, q);
      const double alpha = dot(ap, ap), beta = dot(aq, aq), gamma = dot(ap, aq);
      if (fabs(gamma) <= kTol * sqrt(alpha * beta) || gamma == 0.0) continue;
      rotated = true;
      const double zeta = (beta - alpha) / (2.0 * gamma);
      const double t = (zeta >= 0 ? 1.0 : -1.0) / (fabs(zeta) + sqrt(1.0 + zeta * zeta));
      const double c = 1.0 / sqrt(1.0 + t * t), s = c * t;
      for (int i = 0; i < 3; ++i) {
        const double a0 = A(i, p), a1 = A(i, q);
        A(i, p) = c * a0 - s * a1;
        A(i, q) = s * a0 + c * a1;
        const double v0 = V(i, p), v1 = V(i, q);
        V(i, p) = c * v0 - s * v1;
        V(i, q) = s * v0 + c * v1;
      }
    }
    if (!rotated) break;
  }
  // Sort columns by decreasing norm (a permutation keeps A = F V).
  double n2[3] = {dot(column(A, 0), column(A, 0)), dot(column(A, 1), column(A, 1)), dot(column(A, 2), column(A, 2))};
  for (int i = 0; i < 2; ++i)
    for (int j = 0; j < 2 - i; ++j)
      if (n2[j] < n2[j + 1]) {
        const double tn = n2[j];
        n2[j] = n2[j + 1];
        n2[j + 1] = tn;
        const Vec3 ta = column(A, j), tv = column(V, j);
        set_column(A, j, column(A, j + 1));
        set_column(A, j + 1, ta);
        set_column(V, j, column(V, j + 1));
        set_column(V, j + 1, tv);
      }
  if (determinant(V) < 0) {  // make V proper; the sign moves into the smallest singular value
    for (int i = 0; i < 3; ++i) {
      V(i, 2) = -V(i, 2);
      A(i, 2) = -A(i, 2);
    }
  }
  Svd3 r{identity3(), Vec3{{0, 0, 0}}, V};
  const Vec3 a0 = column(A, 0), a1 = column(A, 1), a2 = column(A, 2);
  const double s0 = norm(a0);
  if (s0 == 0.0) return r;  // F = 0: any rotation pair is an SVD
  const Vec3 u0{{a0[0] / s0, a0[1] / s0, a0[2] / s0}};
  // u1 from a1, re-orthogonalized against u0; a tiny a1 (rank one) gets any unit normal of u0.
  Vec3 w{{a1[0] - dot(a1, u0) * u0[0], a1[1] - dot(a1, u0) * u0[1], a1[2] - dot(a1, u0) * u0[2]}};
  double wn = norm(w);
  if (wn <= 1e-300 || wn <= 1e-14 * s0) {
    const int k = fabs(u0[0]) < fabs(u0[1]) ? (fabs(u0[0]) < fabs(u0[2]) ? 0 : 2) : (fabs(u0[1]) < fabs(u0[2]) ? 1 : 2);
    Vec3 e{{0, 0, 0}};
    e[k] = 1.0;
    w = cross(u0, e);
    wn = norm(w);
  }
  const Vec3 u1{{w[0] / wn, w[1] / wn, w[2] / wn}};
  const Vec3 u2 = cross(u0, u1);
  set_column(r.U, 0, u0);
  set_column(r.U, 1, u1);
  set_column(r.U, 2, u2);
  r.sigma = Vec3{{s0, dot(u1, a1), dot(u2, a2)}};
  return r;
}

/// Rotation part R of the polar decomposition F = R S (R proper rotation, S symmetric),
/// R = U V^T from svd3(); for det F < 0 this is the closest rotation, not a reflection.
SINEW_HD Mat3 polar_rotation(const Mat3& F) {
  const Svd3 s = svd3(F);
  return s.U * transpose(s.V);
}

}  // namespace sinew
