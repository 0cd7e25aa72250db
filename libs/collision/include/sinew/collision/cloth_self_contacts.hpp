/// @file
/// @brief Self-contact of a cloth: a two-sided, open triangle sheet touching itself (a fold lying on
/// itself, a drape wrapping over its own rim). Vertex-triangle contacts between a vertex and the
/// triangles that do not hold it, and edge-edge contacts between edges that share no vertex, each
/// within a distance of the sheet's thickness plus a margin, found by a broad phase over swept
/// boxes and the closest-point tests of point_triangle.hpp and edge_edge.hpp, in a fixed order.
///
/// A contact's constraint row is the relative displacement of its two witness points,
/// x_v - sum_k b_k x_k (vertex-triangle) or (1 - s) x_a0 + s x_a1 - (1 - t) x_b0 - t x_b1
/// (edge-edge), along the contact's normal and two tangents: the seed paper's H rows (Sec. 5.1,
/// eq. (11)) over four vertices, as for contacts between bodies (vertex_triangle_contacts.hpp,
/// edge_edge_contacts.hpp). Those detectors are one-sided (a closed surface's outward normals
/// tell inside from outside); a cloth has no inside, so here the side is remembered instead: a
/// pair's side is that of its contact in the last step if it had one, else the side it is on at the
/// start of the step, and the distance is signed by it, so a layer pushed a little through the
/// other by an inexact solve is pushed back, never further through.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// One vertex-triangle self-contact of a cloth.
struct ClothVertexTriangleContact {
  Index vertex = -1;    ///< the vertex
  Index triangle = -1;  ///< the triangle (index into the detector's triangles), not holding the vertex
  /// Distance at the positions, signed by the pair's side: in the triangle's face region the
  /// vertex's height over the triangle's plane on its side (negative when it is past the plane),
  /// on an edge or a vertex of the triangle |x_v - closest| (an edge has no side).
  double distance = 0.0;
  double predicted = 0.0;  ///< the same distance, with the same side, at the predicted positions
  /// Unit normal at the positions, from the triangle toward the vertex's side: +-the face normal in
  /// the face region, (x_v - closest) / |x_v - closest| on an edge or a vertex.
  Vec3 normal{{0.0, 0.0, 1.0}};
  Vec3 closest{{0.0, 0.0, 0.0}};                  ///< the triangle's closest point at the positions
  double bary[3] = {0.0, 0.0, 0.0};               ///< its barycentric weights on the triangle's vertices
  TriangleRegion region = TriangleRegion::kFace;  ///< the triangle feature that holds it
};

/// One edge-edge self-contact of a cloth: edges a < b (indices into the detector's edges()).
struct ClothEdgeEdgeContact {
  Index edge_a = -1;  ///< the edge of smaller index
  Index edge_b = -1;  ///< the other edge; it shares no vertex with a
  double s = 0.0;     ///< closest point of a: (1 - s) x_a0 + s x_a1, 0 < s < 1
  double t = 0.0;     ///< closest point of b: (1 - t) x_b0 + t x_b1, 0 < t < 1
  /// Separation of the closest points along the normal at the positions (negative when a has
  /// crossed b against the pair's side).
  double distance = 0.0;
  double predicted = 0.0;        ///< the same separation, with the same side, at the predicted positions
  Vec3 normal{{0.0, 0.0, 1.0}};  ///< unit, +-(a x b) / |a x b|, from b toward a's side
};

/// Finds the self-contacts of one cloth (a triangle sheet, two-sided, open or closed); keeps its
/// mesh, broad phases and buffers between calls (the buffers only grow, so a steady contact set
/// allocates nothing).
///
/// Vertex-triangle rule: a query vertex v and a triangle t that does not hold v are a contact
/// when the closest point of t to v is inside t's face, or on an edge or a vertex of t whose
/// owner (the first triangle of the list that holds that edge or vertex) is t, and the signed
/// distance at the positions or at the predicted positions is below the margin (a vertex u on
/// vertex v's: the pair once, from the smaller of the two when both are query vertices). So each
/// feature of the mesh near v is one contact, not one per triangle around it; and a vertex joined to v by an
/// edge, or an edge with both ends joined to v (an edge of v's own triangles), is none: the
/// membrane, not contact, keeps v from its neighbours. Edge-edge rule: edges a and b that share no vertex, are not
/// nearly parallel (their directions more than ~3 degrees apart: near parallel edges touch where an endpoint does, a
/// vertex-triangle contact) and whose closest points are interior to both at the positions are a
/// contact when their separation along n at the positions or at the prediction is below the margin.
///
/// The side: a pair that was a contact of the last step (given as previous contacts) keeps the
/// side of that contact's normal; any other takes the side it is on at the positions (so its
/// distance there is >= 0). Output sorted by (vertex, triangle) and (edge a, edge b), the same
/// whatever the thread count and the order of the query vertices.
class ClothSelfContactDetector {
 public:
  /// The cloth of @p triangles over @p n_vertices vertices, with the query vertices @p vertices
  /// (any order, duplicates ignored; empty = every vertex of a triangle); @p broad_phase names the
  /// broad phase (make_broad_phase(): "bvh" or "hash").
  /// @throws sinew::Error naming the triangle with an index out of range or a repeated vertex, the
  ///         query vertex out of range, or for an unknown broad phase or bad parameters.
  ClothSelfContactDetector(std::vector<std::array<Index, 3>> triangles, Index n_vertices,
                           const std::vector<Index>& vertices = {}, const std::string& broad_phase = "bvh",
                           const BroadPhaseOptions& params = {});
  ~ClothSelfContactDetector();
  /// Takes over @p other's mesh, broad phases and buffers; @p other is left empty.
  ClothSelfContactDetector(ClothSelfContactDetector&& other) noexcept;
  /// Takes over @p other's mesh, broad phases and buffers; @p other is left empty.
  ClothSelfContactDetector& operator=(ClothSelfContactDetector&& other) noexcept;

  /// Writes into @p vertex_triangle and @p edge_edge (cleared first) the contacts at the positions
  /// @p x (n_vertices); @p predicted: null, or (n_vertices) positions at the end of the step, whose
  /// sweep from @p x the broad phase covers; @p margin >= 0 (m; the thickness kept between the
  /// layers plus the detection margin). @p previous_vertex_triangle, @p previous_edge_edge: null,
  /// or the last step's contacts (any order; only their keys and normals are read), whose pairs
  /// keep their side.
  /// @throws sinew::Error when a size differs from n_vertices, a position is not finite, the margin
  ///         is negative or not finite, or a previous contact names a vertex, triangle or edge out
  ///         of range.
  void detect(const std::vector<Vec3>& x, const std::vector<Vec3>* predicted, double margin,
              const std::vector<ClothVertexTriangleContact>* previous_vertex_triangle,
              const std::vector<ClothEdgeEdgeContact>* previous_edge_edge,
              std::vector<ClothVertexTriangleContact>& vertex_triangle, std::vector<ClothEdgeEdgeContact>& edge_edge);

  /// The triangles, as given.
  const std::vector<std::array<Index, 3>>& triangles() const;
  /// The edges of the triangles, (u, w) with u < w, sorted, each once.
  const std::vector<std::array<Index, 2>>& edges() const;
  /// The query vertices, ascending.
  const std::vector<Index>& vertices() const;
  /// Candidate pairs of the last detect() after the broad phases (vertex-triangle plus edge-edge).
  std::size_t candidates() const;

 private:
  struct Work;
  std::unique_ptr<BroadPhase> triangle_broad_, edge_broad_;
  std::unique_ptr<Work> work_;
};

}  // namespace sinew
