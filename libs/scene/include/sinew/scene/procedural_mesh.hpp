/// @file
/// @brief Procedural meshes for built-in scenes, tests and benchmarks: a box of conforming
/// tetrahedra and a rectangle of triangles, with positively oriented elements.
#pragma once

#include <array>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::scene {

/// A tetrahedral mesh: vertices and positively oriented tets (det[x1-x0, x2-x0, x3-x0] > 0).
struct TetMesh {
  std::vector<Vec3> vertices;              ///< rest positions
  std::vector<std::array<Index, 4>> tets;  ///< vertex indices per tetrahedron
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

/// The rectangle [lo, hi] x {z} split into nx x ny cells of 2 triangles each.
/// Vertex (i, j) has index i + (nx + 1) j.
/// @throws sinew::Error when a cell count is < 1 or the rectangle is empty.
TriangleMesh rectangle_triangle_mesh(double x0, double y0, double x1, double y1, double z, int nx, int ny);

/// The mesh's vertices as an interleaved x0 y0 z0 x1 ... vector.
std::vector<double> interleaved(const std::vector<Vec3>& vertices);

}  // namespace sinew::scene
