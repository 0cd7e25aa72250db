/// @file
/// @brief Closest point on a triangle to a point, with barycentric coordinates and the Voronoi
/// region (vertex, edge or face) it lies in (host and device).
#pragma once

#include "sinew/collision/vec3_ops.hpp"

namespace sinew {

/// Voronoi region of a triangle (a, b, c) that holds the closest point.
enum class TriangleRegion : int {
  kVertexA = 0,  ///< the closest point is vertex a
  kVertexB = 1,  ///< the closest point is vertex b
  kVertexC = 2,  ///< the closest point is vertex c
  kEdgeAB = 3,   ///< the closest point is inside edge ab
  kEdgeBC = 4,   ///< the closest point is inside edge bc
  kEdgeCA = 5,   ///< the closest point is inside edge ca
  kFace = 6      ///< the closest point is inside the triangle
};

/// Result of closest_point_triangle().
struct PointTriangleResult {
  Vec3 closest;             ///< closest point on the triangle, bary[0] a + bary[1] b + bary[2] c
  double bary[3];           ///< barycentric weights of the closest point, each in [0, 1], sum 1
  double distance_squared;  ///< |p - closest|^2
  TriangleRegion region;    ///< Voronoi region of the closest point
};

namespace detail {
/// Closest point on segment (a, b), as the weight t of b: a + t (b - a), t in [0, 1].
SINEW_HD double segment_parameter(const Vec3& p, const Vec3& a, const Vec3& b) {
  const Vec3 ab = v3::sub(b, a);
  const double len2 = dot(ab, ab);
  return len2 > 0.0 ? v3::clamp(dot(v3::sub(p, a), ab) / len2, 0.0, 1.0) : 0.0;
}
/// Fills r from barycentric weights (wa, wb, wc) and the region.
SINEW_HD void set_triangle_result(PointTriangleResult& r, const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c,
                                  double wa, double wb, double wc, TriangleRegion region) {
  r.bary[0] = wa;
  r.bary[1] = wb;
  r.bary[2] = wc;
  r.closest = v3::add(v3::add(v3::scale(wa, a), v3::scale(wb, b)), v3::scale(wc, c));
  r.distance_squared = v3::sqdist(p, r.closest);
  r.region = region;
}
}  // namespace detail

/// Closest point of triangle (a, b, c) to p, by the Voronoi-region tests of Ericson (Real-Time
/// Collision Detection, 5.1.5). A degenerate (zero-area) triangle is handled as the closest of
/// its three edges, so the result is always a point of the triangle's convex hull.
SINEW_HD PointTriangleResult closest_point_triangle(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c) {
  using detail::set_triangle_result;
  PointTriangleResult r;
  const Vec3 ab = v3::sub(b, a), ac = v3::sub(c, a), ap = v3::sub(p, a);
  const double d1 = dot(ab, ap), d2 = dot(ac, ap);
  if (d1 <= 0.0 && d2 <= 0.0) {
    set_triangle_result(r, p, a, b, c, 1, 0, 0, TriangleRegion::kVertexA);
    return r;
  }
  const Vec3 bp = v3::sub(p, b);
  const double d3 = dot(ab, bp), d4 = dot(ac, bp);
  if (d3 >= 0.0 && d4 <= d3) {
    set_triangle_result(r, p, a, b, c, 0, 1, 0, TriangleRegion::kVertexB);
    return r;
  }
  const Vec3 cp = v3::sub(p, c);
  const double d5 = dot(ab, cp), d6 = dot(ac, cp);
  if (d6 >= 0.0 && d5 <= d6) {
    set_triangle_result(r, p, a, b, c, 0, 0, 1, TriangleRegion::kVertexC);
    return r;
  }
  const double vc = d1 * d4 - d3 * d2;
  const double vb = d5 * d2 - d1 * d6;
  const double va = d3 * d6 - d5 * d4;
  const double sum = va + vb + vc;  // = |ab x ac|^2, zero for a degenerate triangle
  const double area_tol = 1e-14 * dot(ab, ab) * dot(ac, ac);
  if (!(sum > area_tol)) {
    // Zero-area triangle: the best of the three edges (vertices included as their ends).
    const double tab = detail::segment_parameter(p, a, b);
    const double tbc = detail::segment_parameter(p, b, c);
    const double tca = detail::segment_parameter(p, c, a);
    PointTriangleResult e[3];
    set_triangle_result(e[0], p, a, b, c, 1 - tab, tab, 0, TriangleRegion::kEdgeAB);
    set_triangle_result(e[1], p, a, b, c, 0, 1 - tbc, tbc, TriangleRegion::kEdgeBC);
    set_triangle_result(e[2], p, a, b, c, tca, 0, 1 - tca, TriangleRegion::kEdgeCA);
    int best = 0;
    if (e[1].distance_squared < e[best].distance_squared) best = 1;
    if (e[2].distance_squared < e[best].distance_squared) best = 2;
    r = e[best];
    // Report a vertex region when the edge parameter sits at an end.
    for (int k = 0; k < 3; ++k) {
      if (r.bary[k] == 1.0) r.region = static_cast<TriangleRegion>(k);
    }
    return r;
  }
  if (vc <= 0.0 && d1 >= 0.0 && d3 <= 0.0) {
    const double t = d1 / (d1 - d3);
    set_triangle_result(r, p, a, b, c, 1 - t, t, 0, TriangleRegion::kEdgeAB);
    return r;
  }
  if (vb <= 0.0 && d2 >= 0.0 && d6 <= 0.0) {
    const double t = d2 / (d2 - d6);
    set_triangle_result(r, p, a, b, c, 1 - t, 0, t, TriangleRegion::kEdgeCA);
    return r;
  }
  if (va <= 0.0 && (d4 - d3) >= 0.0 && (d5 - d6) >= 0.0) {
    const double t = (d4 - d3) / ((d4 - d3) + (d5 - d6));
    set_triangle_result(r, p, a, b, c, 0, 1 - t, t, TriangleRegion::kEdgeBC);
    return r;
  }
  const double inv = 1.0 / sum;
  const double wb = vb * inv, wc = vc * inv;
  set_triangle_result(r, p, a, b, c, 1.0 - wb - wc, wb, wc, TriangleRegion::kFace);
  return r;
}

}  // namespace sinew
