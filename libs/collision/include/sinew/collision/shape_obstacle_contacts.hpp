/// @file
/// @brief Contacts of a rigid analytic shape (a body's collider) with a mesh or grid obstacle: the
/// narrow phase of obstacles that are not analytic shapes (the multibody ContactConstraint's).
///
/// The local minima of the distance between a convex shape A and a triangle mesh B are of three
/// kinds, each found by one rule, each kept when its gap is at most the margin:
/// - a point feature of A against B's surface, by B's signed distance (obstacle_distance(): the
///   mesh's exact distance or the grid's): a sphere's centre and a capsule's end centres with their
///   radius, a box's eight corners, a cylinder's rim points nearest B (per cap, the rim's support
///   point against B's normal at the cap's centre; four rim points when that cap lies flat);
/// - a vertex of B against A, by A's exact signed distance (point_shape()): B's corners pressing
///   into A's faces;
/// - the point of a sharp edge of B (its faces more than the sharp angle apart, or a sheet's rim:
///   a blade) deepest into A (segment_shape_min()) when it is strictly inside the edge: an edge
///   across A's face or edge, a knife edge with no thickness.
/// A sphere needs only its centre: the nearest point of a mesh to a ball is the nearest to its
/// centre. A half-space collider has no rule (an unbounded body against a bounded obstacle).
/// B's vertices and edges are those of the mesh's triangles whose bounds come within the margin of
/// A's bounding sphere (the BVH's query); a grid obstacle uses the mesh kept beside it, if any.
#pragma once

#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/shape_pairs.hpp"
#include "sinew/collision/sheet_sides.hpp"

namespace sinew {

/// True for the collider shapes shape_obstacle_contacts() handles (all but the half-space).
bool has_shape_obstacle_contacts(ShapeType type);

/// Buffers of shape_obstacle_contacts(), reused between calls so that a call allocates nothing once
/// they have grown.
struct ShapeObstacleWorkspace {
  std::vector<Index> triangles;  ///< the mesh's triangles near the shape
  std::vector<Index> vertices;   ///< their vertices, sorted, unique
  std::vector<Index> edges;      ///< their edges, sorted, unique
};

/// Parameters of shape_obstacle_contacts().
struct ShapeObstacleOptions {
  double margin = 0.0;  ///< contacts with gap <= margin are kept
  /// B's edges whose faces' normals are more than this angle apart (radians) are sharp (see the file
  /// comment); ContactOptions::sharp_edge_angle.
  double sharp_edge_angle = 0.0;
  /// For a sheet obstacle (is_sheet()): the side memory that orients A's point features (their key:
  /// sheet_key with the feature's number in its last entry), or null to take the side each is on.
  SheetSides* sides = nullptr;
  SheetSides::Key sheet_key{{0, 0, 0, 0}};  ///< see sides
};

/// Appends to @p out the contacts (see the file comment) of the shape @p a placed by @p pa (side A)
/// with the mesh or grid obstacle @p b (side B, at its pose), normal from B toward A: A's point
/// features in order (sphere centre; capsule ends; box corners by index; cylinder caps -z, +z),
/// then B's vertices by index, then B's sharp edges by index. A sheet's contacts with A's point
/// features are recorded in @p options.sides. Appends nothing for an analytic obstacle or a
/// half-space shape.
void shape_obstacle_contacts(const Shape& a, const Pose& pa, const Obstacle& b, const ShapeObstacleOptions& options,
                             ShapeObstacleWorkspace& work, std::vector<ShapePairContact>& out);

}  // namespace sinew
