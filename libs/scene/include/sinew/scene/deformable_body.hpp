/// @file
/// @brief A deformable solid from a tetrahedral mesh: one particle per vertex with the lumped
/// mass rho V / 4 of each incident tetrahedron, and one finite-element force field over the tets.
#pragma once

#include <memory>

#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// What add_deformable_body() added to a system.
struct DeformableBody {
  Index first_particle = 0;                   ///< particle index of the mesh's vertex 0 (vertices are consecutive)
  Index num_particles = 0;                    ///< number of vertices
  std::shared_ptr<model::TetFemField> field;  ///< the elements, already added to the system
};

/// Adds @p mesh to @p system as particles (lumped masses from @p density) and a TetFemField of
/// @p material_model with @p parameters; rest shape = the mesh's vertices.
/// @throws sinew::Error when density is not finite and > 0, a vertex has no tetrahedron (zero
///         mass), or a tetrahedron is degenerate or inverted (naming it).
DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh, double density,
                                   MaterialModel material_model, const ElasticParameters& parameters);

}  // namespace sinew::scene
