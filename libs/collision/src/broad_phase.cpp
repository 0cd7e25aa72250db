#include "sinew/collision/broad_phase.hpp"

#include <algorithm>
#include <cmath>

#include "broad_phase_impls.hpp"
#include "sinew/collision/bvh.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

void check_margin(double margin, const char* where) {
  if (!(std::isfinite(margin) && margin >= 0.0))
    throw Error(std::string(where) + ": margin must be finite and >= 0, got " + number_text(margin));
}

void check_vertices(const ElementVertices* v, size_t expected, const char* where, const char* what) {
  if (v == nullptr) return;
  if (v->size() != expected)
    throw Error(std::string(where) + ": " + what + " must have one entry per element (" + std::to_string(expected) +
                "), got " + std::to_string(v->size()));
}

bool share_vertex(const std::array<Index, 3>& a, const std::array<Index, 3>& b) {
  for (Index x : a) {
    if (x < 0) continue;
    for (Index y : b) {
      if (x == y) return true;
    }
  }
  return false;
}

void drop_adjacent(std::vector<CandidatePair>& pairs, const ElementVertices& va, const ElementVertices& vb) {
  pairs.erase(std::remove_if(pairs.begin(), pairs.end(),
                             [&](const CandidatePair& p) { return share_vertex(va[p.first], vb[p.second]); }),
              pairs.end());
}

void check_index(Index v, Index n, const char* what, size_t element) {
  if (!(v >= 0 && v < n))
    throw Error(std::string(what) + " " + std::to_string(element) + " has vertex index " + std::to_string(v) +
                ", expected one in [0, " + std::to_string(n) + ")");
}

// check_boxes() with the broad phase's name in the message, built only when a box is invalid.
void check_boxes_lazily(const std::vector<Aabb>& boxes, const BroadPhase& bp, const char* op) {
  for (const Aabb& b : boxes) {
    for (int k = 0; k < 3; ++k) {
      if (!(std::isfinite(b.lo[k]) && std::isfinite(b.hi[k]) && b.lo[k] <= b.hi[k])) {
        check_boxes(boxes, (bp.name() + op).c_str());
        return;
      }
    }
  }
}

}  // namespace

// Messages are built only on failure, so that a valid call allocates nothing.
void BroadPhase::build(const std::vector<Aabb>& boxes) {
  check_boxes_lazily(boxes, *this, " broad phase build");
  do_build(boxes);
  size_ = static_cast<Index>(boxes.size());
  built_ = true;
}

void BroadPhase::update(const std::vector<Aabb>& boxes) {
  if (!built_) throw Error(name() + " broad phase update: call build() first");
  if (static_cast<Index>(boxes.size()) != size_)
    throw Error(name() + " broad phase update: expected " + std::to_string(size_) + " boxes (as built), got " +
                std::to_string(boxes.size()));
  check_boxes_lazily(boxes, *this, " broad phase update");
  do_update(boxes);
}

void BroadPhase::check_query(const char* where, const std::vector<Aabb>* queries, double margin,
                             const ElementVertices* query_vertices, const ElementVertices* vertices) const {
  if (!built_) throw Error(name() + " broad phase " + where + ": call build() first");
  check_margin(margin, where);
  if (queries == nullptr) {
    check_vertices(vertices, static_cast<size_t>(size_), where, "vertices");
    return;
  }
  check_boxes(*queries, "BroadPhase::query_pairs queries");
  if ((query_vertices == nullptr) != (vertices == nullptr))
    throw Error(std::string(where) + ": give both query_vertices and vertices, or neither");
  check_vertices(query_vertices, queries->size(), where, "query_vertices");
  check_vertices(vertices, static_cast<size_t>(size_), where, "vertices");
}

std::vector<CandidatePair> BroadPhase::self_pairs(double margin, const ElementVertices* vertices) const {
  check_query("BroadPhase::self_pairs", nullptr, margin, nullptr, vertices);
  std::vector<CandidatePair> pairs = do_self_pairs(margin);
  if (vertices != nullptr) drop_adjacent(pairs, *vertices, *vertices);
  return pairs;
}

