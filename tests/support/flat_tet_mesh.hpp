// scene::box_tet_mesh flattened into what LocalGlobalDescription takes: interleaved rest
// positions and 4 indices per tetrahedron (vertex (i, j, k) is i + (nx + 1) (j + (ny + 1) k)).
#pragma once

#include <vector>

#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::test {

/// Interleaved positions and flattened tets of a box mesh.
struct FlatTetMesh {
  std::vector<double> x;    ///< (3 n) rest positions
  std::vector<Index> tets;  ///< (4 n_tets) vertex indices
};

/// box_tet_mesh(lo, hi, nx, ny, nz), flattened.
inline FlatTetMesh flat_box_tet_mesh(const Vec3& lo, const Vec3& hi, int nx, int ny, int nz) {
  const scene::TetMesh m = scene::box_tet_mesh(lo, hi, nx, ny, nz);
  FlatTetMesh f{scene::interleaved(m.vertices), {}};
  for (const auto& t : m.tets) f.tets.insert(f.tets.end(), t.begin(), t.end());
  return f;
}

}  // namespace sinew::test
