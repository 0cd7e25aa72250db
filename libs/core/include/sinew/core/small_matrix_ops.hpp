/// @file
/// @brief Arithmetic on the core POD types sinew::Vec3 and sinew::Mat3 (sums, scaling,
/// matrix-vector products, the cross-product matrix, outer products, a 3x3 Cholesky factor),
/// written once for host and device.
///
/// The operators live in namespace sinew next to the types they act on (core owns Vec3 and
/// Mat3). The named helpers use names that no other sinew library defines for the same
/// argument types (materials has its own `skew`, `outer` and `trace`), so headers of both
/// libraries can be included in one translation unit.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew {

/// Sum a + b.
SINEW_HD Vec3 operator+(const Vec3& a, const Vec3& b) { return Vec3{{a[0] + b[0], a[1] + b[1], a[2] + b[2]}}; }

/// Difference a - b.
SINEW_HD Vec3 operator-(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }

/// Negation -a.
SINEW_HD Vec3 operator-(const Vec3& a) { return Vec3{{-a[0], -a[1], -a[2]}}; }

/// Scaling s a.
SINEW_HD Vec3 operator*(double s, const Vec3& a) { return Vec3{{s * a[0], s * a[1], s * a[2]}}; }

/// Scaling a s.
SINEW_HD Vec3 operator*(const Vec3& a, double s) { return s * a; }

/// Matrix-vector product A x.
SINEW_HD Vec3 operator*(const Mat3& A, const Vec3& x) {
  return Vec3{{A(0, 0) * x[0] + A(0, 1) * x[1] + A(0, 2) * x[2], A(1, 0) * x[0] + A(1, 1) * x[1] + A(1, 2) * x[2],
               A(2, 0) * x[0] + A(2, 1) * x[1] + A(2, 2) * x[2]}};
}

/// Transposed matrix-vector product A^T x (without forming A^T).
SINEW_HD Vec3 transpose_times(const Mat3& A, const Vec3& x) {
  return Vec3{{A(0, 0) * x[0] + A(1, 0) * x[1] + A(2, 0) * x[2], A(0, 1) * x[0] + A(1, 1) * x[1] + A(2, 1) * x[2],
               A(0, 2) * x[0] + A(1, 2) * x[1] + A(2, 2) * x[2]}};
}

/// Sum A + B.
SINEW_HD Mat3 operator+(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int k = 0; k < 9; ++k) C.m[k] = A.m[k] + B.m[k];
  return C;
}

/// Difference A - B.
SINEW_HD Mat3 operator-(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int k = 0; k < 9; ++k) C.m[k] = A.m[k] - B.m[k];
  return C;
}

/// Scaling s A.
SINEW_HD Mat3 operator*(double s, const Mat3& A) {
  Mat3 C{};
  for (int k = 0; k < 9; ++k) C.m[k] = s * A.m[k];
  return C;
}

/// Squared Euclidean norm |a|^2.
SINEW_HD double squared_norm(const Vec3& a) { return dot(a, a); }

/// The skew-symmetric cross-product matrix [a], with [a] x = a x x (the [c] of mechanics notes
/// sec. 0.1).
SINEW_HD Mat3 cross_matrix(const Vec3& a) { return Mat3{{0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0}}; }

/// Outer product a b^T.
SINEW_HD Mat3 outer_product(const Vec3& a, const Vec3& b) {
  return Mat3{{a[0] * b[0], a[0] * b[1], a[0] * b[2], a[1] * b[0], a[1] * b[1], a[1] * b[2], a[2] * b[0], a[2] * b[1],
               a[2] * b[2]}};
}

/// Cholesky factor of a symmetric 3x3 matrix: A = L L^T with L lower triangular (upper entries
/// zero) and a positive diagonal. Reads only the lower triangle of A. Returns false, leaving L
/// unspecified, when a pivot is not positive (A not positive definite) or not finite.
SINEW_HD bool cholesky3(const Mat3& A, Mat3& L) {
  L = Mat3{};
  const double d0 = A(0, 0);
  if (!(d0 > 0.0) || !(d0 < INFINITY)) return false;
  L(0, 0) = sqrt(d0);
  L(1, 0) = A(1, 0) / L(0, 0);
  L(2, 0) = A(2, 0) / L(0, 0);
  const double d1 = A(1, 1) - L(1, 0) * L(1, 0);
  if (!(d1 > 0.0) || !(d1 < INFINITY)) return false;
  L(1, 1) = sqrt(d1);
  L(2, 1) = (A(2, 1) - L(2, 0) * L(1, 0)) / L(1, 1);
  const double d2 = A(2, 2) - L(2, 0) * L(2, 0) - L(2, 1) * L(2, 1);
  if (!(d2 > 0.0) || !(d2 < INFINITY)) return false;
  L(2, 2) = sqrt(d2);
  return true;
}

/// Solves L x = b by forward substitution, L lower triangular with a non-zero diagonal (as made
/// by cholesky3()).
SINEW_HD Vec3 lower_solve(const Mat3& L, const Vec3& b) {
  Vec3 x{};
  x[0] = b[0] / L(0, 0);
  x[1] = (b[1] - L(1, 0) * x[0]) / L(1, 1);
  x[2] = (b[2] - L(2, 0) * x[0] - L(2, 1) * x[1]) / L(2, 2);
  return x;
}

/// Solves L^T x = b by back substitution, L lower triangular with a non-zero diagonal.
SINEW_HD Vec3 lower_transpose_solve(const Mat3& L, const Vec3& b) {
  Vec3 x{};
  x[2] = b[2] / L(2, 2);
  x[1] = (b[1] - L(2, 1) * x[2]) / L(1, 1);
  x[0] = (b[0] - L(1, 0) * x[1] - L(2, 0) * x[2]) / L(0, 0);
  return x;
}

}  // namespace sinew
