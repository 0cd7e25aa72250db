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

/// The (rows x cols) CSR matrix of @p triplets into @p out, whose storage is reused: entries
/// bucketed by row in triplet order, sorted by column stably, repeated (row, column) pairs summed
/// in triplet order, explicit zeros kept (the sums of Eigen's setFromTriplets, without its
/// temporaries). With @p transposed, the matrix of the triplets with rows and columns swapped
/// (H = J^T from J's triplets); rows and cols are then those of the result. Triplets must lie
/// inside the matrix (unchecked).
void csr_from_triplets(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols,
                       bool transposed, CsrMatrix& out);

/// csr_from_triplets() that keeps the pattern of its last analysis: while the triplets come with
/// the same (row, column) sequence and shape (a constraint Jacobian whose structure holds from
/// step to step), a call only adds the values into their kept entries, in the same order and so
/// with the same bits. Any other sequence is analysed afresh.
class TripletCsrPlan {
 public:
  /// csr_from_triplets(@p triplets, @p rows, @p cols, @p transposed, @p out).
  void assemble(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols, bool transposed,
                CsrMatrix& out);

 private:
  bool same_pattern(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols,
                    bool transposed) const;
  Index rows_ = -1, cols_ = -1;
  bool transposed_ = false;
  std::vector<Index> keys_;  // (2 nnz) row and column of each triplet at the analysis
  std::vector<Index> slot_;  // (nnz) entry of the result each triplet adds to
  std::vector<Index> row_ptr_, col_idx_;
};

/// Copies @p A to Eigen's row-major sparse format.
EigenCsr to_eigen(const CsrMatrix& A);

/// The diagonal of square @p A (columns sorted) into @p d, whose storage is reused: 0 where no
/// diagonal entry is stored.
void csr_diagonal(const CsrMatrix& A, Eigen::VectorXd& d);

/// y = @p A x on the host into @p y, whose storage is reused: each row summed in column order
/// (the same bits as the serial backend's spmv), for small per-step products that should not
/// allocate or go through a backend.
void csr_multiply(const CsrMatrix& A, const Eigen::VectorXd& x, Eigen::VectorXd& y);

/// A read-only Eigen view of a CsrMatrix's arrays: Eigen's sparse products without a copy.
using EigenCsrView = Eigen::Map<const EigenCsr>;
/// Views valid @p A (unchecked: validate it first) as Eigen's row-major sparse matrix, without
/// copying; the view is valid while A's arrays are unchanged.
inline EigenCsrView as_eigen(const CsrMatrix& A) {
  return EigenCsrView(A.rows, A.cols, A.nnz(), A.row_ptr.data(), A.col_idx.data(), A.values.data());
}
/// Copies an Eigen sparse matrix (compressed or not, any storage order); explicit zeros kept.
CsrMatrix from_eigen(const EigenCsr& A);

/// Walks the off-diagonal mirror pairs {(i, j), (j, i)}, i > j, of square @p A (columns sorted)
/// in O(nnz) with a cursor per row instead of a search per entry: calls
/// visit(i, j, lower, upper) once per pair with either entry stored, lower and upper the storage
/// positions of (i, j) and (j, i) or -1 where that entry is not stored. @p cursor is scratch.
template <class Visit>
void for_each_mirror_pair(const CsrMatrix& A, std::vector<Index>& cursor, Visit&& visit) {
  // Rows are walked in increasing order, so the lower entries (i, j) of column j arrive with i
  // increasing: exactly the order of row j's upper entries (j, i), which the cursor consumes.
  cursor.resize(static_cast<std::size_t>(A.rows));
  for (Index r = 0; r < A.rows; ++r) {
    Index k = A.row_ptr[r];
    while (k < A.row_ptr[r + 1] && A.col_idx[k] <= r) ++k;
    cursor[static_cast<std::size_t>(r)] = k;
  }
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1] && A.col_idx[k] < i; ++k) {
      const Index j = A.col_idx[k], end = A.row_ptr[j + 1];
      Index& c = cursor[static_cast<std::size_t>(j)];
      for (; c < end && A.col_idx[c] < i; ++c) visit(A.col_idx[c], j, Index{-1}, c);  // their mirrors were passed
      if (c < end && A.col_idx[c] == i)
        visit(i, j, k, c++);
      else
        visit(i, j, k, Index{-1});
    }
  for (Index j = 0; j < A.rows; ++j)
    for (Index c = cursor[static_cast<std::size_t>(j)]; c < A.row_ptr[j + 1]; ++c) visit(A.col_idx[c], j, Index{-1}, c);
}

/// Mirrors square @p A in place when it stores one triangle of a symmetric matrix (every
/// off-diagonal entry on the same side of the diagonal, at least one) and returns whether it
/// did. Problem files often keep a symmetric M as its upper triangle (LMGC90's FCLIB files).
bool expand_symmetric_triangle(CsrMatrix& A);

/// Uploads @p A to @p backend; throws sinew::Error when A fails CsrMatrix::validate().
DeviceCsr to_device(Backend& backend, const CsrMatrix& A);
/// Uploads @p A into @p out, whose arrays only grow (DeviceArray::grow_to()): a matrix uploaded
/// every step with a changing size allocates only when it outgrows them. Its transposed pattern
/// is dropped. Throws sinew::Error when A fails CsrMatrix::validate().
void to_device(Backend& backend, const CsrMatrix& A, DeviceCsr& out);
/// Uploads @p A to @p backend; throws sinew::Error when A fails Bsr3Matrix::validate().
DeviceBsr3 to_device(Backend& backend, const Bsr3Matrix& A);
/// Downloads a backend matrix into host memory.
CsrMatrix to_host(Backend& backend, const DeviceCsr& A);

}  // namespace sinew
