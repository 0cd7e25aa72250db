/// @file
/// @brief LoopBackend: a complete Backend made from an execution policy that supplies memory and
/// a parallel `for_each`; the serial, TBB, Kokkos and CUDA backends are thin loop shells on it.
#pragma once

#include <algorithm>
#include <cstddef>
#include <string>
#include <type_traits>
#include <utility>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/row_kernels.hpp"
#include "sinew/core/svd3.hpp"

namespace sinew {

/// Functors looped by LoopBackend, one per kernel. Plain structs with a SINEW_HD call operator
/// so that a CUDA or Kokkos loop can launch them without extended lambdas.
namespace loop {

/// x_i = value.
struct Fill {
  double* x;     ///< (n) output
  double value;  ///< value to store
  /// Entry i.
  SINEW_HD void operator()(std::size_t i) const { x[i] = value; }
};
/// y = a x + b y.
struct Axpby {
  double a;         ///< scale of x
  const double* x;  ///< (n) input
  double b;         ///< scale of y
  double* y;        ///< (n) input and output
  /// Entry i.
  SINEW_HD void operator()(std::size_t i) const { y[i] = blend(a, x[i], b, y[i]); }
};
/// x = a x.
struct Scale {
  double a;   ///< scale
  double* x;  ///< (n) input and output
  /// Entry i.
  SINEW_HD void operator()(std::size_t i) const { x[i] *= a; }
};
/// z = x .* y or x ./ y.
struct Elementwise {
  const double* x;  ///< (n) numerator / factor
  const double* y;  ///< (n) denominator / factor
  double* z;        ///< (n) output
  bool divide;      ///< true: x / y, false: x * y
  /// Entry i.
  SINEW_HD void operator()(std::size_t i) const { z[i] = divide ? x[i] / y[i] : x[i] * y[i]; }
};
/// partial_b = sum of x_i y_i over block b.
struct DotBlock {
  const double* x;  ///< (n) first vector
  const double* y;  ///< (n) second vector
  std::size_t n;    ///< length
  double* partial;  ///< (reduce_blocks(n)) block sums
  /// Block b.
  SINEW_HD void operator()(std::size_t b) const { partial[b] = dot_block(x, y, n, b); }
};
/// y = alpha A x + beta y, one row per call.
struct Spmv {
  double alpha;     ///< scale of A x
  CsrRef A;         ///< matrix
  const double* x;  ///< (cols) input
  double beta;      ///< scale of y
  double* y;        ///< (rows) output
  /// Row i.
  SINEW_HD void operator()(std::size_t i) const {
    y[i] = blend(alpha, csr_row_dot(A, x, static_cast<Index>(i)), beta, y[i]);
  }
};
/// y = alpha A^T x + beta y, one row of A^T per call.
struct SpmvTranspose {
  double alpha;          ///< scale of A^T x
  const Index* t_ptr;    ///< (cols + 1) transpose offsets
  const Index* t_row;    ///< (nnz) rows of A
  const Index* t_src;    ///< (nnz) indices into values
  const double* values;  ///< (nnz) A's values
  const double* x;       ///< (rows) input
  double beta;           ///< scale of y
  double* y;             ///< (cols) output
  /// Row j of A^T.
  SINEW_HD void operator()(std::size_t j) const {
    y[j] = blend(alpha, csr_gather_row_dot(t_ptr, t_row, t_src, values, x, static_cast<Index>(j)), beta, y[j]);
  }
};
/// y = alpha A x + beta y for 3x3 blocks, one block row per call.
struct Bsr3Spmv {
  double alpha;          ///< scale of A x
  const Index* row_ptr;  ///< (block_rows + 1) offsets
  const Index* col_idx;  ///< (nnzb) block columns
  const double* values;  ///< (9 nnzb) blocks
  const double* x;       ///< (3 block_cols) input
  double beta;           ///< scale of y
  double* y;             ///< (3 block_rows) output
  /// Block row i.
  SINEW_HD void operator()(std::size_t i) const {
    double s[3];
    bsr3_row_product(row_ptr, col_idx, values, x, static_cast<Index>(i), s);
    for (int c = 0; c < 3; ++c) y[3 * i + c] = blend(alpha, s[c], beta, y[3 * i + c]);
  }
};
/// Y = alpha A X + beta Y with 3 columns, one row per call.
struct Spmv3 {
  double alpha;     ///< scale of A X
  CsrRef A;         ///< matrix
  const double* X;  ///< (cols x 3) input
  double beta;      ///< scale of Y
  double* Y;        ///< (rows x 3) output
  /// Row i.
  SINEW_HD void operator()(std::size_t i) const {
    double s[3];
    csr_row_dot3(A, X, static_cast<Index>(i), s);
    for (int c = 0; c < 3; ++c) Y[3 * i + c] = blend(alpha, s[c], beta, Y[3 * i + c]);
  }
};
/// Y = alpha A^T X + beta Y with 3 columns, one row of A^T per call.
struct Spmv3Transpose {
  double alpha;          ///< scale of A^T X
  const Index* t_ptr;    ///< (cols + 1) transpose offsets
  const Index* t_row;    ///< (nnz) rows of A
  const Index* t_src;    ///< (nnz) indices into values
  const double* values;  ///< (nnz) A's values
  const double* X;       ///< (rows x 3) input
  double beta;           ///< scale of Y
  double* Y;             ///< (cols x 3) output
  /// Row j of A^T.
  SINEW_HD void operator()(std::size_t j) const {
    double s[3];
    csr_gather_row_dot3(t_ptr, t_row, t_src, values, X, static_cast<Index>(j), s);
    for (int c = 0; c < 3; ++c) Y[3 * j + c] = blend(alpha, s[c], beta, Y[3 * j + c]);
  }
};
/// Numeric SpGEMM, one row of C per call.
struct SpgemmNumeric {
  CsrRef A;            ///< left factor
  CsrRef B;            ///< right factor
  const Index* c_ptr;  ///< (rows + 1) C offsets
  const Index* c_col;  ///< (nnz C) C columns
  double* c_val;       ///< (nnz C) C values
  /// Row i.
  SINEW_HD void operator()(std::size_t i) const { spgemm_row(A, B, c_ptr, c_col, c_val, static_cast<Index>(i)); }
};
/// R_e = polar_rotation(F_e), one element per call.
struct Polar3 {
  const double* F;  ///< (n x 9) inputs
  double* R;        ///< (n x 9) rotations
  /// Element e.
  SINEW_HD void operator()(std::size_t e) const {
    Mat3 f;
    for (int k = 0; k < 9; ++k) f.m[k] = F[9 * e + k];
    const Mat3 r = polar_rotation(f);
    for (int k = 0; k < 9; ++k) R[9 * e + k] = r.m[k];
  }
};

}  // namespace loop

/// True when an execution policy can split row loops by their non-zeros (`for_each_rows`).
template <class Exec, class = void>
struct HasForEachRows : std::false_type {};
/// True when an execution policy can split row loops by their non-zeros (`for_each_rows`).
template <class Exec>
struct HasForEachRows<Exec, std::void_t<decltype(std::declval<const Exec&>().for_each_rows(
                                std::size_t{}, static_cast<const Index*>(nullptr), std::declval<const loop::Fill&>()))>>
    : std::true_type {};

/// True when an execution policy runs host code on host memory (`static constexpr bool kHostCode`).
template <class Exec, class = void>
struct RunsHostCode : std::false_type {};
/// True when an execution policy runs host code on host memory (`static constexpr bool kHostCode`).
template <class Exec>
struct RunsHostCode<Exec, std::void_t<decltype(Exec::kHostCode)>> : std::bool_constant<Exec::kHostCode> {};

/// Calls a RangeKernel on chunk c of n indices split into `chunks` contiguous ranges.
struct RangeChunk {
  const RangeKernel* kernel;  ///< the loop body
  std::size_t n;              ///< number of indices
  std::size_t chunks;         ///< number of ranges
  /// Runs range c.
  void operator()(std::size_t c) const { (*kernel)(n * c / chunks, n * (c + 1) / chunks); }
};

/// A Backend whose kernels are the loop::* functors run by @p Exec.
///
/// Exec supplies `for_each(n, f)` (call f(i) for i < n, in any order or concurrently),
/// `allocate(bytes)`, `deallocate(p)`, `copy(dst, src, bytes, kind)`, `synchronize()`,
/// `execution_space()` and `concurrency()`. A host policy may also supply
/// `for_each_rows(n, row_ptr, f)`, a row loop split by non-zeros rather than by rows: sparse
/// inverse factors have rows from 1 to n entries long, which equal row counts per thread would
/// leave badly unbalanced. A backend may still override single kernels with a vendor library
/// (the CUDA backend does for SpMV and BLAS-1).
template <class Exec>
class LoopBackend : public Backend {
 public:
  std::string execution_space() const override { return exec_.execution_space(); }
  int concurrency() const override { return exec_.concurrency(); }
  void synchronize() override { exec_.synchronize(); }

