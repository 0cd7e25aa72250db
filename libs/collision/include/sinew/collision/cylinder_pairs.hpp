/// @file
/// @brief Contact functions of cylinders against capsules, boxes and cylinders (host and
/// device). Like box_pairs.hpp they minimise the convex signed distance of one shape over
/// features of the other: segments by golden section (segment_shape_min()), circles by dense
/// angle samples refined by golden section.
#pragma once

#include "sinew/collision/box_pairs.hpp"

namespace sinew {

namespace detail {
/// World point of a cylinder (radius @p r, placed by @p p) at angle @p theta on the circle z.
SINEW_HD Vec3 cylinder_rim_point(const Pose& p, double r, double theta, double z) {
  return to_world(p, v3::make(r * cos(theta), r * sin(theta), z));
}

/// The angle in [0, 2 pi) minimising f: the best of 32 equally spaced samples, refined by 60
/// golden-section steps in the bracket of its two neighbours (exact when f is unimodal there).
template <class F>
SINEW_HD double min_over_angle(F&& f) {
  const double two_pi = 6.283185307179586, step = two_pi / 32;
  int best = 0;
  double f_best = f(0.0);
  for (int k = 1; k < 32; ++k) {
    const double fk = f(k * step);
    if (fk < f_best) {
      f_best = fk;
      best = k;
    }
  }
  const double inv_phi = 0.6180339887498949;
  double lo = (best - 1) * step, hi = (best + 1) * step;
  double x1 = hi - inv_phi * (hi - lo), x2 = lo + inv_phi * (hi - lo);
  double f1 = f(x1), f2 = f(x2);
  for (int it = 0; it < 60; ++it) {
    if (f1 <= f2) {
      hi = x2;
      x2 = x1;
      f2 = f1;
      x1 = hi - inv_phi * (hi - lo);
      f1 = f(x1);
    } else {
      lo = x1;
      x1 = x2;
      f1 = f2;
      x2 = lo + inv_phi * (hi - lo);
      f2 = f(x2);
    }
  }
  const double refined = 0.5 * (lo + hi);
  return f(refined) <= f_best ? refined : best * step;
}

/// Cylinder A's features against convex shape B, appended from index @p n: the deepest point
/// of each cap's rim circle, the deepest side line's interior minimum, and 4 rim points per cap
/// (so a cylinder standing on a cap or lying on its side gets a stable set), each kept when
/// within the margin. Returns the new count.
SINEW_HD int cylinder_features_against(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                       ShapePairContact* out, int n) {
  const double r = a.size[0], h = a.size[1];
  for (int cap = -1; cap <= 1; cap += 2) {
    for (int k = 0; k < 4; ++k) {
      const Vec3 x = cylinder_rim_point(pa, r, k * 1.5707963267948966, cap * h);
      n = push_point_contact(x, 0.0, point_shape(x, b, pb), margin, out, n);
    }
    const double theta =
        min_over_angle([&](double t) { return point_shape(cylinder_rim_point(pa, r, t, cap * h), b, pb).distance; });
    const Vec3 x = cylinder_rim_point(pa, r, theta, cap * h);
    n = push_point_contact(x, 0.0, point_shape(x, b, pb), margin, out, n);
  }
  auto side = [&](double t) {
    return segment_shape_min(cylinder_rim_point(pa, r, t, -h), cylinder_rim_point(pa, r, t, h), b, pb);
  };
  const SegmentShapeMin m = side(min_over_angle([&](double t) { return side(t).sd.distance; }));
  // A minimiser at a line end is a cap rim point, already covered.
  if (m.s > 1e-9 && m.s < 1.0 - 1e-9) n = push_point_contact(m.point, 0.0, m.sd, margin, out, n);
  return n;
}

/// Appends, from index @p n, the contacts of B's features against A computed as A's against
/// B by @p f, with witness points swapped and the normal flipped (still from B to A).
template <class F>
SINEW_HD int swapped_features(F&& f, ShapePairContact* out, int n) {
  const int m = f(n);
  for (int k = n; k < m; ++k)
    out[k] = ShapePairContact{out[k].point_b, out[k].point_a, v3::neg(out[k].normal), out[k].gap};
  return m;
}
}  // namespace detail

/// Capsule A against cylinder B: collide_capsule_box(), which holds for any convex B (the
/// capsule's axis minimum of B's signed distance, minus the radius, and its two ends).
SINEW_HD int collide_capsule_cylinder(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                      ShapePairContact* out) {
  return collide_capsule_box(a, pa, b, pb, margin, out);
}

/// Cylinder A against box B: A's rim and side features against B
/// (detail::cylinder_features_against()), then B's 8 corners against A, each kept when within
/// the margin (at most 11 + 8 contacts). The smallest gap of separated shapes is their
/// distance: when A's closest point is inside a cap, B's closest feature is a corner (found
/// here) or an edge or face parallel to the cap, which then is as close to a rim point.
SINEW_HD int collide_cylinder_box(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                  ShapePairContact* out) {
  const int n = detail::cylinder_features_against(a, pa, b, pb, margin, out, 0);
  return detail::swapped_features(
      [&](int start) {
        int m = start;
        for (int c = 0; c < 8; ++c) {
          const Vec3 x = to_world(pb, detail::box_corner(b.size, c));
          m = detail::push_point_contact(x, 0.0, point_shape(x, a, pa), margin, out, m);
        }
        return m;
      },
      out, n);
}

/// Cylinder A against cylinder B: A's rim and side features against B, then B's against A
/// (detail::cylinder_features_against(), at most 11 each), each kept when within the margin.
SINEW_HD int collide_cylinder_cylinder(const Shape& a, const Pose& pa, const Shape& b, const Pose& pb, double margin,
                                       ShapePairContact* out) {
  const int n = detail::cylinder_features_against(a, pa, b, pb, margin, out, 0);
  return detail::swapped_features(
      [&](int start) { return detail::cylinder_features_against(b, pb, a, pa, margin, out, start); }, out, n);
}

}  // namespace sinew
