// Bodies and boundary faces of a tet mesh, and vertex-triangle contacts between bodies
// (vertex_triangle_contacts.hpp).
//
// Determinism: the broad phase returns its pairs sorted by (query, triangle); the query vertices
// are sorted first, and the narrow phase runs over fixed chunks of queries whose outputs are
// concatenated in chunk order (parallel_chunks.hpp), so the contacts do not depend on the thread
// count or on the order in which the query vertices were given.
#include "sinew/collision/vertex_triangle_contacts.hpp"

#include <algorithm>
#include <cmath>
#include <numeric>
#include <string>

#include "parallel_chunks.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

namespace {

// The outward faces of a positively oriented tet (x0, x1, x2, x3): each is counter-clockwise
// seen from outside, i.e. its normal (b - a) x (c - a) points away from the opposite vertex.
constexpr int kFaces[4][3] = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};

Index find_root(std::vector<Index>& parent, Index v) {
  while (parent[v] != v) {
    parent[v] = parent[parent[v]];  // path halving
    v = parent[v];
  }
  return v;
}

std::array<Index, 3> sorted_triple(const std::array<Index, 3>& t) {
  std::array<Index, 3> s = t;
  std::sort(s.begin(), s.end());
  return s;
}

// Signed distance of p to triangle (a, b, c): the closest point's distance, negative behind the
// surface. The side is read from the pseudo-normal of the feature that holds the closest point
// (Baerentzen and Aanaes 2005): the face normal inside the face, the sum of the two faces' normals
// on an edge, the angle-weighted sum of the incident faces' normals at a vertex. With the face
// normal alone a point outside a convex corner but just behind one of the corner's faces' planes
// read as 2 cm deep (the finger's tip corner against the ball's vertices). The normal points from
// the closest point toward p on the outward side; at (nearly) zero distance the direction
// p - closest is noise, so the face normal.
struct SignedResult {
  PointTriangleResult r;
  double distance;
  Vec3 normal;
};

SignedResult signed_distance(const Vec3& p, const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& face,
                             const Vec3 (&edge)[3], const Vec3 (&vertex)[3]) {
  SignedResult s;
  s.r = closest_point_triangle(p, a, b, c);
  const int region = static_cast<int>(s.r.region);
  const Vec3& pseudo = region < 3 ? vertex[region] : (region < 6 ? edge[region - 3] : face);
  const Vec3 diff = v3::sub(p, s.r.closest);
  const double dist = std::sqrt(s.r.distance_squared);
  const double sign = dot(diff, pseudo) < 0.0 ? -1.0 : 1.0;
  const double scale = std::sqrt(std::max(v3::sqdist(b, a), v3::sqdist(c, a)));
  s.distance = sign * dist;
  s.normal = dist > 1e-12 * scale ? v3::scale(sign / dist, diff) : face;
  return s;
}

// Unit face normals (T) and angle-weighted vertex pseudo-normals (n, zero off the surface) of
// triangles @p tris at positions @p x.
void pseudo_normals(const std::vector<std::array<Index, 3>>& tris, const std::vector<Vec3>& x, std::vector<Vec3>& face,
                    std::vector<Vec3>& vertex) {
  face.resize(tris.size());
  vertex.assign(x.size(), v3::make(0, 0, 0));
  for (std::size_t t = 0; t < tris.size(); ++t) {
    const std::array<Index, 3>& tri = tris[t];
    face[t] = v3::normalized_or(cross(v3::sub(x[tri[1]], x[tri[0]]), v3::sub(x[tri[2]], x[tri[0]])), v3::make(0, 0, 1));
    for (int k = 0; k < 3; ++k) {
      const Vec3 e1 = v3::sub(x[tri[(k + 1) % 3]], x[tri[k]]), e2 = v3::sub(x[tri[(k + 2) % 3]], x[tri[k]]);
      const double angle = std::atan2(norm(cross(e1, e2)), dot(e1, e2));
      vertex[tri[k]] = v3::madd(vertex[tri[k]], angle, face[t]);
    }
  }
}

}  // namespace

