/// @file
/// @brief sinew::Backend: the vocabulary of kernels on backend-resident arrays that every
/// solver in sinew is written against (CG, CR, local-global and non-smooth Newton loops).
///
/// Every public kernel checks its arguments (sizes, dimensions, ownership) once and throws
/// sinew::Error with what was expected, then calls the protected virtual `do_` implementation,
/// which may assume valid input. Kernels are synchronous from the caller's point of view for
/// results returned to the host (dot, nrm2, download); device-side results are ordered on the
/// backend's single stream. All reductions use a fixed order per backend, so the same input
/// gives the same bits whatever the thread count.
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/device_array.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/core/error.hpp"

namespace sinew {

/// Which operand of a sparse product: A itself or its transpose.
enum class Op { kNoTranspose, kTranspose };

/// Direction of a raw copy between host and backend memory.
enum class CopyKind { kHostToDevice, kDeviceToHost, kDeviceToDevice };

/// Options every backend accepts when it is made.
struct BackendOptions {
  int threads = 0;  ///< worker threads for CPU backends; 0 = all hardware threads
  int device = 0;   ///< GPU ordinal for GPU backends
};

/// The CUDA device and stream on which a backend orders its work, so that a library's own kernels
/// (sinew::for_each_index) run in order with the backend's copies and BLAS calls.
struct CudaQueue {
  int device = 0;          ///< CUDA device ordinal
  void* stream = nullptr;  ///< the backend's cudaStream_t
};

/// A loop body over index ranges [begin, end), run by Backend::for_each_range(). It is how
/// libraries above core (materials' per-element math, constraints' per-contact math) run their
/// own batch kernels on a backend without core knowing them: one virtual call per range, the
/// per-index math inline inside it.
class RangeKernel {
 public:
  virtual ~RangeKernel() = default;
  /// Computes indices begin..end-1; each index's outputs must depend on that index's inputs only.
  virtual void operator()(std::size_t begin, std::size_t end) const = 0;
};

/// Abstract compute backend: memory, BLAS-1, sparse and batch-physics kernels.
/// Make one with sinew::make_backend(name) (library sinew::backends).
/// Precondition of every public kernel: its arrays and matrices were allocated on this backend
/// and have the sizes stated; otherwise it throws sinew::Error naming the argument.
class Backend {
 public:
  virtual ~Backend() = default;
  Backend(const Backend&) = delete;
  Backend& operator=(const Backend&) = delete;

  /// Registry name: "serial", "tbb", "kokkos" or "cuda".
  const std::string& name() const { return name_; }
  /// Execution space or device this backend runs on, e.g. "TBB task arena" or "NVIDIA H100".
  virtual std::string execution_space() const = 0;
  /// Number of threads (CPU) or streaming multiprocessors (GPU) kernels use.
  virtual int concurrency() const = 0;
  /// Waits until every kernel issued so far has finished.
  virtual void synchronize() {}

  // ---------------------------------------------------------------- memory

  /// Allocates @p n uninitialised elements of T in this backend's memory; throws sinew::Error when
  /// out of memory.
  template <class T>
  DeviceArray<T> allocate(std::size_t n) {
    return DeviceArray<T>(*this, n);
  }
  /// Copies @p n host elements into @p dst; requires dst.size() == n.
  template <class T>
  void upload(const T* host, std::size_t n, DeviceArray<T>& dst) {
    check_owned(dst, "upload: destination");
    check_size(dst.size(), n, "upload: destination size");
    if (n) do_copy(dst.data(), host, n * sizeof(T), CopyKind::kHostToDevice);
  }
  /// Allocates an array holding a copy of @p host.
  template <class T>
  DeviceArray<T> upload(const std::vector<T>& host) {
    DeviceArray<T> a = allocate<T>(host.size());
    upload(host.data(), host.size(), a);
    return a;
  }
  /// Copies @p src into @p n host elements; requires src.size() == n.
  template <class T>
  void download(const DeviceArray<T>& src, T* host, std::size_t n) {
    check_owned(src, "download: source");
    check_size(src.size(), n, "download: source size");
    if (n) do_copy(host, src.data(), n * sizeof(T), CopyKind::kDeviceToHost);
  }
  /// Returns a host copy of @p src.
  template <class T>
  std::vector<T> download(const DeviceArray<T>& src) {
    std::vector<T> host(src.size());
    download(src, host.data(), host.size());
    return host;
  }
  /// Copies @p src into @p dst (same size, both on this backend).
  template <class T>
  void copy(const DeviceArray<T>& src, DeviceArray<T>& dst) {
    check_owned(src, "copy: source");
    check_owned(dst, "copy: destination");
    check_size(dst.size(), src.size(), "copy: destination size");
    if (src.size()) do_copy(dst.data(), src.data(), src.size() * sizeof(T), CopyKind::kDeviceToDevice);
  }
  /// x_i = value for every i.
  void fill(DeviceArray<double>& x, double value);

