// Self-contact of a cloth (cloth_self_contacts.hpp): vertex-triangle and edge-edge contacts of one
// two-sided triangle sheet, with the side of each pair remembered from the last step.
//
// Determinism: the broad phases return their pairs sorted ((query, triangle) and (edge a, edge b)
// with a < b); the narrow phases run over fixed chunks of those whose outputs are concatenated in
// chunk order (parallel_chunks.hpp), so the contacts do not depend on the thread count, and the
// query vertices are sorted first, so neither on their order.
#include "sinew/collision/cloth_self_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <string>
#include <utility>

#include "parallel_chunks.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

namespace {

// sin^2 of the smallest angle between two edges' directions for them to be a contact (~3 deg), as
// for contacts between bodies: nearer parallel, a x b is ill-conditioned and an endpoint is as close.
constexpr double kClothMinSin2 = 0.05 * 0.05;
// Closest points within this fraction of an edge's end count as the end (a vertex-triangle contact).
constexpr double kClothInterior = 1e-3;

const std::string kClothWho = "ClothSelfContactDetector: ";

// The unit normal of triangle (a, b, c), +z for a degenerate one.
Vec3 cloth_face_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  return v3::normalized_or(cross(v3::sub(b, a), v3::sub(c, a)), v3::make(0, 0, 1));
}

// The signed distance of vertex p to triangle (a, b, c) on side @p side (+1: the face normal's side)
// and its normal (cloth_self_contacts.hpp: ClothVertexTriangleContact::distance).
struct ClothSided {
  double distance;
  Vec3 normal;
};
ClothSided cloth_sided_distance(const Vec3& p, const PointTriangleResult& r, const Vec3& face, double side,
                                double scale) {
  const Vec3 diff = v3::sub(p, r.closest);
  if (r.region == TriangleRegion::kFace) return {side * dot(diff, face), v3::scale(side, face)};
  const double dist = std::sqrt(r.distance_squared);
  // At (nearly) zero distance the direction p - closest is noise: the face normal on the side.
  if (!(dist > 1e-12 * scale)) return {dist, v3::scale(side, face)};
  return {dist, v3::scale(1.0 / dist, diff)};
}

}  // namespace

struct ClothSelfContactDetector::Work {
  std::vector<std::array<Index, 3>> triangles;  // as given
  Index n = 0;                                  // vertices
  std::vector<Index> queries;                   // ascending, unique
  std::vector<char> is_query;                   // (n) whether a vertex is a query vertex
  std::vector<std::array<Index, 2>> edges;      // (u, w), u < w, sorted
  std::vector<std::array<Index, 3>> tri_edges;  // (triangles) edge index of edge k = (tri[k], tri[k + 1])
  std::vector<Index> edge_owner;                // (edges) first triangle holding the edge
  std::vector<Index> vertex_owner;              // (n) first triangle holding the vertex, -1 if none
  std::vector<Index> ring_first, ring;          // CSR: each vertex's neighbours over the edges, sorted
  ElementVertices query_vertices, triangle_vertices, edge_vertices;     // for the broad phases' exclusion
  std::vector<Aabb> triangle_boxes, query_boxes, edge_boxes;            // swept boxes
  std::vector<CandidatePair> vt_pairs, ee_pairs;                        // broad-phase pairs, sorted
  std::vector<std::size_t> first;                                       // (queries + 1) offsets into vt_pairs
  std::vector<Vec3> face_x, face_y;                                     // (triangles) unit normals at x and at y
  std::vector<std::vector<ClothVertexTriangleContact>> vt_parts;        // per chunk
  std::vector<std::vector<ClothEdgeEdgeContact>> ee_parts;              // per chunk
  std::vector<std::pair<std::array<Index, 2>, Vec3>> prev_vt, prev_ee;  // keys and normals, sorted
};

