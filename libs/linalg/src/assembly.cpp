#include "sinew/linalg/assembly.hpp"

#include <algorithm>
#include <string>

#include "host_parallel.hpp"

namespace sinew {
namespace {
// Loops with less work than this (contributions times their width) run on the calling thread:
// waking TBB's workers costs more than such a loop, and leaves them spinning after it.
constexpr std::size_t kParallelWork = std::size_t{1} << 15;
}  // namespace

AssemblyPlan::AssemblyPlan(Index rows, Index cols, const std::vector<Position>& positions, int width)
    : rows_(rows), cols_(cols), width_(width) {
  require(rows >= 0 && cols >= 0, "AssemblyPlan: negative dimensions");
  require(width == 1 || width == 9,
          [&] { return "AssemblyPlan: width must be 1 (scalar) or 9 (3x3 block), got " + std::to_string(width); });
  const std::size_t m = positions.size();
  for (std::size_t k = 0; k < m; ++k) {
    const Position& p = positions[k];
    if (p.row < 0 || p.row >= rows || p.col < 0 || p.col >= cols)
      throw Error("AssemblyPlan: contribution " + std::to_string(k) + " at (" + std::to_string(p.row) + ", " +
                  std::to_string(p.col) + ") is outside the " + std::to_string(rows) + "x" + std::to_string(cols) +
                  " matrix");
  }
  // Group contributions by row (a stable counting sort keeps the input order inside a row).
  by_row_ptr_.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (const Position& p : positions) ++by_row_ptr_[static_cast<std::size_t>(p.row) + 1];
  for (Index r = 0; r < rows; ++r) by_row_ptr_[r + 1] += by_row_ptr_[r];
  by_row_.resize(m);
  std::vector<Index> next(by_row_ptr_.begin(), by_row_ptr_.end() - 1);
  for (std::size_t k = 0; k < m; ++k) by_row_[next[positions[k].row]++] = static_cast<Index>(k);

  // Per row: stable-sort its contributions by column (input order kept among equals), count the
  // distinct columns, then write the pattern and the slots. Rows are independent.
  std::vector<Index> counts(static_cast<std::size_t>(rows), 0);
  const bool parallel = m >= kParallelWork;
  detail::host_parallel_for(
      static_cast<std::size_t>(rows),
      [&](std::size_t r) {
        auto begin = by_row_.begin() + by_row_ptr_[r], end = by_row_.begin() + by_row_ptr_[r + 1];
        std::stable_sort(begin, end, [&](Index a, Index b) { return positions[a].col < positions[b].col; });
        Index distinct = 0;
        for (auto it = begin; it != end; ++it)
          if (it == begin || positions[*it].col != positions[*(it - 1)].col) ++distinct;
        counts[r] = distinct;
      },
      parallel);
  row_ptr_.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (Index r = 0; r < rows; ++r) row_ptr_[r + 1] = row_ptr_[r] + counts[r];
  col_idx_.resize(static_cast<std::size_t>(row_ptr_[rows]));
  slot_.resize(m);
  detail::host_parallel_for(
      static_cast<std::size_t>(rows),
      [&](std::size_t r) {
        Index at = row_ptr_[r] - 1;
        for (Index q = by_row_ptr_[r]; q < by_row_ptr_[r + 1]; ++q) {
          const Index k = by_row_[q];
          if (q == by_row_ptr_[r] || positions[k].col != positions[by_row_[q - 1]].col)
            col_idx_[++at] = positions[k].col;
          slot_[k] = at;
        }
      },
      parallel);
  // by_row_ is now sorted by column within each row, input order kept among equal columns:
  // exactly the summation order assemble() uses.
}

void AssemblyPlan::assemble(const double* contributions, std::vector<double>& values) const {
  values.assign(col_idx_.size() * static_cast<std::size_t>(width_), 0.0);
  const std::size_t w = static_cast<std::size_t>(width_);
  detail::host_parallel_for(
      static_cast<std::size_t>(rows_),
      [&](std::size_t r) {
        for (Index q = by_row_ptr_[r]; q < by_row_ptr_[r + 1]; ++q) {
          const std::size_t k = static_cast<std::size_t>(by_row_[q]);
          double* out = values.data() + w * static_cast<std::size_t>(slot_[k]);
          const double* in = contributions + w * k;
          for (std::size_t c = 0; c < w; ++c) out[c] += in[c];
        }
      },
      by_row_.size() * w >= kParallelWork);
}

void MatrixAssembler::add_block(Index row, Index col, const Eigen::Ref<const Eigen::MatrixXd>& block) {
  for (Eigen::Index i = 0; i < block.rows(); ++i)
    for (Eigen::Index j = 0; j < block.cols(); ++j)
      add(row + static_cast<Index>(i), col + static_cast<Index>(j), block(i, j));
}

void MatrixAssembler::add_scattered(const std::vector<Index>& dofs, const Eigen::Ref<const Eigen::MatrixXd>& local) {
  if (local.rows() != static_cast<Eigen::Index>(dofs.size()) || local.cols() != local.rows())
    throw Error("MatrixAssembler::add_scattered: local matrix is " + std::to_string(local.rows()) + "x" +
                std::to_string(local.cols()) + ", expected square of the DOF map's size " +
                std::to_string(dofs.size()));
  for (std::size_t a = 0; a < dofs.size(); ++a)
    for (std::size_t b = 0; b < dofs.size(); ++b)
      add(dofs[a], dofs[b], local(static_cast<Eigen::Index>(a), static_cast<Eigen::Index>(b)));
}

CsrMatrix MatrixAssembler::build() const {
  const AssemblyPlan p = plan();
  std::vector<double> values;
  p.assemble(values_.data(), values);
  return to_csr(p, std::move(values));
}

CsrMatrix to_csr(const AssemblyPlan& plan, std::vector<double> values) {
  require(plan.width() == 1, "to_csr: the plan is for 3x3 blocks; use to_bsr3");
  require(values.size() == plan.col_idx().size(), "to_csr: values do not match the plan's pattern");
  CsrMatrix A;
  A.rows = plan.rows();
  A.cols = plan.cols();
  A.row_ptr = plan.row_ptr();
  A.col_idx = plan.col_idx();
  A.values = std::move(values);
  return A;
}

Bsr3Matrix to_bsr3(const AssemblyPlan& plan, std::vector<double> values) {
  require(plan.width() == 9, "to_bsr3: the plan is for scalars; use to_csr");
  require(values.size() == 9 * plan.col_idx().size(), "to_bsr3: values do not match the plan's pattern");
  Bsr3Matrix A;
  A.block_rows = plan.rows();
  A.block_cols = plan.cols();
  A.row_ptr = plan.row_ptr();
  A.col_idx = plan.col_idx();
  A.values = std::move(values);
  return A;
}

}  // namespace sinew
