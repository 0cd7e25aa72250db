/// @file
/// @brief Unit quaternions for rigid-body rotations: Hamilton product, rotation of vectors,
/// conversion to and from rotation matrices, the exact exponential map of a rotation vector and
/// its inverse, and the rotation update and time derivative of mechanics notes sec. 0.2.
///
/// Conventions (mechanics notes sec. 0.2, "artisynth-mechanics-notes.txt"):
/// - a rotation by angle theta about the unit axis u is q = (cos(theta/2), sin(theta/2) u);
/// - the product is qp = (q_s p_s - q_v . p_v, q_s p_v + p_s q_v + q_v x p_v) (Hamilton, the
///   same as Eigen::Quaterniond);
/// - a quaternion q describing a rotated frame maps rotated coordinates to world coordinates:
///   ^W v = q (0, ^R v) q^-1, and rotation_matrix(q) is that map as a matrix (R_RW);
/// - with the angular velocity w in world (base) coordinates qdot = 1/2 (0, w) q (eq. 0.1), with
///   w in rotated (body) coordinates qdot = 1/2 q (0, w).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew {

/// A quaternion (s, v) with scalar part s and vector part v, as plain data; rotations use unit
/// quaternions (mechanics notes sec. 0.2). q and -q are the same rotation.
struct Quaternion {
  double s;  ///< scalar part q_s (cos(theta/2) for a rotation by theta)
  Vec3 v;    ///< vector part q_v (sin(theta/2) u for a rotation about the unit axis u)
};

/// The identity rotation (1, 0).
SINEW_HD Quaternion quat_identity() { return Quaternion{1.0, Vec3{{0, 0, 0}}}; }

/// Hamilton product qp = (q_s p_s - q_v . p_v, q_s p_v + p_s q_v + q_v x p_v) (sec. 0.2). For
/// unit quaternions, the rotation qp applies p first, then q.
SINEW_HD Quaternion operator*(const Quaternion& q, const Quaternion& p) {
  return Quaternion{q.s * p.s - dot(q.v, p.v), q.s * p.v + p.s * q.v + cross(q.v, p.v)};
}

/// Scaling a q (used for derivatives; the result is not a unit quaternion).
SINEW_HD Quaternion operator*(double a, const Quaternion& q) { return Quaternion{a * q.s, a * q.v}; }

/// Conjugate (q_s, -q_v); the inverse q^-1 of a unit quaternion.
SINEW_HD Quaternion conjugate(const Quaternion& q) { return Quaternion{q.s, -q.v}; }

/// Euclidean norm sqrt(q_s^2 + |q_v|^2).
SINEW_HD double norm(const Quaternion& q) { return sqrt(q.s * q.s + dot(q.v, q.v)); }

/// q / |q|, the nearest unit quaternion; the identity when q is zero.
SINEW_HD Quaternion normalized(const Quaternion& q) {
  const double n = norm(q);
  if (!(n > 0.0)) return quat_identity();
  return (1.0 / n) * q;
}

/// Rotation of a vector, q (0, x) q^-1 for unit q (sec. 0.2: rotated to world coordinates),
/// evaluated as x + 2 q_s (q_v x x) + 2 q_v x (q_v x x).
SINEW_HD Vec3 rotate(const Quaternion& q, const Vec3& x) {
  const Vec3 t = cross(q.v, x);
  return x + (2.0 * q.s) * t + 2.0 * cross(q.v, t);
}

/// The rotation matrix R of a unit quaternion, R x = rotate(q, x) (rotated to world
/// coordinates, R_RW).
SINEW_HD Mat3 rotation_matrix(const Quaternion& q) {
  const double s = q.s, x = q.v[0], y = q.v[1], z = q.v[2];
  return Mat3{{1 - 2 * (y * y + z * z), 2 * (x * y - s * z), 2 * (x * z + s * y),  //
               2 * (x * y + s * z), 1 - 2 * (x * x + z * z), 2 * (y * z - s * x),  //
               2 * (x * z - s * y), 2 * (y * z + s * x), 1 - 2 * (x * x + y * y)}};
}

