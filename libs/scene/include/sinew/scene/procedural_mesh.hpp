/// @file
/// @brief Procedural meshes for built-in scenes, tests and benchmarks (no data files): a box and a
/// ball of conforming tetrahedra, a rectangle of triangles, all positively oriented, and the
/// boundary surface of a tetrahedral mesh.
#pragma once

#include <array>
#include <map>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::scene {

/// A tetrahedral mesh: vertices and positively oriented tets (det[x1-x0, x2-x0, x3-x0] > 0).
struct TetMesh {
  std::vector<Vec3> vertices;              ///< rest positions
  std::vector<std::array<Index, 4>> tets;  ///< vertex indices per tetrahedron
  /// (tets) region of each tetrahedron: its Gmsh physical group (else its volume entity), its
  /// TetGen region attribute; empty when the mesh has one region (procedural meshes).
  std::vector<int> regions;
  /// Names of regions where the file gives them (Gmsh $PhysicalNames of volumes): name -> region.
  std::map<std::string, int> region_names;
};

/// A triangle mesh: vertices and counter-clockwise triangles (normals along +z for box_triangles).
struct TriangleMesh {
  std::vector<Vec3> vertices;                   ///< rest positions
  std::vector<std::array<Index, 3>> triangles;  ///< vertex indices per triangle
};

/// The box [lo, hi] split into nx x ny x nz cells of 6 tetrahedra each (Kuhn / Freudenthal split
/// along each cell's main diagonal, so neighbouring cells share faces: a conforming mesh).
/// Vertex (i, j, k) has index i + (nx + 1) (j + (ny + 1) k).
/// @throws sinew::Error when a cell count is < 1 or the box is empty (hi <= lo in a coordinate).
TetMesh box_tet_mesh(const Vec3& lo, const Vec3& hi, int nx, int ny, int nz);

/// The ball of @p radius around @p center: the cube [-1, 1]^3 with n cells per side split as in
/// box_tet_mesh but with each cell's diagonal mirrored to point away from the centre (so no tet
/// has all four vertices on the surface), each vertex p moved to center + radius p ||p||_inf / ||p||_2. The map sends
/// the cube's surface onto the sphere and is orientation-preserving (its Jacobian determinant is
/// (||p||_inf / ||p||_2)^3 > 0, the factor being homogeneous of degree 0), so the mesh stays
/// conforming and positively oriented; elements near the cube's corners are the flattest.
/// (n + 1)^3 vertices, 6 n^3 tets; the volume tends to 4/3 pi r^3 at second order in 1/n.
/// @throws sinew::Error when n < 1 or radius is not finite and positive.
TetMesh ball_tet_mesh(const Vec3& center, double radius, int n);

/// The boundary faces of @p mesh (faces of exactly one tet), oriented with outward normals and
/// listed in a deterministic order (by owning tet, then face). The triangles index @p mesh's
/// vertices; interior vertices are kept (unreferenced), so per-vertex data stays aligned.
/// @throws sinew::Error when a face is shared by more than two tets (not a manifold tet mesh).
TriangleMesh boundary_triangles(const TetMesh& mesh);

/// The rectangle [lo, hi] x {z} split into nx x ny cells of 2 triangles each.
/// Vertex (i, j) has index i + (nx + 1) j.
/// @throws sinew::Error when a cell count is < 1 or the rectangle is empty.
TriangleMesh rectangle_triangle_mesh(double x0, double y0, double x1, double y1, double z, int nx, int ny);

/// The mesh's vertices as an interleaved x0 y0 z0 x1 ... vector.
std::vector<double> interleaved(const std::vector<Vec3>& vertices);

}  // namespace sinew::scene
