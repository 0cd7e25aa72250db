/// @file
/// @brief Closest points between two segments (mesh edges), parallel and degenerate (zero-length)
/// segments included (host and device).
#pragma once

#include "sinew/collision/vec3_ops.hpp"

namespace sinew {

/// Result of closest_points_segments(): closest points p0 + s (p1 - p0) and q0 + t (q1 - q0).
struct EdgeEdgeResult {
  Vec3 closest_p;           ///< closest point on segment p, (1 - s) p0 + s p1
  Vec3 closest_q;           ///< closest point on segment q, (1 - t) q0 + t q1
  double s;                 ///< parameter on segment p, in [0, 1]
  double t;                 ///< parameter on segment q, in [0, 1]
  double distance_squared;  ///< |closest_p - closest_q|^2
  bool parallel;            ///< true when the segments are parallel (or one is degenerate):
                            ///< the closest pair may then not be unique, one of them is returned
};

/// Closest points of segments [p0, p1] and [q0, q1] (Ericson, Real-Time Collision Detection,
/// 5.1.9): minimises |p(s) - q(t)|^2 over [0, 1]^2. Segments shorter than 1e-12 of the scene
/// scale are treated as points; parallel segments get s clamped from the start of p.
SINEW_HD EdgeEdgeResult closest_points_segments(const Vec3& p0, const Vec3& p1, const Vec3& q0, const Vec3& q1) {
  const Vec3 d1 = v3::sub(p1, p0), d2 = v3::sub(q1, q0), r = v3::sub(p0, q0);
  const double a = dot(d1, d1), e = dot(d2, d2), f = dot(d2, r);
  // Relative tolerance on squared lengths, so the test does not depend on units.
  const double scale = a + e + dot(r, r);
  const double eps = 1e-24 * (scale > 0.0 ? scale : 1.0);
  double s = 0.0, t = 0.0;
  bool parallel = false;
  if (a <= eps && e <= eps) {
    parallel = true;
  } else if (a <= eps) {
    parallel = true;
    t = v3::clamp(f / e, 0.0, 1.0);
  } else {
    const double c = dot(d1, r);
    if (e <= eps) {
      parallel = true;
      s = v3::clamp(-c / a, 0.0, 1.0);
    } else {
      const double b = dot(d1, d2);
      const double denom = a * e - b * b;  // = |d1 x d2|^2 >= 0
      if (denom > 1e-14 * a * e) {
        s = v3::clamp((b * f - c * e) / denom, 0.0, 1.0);
      } else {
        parallel = true;
        s = 0.0;
      }
      // Best t for this s, then re-clamp s for that t when t left [0, 1].
      t = (b * s + f) / e;
      if (t < 0.0) {
        t = 0.0;
        s = v3::clamp(-c / a, 0.0, 1.0);
      } else if (t > 1.0) {
        t = 1.0;
        s = v3::clamp((b - c) / a, 0.0, 1.0);
      }
    }
  }
  EdgeEdgeResult res;
  res.s = s;
  res.t = t;
  res.closest_p = v3::madd(p0, s, d1);
  res.closest_q = v3::madd(q0, t, d2);
  res.distance_squared = v3::sqdist(res.closest_p, res.closest_q);
  res.parallel = parallel;
  return res;
}

}  // namespace sinew
