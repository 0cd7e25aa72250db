// Krylov solvers (CG, CR, MINRES) on a scipy.sparse matrix: sinew.cg / sinew.cr / sinew.minres.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::python {
namespace {

const char* status_name(KrylovStatus s) {
  switch (s) {
    case KrylovStatus::kConverged:
      return "converged";
    case KrylovStatus::kMaxIterations:
      return "max_iterations";
    case KrylovStatus::kBreakdown:
      return "breakdown";
    case KrylovStatus::kNonFinite:
      return "non_finite";
  }
  return "?";
}

using KrylovFunction = KrylovResult (*)(Backend&, const CsrMatrix&, const Eigen::VectorXd&, Eigen::VectorXd&,
                                        const KrylovOptions&, const Eigen::VectorXd*);

// One solve: A from scipy (copied), b, x0 and the inverse diagonal copied into the solver's
// vectors, the iteration with the GIL released; returns (x, result), x moved into numpy.
py::tuple krylov_solve(KrylovFunction solve, const py::handle& A, Eigen::VectorXd b, std::optional<Eigen::VectorXd> x0,
                       double tol, int max_iterations, std::optional<Eigen::VectorXd> inverse_diagonal, bool history,
                       const std::string& backend) {
  const CsrMatrix csr = csr_from_scipy(A, "A");
  const SharedBackend be = backend_by_name(backend);
  KrylovOptions options;
  options.tolerance = tol;
  options.max_iterations = max_iterations;
  options.record_history = history;
  Eigen::VectorXd x = x0 ? std::move(*x0) : Eigen::VectorXd();
  KrylovResult result;
  {
    py::gil_scoped_release release;
    result = solve(*be, csr, b, x, options, inverse_diagonal ? &*inverse_diagonal : nullptr);
  }
  return py::make_tuple(std::move(x), std::move(result));
}

void def_solver(py::module_& m, const char* name, KrylovFunction solve, const char* doc) {
  m.def(
      name,
      [solve](const py::handle& A, Eigen::VectorXd b, std::optional<Eigen::VectorXd> x0, double tol, int max_iterations,
              std::optional<Eigen::VectorXd> inverse_diagonal, bool history, const std::string& backend) {
        return krylov_solve(solve, A, std::move(b), std::move(x0), tol, max_iterations, std::move(inverse_diagonal),
                            history, backend);
      },
      py::arg("A"), py::arg("b"), py::arg("x0") = py::none(), py::arg("tol") = KrylovOptions{}.tolerance,
      py::arg("max_iterations") = KrylovOptions{}.max_iterations, py::arg("inverse_diagonal") = py::none(),
      py::arg("history") = false, py::arg("backend") = "", doc);
}

/// The sparse inverse S' = L^-1 P of an SPD matrix with its operator on a backend: solve() is
/// the realtime paper's global step x = S'^T (S' b) (eq. (8)).
struct PySparseInverse {
  SparseInverse inverse;                   ///< S' on the host
  SharedBackend backend;                   ///< where solve() runs
  SparseInverseOperator op;                ///< S' uploaded to backend
  DeviceArray<double> b_device, x_device;  ///< (dofs) kept between solves
  std::atomic<bool> busy{false};           ///< a solve is running (BusyGuard)

  PySparseInverse(const CsrMatrix& A, const SparseInverseOptions& options, SharedBackend be)
      : inverse(A, options),
        backend(std::move(be)),
        op(*backend, inverse),
        b_device(*backend, static_cast<std::size_t>(inverse.dofs())),
        x_device(*backend, static_cast<std::size_t>(inverse.dofs())) {}

  // x = A^-1 b through the two sparse products on the backend, from and into numpy buffers.
  py::array_t<double> solve(const py::array_t<double, py::array::c_style | py::array::forcecast>& b) {
    const auto n = static_cast<std::size_t>(inverse.dofs());
    require(static_cast<std::size_t>(b.size()) == n, [&] {
      return "SparseInverse.solve: b has " + std::to_string(b.size()) + " entries, expected " + std::to_string(n);
    });
    py::array_t<double> x(b.request().shape);
    const double* in = b.data();
    double* out = x.mutable_data();
    {
      BusyGuard guard(busy, "SparseInverse.solve");
      py::gil_scoped_release release;
      backend->upload(in, n, b_device);
      op.apply(b_device, x_device);
      backend->download(x_device, out, n);
    }
    return x;
  }
};

KroneckerStructure structure_by_name(const std::string& name) {
  if (name == "auto") return KroneckerStructure::kAuto;
  if (name == "none") return KroneckerStructure::kNone;
  if (name == "kronecker3") return KroneckerStructure::kKronecker3;
  throw Error("SparseInverse: structure '" + name + "' is not one of auto, none, kronecker3");
}

}  // namespace

