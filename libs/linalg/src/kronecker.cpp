#include "sinew/linalg/kronecker.hpp"

namespace sinew {

std::optional<CsrMatrix> kronecker3_factor(const CsrMatrix& A) {
  A.validate();
  if (A.rows % 3 != 0 || A.cols % 3 != 0) return std::nullopt;
  // Candidate A_s from the x rows (row 3i, columns 3j); everything else is then checked.
  CsrMatrix S;
  S.rows = A.rows / 3;
  S.cols = A.cols / 3;
  S.row_ptr.assign(static_cast<std::size_t>(S.rows) + 1, 0);
  for (Index i = 0; i < S.rows; ++i) {
    for (Index k = A.row_ptr[3 * i]; k < A.row_ptr[3 * i + 1]; ++k)
      if (A.values[k] != 0.0) {
        if (A.col_idx[k] % 3 != 0) return std::nullopt;  // x couples to y or z
        S.col_idx.push_back(A.col_idx[k] / 3);
        S.values.push_back(A.values[k]);
      }
    S.row_ptr[static_cast<std::size_t>(i) + 1] = S.nnz();
  }
  // Rows 3i + a must hold exactly A_s(i, :) on the columns 3j + a, and nothing else non-zero.
  for (Index i = 0; i < S.rows; ++i)
    for (Index a = 1; a < 3; ++a) {
      Index s = S.row_ptr[i];
      for (Index k = A.row_ptr[3 * i + a]; k < A.row_ptr[3 * i + a + 1]; ++k) {
        if (A.values[k] == 0.0) continue;
        if (s == S.row_ptr[i + 1] || A.col_idx[k] != 3 * S.col_idx[s] + a || A.values[k] != S.values[s])
          return std::nullopt;
        ++s;
      }
      if (s != S.row_ptr[i + 1]) return std::nullopt;
    }
  return S;
}

CsrMatrix kronecker3_expand(const CsrMatrix& scalar) {
  scalar.validate();
  CsrMatrix A;
  A.rows = 3 * scalar.rows;
  A.cols = 3 * scalar.cols;
  A.row_ptr.assign(static_cast<std::size_t>(A.rows) + 1, 0);
  A.col_idx.reserve(3 * scalar.col_idx.size());
  A.values.reserve(3 * scalar.values.size());
  for (Index i = 0; i < scalar.rows; ++i)
    for (Index a = 0; a < 3; ++a) {
      for (Index k = scalar.row_ptr[i]; k < scalar.row_ptr[i + 1]; ++k) {
        A.col_idx.push_back(3 * scalar.col_idx[k] + a);
        A.values.push_back(scalar.values[k]);
      }
      A.row_ptr[3 * static_cast<std::size_t>(i) + a + 1] = A.nnz();
    }
  return A;
}

}  // namespace sinew
