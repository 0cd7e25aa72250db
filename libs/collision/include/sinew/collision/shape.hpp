/// @file
/// @brief Analytic collision shapes, their rigid placement (pose) and rigid motion (host and
/// device).
#pragma once

#include <cmath>

#include "sinew/collision/vec3_ops.hpp"

namespace sinew {

/// Kind of an analytic shape; every shape is defined in its own local frame.
enum class ShapeType : int {
  kHalfSpace = 0,  ///< the solid z <= 0 of the local frame (outward normal +z); no parameters
  kSphere = 1,     ///< ball of radius size[0] centred at the origin
  kBox = 2,        ///< box of half extents (size[0], size[1], size[2]) centred at the origin
  kCapsule = 3,    ///< points within radius size[0] of the segment z in [-size[1], size[1]]
  kCylinder = 4,   ///< solid cylinder of radius size[0] around z, z in [-size[1], size[1]]
  kCount = 5       ///< number of shape types (size of the narrow-phase table)
};

/// An analytic shape: its type and sizes in its local frame.
struct Shape {
  ShapeType type;  ///< which shape
  double size[3];  ///< sizes as documented by ShapeType (unused entries ignored)
};

/// Radius of a ball about the local origin that holds @p shape (+infinity for a half-space): two
/// shapes whose balls are farther apart than the margin cannot touch, a test that skips their
/// narrow phase exactly.
SINEW_HD double bounding_radius(const Shape& shape) {
  const double* s = shape.size;
  switch (shape.type) {
    case ShapeType::kSphere:
      return s[0];
    case ShapeType::kBox:
      return sqrt(s[0] * s[0] + s[1] * s[1] + s[2] * s[2]);
    case ShapeType::kCapsule:
      return s[0] + s[1];
    case ShapeType::kCylinder:
      return sqrt(s[0] * s[0] + s[1] * s[1]);
    default:
      return INFINITY;
  }
}

/// Rigid placement x_world = rotation x_local + translation.
struct Pose {
  Mat3 rotation;     ///< rotation matrix (orthonormal, det +1), row-major
  Vec3 translation;  ///< position of the local origin in the world frame
};

/// Rigid velocity of a moving shape: the velocity of the material point at world position x is
/// linear + angular x (x - pose.translation).
struct Motion {
  Vec3 linear;   ///< velocity of the shape's local origin, world frame
  Vec3 angular;  ///< angular velocity, world frame
};

/// The identity pose.
SINEW_HD Pose identity_pose() { return Pose{identity3(), v3::make(0, 0, 0)}; }

/// A world point expressed in the local frame of @p pose: R^T (x - t).
SINEW_HD Vec3 to_local(const Pose& pose, const Vec3& x) {
  return v3::mul_t(pose.rotation, v3::sub(x, pose.translation));
}

/// A local point expressed in the world frame: R x + t.
SINEW_HD Vec3 to_world(const Pose& pose, const Vec3& x) { return v3::add(v3::mul(pose.rotation, x), pose.translation); }

/// A local direction expressed in the world frame: R d.
SINEW_HD Vec3 to_world_direction(const Pose& pose, const Vec3& d) { return v3::mul(pose.rotation, d); }

/// Velocity of the material point of a rigidly moving shape found at world position x:
/// linear + angular x (x - pose.translation) (the obstacle velocity u of Eq. 31).
SINEW_HD Vec3 point_velocity(const Pose& pose, const Motion& motion, const Vec3& x) {
  return v3::add(motion.linear, cross(motion.angular, v3::sub(x, pose.translation)));
}

}  // namespace sinew
