#include "sinew/core/device_sparse.hpp"

#include <string>

#include "sinew/core/backend.hpp"

namespace sinew {

void validate_csr_pattern(Index rows, Index cols, const std::vector<Index>& row_ptr, const std::vector<Index>& col_idx,
                          const char* what) {
  const auto w = [what] { return std::string(what); };  // built only for a message
  if (rows < 0 || cols < 0)
    throw Error(w() + ": negative dimensions " + std::to_string(rows) + "x" + std::to_string(cols));
  if (row_ptr.size() != static_cast<std::size_t>(rows) + 1)
    throw Error(w() + ": row_ptr has " + std::to_string(row_ptr.size()) +
                " entries, expected rows + 1 = " + std::to_string(rows + 1));
  if (row_ptr[0] != 0) throw Error(w() + ": row_ptr[0] is " + std::to_string(row_ptr[0]) + ", expected 0");
  if (static_cast<std::size_t>(row_ptr[rows]) != col_idx.size())
    throw Error(w() + ": row_ptr[rows] is " + std::to_string(row_ptr[rows]) +
                ", expected nnz = " + std::to_string(col_idx.size()));
  for (Index i = 0; i < rows; ++i) {
    if (row_ptr[i + 1] < row_ptr[i]) throw Error(w() + ": row_ptr decreases at row " + std::to_string(i));
    for (Index k = row_ptr[i]; k < row_ptr[i + 1]; ++k) {
      if (col_idx[k] < 0 || col_idx[k] >= cols)
        throw Error(w() + ": row " + std::to_string(i) + " has column " + std::to_string(col_idx[k]) +
                    ", expected 0 <= column < " + std::to_string(cols));
      if (k > row_ptr[i] && col_idx[k] <= col_idx[k - 1])
        throw Error(w() + ": columns of row " + std::to_string(i) +
                    " are not strictly increasing (sorted, no duplicates expected)");
    }
  }
}

DeviceCsr upload_csr(Backend& backend, Index rows, Index cols, const std::vector<Index>& row_ptr,
                     const std::vector<Index>& col_idx, const std::vector<double>& values) {
  validate_csr_pattern(rows, cols, row_ptr, col_idx, "upload_csr");
  if (values.size() != col_idx.size())
    throw Error("upload_csr: " + std::to_string(values.size()) + " values for " + std::to_string(col_idx.size()) +
                " column indices");
  DeviceCsr A;
  A.rows = rows;
  A.cols = cols;
  A.row_ptr = backend.upload(row_ptr);
  A.col_idx = backend.upload(col_idx);
  A.values = backend.upload(values);
  return A;
}

DeviceBsr3 upload_bsr3(Backend& backend, Index block_rows, Index block_cols, const std::vector<Index>& row_ptr,
                       const std::vector<Index>& col_idx, const std::vector<double>& values) {
  validate_csr_pattern(block_rows, block_cols, row_ptr, col_idx, "upload_bsr3");
  if (values.size() != 9 * col_idx.size())
    throw Error("upload_bsr3: " + std::to_string(values.size()) + " values for " + std::to_string(col_idx.size()) +
                " blocks, expected 9 per block");
  DeviceBsr3 A;
  A.block_rows = block_rows;
  A.block_cols = block_cols;
  A.row_ptr = backend.upload(row_ptr);
  A.col_idx = backend.upload(col_idx);
  A.values = backend.upload(values);
  return A;
}

}  // namespace sinew
