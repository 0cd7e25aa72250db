#include "sinew/materials/device_tet_mesh.hpp"

#include <string>

#include "sinew/core/error.hpp"

namespace sinew {

DeviceTetMesh::DeviceTetMesh(Backend& backend, const std::vector<Index>& tets, const std::vector<TetRest>& rests,
                             Index n_vertices)
    : backend_(&backend), n_vertices_(n_vertices) {
  require(n_vertices >= 0, "DeviceTetMesh: vertex count must be >= 0, got " + std::to_string(n_vertices));
  require(tets.size() == 4 * rests.size(), "DeviceTetMesh: tets must have 4 indices per rest element, got " +
                                               std::to_string(tets.size()) + " indices for " +
                                               std::to_string(rests.size()) + " rest elements");
  for (std::size_t k = 0; k < tets.size(); ++k)
    require(tets[k] >= 0 && tets[k] < n_vertices, "DeviceTetMesh: tetrahedron " + std::to_string(k / 4) +
                                                      " has vertex index " + std::to_string(tets[k]) +
                                                      ", expected 0 <= index < " + std::to_string(n_vertices));
  tets_ = backend.upload(tets);
  rests_ = backend.upload(rests);
}

}  // namespace sinew
