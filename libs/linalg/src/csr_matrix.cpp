#include "sinew/linalg/csr_matrix.hpp"

#include <algorithm>
#include <string>

namespace sinew {

void CsrMatrix::validate() const {
  validate_csr_pattern(rows, cols, row_ptr, col_idx, "CsrMatrix");
  if (values.size() != col_idx.size())
    throw Error("CsrMatrix: " + std::to_string(values.size()) + " values for " + std::to_string(col_idx.size()) +
                " column indices");
}

void Bsr3Matrix::validate() const {
  validate_csr_pattern(block_rows, block_cols, row_ptr, col_idx, "Bsr3Matrix");
  if (values.size() != 9 * col_idx.size())
    throw Error("Bsr3Matrix: " + std::to_string(values.size()) + " values for " + std::to_string(col_idx.size()) +
                " blocks, expected 9 per block");
}

CsrMatrix to_csr(const Bsr3Matrix& A) {
  A.validate();
  CsrMatrix C;
  C.rows = 3 * A.block_rows;
  C.cols = 3 * A.block_cols;
  C.row_ptr.assign(static_cast<std::size_t>(C.rows) + 1, 0);
  C.col_idx.reserve(9 * A.col_idx.size());
  C.values.reserve(9 * A.col_idx.size());
  for (Index bi = 0; bi < A.block_rows; ++bi)
    for (int r = 0; r < 3; ++r) {
      for (Index k = A.row_ptr[bi]; k < A.row_ptr[bi + 1]; ++k)
        for (int c = 0; c < 3; ++c) {
          C.col_idx.push_back(3 * A.col_idx[k] + c);
          C.values.push_back(A.values[9 * static_cast<std::size_t>(k) + 3 * r + c]);
        }
      C.row_ptr[3 * static_cast<std::size_t>(bi) + r + 1] = static_cast<Index>(C.col_idx.size());
    }
  return C;
}

EigenCsr to_eigen(const CsrMatrix& A) {
  A.validate();
  EigenCsr E(A.rows, A.cols);
  E.reserve(A.nnz());
  for (Index i = 0; i < A.rows; ++i) {
    E.startVec(i);
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) E.insertBack(i, A.col_idx[k]) = A.values[k];
  }
  E.finalize();
  return E;
}

bool expand_symmetric_triangle(CsrMatrix& A) {
  if (A.rows != A.cols) return false;
  Index upper = 0, lower = 0;
  for (Index r = 0; r < A.rows; ++r)
    for (Index k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k) {
      upper += A.col_idx[k] > r;
      lower += A.col_idx[k] < r;
    }
  if ((upper > 0) == (lower > 0)) return false;  // both triangles stored, or diagonal only
  const EigenCsr T = to_eigen(A);
  EigenCsr strict = T.triangularView<Eigen::StrictlyUpper>();
  if (lower > 0) strict = T.triangularView<Eigen::StrictlyLower>();
  A = from_eigen(EigenCsr(T + EigenCsr(strict.transpose())));
  return true;
}

CsrMatrix from_eigen(const EigenCsr& A) {
  EigenCsr E = A;
  E.makeCompressed();
  CsrMatrix C;
  C.rows = static_cast<Index>(E.rows());
  C.cols = static_cast<Index>(E.cols());
  C.row_ptr.assign(E.outerIndexPtr(), E.outerIndexPtr() + E.rows() + 1);
  C.col_idx.assign(E.innerIndexPtr(), E.innerIndexPtr() + E.nonZeros());
  C.values.assign(E.valuePtr(), E.valuePtr() + E.nonZeros());
  C.validate();
  return C;
}

DeviceCsr to_device(Backend& backend, const CsrMatrix& A) {
  return upload_csr(backend, A.rows, A.cols, A.row_ptr, A.col_idx, A.values);
}

DeviceBsr3 to_device(Backend& backend, const Bsr3Matrix& A) {
  return upload_bsr3(backend, A.block_rows, A.block_cols, A.row_ptr, A.col_idx, A.values);
}

CsrMatrix to_host(Backend& backend, const DeviceCsr& A) {
  CsrMatrix C;
  C.rows = A.rows;
  C.cols = A.cols;
  C.row_ptr = backend.download(A.row_ptr);
  C.col_idx = backend.download(A.col_idx);
  C.values = backend.download(A.values);
  return C;
}

}  // namespace sinew
