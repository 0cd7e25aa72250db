#include "sinew/core/backend.hpp"

#include <algorithm>
#include <cmath>
#include <string>

namespace sinew {

namespace detail {
void* backend_allocate(Backend& backend, std::size_t bytes) {
  return bytes == 0 ? nullptr : backend.do_allocate(bytes);
}
void backend_deallocate(Backend& backend, void* pointer) noexcept { backend.do_deallocate(pointer); }
}  // namespace detail

void Backend::throw_not_owned(const char* what) const {
  throw Error(std::string(what) + " array belongs to another backend (or none), not to '" + name_ +
              "': arrays must be allocated by the backend that uses them");
}

void Backend::check_size(std::size_t actual, std::size_t expected, const char* what) {
  if (actual != expected)
    throw Error(std::string(what) + " is " + std::to_string(actual) + ", expected " + std::to_string(expected));
}

void Backend::check_csr(const DeviceCsr& A, const char* what) const {
  check_owned(A.row_ptr, what);
  check_owned(A.col_idx, what);
  check_owned(A.values, what);
  if (A.rows < 0 || A.cols < 0) throw Error(std::string(what) + " has negative dimensions");
  check_size(A.row_ptr.size(), static_cast<std::size_t>(A.rows) + 1, (std::string(what) + " row_ptr size").c_str());
  check_size(A.values.size(), A.col_idx.size(), (std::string(what) + " values size").c_str());
}

void Backend::fill(DeviceArray<double>& x, double value) {
  check_owned(x, "fill: x");
  if (!x.empty()) do_fill(x.size(), x.data(), value);
}

void Backend::axpby(double a, const DeviceArray<double>& x, double b, DeviceArray<double>& y) {
  check_owned(x, "axpby: x");
  check_owned(y, "axpby: y");
  check_size(y.size(), x.size(), "axpby: size of y");
  if (!x.empty()) do_axpby(x.size(), a, x.data(), b, y.data());
}

double Backend::dot(const DeviceArray<double>& x, const DeviceArray<double>& y) {
  check_owned(x, "dot: x");
  check_owned(y, "dot: y");
  check_size(y.size(), x.size(), "dot: size of y");
  return x.empty() ? 0.0 : do_dot(x.size(), x.data(), y.data());
}

double Backend::nrm2(const DeviceArray<double>& x) { return std::sqrt(dot(x, x)); }

void Backend::scale(double a, DeviceArray<double>& x) {
  check_owned(x, "scale: x");
  if (!x.empty()) do_scale(x.size(), a, x.data());
}

void Backend::multiply(const DeviceArray<double>& x, const DeviceArray<double>& y, DeviceArray<double>& z) {
  check_owned(x, "multiply: x");
  check_owned(y, "multiply: y");
  check_owned(z, "multiply: z");
  check_size(y.size(), x.size(), "multiply: size of y");
  check_size(z.size(), x.size(), "multiply: size of z");
  if (!x.empty()) do_elementwise(x.size(), x.data(), y.data(), z.data(), false);
}

void Backend::divide(const DeviceArray<double>& x, const DeviceArray<double>& y, DeviceArray<double>& z) {
  check_owned(x, "divide: x");
  check_owned(y, "divide: y");
  check_owned(z, "divide: z");
  check_size(y.size(), x.size(), "divide: size of y");
  check_size(z.size(), x.size(), "divide: size of z");
  if (!x.empty()) do_elementwise(x.size(), x.data(), y.data(), z.data(), true);
}

namespace {
// Counting sort of A's entries by column: the rows of A^T with a gather map into A's values.
CsrTransposePattern build_transpose(Backend& b, const DeviceCsr& A) {
  const std::vector<Index> ptr = b.download(A.row_ptr), col = b.download(A.col_idx);
  std::vector<Index> t_ptr(static_cast<std::size_t>(A.cols) + 1, 0), t_row(col.size()), t_src(col.size());
  for (Index c : col) ++t_ptr[static_cast<std::size_t>(c) + 1];
  for (std::size_t j = 0; j < static_cast<std::size_t>(A.cols); ++j) t_ptr[j + 1] += t_ptr[j];
  std::vector<Index> next(t_ptr.begin(), t_ptr.end() - 1);
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = ptr[i]; k < ptr[i + 1]; ++k) {
      const Index pos = next[col[k]]++;
      t_row[pos] = i;
      t_src[pos] = k;
    }
  return CsrTransposePattern{b.upload(t_ptr), b.upload(t_row), b.upload(t_src)};
}
}  // namespace

const CsrTransposePattern& Backend::transpose_pattern(const DeviceCsr& A) {
  if (!A.transpose) A.transpose = std::make_shared<CsrTransposePattern>(build_transpose(*this, A));
  return *A.transpose;
}

void Backend::spmv(double alpha, const DeviceCsr& A, Op op, const DeviceArray<double>& x, double beta,
                   DeviceArray<double>& y) {
  check_csr(A, "spmv: A");
  check_owned(x, "spmv: x");
  check_owned(y, "spmv: y");
  const bool t = op == Op::kTranspose;
  check_size(x.size(), static_cast<std::size_t>(t ? A.rows : A.cols),
             t ? "spmv: size of x (rows of A)" : "spmv: size of x (cols of A)");
  check_size(y.size(), static_cast<std::size_t>(t ? A.cols : A.rows),
             t ? "spmv: size of y (cols of A)" : "spmv: size of y (rows of A)");
  if (y.empty()) return;
  if (!t) {
    do_spmv(alpha, A.ref(), x.data(), beta, y.data());
    return;
  }
  do_spmv_transpose(alpha, A.ref(), transpose_pattern(A), x.data(), beta, y.data());
}

