/// @file
/// @brief MeshSignedDistance: the exact signed distance of points to a closed triangle mesh (an
/// obstacle or collider given as a mesh), by a BVH nearest-triangle query and the sign of the
/// angle-weighted pseudo-normal of the closest feature (Baerentzen and Aanaes 2005).
#pragma once

#include <array>
#include <vector>

#include "sinew/collision/bvh.hpp"
#include "sinew/collision/point_shape.hpp"

namespace sinew {

/// What a mesh is: the boundary of a solid, or a sheet.
enum class MeshSides {
  kClosed,  ///< a closed, outward-oriented surface: negative inside
  /// any triangle mesh, open or not (a plate, a ramp, terrain): the distance is signed by the
  /// faces' orientation, negative behind them, which tells the side of the sheet, not inside or
  /// outside; contact models keep each point on the side it comes from (local-global: the side of
  /// its last step's contact)
  kTwoSided,
};

/// Exact signed distance to a closed, outward-oriented triangle mesh: negative inside, the
/// normal pointing out of the mesh at the closest point, the closest point on the surface. What
/// point_shape() gives for an analytic shape, for a mesh; SignedDistanceGrid samples it. Built
/// MeshSides::kTwoSided, the same for any mesh (a sheet), the sign telling its side.
class MeshSignedDistance {
 public:
  /// Keeps the mesh, its pseudo-normals and a Bvh of its triangles.
  /// @param positions (n_vertices) points, in the mesh's own frame.
  /// @param triangles (n_triangles x 3) vertex indices, counter-clockwise seen from outside.
  /// @param sides kClosed: the mesh must be closed; kTwoSided: any triangle mesh.
  /// @throws sinew::Error for an empty mesh, an index out of range (naming the triangle), a mesh
  /// that is not closed when @p sides is kClosed (naming an edge and how many triangles share it) or
  /// a non-finite point.
  void build(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
             MeshSides sides = MeshSides::kClosed);

  /// Signed distance, outward unit normal and closest surface point at @p p (the mesh's frame).
  /// Off the surface the normal is (p - closest) / distance, signed; on it, the closest
  /// feature's normalized pseudo-normal. @throws sinew::Error before build().
  SignedDistance query(const Vec3& p) const;

  /// Whether build() has succeeded.
  bool built() const { return !triangles_.empty(); }
  /// How it was built: a closed solid's boundary or a sheet.
  MeshSides sides() const { return sides_; }
  /// The mesh's points (n_vertices).
  const std::vector<Vec3>& positions() const { return positions_; }
  /// The mesh's triangles (n_triangles x 3).
  const std::vector<std::array<Index, 3>>& triangles() const { return triangles_; }
  /// Bounds of the mesh.
  const Aabb& bounds() const { return bounds_; }
  /// The mesh's edges (n_edges x 2 vertex indices, the lower first), sorted.
  const std::vector<std::array<Index, 2>>& edges() const { return edges_; }
  /// (n_edges) The cosine of the angle between the normals of each edge's two faces: 1 on a flat
  /// edge, 0 on a box's edge; -1 on an edge with one face (a sheet's rim, a blade) or more than two.
  const std::vector<double>& edge_cosines() const { return edge_cos_; }
  /// (n_triangles x 3) Edge indices of each triangle's edges ab, bc, ca.
  const std::vector<std::array<Index, 3>>& triangle_edges() const { return triangle_edges_; }
  /// Appends to @p out the triangles whose bounds overlap @p box (the mesh's frame), in the BVH's
  /// traversal order. @throws sinew::Error before build().
  void triangles_near(const Aabb& box, std::vector<Index>& out) const;

 private:
  std::vector<Vec3> positions_;
  std::vector<std::array<Index, 3>> triangles_;
  std::vector<Vec3> face_normal_;                     // (n_triangles) unit face normals
  std::vector<std::array<Vec3, 3>> edge_normal_;      // per triangle, edges ab, bc, ca: sum of both faces
  std::vector<Vec3> vertex_normal_;                   // (n_vertices) angle-weighted
  std::vector<std::array<Index, 2>> edges_;           // (n_edges x 2) sorted
  std::vector<double> edge_cos_;                      // (n_edges) cosine between the two faces' normals
  std::vector<std::array<Index, 3>> triangle_edges_;  // (n_triangles x 3) edges ab, bc, ca
  Bvh bvh_;
  Aabb bounds_ = empty_aabb();
  double extent_ = 0.0;  // the bounds' largest side: the scale of "on the surface"
  MeshSides sides_ = MeshSides::kClosed;
};

}  // namespace sinew
