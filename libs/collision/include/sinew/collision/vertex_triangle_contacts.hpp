/// @file
/// @brief Deformable-deformable contact candidates: the boundary of a tetrahedral mesh split into
/// bodies (its connected components), and the vertex-triangle contacts between the surface
/// vertices of one body and the boundary triangles of the others, found by a broad phase over
/// swept boxes and the closest-point test of point_triangle.hpp, in a fixed order.
///
/// A contact's constraint row is the relative displacement of the vertex and of the triangle's
/// closest point, x_v - sum_k b_k x_k (weights +1 and -b_k over four vertices), along the
/// contact's normal and two tangents: the seed paper's H rows (Sec. 5.1, eq. (11)) for two
/// deformable sides.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/point_triangle.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// The boundary of a tetrahedral mesh, split into bodies (connected components of the tets).
struct TetSurfaces {
  /// (n_vertices) body of each vertex, 0 ... bodies - 1 in order of each body's smallest vertex;
  /// -1 for a vertex in no tetrahedron.
  std::vector<int> vertex_body;
  /// Boundary faces (faces of exactly one tetrahedron), oriented outward (counter-clockwise
  /// seen from outside), ordered by their sorted vertex triple.
  std::vector<std::array<Index, 3>> triangles;
  std::vector<int> triangle_body;  ///< (triangles) body of each boundary face
  int bodies = 0;                  ///< number of bodies
};

/// The bodies and outward boundary faces of @p tets ((4 n_tets) vertex indices, positively
/// oriented: det(x1 - x0, x2 - x0, x3 - x0) > 0) over @p n_vertices vertices.
/// @throws sinew::Error when tets.size() is not a multiple of 4 or an index is out of range.
TetSurfaces tet_surfaces(const std::vector<Index>& tets, Index n_vertices);

/// One vertex-triangle contact between two bodies.
struct VertexTriangleContact {
  Index vertex = -1;    ///< the query vertex (one body's surface)
  Index triangle = -1;  ///< index of the triangle (another body's boundary) in the triangle list
  /// Signed distance at the positions: |x_v - closest|, negative when the vertex is behind the
  /// triangle's outward face (inside the other body).
  double distance = 0.0;
  /// The same signed distance to the same triangle at the predicted positions (= distance
  /// when none were given).
  double predicted = 0.0;
  /// Unit normal at the positions, from the triangle's closest point toward the vertex on the
  /// outward side: (x_v - closest) / distance, or the face normal at zero distance.
  Vec3 normal{{0.0, 0.0, 1.0}};
  Vec3 closest{{0.0, 0.0, 0.0}};                  ///< closest point of the triangle at the positions
  double bary[3] = {0.0, 0.0, 0.0};               ///< its barycentric weights on the triangle's vertices
  TriangleRegion region = TriangleRegion::kFace;  ///< the triangle feature that holds it
};

/// Finds the vertex-triangle contacts between bodies; keeps its broad phase and buffers between
/// calls (they only grow, so a steady contact set allocates nothing).
///
/// Rule: for each query vertex v of body b and each other body c, the triangle of c nearest to
/// v at the positions (unsigned distance; ties to the smaller sorted vertex triple, so the
/// choice does not depend on the triangles' order) is a contact when its signed distance at the
/// positions or at the predicted positions is below the margin. Output sorted by (vertex,
/// triangle): the same whatever the order of the query vertices and the thread count. A vertex
/// meets its own body's triangles only for the bodies detect() is told to self-contact: then the
/// nearest own triangle that is not adjacent to it (none of its vertices is v or shares an edge
/// with v), that faces v's own surface (its outward normal more than 120 degrees from v's
/// pseudo-normal: not a side face at a corner, not the rest of a flat part) and that v lies along
/// (the direction from its closest point to v within 60 degrees of its normal, either way), in
/// front of it or less than the margin behind, is a contact under the same margin rule. So the
/// parts of a body that may touch itself must be thicker than the margin, and a vertex that has
/// crossed its own surface by more than the margin is not found.
class VertexTriangleDetector {
 public:
  /// @p broad_phase names the broad phase (make_broad_phase(): "bvh" or "hash").
  /// @throws sinew::Error for an unknown name or bad parameters.
  explicit VertexTriangleDetector(const std::string& broad_phase = "bvh", const BroadPhaseOptions& params = {});
  ~VertexTriangleDetector();
  /// Takes over @p other's broad phase and buffers; @p other is left empty.
  VertexTriangleDetector(VertexTriangleDetector&& other) noexcept;
  /// Takes over @p other's broad phase and buffers; @p other is left empty.
  VertexTriangleDetector& operator=(VertexTriangleDetector&& other) noexcept;

  /// Writes into @p out (cleared first) the contacts of the query @p vertices (any order,
  /// duplicates ignored) against @p surfaces' triangles. @p x: (n_vertices) positions;
  /// @p predicted: null, or (n_vertices) positions at the end of the step, whose sweep from @p x
  /// the broad phase covers so that fast vertices are found. @p margin >= 0 (m).
  /// @throws sinew::Error when a vertex or triangle index is out of range of @p x, sizes differ,
  ///         a position is not finite or the margin is negative or not finite.
  /// @p self_contact: null, or (bodies) nonzero for the bodies whose vertices also meet their own
  /// triangles (see the class comment).
  void detect(const TetSurfaces& surfaces, const std::vector<Index>& vertices, const std::vector<Vec3>& x,
              const std::vector<Vec3>* predicted, double margin, std::vector<VertexTriangleContact>& out,
              const std::vector<char>* self_contact = nullptr);

  /// Candidate (vertex, triangle) pairs of the last detect() after the broad phase.
  std::size_t candidates() const;

 private:
  struct Work;
  std::unique_ptr<BroadPhase> broad_;
  std::unique_ptr<Work> work_;
};

}  // namespace sinew
