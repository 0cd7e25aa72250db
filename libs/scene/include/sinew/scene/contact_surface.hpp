/// @file
/// @brief Contact surfaces of bodies (constraints::ContactConstraint::add_surface()): the
/// boundary of an FEM solid over its particles, a cloth over its particles, a triangle mesh fixed
/// in a rigid body over markers on it (mechanics notes eq. 0.36), each a set of triangles over
/// model::MappedPoints, so that one contact rule serves rigid-rigid, rigid-deformable and
/// deformable-deformable pairs.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/model/mapped_points.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// A body's contact surface: triangles (outward, counter-clockwise seen from outside) over
/// mapped points.
struct ContactSurface {
  std::shared_ptr<const model::MappedPoints> vertices;  ///< the surface's vertices
  std::vector<std::array<Index, 3>> triangles;          ///< indices into vertices
};

/// @p mesh's triangles over the particles of its vertices (vertex i is particle
/// @p first_particle + i), keeping only the vertices some triangle uses (renumbered in order):
/// the boundary_triangles() of an FEM solid, or a cloth's own triangles.
/// @throws sinew::Error when a triangle's vertex is out of range of @p mesh.vertices.
ContactSurface particle_surface(const model::MechanicalSystem& system, Index first_particle, const TriangleMesh& mesh,
                                const std::string& name);

/// @p mesh (vertices in body coordinates) fixed in rigid body @p body: each vertex a marker.
/// @throws sinew::Error when a triangle's vertex is out of range or the body is not in
///         @p system.
ContactSurface rigid_surface(const model::MechanicalSystem& system, Index body, const TriangleMesh& mesh,
                             const std::string& name);

/// Adds @p surface to @p contact with surface material @p material (touching itself when
/// @p self_contact); returns its index.
inline Index add_surface(constraints::ContactConstraint& contact, const ContactSurface& surface, Index material = 0,
                         bool self_contact = false) {
  return contact.add_surface(surface.vertices, surface.triangles, material, self_contact);
}

}  // namespace sinew::scene
