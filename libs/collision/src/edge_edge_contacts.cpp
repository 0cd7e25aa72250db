// Edge-edge contacts between bodies (edge_edge_contacts.hpp).
//
// Determinism: the edges are sorted, the narrow phase runs over fixed chunks of the sharp (query)
// edges whose outputs are concatenated in chunk order (parallel_chunks.hpp) and then sorted by
// their unique (edge a, edge b), so the contacts do not depend on the thread count.
#include "sinew/collision/edge_edge_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "parallel_chunks.hpp"
#include "sinew/collision/edge_edge.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

namespace {

// sin^2 of the smallest angle between two edges' directions for them to be a contact (~3 deg):
// nearer parallel, the normal a x b is ill-conditioned and an endpoint is as close.
constexpr double kMinSin2 = 0.05 * 0.05;
// Edges whose faces' normals are within this angle (1 degree) of each other are flat.
const double kCosFlat = std::cos(3.14159265358979323846 / 180.0);
// Closest points within this fraction of an endpoint count as the endpoint (a vertex-triangle
// contact's business).
constexpr double kInterior = 1e-3;

}  // namespace

std::vector<std::array<Index, 2>> boundary_edges(const TetSurfaces& surfaces) {
  std::vector<std::array<Index, 2>> edges;
  edges.reserve(3 * surfaces.triangles.size());
  for (const auto& tri : surfaces.triangles)
    for (int k = 0; k < 3; ++k)
      edges.push_back({std::min(tri[k], tri[(k + 1) % 3]), std::max(tri[k], tri[(k + 1) % 3])});
  std::sort(edges.begin(), edges.end());
  edges.erase(std::unique(edges.begin(), edges.end()), edges.end());
  return edges;
}

struct EdgeEdgeDetector::Work {
  std::vector<std::array<Index, 2>> edges;          // (u, w), u < w, sorted
  std::vector<std::array<Index, 2>> edge_faces;     // (edges) the one or two triangles of each edge, -1 if one
  std::vector<int> edge_body;                       // (edges) body of each edge
  std::vector<std::array<Index, 3>> keyed_copy;     // the triangles the edges were made for
  std::vector<Aabb> boxes, query_boxes;             // swept edge boxes: all, the sharp ones
  std::vector<Index> queries;                       // the sharp edges, ascending
  std::vector<CandidatePair> pairs;                 // (query slot, edge), sorted
  std::vector<std::size_t> first;                   // (queries + 1) offsets into pairs
  std::vector<Vec3> face_x, face_y;                 // unit face normals at x and at the prediction
  std::vector<char> sharp, flat;                    // (edges) sharp, flat at x
  std::vector<std::vector<EdgeEdgeContact>> parts;  // per chunk of query edges
  std::vector<Index> ring_first, ring;              // CSR: each vertex's neighbours (itself included), sorted
};

namespace {
// Pseudo-normals of two edges of one body more than 120 degrees apart: the parts face each other.
constexpr double kCosFacing = -0.5;
}  // namespace

EdgeEdgeDetector::EdgeEdgeDetector(const std::string& broad_phase, const BroadPhaseOptions& params)
    : broad_(make_broad_phase(broad_phase, params)), work_(std::make_unique<Work>()) {}
EdgeEdgeDetector::~EdgeEdgeDetector() = default;
EdgeEdgeDetector::EdgeEdgeDetector(EdgeEdgeDetector&&) noexcept = default;
EdgeEdgeDetector& EdgeEdgeDetector::operator=(EdgeEdgeDetector&&) noexcept = default;

const std::vector<std::array<Index, 2>>& EdgeEdgeDetector::edges() const { return work_->edges; }

