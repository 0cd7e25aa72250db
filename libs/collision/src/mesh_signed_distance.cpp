#include "sinew/collision/mesh_signed_distance.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/core/error.hpp"

namespace sinew {

void MeshSignedDistance::build(const std::vector<Vec3>& x, const std::vector<std::array<Index, 3>>& tris,
                               MeshSides sides) {
  require(!tris.empty(), "MeshSignedDistance::build: the mesh has no triangles");
  for (std::size_t v = 0; v < x.size(); ++v)
    require(is_finite(x[v]),
            [&] { return "MeshSignedDistance::build: point " + std::to_string(v) + " is not finite"; });
  const std::vector<Aabb> boxes = triangle_boxes(x, tris);  // checks the indices, naming the triangle
  // Angle-weighted pseudo-normals: face normals, edge normals (sum of the two faces) and vertex
  // normals (faces weighted by their angle at the vertex). The sign of (p - closest) . pseudo-
  // normal of the closest feature is the inside/outside test, exact for a closed, consistently
  // oriented mesh.
  using EdgeKey = std::pair<Index, Index>;
  const auto key = [](Index a, Index b) { return EdgeKey{std::min(a, b), std::max(a, b)}; };
  std::map<EdgeKey, std::pair<int, Vec3>> edges;  // uses and summed face normals
  std::vector<Vec3> face(tris.size()), vertex(x.size(), v3::make(0, 0, 0));
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const auto& tr = tris[t];
    const Vec3 n =
        v3::normalized_or(cross(v3::sub(x[tr[1]], x[tr[0]]), v3::sub(x[tr[2]], x[tr[0]])), v3::make(0, 0, 0));
    face[t] = n;
    for (int k = 0; k < 3; ++k) {
      const Index a = tr[k], b = tr[(k + 1) % 3], c = tr[(k + 2) % 3];
      auto& e = edges[key(a, b)];
      ++e.first;
      e.second = v3::add(e.second, n);
      const Vec3 u = v3::normalized_or(v3::sub(x[b], x[a]), v3::make(0, 0, 0));
      const Vec3 w = v3::normalized_or(v3::sub(x[c], x[a]), v3::make(0, 0, 0));
      vertex[a] = v3::madd(vertex[a], std::acos(std::clamp(dot(u, w), -1.0, 1.0)), n);
    }
  }
  for (const auto& entry : edges) {  // not a structured binding: C++17 lambdas cannot capture one
    const EdgeKey& e = entry.first;
    const int uses = entry.second.first;
    require(uses == 2 || sides == MeshSides::kTwoSided, [&] {
      return "MeshSignedDistance::build: the mesh must be closed, but edge (" + std::to_string(e.first) + ", " +
             std::to_string(e.second) + ") is shared by " + std::to_string(uses) + " triangles instead of 2";
    });
  }
  std::vector<std::array<Vec3, 3>> edge(tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t)
    for (int k = 0; k < 3; ++k) edge[t][k] = edges.at(key(tris[t][k], tris[t][(k + 1) % 3])).second;
  // The edges in key order, each with the angle of its faces: |n1 + n2|^2 = 2 + 2 cos.
  std::vector<std::array<Index, 2>> edge_list;
  std::vector<double> edge_cos;
  std::map<EdgeKey, Index> edge_index;
  for (const auto& entry : edges) {
    edge_index.emplace(entry.first, static_cast<Index>(edge_list.size()));
    edge_list.push_back({entry.first.first, entry.first.second});
    const double sum2 = dot(entry.second.second, entry.second.second);
    edge_cos.push_back(entry.second.first == 2 ? std::clamp(0.5 * sum2 - 1.0, -1.0, 1.0) : -1.0);
  }
  std::vector<std::array<Index, 3>> triangle_edges(tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t)
    for (int k = 0; k < 3; ++k) triangle_edges[t][k] = edge_index.at(key(tris[t][k], tris[t][(k + 1) % 3]));
  Bvh bvh;
  bvh.build(boxes);
  Aabb all = empty_aabb();
  for (const Aabb& b : boxes) all = merge(all, b);
  // Nothing is kept until everything has been checked.
  positions_ = x;
  triangles_ = tris;
  face_normal_ = std::move(face);
  edge_normal_ = std::move(edge);
  vertex_normal_ = std::move(vertex);
  edges_ = std::move(edge_list);
  edge_cos_ = std::move(edge_cos);
  triangle_edges_ = std::move(triangle_edges);
  bvh_ = std::move(bvh);
  bounds_ = all;
  extent_ = std::max({all.hi[0] - all.lo[0], all.hi[1] - all.lo[1], all.hi[2] - all.lo[2]});
  sides_ = sides;
}

void MeshSignedDistance::triangles_near(const Aabb& box, std::vector<Index>& out) const {
  require(built(), "MeshSignedDistance::triangles_near: call build() first");
  bvh_.query(box, 0.0, out);
}

SignedDistance MeshSignedDistance::query(const Vec3& p) const {
  require(built(), "MeshSignedDistance::query: call build() first");
  const std::vector<Vec3>& x = positions_;
  double d2 = 0.0;
  const Index t = bvh_.nearest(
      p,
      [&](Index tri) {
        const auto& tr = triangles_[tri];
        return closest_point_triangle(p, x[tr[0]], x[tr[1]], x[tr[2]]).distance_squared;
      },
      d2);
  const auto& tr = triangles_[t];
  const PointTriangleResult r = closest_point_triangle(p, x[tr[0]], x[tr[1]], x[tr[2]]);
  Vec3 pseudo;
  switch (r.region) {
    case TriangleRegion::kFace:
      pseudo = face_normal_[t];
      break;
    case TriangleRegion::kEdgeAB:
      pseudo = edge_normal_[t][0];
      break;
    case TriangleRegion::kEdgeBC:
      pseudo = edge_normal_[t][1];
      break;
    case TriangleRegion::kEdgeCA:
      pseudo = edge_normal_[t][2];
      break;
    default:
      pseudo = vertex_normal_[tr[static_cast<int>(r.region)]];
  }
  const Vec3 away = v3::sub(p, r.closest);
  const bool inside = dot(away, pseudo) < 0.0;
  const double d = std::sqrt(r.distance_squared);
  // Off the surface the direction to the point is the normal (exact, and continuous across the
  // mesh's edges); on it (or within round-off of it) the pseudo-normal is. On a sheet "inside"
  // means behind its faces, and the normal points to their front.
  const Vec3 normal =
      d > 1e-12 * extent_ ? v3::scale((inside ? -1.0 : 1.0) / d, away) : v3::normalized_or(pseudo, face_normal_[t]);
  return SignedDistance{inside ? -d : d, normal, r.closest};
}

}  // namespace sinew
