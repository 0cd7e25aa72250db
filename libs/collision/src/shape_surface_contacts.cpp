#include "sinew/collision/shape_surface_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sinew/collision/aabb.hpp"
#include "sinew/collision/cylinder_pairs.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_triangle.hpp"

namespace sinew {
namespace {

// The rules of surface edges (edge_edge_contacts.cpp): segments nearer parallel than ~3 degrees
// meet at an end; closest points within this fraction of an end are the end's; faces within
// 1 degree of each other make a flat edge.
constexpr double kMinSin2 = 0.05 * 0.05;
constexpr double kInterior = 1e-3;
const double kCosFlat = std::cos(3.14159265358979323846 / 180.0);

// Directions within this (sine of ~0.06 degrees) outside a normal cone still count as in it, so
// that a box lying flat keeps its corners and edges whatever the rounding.
constexpr double kConeSlack = 1e-3;

// The normal cone of a box corner or edge, or of a cylinder's rim point: the directions
// sum_k a_k g_k, a_k >= 0, over its orthonormal generators g_k (the normals of the faces meeting
// there). A normal from the shape toward the surface must lie in it (within kConeSlack, also off
// the generators' span): the feature is then the shape's nearest to the surface.
struct Cone {
  int count = 0;  // 0: no cone (a sphere, a capsule)
  Vec3 g[3];
  bool holds(const Vec3& n) const {
    if (count == 0) return true;
    Vec3 rest = n;
    for (int k = 0; k < count; ++k) {
      const double c = dot(n, g[k]);
      if (c < -kConeSlack) return false;
      rest = v3::madd(rest, -c, g[k]);
    }
    return dot(rest, rest) <= kConeSlack * kConeSlack;
  }
  // The sum of the generators.
  Vec3 pseudo_normal() const {
    Vec3 sum{{0.0, 0.0, 0.0}};
    for (int k = 0; k < count; ++k) sum = v3::add(sum, g[k]);
    return sum;
  }
};

// The cone of a box feature: the world directions s_k R e_k over the axes k with a sign s_k of
// +-1 (0: not a face of the feature).
Cone box_cone(const Mat3& rotation, const Vec3& signs) {
  Cone c;
  for (int k = 0; k < 3; ++k)
    if (signs[k] != 0.0) {
      Vec3 e{{0.0, 0.0, 0.0}};
      e[static_cast<std::size_t>(k)] = signs[k];
      c.g[c.count++] = v3::mul(rotation, e);
    }
  return c;
}

// The cone of a cylinder's rim point: its cap's normal and its radial direction.
Cone rim_cone(const Vec3& cap_normal, const Vec3& radial) {
  Cone c;
  c.count = 2;
  c.g[0] = cap_normal;
  c.g[1] = radial;
  return c;
}

// A point of the shape with the radius around it (a sphere's or capsule end's centre; a box
// corner or a cylinder's rim point, radius 0, with its normal cone).
struct PointFeature {
  Vec3 c;
  double radius;
  Cone cone;
};

// A segment of the shape with the radius around it (a capsule's or cylinder's axis; a box edge,
// radius 0, with its normal cone).
struct SegmentFeature {
  Vec3 a, b;
  double radius;
  Cone cone;
};

// Local edge k (0: 0-1, 1: 1-2, 2: 2-0) of a triangle holding its closest point, -1 for none.
int edge_of_region(TriangleRegion region) {
  switch (region) {
    case TriangleRegion::kEdgeAB:
      return 0;
    case TriangleRegion::kEdgeBC:
      return 1;
    case TriangleRegion::kEdgeCA:
      return 2;
    default:
      return -1;
  }
}

class Finder {
 public:
  Finder(const Vec3* x, const SurfaceEdges& surface, double margin, std::vector<ShapeSurfaceContact>& out)
      : x_(x), surface_(surface), margin_(margin), out_(out) {}

  // The triangles whose boxes meet @p box, in increasing index.
  void select(const Aabb& box) {
    candidates_.clear();
    const auto& tris = surface_.triangles();
    for (std::size_t t = 0; t < tris.size(); ++t) {
      const Aabb tb = merge(merge(merge(empty_aabb(), at(tris[t][0])), at(tris[t][1])), at(tris[t][2]));
      if (overlaps(tb, box, 0.0)) candidates_.push_back(static_cast<Index>(t));
    }
  }

