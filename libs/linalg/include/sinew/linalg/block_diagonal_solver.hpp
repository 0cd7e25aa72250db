/// @file
/// @brief BlockDiagonalSolver: the LinearSolver of matrices whose non-zeros lie in small
/// diagonal blocks (the 6x6 world inertias of rigid bodies and the 3x3 masses of particles that
/// no force field couples: the step matrix of a rigid multibody system), each block factored by
/// a dense Cholesky in place, with no fill-reducing ordering to compute.
#pragma once

#include <string>
#include <vector>

#include "sinew/linalg/linear_solver.hpp"

namespace sinew {

/// The row ranges of the diagonal blocks of the square matrix @p A (block k is rows
/// starts[k] .. starts[k + 1] - 1, starts.back() == A.rows), each as small as the pattern allows;
/// empty when a block would have more than @p max_block rows (A couples more than that) or A is
/// not square.
std::vector<Index> diagonal_blocks(const CsrMatrix& A, Index max_block);
/// diagonal_blocks() into @p starts, whose storage is reused.
void diagonal_blocks(const CsrMatrix& A, Index max_block, std::vector<Index>& starts);
/// Whether diagonal_blocks() would find blocks (A square, block diagonal with blocks of at most
/// @p max_block rows), without storing them.
bool is_block_diagonal(const CsrMatrix& A, Index max_block);

/// Dense Cholesky of each diagonal block of a symmetric positive-definite matrix: O(sum k^3) to
/// factor and O(sum k^2) per right-hand side, k <= max_block. compute() throws sinew::Error when
/// A has a block of more than max_block rows (naming its first row) or a block is not positive
/// definite (naming the pivot's row and value).
class BlockDiagonalSolver final : public LinearSolver {
 public:
  /// A solver of matrices whose diagonal blocks have at most @p max_block rows (>= 1).
  explicit BlockDiagonalSolver(Index max_block = 12);
  std::string name() const override { return "block-diagonal-cholesky"; }
  /// The largest block compute() accepts.
  Index max_block() const { return max_block_; }
  /// The row ranges of the factored matrix's diagonal blocks: block k is rows block_starts()[k]
  /// .. block_starts()[k + 1] - 1 (for callers that work block by block, e.g. a Delassus operator).
  const std::vector<Index>& block_starts() const { return starts_; }
  /// @p x <- A_k^-1 @p x for diagonal block @p k alone: @p x holds that block's rows (its size
  /// entries). @throws sinew::Error before a successful compute() or when k is out of range.
  void solve_block(std::size_t k, double* x) const;
  /// solve_block() on @p columns right-hand sides stored one after the other in @p X (each the
  /// block's size entries): one call, one check, for the columns of H that meet a body.
  /// @throws sinew::Error as solve_block().
  void solve_block_columns(std::size_t k, double* X, Index columns) const;

 protected:
  void do_analyze(const CsrMatrix& A) override;
  void do_factorize(const CsrMatrix& A) override;
  void do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const override;
  void do_solve_in_place(Eigen::VectorXd& x) const override;

 private:
  /// y <- A_b^-1 y on block b's rows (no checks).
  void solve_in_block(std::size_t b, double* y) const;

  Index max_block_;
  std::vector<Index> starts_;   // block k: rows starts_[k] .. starts_[k + 1] - 1
  std::vector<Index> offsets_;  // block k's dense factor: factor_[offsets_[k] ..], k x k row-major
  std::vector<double> factor_;  // lower-triangular L of each block, A_k = L L^T
};

}  // namespace sinew
