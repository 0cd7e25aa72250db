#include "sinew/collision/shape_obstacle_contacts.hpp"

#include <algorithm>
#include <cmath>

#include "sinew/collision/aabb.hpp"
#include "sinew/collision/box_pairs.hpp"

namespace sinew {
namespace {

// Appends the contact of the point feature x of A (a ball of radius r about it) with B, by B's
// signed distance, oriented to x's side of a sheet (and recorded) when B is one.
void add_point_feature(const Vec3& x, double r, int feature, const Obstacle& b, const ShapeObstacleOptions& options,
                       std::vector<ShapePairContact>& out) {
  SignedDistance sd = obstacle_distance(x, b);
  SheetSides::Key key = options.sheet_key;
  key[3] = feature;
  if (is_sheet(b) && options.sides) sd = options.sides->orient(key, sd);
  if (is_sheet(b) && !options.sides && sd.distance < 0.0)
    sd = SignedDistance{-sd.distance, v3::neg(sd.normal), sd.closest};
  const double gap = sd.distance - r;
  if (!(gap <= options.margin)) return;
  if (is_sheet(b) && options.sides) options.sides->record(key, sd.normal);
  out.push_back(ShapePairContact{v3::madd(x, -r, sd.normal), sd.closest, sd.normal, gap});
}

// A cylinder's rim points nearest B: per cap, the rim point farthest along -n, n B's normal at the
// cap's centre (the support point toward B; collide_cylinder_halfspace()'s rule for a local plane),
// four rim points when the cap faces B flat.
void add_cylinder_rims(const Shape& a, const Pose& pa, const Obstacle& b, const ShapeObstacleOptions& options,
                       std::vector<ShapePairContact>& out) {
  const double r = a.size[0], hl = a.size[1];
  for (int cap = 0; cap < 2; ++cap) {
    const double z = cap == 0 ? -hl : hl;
    SignedDistance at_centre = obstacle_distance(to_world(pa, v3::make(0, 0, z)), b);
    if (is_sheet(b) && at_centre.distance < 0.0) at_centre.normal = v3::neg(at_centre.normal);  // the side it is on
    const Vec3 n = v3::mul_t(pa.rotation, at_centre.normal);
    const double radial = std::sqrt(n[0] * n[0] + n[1] * n[1]);
    if (radial > 1e-9) {
      const Vec3 local = v3::make(-r * n[0] / radial, -r * n[1] / radial, z);
      add_point_feature(to_world(pa, local), 0.0, 4 * cap, b, options, out);
      continue;
    }
    const double xs[4] = {r, 0, -r, 0}, ys[4] = {0, r, 0, -r};
    for (int k = 0; k < 4; ++k)
      add_point_feature(to_world(pa, v3::make(xs[k], ys[k], z)), 0.0, 4 * cap + k, b, options, out);
  }
}

// A's point features against B's signed distance.
void add_point_features(const Shape& a, const Pose& pa, const Obstacle& b, const ShapeObstacleOptions& options,
                        std::vector<ShapePairContact>& out) {
  switch (a.type) {
    case ShapeType::kSphere:
      add_point_feature(pa.translation, a.size[0], 0, b, options, out);
      break;
    case ShapeType::kCapsule:
      add_point_feature(to_world(pa, v3::make(0, 0, -a.size[1])), a.size[0], 0, b, options, out);
      add_point_feature(to_world(pa, v3::make(0, 0, a.size[1])), a.size[0], 1, b, options, out);
      break;
    case ShapeType::kBox:
      for (int c = 0; c < 8; ++c)
        add_point_feature(to_world(pa, detail::box_corner(a.size, c)), 0.0, c, b, options, out);
      break;
    case ShapeType::kCylinder:
      add_cylinder_rims(a, pa, b, options, out);
      break;
    default:
      break;
  }
}

// The vertices and the edges of B's mesh near A's bounding sphere (B's frame), sorted.
void gather_near(const Shape& a, const Pose& pa, const Obstacle& b, double margin, ShapeObstacleWorkspace& work) {
  const MeshSignedDistance& mesh = *b.mesh;
  const Vec3 c = to_local(b.pose, pa.translation);
  const double reach = bounding_radius(a) + margin;
  work.triangles.clear();
  work.vertices.clear();
  work.edges.clear();
  mesh.triangles_near(inflate(Aabb{c, c}, reach), work.triangles);
  for (Index t : work.triangles)
    for (int k = 0; k < 3; ++k) {
      work.vertices.push_back(mesh.triangles()[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)]);
      work.edges.push_back(mesh.triangle_edges()[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)]);
    }
  for (std::vector<Index>* v : {&work.vertices, &work.edges}) {
    std::sort(v->begin(), v->end());
    v->erase(std::unique(v->begin(), v->end()), v->end());
  }
}

}  // namespace

bool has_shape_obstacle_contacts(ShapeType type) {
  return type == ShapeType::kSphere || type == ShapeType::kCapsule || type == ShapeType::kBox ||
         type == ShapeType::kCylinder;
}

void shape_obstacle_contacts(const Shape& a, const Pose& pa, const Obstacle& b, const ShapeObstacleOptions& options,
                             ShapeObstacleWorkspace& work, std::vector<ShapePairContact>& out) {
  if (!(b.mesh || b.grid) || !has_shape_obstacle_contacts(a.type)) return;
  add_point_features(a, pa, b, options, out);
  if (a.type == ShapeType::kSphere || !b.mesh) return;
  gather_near(a, pa, b, options.margin, work);
  const MeshSignedDistance& mesh = *b.mesh;
  // B's vertices against A: A's outward normal points toward B, so B-to-A is its opposite.
  for (Index v : work.vertices) {
    const Vec3 x = to_world(b.pose, mesh.positions()[static_cast<std::size_t>(v)]);
    const SignedDistance sd = point_shape(x, a, pa);
    if (sd.distance <= options.margin) out.push_back(ShapePairContact{sd.closest, x, v3::neg(sd.normal), sd.distance});
  }
  const double sharp_cos = std::cos(options.sharp_edge_angle);
  for (Index e : work.edges) {
    if (!(mesh.edge_cosines()[static_cast<std::size_t>(e)] < sharp_cos)) continue;
    const auto& ends = mesh.edges()[static_cast<std::size_t>(e)];
    const Vec3 p0 = to_world(b.pose, mesh.positions()[static_cast<std::size_t>(ends[0])]);
    const Vec3 p1 = to_world(b.pose, mesh.positions()[static_cast<std::size_t>(ends[1])]);
    // A's signed distance is convex: least at an end (that vertex's contact) unless it falls from
    // both ends inward.
    if (detail::minimum_at_an_end(point_shape(p0, a, pa).normal, point_shape(p1, a, pa).normal, v3::sub(p1, p0)))
      continue;
    const SegmentShapeMin m = segment_shape_min(p0, p1, a, pa);
    if (m.s > 1e-9 && m.s < 1.0 - 1e-9 && m.sd.distance <= options.margin)
      out.push_back(ShapePairContact{m.sd.closest, m.point, v3::neg(m.sd.normal), m.sd.distance});
  }
}

}  // namespace sinew
