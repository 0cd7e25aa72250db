/// @file
/// @brief Vec3 and Mat3 to and from Eigen: the public structs keep the plain form because the
/// same data reaches device kernels (small_matrix.hpp), and a user's Eigen code crosses over in
/// one call instead of mapping the raw arrays.
#pragma once

#include <Eigen/Core>

#include "sinew/core/small_matrix.hpp"

namespace sinew {

/// @p a as an Eigen vector.
inline Eigen::Vector3d to_eigen(const Vec3& a) { return Eigen::Vector3d(a[0], a[1], a[2]); }

/// @p A as an Eigen matrix.
inline Eigen::Matrix3d to_eigen(const Mat3& A) {
  Eigen::Matrix3d out;
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out(r, c) = A(r, c);
  return out;
}

/// An Eigen 3-vector (or any expression of one) as a Vec3.
inline Vec3 to_vec3(const Eigen::Ref<const Eigen::Vector3d>& a) { return Vec3{{a[0], a[1], a[2]}}; }

/// An Eigen 3x3 matrix as a Mat3.
inline Mat3 to_mat3(const Eigen::Ref<const Eigen::Matrix3d>& A) {
  Mat3 out{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) out(r, c) = A(r, c);
  return out;
}

}  // namespace sinew
