// Conversions between numpy / scipy.sparse and sinew's host types, shared by the binding files.
#include <cstdint>
#include <limits>

#include "bindings.hpp"
#include "sinew/core/error.hpp"

namespace sinew::python {

namespace {

// A 1-D array of @p A's attribute @p name as a contiguous array of T (a copy only when its dtype
// or layout differs).
template <class T>
py::array_t<T, py::array::c_style | py::array::forcecast> attr_array(const py::handle& A, const char* name) {
  return py::array_t<T, py::array::c_style | py::array::forcecast>::ensure(A.attr(name));
}

Index checked_index(std::int64_t n, const char* what, const char* of) {
  if (n < 0 || n > std::numeric_limits<Index>::max())
    throw Error(std::string(what) + ": " + of + " " + std::to_string(n) + " does not fit sinew's 32-bit index");
  return static_cast<Index>(n);
}

}  // namespace

CsrMatrix csr_from_scipy(const py::handle& A, const char* what) {
  const py::module_ sparse = py::module_::import("scipy.sparse");
  if (!sparse.attr("issparse")(A).cast<bool>())
    throw Error(std::string(what) + ": expected a scipy.sparse matrix, got " +
                py::str(py::type::handle_of(A).attr("__name__")).cast<std::string>());
  py::object csr = A.attr("tocsr")();  // the same object when A is CSR already
  if (!csr.attr("has_canonical_format").cast<bool>()) {
    csr = csr.attr("copy")();      // never change the caller's matrix
    csr.attr("sum_duplicates")();  // sorts the columns too
  }
  const py::tuple shape = csr.attr("shape");
  CsrMatrix out;
  out.rows = checked_index(shape[0].cast<std::int64_t>(), what, "row count");
  out.cols = checked_index(shape[1].cast<std::int64_t>(), what, "column count");
  const auto indptr = attr_array<std::int64_t>(csr, "indptr");
  const auto indices = attr_array<std::int64_t>(csr, "indices");
  const auto data = attr_array<double>(csr, "data");
  checked_index(static_cast<std::int64_t>(indices.size()), what, "entry count");
  out.row_ptr.resize(static_cast<std::size_t>(indptr.size()));
  for (py::ssize_t i = 0; i < indptr.size(); ++i)
    out.row_ptr[static_cast<std::size_t>(i)] = static_cast<Index>(indptr.at(i));
  out.col_idx.resize(static_cast<std::size_t>(indices.size()));
  for (py::ssize_t i = 0; i < indices.size(); ++i)
    out.col_idx[static_cast<std::size_t>(i)] = static_cast<Index>(indices.at(i));
  out.values.assign(data.data(), data.data() + data.size());
  out.validate();
  return out;
}

py::object csr_to_scipy(const CsrMatrix& A) {
  py::array_t<double> data(static_cast<py::ssize_t>(A.values.size()), A.values.data());
  py::array_t<Index> indices(static_cast<py::ssize_t>(A.col_idx.size()), A.col_idx.data());
  py::array_t<Index> indptr(static_cast<py::ssize_t>(A.row_ptr.size()), A.row_ptr.data());
  return py::module_::import("scipy.sparse")
      .attr("csr_matrix")(py::make_tuple(data, indices, indptr), py::arg("shape") = py::make_tuple(A.rows, A.cols));
}

BusyGuard::BusyGuard(std::atomic<bool>& flag, const char* what) : flag_(flag) {
  if (flag.exchange(true))
    throw Error(std::string(what) + ": the object is in use by another call (another thread, or a callback of a run)");
}

py::array readonly_view(const Eigen::VectorXd& v, const py::object& owner) {
  py::array_t<double> a({v.size()}, {static_cast<py::ssize_t>(sizeof(double))}, v.data(), owner);
  py::detail::array_proxy(a.ptr())->flags &= ~py::detail::npy_api::NPY_ARRAY_WRITEABLE_;
  return std::move(a);
}

}  // namespace sinew::python
