/// @file
/// @brief Signed distance, outward normal and closest surface point of a point to each analytic
/// shape (half-space, sphere, box, capsule, cylinder), in local or world frame (host and device).
#pragma once

#include "sinew/collision/shape.hpp"

namespace sinew {

/// Signed distance query result. closest = point - distance * normal lies on the surface.
struct SignedDistance {
  double distance;  ///< signed distance: > 0 outside, < 0 inside (penetration depth)
  Vec3 normal;      ///< unit outward surface normal at the closest surface point
  Vec3 closest;     ///< closest point on the shape's surface
};

namespace detail {
/// Completes a SignedDistance from distance and normal.
SINEW_HD SignedDistance make_signed_distance(const Vec3& p, double distance, const Vec3& normal) {
  return SignedDistance{distance, normal, v3::madd(p, -distance, normal)};
}
/// Sign of x with sign(0) = +1, so points on a symmetry plane get a definite normal.
SINEW_HD double sign_nonzero(double x) { return x < 0.0 ? -1.0 : 1.0; }
}  // namespace detail

/// Point vs half-space {x : n . x <= offset} with unit outward normal n.
SINEW_HD SignedDistance point_halfspace(const Vec3& p, const Vec3& n, double offset) {
  return detail::make_signed_distance(p, dot(n, p) - offset, n);
}

/// Point vs sphere of @p radius centred at @p center. At the centre the normal is +z.
SINEW_HD SignedDistance point_sphere(const Vec3& p, const Vec3& center, double radius) {
  const Vec3 d = v3::sub(p, center);
  const double len = norm(d);
  return detail::make_signed_distance(p, len - radius, v3::normalized_or(d, v3::make(0, 0, 1)));
}

/// Point vs axis-aligned box of half extents h centred at the origin (exact signed distance).
/// Inside, the normal is that of the nearest face (ties: lowest axis).
SINEW_HD SignedDistance point_box_local(const Vec3& p, const Vec3& h) {
  Vec3 q;
  for (int k = 0; k < 3; ++k) q[k] = fabs(p[k]) - h[k];
  if (q[0] > 0.0 || q[1] > 0.0 || q[2] > 0.0) {
    Vec3 g;
    for (int k = 0; k < 3; ++k) g[k] = q[k] > 0.0 ? detail::sign_nonzero(p[k]) * q[k] : 0.0;
    const double d = norm(g);
    return detail::make_signed_distance(p, d, v3::scale(1.0 / d, g));
  }
  int k = 0;
  if (q[1] > q[k]) k = 1;
  if (q[2] > q[k]) k = 2;
  Vec3 n = v3::make(0, 0, 0);
  n[k] = detail::sign_nonzero(p[k]);
  return detail::make_signed_distance(p, q[k], n);
}

/// Point vs capsule of @p radius around the segment z in [-half_length, half_length].
SINEW_HD SignedDistance point_capsule_local(const Vec3& p, double radius, double half_length) {
  const Vec3 axis_point = v3::make(0, 0, v3::clamp(p[2], -half_length, half_length));
  // On the axis the normal is the local x axis: any radial direction is valid.
  const Vec3 d = v3::sub(p, axis_point);
  const double len = norm(d);
  return detail::make_signed_distance(p, len - radius, v3::normalized_or(d, v3::make(1, 0, 0)));
}

/// Point vs solid cylinder of @p radius around z, z in [-half_length, half_length] (exact signed
/// distance; inside, the nearest of the side and the caps gives the normal).
SINEW_HD SignedDistance point_cylinder_local(const Vec3& p, double radius, double half_length) {
  const double rho = sqrt(p[0] * p[0] + p[1] * p[1]);
  const Vec3 radial = rho > 0.0 ? v3::make(p[0] / rho, p[1] / rho, 0) : v3::make(1, 0, 0);
  const double dr = rho - radius, dz = fabs(p[2]) - half_length;
  const double sz = detail::sign_nonzero(p[2]);
  if (dr > 0.0 && dz > 0.0) {  // beyond the rim circle
    const double d = sqrt(dr * dr + dz * dz);
    return detail::make_signed_distance(p, d, v3::add(v3::scale(dr / d, radial), v3::make(0, 0, sz * dz / d)));
  }
  if (dr >= dz) return detail::make_signed_distance(p, dr, radial);
  return detail::make_signed_distance(p, dz, v3::make(0, 0, sz));
}

/// Point vs a shape in its local frame.
SINEW_HD SignedDistance point_shape_local(const Vec3& p, const Shape& s) {
  switch (s.type) {
    case ShapeType::kHalfSpace:
      return point_halfspace(p, v3::make(0, 0, 1), 0.0);
    case ShapeType::kSphere:
      return point_sphere(p, v3::make(0, 0, 0), s.size[0]);
    case ShapeType::kBox:
      return point_box_local(p, v3::make(s.size[0], s.size[1], s.size[2]));
    case ShapeType::kCapsule:
      return point_capsule_local(p, s.size[0], s.size[1]);
    case ShapeType::kCylinder:
      return point_cylinder_local(p, s.size[0], s.size[1]);
    default:
      break;
  }
  // Unknown type: +infinity distance, so the point never counts as a contact.
  return SignedDistance{HUGE_VAL, v3::make(0, 0, 1), p};
}

/// Point vs a shape placed by @p pose, all in world frame.
SINEW_HD SignedDistance point_shape(const Vec3& p, const Shape& s, const Pose& pose) {
  const SignedDistance local = point_shape_local(to_local(pose, p), s);
  return SignedDistance{local.distance, to_world_direction(pose, local.normal), to_world(pose, local.closest)};
}

}  // namespace sinew
