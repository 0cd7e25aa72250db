/// @file
/// @brief Edge-edge contacts between bodies: a sharp boundary edge of one body crossing, or
/// passing within a margin of, a boundary edge of another, where no vertex of either is near the
/// other body's surface (two blocks touching edge on edge, the corner edge of a coarse finger
/// pressed into a finely meshed ball). Found by a broad phase over swept edge boxes and the
/// closest points of the two segments (edge_edge.hpp), in a fixed order.
///
/// A contact's constraint row is the relative displacement of the two closest points,
/// (1 - s) x_a0 + s x_a1 - (1 - t) x_b0 - t x_b1, along the contact's normal and two tangents:
/// the seed paper's H rows (Sec. 5.1, eq. (11)) over four vertices, as for vertex-triangle
/// contacts (vertex_triangle_contacts.hpp), which cover every other feature pair.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"

namespace sinew {

/// One edge-edge contact between two bodies: edge a of the body with the smaller index, edge b
/// of the other.
struct EdgeEdgeContact {
  Index edge_a = -1;  ///< index of edge a in EdgeEdgeDetector::edges()
  Index edge_b = -1;  ///< index of edge b in EdgeEdgeDetector::edges()
  double s = 0.0;     ///< closest point of a: (1 - s) x_a0 + s x_a1, 0 < s < 1
  double t = 0.0;     ///< closest point of b: (1 - t) x_b0 + t x_b1, 0 < t < 1
  /// Signed distance at the positions: the closest points' separation along the normal,
  /// negative when the edges have crossed (a is inside b's body).
  double distance = 0.0;
  /// The signed distance of the same edges at the predicted positions (= distance when none
  /// were given).
  double predicted = 0.0;
  /// Unit normal at the positions, perpendicular to both edges, pointing out of b's body toward a.
  Vec3 normal{{0.0, 0.0, 1.0}};
};

/// The boundary edges of @p surfaces' triangles: (u, w) with u < w, sorted, each once.
std::vector<std::array<Index, 2>> boundary_edges(const TetSurfaces& surfaces);

/// Finds the edge-edge contacts between bodies; keeps its broad phase and buffers between calls
/// (they only grow, so a steady contact set allocates nothing).
///
/// Rule: boundary edges a and b of two different bodies (a on the body with the smaller index)
/// are a contact when (1) at least one of them is sharp, its two faces' normals more than
/// @p sharp_angle apart, and neither is flat, its faces' normals within 1 degree (a sharp edge
/// lying on a flat face meets it at its endpoints, vertex-triangle contacts: crossing the
/// face's flat inner edges would only repeat them); (2) they are not nearly parallel (their directions more than ~3
/// degrees apart: parallel edges touch where an endpoint meets a face or an edge, a vertex-triangle contact); (3) their
/// closest points are interior to both (an endpoint closest is a vertex-triangle contact); (4) the normal n = +-(a x b)
/// / |a x b|, oriented out of b's body (along the sum of b's face normals minus a's), has a's faces facing b and b's
/// facing a; and (5) the signed distance along n at the positions or at the predicted positions is below the margin.
/// Two edges of one body meet only for the bodies detect() is told to self-contact (a soft body folding onto itself,
/// the crossing edges of two of its parts): a the edge of smaller index, under the same rules and besides (6) no
/// vertex of one is a vertex of the other or joined to one by an edge (not in each other's neighbourhood) and (7)
/// their pseudo-normals (sums of their faces' normals) are more than 120 degrees apart (two parts of the surface
/// facing each other, not the rest of one fold or corner). Output sorted by (edge a, edge b), independent of the
/// thread count.
class EdgeEdgeDetector {
 public:
  /// @p broad_phase names the broad phase (make_broad_phase(): "bvh" or "hash").
  /// @throws sinew::Error for an unknown name or bad parameters.
  explicit EdgeEdgeDetector(const std::string& broad_phase = "bvh", const BroadPhaseOptions& params = {});
  ~EdgeEdgeDetector();
  /// Takes over @p other's broad phase and buffers; @p other is left empty.
  EdgeEdgeDetector(EdgeEdgeDetector&& other) noexcept;
  /// Takes over @p other's broad phase and buffers; @p other is left empty.
  EdgeEdgeDetector& operator=(EdgeEdgeDetector&& other) noexcept;

  /// Writes into @p out (cleared first) the edge-edge contacts between @p surfaces' bodies.
  /// @p x: (n_vertices) positions; @p predicted: null, or (n_vertices) positions at the end of
  /// the step, whose sweep from @p x the broad phase covers. @p margin >= 0 (m); @p sharp_angle
  /// in [0, pi] (radians); @p self_contact: null, or (bodies) nonzero for each body whose edges
  /// also meet its own.
  /// @throws sinew::Error when a triangle index is out of range of @p x, sizes differ, a
  ///         position is not finite, or the margin or the angle is out of range.
  void detect(const TetSurfaces& surfaces, const std::vector<Vec3>& x, const std::vector<Vec3>* predicted,
              double margin, double sharp_angle, std::vector<EdgeEdgeContact>& out,
              const std::vector<char>* self_contact = nullptr);

  /// The boundary edges of the last detect()'s surfaces, (u, w) with u < w, sorted.
  const std::vector<std::array<Index, 2>>& edges() const;

 private:
  struct Work;
  std::unique_ptr<BroadPhase> broad_;
  std::unique_ptr<Work> work_;
};

}  // namespace sinew
