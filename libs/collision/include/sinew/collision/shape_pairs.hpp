/// @file
/// @brief Contact functions for pairs of analytic shapes (sphere, capsule, box, cylinder, half
/// space), each placed by a pose; the entries of the narrow-phase pair table (host and device).
#pragma once

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_shape.hpp"

namespace sinew {

/// Most contacts one shape pair produces (box-box: 8 + 8 corners and 12 edges).
constexpr int kMaxPairContacts = 28;

/// One contact between shapes A and B: normal from B to A, gap = normal . (point_a - point_b).
struct ShapePairContact {
  /// World witness point on A's surface; for the end balls of a capsule, the point of the end
  /// ball, which may lie inside the capsule but only shifted along the normal, so the moment
  /// arm (point_a - c) x normal of a rigid body is the same as at the surface.
  Vec3 point_a;
  Vec3 point_b;  ///< world witness point on B's surface
  Vec3 normal;   ///< unit normal from B towards A
  double gap;    ///< signed distance (< 0: penetration depth)
};

/// Signature of a pair function: writes up to kMaxPairContacts contacts with gap <= margin into
/// @p out and returns their number.
using ShapePairFunction = int (*)(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                  ShapePairContact* out);

/// A ball of @p radius centred at world point @p c (A) against any shape B: the point query
/// of the centre, offset by the radius. Appends at most one contact; returns the new count.
SINEW_HD int collide_ball_shape(const Vec3& c, double radius, const Shape& b, const Pose& pb, double margin,
                                ShapePairContact* out, int count) {
  const SignedDistance sd = point_shape(c, b, pb);
  const double gap = sd.distance - radius;
  if (!(gap <= margin)) return count;
  out[count] = ShapePairContact{v3::madd(c, -radius, sd.normal), sd.closest, sd.normal, gap};
  return count + 1;
}

/// Sphere A against any shape B (sphere, box, capsule, cylinder, half space).
SINEW_HD int collide_sphere_shape(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                  ShapePairContact* out) {
  return collide_ball_shape(pa.translation, a.size[0], b, pb, margin, out, 0);
}

/// Capsule A against half space B: the two end balls (two contacts when the capsule lies flat).
SINEW_HD int collide_capsule_halfspace(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                       ShapePairContact* out) {
  int n = collide_ball_shape(to_world(pa, v3::make(0, 0, -a.size[1])), a.size[0], b, pb, margin, out, 0);
  return collide_ball_shape(to_world(pa, v3::make(0, 0, a.size[1])), a.size[0], b, pb, margin, out, n);
}

/// A unit normal for touching segments with directions @p u and @p w: u x w when not
/// parallel, otherwise any direction orthogonal to u (from contact_frame()).
SINEW_HD Vec3 contact_frame_fallback_normal(const Vec3& u, const Vec3& w) {
  const Vec3 c = cross(u, w);
  if (norm(c) > 1e-12 * norm(u) * norm(w)) return v3::scale(1.0 / norm(c), c);
  return contact_frame(u).tangent1;
}

/// Capsule A against capsule B: closest points of the two axes, offset by the radii. When the
/// axes touch the normal is their common perpendicular (or any axis-orthogonal direction).
SINEW_HD int collide_capsule_capsule(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                     ShapePairContact* out) {
  const Vec3 a0 = to_world(pa, v3::make(0, 0, -a.size[1])), a1 = to_world(pa, v3::make(0, 0, a.size[1]));
  const Vec3 b0 = to_world(pb, v3::make(0, 0, -b.size[1])), b1 = to_world(pb, v3::make(0, 0, b.size[1]));
  const EdgeEdgeResult ee = closest_points_segments(a0, a1, b0, b1);
  const double dist = sqrt(ee.distance_squared);
  const double gap = dist - a.size[0] - b.size[0];
  if (!(gap <= margin)) return 0;
  Vec3 n;
  if (dist > 0.0) {
    n = v3::scale(1.0 / dist, v3::sub(ee.closest_p, ee.closest_q));
  } else {
    const Vec3 axis_a = to_world_direction(pa, v3::make(0, 0, 1));
    n = contact_frame_fallback_normal(axis_a, to_world_direction(pb, v3::make(0, 0, 1)));
  }
  out[0] = ShapePairContact{v3::madd(ee.closest_p, -a.size[0], n), v3::madd(ee.closest_q, b.size[0], n), n, gap};
  return 1;
}

/// Box A against half space B: every corner of the box within the margin.
SINEW_HD int collide_box_halfspace(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                   ShapePairContact* out) {
  int n = 0;
  for (int corner = 0; corner < 8; ++corner) {
    const Vec3 local = v3::make((corner & 1) ? a.size[0] : -a.size[0], (corner & 2) ? a.size[1] : -a.size[1],
                                (corner & 4) ? a.size[2] : -a.size[2]);
    const Vec3 c = to_world(pa, local);
    // A half space's signed distance is the local height: corners beyond the margin (half of
    // them for a box at rest) skip the full point query, whose gap test they would fail alike.
    if (!(to_local(pb, c)[2] <= margin)) continue;
    n = collide_ball_shape(c, 0.0, b, pb, margin, out, n);
  }
  return n;
}

/// Cylinder A against half space B: the lowest rim point of each cap; when the axis is
/// parallel to the plane normal (a cap lies flat), four rim points of the lower cap.
SINEW_HD int collide_cylinder_halfspace(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                        ShapePairContact* out) {
  const double r = a.size[0], hl = a.size[1];
  // Plane normal in the cylinder's local frame; its radial part points to the rim's highest point.
  const Vec3 n_local = v3::mul_t(pa.rotation, to_world_direction(pb, v3::make(0, 0, 1)));
  const double radial = sqrt(n_local[0] * n_local[0] + n_local[1] * n_local[1]);
  int n = 0;
  if (radial > 1e-9) {
    const Vec3 d = v3::make(-n_local[0] / radial, -n_local[1] / radial, 0);
    for (int cap = -1; cap <= 1; cap += 2) {
      n = collide_ball_shape(to_world(pa, v3::make(r * d[0], r * d[1], cap * hl)), 0.0, b, pb, margin, out, n);
    }
    return n;
  }
  const double z = n_local[2] > 0.0 ? -hl : hl;  // the cap facing the half space
  const double xs[4] = {r, 0, -r, 0}, ys[4] = {0, r, 0, -r};
  for (int k = 0; k < 4; ++k)
    n = collide_ball_shape(to_world(pa, v3::make(xs[k], ys[k], z)), 0.0, b, pb, margin, out, n);
  return n;
}

}  // namespace sinew
