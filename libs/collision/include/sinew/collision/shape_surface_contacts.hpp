/// @file
/// @brief Contacts between an analytic shape (sphere, capsule, box, cylinder) and the faces and edges of a
/// triangle surface: a sphere or a capsule tool pressed between the vertices of a coarse FEM
/// boundary, a box corner or edge pushed into a soft body's face or across its sharp edge.
///
/// The surface's vertices touch the shape through point_shape.hpp (a contact point per vertex);
/// what this adds are the other local minima of the distance between the two, each feature pair
/// once (Ericson, Real-Time Collision Detection, 5.1.5 and 5.1.9, for the closest points):
/// - a point feature of the shape (a sphere's centre, a capsule's two end centres, radius r; a
///   box's eight corners, radius 0) against a triangle's interior, when the point's closest
///   point on the triangle is inside it, the point is in front of the face or less than the
///   margin behind it, and (a box corner) the normal lies in the corner's normal cone (the
///   corner is the box's nearest point toward the face);
/// - the same point feature against an edge, when its closest point on every triangle of the
///   edge lies inside that edge (the edge's Voronoi region: so on a flat part the face is
///   found, never the edge), and it is in front of every such triangle;
/// - a segment feature (a capsule's axis, radius r; a box's twelve edges, radius 0) against an
///   edge, when their closest points are interior to both and the segments are not nearly
///   parallel (an end is closest: a point feature's business); the capsule axis as a point
///   feature there (the edge's Voronoi region), a box edge when the normal +-(e_box x e_edge)
///   lies in the box edge's normal cone and, reversed, in the surface edge's (so that edge is
///   convex there: a valley is never nearest). Segments meet no flat edge (faces within 1
///   degree): there an end is nearest, or the whole segment lying parallel.
/// A cylinder is its rims and its side: four fixed points per rim (radius 0, a cap lying on a
/// face) and, per face, the rim point nearest it (its support point toward the face) as point
/// features against faces; the rim point and edge point nearest each other (the rim's angle by
/// min_over_angle()) against convex edges, under the box edges' cone rule with the rim point's
/// cone (its cap's normal and its radial direction); the axis with the radius against edges as
/// a capsule's. A point feature against a surface vertex is the vertex's contact. Half-spaces
/// need none of this (a face's deepest point in a half-space is a vertex).
#pragma once

#include <array>
#include <vector>

#include "sinew/collision/shape.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// The edges of a triangle surface and the triangles around each: what shape_surface_contacts()
/// needs to report an edge once and to test its Voronoi region.
class SurfaceEdges {
 public:
  /// The edges of @p triangles (vertex indices, counter-clockwise seen from outside); an edge
  /// may have any number of triangles (one on a boundary, more where the surface is not a
  /// manifold).
  explicit SurfaceEdges(std::vector<std::array<Index, 3>> triangles);
  /// The triangles, as given.
  const std::vector<std::array<Index, 3>>& triangles() const { return triangles_; }
  /// Edge k of triangle t (k = 0: vertices 0-1, 1: 1-2, 2: 2-0) as an index into the edges.
  Index edge(Index t, int k) const { return triangle_edges_[static_cast<std::size_t>(t)][static_cast<std::size_t>(k)]; }
  /// The vertices (u, w), u < w, of edge @p e.
  const std::array<Index, 2>& edge_vertices(Index e) const { return edges_[static_cast<std::size_t>(e)]; }
  /// The triangles of edge @p e, in increasing order: [first, last).
  const Index* edge_triangles_begin(Index e) const {
    return edge_triangles_.data() + first_[static_cast<std::size_t>(e)];
  }
  /// End of edge_triangles_begin(e).
  const Index* edge_triangles_end(Index e) const {
    return edge_triangles_.data() + first_[static_cast<std::size_t>(e) + 1];
  }
  /// The number of edges.
  Index size() const { return static_cast<Index>(edges_.size()); }

 private:
  std::vector<std::array<Index, 3>> triangles_;
  std::vector<std::array<Index, 3>> triangle_edges_;  // (triangles)
  std::vector<std::array<Index, 2>> edges_;           // sorted
  std::vector<Index> first_, edge_triangles_;         // CSR: the triangles of each edge
};

/// One contact between a shape and a surface.
struct ShapeSurfaceContact {
  Index triangle = -1;                ///< the triangle holding the surface's witness point
  double bary[3] = {0.0, 0.0, 0.0};   ///< the witness point's barycentric weights on its vertices
  Vec3 shape_point{{0.0, 0.0, 0.0}};  ///< the shape's witness point (world)
  Vec3 normal{{0.0, 0.0, 1.0}};       ///< unit normal from the shape toward the surface
  /// Signed distance normal . (surface witness - shape witness), negative when they overlap.
  double gap = 0.0;
};

/// True for the shape types shape_surface_contacts() finds face and edge contacts for (all but
/// the half-space).
bool has_shape_surface_contacts(ShapeType type);

/// Appends to @p out the face and edge contacts (see the file comment) between @p shape at
/// @p pose and the surface @p surface at vertex positions @p x (indexed by its triangles'
/// vertices) whose gap is at most @p margin: the shape's features in order (sphere centre;
/// capsule ends, axis; box corners by index, box edges), for each the triangles (or edges) in
/// increasing index. Appends nothing for the other shape types.
void shape_surface_contacts(const Shape& shape, const Pose& pose, const Vec3* x, const SurfaceEdges& surface,
                            double margin, std::vector<ShapeSurfaceContact>& out);

}  // namespace sinew
