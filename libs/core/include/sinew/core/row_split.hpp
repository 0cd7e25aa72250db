/// @file
/// @brief Splitting a sparse row loop into contiguous ranges of about equal work, for host
/// backends that run each range on one thread (tbb, kokkos on a host space).
#pragma once

#include <cstddef>

#include "sinew/core/config.hpp"

namespace sinew {

/// First row of range @p r (0 <= r <= ranges) when rows 0..n-1 of a CSR pattern (@p row_ptr, n + 1
/// entries) are split into @p ranges contiguous ranges of about equal work, counting a row's
/// non-zeros plus 1: the first row i with row_ptr[i] + i >= r / ranges of the total (n for r =
/// ranges). Sparse inverse factors have rows from 1 to n entries long, which equal row counts per
/// thread would leave badly unbalanced. Every row still falls in exactly one range, so results do
/// not depend on the split.
inline std::size_t balanced_row_boundary(std::size_t n, const Index* row_ptr, std::size_t ranges, std::size_t r) {
  if (r >= ranges) return n;
  const double total = static_cast<double>(row_ptr[n]) + static_cast<double>(n);
  const double target = total * static_cast<double>(r) / static_cast<double>(ranges);
  std::size_t lo = 0, hi = n;
  while (lo < hi) {
    const std::size_t mid = lo + (hi - lo) / 2;
    if (static_cast<double>(row_ptr[mid]) + static_cast<double>(mid) < target)
      lo = mid + 1;
    else
      hi = mid;
  }
  return lo;
}

}  // namespace sinew
