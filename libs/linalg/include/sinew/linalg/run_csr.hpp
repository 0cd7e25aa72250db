/// @file
/// @brief Run-compressed CSR: each row's entries grouped into runs of consecutive columns, with
/// one column index per run instead of one per entry, and its multi-vector product on host
/// backends. The sparse inverse factor is made of such runs once its columns are in elimination
/// order: a row of L^-1 is one subtree of the postordered elimination tree (one range of
/// columns) and a row of L^-T is one path to the root (chains of consecutive separator columns).
#pragma once

#include <cstddef>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew {

/// A sparse matrix in host memory as runs: row i owns runs row_ptr[i] .. row_ptr[i+1]-1, and
/// run q holds the entries values[run_ptr[q] + t] at columns run_col[q] + t for
/// t < run_ptr[q+1] - run_ptr[q]. Runs of a row are ordered and do not overlap.
struct RunCsr {
  Index rows = 0;                 ///< number of rows
  Index cols = 0;                 ///< number of columns
  std::vector<Index> row_ptr{0};  ///< (rows + 1) offsets into the runs
  std::vector<Index> run_col{};   ///< (runs) first column of each run
  std::vector<Index> run_ptr{0};  ///< (runs + 1) offsets into values
  std::vector<double> values{};   ///< (nnz) entries, row by row and run by run

  /// Number of stored entries.
  std::size_t nnz() const { return values.size(); }
  /// Number of runs.
  std::size_t runs() const { return run_col.size(); }
  /// Bytes of the format (values, run columns and offsets, row offsets): what a product streams.
  std::size_t bytes() const {
    return values.size() * sizeof(double) + (run_col.size() + run_ptr.size() + row_ptr.size()) * sizeof(Index);
  }
};

/// Groups each row of @p A (sorted columns, as CsrMatrix guarantees) into maximal runs of
/// consecutive columns; values keep their order, explicit zeros included.
RunCsr to_run_csr(const CsrMatrix& A);
/// The plain CSR matrix with the same entries as @p A (for checks and interop).
CsrMatrix to_csr(const RunCsr& A);

/// A RunCsr in the memory of a backend that runs host code, with its rows cut into a fixed
/// number of blocks of about equal work so that rows from 1 to n entries long (a sparse inverse
/// factor's) share the threads evenly. The cut does not depend on the thread count, and every
/// row is computed whole by one thread, so products are bit-identical for any thread count.
class DeviceRunCsr {
 public:
  /// An empty matrix on no backend.
  DeviceRunCsr() = default;
  /// Uploads @p A to @p backend; throws sinew::Error unless backend.runs_host_code().
  DeviceRunCsr(Backend& backend, const RunCsr& A);

  /// Number of rows.
  Index rows() const { return rows_; }
  /// Number of columns.
  Index cols() const { return cols_; }
  /// Number of stored entries.
  std::size_t nnz() const { return values_.size(); }
  /// Number of runs.
  std::size_t runs() const { return run_col_.size(); }
  /// Bytes of the stored format (see RunCsr::bytes()).
  std::size_t bytes() const {
    return values_.size() * sizeof(double) + (run_col_.size() + run_ptr_.size() + row_ptr_.size()) * sizeof(Index);
  }
  /// Y = A X for @p components vectors stored one after another: column c of X (cols() entries)
  /// starts at X + c * cols(), column c of Y (rows() entries) at Y + c * rows(); components is 1
  /// or 3. Each row is summed in a fixed order (four interleaved partial sums per run, SSE2 where
  /// the host has it, the same operations in scalar code otherwise), so results are
  /// bit-identical on every host backend and thread count. Y must not alias X.
  void multiply(Backend& backend, int components, const DeviceArray<double>& X, DeviceArray<double>& Y) const;

 private:
  Index rows_ = 0, cols_ = 0;
  DeviceArray<Index> row_ptr_, run_col_, run_ptr_;
  DeviceArray<double> values_;
  std::vector<Index> blocks_{0};  // row boundaries of the work blocks, host side
};

}  // namespace sinew
