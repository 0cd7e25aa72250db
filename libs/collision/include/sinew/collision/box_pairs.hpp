/// @file
/// @brief Contact functions of boxes against capsules and boxes (host and device). They rest on
/// one fact: the signed distance of a convex shape is a convex function, so its minimum along a
/// segment is found robustly: in closed form for a box (the minimum of a piecewise linear or
/// piecewise quadratic function), by golden-section search for other shapes.
#pragma once

#include "sinew/collision/shape_pairs.hpp"

namespace sinew {

/// Result of segment_shape_min(): the point of a segment deepest into (or nearest to) a shape.
struct SegmentShapeMin {
  double s;           ///< parameter of the point, p0 + s (p1 - p0), s in [0, 1]
  Vec3 point;         ///< the point on the segment
  SignedDistance sd;  ///< the shape's signed distance query at that point
};

namespace detail {
/// max over the box's six face planes of sigma p_i(s) - h_i at p(s) = a + s d: the box's signed
/// distance wherever it is <= 0 (inside), a lower bound of it outside.
SINEW_HD double box_planes_max(const Vec3& a, const Vec3& d, const Vec3& h, double s) {
  double m = -HUGE_VAL;
  for (int i = 0; i < 3; ++i) m = fmax(m, fabs(a[i] + s * d[i]) - h[i]);
  return m;
}
/// Distance to the box of half extents @p h from a + s d (0 inside).
SINEW_HD double box_outside_distance(const Vec3& a, const Vec3& d, const Vec3& h, double s) {
  double sum = 0.0;
  for (int i = 0; i < 3; ++i) {
    const double e = fabs(a[i] + s * d[i]) - h[i];
    if (e > 0.0) sum += e * e;
  }
  return sqrt(sum);
}
/// The s in [0, 1] minimising the signed distance of the box of half extents @p h (in its own
/// frame) at a + s d. An interior point wins only by more than 1e-12 of the sizes, so that a
/// segment parallel to a face (a flat minimum) keeps an end, which other contacts already cover,
/// rather than a point picked by round-off.
///
/// Where the segment enters the box, the signed distance is the upper envelope of six lines
/// (box_planes_max): its minimum is at an end or where two lines cross. Otherwise the squared
/// distance is quadratic between the crossings of the face planes p_i = +-h_i: its minimum is at
/// a crossing or at the stationary point of one piece. Exact up to round-off, about 200 flops.
SINEW_HD double segment_box_argmin_local(const Vec3& a, const Vec3& d, const Vec3& h) {
  const double tie = 1e-12 * (h[0] + h[1] + h[2] + fabs(d[0]) + fabs(d[1]) + fabs(d[2]));
  double best_s = 0.0, best = box_planes_max(a, d, h, 0.0);
  const double at_one = box_planes_max(a, d, h, 1.0);
  if (at_one < best) {
    best_s = 1.0;
    best = at_one;
  }
  // Line k: slope sigma_k d_i, intercept sigma_k a_i - h_i (i = k / 2, sigma_k = +-1).
  for (int k = 0; k < 6; ++k) {
    const double sk = (k & 1) ? -d[k / 2] : d[k / 2], bk = ((k & 1) ? -a[k / 2] : a[k / 2]) - h[k / 2];
    for (int l = 0; l < k; ++l) {
      const double sl = (l & 1) ? -d[l / 2] : d[l / 2], bl = ((l & 1) ? -a[l / 2] : a[l / 2]) - h[l / 2];
      if (sk == sl) continue;
      const double s = (bl - bk) / (sk - sl);
      if (!(s > 0.0 && s < 1.0)) continue;
      const double v = box_planes_max(a, d, h, s);
      if (v < best - tie) {
        best_s = s;
        best = v;
      }
    }
  }
  if (best <= 0.0) return best_s;

  // Outside all along: the breakpoints of the distance, sorted, with the ends.
  double cuts[8];
  int n = 0;
  cuts[n++] = 0.0;
  for (int i = 0; i < 3; ++i) {
    if (d[i] == 0.0) continue;
    for (int sign = -1; sign <= 1; sign += 2) {
      const double s = (sign * h[i] - a[i]) / d[i];
      if (s > 0.0 && s < 1.0) cuts[n++] = s;
    }
  }
  cuts[n++] = 1.0;
  for (int i = 2; i < n - 1; ++i)  // insertion sort of the interior cuts
    for (int j = i; j > 1 && cuts[j] < cuts[j - 1]; --j) {
      const double t = cuts[j];
      cuts[j] = cuts[j - 1];
      cuts[j - 1] = t;
    }
  best_s = 0.0;
  best = box_outside_distance(a, d, h, 0.0);
  for (int j = 0; j + 1 < n; ++j) {
    // The piece [cuts[j], cuts[j + 1]]: the same faces are exceeded all along it, so the squared
    // distance is one quadratic there.
    const double lo = cuts[j], hi = cuts[j + 1], mid = 0.5 * (lo + hi);
    double num = 0.0, den = 0.0;
    for (int i = 0; i < 3; ++i) {
      const double p = a[i] + mid * d[i];
      if (fabs(p) <= h[i]) continue;
      const double face = p > 0.0 ? h[i] : -h[i];
      num += d[i] * (face - a[i]);
      den += d[i] * d[i];
    }
    const double candidates[2] = {hi, den > 0.0 ? fmin(fmax(num / den, lo), hi) : hi};
    for (double s : candidates) {
      const double v = box_outside_distance(a, d, h, s);
      if (v < best - (s == 1.0 ? 0.0 : tie)) {
        best_s = s;
        best = v;
      }
    }
  }
  return best_s;
}
}  // namespace detail

/// Minimises the signed distance of the convex shape @p b (placed by @p pb) over the segment
/// [p0, p1]: in closed form for a box (detail::segment_box_argmin_local), else by golden-section
/// search (80 steps shrink the bracket to 1e-16 of the segment). Exact up to round-off because
/// the signed distance of a convex set is convex; an end wins a tie.
SINEW_HD SegmentShapeMin segment_shape_min(const Vec3& p0, const Vec3& p1, const Shape& b, const Pose& pb) {
  if (b.type == ShapeType::kBox) {
    const Vec3 a = to_local(pb, p0);
    const double s =
        detail::segment_box_argmin_local(a, v3::sub(to_local(pb, p1), a), v3::make(b.size[0], b.size[1], b.size[2]));
    SegmentShapeMin m;
    m.s = s;
    m.point = s == 0.0 ? p0 : s == 1.0 ? p1 : v3::madd(p0, s, v3::sub(p1, p0));
    m.sd = point_shape(m.point, b, pb);
    return m;
  }
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
/// Whether the segment [l0, l1], in a box's frame, lies wholly beyond one face plane of the box
/// (half extents @p h) by more than @p margin: then every point of it is farther than margin
/// from the box (the distance to a box bounds the distance to each face plane from above).
SINEW_HD bool beyond_a_face(const Vec3& l0, const Vec3& l1, const double* h, double margin) {
  for (int i = 0; i < 3; ++i)
    if ((l0[i] - h[i] > margin && l1[i] - h[i] > margin) || (-l0[i] - h[i] > margin && -l1[i] - h[i] > margin))
      return true;
  return false;
}
/// Whether a convex signed distance is least at an end of the segment p0 + s d, s in [0, 1],
/// given subgradients (outward normals) @p n0 at p0 and @p n1 at p1: its slope along d is >= 0
/// at p0 or <= 0 at p1. Faces resting on faces (a stack) skip every edge search this way.
SINEW_HD bool minimum_at_an_end(const Vec3& n0, const Vec3& n1, const Vec3& d) {
  return dot(n0, d) >= 0.0 || dot(n1, d) <= 0.0;
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
  Vec3 corner_a[8];  // A's corners in the world
  Vec3 normal_a[8];  // B's outward normal at each: a subgradient of B's signed distance there
  for (int c = 0; c < 8; ++c) {
    corner_a[c] = to_world(pa, detail::box_corner(a.size, c));
    const SignedDistance sd = point_shape(corner_a[c], b, pb);
    normal_a[c] = sd.normal;
    n = detail::push_point_contact(corner_a[c], 0.0, sd, margin, out, n);
  }
  for (int c = 0; c < 8; ++c) {
    // Corner of B against A: A's outward normal points towards B, so the B-to-A normal is its
    // opposite; witness points swap roles.
    const Vec3 x = to_world(pb, detail::box_corner(b.size, c));
    const SignedDistance sd = point_shape(x, a, pa);
    if (!(sd.distance <= margin) || n >= kMaxPairContacts) continue;
    out[n++] = ShapePairContact{sd.closest, x, v3::neg(sd.normal), sd.distance};
  }
  Vec3 in_b[8];  // A's corners in B's frame: edges wholly beyond a face of B are skipped
  for (int c = 0; c < 8; ++c) in_b[c] = to_local(pb, corner_a[c]);
  for (int c = 0; c < 8; ++c) {
    for (int axis = 0; axis < 3; ++axis) {
      if (c & (1 << axis)) continue;  // each edge once: from the corner with a low coordinate
      const int c1 = c | (1 << axis);
      if (detail::beyond_a_face(in_b[c], in_b[c1], b.size, margin)) continue;
      const Vec3 &e0 = corner_a[c], &e1 = corner_a[c1];
      if (detail::minimum_at_an_end(normal_a[c], normal_a[c1], v3::sub(e1, e0))) continue;
      const SegmentShapeMin m = segment_shape_min(e0, e1, b, pb);
      if (m.s > 1e-9 && m.s < 1.0 - 1e-9) n = detail::push_point_contact(m.point, 0.0, m.sd, margin, out, n);
    }
  }
  return n;
}

}  // namespace sinew
