#include "sinew/scene/deformable_body.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::scene {

DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh, double density,
                                   MaterialModel material_model, const ElasticParameters& parameters) {
  return add_deformable_body(system, mesh, {RegionMaterial{density, material_model, parameters}},
                             std::vector<Index>(mesh.tets.size(), 0));
}

DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh,
                                   const std::vector<RegionMaterial>& materials,
                                   const std::vector<Index>& tet_material) {
  require(tet_material.size() == mesh.tets.size(), "deformable body: " + std::to_string(tet_material.size()) +
                                                       " tetrahedron materials for " +
                                                       std::to_string(mesh.tets.size()) + " tetrahedra");
  for (std::size_t k = 0; k < materials.size(); ++k)
    require(std::isfinite(materials[k].density) && materials[k].density > 0,
            "deformable body: density must be finite and > 0, got " + number_text(materials[k].density) +
                (materials.size() > 1 ? " (material " + std::to_string(k) + ")" : std::string()));
  // Rest data first: it checks every tetrahedron before anything is added to the system.
  std::vector<TetRest> rests;
  rests.reserve(mesh.tets.size());
  std::vector<double> mass(mesh.vertices.size(), 0.0);
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const auto& t = mesh.tets[e];
    const Index m = tet_material[e];
    require(m >= 0 && static_cast<std::size_t>(m) < materials.size(),
            "deformable body: tetrahedron " + std::to_string(e) + " has material " + std::to_string(m) +
                ", expected 0 <= material < " + std::to_string(materials.size()));
    double X[12];
    for (int a = 0; a < 4; ++a) {
      require(t[a] >= 0 && static_cast<std::size_t>(t[a]) < mesh.vertices.size(),
              "deformable body: tetrahedron " + std::to_string(e) + " has vertex index " + std::to_string(t[a]) +
                  ", expected 0 <= index < " + std::to_string(mesh.vertices.size()));
      for (int d = 0; d < 3; ++d) X[3 * a + d] = mesh.vertices[static_cast<std::size_t>(t[a])][d];
    }
    try {
      rests.push_back(make_tet_rest(X));
    } catch (const Error& err) {
      throw Error("deformable body: tetrahedron " + std::to_string(e) + ": " + err.what());
    }
    // Lumped mass rho_e V_e / 4 per vertex (model::add_lumped_masses per element).
    for (Index v : t)
      mass[static_cast<std::size_t>(v)] += materials[static_cast<std::size_t>(m)].density * rests.back().volume / 4.0;
  }
  for (std::size_t i = 0; i < mass.size(); ++i)
    require(mass[i] > 0, "deformable body: vertex " + std::to_string(i) + " belongs to no tetrahedron (zero mass)");
  DeformableBody body{system.num_particles(), static_cast<Index>(mesh.vertices.size()), nullptr, {}};
  for (const RegionMaterial& m : materials)
    body.fields.push_back(std::make_shared<model::TetFemField>(m.model, m.parameters));
  body.field = body.fields.empty() ? nullptr : body.fields[0];
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) system.add_particle(mass[i], mesh.vertices[i]);
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const auto& t = mesh.tets[e];
    body.fields[static_cast<std::size_t>(tet_material[e])]->add(
        {t[0] + body.first_particle, t[1] + body.first_particle, t[2] + body.first_particle,
         t[3] + body.first_particle},
        rests[e]);
  }
  for (const auto& field : body.fields)
    if (field->size() > 0) system.add_force_field(field);
  return body;
}

}  // namespace sinew::scene