  // A point feature against the interiors and edges of the candidate triangles.
  void point(const PointFeature& f) {
    for (Index t : candidates_) touch(f, t, false);
  }

  // A segment feature against the edges of the candidate triangles.
  void segment(const SegmentFeature& f) {
    const Vec3 da = v3::sub(f.b, f.a);
    for_each_candidate_edge([&](Index t, Index e, const std::array<Index, 2>& uw) {
      const Vec3 &p0 = at(uw[0]), &p1 = at(uw[1]);
      const Vec3 de = v3::sub(p1, p0);
      const Vec3 axb = cross(da, de);
      const double s2 = dot(axb, axb);
      if (!(s2 > kMinSin2 * dot(da, da) * dot(de, de))) return;
      const EdgeEdgeResult r = closest_points_segments(f.a, f.b, p0, p1);
      if (r.s < kInterior || r.s > 1.0 - kInterior || r.t < kInterior || r.t > 1.0 - kInterior) return;
      // On a flat edge a segment is nearest at an end (or all along, lying parallel): the ends'.
      if (flat(e)) return;
      Vec3 normal;
      double gap;
      if (f.radius > 0.0) {
        const Vec3 u = v3::sub(r.closest_p, r.closest_q);
        if (!in_edge_region(r.closest_p, u, e)) return;
        normal = v3::scale(-1.0 / norm(u), u);
        gap = norm(u) - f.radius;
      } else {
        // The normal +-(e_box x e_edge) in the box edge's normal cone and, reversed, in the
        // surface edge's (which a concave edge does not have).
        normal = v3::scale(1.0 / std::sqrt(s2), axb);
        if (dot(normal, f.cone.pseudo_normal()) < 0.0) normal = v3::neg(normal);
        if (!f.cone.holds(normal) || !in_edge_cone(v3::neg(normal), e)) return;
        gap = dot(normal, v3::sub(r.closest_q, r.closest_p));
        if (gap < -margin_) return;
      }
      if (gap > margin_) return;
      push_on_edge(t, uw, r.t, v3::madd(r.closest_p, f.radius, normal), normal, gap);
    });
  }

  // A cylinder's rim (centre @p centre, cap normal @p a, radius @p r, the unit radial direction
  // at angle theta given by @p radial) against the candidate faces, at the rim point each face is
  // nearest to (the rim's support point toward the face: its cone holds the normal), and against
  // the candidate edges, at the rim point and edge point nearest each other.
  template <class Radial>
  void rim(const Vec3& centre, const Vec3& a, double r, Radial&& radial) {
    for (Index t : candidates_) {
      const Vec3 n = face_normal(t);
      const Vec3 normal = v3::neg(n);
      const double along = dot(normal, a);
      const Vec3 across = v3::madd(normal, -along, a);
      // A cap facing away has no rim point nearest the face; a face parallel to the cap (the rim
      // all at one distance) is met by the fixed rim points.
      if (!(along >= -kConeSlack) || !(dot(across, across) > 1e-12)) continue;
      const Vec3 u = v3::scale(1.0 / norm(across), across);
      bool fixed = false;  // one of the four fixed rim points already
      for (int k = 0; k < 4; ++k) fixed = fixed || dot(u, radial(k * 1.5707963267948966)) > 1.0 - 1e-12;
      if (fixed) continue;
      // Its support point against the face, or against a flat edge (a convex edge's nearest rim
      // point is found below).
      touch(PointFeature{v3::madd(centre, r, u), 0.0, rim_cone(a, u)}, t, true);
    }
    for_each_candidate_edge([&](Index t, Index e, const std::array<Index, 2>& uw) {
      const Vec3 &p0 = at(uw[0]), &p1 = at(uw[1]);
      auto point = [&](double theta) { return v3::madd(centre, r, radial(theta)); };
      auto distance2 = [&](double theta) {
        const Vec3 q = point(theta);
        return closest_points_segments(q, q, p0, p1).distance_squared;
      };
      const double theta = detail::min_over_angle(distance2);
      const Vec3 q = point(theta);
      const EdgeEdgeResult pair = closest_points_segments(q, q, p0, p1);
      if (pair.t < kInterior || pair.t > 1.0 - kInterior || !(pair.distance_squared > 0.0)) return;
      if (flat(e)) return;
      // The normal along the closest points, out of the rim's cone side (negative gap: crossed).
      const Cone cone = rim_cone(a, radial(theta));
      Vec3 normal = v3::scale(1.0 / std::sqrt(pair.distance_squared), v3::sub(pair.closest_q, q));
      if (dot(normal, cone.pseudo_normal()) < 0.0) normal = v3::neg(normal);
      if (!cone.holds(normal) || !in_edge_cone(v3::neg(normal), e)) return;
      const double gap = dot(normal, v3::sub(pair.closest_q, q));
      if (gap < -margin_ || gap > margin_) return;
      push_on_edge(t, uw, pair.t, q, normal, gap);
    });
  }