  // ---------------------------------------------------------------- BLAS-1 (vectors of length n)

  /// y = a x + b y. With b = 0, y's old contents are ignored (NaN in y does not propagate).
  void axpby(double a, const DeviceArray<double>& x, double b, DeviceArray<double>& y);
  /// Returns x^T y, summed in a fixed blocked order (deterministic for any thread count).
  double dot(const DeviceArray<double>& x, const DeviceArray<double>& y);
  /// Returns ||x||_2 = sqrt(x^T x).
  double nrm2(const DeviceArray<double>& x);
  /// x = a x.
  void scale(double a, DeviceArray<double>& x);
  /// z_i = x_i y_i (z may alias x or y).
  void multiply(const DeviceArray<double>& x, const DeviceArray<double>& y, DeviceArray<double>& z);
  /// z_i = x_i / y_i (z may alias x or y); IEEE semantics for y_i = 0.
  void divide(const DeviceArray<double>& x, const DeviceArray<double>& y, DeviceArray<double>& z);

  // ---------------------------------------------------------------- sparse

  /// y = alpha op(A) x + beta y with op(A) = A (x: cols, y: rows) or A^T (x: rows, y: cols).
  /// The transposed product gathers through A's transpose pattern (built on first use), so it is
  /// as deterministic as the plain one. With beta = 0, y's old contents are ignored.
  void spmv(double alpha, const DeviceCsr& A, Op op, const DeviceArray<double>& x, double beta, DeviceArray<double>& y);
  /// y = alpha A x + beta y for a 3x3-block matrix (x: 3 block_cols, y: 3 block_rows).
  void bsr3_spmv(double alpha, const DeviceBsr3& A, const DeviceArray<double>& x, double beta, DeviceArray<double>& y);
  /// Multi-vector product Y = alpha op(A) X + beta Y with X and Y of 3 columns, row-major
  /// (X: cols(op A) x 3, Y: rows(op A) x 3): one scalar matrix applied to the x, y and z
  /// coordinates at once, so an interleaved xyz vector of a per-vertex system A_scalar (x) I_3
  /// is multiplied with a third of the matrix traffic of the 3x3-block form. The transposed
  /// product gathers through A's transpose pattern, as in spmv().
  void spmv3(double alpha, const DeviceCsr& A, Op op, const DeviceArray<double>& X, double beta,
             DeviceArray<double>& Y);
  /// Symbolic phase of C = A B: returns C with its pattern (sorted columns) and zero values.
  /// Reuse it with spgemm_numeric() for as long as A and B keep their patterns.
  /// Throws sinew::Error when A.cols != B.rows.
  DeviceCsr spgemm_symbolic(const DeviceCsr& A, const DeviceCsr& B);
  /// Numeric phase of C = A B into a C made by spgemm_symbolic(A, B) (same patterns of A, B).
  /// Throws sinew::Error when C is not rows(A) x cols(B) or A.cols != B.rows.
  void spgemm_numeric(const DeviceCsr& A, const DeviceCsr& B, DeviceCsr& C);

  // ---------------------------------------------------------------- batch physics

  /// R_e = polar rotation of F_e for each of n elements (F, R: (n x 9), each 3x3 row-major);
  /// the closest proper rotation, also for inverted F_e (sinew::polar_rotation). Throws
  /// sinew::Error when F.size() is not a multiple of 9 or R.size() != F.size().
  void polar3(const DeviceArray<double>& F, DeviceArray<double>& R);

