/// @file
/// @brief Minimum memory traffic of the sparse kernels, to turn timings into GB/s and into a
/// fraction of the machine's bandwidth.
#pragma once

#include <cstddef>

#include "sinew/core/config.hpp"

namespace sinew {

/// Bytes y = A x (beta = 0) must move at least: values and column indices once, row pointers,
/// x once (perfect cache reuse) and y written once.
inline double csr_spmv_bytes(Index rows, Index cols, Index nnz) {
  return nnz * (sizeof(double) + sizeof(Index)) + (rows + 1.0) * sizeof(Index) + cols * sizeof(double) +
         rows * sizeof(double);
}

/// Bytes of a 3x3-block y = A x (beta = 0): 9 values and one index per block.
inline double bsr3_spmv_bytes(Index block_rows, Index block_cols, Index nnzb) {
  return nnzb * (9.0 * sizeof(double) + sizeof(Index)) + (block_rows + 1.0) * sizeof(Index) +
         3.0 * block_cols * sizeof(double) + 3.0 * block_rows * sizeof(double);
}

/// Bytes of the multi-vector Y = A X with 3 columns (beta = 0).
inline double spmv3_bytes(Index rows, Index cols, Index nnz) {
  return nnz * (sizeof(double) + sizeof(Index)) + (rows + 1.0) * sizeof(Index) + 3.0 * cols * sizeof(double) +
         3.0 * rows * sizeof(double);
}

}  // namespace sinew