 private:
  const Vec3& at(Index v) const { return x_[v]; }

  PointTriangleResult closest(const Vec3& p, Index t) const {
    const std::array<Index, 3>& tri = surface_.triangles()[static_cast<std::size_t>(t)];
    return closest_point_triangle(p, at(tri[0]), at(tri[1]), at(tri[2]));
  }

  // Unit outward normal of triangle t, zero when it has no area.
  Vec3 face_normal(Index t) const {
    const std::array<Index, 3>& tri = surface_.triangles()[static_cast<std::size_t>(t)];
    const Vec3 n = cross(v3::sub(at(tri[1]), at(tri[0])), v3::sub(at(tri[2]), at(tri[0])));
    return v3::normalized_or(n, v3::make(0.0, 0.0, 0.0));
  }

  // True when c (at offset u from its closest point on edge e) is in the edge's Voronoi region:
  // its closest point on every triangle of the edge lies inside edge e, and it is in front of
  // each of them.
  bool in_edge_region(const Vec3& c, const Vec3& u, Index e) const {
    if (!(dot(u, u) > 0.0)) return false;  // on the edge itself: the faces' business
    for (const Index* s = surface_.edge_triangles_begin(e); s != surface_.edge_triangles_end(e); ++s) {
      const int k = edge_of_region(closest(c, *s).region);
      if (k < 0 || surface_.edge(*s, k) != e || dot(u, face_normal(*s)) < 0.0) return false;
    }
    return true;
  }

  // Point feature @p f against triangle t's interior, or against the edge holding its closest
  // point when that is the edge's Voronoi region (only a flat edge with @p flat_edges_only).
  void touch(const PointFeature& f, Index t, bool flat_edges_only) {
    const PointTriangleResult r = closest(f.c, t);
    if (r.region == TriangleRegion::kFace) {
      const Vec3 n = face_normal(t);
      if (dot(n, n) == 0.0) return;  // zero area: its edges stand for it
      const double d = dot(n, v3::sub(f.c, r.closest));
      if (d < -margin_) return;  // behind the face (the far side of a thin part)
      emit(f, t, r.bary, v3::neg(n), d - f.radius);
      return;
    }
    const int k = edge_of_region(r.region);
    if (k < 0) return;  // a vertex: the vertex's own contact
    const Index e = surface_.edge(t, k);
    if (t != *surface_.edge_triangles_begin(e)) return;  // each edge from its first triangle
    if (flat_edges_only && !flat(e)) return;
    const Vec3 u = v3::sub(f.c, r.closest);
    if (!in_edge_region(f.c, u, e)) return;
    emit(f, t, r.bary, v3::scale(-1.0 / norm(u), u), norm(u) - f.radius);
  }

  // Edge e has two faces within 1 degree of each other.
  bool flat(Index e) const {
    const Index *first = surface_.edge_triangles_begin(e), *last = surface_.edge_triangles_end(e);
    return last - first == 2 && dot(face_normal(first[0]), face_normal(first[1])) > kCosFlat;
  }

  // Calls f(t, e, (u, w)) for each edge e = (u, w) of the candidate triangles, from its first
  // triangle t (so once).
  template <class F>
  void for_each_candidate_edge(F&& f) const {
    for (Index t : candidates_)
      for (int k = 0; k < 3; ++k) {
        const Index e = surface_.edge(t, k);
        if (t == *surface_.edge_triangles_begin(e)) f(t, e, surface_.edge_vertices(e));
      }
  }

