#include "sinew/linalg/block_diagonal_solver.hpp"

#include <algorithm>
#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {

namespace {

// Walks the smallest diagonal blocks of A, calling block_end(end) as each closes; returns false
// (early) when A is not square or not block diagonal with blocks of at most max_block rows.
template <class BlockEnd>
bool walk_diagonal_blocks(const CsrMatrix& A, Index max_block, BlockEnd&& block_end) {
  if (A.rows != A.cols) return false;
  Index begin = 0, end = 0;  // the open block [begin, end): end grows with the columns its rows reach
  for (Index i = 0; i < A.rows; ++i) {
    end = std::max(end, i + 1);
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
      const Index j = A.col_idx[k];
      if (j < begin) return false;  // reaches back into a closed block: not block diagonal
      end = std::max(end, j + 1);
    }
    if (end - begin > max_block) return false;
    if (i + 1 == end) {
      block_end(end);
      begin = end;
    }
  }
  return true;
}

}  // namespace

void diagonal_blocks(const CsrMatrix& A, Index max_block, std::vector<Index>& starts) {
  starts.assign(1, 0);
  if (!walk_diagonal_blocks(A, max_block, [&](Index end) { starts.push_back(end); })) starts.clear();
}

std::vector<Index> diagonal_blocks(const CsrMatrix& A, Index max_block) {
  std::vector<Index> starts;
  diagonal_blocks(A, max_block, starts);
  return starts;
}

bool is_block_diagonal(const CsrMatrix& A, Index max_block) {
  return walk_diagonal_blocks(A, max_block, [](Index) {});
}

BlockDiagonalSolver::BlockDiagonalSolver(Index max_block) : max_block_(max_block) {
  require(max_block >= 1,
          [&] { return "BlockDiagonalSolver: max_block must be >= 1, got " + std::to_string(max_block); });
}

void BlockDiagonalSolver::do_analyze(const CsrMatrix& A) {
  diagonal_blocks(A, max_block_, starts_);  // into kept storage
  require(!starts_.empty() || A.rows == 0, [&] {
    return name() + ": the matrix is not block diagonal with blocks of at most " + std::to_string(max_block_) +
           " rows (a force field or a mass couples its components): use a sparse solver";
  });
  offsets_.assign(1, 0);
  for (std::size_t b = 0; b + 1 < starts_.size(); ++b) {
    const Index k = starts_[b + 1] - starts_[b];
    offsets_.push_back(offsets_.back() + k * k);
  }
  factor_.assign(static_cast<std::size_t>(offsets_.back()), 0.0);
}

void BlockDiagonalSolver::do_factorize(const CsrMatrix& A) {
  std::fill(factor_.begin(), factor_.end(), 0.0);
  for (std::size_t b = 0; b + 1 < starts_.size(); ++b) {
    const Index s = starts_[b], k = starts_[b + 1] - s;
    double* L = factor_.data() + offsets_[b];
    for (Index i = s; i < s + k; ++i)  // the lower triangle of the block, row-major
      for (Index p = A.row_ptr[i]; p < A.row_ptr[i + 1]; ++p)
        if (A.col_idx[p] <= i) L[(i - s) * k + (A.col_idx[p] - s)] = A.values[p];
    for (Index j = 0; j < k; ++j) {
      double d = L[j * k + j];
      for (Index p = 0; p < j; ++p) d -= L[j * k + p] * L[j * k + p];
      if (!(d > 0.0))
        throw Error(name() + ": matrix is not positive definite: pivot " + std::to_string(s + j) + " is " +
                    number_text(d));
      const double root = std::sqrt(d);
      L[j * k + j] = root;
      for (Index i = j + 1; i < k; ++i) {
        double v = L[i * k + j];
        for (Index p = 0; p < j; ++p) v -= L[i * k + p] * L[j * k + p];
        L[i * k + j] = v / root;
      }
    }
  }
}

void BlockDiagonalSolver::solve_block(std::size_t k, double* x) const {
  require(factored() && k + 1 < starts_.size(), [&] {
    return "BlockDiagonalSolver::solve_block: block " + std::to_string(k) + " of " +
           std::to_string(starts_.empty() ? 0 : starts_.size() - 1) + (factored() ? "" : " (not factored)");
  });
  solve_in_block(k, x);
}

namespace {

// Y = L^-T L^-1 Y for one k x k block (L row-major) and @p columns right-hand sides stored one
// after the other. Instantiated with k fixed for a rigid body (6, or 1 + 1 + 1 + 3 with its
// centre of mass at the origin) and a particle (3), so that the compiler unrolls the loops (the
// rigid contact step calls this a few times per solve); the operations and their order are the
// same, so are the bits.
template <Index K>
void solve_cholesky_columns(const double* L, Index k, double* Y, Index columns) {
  if constexpr (K > 0) k = K;
  for (Index j = 0; j < columns; ++j) {
    double* y = Y + static_cast<std::size_t>(j) * static_cast<std::size_t>(k);
    for (Index i = 0; i < k; ++i) {  // L y = b
      double v = y[i];
      for (Index p = 0; p < i; ++p) v -= L[i * k + p] * y[p];
      y[i] = v / L[i * k + i];
    }
    for (Index i = k - 1; i >= 0; --i) {  // L^T x = y
      double v = y[i];
      for (Index p = i + 1; p < k; ++p) v -= L[p * k + i] * y[p];
      y[i] = v / L[i * k + i];
    }
  }
}

// solve_cholesky_columns() instantiated for the block's size @p k.
void solve_cholesky_any(const double* L, Index k, double* Y, Index columns) {
  if (k == 6)
    solve_cholesky_columns<6>(L, k, Y, columns);
  else if (k == 3)
    solve_cholesky_columns<3>(L, k, Y, columns);
  else if (k == 1)
    solve_cholesky_columns<1>(L, k, Y, columns);
  else
    solve_cholesky_columns<0>(L, k, Y, columns);
}

}  // namespace

void BlockDiagonalSolver::solve_block_columns(std::size_t k, double* X, Index columns) const {
  require(factored() && k + 1 < starts_.size() && columns >= 0, [&] {
    return "BlockDiagonalSolver::solve_block_columns: block " + std::to_string(k) + " of " +
           std::to_string(starts_.empty() ? 0 : starts_.size() - 1) + ", " + std::to_string(columns) + " columns" +
           (factored() ? "" : " (not factored)");
  });
  solve_cholesky_any(factor_.data() + offsets_[k], starts_[k + 1] - starts_[k], X, columns);
}

void BlockDiagonalSolver::solve_in_block(std::size_t b, double* y) const {
  solve_cholesky_any(factor_.data() + offsets_[b], starts_[b + 1] - starts_[b], y, 1);
}

void BlockDiagonalSolver::do_solve_in_place(Eigen::VectorXd& x) const {
  for (std::size_t b = 0; b + 1 < starts_.size(); ++b) solve_in_block(b, x.data() + starts_[b]);
}

void BlockDiagonalSolver::do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const {
  X = B;
  for (Eigen::Index c = 0; c < X.cols(); ++c)
    for (std::size_t b = 0; b + 1 < starts_.size(); ++b) solve_in_block(b, X.col(c).data() + starts_[b]);
}

}  // namespace sinew
