#include "sinew/scene/deformable_body.hpp"

#include <cmath>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/model/lumped_mass.hpp"

namespace sinew::scene {

DeformableBody add_deformable_body(model::MechanicalSystem& system, const TetMesh& mesh, double density,
                                   MaterialModel material_model, const ElasticParameters& parameters) {
  require(std::isfinite(density) && density > 0,
          "deformable body: density must be finite and > 0, got " + number_text(density));
  // Rest data first: it checks every tetrahedron before anything is added to the system.
  std::vector<TetRest> rests;
  rests.reserve(mesh.tets.size());
  std::vector<double> volumes;
  volumes.reserve(mesh.tets.size());
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const auto& t = mesh.tets[e];
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
    volumes.push_back(rests.back().volume);
  }
  std::vector<double> mass(mesh.vertices.size(), 0.0);
  model::add_lumped_masses(density, volumes, mesh.tets, mass);
  for (std::size_t i = 0; i < mass.size(); ++i)
    require(mass[i] > 0, "deformable body: vertex " + std::to_string(i) + " belongs to no tetrahedron (zero mass)");
  auto field = std::make_shared<model::TetFemField>(material_model, parameters);
  DeformableBody body{system.num_particles(), static_cast<Index>(mesh.vertices.size()), field};
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) system.add_particle(mass[i], mesh.vertices[i]);
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const auto& t = mesh.tets[e];
    field->add({t[0] + body.first_particle, t[1] + body.first_particle, t[2] + body.first_particle,
                t[3] + body.first_particle},
               rests[e]);
  }
  system.add_force_field(field);
  return body;
}

}  // namespace sinew::scene