  // A contact at the point (1 - s) x_u + s x_w of edge (u, w), as weights on triangle t.
  void push_on_edge(Index t, const std::array<Index, 2>& uw, double s, const Vec3& shape_point, const Vec3& normal,
                    double gap) {
    double bary[3] = {0.0, 0.0, 0.0};
    const std::array<Index, 3>& tri = surface_.triangles()[static_cast<std::size_t>(t)];
    for (int i = 0; i < 3; ++i) {
      if (tri[static_cast<std::size_t>(i)] == uw[0]) bary[i] = 1.0 - s;
      if (tri[static_cast<std::size_t>(i)] == uw[1]) bary[i] = s;
    }
    push(t, bary, shape_point, normal, gap);
  }

  // True when direction m (perpendicular to edge e) lies in the cone of e's faces' normals:
  // m = a n_1 + b n_2 with a, b >= 0 (e convex there), or along the face of a boundary edge.
  bool in_edge_cone(const Vec3& m, Index e) const {
    const Index *first = surface_.edge_triangles_begin(e), *last = surface_.edge_triangles_end(e);
    if (last - first == 1) return dot(m, face_normal(first[0])) > 0.0;
    if (last - first != 2) return false;  // not a manifold edge: its faces' business
    const Vec3 n1 = face_normal(first[0]), n2 = face_normal(first[1]);
    const double c = dot(n1, n2), det = 1.0 - c * c;
    if (!(det > 0.0)) return false;
    const double a = (dot(m, n1) - c * dot(m, n2)) / det, b = (dot(m, n2) - c * dot(m, n1)) / det;
    // A convex edge: the other face's far vertex behind this face.
    const std::array<Index, 2>& uw = surface_.edge_vertices(e);
    const std::array<Index, 3>& t2 = surface_.triangles()[static_cast<std::size_t>(first[1])];
    Index far = t2[0];
    for (Index v : t2)
      if (v != uw[0] && v != uw[1]) far = v;
    const bool convex = dot(n1, v3::sub(at(far), at(uw[0]))) < 0.0;
    return convex && a >= -kConeSlack && b >= -kConeSlack;
  }

  void emit(const PointFeature& f, Index t, const double bary[3], const Vec3& normal, double gap) {
    if (gap > margin_) return;
    if (!f.cone.holds(normal)) return;  // not the shape's nearest point toward it
    push(t, bary, v3::madd(f.c, f.radius, normal), normal, gap);
  }

  void push(Index t, const double bary[3], const Vec3& shape_point, const Vec3& normal, double gap) {
    ShapeSurfaceContact c;
    c.triangle = t;
    std::copy(bary, bary + 3, c.bary);
    c.shape_point = shape_point;
    c.normal = normal;
    c.gap = gap;
    out_.push_back(c);
  }

