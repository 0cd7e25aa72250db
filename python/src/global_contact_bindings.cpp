// Frictional contact problems in FCLIB's global form from numpy / scipy arrays
// (M v = H r + f, u = H^T v + w, one Coulomb cone per contact): sinew.GlobalContactProblem, its
// reduction to the local form (to_delassus) and its solution, by any local solver on that
// reduction or by SAP on the global form itself.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <string>

#include "bindings.hpp"
#include "contact_problem.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/constraints/sap_solver.hpp"
#include "sinew/constraints/solver_by_name.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::python {
namespace {

/// A global problem of contacts only (FCLIB's global form without the equalities G, b).
struct GlobalContactProblem {
  constraints::GlobalProblem problem;  ///< M (n x n), H (n x m), f (n), w (m), blocks (m / 3 contacts)
};

GlobalContactProblem make_global(const py::handle& M, const py::handle& H, Eigen::VectorXd f, Eigen::VectorXd w,
                                 const Eigen::VectorXd& mu, bool box_friction) {
  GlobalContactProblem out;
  constraints::GlobalProblem& p = out.problem;
  p.M = csr_from_scipy(M, "GlobalContactProblem: M");
  p.H = csr_from_scipy(H, "GlobalContactProblem: H");
  require(w.size() == 3 * mu.size(), [&] {
    return "GlobalContactProblem: w has " + std::to_string(w.size()) + " rows, expected 3 per contact (" +
           std::to_string(mu.size()) + " mu values: " + std::to_string(3 * mu.size()) + ")";
  });
  p.f = std::move(f);
  p.w = std::move(w);
  p.blocks = contact_blocks(mu, box_friction);
  p.validate();
  return out;
}

// (v, r, report) of @p p solved by @p solver: SAP on the global form, or a local solver on
// W = H^T M^-1 H, q = w + H^T M^-1 f with v = M^-1 (H r + f); the GIL released meanwhile.
py::tuple solve_global(const GlobalContactProblem& p, const std::string& solver, double tol, int max_iterations,
                       std::optional<Eigen::VectorXd> r0, const std::string& backend) {
  constraints::GlobalSolution solution;
  if (r0) solution.r = std::move(*r0);
  constraints::SolverReport report;
  if (solver == "sap") {
    constraints::SapOptions options;
    options.stop.tolerance = tol;
    if (max_iterations > 0) options.stop.max_iterations = max_iterations;
    constraints::SapSolver sap(options);
    py::gil_scoped_release release;
    report = sap.solve(p.problem, solution);
  } else {
    const SharedBackend be = backend_by_name(backend);
    const std::unique_ptr<constraints::ConstraintSolver> s =
        constraints::make_constraint_solver(solver, *be, tol, max_iterations);
    py::gil_scoped_release release;
    EigenLdltSolver mass;
    const constraints::DelassusProblem local = constraints::to_delassus(p.problem, mass);
    report = s->solve(local, solution.r);
    solution.v = constraints::global_velocity(p.problem, mass, solution.r);
  }
  return py::make_tuple(std::move(solution.v), std::move(solution.r), std::move(report));
}

}  // namespace

void bind_global_contact(py::module_& m) {
  py::class_<GlobalContactProblem>(m, "GlobalContactProblem",
                                   "A frictional contact problem in FCLIB's global form: M v = H r + f, "
                                   "u = H^T v + w, per contact rows (normal, tangent 1, tangent 2) of u and r and "
                                   "Coulomb's cone with its mu (FCLIB's H is n x m: the transpose of the Jacobian).")
      .def(py::init(&make_global), py::arg("M"), py::arg("H"), py::arg("f"), py::arg("w"), py::arg("mu"),
           py::arg("box_friction") = false,
           "M: scipy.sparse (n x n) symmetric positive definite, H: scipy.sparse (n x m), f (n), w (m), mu "
           "(m / 3), all copied; box_friction: a box (pyramid) bound instead of the circular cone. Raises "
           "sinew.Error naming the first bad size or value (M's definiteness when it is factored).")
      .def_property_readonly(
          "M", [](const GlobalContactProblem& p) { return csr_to_scipy(p.problem.M); },
          "The mass matrix as a scipy.sparse.csr_matrix (a copy).")
      .def_property_readonly(
          "H", [](const GlobalContactProblem& p) { return csr_to_scipy(p.problem.H); },
          "H (n x m) as a scipy.sparse.csr_matrix (a copy).")
      .def_property_readonly(
          "f", [](py::object self) { return readonly_view(self.cast<const GlobalContactProblem&>().problem.f, self); },
          "f (n): a read-only view into the problem, no copy.")
      .def_property_readonly(
          "w", [](py::object self) { return readonly_view(self.cast<const GlobalContactProblem&>().problem.w, self); },
          "w (m): a read-only view into the problem, no copy.")
      .def_property_readonly(
          "mu", [](const GlobalContactProblem& p) { return mu_of(p.problem.blocks); },
          "Friction coefficient per contact (a copy).")
      .def_property_readonly(
          "velocities", [](const GlobalContactProblem& p) { return p.problem.velocities(); }, "n.")
      .def_property_readonly(
          "rows", [](const GlobalContactProblem& p) { return p.problem.rows(); }, "Rows m = 3 contacts.")
      .def_property_readonly(
          "contacts", [](const GlobalContactProblem& p) { return p.problem.blocks.size(); }, "Number of contacts.")
      .def(
          "to_local",
          [](const GlobalContactProblem& p) {
            ContactProblem out;
            py::gil_scoped_release release;
            EigenLdltSolver mass;
            out.problem = constraints::to_delassus(p.problem, mass);
            return out;
          },
          "The local form u = W r + q with W = H^T M^-1 H and q = w + H^T M^-1 f (FCLIB's reduction; M factored "
          "by a sparse LDL^T) as a ContactProblem. Raises sinew.Error when M is not positive definite.");
  m.def("solve_contact_global", &solve_global, py::arg("problem"), py::arg("solver") = "newton-fb",
        py::arg("tol") = 1e-8, py::arg("max_iterations") = 0, py::arg("r0") = py::none(), py::arg("backend") = "",
        "Solves a GlobalContactProblem. solver: a name of contact_solver_names(), which solves the local form "
        "of to_local() to natural-map error `tol` and then v = M^-1 (H r + f), or 'sap', Newton on SAP's convex "
        "approximation of the global form, stopped at its scaled gradient `tol` (its answer differs from "
        "Signorini-Coulomb by its regularization, a few percent of a resting box's impulse; the report's error "
        "is the natural-map error of the local form). max_iterations <= 0: the solver's limit; r0 (m): warm "
        "start; backend: of the local solvers. Returns (v, r, ContactReport), v (n) and r (m) the last iterate "
        "whatever the status, moved to numpy (no copy). The GIL is released while it solves.");
}

}  // namespace sinew::python
