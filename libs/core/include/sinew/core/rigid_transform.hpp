/// @file
/// @brief Rigid transforms (R, p) between frames, and the change of frame of twists (adjoint)
/// and wrenches (its inverse transpose), as plain data for host and device.
///
/// A RigidTransform X_BA = (R, p) gives the pose of frame B in frame A: a point with B
/// coordinates x_B has A coordinates x_A = R x_B + p (R = R_BA rotates B coordinates to A
/// coordinates, p is B's origin in A). Twists and wrenches use the (translational, rotational)
/// layout of mechanics notes sec. 0.1 (spatial_vector.hpp).
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/core/spatial_vector.hpp"

namespace sinew {

/// Pose (R, p) of a frame B in a frame A: x_A = R x_B + p, R a proper rotation.
struct RigidTransform {
  Mat3 R;  ///< rotation from B coordinates to A coordinates (R_BA)
  Vec3 p;  ///< origin of B in A coordinates
};

/// The identity transform (I, 0).
SINEW_HD RigidTransform rigid_identity() { return RigidTransform{identity3(), Vec3{{0, 0, 0}}}; }

/// The transform (rotation_matrix(q), p) from a unit quaternion q (quaternion.hpp, sec. 0.2)
/// and a translation p.
SINEW_HD RigidTransform rigid_from_quaternion(const Quaternion& q, const Vec3& p) {
  return RigidTransform{rotation_matrix(q), p};
}

/// Composition X_CA = X_BA X_CB: apply b first, then a; R = R_a R_b, p = R_a p_b + p_a.
SINEW_HD RigidTransform operator*(const RigidTransform& a, const RigidTransform& b) {
  return RigidTransform{a.R * b.R, a.R * b.p + a.p};
}

/// Inverse X_AB = X_BA^-1 = (R^T, -R^T p).
SINEW_HD RigidTransform inverse(const RigidTransform& X) {
  const Mat3 Rt = transpose(X.R);
  return RigidTransform{Rt, -(Rt * X.p)};
}

/// Point transform x_A = R x_B + p.
SINEW_HD Vec3 transform_point(const RigidTransform& X, const Vec3& x) { return X.R * x + X.p; }

/// Free-vector (direction, velocity, force) transform v_A = R v_B.
SINEW_HD Vec3 transform_vector(const RigidTransform& X, const Vec3& v) { return X.R * v; }

/// Twist change of frame (adjoint): a twist (v, w) in B coordinates about B's origin becomes,
/// in A coordinates about A's origin, (R v + p x R w, R w); the velocity field it describes is
/// the same (point_velocity(V_A, x_A) = R point_velocity(V_B, x_B)). Matrix: adjoint_matrix().
SINEW_HD Twist twist_to_parent(const RigidTransform& X, const Twist& V) {
  const Vec3 w = X.R * V.w;
  return Twist{X.R * V.v + cross(X.p, w), w};
}

/// Inverse of twist_to_parent(): (R^T (v - p x w), R^T w) from A to B coordinates.
SINEW_HD Twist twist_from_parent(const RigidTransform& X, const Twist& V) {
  return Twist{transpose_times(X.R, V.v - cross(X.p, V.w)), transpose_times(X.R, V.w)};
}

/// Wrench change of frame: a wrench (f, tau) in B coordinates about B's origin becomes, in A
/// coordinates about A's origin, (R f, R tau + p x R f); the inverse transpose of the adjoint, so
/// that power(twist_to_parent(V), wrench_to_parent(F)) = power(V, F). Spatial momentum
/// transforms the same way.
SINEW_HD Wrench wrench_to_parent(const RigidTransform& X, const Wrench& F) {
  const Vec3 f = X.R * F.f;
  return Wrench{f, X.R * F.tau + cross(X.p, f)};
}

/// Inverse of wrench_to_parent(): (R^T f, R^T (tau - p x f)) from A to B coordinates.
SINEW_HD Wrench wrench_from_parent(const RigidTransform& X, const Wrench& F) {
  return Wrench{transpose_times(X.R, F.f), transpose_times(X.R, F.tau - cross(X.p, F.f))};
}

/// The 6x6 adjoint Ad_X = [R, [p] R; 0, R] of twist_to_parent() ([p] = cross_matrix(p)).
/// Ad_{X1 X2} = Ad_{X1} Ad_{X2}.
SINEW_HD SpatialMatrix adjoint_matrix(const RigidTransform& X) {
  return spatial_blocks(X.R, cross_matrix(X.p) * X.R, Mat3{}, X.R);
}

/// The 6x6 matrix Ad_X^{-T} = [R, 0; [p] R, R] of wrench_to_parent().
SINEW_HD SpatialMatrix wrench_transform_matrix(const RigidTransform& X) {
  return spatial_blocks(X.R, Mat3{}, cross_matrix(X.p) * X.R, X.R);
}

}  // namespace sinew
