#include "obstacle_features.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/edge_edge_contacts.hpp"

namespace sinew::integrators::detail {
namespace {

// edge_edge_contacts.cpp's rules: segments nearer parallel than ~3 degrees meet at an end; closest
// points within this fraction of an end are the end's (a vertex-triangle contact).
constexpr double kMinSin2 = 0.05 * 0.05;
constexpr double kInterior = 1e-3;

Vec3 triangle_normal(const std::vector<Vec3>& x, const std::array<Index, 3>& t) {
  return v3::normalized_or(cross(v3::sub(x[t[1]], x[t[0]]), v3::sub(x[t[2]], x[t[0]])), v3::make(0, 0, 0));
}

// The separation of an obstacle edge [a0, a1] (pseudo-normal na, zero for a rim) and a body edge
// [b0, b1] (pseudo-normal nb) along n = +-(a x b) out of the body, with the segments' closest
// points; false when they are no contact: nearly parallel, a closest point at an end, or not
// facing each other.
bool measure(const Vec3& a0, const Vec3& a1, const Vec3& na, const Vec3& b0, const Vec3& b1, const Vec3& nb,
             EdgeEdgeResult& r, Vec3& n, double& gap) {
  const Vec3 da = v3::sub(a1, a0), db = v3::sub(b1, b0);
  const Vec3 axb = cross(da, db);
  const double s2 = dot(axb, axb);
  if (!(s2 > kMinSin2 * dot(da, da) * dot(db, db))) return false;
  r = closest_points_segments(a0, a1, b0, b1);
  if (r.s < kInterior || r.s > 1.0 - kInterior || r.t < kInterior || r.t > 1.0 - kInterior) return false;
  n = v3::scale(1.0 / std::sqrt(s2), axb);
  if (dot(n, nb) < 0.0) n = v3::neg(n);
  if (!(dot(n, nb) > 0.0) || dot(n, na) > 0.0) return false;
  gap = dot(v3::sub(r.closest_p, r.closest_q), n);
  return true;
}

}  // namespace

ObstacleFeatureContacts::ObstacleFeatureContacts(const std::vector<Obstacle>& obstacles, const std::vector<Index>& tets,
                                                 const std::vector<Index>& candidates, Index n, double sharp_angle)
    : n_(n) {
  const double cos_sharp = std::cos(sharp_angle);
  std::vector<int> vertex_obstacle;
  for (std::size_t o = 0; o < obstacles.size(); ++o) {
    if (!obstacles[o].mesh) continue;
    const MeshSignedDistance& m = *obstacles[o].mesh;
    std::vector<char> on_sharp(m.positions().size(), 0);
    for (std::size_t e = 0; e < m.edges().size(); ++e) {
      if (!(m.edge_cosines()[e] < cos_sharp)) continue;
      feature_edge_.push_back({static_cast<Index>(o), static_cast<Index>(e)});
      for (Index v : m.edges()[e]) on_sharp[static_cast<std::size_t>(v)] = 1;
    }
    for (std::size_t v = 0; v < on_sharp.size(); ++v)
      if (on_sharp[v]) {
        feature_vertex_.push_back({static_cast<Index>(o), static_cast<Index>(v)});
        vertex_obstacle.push_back(static_cast<int>(o));
      }
  }
  feature_obstacle_ = vertex_obstacle;
  for (const auto& fe : feature_edge_) feature_obstacle_.push_back(static_cast<int>(fe[0]));
  // The feature edges' pseudo-normals (sums of their faces' normals, local): zero on a rim, so
  // that it may touch from either side.
  for (const auto& fe : feature_edge_) {
    const MeshSignedDistance& m = *obstacles[static_cast<std::size_t>(fe[0])].mesh;
    Vec3 sum{{0, 0, 0}};
    int faces = 0;
    for (std::size_t t = 0; t < m.triangles().size(); ++t)
      for (Index e : m.triangle_edges()[t])
        if (e == fe[1]) {
          sum = v3::add(sum, triangle_normal(m.positions(), m.triangles()[t]));
          ++faces;
        }
    feature_edge_normal_.push_back(faces == 2 ? sum : v3::make(0, 0, 0));
  }
  if (feature_vertex_.empty() || tets.empty()) return;

  // The bodies' boundary triangles over the candidate vertices; the obstacles' feature vertices
  // follow the bodies' vertices, each obstacle a body of its own.
  const TetSurfaces all = tet_surfaces(tets, n);
  std::vector<char> candidate(static_cast<std::size_t>(n), 0);
  for (Index v : candidates) candidate[static_cast<std::size_t>(v)] = 1;
  for (std::size_t t = 0; t < all.triangles.size(); ++t) {
    const auto& tri = all.triangles[t];
    if (candidate[tri[0]] && candidate[tri[1]] && candidate[tri[2]]) {
      mesh_.triangles.push_back(tri);
      mesh_.triangle_body.push_back(all.triangle_body[t]);
    }
  }
  if (mesh_.triangles.empty()) return;
  mesh_.vertex_body = all.vertex_body;
  for (int o : vertex_obstacle) mesh_.vertex_body.push_back(all.bodies + o);
  mesh_.bodies = all.bodies + static_cast<int>(obstacles.size());
  for (std::size_t k = 0; k < feature_vertex_.size(); ++k) queries_.push_back(n + static_cast<Index>(k));
  body_edges_ = boundary_edges(mesh_);
  edge_faces_.assign(body_edges_.size(), {-1, -1});
  for (std::size_t t = 0; t < mesh_.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const Index u = mesh_.triangles[t][k], w = mesh_.triangles[t][(k + 1) % 3];
      const std::array<Index, 2> key{std::min(u, w), std::max(u, w)};
      const std::size_t e =
          static_cast<std::size_t>(std::lower_bound(body_edges_.begin(), body_edges_.end(), key) - body_edges_.begin());
      edge_faces_[e][edge_faces_[e][0] < 0 ? 0 : 1] = static_cast<Index>(t);
    }
  xs_.resize(static_cast<std::size_t>(n) + feature_vertex_.size());
  ys_.resize(xs_.size());
  active_ = true;
}

void ObstacleFeatureContacts::detect(const std::vector<Obstacle>& obstacles, const std::vector<double>& x,
                                     const std::vector<double>& y, double h, double margin, double thickness,
                                     int first_key) {
  found_.clear();
  if (!active_) return;
  for (std::size_t v = 0; v < static_cast<std::size_t>(n_); ++v)
    for (int i = 0; i < 3; ++i) {
      xs_[v][i] = x[3 * v + i];
      ys_[v][i] = y[3 * v + i];
    }
  for (std::size_t k = 0; k < feature_vertex_.size(); ++k) {
    const Obstacle& o = obstacles[static_cast<std::size_t>(feature_vertex_[k][0])];
    const Vec3 p = to_world(o.pose, o.mesh->positions()[static_cast<std::size_t>(feature_vertex_[k][1])]);
    xs_[n_ + k] = p;
    ys_[n_ + k] = v3::madd(p, h, point_velocity(o.pose, o.motion, p));
  }
  detect_vertices(obstacles, margin, thickness, first_key);
  detect_edges(obstacles, h, margin, thickness, first_key + static_cast<int>(feature_vertex_.size()));
  std::sort(found_.begin(), found_.end(), [](const FeatureContact& a, const FeatureContact& b) {
    const VertexContact &p = a.rows, &q = b.rows;
    return p.vertex != q.vertex       ? p.vertex < q.vertex
           : p.obstacle != q.obstacle ? p.obstacle < q.obstacle
                                      : p.tri[0] < q.tri[0];
  });
}

void ObstacleFeatureContacts::detect_vertices(const std::vector<Obstacle>& obstacles, double margin, double thickness,
                                              int first_key) {
  vertex_detector_.detect(mesh_, queries_, xs_, &ys_, margin + thickness, vertex_found_);
  for (const VertexTriangleContact& c : vertex_found_) {
    const std::size_t k = static_cast<std::size_t>(c.vertex - n_);
    const int o = static_cast<int>(feature_vertex_[k][0]);
    const auto& tri = mesh_.triangles[static_cast<std::size_t>(c.triangle)];
    // The triangle's vertices ascending with their weights.
    std::pair<Index, double> e[3] = {{tri[0], c.bary[0]}, {tri[1], c.bary[1]}, {tri[2], c.bary[2]}};
    std::sort(e, e + 3, [](const auto& a, const auto& b) { return a.first < b.first; });
    FeatureContact f;
    const ContactFrame frame = contact_frame(v3::neg(c.normal));  // from the obstacle into the body
    f.rows = VertexContact{e[0].first, first_key + static_cast<int>(k), {frame.normal, frame.tangent1, frame.tangent2}};
    f.rows.self = e[0].second;
    f.rows.tri[0] = e[1].first;
    f.rows.tri[1] = e[2].first;
    f.rows.bary[0] = -e[1].second;
    f.rows.bary[1] = -e[2].second;
    f.body_point = c.closest;
    f.obstacle_point = xs_[static_cast<std::size_t>(c.vertex)];
    const Obstacle& ob = obstacles[static_cast<std::size_t>(o)];
    f.obstacle_velocity = point_velocity(ob.pose, ob.motion, f.obstacle_point);
    f.gap = c.distance;
    f.obstacle = o;
    found_.push_back(f);
  }
}

void ObstacleFeatureContacts::detect_edges(const std::vector<Obstacle>& obstacles, double h, double margin,
                                           double thickness, int first_key) {
  if (feature_edge_.empty()) return;
  edge_boxes_.resize(body_edges_.size());
  for (std::size_t e = 0; e < body_edges_.size(); ++e) {
    const auto& [u, w] = body_edges_[e];
    edge_boxes_[e] = merge(merge(merge(Aabb{xs_[u], xs_[u]}, xs_[w]), ys_[u]), ys_[w]);
  }
  if (edge_bvh_.size() != static_cast<Index>(edge_boxes_.size()) || edge_bvh_.quality_ratio() > 2.0) {
    edge_bvh_.build(edge_boxes_);
  } else {
    edge_bvh_.refit(edge_boxes_);
  }
  // A body edge's pseudo-normal: the sum of its faces' normals at the positions @p pos.
  auto body_normal = [&](std::size_t e, const std::vector<Vec3>& pos) {
    Vec3 sum{{0, 0, 0}};
    for (Index t : edge_faces_[e])
      if (t >= 0) sum = v3::add(sum, triangle_normal(pos, mesh_.triangles[static_cast<std::size_t>(t)]));
    return sum;
  };
  for (std::size_t k = 0; k < feature_edge_.size(); ++k) {
    const int o = static_cast<int>(feature_edge_[k][0]);
    const Obstacle& ob = obstacles[static_cast<std::size_t>(o)];
    const MeshSignedDistance& m = *ob.mesh;
    const auto& ends = m.edges()[static_cast<std::size_t>(feature_edge_[k][1])];
    const Vec3 a0 = to_world(ob.pose, m.positions()[static_cast<std::size_t>(ends[0])]);
    const Vec3 a1 = to_world(ob.pose, m.positions()[static_cast<std::size_t>(ends[1])]);
    const Vec3 p0 = v3::madd(a0, h, point_velocity(ob.pose, ob.motion, a0));
    const Vec3 p1 = v3::madd(a1, h, point_velocity(ob.pose, ob.motion, a1));
    const Vec3 na = to_world_direction(ob.pose, feature_edge_normal_[k]);
    near_.clear();
    edge_bvh_.query(merge(merge(merge(Aabb{a0, a0}, a1), p0), p1), margin + thickness, near_);
    for (Index e : near_) {
      const auto& [u, w] = body_edges_[static_cast<std::size_t>(e)];
      EdgeEdgeResult r;
      Vec3 n;
      double gap = 0.0;
      if (!measure(a0, a1, na, xs_[u], xs_[w], body_normal(static_cast<std::size_t>(e), xs_), r, n, gap)) continue;
      EdgeEdgeResult later;
      Vec3 n_later;
      double predicted = gap;  // at the prediction the pair may have left the rules' range
      measure(p0, p1, na, ys_[u], ys_[w], body_normal(static_cast<std::size_t>(e), ys_), later, n_later, predicted);
      if (!(std::min(gap, predicted) - thickness < margin)) continue;
      FeatureContact f;
      const ContactFrame frame = contact_frame(v3::neg(n));  // from the obstacle into the body
      f.rows = VertexContact{u, first_key + static_cast<int>(k), {frame.normal, frame.tangent1, frame.tangent2}};
      f.rows.self = 1.0 - r.t;
      f.rows.tri[0] = w;
      f.rows.bary[0] = -r.t;
      f.body_point = r.closest_q;
      f.obstacle_point = r.closest_p;
      f.obstacle_velocity = point_velocity(ob.pose, ob.motion, r.closest_p);
      f.gap = gap;
      f.obstacle = o;
      found_.push_back(f);
    }
  }
}

}  // namespace sinew::integrators::detail