  const Vec3* x_;
  const SurfaceEdges& surface_;
  double margin_;
  std::vector<ShapeSurfaceContact>& out_;
  std::vector<Index> candidates_;
};

}  // namespace

SurfaceEdges::SurfaceEdges(std::vector<std::array<Index, 3>> triangles) : triangles_(std::move(triangles)) {
  // (u, w, triangle, k) for every triangle side, sorted: equal (u, w) are one edge.
  std::vector<std::array<Index, 4>> sides;
  sides.reserve(3 * triangles_.size());
  for (std::size_t t = 0; t < triangles_.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const Index u = triangles_[t][static_cast<std::size_t>(k)],
                  w = triangles_[t][static_cast<std::size_t>((k + 1) % 3)];
      sides.push_back({std::min(u, w), std::max(u, w), static_cast<Index>(t), k});
    }
  std::sort(sides.begin(), sides.end());
  triangle_edges_.assign(triangles_.size(), {-1, -1, -1});
  first_.push_back(0);
  for (std::size_t i = 0; i < sides.size(); ++i) {
    if (i == 0 || sides[i][0] != sides[i - 1][0] || sides[i][1] != sides[i - 1][1]) {
      if (i > 0) first_.push_back(static_cast<Index>(edge_triangles_.size()));
      edges_.push_back({sides[i][0], sides[i][1]});
    }
    edge_triangles_.push_back(sides[i][2]);
    triangle_edges_[static_cast<std::size_t>(sides[i][2])][static_cast<std::size_t>(sides[i][3])] =
        static_cast<Index>(edges_.size()) - 1;
  }
  if (!sides.empty()) first_.push_back(static_cast<Index>(edge_triangles_.size()));
}

bool has_shape_surface_contacts(ShapeType type) { return type != ShapeType::kHalfSpace && type != ShapeType::kCount; }

void shape_surface_contacts(const Shape& shape, const Pose& pose, const Vec3* x, const SurfaceEdges& surface,
                            double margin, std::vector<ShapeSurfaceContact>& out) {
  if (!has_shape_surface_contacts(shape.type) || surface.triangles().empty()) return;
  Finder find(x, surface, margin, out);
  if (shape.type == ShapeType::kSphere) {
    const double r = shape.size[0];
    const Vec3& c = pose.translation;
    find.select(inflate(Aabb{c, c}, r + margin));
    find.point(PointFeature{c, r, Cone{}});
  } else if (shape.type == ShapeType::kCapsule) {
    const double r = shape.size[0], h = shape.size[1];
    const Vec3 a = to_world(pose, v3::make(0.0, 0.0, -h)), b = to_world(pose, v3::make(0.0, 0.0, h));
    find.select(inflate(merge(Aabb{a, a}, b), r + margin));
    find.point(PointFeature{a, r, Cone{}});
    find.point(PointFeature{b, r, Cone{}});
    find.segment(SegmentFeature{a, b, r, Cone{}});
  } else if (shape.type == ShapeType::kCylinder) {
    const double r = shape.size[0], h = shape.size[1];
    const Vec3 axis = to_world_direction(pose, v3::make(0.0, 0.0, 1.0));
    const Vec3 a = to_world(pose, v3::make(0.0, 0.0, -h)), b = to_world(pose, v3::make(0.0, 0.0, h));
    find.select(inflate(merge(Aabb{a, a}, b), r + margin));
    auto radial = [&](double theta) {
      return to_world_direction(pose, v3::make(std::cos(theta), std::sin(theta), 0.0));
    };
    for (int cap = -1; cap <= 1; cap += 2) {
      const Vec3 centre = cap < 0 ? a : b, normal = v3::scale(cap, axis);
      // Four fixed rim points (a cap lying on a face), then the rim's nearest points.
      for (int k = 0; k < 4; ++k) {
        const Vec3 u = radial(k * 1.5707963267948966);
        find.point(PointFeature{v3::madd(centre, r, u), 0.0, rim_cone(normal, u)});
      }
      find.rim(centre, normal, r, radial);
    }
    // The side: the axis with the radius, against edges (as a capsule's, its ends being the rims').
    find.segment(SegmentFeature{a, b, r, Cone{}});
  } else {
    // Corner i has the signs of bits 0, 1, 2 of i on x, y, z; its pseudo-normal is that sign
    // vector (the sum of its three faces' normals).
    auto sign = [](int i, int axis) { return (i >> axis) & 1 ? 1.0 : -1.0; };
    Vec3 corner[8];
    Aabb box = empty_aabb();
    for (int i = 0; i < 8; ++i) {
      corner[i] =
          to_world(pose, v3::make(sign(i, 0) * shape.size[0], sign(i, 1) * shape.size[1], sign(i, 2) * shape.size[2]));
      box = merge(box, corner[i]);
    }
    find.select(inflate(box, margin));
    for (int i = 0; i < 8; ++i)
      find.point(PointFeature{corner[i], 0.0, box_cone(pose.rotation, v3::make(sign(i, 0), sign(i, 1), sign(i, 2)))});
    // Edge (i, i + 2^axis) for i without bit axis: its cone has no face along the axis.
    for (int axis = 0; axis < 3; ++axis)
      for (int i = 0; i < 8; ++i) {
        if ((i >> axis) & 1) continue;
        Vec3 signs = v3::make(sign(i, 0), sign(i, 1), sign(i, 2));
        signs[static_cast<std::size_t>(axis)] = 0.0;
        find.segment(SegmentFeature{corner[i], corner[i | (1 << axis)], 0.0, box_cone(pose.rotation, signs)});
      }
  }
}

}  // namespace sinew
