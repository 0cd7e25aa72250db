/// @file
/// @brief Generated FEM-like test and benchmark matrices on a regular 3-D grid of vertices.
#pragma once

#include "sinew/linalg/csr_matrix.hpp"

namespace sinew {

/// Size of a generated grid matrix: nx x ny x nz vertices.
struct GridSize {
  Index nx = 10;  ///< vertices along x
  Index ny = 10;  ///< vertices along y
  Index nz = 10;  ///< vertices along z

  /// Number of vertices nx ny nz.
  Index vertices() const { return nx * ny * nz; }
};

/// Symmetric positive-definite 3x3-block matrix M + K of a vertex grid where every vertex is
/// coupled to its up-to-26 neighbours (the 27-point pattern of trilinear hexahedral FEM): K is
/// the stiffness of axial springs along each coupling (blocks w (d d^T + I/10) for the unit
/// direction d) and M = I a lumped mass. Columns come out sorted. Size 3V x 3V, V = vertices().
/// Throws sinew::Error when a dimension is < 1 or the entries overflow 32-bit indices.
Bsr3Matrix fem_grid_matrix(const GridSize& size);

/// The scalar counterpart (one row per vertex): graph Laplacian of the same 27-point coupling
/// plus the identity, so that fem_grid_scalar_matrix (x) I_3 is a per-vertex system. V x V;
/// throws as fem_grid_matrix.
CsrMatrix fem_grid_scalar_matrix(const GridSize& size);

/// A square cloth: an nx x ny grid of vertices, each quad split into two triangles.
struct ClothGrid {
  Index nx = 71;            ///< vertices along x (71 x 72 = 5112, the paper's 5.1k-vertex cloth)
  Index ny = 72;            ///< vertices along y
  double mass = 1e-3;       ///< lumped mass per vertex (kg)
  double stiffness = 1e3;   ///< weight w_i of each stretching edge (N/m)
  double time_step = 0.01;  ///< h (s), as in the paper's Table 3

  /// Number of vertices nx ny.
  Index vertices() const { return nx * ny; }
  /// Number of triangles 2 (nx - 1)(ny - 1).
  Index triangles() const { return 2 * (nx - 1) * (ny - 1); }
};

/// The scalar system matrix A_s = m I + h^2 w L of a cloth with stretching edges only (the
/// horizontal, vertical and one diagonal edge of every quad; L the edge-graph Laplacian), so
/// that the projective-dynamics matrix A = M + h^2 sum_i w_i G_i^T G_i (real-time hyperelastic
/// paper, eq. (6)) is A_s (x) I_3: the matrices of the paper's Table 1 (no bending). V x V,
/// V = cloth.vertices(). Throws sinew::Error for fewer than 2x2 vertices, mass or time_step <= 0
/// or stiffness < 0.
CsrMatrix cloth_stretch_matrix(const ClothGrid& cloth);

}  // namespace sinew
