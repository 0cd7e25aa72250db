/// @file
/// @brief Sparse assembly: global CSR and 3x3-block matrices as sums of shifted local blocks
/// (compliant-constraints document, "assembly by shift matrices": A = sum_e J_e^T K_e J_e with
/// J_e made of identity and null blocks), with duplicate summation, in parallel on the host, and
/// a reusable plan so that re-assembling new values on a fixed pattern allocates nothing.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <vector>

#include "sinew/linalg/csr_matrix.hpp"

namespace sinew {

/// Where contributions go: (row, col) of a scalar matrix, or (block row, block col) of a
/// 3x3-block matrix. Contribution k of an assembly lands at positions[k].
struct Position {
  Index row;  ///< row (or block row)
  Index col;  ///< column (or block column)
};

/// The pattern of a sum of contributions at fixed positions, and the slot each contribution is
/// added to. Built once (in parallel over rows); assemble() then sums any values into that
/// pattern in a fixed order (the input order within each entry), so the result has the same
/// bits for any thread count.
class AssemblyPlan {
 public:
  /// Plans the sum of contributions at @p positions in a rows x cols matrix of @p width values
  /// per entry (1 for scalars, 9 for 3x3 blocks). Throws sinew::Error naming the first position
  /// out of range.
  AssemblyPlan(Index rows, Index cols, const std::vector<Position>& positions, int width = 1);

  /// Rows of the assembled matrix (block rows when width() = 9).
  Index rows() const { return rows_; }
  /// Columns of the assembled matrix (block columns when width() = 9).
  Index cols() const { return cols_; }
  /// Values per entry: 1 (scalar) or 9 (3x3 block, row-major).
  int width() const { return width_; }
  /// Number of contributions planned for.
  std::size_t contributions() const { return slot_.size(); }
  /// (rows + 1) row offsets of the assembled pattern.
  const std::vector<Index>& row_ptr() const { return row_ptr_; }
  /// (nnz) sorted, duplicate-free columns of the assembled pattern.
  const std::vector<Index>& col_idx() const { return col_idx_; }
  /// Entry of the pattern that contribution @p k is added to.
  Index slot(std::size_t k) const { return slot_[k]; }

  /// values (width nnz entries) = the sum of @p contributions (width x contributions(), one
  /// value or row-major 3x3 block per contribution, in the planned order).
  void assemble(const double* contributions, std::vector<double>& values) const;

 private:
  Index rows_, cols_;
  int width_;
  std::vector<Index> row_ptr_, col_idx_;
  std::vector<Index> slot_;        // (contributions) entry each contribution adds to
  std::vector<Index> by_row_ptr_;  // (rows + 1) offsets into by_row_
  std::vector<Index> by_row_;      // (contributions) contribution indices grouped by row, input order kept
};

/// A scalar sparse matrix under construction: collects contributions, then builds the CSR sum.
class MatrixAssembler {
 public:
  /// An empty rows x cols sum.
  MatrixAssembler(Index rows, Index cols) : rows_(rows), cols_(cols) {}
  /// A(row, col) += value.
  void add(Index row, Index col, double value) {
    positions_.push_back({row, col});
    values_.push_back(value);
  }
  /// A += J_r^T B J_c: the dense @p block placed with its top-left corner at (row, col).
  void add_block(Index row, Index col, const Eigen::Ref<const Eigen::MatrixXd>& block);
  /// A(dofs[a], dofs[b]) += local(a, b): an element matrix scattered by its DOF map.
  /// @p local is k x k with k = dofs.size(); throws sinew::Error otherwise.
  void add_scattered(const std::vector<Index>& dofs, const Eigen::Ref<const Eigen::MatrixXd>& local);
  /// The CSR sum (duplicates summed in the order added). Throws sinew::Error naming the first
  /// position outside rows x cols.
  CsrMatrix build() const;
  /// The plan of the current positions, to re-assemble new values later without rebuilding.
  AssemblyPlan plan() const { return AssemblyPlan(rows_, cols_, positions_); }
  /// Contributions added so far, in order.
  const std::vector<double>& values() const { return values_; }

 private:
  Index rows_, cols_;
  std::vector<Position> positions_;
  std::vector<double> values_;
};

/// Builds the CSR matrix of @p plan with @p values from AssemblyPlan::assemble() (nnz entries).
CsrMatrix to_csr(const AssemblyPlan& plan, std::vector<double> values);
/// Builds the 3x3-block matrix of a width-9 @p plan with @p values from AssemblyPlan::assemble() (9 nnzb).
Bsr3Matrix to_bsr3(const AssemblyPlan& plan, std::vector<double> values);

}  // namespace sinew
