/// @file
/// @brief Contact functions of boxes against capsules and boxes (host and device). They rest on
/// one fact: the signed distance of a convex shape is a convex function, so its minimum along a
/// segment is found robustly by golden-section search.
#pragma once

#include "sinew/collision/shape_pairs.hpp"

namespace sinew {

/// Result of segment_shape_min(): the point of a segment deepest into (or nearest to) a shape.
struct SegmentShapeMin {
  double s;           ///< parameter of the point, p0 + s (p1 - p0), s in [0, 1]
  Vec3 point;         ///< the point on the segment
  SignedDistance sd;  ///< the shape's signed distance query at that point
};

/// Minimises the signed distance of the convex shape @p b (placed by @p pb) over the segment
/// [p0, p1] by golden-section search (80 steps shrink the bracket to 1e-16 of the segment).
/// Exact up to round-off because the signed distance of a convex set is convex.
SINEW_HD SegmentShapeMin segment_shape_min(const Vec3& p0, const Vec3& p1, const Shape& b, const Pose& pb) {
  const double inv_phi = 0.6180339887498949;  // 1 / golden ratio
  const Vec3 d = v3::sub(p1, p0);
  double lo = 0.0, hi = 1.0;
  double x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
  double f1 = point_shape(v3::madd(p0, x1, d), b, pb).distance;
  double f2 = point_shape(v3::madd(p0, x2, d), b, pb).distance;
  for (int it = 0; it < 80; ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - inv_phi * (hi - lo);
      f1 = point_shape(v3::madd(p0, x1, d), b, pb).distance;
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + inv_phi * (hi - lo);
      f2 = point_shape(v3::madd(p0, x2, d), b, pb).distance;
    }
  }
  SegmentShapeMin m;
  m.s = 0.5 * (lo + hi);
  // The ends are candidates too: a convex function on [0, 1] may be minimal at an end, which
  // the search only approaches.
  const SignedDistance e0 = point_shape(p0, b, pb), e1 = point_shape(p1, b, pb);
  m.point = v3::madd(p0, m.s, d);
  m.sd = point_shape(m.point, b, pb);
  if (e0.distance <= m.sd.distance) {
    m.s = 0.0;
    m.point = p0;
    m.sd = e0;
  }
  if (e1.distance < m.sd.distance) {
    m.s = 1.0;
    m.point = p1;
    m.sd = e1;
  }
  return m;
}

namespace detail {
/// Appends the contact of point x of A (a ball of radius r around it) against shape B.
SINEW_HD int push_point_contact(const Vec3& x, double r, const SignedDistance& sd, double margin, ShapePairContact* out,
                                int n) {
  const double gap = sd.distance - r;
  if (!(gap <= margin) || n >= kMaxPairContacts) return n;
  out[n] = ShapePairContact{v3::madd(x, -r, sd.normal), sd.closest, sd.normal, gap};
  return n + 1;
}
/// Corner c (0..7) of a box of half extents h, in its local frame.
SINEW_HD Vec3 box_corner(const double* h, int c) {
  return v3::make((c & 1) ? h[0] : -h[0], (c & 2) ? h[1] : -h[1], (c & 4) ? h[2] : -h[2]);
}
}  // namespace detail

/// Capsule A against box B: the deepest point of the capsule's axis into the box, and each end
/// of the axis, when within the margin (so a capsule lying on a face gets a stable pair).
SINEW_HD int collide_capsule_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                 ShapePairContact* out) {
  const Vec3 a0 = to_world(pa, v3::make(0, 0, -a.size[1])), a1 = to_world(pa, v3::make(0, 0, a.size[1]));
  const double r = a.size[0];
  int n = detail::push_point_contact(a0, r, point_shape(a0, b, pb), margin, out, 0);
  n = detail::push_point_contact(a1, r, point_shape(a1, b, pb), margin, out, n);
  const SegmentShapeMin m = segment_shape_min(a0, a1, b, pb);
  // An interior minimiser adds a contact; one at an end is already there.
  if (m.s > 1e-9 && m.s < 1.0 - 1e-9) n = detail::push_point_contact(m.point, r, m.sd, margin, out, n);
  return n;
}

/// Box A against box B: A's corners against B, B's corners against A, and the deepest interior
/// point of each of A's 12 edges into B (edge-edge contacts), each kept when within the margin.
/// For separated boxes the smallest gap is the exact distance between them.
SINEW_HD int collide_box_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                             ShapePairContact* out) {
  int n = 0;
  for (int c = 0; c < 8; ++c) {
    const Vec3 x = to_world(pa, detail::box_corner(a.size, c));
    n = detail::push_point_contact(x, 0.0, point_shape(x, b, pb), margin, out, n);
  }
  for (int c = 0; c < 8; ++c) {
    // Corner of B against A: A's outward normal points towards B, so the B-to-A normal is its
    // opposite; witness points swap roles.
    const Vec3 x = to_world(pb, detail::box_corner(b.size, c));
    const SignedDistance sd = point_shape(x, a, pa);
    if (!(sd.distance <= margin) || n >= kMaxPairContacts) continue;
    out[n++] = ShapePairContact{sd.closest, x, v3::neg(sd.normal), sd.distance};
  }
  for (int c = 0; c < 8; ++c) {
    for (int axis = 0; axis < 3; ++axis) {
      if (c & (1 << axis)) continue;  // each edge once: from the corner with a low coordinate
      const Vec3 e0 = to_world(pa, detail::box_corner(a.size, c));
      const Vec3 e1 = to_world(pa, detail::box_corner(a.size, c | (1 << axis)));
      const SegmentShapeMin m = segment_shape_min(e0, e1, b, pb);
      if (m.s > 1e-9 && m.s < 1.0 - 1e-9) n = detail::push_point_contact(m.point, 0.0, m.sd, margin, out, n);
    }
  }
  return n;
}

}  // namespace sinew