std::vector<CandidatePair> BroadPhase::query_pairs(const std::vector<Aabb>& queries, double margin,
                                                   const ElementVertices* query_vertices,
                                                   const ElementVertices* vertices) const {
  check_query("BroadPhase::query_pairs", &queries, margin, query_vertices, vertices);
  std::vector<CandidatePair> pairs = do_query_pairs(queries, margin);
  if (vertices != nullptr) drop_adjacent(pairs, *query_vertices, *vertices);
  return pairs;
}

void BroadPhase::self_pairs_into(double margin, const ElementVertices* vertices, std::vector<CandidatePair>& out) {
  check_query("BroadPhase::self_pairs_into", nullptr, margin, nullptr, vertices);
  do_self_pairs_into(margin, out);
  if (vertices != nullptr) drop_adjacent(out, *vertices, *vertices);
}

void BroadPhase::query_pairs_into(const std::vector<Aabb>& queries, double margin,
                                  const ElementVertices* query_vertices, const ElementVertices* vertices,
                                  std::vector<CandidatePair>& out) {
  check_query("BroadPhase::query_pairs_into", &queries, margin, query_vertices, vertices);
  do_query_pairs_into(queries, margin, out);
  if (vertices != nullptr) drop_adjacent(out, *query_vertices, *vertices);
}

std::unique_ptr<BroadPhase> make_broad_phase(const std::string& name, const BroadPhaseOptions& params) {
  require(params.leaf_size >= 1,
          [&] { return "BroadPhaseOptions.leaf_size must be at least 1, got " + std::to_string(params.leaf_size); });
  require(params.rebuild_ratio >= 1.0,
          [&] { return "BroadPhaseOptions.rebuild_ratio must be >= 1, got " + number_text(params.rebuild_ratio); });
  require(std::isfinite(params.cell_size) && params.cell_size >= 0.0, [&] {
    return "BroadPhaseOptions.cell_size must be finite and >= 0 (0: automatic), got " + number_text(params.cell_size);
  });
  if (name == "bvh") return detail::make_bvh_broad_phase(params);
  if (name == "hash") return detail::make_hash_broad_phase(params);
  throw Error("unknown broad phase '" + name + "': expected one of \"bvh\", \"hash\"");
}

std::vector<Aabb> triangle_boxes(const std::vector<Vec3>& positions,
                                 const std::vector<std::array<Index, 3>>& triangles) {
  const Index n = static_cast<Index>(positions.size());
  std::vector<Aabb> boxes(triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    Aabb b = empty_aabb();
    for (Index v : triangles[t]) {
      check_index(v, n, "triangle", t);
      b = merge(b, positions[v]);
    }
    boxes[t] = b;
  }
  return boxes;
}

std::vector<Aabb> edge_boxes(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 2>>& edges) {
  const Index n = static_cast<Index>(positions.size());
  std::vector<Aabb> boxes(edges.size());
  for (size_t e = 0; e < edges.size(); ++e) {
    check_index(edges[e][0], n, "edge", e);
    check_index(edges[e][1], n, "edge", e);
    boxes[e] = merge(Aabb{positions[edges[e][0]], positions[edges[e][0]]}, positions[edges[e][1]]);
  }
  return boxes;
}

std::vector<Aabb> point_boxes(const std::vector<Vec3>& positions) {
  std::vector<Aabb> boxes(positions.size());
  for (size_t i = 0; i < positions.size(); ++i) boxes[i] = Aabb{positions[i], positions[i]};
  return boxes;
}

std::vector<std::array<Index, 2>> mesh_edges(const std::vector<std::array<Index, 3>>& triangles, Index n_vertices) {
  std::vector<std::array<Index, 2>> edges;
  edges.reserve(3 * triangles.size());
  for (size_t t = 0; t < triangles.size(); ++t) {
    for (int k = 0; k < 3; ++k) {
      const Index a = triangles[t][k], b = triangles[t][(k + 1) % 3];
      check_index(a, n_vertices, "triangle", t);
      edges.push_back({std::min(a, b), std::max(a, b)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

}  // namespace sinew