TetSurfaces tet_surfaces(const std::vector<Index>& tets, Index n_vertices) {
  require(tets.size() % 4 == 0, [&] {
    return "tet_surfaces: tets must hold 4 indices per tetrahedron, got " + std::to_string(tets.size()) + " indices";
  });
  require(n_vertices >= 0, "tet_surfaces: n_vertices must be >= 0");
  for (std::size_t i = 0; i < tets.size(); ++i)
    require(tets[i] >= 0 && tets[i] < n_vertices, [&] {
      return "tet_surfaces: tets[" + std::to_string(i) + "] = " + std::to_string(tets[i]) +
             " is out of range, expected < " + std::to_string(n_vertices);
    });
  TetSurfaces s;
  // Bodies: union-find over the tets' vertices; numbered in order of their smallest vertex.
  std::vector<Index> parent(static_cast<std::size_t>(n_vertices));
  std::iota(parent.begin(), parent.end(), Index{0});
  std::vector<char> used(static_cast<std::size_t>(n_vertices), 0);
  for (std::size_t e = 0; e < tets.size(); e += 4)
    for (int k = 0; k < 4; ++k) {
      used[tets[e + k]] = 1;
      const Index a = find_root(parent, tets[e]), b = find_root(parent, tets[e + k]);
      if (a != b) parent[std::max(a, b)] = std::min(a, b);  // the root is the smallest vertex
    }
  s.vertex_body.assign(static_cast<std::size_t>(n_vertices), -1);
  std::vector<int> body_of_root(static_cast<std::size_t>(n_vertices), -1);
  for (Index v = 0; v < n_vertices; ++v) {
    if (!used[v]) continue;
    const Index r = find_root(parent, v);
    if (body_of_root[r] < 0) body_of_root[r] = s.bodies++;
    s.vertex_body[v] = body_of_root[r];
  }
  // Boundary faces: the faces whose sorted triple occurs once.
  std::vector<std::pair<std::array<Index, 3>, std::array<Index, 3>>> faces;  // (sorted, oriented)
  faces.reserve(tets.size());
  for (std::size_t e = 0; e < tets.size(); e += 4)
    for (const auto& f : kFaces) {
      const std::array<Index, 3> t{tets[e + f[0]], tets[e + f[1]], tets[e + f[2]]};
      faces.emplace_back(sorted_triple(t), t);
    }
  std::sort(faces.begin(), faces.end());
  for (std::size_t i = 0; i < faces.size();) {
    std::size_t j = i + 1;
    while (j < faces.size() && faces[j].first == faces[i].first) ++j;
    if (j == i + 1) {
      s.triangles.push_back(faces[i].second);
      s.triangle_body.push_back(s.vertex_body[faces[i].second[0]]);
    }
    i = j;
  }
  return s;
}

struct VertexTriangleDetector::Work {
  std::vector<Index> queries;                             // sorted, unique query vertices
  std::vector<Aabb> boxes, query_boxes;                   // swept triangle and vertex boxes
  std::vector<CandidatePair> pairs;                       // (query slot, triangle), sorted
  std::vector<std::size_t> first;                         // (queries + 1) offsets into pairs
  std::vector<std::vector<VertexTriangleContact>> parts;  // per chunk of queries
  struct Best {
    int body;        // another body
    Index triangle;  // its nearest triangle so far
    double d2;       // at this squared distance
  };
  std::vector<std::vector<Best>> best;                       // per chunk scratch
  std::vector<std::array<Index, 3>> keys;                    // (triangles) sorted vertex triples
  std::vector<std::array<Index, 3>> across;                  // (triangles) triangle across edge k, -1 if none
  std::vector<Index> neighbour_first, neighbours;            // vertices sharing an edge (CSR by vertex)
  std::vector<Vec3> face_x, face_y, vertex_x, vertex_y;      // pseudo-normals at x and at the prediction
  const std::vector<std::array<Index, 3>>* keyed = nullptr;  // the triangles keys was made for
  std::vector<std::array<Index, 3>> keyed_copy;              // their copy (to detect a change)
};

