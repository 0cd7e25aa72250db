/// @file
/// @brief Per-row and per-block math of the Backend kernels, written once as SINEW_HD functions:
/// every backend is only the loop around them.
#pragma once

#include <cstddef>

#include "sinew/core/config.hpp"
#include "sinew/core/device_sparse.hpp"

namespace sinew {

/// Entries per block of a blocked reduction. Fixed (not derived from the thread count) so that
/// sums come out bit-identical for any number of threads.
constexpr std::size_t kReduceBlock = 4096;

/// Number of blocks of a blocked reduction over n entries.
SINEW_HD std::size_t reduce_blocks(std::size_t n) { return (n + kReduceBlock - 1) / kReduceBlock; }

/// alpha s + beta y, except that beta = 0 ignores y (BLAS convention: NaN in y does not leak).
SINEW_HD double blend(double alpha, double s, double beta, double y) {
  return beta == 0.0 ? alpha * s : alpha * s + beta * y;
}

/// Partial sum of x_i y_i over block b of a blocked reduction of length n.
SINEW_HD double dot_block(const double* x, const double* y, std::size_t n, std::size_t b) {
  const std::size_t begin = b * kReduceBlock, end = begin + kReduceBlock < n ? begin + kReduceBlock : n;
  double s = 0.0;
  for (std::size_t i = begin; i < end; ++i) s += x[i] * y[i];
  return s;
}

/// Row i of A times x: sum_k A_ik x_k.
SINEW_HD double csr_row_dot(const CsrRef& A, const double* x, Index i) {
  double s = 0.0;
  for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) s += A.values[k] * x[A.col_idx[k]];
  return s;
}

/// Row j of A^T times x, gathering A's values through the transpose pattern (t_ptr, t_row, t_src).
SINEW_HD double csr_gather_row_dot(const Index* t_ptr, const Index* t_row, const Index* t_src, const double* values,
                                   const double* x, Index j) {
  double s = 0.0;
  for (Index k = t_ptr[j]; k < t_ptr[j + 1]; ++k) s += values[t_src[k]] * x[t_row[k]];
  return s;
}

/// Block row i of a 3x3-block matrix times x: out = sum_k B_ik x_k (B_ik row-major).
SINEW_HD void bsr3_row_product(const Index* row_ptr, const Index* col_idx, const double* values, const double* x,
                               Index i, double out[3]) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;
  for (Index k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
    const double* b = values + 9 * static_cast<std::size_t>(k);
    const double* xk = x + 3 * static_cast<std::size_t>(col_idx[k]);
    s0 += b[0] * xk[0] + b[1] * xk[1] + b[2] * xk[2];
    s1 += b[3] * xk[0] + b[4] * xk[1] + b[5] * xk[2];
    s2 += b[6] * xk[0] + b[7] * xk[1] + b[8] * xk[2];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
}

/// Row i of A times the n x 3 row-major X: out_c = sum_k A_ik X_kc for c = 0, 1, 2.
SINEW_HD void csr_row_dot3(const CsrRef& A, const double* X, Index i, double out[3]) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;
  for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
    const double a = A.values[k];
    const double* xk = X + 3 * static_cast<std::size_t>(A.col_idx[k]);
    s0 += a * xk[0];
    s1 += a * xk[1];
    s2 += a * xk[2];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
}

/// Row j of A^T times the n x 3 row-major X, gathering A's values through the transpose pattern.
SINEW_HD void csr_gather_row_dot3(const Index* t_ptr, const Index* t_row, const Index* t_src, const double* values,
                                  const double* X, Index j, double out[3]) {
  double s0 = 0.0, s1 = 0.0, s2 = 0.0;
  for (Index k = t_ptr[j]; k < t_ptr[j + 1]; ++k) {
    const double a = values[t_src[k]];
    const double* xk = X + 3 * static_cast<std::size_t>(t_row[k]);
    s0 += a * xk[0];
    s1 += a * xk[1];
    s2 += a * xk[2];
  }
  out[0] = s0;
  out[1] = s1;
  out[2] = s2;
}

/// Row i of C = A B into C's precomputed sorted pattern (c_ptr, c_col): zero the row, then add
/// A_ik B_kj in the order of A's and B's rows (a fixed order, so results are deterministic).
SINEW_HD void spgemm_row(const CsrRef& A, const CsrRef& B, const Index* c_ptr, const Index* c_col, double* c_val,
                         Index i) {
  const Index begin = c_ptr[i], end = c_ptr[i + 1];
  for (Index p = begin; p < end; ++p) c_val[p] = 0.0;
  for (Index ka = A.row_ptr[i]; ka < A.row_ptr[i + 1]; ++ka) {
    const double a = A.values[ka];
    const Index k = A.col_idx[ka];
    for (Index kb = B.row_ptr[k]; kb < B.row_ptr[k + 1]; ++kb) {
      const Index j = B.col_idx[kb];
      Index lo = begin, hi = end;  // binary search for j in C's sorted row
      while (hi - lo > 1) {
        const Index mid = lo + (hi - lo) / 2;
        if (c_col[mid] <= j)
          lo = mid;
        else
          hi = mid;
      }
      c_val[lo] += a * B.values[kb];
    }
  }
}

}  // namespace sinew
