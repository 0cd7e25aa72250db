/// @file
/// @brief Detection of per-vertex systems A = A_s (x) I_3 (x, y, z decoupled, DOFs interleaved
/// x0 y0 z0 x1 ...), so that only the scalar matrix A_s needs to be factored and inverted.
#pragma once

#include <optional>

#include "sinew/linalg/csr_matrix.hpp"

namespace sinew {

/// The scalar matrix A_s (n x n) when @p A (3n x 3n, interleaved DOFs) equals A_s (x) I_3
/// exactly (every 3x3 block a multiple of the identity; explicit zeros ignored); otherwise none.
std::optional<CsrMatrix> kronecker3_factor(const CsrMatrix& A);

/// A_s (x) I_3 with interleaved DOFs: entry (i, j) of @p scalar becomes the 3x3 block
/// scalar(i, j) I_3 at block (i, j).
CsrMatrix kronecker3_expand(const CsrMatrix& scalar);

}  // namespace sinew