void EdgeEdgeDetector::detect(const TetSurfaces& surfaces, const std::vector<Vec3>& x,
                              const std::vector<Vec3>* predicted, double margin, double sharp_angle,
                              std::vector<EdgeEdgeContact>& out, const std::vector<char>* self_contact) {
  out.clear();
  Work& w = *work_;
  const Index n = static_cast<Index>(x.size());
  const std::vector<std::array<Index, 3>>& tris = surfaces.triangles;
  require(std::isfinite(margin) && margin >= 0.0,
          [&] { return "EdgeEdgeDetector::detect: margin must be finite and >= 0, got " + number_text(margin); });
  require(std::isfinite(sharp_angle) && sharp_angle >= 0.0 && sharp_angle <= 3.14159265358979323846, [&] {
    return "EdgeEdgeDetector::detect: sharp_angle must be in [0, pi] radians, got " + number_text(sharp_angle);
  });
  require(predicted == nullptr || predicted->size() == x.size(), [&] {
    return "EdgeEdgeDetector::detect: predicted must have one position per vertex (" + std::to_string(n) + ")";
  });
  require(surfaces.vertex_body.size() == x.size(), [&] {
    return "EdgeEdgeDetector::detect: surfaces.vertex_body must have one entry per position (" + std::to_string(n) +
           "), got " + std::to_string(surfaces.vertex_body.size());
  });
  require(surfaces.triangle_body.size() == tris.size(),
          "EdgeEdgeDetector::detect: surfaces.triangle_body must have one entry per triangle");
  require(self_contact == nullptr || self_contact->size() == static_cast<std::size_t>(surfaces.bodies), [&] {
    return "EdgeEdgeDetector::detect: self_contact must have one entry per body (" + std::to_string(surfaces.bodies) +
           ")";
  });
  const std::vector<Vec3>& y = predicted != nullptr ? *predicted : x;
  for (std::size_t t = 0; t < tris.size(); ++t)
    for (Index v : tris[t]) {
      require(v >= 0 && v < n, [&] {
        return "EdgeEdgeDetector::detect: triangle " + std::to_string(t) + " has a vertex out of range, expected < " +
               std::to_string(n);
      });
      require(is_finite(x[v]) && is_finite(y[v]),
              [&] { return "EdgeEdgeDetector::detect: vertex " + std::to_string(v) + " has a non-finite position"; });
    }
  // The boundary edges and their faces, rebuilt only when the triangle list changes.
  if (w.keyed_copy != tris) {
    std::vector<std::array<Index, 3>> all;  // (u, w, triangle), u < w
    all.reserve(3 * tris.size());
    for (std::size_t t = 0; t < tris.size(); ++t)
      for (int k = 0; k < 3; ++k) {
        const Index u = tris[t][k], v = tris[t][(k + 1) % 3];
        all.push_back({std::min(u, v), std::max(u, v), static_cast<Index>(t)});
      }
    std::sort(all.begin(), all.end());
    w.edges.clear();
    w.edge_faces.clear();
    w.edge_body.clear();
    for (std::size_t i = 0; i < all.size();) {
      std::size_t j = i + 1;
      while (j < all.size() && all[j][0] == all[i][0] && all[j][1] == all[i][1]) ++j;
      w.edges.push_back({all[i][0], all[i][1]});
      w.edge_faces.push_back({all[i][2], j - i == 2 ? all[i + 1][2] : -1});  // a non-manifold edge keeps one face
      w.edge_body.push_back(surfaces.triangle_body[static_cast<std::size_t>(all[i][2])]);
      i = j;
    }
    // Each vertex's neighbourhood: itself and the other ends of its edges.
    w.ring_first.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& e : w.edges) {
      ++w.ring_first[static_cast<std::size_t>(e[0]) + 1];
      ++w.ring_first[static_cast<std::size_t>(e[1]) + 1];
    }
    for (Index v = 0; v < n; ++v) w.ring_first[static_cast<std::size_t>(v) + 1] += w.ring_first[v] + 1;
    w.ring.assign(static_cast<std::size_t>(w.ring_first[static_cast<std::size_t>(n)]), 0);
    std::vector<Index> fill(w.ring_first.begin(), w.ring_first.end() - 1);
    for (Index v = 0; v < n; ++v) w.ring[static_cast<std::size_t>(fill[v]++)] = v;
    for (const auto& e : w.edges) {
      w.ring[static_cast<std::size_t>(fill[e[0]]++)] = e[1];
      w.ring[static_cast<std::size_t>(fill[e[1]]++)] = e[0];
    }
    for (Index v = 0; v < n; ++v) std::sort(w.ring.begin() + w.ring_first[v], w.ring.begin() + w.ring_first[v + 1]);
    w.keyed_copy = tris;
  }
  const std::size_t ne = w.edges.size();
  w.pairs.clear();
  const bool any_self =
      self_contact != nullptr && std::any_of(self_contact->begin(), self_contact->end(), [](char c) { return c != 0; });
  if (ne == 0 || (surfaces.bodies < 2 && !any_self)) return;
  auto face_normals = [&](const std::vector<Vec3>& pos, std::vector<Vec3>& face) {
    face.resize(tris.size());
    for (std::size_t t = 0; t < tris.size(); ++t) {
      const std::array<Index, 3>& tri = tris[t];
      face[t] = v3::normalized_or(cross(v3::sub(pos[tri[1]], pos[tri[0]]), v3::sub(pos[tri[2]], pos[tri[0]])),
                                  v3::make(0, 0, 1));
    }
  };
  face_normals(x, w.face_x);
  if (predicted != nullptr) face_normals(y, w.face_y);
  const double cos_sharp = std::cos(sharp_angle);
  w.sharp.resize(ne);
  w.flat.resize(ne);
  w.boxes.resize(ne);
  for (std::size_t e = 0; e < ne; ++e) {
    const auto& f = w.edge_faces[e];
    const double c = f[1] < 0 ? -1.0 : dot(w.face_x[f[0]], w.face_x[f[1]]);  // an open edge is sharp
    w.sharp[e] = c < cos_sharp;
    w.flat[e] = c > kCosFlat;
    const Index u = w.edges[e][0], v = w.edges[e][1];
    w.boxes[e] = merge(merge(merge(Aabb{x[u], x[u]}, x[v]), y[u]), y[v]);
  }
  // Every contact has a sharp edge: only those query the broad phase (a few hundred of a finely
  // meshed smooth body's thousands of edges).
  w.queries.clear();
  w.query_boxes.clear();
  for (std::size_t e = 0; e < ne; ++e)
    if (w.sharp[e] && !w.flat[e]) {
      w.queries.push_back(static_cast<Index>(e));
      w.query_boxes.push_back(w.boxes[e]);
    }
  if (broad_->size() == static_cast<Index>(ne)) {
    broad_->update(w.boxes);
  } else {
    broad_->build(w.boxes);
  }
  broad_->query_pairs_into(w.query_boxes, margin, nullptr, nullptr, w.pairs);
  const std::size_t nq = w.queries.size();
  w.first.assign(nq + 1, 0);
  for (const CandidatePair& p : w.pairs) ++w.first[static_cast<std::size_t>(p.first) + 1];
  for (std::size_t q = 0; q < nq; ++q) w.first[q + 1] += w.first[q];

  // Pseudo-normal of an edge (the sum of its faces' unit normals) at the positions or the
  // prediction.
  auto edge_normal = [&](Index e, const std::vector<Vec3>& face) {
    const auto& f = w.edge_faces[static_cast<std::size_t>(e)];
    return f[1] < 0 ? face[f[0]] : v3::add(face[f[0]], face[f[1]]);
  };
  // The signed distance of edges a, b at positions pos (faces' normals fn), with its normal and
  // closest-point parameters; false when the pair is no contact by rules (2)-(4).
  auto measure = [&](Index a, Index b, const std::vector<Vec3>& pos, const std::vector<Vec3>& fn, EdgeEdgeContact& c) {
    const Vec3 &a0 = pos[w.edges[a][0]], &a1 = pos[w.edges[a][1]];
    const Vec3 &b0 = pos[w.edges[b][0]], &b1 = pos[w.edges[b][1]];
    const Vec3 da = v3::sub(a1, a0), db = v3::sub(b1, b0);
    const Vec3 axb = cross(da, db);
    const double s2 = dot(axb, axb);
    if (!(s2 > kMinSin2 * dot(da, da) * dot(db, db))) return false;
    const EdgeEdgeResult r = closest_points_segments(a0, a1, b0, b1);
    if (r.s < kInterior || r.s > 1.0 - kInterior || r.t < kInterior || r.t > 1.0 - kInterior) return false;
    const Vec3 na = edge_normal(a, fn), nb = edge_normal(b, fn);
    Vec3 normal = v3::scale(1.0 / std::sqrt(s2), axb);
    if (dot(normal, v3::sub(nb, na)) < 0.0) normal = v3::scale(-1.0, normal);
    if (!(dot(normal, nb) > 0.0 && dot(normal, na) < 0.0)) return false;  // the edges face each other
    c.s = r.s;
    c.t = r.t;
    c.distance = dot(v3::sub(r.closest_p, r.closest_q), normal);
    c.normal = normal;
    return true;
  };

  // Two edges of one body meet when it self-contacts, they are not in each other's neighbourhood
  // and their parts face each other (rules (6) and (7)).
  auto neighbours = [&](Index u, Index v) {
    return std::binary_search(w.ring.begin() + w.ring_first[u], w.ring.begin() + w.ring_first[u + 1], v);
  };
  auto self_pair = [&](Index a, Index b) {
    if (self_contact == nullptr || (*self_contact)[static_cast<std::size_t>(w.edge_body[a])] == 0) return false;
    for (Index u : w.edges[a])
      for (Index v : w.edges[b])
        if (neighbours(u, v)) return false;
    const Vec3 na = v3::normalized_or(edge_normal(a, w.face_x), v3::make(0, 0, 0));
    const Vec3 nb = v3::normalized_or(edge_normal(b, w.face_x), v3::make(0, 0, 0));
    return dot(na, nb) < kCosFacing;
  };

  constexpr Index kChunk = 64;
  const std::size_t chunks = (nq + kChunk - 1) / kChunk;
  if (w.parts.size() < chunks) w.parts.resize(chunks);
  detail::for_each_chunk(static_cast<Index>(nq), kChunk, [&](Index chunk, Index begin, Index end) {
    std::vector<EdgeEdgeContact>& part = w.parts[chunk];
    part.clear();
    for (Index q = begin; q < end; ++q) {
      const Index e = w.queries[q];
      for (std::size_t p = w.first[q]; p < w.first[q + 1]; ++p) {
        const Index other = w.pairs[p].second;
        if (w.flat[other]) continue;
        const bool same = w.edge_body[other] == w.edge_body[e];
        if (same && !self_pair(e, other)) continue;
        // A pair of two sharp edges is met from both: kept from its edge on the smaller body
        // (of one body, from the smaller edge).
        if (w.sharp[other] && (same ? other < e : w.edge_body[other] < w.edge_body[e])) continue;
        const bool first_is_a = same ? e < other : w.edge_body[e] < w.edge_body[other];
        const Index a = first_is_a ? e : other, b = first_is_a ? other : e;
        EdgeEdgeContact c;
        if (!measure(a, b, x, w.face_x, c)) continue;
        c.predicted = c.distance;
        if (predicted != nullptr) {
          EdgeEdgeContact later;
          // At the prediction the pair may have left the rules' range: then only the positions count.
          if (measure(a, b, y, w.face_y, later)) c.predicted = later.distance;
        }
        if (!(std::min(c.distance, c.predicted) < margin)) continue;
        c.edge_a = a;
        c.edge_b = b;
        part.push_back(c);
      }
    }
  });
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
    out.insert(out.end(), w.parts[chunk].begin(), w.parts[chunk].end());
  std::sort(out.begin(), out.end(), [](const EdgeEdgeContact& p, const EdgeEdgeContact& q) {
    return p.edge_a != q.edge_a ? p.edge_a < q.edge_a : p.edge_b < q.edge_b;
  });
}

}  // namespace sinew
