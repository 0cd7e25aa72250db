/// @file
/// @brief Axis-aligned bounding boxes and their overlap test with a contact margin (host and
/// device).
#pragma once

#include "sinew/collision/vec3_ops.hpp"

namespace sinew {

/// Axis-aligned box [lo, hi]; an empty box has lo > hi (see empty_aabb()).
struct Aabb {
  Vec3 lo;  ///< lower corner
  Vec3 hi;  ///< upper corner
};

/// The empty box (+inf, -inf), identity of merge().
SINEW_HD Aabb empty_aabb() {
  return Aabb{v3::make(HUGE_VAL, HUGE_VAL, HUGE_VAL), v3::make(-HUGE_VAL, -HUGE_VAL, -HUGE_VAL)};
}

/// Smallest box holding both a and b.
SINEW_HD Aabb merge(const Aabb& a, const Aabb& b) { return Aabb{v3::cmin(a.lo, b.lo), v3::cmax(a.hi, b.hi)}; }

/// Smallest box holding a and the point p.
SINEW_HD Aabb merge(const Aabb& a, const Vec3& p) { return Aabb{v3::cmin(a.lo, p), v3::cmax(a.hi, p)}; }

/// The box grown by r on every side.
SINEW_HD Aabb inflate(const Aabb& a, double r) {
  return Aabb{v3::sub(a.lo, v3::make(r, r, r)), v3::add(a.hi, v3::make(r, r, r))};
}

/// True when a and b are within @p margin of each other along every axis, i.e. when a inflated
/// by margin overlaps b. This is the pair criterion of every BroadPhase.
SINEW_HD bool overlaps(const Aabb& a, const Aabb& b, double margin) {
  return a.lo[0] - margin <= b.hi[0] && b.lo[0] - margin <= a.hi[0] && a.lo[1] - margin <= b.hi[1] &&
         b.lo[1] - margin <= a.hi[1] && a.lo[2] - margin <= b.hi[2] && b.lo[2] - margin <= a.hi[2];
}

/// Surface area of the box (0 for an empty or flat box), the cost measure of the BVH.
SINEW_HD double surface_area(const Aabb& a) {
  const double x = fmax(a.hi[0] - a.lo[0], 0.0), y = fmax(a.hi[1] - a.lo[1], 0.0), z = fmax(a.hi[2] - a.lo[2], 0.0);
  return 2.0 * (x * y + y * z + z * x);
}

/// Squared distance from point p to the box (0 inside).
SINEW_HD double box_distance2(const Aabb& a, const Vec3& p) {
  double d2 = 0.0;
  for (int k = 0; k < 3; ++k) {
    const double e = fmax(fmax(a.lo[k] - p[k], p[k] - a.hi[k]), 0.0);
    d2 += e * e;
  }
  return d2;
}

/// Centre of the box.
SINEW_HD Vec3 center(const Aabb& a) { return v3::scale(0.5, v3::add(a.lo, a.hi)); }

}  // namespace sinew