ClothSelfContactDetector::ClothSelfContactDetector(std::vector<std::array<Index, 3>> triangles, Index n_vertices,
                                                   const std::vector<Index>& vertices, const std::string& broad_phase,
                                                   const BroadPhaseOptions& params)
    : triangle_broad_(make_broad_phase(broad_phase, params)),
      edge_broad_(make_broad_phase(broad_phase, params)),
      work_(std::make_unique<Work>()) {
  Work& w = *work_;
  require(n_vertices >= 0, [&] { return kClothWho + "n_vertices must be >= 0, got " + std::to_string(n_vertices); });
  w.n = n_vertices;
  w.triangles = std::move(triangles);
  for (std::size_t t = 0; t < w.triangles.size(); ++t) {
    const auto& tri = w.triangles[t];
    for (int k = 0; k < 3; ++k)
      require(tri[k] >= 0 && tri[k] < n_vertices, [&] {
        return kClothWho + "triangle " + std::to_string(t) + " has vertex " + std::to_string(tri[k]) +
               ", out of range, expected 0 <= vertex < " + std::to_string(n_vertices);
      });
    require(tri[0] != tri[1] && tri[1] != tri[2] && tri[2] != tri[0], [&] {
      return kClothWho + "triangle " + std::to_string(t) + " repeats a vertex (" + std::to_string(tri[0]) + ", " +
             std::to_string(tri[1]) + ", " + std::to_string(tri[2]) + ")";
    });
  }
  for (std::size_t i = 0; i < vertices.size(); ++i)
    require(vertices[i] >= 0 && vertices[i] < n_vertices, [&] {
      return kClothWho + "vertices[" + std::to_string(i) + "] = " + std::to_string(vertices[i]) +
             " is out of range, expected 0 <= vertex < " + std::to_string(n_vertices);
    });
  // Owners: the first triangle holding each vertex and each edge.
  w.vertex_owner.assign(static_cast<std::size_t>(n_vertices), -1);
  std::vector<std::array<Index, 4>> list;  // (u, w, triangle, k), u < w
  list.reserve(3 * w.triangles.size());
  for (std::size_t t = 0; t < w.triangles.size(); ++t)
    for (Index k = 0; k < 3; ++k) {
      const Index u = w.triangles[t][k], v = w.triangles[t][(k + 1) % 3];
      if (w.vertex_owner[u] < 0) w.vertex_owner[u] = static_cast<Index>(t);
      list.push_back({std::min(u, v), std::max(u, v), static_cast<Index>(t), k});
    }
  std::sort(list.begin(), list.end());
  w.tri_edges.assign(w.triangles.size(), {-1, -1, -1});
  for (std::size_t i = 0; i < list.size(); ++i) {
    if (i == 0 || list[i][0] != list[i - 1][0] || list[i][1] != list[i - 1][1]) {
      w.edges.push_back({list[i][0], list[i][1]});
      w.edge_owner.push_back(list[i][2]);  // the smallest triangle: the list is sorted by it next
    }
    w.tri_edges[list[i][2]][list[i][3]] = static_cast<Index>(w.edges.size() - 1);
  }
  // Neighbours over the edges (sorted per vertex, as the edges are).
  w.ring_first.assign(static_cast<std::size_t>(n_vertices) + 1, 0);
  for (const auto& e : w.edges) {
    ++w.ring_first[static_cast<std::size_t>(e[0]) + 1];
    ++w.ring_first[static_cast<std::size_t>(e[1]) + 1];
  }
  for (Index v = 0; v < n_vertices; ++v) w.ring_first[v + 1] += w.ring_first[v];
  w.ring.assign(static_cast<std::size_t>(w.ring_first[n_vertices]), 0);
  {
    std::vector<Index> fill(w.ring_first.begin(), w.ring_first.end() - 1);
    for (const auto& e : w.edges) {
      w.ring[fill[e[0]]++] = e[1];
      w.ring[fill[e[1]]++] = e[0];
    }
    for (Index v = 0; v < n_vertices; ++v)
      std::sort(w.ring.begin() + w.ring_first[v], w.ring.begin() + w.ring_first[v + 1]);
  }
  if (vertices.empty()) {
    for (Index v = 0; v < n_vertices; ++v)
      if (w.vertex_owner[v] >= 0) w.queries.push_back(v);
  } else {
    w.queries = vertices;
    std::sort(w.queries.begin(), w.queries.end());
    w.queries.erase(std::unique(w.queries.begin(), w.queries.end()), w.queries.end());
  }
  w.is_query.assign(static_cast<std::size_t>(n_vertices), 0);
  for (Index v : w.queries) {
    w.query_vertices.push_back({v, -1, -1});
    w.is_query[v] = 1;
  }
  w.triangle_vertices.assign(w.triangles.begin(), w.triangles.end());
  for (const auto& e : w.edges) w.edge_vertices.push_back({e[0], e[1], -1});
}

