/// @file
/// @brief Small vector helpers on sinew::Vec3 used by the collision primitives (host and device).
///
/// They live in the nested namespace sinew::v3 with plain names rather than as operators on
/// sinew::Vec3, so that they cannot clash with helpers another library may add for the same core
/// type.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew {
/// Vector helpers on sinew::Vec3 for collision code (host and device).
namespace v3 {

/// The vector (x, y, z).
SINEW_HD Vec3 make(double x, double y, double z) { return Vec3{{x, y, z}}; }
/// Sum a + b.
SINEW_HD Vec3 add(const Vec3& a, const Vec3& b) { return Vec3{{a[0] + b[0], a[1] + b[1], a[2] + b[2]}}; }
/// Difference a - b.
SINEW_HD Vec3 sub(const Vec3& a, const Vec3& b) { return Vec3{{a[0] - b[0], a[1] - b[1], a[2] - b[2]}}; }
/// Scaled vector s a.
SINEW_HD Vec3 scale(double s, const Vec3& a) { return Vec3{{s * a[0], s * a[1], s * a[2]}}; }
/// a + s b (the axpy of one 3-vector).
SINEW_HD Vec3 madd(const Vec3& a, double s, const Vec3& b) {
  return Vec3{{a[0] + s * b[0], a[1] + s * b[1], a[2] + s * b[2]}};
}
/// Negated vector -a.
SINEW_HD Vec3 neg(const Vec3& a) { return Vec3{{-a[0], -a[1], -a[2]}}; }
/// Squared norm |a|^2.
SINEW_HD double sqnorm(const Vec3& a) { return dot(a, a); }
/// Squared distance |a - b|^2.
SINEW_HD double sqdist(const Vec3& a, const Vec3& b) { return sqnorm(sub(a, b)); }
/// Component-wise minimum.
SINEW_HD Vec3 cmin(const Vec3& a, const Vec3& b) {
  return Vec3{{fmin(a[0], b[0]), fmin(a[1], b[1]), fmin(a[2], b[2])}};
}
/// Component-wise maximum.
SINEW_HD Vec3 cmax(const Vec3& a, const Vec3& b) {
  return Vec3{{fmax(a[0], b[0]), fmax(a[1], b[1]), fmax(a[2], b[2])}};
}
/// a / |a|, or @p fallback when |a| is zero (so that callers always get a unit vector).
SINEW_HD Vec3 normalized_or(const Vec3& a, const Vec3& fallback) {
  const double n = norm(a);
  return n > 0.0 ? scale(1.0 / n, a) : fallback;
}
/// Matrix-vector product A x.
SINEW_HD Vec3 mul(const Mat3& A, const Vec3& x) {
  return Vec3{{A(0, 0) * x[0] + A(0, 1) * x[1] + A(0, 2) * x[2], A(1, 0) * x[0] + A(1, 1) * x[1] + A(1, 2) * x[2],
               A(2, 0) * x[0] + A(2, 1) * x[1] + A(2, 2) * x[2]}};
}
/// Transposed matrix-vector product A^T x.
SINEW_HD Vec3 mul_t(const Mat3& A, const Vec3& x) {
  return Vec3{{A(0, 0) * x[0] + A(1, 0) * x[1] + A(2, 0) * x[2], A(0, 1) * x[0] + A(1, 1) * x[1] + A(2, 1) * x[2],
               A(0, 2) * x[0] + A(1, 2) * x[1] + A(2, 2) * x[2]}};
}
/// x clamped to [lo, hi].
SINEW_HD double clamp(double x, double lo, double hi) { return x < lo ? lo : (x > hi ? hi : x); }

}  // namespace v3
}  // namespace sinew
