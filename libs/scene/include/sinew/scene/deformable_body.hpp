/// @file
/// @brief A deformable solid from a tetrahedral mesh: one particle per vertex with the lumped
/// mass rho V / 4 of each incident tetrahedron, and one finite-element force field over the tets.
#pragma once

#include <memory>
#include <vector>

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
  std::shared_ptr<model::TetFemField> field;  ///< the elements (of the first material), already added to the system
  /// Every material's elements (one field per material, fields[0] == field), already added.
  std::vector<std::shared_ptr<model::TetFemField>> fields;
};

/// The material of the tetrahedra of one region of a mesh.
struct RegionMaterial {
  double density = 0.0;                                ///< kg/m^3, finite and > 0
  MaterialModel model = MaterialModel::kCorotational;  ///< constitutive model
  ElasticParameters parameters;                        ///< Young's modulus, Poisson ratio
};

/// Adds @p mesh to @p system as particles (lumped masses from @p density) and a TetFemField of
/// @p material_model with @p parameters; rest shape = the mesh's vertices.
/// @throws sinew::Error when density is not finite and > 0, a vertex has no tetrahedron (zero
///         mass), or a tetrahedron is degenerate or inverted (naming it).
DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh, double density,
                                   MaterialModel material_model, const ElasticParameters& parameters);

/// add_deformable_body() of a mesh made of several materials (element regions): tetrahedron e is
/// of materials[tet_material[e]]. Each vertex gets the lumped mass rho_e V_e / 4 of each incident
/// tetrahedron, and each material its own TetFemField over its tetrahedra (DeformableBody::fields).
/// @throws sinew::Error as above, and when tet_material has not one entry per tetrahedron or names
///         a material out of range.
DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh,
                                   const std::vector<RegionMaterial>& materials,
                                   const std::vector<Index>& tet_material);

}  // namespace sinew::scene