  /// True when this backend's memory is host memory and its threads run host code, so that
  /// for_each_range() works (serial, tbb, kokkos on a host execution space; not cuda).
  virtual bool runs_host_code() const { return false; }
  /// The CUDA device and stream this backend issues its kernels on, when it runs CUDA kernels
  /// (cuda; a Kokkos backend on a CUDA execution space could report its own); empty otherwise.
  /// It is the capability sinew::for_each_index() asks for, instead of a backend's name.
  virtual std::optional<CudaQueue> cuda_queue() const { return std::nullopt; }
  /// Runs @p kernel over [0, n) split into ranges, concurrently where the backend has threads.
  /// Every index is computed by exactly one call, so results do not depend on the split.
  /// @throws sinew::Error when !runs_host_code(), naming the backend.
  void for_each_range(std::size_t n, const RangeKernel& kernel);

 protected:
  /// Sets the registry name.
  explicit Backend(std::string name) : name_(std::move(name)) {}

  /// Allocates @p bytes (> 0) of backend memory; throws sinew::Error when out of memory.
  virtual void* do_allocate(std::size_t bytes) = 0;
  /// Frees memory from do_allocate().
  virtual void do_deallocate(void* pointer) noexcept = 0;
  /// Copies @p bytes (> 0) between host and backend memory as @p kind says.
  virtual void do_copy(void* dst, const void* src, std::size_t bytes, CopyKind kind) = 0;
  /// x_i = value, i < n.
  virtual void do_fill(std::size_t n, double* x, double value) = 0;
  /// y = a x + b y over n entries (b = 0 ignores y).
  virtual void do_axpby(std::size_t n, double a, const double* x, double b, double* y) = 0;
  /// x^T y over n entries.
  virtual double do_dot(std::size_t n, const double* x, const double* y) = 0;
  /// x = a x over n entries.
  virtual void do_scale(std::size_t n, double a, double* x) = 0;
  /// z = x .* y (divide = false) or x ./ y (divide = true) over n entries.
  virtual void do_elementwise(std::size_t n, const double* x, const double* y, double* z, bool divide) = 0;
  /// y = alpha A x + beta y, rows(A) entries of y.
  virtual void do_spmv(double alpha, const CsrRef& A, const double* x, double beta, double* y) = 0;
  /// y = alpha A^T x + beta y through the gather pattern @p At of A (values in A.values).
  virtual void do_spmv_transpose(double alpha, const CsrRef& A, const CsrTransposePattern& At, const double* x,
                                 double beta, double* y) = 0;
  /// y = alpha A x + beta y for a 3x3-block matrix.
  virtual void do_bsr3_spmv(double alpha, const DeviceBsr3& A, const double* x, double beta, double* y) = 0;
  /// Y = alpha A X + beta Y with n x 3 row-major X and Y.
  virtual void do_spmv3(double alpha, const CsrRef& A, const double* X, double beta, double* Y) = 0;
  /// Y = alpha A^T X + beta Y with n x 3 row-major X and Y, through the gather pattern @p At.
  virtual void do_spmv3_transpose(double alpha, const CsrRef& A, const CsrTransposePattern& At, const double* X,
                                  double beta, double* Y) = 0;
  /// Numeric C = A B into C's precomputed pattern.
  virtual void do_spgemm_numeric(const CsrRef& A, const CsrRef& B, DeviceCsr& C) = 0;
  /// Batch polar rotations of n 3x3 matrices.
  virtual void do_polar3(std::size_t n, const double* F, double* R) = 0;
  /// for_each_range() on a backend that runs host code (only called when runs_host_code()).
  virtual void do_for_each_range(std::size_t n, const RangeKernel& kernel);

 private:
  friend void* detail::backend_allocate(Backend&, std::size_t);
  friend void detail::backend_deallocate(Backend&, void*) noexcept;

  template <class T>
  void check_owned(const DeviceArray<T>& a, const char* what) const {
    if (a.backend() != this && !(a.empty() && a.backend() == nullptr)) throw_not_owned(what);
  }
  [[noreturn]] void throw_not_owned(const char* what) const;
  static void check_size(std::size_t actual, std::size_t expected, const char* what);
  void check_csr(const DeviceCsr& A, const char* what) const;
  const CsrTransposePattern& transpose_pattern(const DeviceCsr& A);

  std::string name_;
};

}  // namespace sinew