ClothSelfContactDetector::~ClothSelfContactDetector() = default;
ClothSelfContactDetector::ClothSelfContactDetector(ClothSelfContactDetector&&) noexcept = default;
ClothSelfContactDetector& ClothSelfContactDetector::operator=(ClothSelfContactDetector&&) noexcept = default;

const std::vector<std::array<Index, 3>>& ClothSelfContactDetector::triangles() const { return work_->triangles; }
const std::vector<std::array<Index, 2>>& ClothSelfContactDetector::edges() const { return work_->edges; }
const std::vector<Index>& ClothSelfContactDetector::vertices() const { return work_->queries; }
std::size_t ClothSelfContactDetector::candidates() const { return work_->vt_pairs.size() + work_->ee_pairs.size(); }

void ClothSelfContactDetector::detect(const std::vector<Vec3>& x, const std::vector<Vec3>* predicted, double margin,
                                      const std::vector<ClothVertexTriangleContact>* previous_vertex_triangle,
                                      const std::vector<ClothEdgeEdgeContact>* previous_edge_edge,
                                      std::vector<ClothVertexTriangleContact>& vertex_triangle,
                                      std::vector<ClothEdgeEdgeContact>& edge_edge) {
  vertex_triangle.clear();
  edge_edge.clear();
  Work& w = *work_;
  const std::size_t n = static_cast<std::size_t>(w.n);
  require(x.size() == n, [&] {
    return kClothWho + "detect: x must have one position per vertex (" + std::to_string(n) + "), got " +
           std::to_string(x.size());
  });
  require(predicted == nullptr || predicted->size() == n, [&] {
    return kClothWho + "detect: predicted must have one position per vertex (" + std::to_string(n) + "), got " +
           std::to_string(predicted->size());
  });
  require(std::isfinite(margin) && margin >= 0.0,
          [&] { return kClothWho + "detect: margin must be finite and >= 0, got " + number_text(margin); });
  const std::vector<Vec3>& y = predicted != nullptr ? *predicted : x;
  for (std::size_t v = 0; v < n; ++v)
    require(is_finite(x[v]) && is_finite(y[v]),
            [&] { return kClothWho + "detect: vertex " + std::to_string(v) + " has a non-finite position"; });
  // The previous contacts' keys and normals, sorted for lookup.
  w.prev_vt.clear();
  w.prev_ee.clear();
  if (previous_vertex_triangle != nullptr)
    for (const ClothVertexTriangleContact& c : *previous_vertex_triangle) {
      require(c.vertex >= 0 && c.vertex < w.n && c.triangle >= 0 &&
                  c.triangle < static_cast<Index>(w.triangles.size()) && is_finite(c.normal),
              [&] {
                return kClothWho + "detect: a previous vertex-triangle contact names vertex " +
                       std::to_string(c.vertex) + " and triangle " + std::to_string(c.triangle) +
                       " (out of range) or has a non-finite normal";
              });
      w.prev_vt.push_back({{c.vertex, c.triangle}, c.normal});
    }
  if (previous_edge_edge != nullptr)
    for (const ClothEdgeEdgeContact& c : *previous_edge_edge) {
      const Index edges = static_cast<Index>(w.edges.size());
      require(c.edge_a >= 0 && c.edge_a < edges && c.edge_b >= 0 && c.edge_b < edges && is_finite(c.normal), [&] {
        return kClothWho + "detect: a previous edge-edge contact names edges " + std::to_string(c.edge_a) + " and " +
               std::to_string(c.edge_b) + " (out of range, expected < " + std::to_string(edges) +
               ") or has a non-finite normal";
      });
      w.prev_ee.push_back({{c.edge_a, c.edge_b}, c.normal});
    }
  auto by_key = [](const auto& a, const auto& b) { return a.first < b.first; };
  std::sort(w.prev_vt.begin(), w.prev_vt.end(), by_key);
  std::sort(w.prev_ee.begin(), w.prev_ee.end(), by_key);
  // The previous normal of pair @p key, or null.
  auto previous = [&](const std::vector<std::pair<std::array<Index, 2>, Vec3>>& list,
                      const std::array<Index, 2>& key) -> const Vec3* {
    const auto it = std::lower_bound(list.begin(), list.end(), key,
                                     [](const auto& entry, const std::array<Index, 2>& k) { return entry.first < k; });
    return it != list.end() && it->first == key ? &it->second : nullptr;
  };
  w.vt_pairs.clear();
  w.ee_pairs.clear();
  if (w.triangles.empty()) return;

  // Swept boxes: each primitive over its positions now and at the prediction.
  const std::size_t nt = w.triangles.size();
  w.triangle_boxes.resize(nt);
  w.face_x.resize(nt);
  w.face_y.resize(nt);
  for (std::size_t t = 0; t < nt; ++t) {
    const auto& tri = w.triangles[t];
    Aabb box = empty_aabb();
    for (Index v : tri) box = merge(merge(box, x[v]), y[v]);
    w.triangle_boxes[t] = box;
    w.face_x[t] = cloth_face_normal(x[tri[0]], x[tri[1]], x[tri[2]]);
    w.face_y[t] = cloth_face_normal(y[tri[0]], y[tri[1]], y[tri[2]]);
  }
  w.query_boxes.resize(w.queries.size());
  for (std::size_t q = 0; q < w.queries.size(); ++q) {
    const Index v = w.queries[q];
    w.query_boxes[q] = merge(Aabb{x[v], x[v]}, y[v]);
  }
  w.edge_boxes.resize(w.edges.size());
  for (std::size_t e = 0; e < w.edges.size(); ++e) {
    const auto& ed = w.edges[e];
    w.edge_boxes[e] = merge(merge(Aabb{x[ed[0]], x[ed[0]]}, y[ed[0]]), merge(Aabb{x[ed[1]], x[ed[1]]}, y[ed[1]]));
  }
  // A refit while the counts hold (the bvh rebuilds itself once the tree degrades).
  if (triangle_broad_->size() == static_cast<Index>(nt)) {
    triangle_broad_->update(w.triangle_boxes);
    edge_broad_->update(w.edge_boxes);
  } else {
    triangle_broad_->build(w.triangle_boxes);
    edge_broad_->build(w.edge_boxes);
  }
  // Pairs sharing a vertex are skipped: a triangle holding the query vertex, edges meeting.
  triangle_broad_->query_pairs_into(w.query_boxes, margin, &w.query_vertices, &w.triangle_vertices, w.vt_pairs);
  edge_broad_->self_pairs_into(margin, &w.edge_vertices, w.ee_pairs);

  // Whether u is joined to v by an edge.
  auto joined = [&](Index v, Index u) {
    return std::binary_search(w.ring.begin() + w.ring_first[v], w.ring.begin() + w.ring_first[v + 1], u);
  };
  // Vertex-triangle, over fixed chunks of the query vertices.
  const std::size_t nq = w.queries.size();
  w.first.assign(nq + 1, 0);
  for (const CandidatePair& p : w.vt_pairs) ++w.first[static_cast<std::size_t>(p.first) + 1];
  for (std::size_t q = 0; q < nq; ++q) w.first[q + 1] += w.first[q];
  constexpr Index kChunk = 256;
  const std::size_t vt_chunks = (nq + kChunk - 1) / kChunk;
  if (w.vt_parts.size() < vt_chunks) w.vt_parts.resize(vt_chunks);
  detail::for_each_chunk(static_cast<Index>(nq), kChunk, [&](Index chunk, Index begin, Index end) {
    std::vector<ClothVertexTriangleContact>& part = w.vt_parts[chunk];
    part.clear();
    for (Index q = begin; q < end; ++q) {
      const Index v = w.queries[q];
      for (std::size_t p = w.first[q]; p < w.first[q + 1]; ++p) {
        const Index t = w.vt_pairs[p].second;
        const auto& tri = w.triangles[t];
        const PointTriangleResult r = closest_point_triangle(x[v], x[tri[0]], x[tri[1]], x[tri[2]]);
        // One contact per feature of the mesh: an edge or a vertex only through its owner, and none
        // with a vertex joined to v or an edge of v's own triangles (both ends joined to v).
        const int region = static_cast<int>(r.region);
        if (region < 3) {
          // Vertex on vertex u: the pair is found from both ends; the smaller query vertex's is kept.
          const Index u = tri[region];
          if (w.vertex_owner[u] != t || joined(v, u) || (u < v && w.is_query[u])) continue;
        }
        if (region >= 3 && region < 6) {
          // kEdgeAB, kEdgeBC, kEdgeCA: edge k = region - 3 of (tri[k], tri[k + 1]).
          const int k = region - 3;
          if (w.edge_owner[w.tri_edges[t][k]] != t || (joined(v, tri[k]) && joined(v, tri[(k + 1) % 3]))) continue;
        }
        const Vec3& face = w.face_x[t];
        const Vec3* before = previous(w.prev_vt, {v, t});
        const double side =
            (before != nullptr ? dot(*before, face) : dot(v3::sub(x[v], r.closest), face)) >= 0.0 ? 1.0 : -1.0;
        const double scale = std::sqrt(std::max(v3::sqdist(x[tri[1]], x[tri[0]]), v3::sqdist(x[tri[2]], x[tri[0]])));
        const ClothSided now = cloth_sided_distance(x[v], r, face, side, scale);
        double later = now.distance;
        if (predicted != nullptr) {
          const PointTriangleResult ry = closest_point_triangle(y[v], y[tri[0]], y[tri[1]], y[tri[2]]);
          later = cloth_sided_distance(y[v], ry, w.face_y[t], side, scale).distance;
        }
        if (!(std::min(now.distance, later) < margin)) continue;
        ClothVertexTriangleContact c;
        c.vertex = v;
        c.triangle = t;
        c.distance = now.distance;
        c.predicted = later;
        c.normal = now.normal;
        c.closest = r.closest;
        for (int k = 0; k < 3; ++k) c.bary[k] = r.bary[k];
        c.region = r.region;
        part.push_back(c);
      }
    }
  });
  for (std::size_t chunk = 0; chunk < vt_chunks; ++chunk)
    vertex_triangle.insert(vertex_triangle.end(), w.vt_parts[chunk].begin(), w.vt_parts[chunk].end());

  // Edge-edge, over fixed chunks of the candidate pairs (a < b, sorted).
  const std::size_t np = w.ee_pairs.size();
  constexpr Index kPairChunk = 1024;
  const std::size_t ee_chunks = (np + kPairChunk - 1) / kPairChunk;
  if (w.ee_parts.size() < ee_chunks) w.ee_parts.resize(ee_chunks);
  detail::for_each_chunk(static_cast<Index>(np), kPairChunk, [&](Index chunk, Index begin, Index end) {
    std::vector<ClothEdgeEdgeContact>& part = w.ee_parts[chunk];
    part.clear();
    for (Index p = begin; p < end; ++p) {
      const Index ea = w.ee_pairs[p].first, eb = w.ee_pairs[p].second;
      const auto& a = w.edges[ea];
      const auto& b = w.edges[eb];
      const Vec3 da = v3::sub(x[a[1]], x[a[0]]), db = v3::sub(x[b[1]], x[b[0]]);
      const Vec3 axb = cross(da, db);
      if (!(dot(axb, axb) > kClothMinSin2 * dot(da, da) * dot(db, db))) continue;  // near parallel
      const EdgeEdgeResult r = closest_points_segments(x[a[0]], x[a[1]], x[b[0]], x[b[1]]);
      if (!(r.s > kClothInterior && r.s < 1.0 - kClothInterior && r.t > kClothInterior && r.t < 1.0 - kClothInterior))
        continue;
      const Vec3 c = v3::scale(1.0 / norm(axb), axb);
      const Vec3 diff = v3::sub(r.closest_p, r.closest_q);
      const Vec3* before = previous(w.prev_ee, {ea, eb});
      const double side = (before != nullptr ? dot(*before, c) : dot(diff, c)) >= 0.0 ? 1.0 : -1.0;
      const Vec3 normal = v3::scale(side, c);
      const double now = dot(diff, normal);
      double later = now;
      if (predicted != nullptr) {
        // The same side of the edges' cross product at the prediction (a x b turns with the edges).
        const Vec3 axb_y = cross(v3::sub(y[a[1]], y[a[0]]), v3::sub(y[b[1]], y[b[0]]));
        const EdgeEdgeResult ry = closest_points_segments(y[a[0]], y[a[1]], y[b[0]], y[b[1]]);
        const double len = norm(axb_y);
        if (len > 0.0) later = side * dot(v3::sub(ry.closest_p, ry.closest_q), axb_y) / len;
      }
      if (!(std::min(now, later) < margin)) continue;
      ClothEdgeEdgeContact e;
      e.edge_a = ea;
      e.edge_b = eb;
      e.s = r.s;
      e.t = r.t;
      e.distance = now;
      e.predicted = later;
      e.normal = normal;
      part.push_back(e);
    }
  });
  for (std::size_t chunk = 0; chunk < ee_chunks; ++chunk)
    edge_edge.insert(edge_edge.end(), w.ee_parts[chunk].begin(), w.ee_parts[chunk].end());
}

}  // namespace sinew
