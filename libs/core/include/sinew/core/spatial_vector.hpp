/// @file
/// @brief Six-dimensional spatial vectors of rigid-body mechanics (twists and wrenches) and a
/// 6x6 matrix, as plain data for host and device: the vocabulary of mechanics notes sec. 0.1.
///
/// Layout: translational part first, rotational part second, as in the spatial velocity
/// (v, w) and the 6x6 spatial inertia of sec. 0.1. A twist and a wrench are kept as distinct
/// types because they transform differently between frames (rigid_transform.hpp).
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew {

/// Spatial velocity (twist) of a rigid body: v is the velocity of the point of the body at the
/// origin of the frame the components are given in, w the angular velocity, both in that
/// frame's coordinates; the velocity field is u(x) = v + w x x (mechanics notes sec. 0.1, 0.19).
struct Twist {
  Vec3 v;  ///< linear velocity of the body point at the frame origin
  Vec3 w;  ///< angular velocity
};

/// Spatial force (wrench) or spatial momentum: f is the force (linear momentum), tau the torque
/// (angular momentum) about the origin of the frame the components are given in.
struct Wrench {
  Vec3 f;    ///< force, or linear momentum
  Vec3 tau;  ///< torque, or angular momentum, about the frame origin
};

/// Sum of two twists.
SINEW_HD Twist operator+(const Twist& a, const Twist& b) { return Twist{a.v + b.v, a.w + b.w}; }

/// Scaling s V of a twist.
SINEW_HD Twist operator*(double s, const Twist& a) { return Twist{s * a.v, s * a.w}; }

/// Sum of two wrenches.
SINEW_HD Wrench operator+(const Wrench& a, const Wrench& b) { return Wrench{a.f + b.f, a.tau + b.tau}; }

/// Scaling s F of a wrench.
SINEW_HD Wrench operator*(double s, const Wrench& a) { return Wrench{s * a.f, s * a.tau}; }

/// Power of a wrench on a twist, F . V = f . v + tau . w (both in the same frame); the pairing
/// that frame changes preserve.
SINEW_HD double power(const Twist& V, const Wrench& F) { return dot(F.f, V.v) + dot(F.tau, V.w); }

/// The velocity u(x) = v + w x x of the body point at x (coordinates of the twist's frame).
SINEW_HD Vec3 point_velocity(const Twist& V, const Vec3& x) { return V.v + cross(V.w, x); }

/// A 6x6 matrix of doubles as plain data, row-major m[6*r + c], acting on (translational,
/// rotational) 6-vectors; rows/columns 0-2 are the translational block, 3-5 the rotational one.
struct SpatialMatrix {
  double m[36];  ///< row-major entries

  /// Entry (r, c).
  SINEW_HD double& operator()(int r, int c) { return m[6 * r + c]; }
  /// Entry (r, c).
  SINEW_HD const double& operator()(int r, int c) const { return m[6 * r + c]; }
};

/// Builds the 6x6 matrix [A B; C D] from four 3x3 blocks.
SINEW_HD SpatialMatrix spatial_blocks(const Mat3& A, const Mat3& B, const Mat3& C, const Mat3& D) {
  SpatialMatrix S{};
  for (int r = 0; r < 3; ++r) {
    for (int c = 0; c < 3; ++c) {
      S(r, c) = A(r, c);
      S(r, c + 3) = B(r, c);
      S(r + 3, c) = C(r, c);
      S(r + 3, c + 3) = D(r, c);
    }
  }
  return S;
}

/// Matrix product of two 6x6 matrices.
SINEW_HD SpatialMatrix operator*(const SpatialMatrix& A, const SpatialMatrix& B) {
  SpatialMatrix C{};
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) {
      double s = 0.0;
      for (int k = 0; k < 6; ++k) s += A(r, k) * B(k, c);
      C(r, c) = s;
    }
  return C;
}

/// Product y = S x with x = (x0, x1) and y = (y0, y1) split into translational and rotational
/// 3-vectors.
SINEW_HD void spatial_multiply(const SpatialMatrix& S, const Vec3& x0, const Vec3& x1, Vec3& y0, Vec3& y1) {
  for (int r = 0; r < 3; ++r) {
    double a = 0.0, b = 0.0;
    for (int c = 0; c < 3; ++c) {
      a += S(r, c) * x0[c] + S(r, c + 3) * x1[c];
      b += S(r + 3, c) * x0[c] + S(r + 3, c + 3) * x1[c];
    }
    y0[r] = a;
    y1[r] = b;
  }
}

}  // namespace sinew
