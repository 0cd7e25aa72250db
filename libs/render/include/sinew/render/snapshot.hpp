/// @file
/// @brief The pieces of a simulation snapshot: each body's surface in a colour of a fixed palette,
/// the obstacles at their poses (a half-space as a checkered patch under the bodies), and a
/// camera framed once on the first snapshot so that a run's images form a steady movie.
#pragma once

#include <cstddef>
#include <vector>

#include "sinew/collision/obstacle.hpp"
#include "sinew/render/mesh_render.hpp"

namespace sinew::render {

/// Colour of body @p b of a snapshot: a fixed palette of five, cycled.
Rgb body_color(std::size_t b);

/// Triangle mesh of @p shape in its local frame (sphere, capsule, cylinder: a 32 x 16
/// latitude-longitude grid; box: 12 triangles); empty for a half-space.
RenderMesh shape_mesh(const Shape& shape);

/// Where half-space obstacles are drawn: an n x n checkered square of side @p side, centred under
/// @p centre (its projection on each plane).
struct GroundPatch {
  Vec3 centre{{0.0, 0.0, 0.0}};  ///< point the patch is centred under
  double side = 2.0;             ///< side of the square (m), > 0
  int checks = 12;               ///< checks along a side, >= 1
};

/// The patch under the bodies @p bodies: centred on their bounding box, side 3 times its largest
/// extent but at least 2 m (a body sliding or falling over the run stays above it), 12 checks;
/// the default 2 m patch at the origin when there is no vertex.
GroundPatch ground_under(const std::vector<RenderMesh>& bodies);

/// @p obstacles as meshes at their poses: shapes by shape_mesh(), half-spaces as @p ground
/// (checker_ground() in the plane, +z of the obstacle's frame up). Obstacles are drawn grey.
std::vector<RenderMesh> obstacle_meshes(const std::vector<Obstacle>& obstacles, const GroundPatch& ground);

/// @p camera as it will stay for a run: unchanged unless auto-framed; then the target (unless
/// given) is the centre of the first @p bodies meshes of @p meshes and of the other meshes'
/// points within one extent of them (a ground patch may be far larger than the bodies), and the
/// distance (perspective) or view height (orthographic) takes their bounding sphere in view.
RenderCamera frame_camera(const RenderCamera& camera, const std::vector<RenderMesh>& meshes, std::size_t bodies);

}  // namespace sinew::render
