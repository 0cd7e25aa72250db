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
/// direction d) and M = I a lumped mass. Columns come out sorted.
Bsr3Matrix fem_grid_matrix(const GridSize& size);

/// The scalar counterpart (one row per vertex): graph Laplacian of the same 27-point coupling
/// plus the identity, so that fem_grid_scalar_matrix (x) I_3 is a per-vertex system.
CsrMatrix fem_grid_scalar_matrix(const GridSize& size);

}  // namespace sinew
