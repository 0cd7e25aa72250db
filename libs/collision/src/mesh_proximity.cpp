#include "mesh_proximity.hpp"

#include <cmath>

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

Vec3 triangle_normal(const Vec3& a, const Vec3& b, const Vec3& c) {
  return v3::normalized_or(cross(v3::sub(b, a), v3::sub(c, a)), v3::make(0, 0, 1));
}

// Evaluates make(pair, contact) for every candidate in parallel chunks and appends the contacts
// it accepts in candidate order, so the output does not depend on the thread count.
template <class Make>
void emit(const std::vector<CandidatePair>& pairs, Make&& make, ContactSet& out) {
  constexpr Index kChunk = 1024;
  const Index n = static_cast<Index>(pairs.size());
  std::vector<std::vector<Contact>> parts((n + kChunk - 1) / kChunk);
  for_each_chunk(n, kChunk, [&](Index chunk, Index begin, Index end) {
    Contact c;
    for (Index i = begin; i < end; ++i) {
      if (make(pairs[i], c)) parts[chunk].push_back(c);
    }
  });
  for (const auto& part : parts)
    for (const Contact& c : part) out.push_back(c);
}

// Vertices of `va` (A) against triangles of `tb` (B).
void vertex_triangle(const MeshInstance& va, const MeshInstance& tb, bool self, double margin,
                     const NarrowPhaseParams& params, ContactSet& out) {
  const std::vector<Vec3>& p = *va.positions;
  const std::vector<Vec3>& x = *tb.positions;
  const Triangles& tris = *tb.triangles;
  if (p.empty() || tris.empty()) return;
  auto broad = make_broad_phase(params.broad_phase, params.broad);
  broad->build(triangle_boxes(x, tris));
  std::vector<CandidatePair> pairs;
  if (self) {
    ElementVertices point_vertices(p.size());
    for (size_t v = 0; v < p.size(); ++v) point_vertices[v] = {static_cast<Index>(v), -1, -1};
    pairs = broad->query_pairs(point_boxes(p), margin, &point_vertices, &tris);
  } else {
    pairs = broad->query_pairs(point_boxes(p), margin);
  }
  emit(
      pairs,
      [&](const CandidatePair& cp, Contact& c) {
        const std::array<Index, 3>& t = tris[cp.second];
        const PointTriangleResult r = closest_point_triangle(p[cp.first], x[t[0]], x[t[1]], x[t[2]]);
        const double dist = std::sqrt(r.distance_squared);
        if (dist > margin) return false;
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
      out);
}

void edge_edge(const MeshInstance& a, const MeshInstance& b, bool self, double margin, const NarrowPhaseParams& params,
               ContactSet& out) {
  const std::vector<Vec3>& xa = *a.positions;
  const std::vector<Vec3>& xb = *b.positions;
  const auto ea = mesh_edges(*a.triangles, static_cast<Index>(xa.size()));
  const auto eb = self ? ea : mesh_edges(*b.triangles, static_cast<Index>(xb.size()));
  if (ea.empty() || eb.empty()) return;
  auto broad = make_broad_phase(params.broad_phase, params.broad);
  broad->build(edge_boxes(xb, eb));
  std::vector<CandidatePair> pairs;
  if (self) {
    ElementVertices ev(ea.size());
    for (size_t e = 0; e < ea.size(); ++e) ev[e] = {ea[e][0], ea[e][1], -1};
    pairs = broad->self_pairs(margin, &ev);
  } else {
    pairs = broad->query_pairs(edge_boxes(xa, ea), margin);
  }
  emit(
      pairs,
      [&](const CandidatePair& cp, Contact& c) {
        const auto& e = ea[cp.first];
        const auto& f = eb[cp.second];
        const EdgeEdgeResult r = closest_points_segments(xa[e[0]], xa[e[1]], xb[f[0]], xb[f[1]]);
        const double dist = std::sqrt(r.distance_squared);
        if (dist > margin) return false;
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
      out);
}

}  // namespace

void mesh_proximity(const MeshInstance& a, const MeshInstance& b, double margin, const NarrowPhaseParams& params,
                    ContactSet& out) {
  const bool self = a.id == b.id;
  vertex_triangle(a, b, self, margin, params, out);
  if (!self) vertex_triangle(b, a, false, margin, params, out);
  edge_edge(a, b, self, margin, params, out);
}

}  // namespace sinew::detail
