// Random inputs for kernel tests: sparse matrices with empty rows, vectors, 3x3 matrices.
#pragma once

#include <algorithm>
#include <cmath>
#include <random>
#include <vector>

#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::test {

/// rows x cols CSR with about @p density of entries per row (some rows empty), values in [-1, 1].
inline CsrMatrix random_csr(Index rows, Index cols, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), p(0.0, 1.0);
  CsrMatrix A;
  A.rows = rows;
  A.cols = cols;
  A.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (Index i = 0; i < rows; ++i) {
    if (p(rng) > 0.1)  // ~10% of rows stay empty
      for (Index j = 0; j < cols; ++j)
        if (p(rng) < density) {
          A.col_idx.push_back(j);
          A.values.push_back(u(rng));
        }
    A.row_ptr[static_cast<std::size_t>(i) + 1] = A.nnz();
  }
  return A;
}

/// rows x cols 3x3-block matrix with about @p density blocks per block row.
inline Bsr3Matrix random_bsr3(Index block_rows, Index block_cols, double density, std::uint64_t seed) {
  const CsrMatrix pattern = random_csr(block_rows, block_cols, density, seed);
  std::mt19937_64 rng(seed + 1);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Bsr3Matrix A;
  A.block_rows = block_rows;
  A.block_cols = block_cols;
  A.row_ptr = pattern.row_ptr;
  A.col_idx = pattern.col_idx;
  A.values.resize(9 * pattern.col_idx.size());
  for (double& v : A.values) v = u(rng);
  return A;
}

/// n values uniform in [lo, hi].
inline std::vector<double> random_vector(std::size_t n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  std::vector<double> v(n);
  for (double& x : v) x = u(rng);
  return v;
}

}  // namespace sinew::test

namespace sinew::test {

/// n x n symmetric positive-definite CSR: random symmetric off-diagonal pattern of about
/// @p density per row, values in [-1, 1], diagonal = 1 + the row's absolute off-diagonal sum.
inline CsrMatrix random_spd(Index n, double density, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), p(0.0, 1.0);
  std::vector<std::vector<std::pair<Index, double>>> rows(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < i; ++j)
      if (p(rng) < density) {
        const double v = u(rng);
        rows[i].push_back({j, v});
        rows[j].push_back({i, v});
      }
  CsrMatrix A;
  A.rows = A.cols = n;
  A.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index i = 0; i < n; ++i) {
    double diag = 1.0;
    for (auto& e : rows[i]) diag += std::fabs(e.second);
    rows[i].push_back({i, diag});
    std::sort(rows[i].begin(), rows[i].end());
    for (auto& e : rows[i]) {
      A.col_idx.push_back(e.first);
      A.values.push_back(e.second);
    }
    A.row_ptr[static_cast<std::size_t>(i) + 1] = A.nnz();
  }
  return A;
}

}  // namespace sinew::test