VertexTriangleDetector::VertexTriangleDetector(const std::string& broad_phase, const BroadPhaseOptions& params)
    : broad_(make_broad_phase(broad_phase, params)), work_(std::make_unique<Work>()) {}
VertexTriangleDetector::~VertexTriangleDetector() = default;
VertexTriangleDetector::VertexTriangleDetector(VertexTriangleDetector&&) noexcept = default;
VertexTriangleDetector& VertexTriangleDetector::operator=(VertexTriangleDetector&&) noexcept = default;

std::size_t VertexTriangleDetector::candidates() const { return work_->pairs.size(); }

void VertexTriangleDetector::detect(const TetSurfaces& surfaces, const std::vector<Index>& vertices,
                                    const std::vector<Vec3>& x, const std::vector<Vec3>* predicted, double margin,
                                    std::vector<VertexTriangleContact>& out, const std::vector<char>* self_contact) {
  out.clear();
  Work& w = *work_;
  const Index n = static_cast<Index>(x.size());
  const std::vector<std::array<Index, 3>>& tris = surfaces.triangles;
  require(std::isfinite(margin) && margin >= 0.0,
          [&] { return "VertexTriangleDetector::detect: margin must be finite and >= 0, got " + number_text(margin); });
  require(predicted == nullptr || predicted->size() == x.size(), [&] {
    return "VertexTriangleDetector::detect: predicted must have one position per vertex (" + std::to_string(n) + ")";
  });
  require(surfaces.vertex_body.size() == x.size(), [&] {
    return "VertexTriangleDetector::detect: surfaces.vertex_body must have one entry per position (" +
           std::to_string(n) + "), got " + std::to_string(surfaces.vertex_body.size());
  });
  require(surfaces.triangle_body.size() == tris.size(),
          "VertexTriangleDetector::detect: surfaces.triangle_body must have one entry per triangle");
  w.queries.assign(vertices.begin(), vertices.end());
  std::sort(w.queries.begin(), w.queries.end());
  w.queries.erase(std::unique(w.queries.begin(), w.queries.end()), w.queries.end());
  if (!w.queries.empty())
    require(w.queries.front() >= 0 && w.queries.back() < n, [&] {
      return "VertexTriangleDetector::detect: a query vertex is out of range, expected 0 <= vertex < " +
             std::to_string(n);
    });
  const std::vector<Vec3>& y = predicted != nullptr ? *predicted : x;
  auto check_vertex = [&](Index v, const char* what) {
    require(is_finite(x[v]) && is_finite(y[v]), [&] {
      return std::string("VertexTriangleDetector::detect: ") + what + " vertex " + std::to_string(v) +
             " has a non-finite position";
    });
  };
  // Swept boxes: each primitive over its positions now and at the prediction.
  w.boxes.resize(tris.size());
  for (std::size_t t = 0; t < tris.size(); ++t) {
    Aabb box = empty_aabb();
    for (Index v : tris[t]) {
      require(v >= 0 && v < n, [&] {
        return "VertexTriangleDetector::detect: triangle " + std::to_string(t) +
               " has a vertex out of range, expected < " + std::to_string(n);
      });
      check_vertex(v, "triangle");
      box = merge(merge(box, x[v]), y[v]);
    }
    w.boxes[t] = box;
  }
  w.query_boxes.resize(w.queries.size());
  for (std::size_t q = 0; q < w.queries.size(); ++q) {
    const Index v = w.queries[q];
    check_vertex(v, "query");
    w.query_boxes[q] = merge(Aabb{x[v], x[v]}, y[v]);
  }
  w.pairs.clear();
  if (tris.empty() || w.queries.empty()) return;
  // Canonical tie-break keys, recomputed only when the triangle list changes.
  if (w.keyed != &tris || w.keyed_copy != tris) {
    w.keys.resize(tris.size());
    for (std::size_t t = 0; t < tris.size(); ++t) w.keys[t] = sorted_triple(tris[t]);
    // Edge adjacency: edge k = (tri[k], tri[k + 1]); the two triangles of a manifold edge.
    std::vector<std::array<Index, 4>> edges;  // (u, w, triangle, k), u < w
    edges.reserve(3 * tris.size());
    for (std::size_t t = 0; t < tris.size(); ++t)
      for (Index k = 0; k < 3; ++k) {
        const Index u = tris[t][k], v = tris[t][(k + 1) % 3];
        edges.push_back({std::min(u, v), std::max(u, v), static_cast<Index>(t), k});
      }
    std::sort(edges.begin(), edges.end());
    w.across.assign(tris.size(), {-1, -1, -1});
    for (std::size_t i = 0; i + 1 < edges.size(); ++i)
      if (edges[i][0] == edges[i + 1][0] && edges[i][1] == edges[i + 1][1] &&
          (i + 2 == edges.size() || edges[i + 2][0] != edges[i][0] || edges[i + 2][1] != edges[i][1]) &&
          (i == 0 || edges[i - 1][0] != edges[i][0] || edges[i - 1][1] != edges[i][1])) {
        w.across[edges[i][2]][edges[i][3]] = edges[i + 1][2];
        w.across[edges[i + 1][2]][edges[i + 1][3]] = edges[i][2];
      }
    // Vertex neighbours over the edges (for self-contact's adjacency rule), sorted per vertex.
    w.neighbour_first.assign(static_cast<std::size_t>(n) + 1, 0);
    for (const auto& e : edges) {
      ++w.neighbour_first[static_cast<std::size_t>(e[0]) + 1];
      ++w.neighbour_first[static_cast<std::size_t>(e[1]) + 1];
    }
    for (Index v = 0; v < n; ++v) w.neighbour_first[v + 1] += w.neighbour_first[v];
    w.neighbours.assign(static_cast<std::size_t>(w.neighbour_first[n]), 0);
    std::vector<Index> fill(w.neighbour_first.begin(), w.neighbour_first.end() - 1);
    for (const auto& e : edges) {
      w.neighbours[fill[e[0]]++] = e[1];
      w.neighbours[fill[e[1]]++] = e[0];
    }
    w.keyed = &tris;
    w.keyed_copy = tris;
  }
  if (self_contact != nullptr)
    require(self_contact->size() == static_cast<std::size_t>(surfaces.bodies), [&] {
      return "VertexTriangleDetector::detect: self_contact must have one entry per body (" +
             std::to_string(surfaces.bodies) + ")";
    });
  // A triangle next to v: one of its vertices is v or a neighbour of v (edges listed twice in
  // `neighbours` for a manifold edge are harmless).
  auto adjacent = [&](Index v, const std::array<Index, 3>& tri) {
    for (Index a : tri) {
      if (a == v) return true;
      for (Index k = w.neighbour_first[v]; k < w.neighbour_first[v + 1]; ++k)
        if (w.neighbours[k] == a) return true;
    }
    return false;
  };
  // A refit when the triangle count holds (the bvh rebuilds itself once the tree degrades).
  if (broad_->size() == static_cast<Index>(tris.size())) {
    broad_->update(w.boxes);
  } else {
    broad_->build(w.boxes);
  }
  broad_->query_pairs_into(w.query_boxes, margin, nullptr, nullptr, w.pairs);
  pseudo_normals(tris, x, w.face_x, w.vertex_x);
  if (predicted != nullptr) pseudo_normals(tris, y, w.face_y, w.vertex_y);
  // The side test of triangle t at the positions (or the prediction): its feature pseudo-normals.
  auto signed_to = [&](Index t, const Vec3& p, bool at_prediction) {
    const std::vector<Vec3>& pos = at_prediction ? y : x;
    const std::vector<Vec3>& fn = at_prediction ? w.face_y : w.face_x;
    const std::vector<Vec3>& vn = at_prediction ? w.vertex_y : w.vertex_x;
    const std::array<Index, 3>& tri = tris[t];
    Vec3 edge[3], vertex[3];
    for (int k = 0; k < 3; ++k) {
      const Index other = w.across[t][k];
      edge[k] = other >= 0 ? v3::add(fn[t], fn[other]) : fn[t];
      vertex[k] = vn[tri[k]];
    }
    return signed_distance(p, pos[tri[0]], pos[tri[1]], pos[tri[2]], fn[t], edge, vertex);
  };
  const std::size_t nq = w.queries.size();
  w.first.assign(nq + 1, 0);
  for (const CandidatePair& p : w.pairs) ++w.first[static_cast<std::size_t>(p.first) + 1];
  for (std::size_t q = 0; q < nq; ++q) w.first[q + 1] += w.first[q];

  constexpr Index kChunk = 256;
  const std::size_t chunks = (nq + kChunk - 1) / kChunk;
  if (w.parts.size() < chunks) w.parts.resize(chunks);
  if (w.best.size() < chunks) w.best.resize(chunks);
  detail::for_each_chunk(static_cast<Index>(nq), kChunk, [&](Index chunk, Index begin, Index end) {
    std::vector<VertexTriangleContact>& part = w.parts[chunk];
    std::vector<Work::Best>& best = w.best[chunk];
    part.clear();
    for (Index q = begin; q < end; ++q) {
      const Index v = w.queries[q];
      const int body = surfaces.vertex_body[v];
      best.clear();
      for (std::size_t p = w.first[q]; p < w.first[q + 1]; ++p) {
        const Index t = w.pairs[p].second;
        const int other = surfaces.triangle_body[t];
        const std::array<Index, 3>& tri = tris[t];
        const PointTriangleResult r = closest_point_triangle(x[v], x[tri[0]], x[tri[1]], x[tri[2]]);
        if (other == body) {
          // Self-contact: away from v's neighbourhood, facing v's own surface (outward normals more
          // than 120 degrees apart: not a side face at a corner, not the rest of a flat part), v
          // along its normal (within 60 degrees of it), in front or less than the margin behind (a
          // resting contact's gap is 0 up to round-off: losing it there would let v fall through).
          if (self_contact == nullptr || (*self_contact)[static_cast<std::size_t>(body)] == 0 || adjacent(v, tri))
            continue;
          const Vec3& nt = w.face_x[t];
          const Vec3& nv = w.vertex_x[v];
          const double nt2 = dot(nt, nt);
          if (!(dot(nt, nv) < -0.5 * std::sqrt(nt2 * dot(nv, nv)))) continue;
          const double along = dot(v3::sub(x[v], r.closest), nt) / std::sqrt(nt2);
          if (!(std::abs(along) >= 0.5 * std::sqrt(r.distance_squared) && along > -margin)) continue;
        }
        const double d2 = r.distance_squared;
        std::size_t k = 0;
        while (k < best.size() && best[k].body != other) ++k;
        if (k == best.size()) {
          best.push_back({other, t, d2});
        } else if (d2 < best[k].d2 || (d2 == best[k].d2 && w.keys[t] < w.keys[best[k].triangle])) {
          best[k].triangle = t;
          best[k].d2 = d2;
        }
      }
      std::sort(best.begin(), best.end(), [](const auto& a, const auto& b) { return a.triangle < b.triangle; });
      for (const Work::Best& b : best) {
        const Index t = b.triangle;
        const SignedResult now = signed_to(t, x[v], false);
        const double later = predicted != nullptr ? signed_to(t, y[v], true).distance : now.distance;
        if (!(std::min(now.distance, later) < margin)) continue;
        VertexTriangleContact c;
        c.vertex = v;
        c.triangle = t;
        c.distance = now.distance;
        c.predicted = later;
        c.normal = now.normal;
        c.closest = now.r.closest;
        for (int k = 0; k < 3; ++k) c.bary[k] = now.r.bary[k];
        c.region = now.r.region;
        part.push_back(c);
      }
    }
  });
  for (std::size_t chunk = 0; chunk < chunks; ++chunk)
    out.insert(out.end(), w.parts[chunk].begin(), w.parts[chunk].end());
}

}  // namespace sinew
