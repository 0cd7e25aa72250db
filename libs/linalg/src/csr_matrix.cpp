#include "sinew/linalg/csr_matrix.hpp"

#include <algorithm>
#include <string>
#include <utility>

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

void csr_diagonal(const CsrMatrix& A, Eigen::VectorXd& d) {
  d.setZero(A.rows);
  for (Index i = 0; i < A.rows; ++i) {
    const auto first = A.col_idx.begin() + A.row_ptr[i], last = A.col_idx.begin() + A.row_ptr[i + 1];
    const auto at = std::lower_bound(first, last, i);
    if (at != last && *at == i) d[i] = A.values[static_cast<std::size_t>(at - A.col_idx.begin())];
  }
}

void csr_multiply(const CsrMatrix& A, const Eigen::VectorXd& x, Eigen::VectorXd& y) {
  y.resize(A.rows);
  for (Index i = 0; i < A.rows; ++i) {
    double sum = 0.0;
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) sum += A.values[k] * x[A.col_idx[k]];
    y[i] = sum;
  }
}

void csr_from_triplets(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols,
                       bool transposed, CsrMatrix& out) {
  out.rows = rows;
  out.cols = cols;
  auto row_of = [transposed](const Eigen::Triplet<double, Index>& t) { return transposed ? t.col() : t.row(); };
  auto col_of = [transposed](const Eigen::Triplet<double, Index>& t) { return transposed ? t.row() : t.col(); };
  const std::size_t nnz = triplets.size();
  // Two stable counting sorts, by column then by row, leave each row's entries in column order
  // and repeated (row, column) pairs adjacent in triplet order. The first is skipped when the
  // triplets already come by column (a Jacobian's rows, appended in order, transposed into H).
  // The scratch is kept per thread.
  bool by_column_already = true;
  for (std::size_t k = 1; k < nnz && by_column_already; ++k)
    by_column_already = col_of(triplets[k - 1]) <= col_of(triplets[k]);
  thread_local std::vector<Index> by_column, start;
  if (!by_column_already) {
    start.assign(static_cast<std::size_t>(cols) + 1, 0);
    for (const auto& t : triplets) ++start[static_cast<std::size_t>(col_of(t)) + 1];
    for (Index c = 0; c < cols; ++c) start[c + 1] += start[c];
    by_column.resize(nnz);
    for (std::size_t k = 0; k < nnz; ++k) by_column[start[col_of(triplets[k])]++] = static_cast<Index>(k);
  }
  // Counts in row_ptr[r + 2], so that after the prefix sum row_ptr[r + 1] is the start of row r
  // and serves as its insertion cursor, ending as the start of row r + 1.
  out.row_ptr.assign(static_cast<std::size_t>(rows) + 2, 0);
  for (const auto& t : triplets) ++out.row_ptr[static_cast<std::size_t>(row_of(t)) + 2];
  for (Index i = 2; i <= rows + 1; ++i) out.row_ptr[i] += out.row_ptr[i - 1];
  out.col_idx.resize(nnz);
  out.values.resize(nnz);
  const auto place = [&](const Eigen::Triplet<double, Index>& t) {
    const Index at = out.row_ptr[static_cast<std::size_t>(row_of(t)) + 1]++;
    out.col_idx[at] = col_of(t);
    out.values[at] = t.value();
  };
  if (by_column_already)
    for (const auto& t : triplets) place(t);
  else
    for (Index k : by_column) place(triplets[static_cast<std::size_t>(k)]);
  out.row_ptr.resize(static_cast<std::size_t>(rows) + 1);
  // Repeated columns merged in order, compacting the storage in place.
  Index kept = 0;
  for (Index i = 0; i < rows; ++i) {
    const Index begin = out.row_ptr[i], end = out.row_ptr[i + 1];
    out.row_ptr[i] = kept;
    for (Index k = begin; k < end; ++k) {
      if (k > begin && out.col_idx[k] == out.col_idx[kept - 1]) {
        out.values[kept - 1] += out.values[k];
        continue;
      }
      out.col_idx[kept] = out.col_idx[k];
      out.values[kept] = out.values[k];
      ++kept;
    }
  }
  out.row_ptr[rows] = kept;
  out.col_idx.resize(kept);
  out.values.resize(kept);
}

bool TripletCsrPlan::same_pattern(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols,
                                  bool transposed) const {
  if (rows != rows_ || cols != cols_ || transposed != transposed_ || 2 * triplets.size() != keys_.size()) return false;
  // One pass without an exit per entry (the usual answer is yes, and this runs every step).
  Index differ = 0;
  for (std::size_t k = 0; k < triplets.size(); ++k)
    differ |= (triplets[k].row() ^ keys_[2 * k]) | (triplets[k].col() ^ keys_[2 * k + 1]);
  return differ == 0;
}

void TripletCsrPlan::assemble(const std::vector<Eigen::Triplet<double, Index>>& triplets, Index rows, Index cols,
                              bool transposed, CsrMatrix& out) {
  if (same_pattern(triplets, rows, cols, transposed)) {
    out.rows = rows;
    out.cols = cols;
    out.row_ptr = row_ptr_;
    out.col_idx = col_idx_;
    // 0 + first value is the first value exactly: the sums of csr_from_triplets, bit for bit.
    out.values.assign(col_idx_.size(), 0.0);
    for (std::size_t k = 0; k < triplets.size(); ++k)
      out.values[static_cast<std::size_t>(slot_[k])] += triplets[k].value();
    return;
  }
  csr_from_triplets(triplets, rows, cols, transposed, out);
  rows_ = rows;
  cols_ = cols;
  transposed_ = transposed;
  row_ptr_ = out.row_ptr;
  col_idx_ = out.col_idx;
  keys_.resize(2 * triplets.size());
  slot_.resize(triplets.size());
  for (std::size_t k = 0; k < triplets.size(); ++k) {
    const Index r = transposed ? triplets[k].col() : triplets[k].row();
    const Index c = transposed ? triplets[k].row() : triplets[k].col();
    keys_[2 * k] = triplets[k].row();
    keys_[2 * k + 1] = triplets[k].col();
    const auto begin = out.col_idx.begin() + out.row_ptr[r], end = out.col_idx.begin() + out.row_ptr[r + 1];
    slot_[k] = static_cast<Index>(std::lower_bound(begin, end, c) - out.col_idx.begin());
  }
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

void to_device(Backend& backend, const CsrMatrix& A, DeviceCsr& out) {
  A.validate();
  out.rows = A.rows;
  out.cols = A.cols;
  out.row_ptr.grow_to(backend, A.row_ptr.size());
  out.col_idx.grow_to(backend, A.col_idx.size());
  out.values.grow_to(backend, A.values.size());
  backend.upload(A.row_ptr.data(), A.row_ptr.size(), out.row_ptr);
  backend.upload(A.col_idx.data(), A.col_idx.size(), out.col_idx);
  backend.upload(A.values.data(), A.values.size(), out.values);
  out.transpose.reset();  // the pattern may have changed
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
