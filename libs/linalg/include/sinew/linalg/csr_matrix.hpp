/// @file
/// @brief Host-side sparse matrices in CSR and 3x3-block CSR form, their checks, conversions
/// (to and from Eigen, to and from a backend) and the block-to-scalar expansion.
#pragma once

#include <Eigen/SparseCore>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// Eigen's row-major sparse matrix with sinew's index type: the interop type of CsrMatrix.
using EigenCsr = Eigen::SparseMatrix<double, Eigen::RowMajor, Index>;

/// A CSR matrix in host memory with sorted, duplicate-free columns per row.
struct CsrMatrix {
  Index rows = 0;                 ///< number of rows
  Index cols = 0;                 ///< number of columns
  std::vector<Index> row_ptr{0};  ///< (rows + 1) offsets, row_ptr[0] = 0
  std::vector<Index> col_idx;     ///< (nnz) columns, strictly increasing per row
  std::vector<double> values;     ///< (nnz) entries

  /// Number of stored entries.
  Index nnz() const { return static_cast<Index>(col_idx.size()); }
  /// Throws sinew::Error naming the first broken invariant (see sinew::validate_csr_pattern).
  void validate() const;
};

/// A 3x3-block CSR matrix in host memory (per-vertex 3-D systems).
struct Bsr3Matrix {
  Index block_rows = 0;           ///< number of block rows
  Index block_cols = 0;           ///< number of block columns
  std::vector<Index> row_ptr{0};  ///< (block_rows + 1) offsets
  std::vector<Index> col_idx;     ///< (nnzb) block columns, strictly increasing per block row
  std::vector<double> values;     ///< (9 nnzb) blocks, each 3x3 row-major

  /// Number of stored blocks.
  Index nnzb() const { return static_cast<Index>(col_idx.size()); }
  /// Throws sinew::Error naming the first broken invariant.
  void validate() const;
};

/// The scalar CSR matrix (3 block_rows x 3 block_cols) with the same entries as @p A, keeping
/// every entry of every stored block (explicit zeros included).
CsrMatrix to_csr(const Bsr3Matrix& A);

/// Copies @p A to Eigen's row-major sparse format.
EigenCsr to_eigen(const CsrMatrix& A);
/// Copies an Eigen sparse matrix (compressed or not, any storage order); explicit zeros kept.
CsrMatrix from_eigen(const EigenCsr& A);

/// Position in @p A's storage of entry (i, j) (binary search in row @p i, whose columns are
/// sorted), or -1 when it is not stored.
Index find_entry(const CsrMatrix& A, Index i, Index j);

/// Mirrors square @p A in place when it stores one triangle of a symmetric matrix (every
/// off-diagonal entry on the same side of the diagonal, at least one) and returns whether it
/// did. Problem files often keep a symmetric M as its upper triangle (LMGC90's FCLIB files).
bool expand_symmetric_triangle(CsrMatrix& A);

/// Uploads @p A to @p backend; throws sinew::Error when A fails CsrMatrix::validate().
DeviceCsr to_device(Backend& backend, const CsrMatrix& A);
/// Uploads @p A to @p backend; throws sinew::Error when A fails Bsr3Matrix::validate().
DeviceBsr3 to_device(Backend& backend, const Bsr3Matrix& A);
/// Downloads a backend matrix into host memory.
CsrMatrix to_host(Backend& backend, const DeviceCsr& A);

}  // namespace sinew