 protected:
  /// Makes the backend @p name that runs its loops with @p exec.
  LoopBackend(std::string name, Exec exec) : Backend(std::move(name)), exec_(std::move(exec)) {}
  /// Releases the reduction workspace while the allocator is still this class's.
  ~LoopBackend() override { partials_.reset(); }

  void* do_allocate(std::size_t bytes) override { return exec_.allocate(bytes); }
  void do_deallocate(void* p) noexcept override { exec_.deallocate(p); }
  void do_copy(void* dst, const void* src, std::size_t bytes, CopyKind kind) override {
    exec_.copy(dst, src, bytes, kind);
  }
  void do_fill(std::size_t n, double* x, double value) override { exec_.for_each(n, loop::Fill{x, value}); }
  void do_axpby(std::size_t n, double a, const double* x, double b, double* y) override {
    exec_.for_each(n, loop::Axpby{a, x, b, y});
  }
  void do_scale(std::size_t n, double a, double* x) override { exec_.for_each(n, loop::Scale{a, x}); }
  void do_elementwise(std::size_t n, const double* x, const double* y, double* z, bool divide) override {
    exec_.for_each(n, loop::Elementwise{x, y, z, divide});
  }
  /// Blocked reduction: block sums in parallel, then summed in block order on the host.
  double do_dot(std::size_t n, const double* x, const double* y) override {
    const std::size_t blocks = reduce_blocks(n);
    if (partials_.size() < blocks) partials_ = allocate<double>(blocks);
    exec_.for_each(blocks, loop::DotBlock{x, y, n, partials_.data()});
    host_partials_.resize(blocks);
    exec_.copy(host_partials_.data(), partials_.data(), blocks * sizeof(double), CopyKind::kDeviceToHost);
    double s = 0.0;
    for (double p : host_partials_) s += p;
    return s;
  }
  void do_spmv(double alpha, const CsrRef& A, const double* x, double beta, double* y) override {
    for_each_row(A.rows, A.row_ptr, loop::Spmv{alpha, A, x, beta, y});
  }
  void do_spmv_transpose(double alpha, const CsrRef& A, const CsrTransposePattern& At, const double* x, double beta,
                         double* y) override {
    for_each_row(
        A.cols, At.row_ptr.data(),
        loop::SpmvTranspose{alpha, At.row_ptr.data(), At.col_idx.data(), At.source.data(), A.values, x, beta, y});
  }
  void do_bsr3_spmv(double alpha, const DeviceBsr3& A, const double* x, double beta, double* y) override {
    for_each_row(A.block_rows, A.row_ptr.data(),
                 loop::Bsr3Spmv{alpha, A.row_ptr.data(), A.col_idx.data(), A.values.data(), x, beta, y});
  }
  void do_spmv3(double alpha, const CsrRef& A, const double* X, double beta, double* Y) override {
    for_each_row(A.rows, A.row_ptr, loop::Spmv3{alpha, A, X, beta, Y});
  }
  void do_spmv3_transpose(double alpha, const CsrRef& A, const CsrTransposePattern& At, const double* X, double beta,
                          double* Y) override {
    for_each_row(
        A.cols, At.row_ptr.data(),
        loop::Spmv3Transpose{alpha, At.row_ptr.data(), At.col_idx.data(), At.source.data(), A.values, X, beta, Y});
  }
  void do_spgemm_numeric(const CsrRef& A, const CsrRef& B, DeviceCsr& C) override {
    exec_.for_each(static_cast<std::size_t>(C.rows),
                   loop::SpgemmNumeric{A, B, C.row_ptr.data(), C.col_idx.data(), C.values.data()});
  }
  void do_polar3(std::size_t n, const double* F, double* R) override { exec_.for_each(n, loop::Polar3{F, R}); }
  bool runs_host_code() const override { return RunsHostCode<Exec>::value; }
  /// A few ranges per thread: enough to balance, few enough that the virtual call is noise.
  void do_for_each_range(std::size_t n, const RangeKernel& kernel) override {
    if constexpr (RunsHostCode<Exec>::value) {
      const std::size_t chunks = std::min<std::size_t>(n, 4 * static_cast<std::size_t>(std::max(1, concurrency())));
      exec_.for_each(chunks, RangeChunk{&kernel, n, chunks});
    } else {
      Backend::do_for_each_range(n, kernel);  // unreachable: for_each_range() checks runs_host_code()
    }
  }

  /// Row loop: split by non-zeros where the policy can, by rows otherwise.
  template <class F>
  void for_each_row(Index rows, const Index* row_ptr, const F& f) {
    if constexpr (HasForEachRows<Exec>::value) {
      exec_.for_each_rows(static_cast<std::size_t>(rows), row_ptr, f);
    } else {
      exec_.for_each(static_cast<std::size_t>(rows), f);
    }
  }

  Exec exec_;  ///< the loop and memory policy

 private:
  DeviceArray<double> partials_;       // (>= reduce_blocks(n)) block sums of the last reduction
  std::vector<double> host_partials_;  // host copy of partials_
};

}  // namespace sinew
