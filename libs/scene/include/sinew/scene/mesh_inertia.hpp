/// @file
/// @brief Mass properties of a solid bounded by a closed triangle mesh (a rigid body's OBJ shape):
/// volume, centroid and inertia by the divergence theorem, summing the signed tetrahedra that
/// each triangle spans with a reference point (exact for the polyhedron).
#pragma once

#include <string>

#include "sinew/core/small_matrix.hpp"
#include "sinew/core/spatial_inertia.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// Volume, centroid and unit-density inertia of the solid a closed mesh bounds.
struct MeshMassProperties {
  double volume = 0.0;       ///< enclosed volume (m^3), > 0
  Vec3 centroid{{0, 0, 0}};  ///< centre of volume, in the mesh's coordinates
  Mat3 inertia{};            ///< inertia tensor about the centroid per unit density (m^5)
};

/// The mass properties of the solid bounded by @p mesh: closed (every edge shared by exactly two
/// triangles, in opposite directions) and oriented outward (counter-clockwise seen from outside).
/// @p name prefixes the errors.
/// @throws sinew::Error naming an open or non-manifold edge, or when the enclosed volume is not
///         positive (the triangles face inward).
MeshMassProperties mesh_mass_properties(const TriangleMesh& mesh, const std::string& name);

/// The spatial inertia of a body of mass @p mass filling @p p's solid, about its centroid (the body
/// origin of a mesh moved so its centroid is at the origin).
SpatialInertia mesh_inertia(const MeshMassProperties& p, double mass);

}  // namespace sinew::scene
