// balanced_row_boundary: contiguous ranges covering every row once, of about equal work
// (non-zeros + 1 per row), on the row lengths of a sparse inverse factor (row i has i + 1 entries).
#include "sinew/core/row_split.hpp"

#include <gtest/gtest.h>

#include <vector>

namespace sinew::core_row_split_test {
namespace {

TEST(RowSplit, RangesCoverTheRowsWithEqualWork) {
  const std::size_t n = 1000;
  std::vector<Index> row_ptr{0};
  for (std::size_t i = 0; i < n; ++i) row_ptr.push_back(row_ptr.back() + static_cast<Index>(i + 1));
  const double total = static_cast<double>(row_ptr[n] + static_cast<Index>(n));
  for (std::size_t ranges : {1u, 2u, 3u, 16u}) {
    EXPECT_EQ(balanced_row_boundary(n, row_ptr.data(), ranges, 0), 0u);
    EXPECT_EQ(balanced_row_boundary(n, row_ptr.data(), ranges, ranges), n);
    for (std::size_t r = 0; r < ranges; ++r) {
      const std::size_t a = balanced_row_boundary(n, row_ptr.data(), ranges, r);
      const std::size_t b = balanced_row_boundary(n, row_ptr.data(), ranges, r + 1);
      ASSERT_LE(a, b);
      const double work = static_cast<double>(row_ptr[b] - row_ptr[a] + static_cast<Index>(b - a));
      // Each range within one row (at most n + 1 work) of an equal share.
      EXPECT_NEAR(work, total / static_cast<double>(ranges), static_cast<double>(n + 1)) << ranges << " ranges";
    }
  }
  // Equal row counts would give the last of 2 ranges 3x the first's work: the split does not.
  const std::size_t half = balanced_row_boundary(n, row_ptr.data(), 2, 1);
  EXPECT_GT(half, 650u);
  EXPECT_LT(half, 760u);
}

}  // namespace
}  // namespace sinew::core_row_split_test
