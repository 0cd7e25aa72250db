// Checks shared by the tetrahedral mesh readers. Private to the scene library.
#pragma once

#include <string>
#include <vector>

#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene::detail {

// Throws sinew::Error "FILE:WHERE: tetrahedron e ..." for the first zero-volume or inverted
// tetrahedron of @p mesh (indices already checked); where[e] is element e's line or offset.
void check_tets(const TetMesh& mesh, const std::string& file, const std::vector<std::string>& where);

}  // namespace sinew::scene::detail
