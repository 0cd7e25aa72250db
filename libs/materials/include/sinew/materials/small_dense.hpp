/// @file
/// @brief Fixed-size square matrices (9x9 stress derivatives, 12x12 element Hessians) as plain
/// data, with a cyclic Jacobi eigen-solver and the positive semi-definite projection of a
/// symmetric matrix, written once for host and device.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"

namespace sinew {

/// An N x N matrix of doubles as plain data, stored row-major: m[N*r + c].
template <int N>
struct MatN {
  double m[N * N];  ///< (N x N) row-major entries

  /// Entry (r, c).
  SINEW_HD double& operator()(int r, int c) { return m[N * r + c]; }
  /// Entry (r, c).
  SINEW_HD const double& operator()(int r, int c) const { return m[N * r + c]; }
};

/// dP/dF of a material model: 9x9, rows and columns in the row-major order of F (k = 3 r + c).
using Mat9 = MatN<9>;
/// Hessian of a two-point element (an axial spring): 6x6, coordinates x1 y1 z1 x2 y2 z2.
using Mat6 = MatN<6>;
/// Hessian of a tetrahedron: 12x12, coordinates x0 y0 z0 x1 y1 z1 ... z3.
using Mat12 = MatN<12>;

/// Replaces A by its symmetric part (A + A^T) / 2 (removes round-off asymmetry).
template <int N>
SINEW_HD void symmetrize(MatN<N>& A) {
  for (int r = 0; r < N; ++r)
    for (int c = r + 1; c < N; ++c) {
      const double s = 0.5 * (A(r, c) + A(c, r));
      A(r, c) = s;
      A(c, r) = s;
    }
}

/// Eigen-decomposition of a symmetric N x N matrix by cyclic Jacobi rotations:
/// A = Q diag(lambda) Q^T.
///
/// Jacobi is slow for large N but simple, branch-light and accurate to round-off in every
/// eigenvalue (also the small ones that decide definiteness), which is what the projection of
/// 9x9 and 12x12 element Hessians needs.
/// @param A       (N x N) symmetric matrix; only its values are read.
/// @param lambda  (N) eigenvalues, unsorted.
/// @param Q       (N x N) orthogonal matrix, column j is the eigenvector of lambda[j].
template <int N>
SINEW_HD void jacobi_eigen_symmetric(const MatN<N>& A, double lambda[N], MatN<N>& Q) {
  MatN<N> a = A;
  for (int i = 0; i < N * N; ++i) Q.m[i] = 0.0;
  for (int i = 0; i < N; ++i) Q(i, i) = 1.0;
  constexpr int kMaxSweeps = 50;  // quadratic convergence: ~6-10 sweeps reach round-off for N <= 12
  for (int sweep = 0; sweep < kMaxSweeps; ++sweep) {
    double off = 0.0, diag = 0.0;
    for (int r = 0; r < N; ++r) {
      diag += a(r, r) * a(r, r);
      for (int c = r + 1; c < N; ++c) off += a(r, c) * a(r, c);
    }
    if (off <= 1e-30 * diag || off == 0.0) break;  // off-diagonal mass below (1e-15)^2 of the diagonal
    for (int p = 0; p < N - 1; ++p)
      for (int q = p + 1; q < N; ++q) {
        const double apq = a(p, q);
        if (apq == 0.0) continue;
        const double theta = (a(q, q) - a(p, p)) / (2.0 * apq);
        const double t = (theta >= 0 ? 1.0 : -1.0) / (fabs(theta) + sqrt(theta * theta + 1.0));
        const double c = 1.0 / sqrt(t * t + 1.0), s = t * c;
        for (int k = 0; k < N; ++k) {  // A <- A J (columns p, q)
          const double akp = a(k, p), akq = a(k, q);
          a(k, p) = c * akp - s * akq;
          a(k, q) = s * akp + c * akq;
        }
        for (int k = 0; k < N; ++k) {  // A <- J^T A (rows p, q)
          const double apk = a(p, k), aqk = a(q, k);
          a(p, k) = c * apk - s * aqk;
          a(q, k) = s * apk + c * aqk;
        }
        for (int k = 0; k < N; ++k) {  // Q <- Q J
          const double qkp = Q(k, p), qkq = Q(k, q);
          Q(k, p) = c * qkp - s * qkq;
          Q(k, q) = s * qkp + c * qkq;
        }
      }
  }
  for (int i = 0; i < N; ++i) lambda[i] = a(i, i);
}

/// Positive semi-definite projection of a symmetric matrix: A = Q diag(lambda) Q^T is replaced by
/// Q diag(max(lambda, 0)) Q^T, the closest PSD matrix in the Frobenius norm (Teran et al. 2005
/// clamp each element's negative eigenvalues so that Newton's method gets a descent direction).
/// A matrix that is already PSD comes back symmetrized but otherwise bit for bit (no
/// reconstruction round-off).
/// @param A  (N x N) symmetric matrix, projected in place.
template <int N>
SINEW_HD void project_psd(MatN<N>& A) {
  symmetrize(A);
  double lambda[N];
  MatN<N> Q;
  jacobi_eigen_symmetric(A, lambda, Q);
  bool negative = false;
  for (int i = 0; i < N; ++i) negative = negative || lambda[i] < 0.0;
  if (!negative) return;
  for (int r = 0; r < N; ++r)
    for (int c = 0; c < N; ++c) {
      double s = 0.0;
      for (int k = 0; k < N; ++k)
        if (lambda[k] > 0.0) s += Q(r, k) * lambda[k] * Q(c, k);
      A(r, c) = s;
    }
}

}  // namespace sinew
