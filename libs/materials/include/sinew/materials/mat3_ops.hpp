/// @file
/// @brief Extra 3x3 matrix helpers for per-element constitutive math (sums, scaling, Frobenius
/// products, the cofactor matrix = dJ/dF), written once for host and device.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew {

/// Vector difference a - b.
SINEW_HD Vec3 vec3_sub(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }

/// Entry-wise sum A + B.
SINEW_HD Mat3 mat3_add(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int i = 0; i < 9; ++i) C.m[i] = A.m[i] + B.m[i];
  return C;
}

/// Entry-wise difference A - B.
SINEW_HD Mat3 mat3_sub(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int i = 0; i < 9; ++i) C.m[i] = A.m[i] - B.m[i];
  return C;
}

/// Scaled matrix s A.
SINEW_HD Mat3 mat3_scale(double s, const Mat3& A) {
  Mat3 C{};
  for (int i = 0; i < 9; ++i) C.m[i] = s * A.m[i];
  return C;
}

/// a A + b B, the linear combination used in every stress formula.
SINEW_HD Mat3 mat3_axpby(double a, const Mat3& A, double b, const Mat3& B) {
  Mat3 C{};
  for (int i = 0; i < 9; ++i) C.m[i] = a * A.m[i] + b * B.m[i];
  return C;
}

/// Frobenius inner product A : B = sum_ij A_ij B_ij = tr(A^T B).
SINEW_HD double ddot(const Mat3& A, const Mat3& B) {
  double s = 0.0;
  for (int i = 0; i < 9; ++i) s += A.m[i] * B.m[i];
  return s;
}

/// Squared Frobenius norm ||A||_F^2.
SINEW_HD double frobenius_norm2(const Mat3& A) { return ddot(A, A); }

/// Trace tr(A).
SINEW_HD double trace(const Mat3& A) { return A(0, 0) + A(1, 1) + A(2, 2); }

/// Symmetric part (A + A^T) / 2.
SINEW_HD Mat3 symmetric_part(const Mat3& A) { return mat3_scale(0.5, mat3_add(A, transpose(A))); }

/// Outer product a b^T.
SINEW_HD Mat3 outer(const Vec3& a, const Vec3& b) {
  Mat3 C{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C(r, c) = a[r] * b[c];
  return C;
}

/// Diagonal matrix diag(d0, d1, d2).
SINEW_HD Mat3 diagonal3(double d0, double d1, double d2) { return Mat3{{d0, 0, 0, 0, d1, 0, 0, 0, d2}}; }

/// Cofactor matrix cof(F) = dJ/dF with J = det F; its columns are f1 x f2, f2 x f0, f0 x f1 for
/// the columns f0, f1, f2 of F (so cof(F) = J F^-T where F is invertible).
SINEW_HD Mat3 cofactor(const Mat3& F) {
  const Vec3 f0 = column(F, 0), f1 = column(F, 1), f2 = column(F, 2);
  Mat3 C{};
  set_column(C, 0, cross(f1, f2));
  set_column(C, 1, cross(f2, f0));
  set_column(C, 2, cross(f0, f1));
  return C;
}

/// Directional derivative of cofactor() at F in the direction dF (the Hessian of det F applied to
/// dF): columns df1 x f2 + f1 x df2, df2 x f0 + f2 x df0, df0 x f1 + f0 x df1.
SINEW_HD Mat3 cofactor_differential(const Mat3& F, const Mat3& dF) {
  const Vec3 f0 = column(F, 0), f1 = column(F, 1), f2 = column(F, 2);
  const Vec3 d0 = column(dF, 0), d1 = column(dF, 1), d2 = column(dF, 2);
  Mat3 C{};
  for (int c = 0; c < 3; ++c) {
    const Vec3 a = c == 0 ? cross(d1, f2) : (c == 1 ? cross(d2, f0) : cross(d0, f1));
    const Vec3 b = c == 0 ? cross(f1, d2) : (c == 1 ? cross(f2, d0) : cross(f0, d1));
    set_column(C, c, Vec3{{a[0] + b[0], a[1] + b[1], a[2] + b[2]}});
  }
  return C;
}

/// Inverse of an invertible 3x3 matrix, A^-1 = cof(A)^T / det A; the caller checks det A != 0.
SINEW_HD Mat3 inverse3(const Mat3& A) { return mat3_scale(1.0 / determinant(A), transpose(cofactor(A))); }

/// The unit basis matrix E_k of the row-major vectorization: entry k (= 3 r + c) is one.
SINEW_HD Mat3 basis3(int k) {
  Mat3 E{};
  E.m[k] = 1.0;
  return E;
}

/// Skew matrix [a] with [a] b = a x b.
SINEW_HD Mat3 skew(const Vec3& a) { return Mat3{{0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0}}; }

/// Matrix-vector product A b.
SINEW_HD Vec3 mat3_mul(const Mat3& A, const Vec3& b) {
  return Vec3{{A(0, 0) * b[0] + A(0, 1) * b[1] + A(0, 2) * b[2], A(1, 0) * b[0] + A(1, 1) * b[1] + A(1, 2) * b[2],
               A(2, 0) * b[0] + A(2, 1) * b[1] + A(2, 2) * b[2]}};
}

}  // namespace sinew