/// The unit quaternion of a rotation matrix R (inverse of rotation_matrix()), with q_s >= 0.
/// Uses Shepperd's method (largest of the four squared components first) so that it stays
/// accurate for every angle, including near pi. R is assumed orthonormal with det R = +1; the
/// result is normalised, so small departures from orthonormality are tolerated.
SINEW_HD Quaternion quat_from_rotation_matrix(const Mat3& R) {
  const double t = R(0, 0) + R(1, 1) + R(2, 2);
  Quaternion q{};
  if (t >= R(0, 0) && t >= R(1, 1) && t >= R(2, 2)) {
    const double r = sqrt(1.0 + t);  // r = 2 |q_s|
    const double f = 0.5 / r;
    q = Quaternion{0.5 * r, Vec3{{(R(2, 1) - R(1, 2)) * f, (R(0, 2) - R(2, 0)) * f, (R(1, 0) - R(0, 1)) * f}}};
  } else {
    int i = 0;
    if (R(1, 1) > R(i, i)) i = 1;
    if (R(2, 2) > R(i, i)) i = 2;
    const int j = (i + 1) % 3, k = (i + 2) % 3;
    const double r = sqrt(1.0 + R(i, i) - R(j, j) - R(k, k));  // r = 2 |q_v[i]|
    const double f = 0.5 / r;
    q.s = (R(k, j) - R(j, k)) * f;
    q.v[i] = 0.5 * r;
    q.v[j] = (R(j, i) + R(i, j)) * f;
    q.v[k] = (R(k, i) + R(i, k)) * f;
  }
  if (q.s < 0.0) q = -1.0 * q;
  return normalized(q);
}

/// The rotation by angle theta about the unit axis u: q = (cos(theta/2), sin(theta/2) u)
/// (sec. 0.2).
SINEW_HD Quaternion quat_from_axis_angle(const Vec3& u, double theta) {
  return Quaternion{cos(0.5 * theta), sin(0.5 * theta) * u};
}

/// Exact exponential map of a rotation vector: the unit quaternion of the rotation by |phi|
/// about phi/|phi|, q = (cos(|phi|/2), sin(|phi|/2) phi/|phi|) (sec. 0.2); this is the
/// quaternion exponential e^{(0, phi/2)}. Uses a Taylor series of sin(|phi|/2)/|phi| for
/// |phi| < 1e-3, so it is exact to round-off for tiny and zero vectors.
SINEW_HD Quaternion quat_exp(const Vec3& phi) {
  const double theta2 = dot(phi, phi);
  const double theta = sqrt(theta2);
  double k;  // sin(theta/2) / theta
  if (theta2 < 1e-6) {
    k = 0.5 - theta2 / 48.0 + theta2 * theta2 / 3840.0;  // next term theta^6/645120 < 2e-24
  } else {
    k = sin(0.5 * theta) / theta;
  }
  return Quaternion{cos(0.5 * theta), k * phi};
}

/// Inverse of quat_exp(): the rotation vector phi = theta u of q with 0 <= theta <= pi (q and -q
/// give the same phi, except at theta = pi where both pi u and -pi u are valid and the sign of
/// q's vector part decides). theta/2 = atan2(|q_v|, |q_s|), which is accurate at every angle
/// (near zero and near pi alike); |q_v| < 1e-3 |q_s| uses a Taylor series of atan(x)/x. q need
/// not be exactly unit: the angle depends only on the ratio |q_v| / q_s.
SINEW_HD Vec3 quat_log(const Quaternion& q) {
  const double sgn = q.s < 0.0 ? -1.0 : 1.0;
  const double s = sgn * q.s;  // s >= 0: the representative with theta <= pi
  const double n = norm(q.v);
  if (n == 0.0) return Vec3{{0, 0, 0}};
  double f;  // phi = f q_v
  if (n < 1e-3 * s) {
    const double x2 = (n / s) * (n / s);
    f = 2.0 / s * (1.0 - x2 / 3.0 + x2 * x2 / 5.0);  // 2 atan(x) / n with x = n / s; next term x^6/7
  } else {
    f = 2.0 * atan2(n, s) / n;
  }
  return (sgn * f) * q.v;
}

/// Time derivative of q for an angular velocity w in world (base) coordinates:
/// qdot = 1/2 (0, w) q (mechanics notes eq. 0.1).
SINEW_HD Quaternion quat_derivative_world(const Quaternion& q, const Vec3& w) { return 0.5 * (Quaternion{0.0, w} * q); }

/// Time derivative of q for an angular velocity w in rotated (body) coordinates:
/// qdot = 1/2 q (0, w) (sec. 0.2).
SINEW_HD Quaternion quat_derivative_body(const Quaternion& q, const Vec3& w) { return 0.5 * (q * Quaternion{0.0, w}); }

/// Exact rotation update for a constant angular velocity w in world coordinates over a step h:
/// q_{k+1} = exp(h w) q_k with exp = quat_exp() (= e^{(0, h w/2)} q_k), the exact solution of
/// eq. 0.1 for constant w. The result is renormalised to stop round-off drift of |q|.
SINEW_HD Quaternion quat_step_world(const Quaternion& q, const Vec3& w, double h) {
  return normalized(quat_exp(h * w) * q);
}

/// Exact rotation update for a constant angular velocity w in rotated (body) coordinates over a
/// step h: q_{k+1} = q_k exp(h w), the exact solution of qdot = 1/2 q (0, w) (sec. 0.2) for
/// constant w. The result is renormalised.
SINEW_HD Quaternion quat_step_body(const Quaternion& q, const Vec3& w, double h) {
  return normalized(q * quat_exp(h * w));
}

}  // namespace sinew
