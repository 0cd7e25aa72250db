/// @file
/// @brief A collision surface embedded in a tetrahedral mesh: points mapped barycentrically into
/// the tets (compliant-constraints' mapped states; model::MappedPoints), so that a surface finer
/// than the FEM mesh (or one that is not its boundary) carries the contact of an FEM body.
#pragma once

#include <vector>

#include "sinew/model/mapping.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// Each of @p points as a barycentric point of the tet of @p mesh that contains it (on a shared
/// face, the first such tet), over the particles of the mesh's vertices, vertex 0 being particle
/// @p first_particle (as scene::add_deformable_body() adds them). A setup step: every point is
/// tried against every tet (O(points x tets)).
/// @throws sinew::Error naming the point when no tet contains it (within 1e-9 in barycentric
///         coordinates).
std::vector<model::MappedPoint> embed_points(const TetMesh& mesh, Index first_particle,
                                             const std::vector<Vec3>& points);

/// @p mesh with every triangle split into four at its edges' midpoints (shared edges share their
/// midpoint): a finer surface on the same shape.
TriangleMesh refine_triangles(const TriangleMesh& mesh);

}  // namespace sinew::scene
