#include "mesh_proximity.hpp"

#include <algorithm>
#include <cmath>
#include <limits>

#include "parallel_chunks.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/collision/point_triangle.hpp"

namespace sinew::detail {
namespace {

// Witness points, gap and frame of a mesh-mesh contact: mesh points are their own body-frame
// points, and neither side is a moving obstacle.
void set_mesh_witnesses(Contact& c, const Vec3& point_a, const Vec3& point_b, double gap, const Vec3& normal) {
  c.point_a = point_a;
  c.point_b = point_b;
  c.local_a = point_a;
  c.local_b = point_b;
  c.gap = gap;
  c.frame = contact_frame(normal);
  c.obstacle_velocity = v3::make(0, 0, 0);
}

using Triangles = std::vector<std::array<Index, 3>>;
using Edges = std::vector<std::array<Index, 2>>;

Vec3 triangle_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  return v3::normalized_or(cross(v3::sub(b, a), v3::sub(c, a)), v3::make(0, 0, 1));
}

// Evaluates make(i, contact) for every candidate i in parallel chunks and appends the contacts
// it accepts in candidate order, so the output does not depend on the thread count. The
// per-chunk buffers live in the workspace: the outer vector only grows, the inner ones are
// cleared, so once grown nothing is allocated.
template <class Make>
void emit(Index n, Make&& make, std::vector<std::vector<Contact>>& parts, ContactSet& out) {
  constexpr Index kChunk = 1024;
  const size_t n_chunks = static_cast<size_t>((n + kChunk - 1) / kChunk);
  if (parts.size() < n_chunks) parts.resize(n_chunks);
  for_each_chunk(n, kChunk, [&](Index chunk, Index begin, Index end) {
    std::vector<Contact>& part = parts[chunk];
    part.clear();
    Contact c;
    for (Index i = begin; i < end; ++i) {
      if (make(i, c)) part.push_back(c);
    }
  });
  for (size_t chunk = 0; chunk < n_chunks; ++chunk)
    for (const Contact& c : parts[chunk]) out.push_back(c);
}

// Builds the query's broad phase over its boxes on first use or when the primitive count
// changed; otherwise updates it (a refit, or a rebuild when the tree degraded past the ratio).
void update_broad_phase(NarrowPhaseWorkspace::Query& q, const NarrowPhaseOptions& params) {
  if (q.broad != nullptr && q.broad->size() == static_cast<Index>(q.boxes.size()) && !q.boxes.empty()) {
    q.broad->update(q.boxes);
    return;
  }
  if (q.broad == nullptr) q.broad = make_broad_phase(params.broad_phase, params.broad);
  q.broad->build(q.boxes);
}

// Boxes of triangles / edges / points into `out`, reusing its capacity (indices already checked).
void fill_triangle_boxes(const std::vector<Vec3>& x, const Triangles& tris, std::vector<Aabb>& out) {
  out.resize(tris.size());
  for (size_t t = 0; t < tris.size(); ++t)
    out[t] = merge(merge(Aabb{x[tris[t][0]], x[tris[t][0]]}, x[tris[t][1]]), x[tris[t][2]]);
}
void fill_edge_boxes(const std::vector<Vec3>& x, const Edges& edges, std::vector<Aabb>& out) {
  out.resize(edges.size());
  for (size_t e = 0; e < edges.size(); ++e) out[e] = merge(Aabb{x[edges[e][0]], x[edges[e][0]]}, x[edges[e][1]]);
}
void fill_point_boxes(const std::vector<Vec3>& x, std::vector<Aabb>& out) {
  out.resize(x.size());
  for (size_t v = 0; v < x.size(); ++v) out[v] = Aabb{x[v], x[v]};
}

// mesh_edges() into `edges`, recomputed only when the triangles differ from the cached copy.
void update_edges(const Triangles& tris, Triangles& cached, Edges& edges) {
  if (cached == tris) return;  // both empty on first use: no edges, correctly
  cached = tris;
  edges.clear();
  for (const auto& t : tris) {
    for (int k = 0; k < 3; ++k) {
      const Index u = t[k], w = t[(k + 1) % 3];
      edges.push_back({std::min(u, w), std::max(u, w)});
    }
  }
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
}

// The feature of a triangle that holds a closest point: dim 0 (vertex u), 1 (edge u < w) or 2
// (the face, u = w = -1), named by mesh vertices so that triangles sharing it agree.
struct Feature {
  int dim;
  Index u;
  Index w;
};

Feature feature_of(TriangleRegion region, const std::array<Index, 3>& t) {
  auto edge = [](Index i, Index j) { return Feature{1, std::min(i, j), std::max(i, j)}; };
  switch (region) {
    case TriangleRegion::kVertexA:
      return {0, t[0], -1};
    case TriangleRegion::kVertexB:
      return {0, t[1], -1};
    case TriangleRegion::kVertexC:
      return {0, t[2], -1};
    case TriangleRegion::kEdgeAB:
      return edge(t[0], t[1]);
    case TriangleRegion::kEdgeBC:
      return edge(t[1], t[2]);
    case TriangleRegion::kEdgeCA:
      return edge(t[2], t[0]);
    default:
      return {2, -1, -1};
  }
}

bool has_vertex(const std::array<Index, 3>& t, Index v) { return t[0] == v || t[1] == v || t[2] == v; }

// Whether the closest point of triangle t (positions x) to `point` lies on feature f.
bool closest_on(const Vec3& point, const std::vector<Vec3>& x, const std::array<Index, 3>& t, const Feature& f) {
  const PointTriangleResult r = closest_point_triangle(point, x[t[0]], x[t[1]], x[t[2]]);
  const Feature g = feature_of(r.region, t);
  return g.dim == f.dim && g.u == f.u && g.w == f.w;
}

bool incident(const std::array<Index, 3>& t, const Feature& f) {
  return has_vertex(t, f.u) && (f.dim == 0 || has_vertex(t, f.w));
}

// The rule for a vertex or edge feature f of Q seen from a point of P: among the candidate
// triangles of that point (the sorted pairs [begin, end) with the same first), every triangle
// incident to f must have its closest point on f (the distance has a local minimum on f, not at
// a point of f shadowed by a nearer face or edge), and the contact is made by the first of
// them. Returns that first pair's index, or -1 when f is shadowed. Every triangle incident to f
// within the margin is a candidate, so the rule does not depend on the broad phase.
Index owner_of(const std::vector<CandidatePair>& pairs, Index begin, Index end, const Vec3& point,
               const std::vector<Vec3>& x, const Triangles& tris, const Feature& f) {
  Index owner = -1;
  for (Index j = begin; j < end; ++j) {
    const std::array<Index, 3>& t = tris[pairs[j].second];
    if (!incident(t, f)) continue;
    if (!closest_on(point, x, t, f)) return -1;
    if (owner < 0) owner = j;
  }
  return owner;
}

// Whether point q (positions xq), with sorted candidate pairs (q, triangle of `tris` on
// positions xt), reports vertex w: w passes owner_of() and the owner is within the margin.
bool reports_vertex(const std::vector<CandidatePair>& pairs, Index q, Index w, const std::vector<Vec3>& xq,
                    const std::vector<Vec3>& xt, const Triangles& tris, double margin) {
  const auto lo = std::lower_bound(pairs.begin(), pairs.end(), CandidatePair{q, std::numeric_limits<Index>::min()});
  auto hi = lo;
  while (hi != pairs.end() && hi->first == q) ++hi;
  const Index begin = static_cast<Index>(lo - pairs.begin()), end = static_cast<Index>(hi - pairs.begin());
  const Index owner = owner_of(pairs, begin, end, xq[q], xt, tris, Feature{0, w, -1});
  if (owner < 0) return false;
  const std::array<Index, 3>& t = tris[pairs[owner].second];
  return std::sqrt(closest_point_triangle(xq[q], xt[t[0]], xt[t[1]], xt[t[2]]).distance_squared) <= margin;
}

// Vertices of `va` (A) against triangles of `tb` (B), one contact per (vertex, feature of B at
// a local minimum of the distance): a face always; an edge or a vertex of B only when every
// candidate triangle incident to it has its closest point on it, made by the first of them
// (owner_of()). A vertex-vertex contact (p, vertex w) is dropped when the reverse one (w,
// vertex p) is reported: by `mirror` (the first pass's pairs, B's vertices against A's
// triangles) in the second pass, by w's own candidates (w < p) in self-contact. `mirror` is
// null in the first pass.
void vertex_triangle(const MeshInstance& va, const MeshInstance& tb, bool self, double margin,
                     const NarrowPhaseOptions& params, NarrowPhaseWorkspace::Query& q,
                     const std::vector<CandidatePair>* mirror, std::vector<std::vector<Contact>>& parts,
                     ContactSet& out) {
  const std::vector<Vec3>& p = *va.positions;
  const std::vector<Vec3>& x = *tb.positions;
  const Triangles& tris = *tb.triangles;
  if (p.empty() || tris.empty()) return;
  fill_triangle_boxes(x, tris, q.boxes);
  update_broad_phase(q, params);
  fill_point_boxes(p, q.query_boxes);
  if (self) {
    q.query_vertices.resize(p.size());
    for (size_t v = 0; v < p.size(); ++v) q.query_vertices[v] = {static_cast<Index>(v), -1, -1};
    q.broad->query_pairs_into(q.query_boxes, margin, &q.query_vertices, &tris, q.pairs);
  } else {
    q.broad->query_pairs_into(q.query_boxes, margin, nullptr, nullptr, q.pairs);
  }
  const std::vector<CandidatePair>& pairs = q.pairs;
  emit(
      static_cast<Index>(pairs.size()),
      [&](Index i, Contact& c) {
        const CandidatePair& cp = pairs[i];
        const std::array<Index, 3>& t = tris[cp.second];
        const PointTriangleResult r = closest_point_triangle(p[cp.first], x[t[0]], x[t[1]], x[t[2]]);
        const double dist = std::sqrt(r.distance_squared);
        if (!(dist <= margin)) return false;
        const Feature f = feature_of(r.region, t);
        if (f.dim < 2) {
          Index begin = i, end = i + 1;
          while (begin > 0 && pairs[begin - 1].first == cp.first) --begin;
          while (end < static_cast<Index>(pairs.size()) && pairs[end].first == cp.first) ++end;
          if (owner_of(pairs, begin, end, p[cp.first], x, tris, f) != i) return false;
        }
        if (f.dim == 0) {
          if (self && f.u < cp.first && reports_vertex(pairs, f.u, cp.first, p, x, tris, margin)) return false;
          if (mirror != nullptr && reports_vertex(*mirror, f.u, cp.first, x, p, *va.triangles, margin)) return false;
        }
        const Vec3 n = dist > 0.0 ? v3::scale(1.0 / dist, v3::sub(p[cp.first], r.closest))
                                  : triangle_normal(x[t[0]], x[t[1]], x[t[2]]);
        c.kind = ContactKind::kVertexTriangle;
        c.object_a = va.id;
        c.object_b = tb.id;
        c.vertices[0] = va.first_vertex + cp.first;
        for (int k = 0; k < 3; ++k) {
          c.vertices[k + 1] = tb.first_vertex + t[k];
          c.weights[k + 1] = -r.bary[k];
        }
        c.weights[0] = 1.0;
        set_mesh_witnesses(c, p[cp.first], r.closest, dist, n);
        return true;
      },
      parts, out);
}

// Edges of A (queries) against edges of B (primitives); self pairs of A's edges when self.
void edge_edge(const MeshInstance& a, const MeshInstance& b, bool self, double margin, const NarrowPhaseOptions& params,
               NarrowPhaseWorkspace& ws, ContactSet& out) {
  const std::vector<Vec3>& xa = *a.positions;
  const std::vector<Vec3>& xb = *b.positions;
  update_edges(*a.triangles, ws.triangles_a, ws.edges_a);
  if (!self) update_edges(*b.triangles, ws.triangles_b, ws.edges_b);
  const Edges& ea = ws.edges_a;
  const Edges& eb = self ? ws.edges_a : ws.edges_b;
  if (ea.empty() || eb.empty()) return;
  NarrowPhaseWorkspace::Query& q = ws.edge_edge;
  fill_edge_boxes(xb, eb, q.boxes);
  update_broad_phase(q, params);
  if (self) {
    q.query_vertices.resize(ea.size());
    for (size_t e = 0; e < ea.size(); ++e) q.query_vertices[e] = {ea[e][0], ea[e][1], -1};
    q.broad->self_pairs_into(margin, &q.query_vertices, q.pairs);
  } else {
    fill_edge_boxes(xa, ea, q.query_boxes);
    q.broad->query_pairs_into(q.query_boxes, margin, nullptr, nullptr, q.pairs);
  }
  const std::vector<CandidatePair>& pairs = q.pairs;
  emit(
      static_cast<Index>(pairs.size()),
      [&](Index i, Contact& c) {
        const CandidatePair& cp = pairs[i];
        const auto& e = ea[cp.first];
        const auto& f = eb[cp.second];
        const EdgeEdgeResult r = closest_points_segments(xa[e[0]], xa[e[1]], xb[f[0]], xb[f[1]]);
        const double dist = std::sqrt(r.distance_squared);
        if (!(dist <= margin)) return false;
        // A closest point at an edge end is a vertex against the other mesh, which the
        // vertex-triangle contacts report; parallel edges always have one (s = 0 or t at an end).
        if (!(r.s > 0.0 && r.s < 1.0 && r.t > 0.0 && r.t < 1.0)) return false;
        Vec3 n;
        if (dist > 0.0) {
          n = v3::scale(1.0 / dist, v3::sub(r.closest_p, r.closest_q));
        } else {
          n = contact_frame_fallback_normal(v3::sub(xa[e[1]], xa[e[0]]), v3::sub(xb[f[1]], xb[f[0]]));
        }
        c.kind = ContactKind::kEdgeEdge;
        c.object_a = a.id;
        c.object_b = b.id;
        c.vertices[0] = a.first_vertex + e[0];
        c.vertices[1] = a.first_vertex + e[1];
        c.vertices[2] = b.first_vertex + f[0];
        c.vertices[3] = b.first_vertex + f[1];
        c.weights[0] = 1.0 - r.s;
        c.weights[1] = r.s;
        c.weights[2] = -(1.0 - r.t);
        c.weights[3] = -r.t;
        set_mesh_witnesses(c, r.closest_p, r.closest_q, dist, n);
        return true;
      },
      ws.chunk_contacts, out);
}

}  // namespace

void mesh_proximity(const MeshInstance& a, const MeshInstance& b, double margin, const NarrowPhaseOptions& params,
                    NarrowPhaseWorkspace& ws, ContactSet& out) {
  const bool self = a.id == b.id;
  vertex_triangle(a, b, self, margin, params, ws.vertex_a_triangle_b, nullptr, ws.chunk_contacts, out);
  if (!self) {
    // The first pass's pairs are those of this call only when it ran (both non-empty).
    const bool first_ran = !a.positions->empty() && !b.triangles->empty();
    ws.vertex_a_triangle_b.pairs.resize(first_ran ? ws.vertex_a_triangle_b.pairs.size() : 0);
    vertex_triangle(b, a, false, margin, params, ws.vertex_b_triangle_a, &ws.vertex_a_triangle_b.pairs,
                    ws.chunk_contacts, out);
  }
  edge_edge(a, b, self, margin, params, ws, out);
}

}  // namespace sinew::detail
