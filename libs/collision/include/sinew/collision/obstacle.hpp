/// @file
/// @brief sinew::Obstacle: a rigid obstacle (an analytic shape, a closed triangle mesh or a
/// signed-distance grid at a pose, static or moving rigidly, with a friction coefficient), the one
/// obstacle type of every contact model (the multibody ContactConstraint and the local-global
/// integrator's contact).
#pragma once

#include <memory>

#include "sinew/collision/mesh_signed_distance.hpp"
#include "sinew/collision/shape.hpp"
#include "sinew/collision/signed_distance_grid.hpp"

namespace sinew {

/// A rigid analytic obstacle: a shape placed by a pose, moving with a rigid motion, with a
/// Coulomb friction coefficient. The multibody ContactConstraint treats obstacles as static and
/// uses its own friction coefficient for every contact (ContactOptions::mu); the local-global
/// integrator moves them by their motion and uses each one's friction.
struct Obstacle {
  Shape shape{ShapeType::kHalfSpace, {0.0, 0.0, 0.0}};  ///< shape in its local frame (half-space: z <= 0)
  Pose pose = identity_pose();                          ///< placement (at the current step's start when moving)
  /// Rigid velocity: enters the contact velocity through the surface velocity, and the pose
  /// advances by it after each local-global step (translation += h linear, rotation = exp(h
  /// angular) rotation).
  Motion motion{{{0.0, 0.0, 0.0}}, {{0.0, 0.0, 0.0}}};
  double friction = 0.0;  ///< Coulomb coefficient mu >= 0 of the contacts on this obstacle
  /// When set, the obstacle is this triangle mesh in its local frame (shape is then ignored):
  /// points touch it by its exact signed distance (MeshSignedDistance), a closed solid's or a
  /// two-sided sheet's (MeshSides). Shared, so that copies of a scene's obstacles do not copy the mesh.
  std::shared_ptr<const MeshSignedDistance> mesh;
  /// When set, points touch the obstacle by this signed-distance grid in its local frame (trilinear
  /// interpolation, SignedDistanceGrid::query) instead of the shape's or the mesh's exact distance:
  /// one cell lookup per point, whatever the mesh's size. A mesh set beside it is what snapshots
  /// draw. Shared, as the mesh.
  std::shared_ptr<const SignedDistanceGrid> grid;
};

/// Signed distance, outward normal and closest surface point of the world point @p x against
/// @p obstacle at its pose: the grid's interpolated distance for a grid obstacle, the mesh's exact
/// signed distance for a mesh obstacle, point_shape() for an analytic shape.
SignedDistance obstacle_distance(const Vec3& x, const Obstacle& obstacle);

/// Whether @p obstacle is a two-sided sheet: an exact mesh built MeshSides::kTwoSided (its signed
/// distance tells the side of its faces; contact models keep each point on its side).
inline bool is_sheet(const Obstacle& obstacle) {
  return obstacle.mesh && !obstacle.grid && obstacle.mesh->sides() == MeshSides::kTwoSided;
}

/// A mesh obstacle: the closed, outward-oriented triangle mesh (@p positions in its local frame,
/// @p triangles counter-clockwise seen from outside) at @p pose, with friction @p friction; with
/// @p sides = MeshSides::kTwoSided any triangle mesh, a sheet touched from either side (each point
/// kept on the side it comes from).
/// @throws sinew::Error as MeshSignedDistance::build().
Obstacle mesh_obstacle(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
                       const Pose& pose, double friction = 0.0, MeshSides sides = MeshSides::kClosed);

/// A signed-distance grid obstacle sampled from the closed, outward-oriented triangle mesh
/// (@p positions in its local frame, @p triangles counter-clockwise seen from outside) with
/// @p options, at @p pose, with friction @p friction; the mesh is kept for drawing.
/// @throws sinew::Error as MeshSignedDistance::build() and SignedDistanceGrid::build().
Obstacle grid_obstacle(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 3>>& triangles,
                       const SdfGridOptions& options, const Pose& pose, double friction = 0.0);

/// The half-space {x : n.(x - point) <= 0} whose boundary plane passes through @p point with
/// outward normal @p normal (not necessarily unit), with friction @p friction: its local frame is
/// the contact frame of the normal (local +z = the unit normal, det R = +1).
/// @throws sinew::Error naming "normal" when it is zero or not finite, "point" when not finite.
Obstacle half_space_obstacle(const Vec3& point, const Vec3& normal, double friction = 0.0);

}  // namespace sinew
