#include "sinew/collision/signed_distance_grid.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>

#include "parallel_chunks.hpp"
#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/bvh.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

using Triangles = std::vector<std::array<Index, 3>>;
using EdgeKey = std::pair<Index, Index>;

EdgeKey edge_key(Index a, Index b) { return {std::min(a, b), std::max(a, b)}; }

// Angle-weighted pseudo-normals (Baerentzen and Aanaes 2005): face normals, edge normals (sum
// of the two faces) and vertex normals (faces weighted by their angle at the vertex). The sign
// of (p - closest) . pseudo-normal of the closest feature is the inside/outside test.
struct PseudoNormals {
  std::vector<Vec3> face;        // (n_triangles)
  std::vector<Vec3> vertex;      // (n_vertices)
  std::map<EdgeKey, Vec3> edge;  // per undirected edge
};

PseudoNormals pseudo_normals(const std::vector<Vec3>& x, const Triangles& tris) {
  PseudoNormals pn;
  pn.face.resize(tris.size());
  pn.vertex.assign(x.size(), v3::make(0, 0, 0));
  std::map<EdgeKey, int> uses;
  for (size_t t = 0; t < tris.size(); ++t) {
    const auto& tr = tris[t];
    const Vec3 n =
        v3::normalized_or(cross(v3::sub(x[tr[1]], x[tr[0]]), v3::sub(x[tr[2]], x[tr[0]])), v3::make(0, 0, 0));
    pn.face[t] = n;
    for (int k = 0; k < 3; ++k) {
      const Index a = tr[k], b = tr[(k + 1) % 3], c = tr[(k + 2) % 3];
      const EdgeKey e = edge_key(a, b);
      ++uses[e];
      pn.edge[e] = v3::add(pn.edge.count(e) ? pn.edge[e] : v3::make(0, 0, 0), n);
      const Vec3 u = v3::normalized_or(v3::sub(x[b], x[a]), v3::make(0, 0, 0));
      const Vec3 w = v3::normalized_or(v3::sub(x[c], x[a]), v3::make(0, 0, 0));
      const double angle = std::acos(std::clamp(dot(u, w), -1.0, 1.0));
      pn.vertex[a] = v3::madd(pn.vertex[a], angle, n);
    }
  }
  for (const auto& [e, count] : uses) {
    if (count != 2)
      throw Error("SignedDistanceGrid::build: the mesh must be closed, but edge (" + std::to_string(e.first) + ", " +
                  std::to_string(e.second) + ") is shared by " + std::to_string(count) + " triangles instead of 2");
  }
  return pn;
}

}  // namespace

void SignedDistanceGrid::build(const std::vector<Vec3>& x, const Triangles& tris, const SdfGridOptions& params) {
  require(!tris.empty(), "SignedDistanceGrid::build: the mesh has no triangles");
  require(std::isfinite(params.cell_size) && params.cell_size >= 0.0, [&] {
    return "SdfGridOptions.cell_size must be finite and >= 0 (0: automatic), got " + number_text(params.cell_size);
  });
  require(params.padding >= 1,
          [&] { return "SdfGridOptions.padding must be at least 1, got " + std::to_string(params.padding); });
  const std::vector<Aabb> boxes = triangle_boxes(x, tris);  // checks the indices, naming the triangle
  const PseudoNormals pn = pseudo_normals(x, tris);
  Aabb all = empty_aabb();
  for (const Aabb& b : boxes) all = merge(all, b);
  const double extent = std::max({all.hi[0] - all.lo[0], all.hi[1] - all.lo[1], all.hi[2] - all.lo[2]});
  require(extent > 0.0, "SignedDistanceGrid::build: the mesh has zero extent");
  cell_ = params.cell_size > 0.0 ? params.cell_size : extent / 32.0;
  for (int k = 0; k < 3; ++k) {
    origin_[k] = all.lo[k] - params.padding * cell_;
    dims_[k] = static_cast<int>(std::ceil((all.hi[k] - all.lo[k]) / cell_)) + 2 * params.padding + 1;
  }
  const double nodes = double(dims_[0]) * dims_[1] * dims_[2];
  require(nodes <= 1e9, [&] {
    return "SignedDistanceGrid::build: " + number_text(nodes) +
           " grid nodes is too many; raise SdfGridOptions.cell_size";
  });
  Bvh bvh;
  bvh.build(boxes);
  values_.assign(static_cast<size_t>(nodes), 0.0);
  const Index n = static_cast<Index>(nodes);
  detail::for_each_chunk(n, 1024, [&](Index, Index begin, Index end) {
    for (Index id = begin; id < end; ++id) {
      const int i = id % dims_[0], j = (id / dims_[0]) % dims_[1], k = id / (dims_[0] * dims_[1]);
      const Vec3 p = v3::make(origin_[0] + i * cell_, origin_[1] + j * cell_, origin_[2] + k * cell_);
      double d2 = 0.0;
      const Index t = bvh.nearest(
          p,
          [&](Index tri) {
            const auto& tr = tris[tri];
            return closest_point_triangle(p, x[tr[0]], x[tr[1]], x[tr[2]]).distance_squared;
          },
          d2);
      const auto& tr = tris[t];
      const PointTriangleResult r = closest_point_triangle(p, x[tr[0]], x[tr[1]], x[tr[2]]);
      Vec3 normal;
      switch (r.region) {
        case TriangleRegion::kFace:
          normal = pn.face[t];
          break;
        case TriangleRegion::kEdgeAB:
          normal = pn.edge.at(edge_key(tr[0], tr[1]));
          break;
        case TriangleRegion::kEdgeBC:
          normal = pn.edge.at(edge_key(tr[1], tr[2]));
          break;
        case TriangleRegion::kEdgeCA:
          normal = pn.edge.at(edge_key(tr[2], tr[0]));
          break;
        default:
          normal = pn.vertex[tr[static_cast<int>(r.region)]];
      }
      const double d = std::sqrt(r.distance_squared);
      values_[id] = dot(v3::sub(p, r.closest), normal) < 0.0 ? -d : d;
    }
  });
}

SignedDistance SignedDistanceGrid::query(const Vec3& p) const {
  require(!values_.empty(), "SignedDistanceGrid::query: call build() first");
  return sdf_grid_query(view(), p);
}

SdfGridView SignedDistanceGrid::view() const {
  return SdfGridView{values_.data(), {dims_[0], dims_[1], dims_[2]}, origin_, cell_};
}

}  // namespace sinew