void bind_linalg(py::module_& m) {
  py::class_<KrylovResult>(m, "KrylovResult", "How a CG / CR / MINRES solve ended.")
      .def_property_readonly(
          "status", [](const KrylovResult& r) { return status_name(r.status); },
          "'converged', 'max_iterations', 'breakdown' or 'non_finite'.")
      .def_property_readonly("converged", &KrylovResult::converged, "True when the tolerance was reached.")
      .def_readonly("iterations", &KrylovResult::iterations, "Iterations performed.")
      .def_readonly("residual_norm", &KrylovResult::residual_norm, "||b - A x|| of the returned x.")
      .def_readonly("relative_residual", &KrylovResult::relative_residual, "||b - A x|| / ||b||.")
      .def_readonly("history", &KrylovResult::history, "Relative residual after each iteration (history=True).")
      .def_readonly("message", &KrylovResult::message, "What happened, e.g. why it did not converge.")
      .def("__repr__", [](const KrylovResult& r) {
        return "<KrylovResult " + std::string(status_name(r.status)) + ", " + std::to_string(r.iterations) +
               " iterations, relative residual " + std::to_string(r.relative_residual) + ">";
      });
  // Docstrings outlive the module's definition: static strings.
  static const std::string args =
      " A: scipy.sparse (n x n), copied; b (n); x0 (n, default 0); tol: relative residual ||b - A x|| / ||b||; "
      "inverse_diagonal (n, positive): Jacobi preconditioner M^-1; backend: by name ('' : $SINEW_BACKEND or serial). "
      "Returns (x, KrylovResult); x is the last iterate whatever the status. Raises sinew.Error on bad sizes.";
  static const std::string cg_doc = "Conjugate gradient for symmetric positive-definite A." + args;
  static const std::string cr_doc = "Conjugate residual for symmetric A." + args;
  static const std::string minres_doc = "MINRES for symmetric, possibly indefinite A." + args;
  def_solver(m, "cg", &conjugate_gradient, cg_doc.c_str());
  def_solver(m, "cr", &conjugate_residual, cr_doc.c_str());
  def_solver(m, "minres", &minres, minres_doc.c_str());

  py::class_<PySparseInverse>(m, "SparseInverse",
                              "The sparse inverse S' = L^-1 P of a symmetric positive-definite A (CHOLMOD, "
                              "nested dissection): A^-1 = S'^T S', applied as two sparse products.")
      .def(py::init([](const py::handle& A, const std::string& structure, const std::string& backend) {
             SparseInverseOptions options;
             options.structure = structure_by_name(structure);
             const CsrMatrix csr = csr_from_scipy(A, "SparseInverse: A");
             SharedBackend be = backend_by_name(backend);
             py::gil_scoped_release release;
             return std::make_unique<PySparseInverse>(csr, options, std::move(be));
           }),
           py::arg("A"), py::arg("structure") = "auto", py::arg("backend") = "",
           "Factors and inverts A (scipy.sparse, SPD, copied). structure: 'auto' detects A = A_s (x) I_3 and "
           "inverts only A_s, 'none' inverts A as given, 'kronecker3' states it. Raises sinew.Error when A is "
           "not square, symmetric and positive definite.")
      .def("solve", &PySparseInverse::solve, py::arg("b"),
           "x = S'^T (S' b) = A^-1 b on the backend (the local-global global step); b (dofs, interleaved xyz when "
           "block is 3) is read from its buffer and x written into a new array: no other copy.")
      .def_property_readonly(
          "factor", [](const PySparseInverse& s) { return csr_to_scipy(s.inverse.factor()); },
          "S' (m x m, m = dofs / block) as a scipy.sparse.csr_matrix (a copy).")
      .def_property_readonly(
          "block", [](const PySparseInverse& s) { return s.inverse.block(); },
          "3 when S' applies per coordinate (A = A_s (x) I_3), else 1.")
      .def_property_readonly(
          "dofs", [](const PySparseInverse& s) { return s.inverse.dofs(); }, "Dimension of A.")
      .def_property_readonly(
          "nnz", [](const PySparseInverse& s) { return s.inverse.nnz(); }, "Entries of S'.")
      .def_property_readonly(
          "factor_nnz", [](const PySparseInverse& s) { return s.inverse.factor_nnz(); },
          "Entries of the Cholesky factor L.")
      .def_property_readonly(
          "elimination_order", [](const PySparseInverse& s) { return s.inverse.elimination_order(); },
          "The elimination order P: column c of S' is column k of L^-1 where elimination_order[k] = c.");
}

}  // namespace sinew::python
