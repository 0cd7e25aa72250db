// Brute-force oracle of mesh-mesh proximity for the collision tests (no broad phase).
#pragma once

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "collision_test_util.hpp"
#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/contact_set.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_triangle.hpp"

namespace sinew::test {

// Brute-force oracle of the mesh proximity rule (see NarrowPhase::mesh_mesh_contacts()), over
// every element pair with no broad phase. Keys: vertex-triangle (kind, feature dim, vertex,
// feature vertices...) with a face named by its triangle's three vertices, an edge by its two
// sorted vertices, a vertex by itself; edge-edge (kind, -1, a0, a1, b0, b1). Indices are global.
using Key = std::tuple<int, int, Index, Index, Index, Index>;

// Two meshes (or one, self) with a global vertex numbering: A first, then B at offset off_b.
struct MeshPair {
  const Cloth& a;
  const Cloth& b;
  bool self;
  Index off_b() const { return self ? 0 : Index(a.x.size()); }
  const Vec3& x(Index g) const { return g < Index(a.x.size()) || self ? a.x[g] : b.x[g - off_b()]; }
};

inline Key vt_key(Index v, const PointTriangleResult& r, const std::array<Index, 3>& t) {
  const int k = int(ContactKind::kVertexTriangle);
  switch (r.region) {
    case TriangleRegion::kVertexA:
    case TriangleRegion::kVertexB:
    case TriangleRegion::kVertexC:
      return Key{k, 0, v, t[int(r.region)], -1, -1};
    case TriangleRegion::kEdgeAB:
      return Key{k, 1, v, std::min(t[0], t[1]), std::max(t[0], t[1]), -1};
    case TriangleRegion::kEdgeBC:
      return Key{k, 1, v, std::min(t[1], t[2]), std::max(t[1], t[2]), -1};
    case TriangleRegion::kEdgeCA:
      return Key{k, 1, v, std::min(t[2], t[0]), std::max(t[2], t[0]), -1};
    default:
      return Key{k, 2, v, t[0], t[1], t[2]};
  }
}

// Features of mesh q (triangles offset by off_q) reported for point v (global index): a face
// within the margin; an edge or vertex only when every triangle incident to it (not incident to
// v when self) has its closest point there, reported once.
inline void vertex_features(const MeshPair& m, Index v, const Cloth& q, Index off_q, double margin,
                            std::vector<Key>& keys) {
  auto global = [&](const std::array<Index, 3>& t) {
    return std::array<Index, 3>{off_q + t[0], off_q + t[1], off_q + t[2]};
  };
  auto skip = [&](const std::array<Index, 3>& t) { return m.self && (t[0] == v || t[1] == v || t[2] == v); };
  auto key_of = [&](const std::array<Index, 3>& t) {
    const auto r = closest_point_triangle(m.x(v), m.x(t[0]), m.x(t[1]), m.x(t[2]));
    return std::make_pair(vt_key(v, r, t), std::sqrt(r.distance_squared));
  };
  std::set<Key> seen;
  for (const auto& local : q.tri) {
    if (skip(global(local))) continue;
    const auto [key, dist] = key_of(global(local));
    if (dist > margin || seen.count(key)) continue;
    if (std::get<1>(key) < 2) {
      bool local_minimum = true;
      for (const auto& other : q.tri) {
        const auto g = global(other);
        const Index u = std::get<3>(key), w = std::get<4>(key);
        const bool inc = std::count(g.begin(), g.end(), u) && (w < 0 || std::count(g.begin(), g.end(), w));
        if (inc && !skip(g) && key_of(g).first != key) local_minimum = false;
      }
      if (!local_minimum) continue;
    }
    seen.insert(key);
    keys.push_back(key);
  }
}

inline std::vector<Key> brute_mesh(const Cloth& a, const Cloth& b, bool self, double margin) {
  const MeshPair m{a, b, self};
  std::vector<Key> ab, ba, keys;
  for (Index v = 0; v < Index(a.x.size()); ++v) vertex_features(m, v, b, m.off_b(), margin, ab);
  if (!self)
    for (Index v = 0; v < Index(b.x.size()); ++v) vertex_features(m, m.off_b() + v, a, 0, margin, ba);
  const int vt = int(ContactKind::kVertexTriangle);
  const std::set<Key> ab_set(ab.begin(), ab.end());
  // A vertex-vertex pair once: from A (self: the lower vertex) when both directions see it.
  for (const Key& k : ab) {
    const Index v = std::get<2>(k), w = std::get<3>(k);
    if (self && std::get<1>(k) == 0 && w < v && ab_set.count(Key{vt, 0, w, v, -1, -1})) continue;
    keys.push_back(k);
  }
  for (const Key& k : ba) {
    if (std::get<1>(k) == 0 && ab_set.count(Key{vt, 0, std::get<3>(k), std::get<2>(k), -1, -1})) continue;
    keys.push_back(k);
  }
  const auto ea = mesh_edges(a.tri, Index(a.x.size())), eb = mesh_edges(b.tri, Index(b.x.size()));
  const Index off_b = m.off_b();
  for (size_t i = 0; i < ea.size(); ++i)
    for (size_t j = self ? i + 1 : 0; j < eb.size(); ++j) {
      const auto &e = ea[i], &f = eb[j];
      if (self && (e[0] == f[0] || e[0] == f[1] || e[1] == f[0] || e[1] == f[1])) continue;
      const auto r = closest_points_segments(a.x[e[0]], a.x[e[1]], b.x[f[0]], b.x[f[1]]);
      if (std::sqrt(r.distance_squared) <= margin && r.s > 0 && r.s < 1 && r.t > 0 && r.t < 1)
        keys.emplace_back(int(ContactKind::kEdgeEdge), -1, e[0], e[1], off_b + f[0], off_b + f[1]);
    }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Keys of the narrow phase's contacts (the feature recomputed from the contact's vertices).
inline std::vector<Key> keys_of(const ContactSet& cs, const Cloth& a, const Cloth& b, bool self) {
  const MeshPair m{a, b, self};
  std::vector<Key> keys;
  for (Index i = 0; i < cs.size(); ++i) {
    const Index* v = &cs.vertices[4 * i];
    if (cs.kind[i] == int(ContactKind::kVertexTriangle)) {
      const auto r = closest_point_triangle(m.x(v[0]), m.x(v[1]), m.x(v[2]), m.x(v[3]));
      keys.push_back(vt_key(v[0], r, {v[1], v[2], v[3]}));
    } else {
      keys.emplace_back(cs.kind[i], -1, v[0], v[1], v[2], v[3]);
    }
  }
  std::sort(keys.begin(), keys.end());
  return keys;
}

// Every vertex whose nearest point of the other mesh (self: of the non-incident triangles) is
// within the margin has a contact at exactly that distance in which it takes part alone (weight
// +-1): the deduplication loses no closest feature.
inline void expect_closest_features_covered(const ContactSet& cs, const Cloth& a, const Cloth& b, bool self,
                                            double margin) {
  const MeshPair m{a, b, self};
  const Index n = self ? Index(a.x.size()) : Index(a.x.size() + b.x.size());
  int covered = 0;
  for (Index v = 0; v < n; ++v) {
    const bool in_a = v < Index(a.x.size());
    const Cloth& q = in_a && !self ? b : a;
    const Index off_q = in_a && !self ? m.off_b() : 0;
    double best = HUGE_VAL;
    for (const auto& t : q.tri) {
      const std::array<Index, 3> g{off_q + t[0], off_q + t[1], off_q + t[2]};
      if (self && (g[0] == v || g[1] == v || g[2] == v)) continue;
      best =
          std::min(best, std::sqrt(closest_point_triangle(m.x(v), m.x(g[0]), m.x(g[1]), m.x(g[2])).distance_squared));
    }
    if (!(best <= margin)) continue;
    bool found = false;
    for (Index i = 0; i < cs.size() && !found; ++i) {
      if (cs.kind[i] != int(ContactKind::kVertexTriangle) || std::fabs(cs.gap[i] - best) > 1e-12) continue;
      for (int k = 0; k < 4; ++k)
        found = found || (cs.vertices[4 * i + k] == v && std::fabs(cs.weights[4 * i + k]) == 1.0);
    }
    EXPECT_TRUE(found) << "vertex " << v << " at distance " << best;
    ++covered;
  }
  EXPECT_GT(covered, 10);
}

}  // namespace sinew::test