void Backend::bsr3_spmv(double alpha, const DeviceBsr3& A, const DeviceArray<double>& x, double beta,
                        DeviceArray<double>& y) {
  check_owned(A.row_ptr, "bsr3_spmv: A");
  check_owned(A.values, "bsr3_spmv: A");
  check_owned(x, "bsr3_spmv: x");
  check_owned(y, "bsr3_spmv: y");
  check_size(A.row_ptr.size(), static_cast<std::size_t>(A.block_rows) + 1, "bsr3_spmv: A row_ptr size");
  check_size(A.values.size(), 9 * A.col_idx.size(), "bsr3_spmv: A values size (9 per block)");
  check_size(x.size(), 3 * static_cast<std::size_t>(A.block_cols), "bsr3_spmv: size of x (3 block cols)");
  check_size(y.size(), 3 * static_cast<std::size_t>(A.block_rows), "bsr3_spmv: size of y (3 block rows)");
  if (!y.empty()) do_bsr3_spmv(alpha, A, x.data(), beta, y.data());
}

void Backend::spmv3(double alpha, const DeviceCsr& A, Op op, const DeviceArray<double>& X, double beta,
                    DeviceArray<double>& Y) {
  check_csr(A, "spmv3: A");
  check_owned(X, "spmv3: X");
  check_owned(Y, "spmv3: Y");
  const bool t = op == Op::kTranspose;
  const std::size_t in = static_cast<std::size_t>(t ? A.rows : A.cols),
                    out = static_cast<std::size_t>(t ? A.cols : A.rows);
  check_size(X.size(), 3 * in, t ? "spmv3: size of X (rows of A x 3)" : "spmv3: size of X (cols of A x 3)");
  check_size(Y.size(), 3 * out, t ? "spmv3: size of Y (cols of A x 3)" : "spmv3: size of Y (rows of A x 3)");
  if (Y.empty()) return;
  if (t) {
    do_spmv3_transpose(alpha, A.ref(), transpose_pattern(A), X.data(), beta, Y.data());
  } else {
    do_spmv3(alpha, A.ref(), X.data(), beta, Y.data());
  }
}

DeviceCsr Backend::spgemm_symbolic(const DeviceCsr& A, const DeviceCsr& B) {
  check_csr(A, "spgemm_symbolic: A");
  check_csr(B, "spgemm_symbolic: B");
  if (A.cols != B.rows)
    throw Error("spgemm_symbolic: inner dimensions differ: A is " + std::to_string(A.rows) + "x" +
                std::to_string(A.cols) + ", B is " + std::to_string(B.rows) + "x" + std::to_string(B.cols));
  const std::vector<Index> a_ptr = download(A.row_ptr), a_col = download(A.col_idx);
  const std::vector<Index> b_ptr = download(B.row_ptr), b_col = download(B.col_idx);
  std::vector<Index> c_ptr(static_cast<std::size_t>(A.rows) + 1, 0), c_col;
  std::vector<Index> marker(static_cast<std::size_t>(B.cols), -1);
  for (Index i = 0; i < A.rows; ++i) {
    const std::size_t row_begin = c_col.size();
    for (Index ka = a_ptr[i]; ka < a_ptr[i + 1]; ++ka) {
      const Index k = a_col[ka];
      for (Index kb = b_ptr[k]; kb < b_ptr[k + 1]; ++kb) {
        const Index j = b_col[kb];
        if (marker[j] != i) {
          marker[j] = i;
          c_col.push_back(j);
        }
      }
    }
    std::sort(c_col.begin() + static_cast<std::ptrdiff_t>(row_begin), c_col.end());
    c_ptr[static_cast<std::size_t>(i) + 1] = static_cast<Index>(c_col.size());
  }
  DeviceCsr C;
  C.rows = A.rows;
  C.cols = B.cols;
  C.row_ptr = upload(c_ptr);
  C.col_idx = upload(c_col);
  C.values = allocate<double>(c_col.size());
  fill(C.values, 0.0);
  return C;
}

void Backend::spgemm_numeric(const DeviceCsr& A, const DeviceCsr& B, DeviceCsr& C) {
  check_csr(A, "spgemm_numeric: A");
  check_csr(B, "spgemm_numeric: B");
  check_csr(C, "spgemm_numeric: C");
  if (A.cols != B.rows || C.rows != A.rows || C.cols != B.cols)
    throw Error("spgemm_numeric: dimensions of A (" + std::to_string(A.rows) + "x" + std::to_string(A.cols) + "), B (" +
                std::to_string(B.rows) + "x" + std::to_string(B.cols) + ") and C (" + std::to_string(C.rows) + "x" +
                std::to_string(C.cols) + ") do not match C = A B");
  if (C.rows) do_spgemm_numeric(A.ref(), B.ref(), C);
}

void Backend::for_each_range(std::size_t n, const RangeKernel& kernel) {
  if (!runs_host_code())
    throw Error("for_each_range: backend '" + name_ + "' (" + execution_space() +
                ") does not run host code; this batch kernel has no implementation for it yet");
  if (n > 0) do_for_each_range(n, kernel);
}

void Backend::do_for_each_range(std::size_t n, const RangeKernel& kernel) { kernel(0, n); }

void Backend::polar3(const DeviceArray<double>& F, DeviceArray<double>& R) {
  check_owned(F, "polar3: F");
  check_owned(R, "polar3: R");
  if (F.size() % 9 != 0) throw Error("polar3: size of F is " + std::to_string(F.size()) + ", not a multiple of 9");
  check_size(R.size(), F.size(), "polar3: size of R");
  if (!F.empty()) do_polar3(F.size() / 9, F.data(), R.data());
}

}  // namespace sinew
