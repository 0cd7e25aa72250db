/// @file
/// @brief Plain 3-vectors and 3x3 matrices for per-element math that must compile for host and
/// device alike (nvcc accepts these where it would warn on Eigen's fixed-size types).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"

namespace sinew {

/// A 3-vector of doubles as plain data, usable inside SINEW_HD functions.
struct Vec3 {
  double v[3];  ///< components x, y, z

  /// Component i (0, 1 or 2).
  SINEW_HD double& operator[](int i) { return v[i]; }
  /// Component i (0, 1 or 2).
  SINEW_HD const double& operator[](int i) const { return v[i]; }
};

/// A 3x3 matrix of doubles as plain data, stored row-major: m[3*r + c].
struct Mat3 {
  double m[9];  ///< row-major entries

  /// Entry (r, c).
  SINEW_HD double& operator()(int r, int c) { return m[3 * r + c]; }
  /// Entry (r, c).
  SINEW_HD const double& operator()(int r, int c) const { return m[3 * r + c]; }
};

/// Whether every component of @p a is finite (for input checks in host code).
inline bool is_finite(const Vec3& a) { return std::isfinite(a[0]) && std::isfinite(a[1]) && std::isfinite(a[2]); }

/// The 3x3 identity.
SINEW_HD Mat3 identity3() { return Mat3{{1, 0, 0, 0, 1, 0, 0, 0, 1}}; }

/// Dot product a . b.
SINEW_HD double dot(const Vec3& a, const Vec3& b) { return a[0] * b[0] + a[1] * b[1] + a[2] * b[2]; }

/// Cross product a x b.
SINEW_HD Vec3 cross(const Vec3& a, const Vec3& b) {
  return Vec3{{a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]}};
}

/// Euclidean norm |a|.
SINEW_HD double norm(const Vec3& a) { return sqrt(dot(a, a)); }

/// Column c of A.
SINEW_HD Vec3 column(const Mat3& A, int c) { return Vec3{{A(0, c), A(1, c), A(2, c)}}; }

/// Sets column c of A to a.
SINEW_HD void set_column(Mat3& A, int c, const Vec3& a) {
  A(0, c) = a[0];
  A(1, c) = a[1];
  A(2, c) = a[2];
}

/// Matrix product A B.
SINEW_HD Mat3 operator*(const Mat3& A, const Mat3& B) {
  Mat3 C{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) C(r, c) = A(r, 0) * B(0, c) + A(r, 1) * B(1, c) + A(r, 2) * B(2, c);
  return C;
}

/// Transpose A^T.
SINEW_HD Mat3 transpose(const Mat3& A) {
  Mat3 T{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) T(c, r) = A(r, c);
  return T;
}

/// Determinant det(A).
SINEW_HD double determinant(const Mat3& A) {
  return A(0, 0) * (A(1, 1) * A(2, 2) - A(1, 2) * A(2, 1)) - A(0, 1) * (A(1, 0) * A(2, 2) - A(1, 2) * A(2, 0)) +
         A(0, 2) * (A(1, 0) * A(2, 1) - A(1, 1) * A(2, 0));
}

}  // namespace sinew
