/// @file
/// @brief Sparse matrices in a backend's memory: CSR, 3x3-block CSR (BSR), and the raw views
/// that SINEW_HD row kernels take.
#pragma once

#include <memory>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/device_array.hpp"

namespace sinew {

/// Raw pointers to a CSR matrix, as passed to per-row SINEW_HD kernels.
struct CsrRef {
  Index rows = 0;                  ///< number of rows
  Index cols = 0;                  ///< number of columns
  Index nnz = 0;                   ///< number of stored entries
  const Index* row_ptr = nullptr;  ///< (rows + 1) offsets into col_idx / values
  const Index* col_idx = nullptr;  ///< (nnz) column of each entry, strictly increasing per row
  const double* values = nullptr;  ///< (nnz) entry values
};

/// Pattern of A^T stored as a gather map into A's values, so that A^T x is a row-wise (hence
/// deterministic, race-free) product that follows later changes of A's values.
struct CsrTransposePattern {
  DeviceArray<Index> row_ptr;  ///< (cols(A) + 1) offsets
  DeviceArray<Index> col_idx;  ///< (nnz) row of A of each entry of A^T
  DeviceArray<Index> source;   ///< (nnz) index into A.values of each entry of A^T
};

/// A CSR matrix in a backend's memory. The pattern is fixed once built; values may change.
struct DeviceCsr {
  Index rows = 0;              ///< number of rows
  Index cols = 0;              ///< number of columns
  DeviceArray<Index> row_ptr;  ///< (rows + 1) offsets into col_idx / values, row_ptr[0] = 0
  DeviceArray<Index> col_idx;  ///< (nnz) column of each entry, strictly increasing per row
  DeviceArray<double> values;  ///< (nnz) entry values

  /// Number of stored entries.
  Index nnz() const { return static_cast<Index>(col_idx.size()); }
  /// Raw view for kernels.
  CsrRef ref() const { return CsrRef{rows, cols, nnz(), row_ptr.data(), col_idx.data(), values.data()}; }

  /// A^T's pattern, built by Backend::spmv on the first transposed product (not thread-safe
  /// on that first call) and kept while the pattern lives.
  mutable std::shared_ptr<CsrTransposePattern> transpose;
};

/// A square-block sparse matrix with 3x3 blocks (BSR) in a backend's memory: the natural layout
/// of per-vertex 3-D systems (stiffness, mass, system matrices).
struct DeviceBsr3 {
  Index block_rows = 0;        ///< number of block rows (scalar rows / 3)
  Index block_cols = 0;        ///< number of block columns (scalar columns / 3)
  DeviceArray<Index> row_ptr;  ///< (block_rows + 1) offsets into col_idx
  DeviceArray<Index> col_idx;  ///< (nnzb) block column of each block, strictly increasing per row
  DeviceArray<double> values;  ///< (9 nnzb) blocks, each 3x3 row-major

  /// Number of stored blocks.
  Index nnzb() const { return static_cast<Index>(col_idx.size()); }
};

/// Checks a host CSR pattern (row_ptr starts at 0, never decreases and ends at nnz; columns in
/// [0, cols) and strictly increasing per row); throws sinew::Error naming @p what and the
/// first offending row.
void validate_csr_pattern(Index rows, Index cols, const std::vector<Index>& row_ptr, const std::vector<Index>& col_idx,
                          const char* what);

/// Uploads a host CSR matrix after validate_csr_pattern(); values.size() must equal nnz.
/// Throws sinew::Error when the pattern is invalid or the value count differs.
DeviceCsr upload_csr(Backend& backend, Index rows, Index cols, const std::vector<Index>& row_ptr,
                     const std::vector<Index>& col_idx, const std::vector<double>& values);

/// Uploads a host 3x3-block matrix after validating its block pattern; values.size() = 9 nnzb.
/// Throws sinew::Error when the pattern is invalid or the value count differs.
DeviceBsr3 upload_bsr3(Backend& backend, Index block_rows, Index block_cols, const std::vector<Index>& row_ptr,
                       const std::vector<Index>& col_idx, const std::vector<double>& values);

}  // namespace sinew
