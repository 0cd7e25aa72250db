// Contact problems from numpy / scipy arrays (the local form u = W r + q of FCLIB, one Coulomb
// cone per contact), their solvers by name, the natural-map error and FCLIB local files.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>

#include "bindings.hpp"
#include "contact_problem.hpp"
#include "sinew/constraints/fclib_file.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/solver_by_name.hpp"
#include "sinew/core/error.hpp"

namespace sinew::python {

using constraints::BlockKind;

std::vector<constraints::ConstraintBlock> contact_blocks(const Eigen::VectorXd& mu, bool box_friction) {
  std::vector<constraints::ConstraintBlock> blocks;
  for (Eigen::Index c = 0; c < mu.size(); ++c)
    blocks.push_back({box_friction ? BlockKind::kContactBoxFriction : BlockKind::kContact, mu[c]});
  return blocks;
}

ContactProblem make_problem(CsrMatrix W, Eigen::VectorXd q, const Eigen::VectorXd& mu, bool box_friction) {
  ContactProblem out;
  require(q.size() == 3 * mu.size(), [&] {
    return "ContactProblem: q has " + std::to_string(q.size()) + " rows, expected 3 per contact (" +
           std::to_string(mu.size()) + " mu values: " + std::to_string(3 * mu.size()) + ")";
  });
  out.problem.W = std::move(W);
  out.problem.q = std::move(q);
  out.problem.blocks = contact_blocks(mu, box_friction);
  out.problem.validate();
  return out;
}

Eigen::VectorXd mu_of(const std::vector<constraints::ConstraintBlock>& blocks) {
  Eigen::VectorXd mu(static_cast<Eigen::Index>(blocks.size()));
  for (std::size_t c = 0; c < blocks.size(); ++c) mu[static_cast<Eigen::Index>(c)] = blocks[c].mu;
  return mu;
}

namespace {

// A state name per block: "open", "closed", "stick", "slip".
std::vector<std::string> state_names(const std::vector<constraints::RowState>& states) {
  static const char* const names[] = {"open", "closed", "stick", "slip"};
  std::vector<std::string> out;
  for (constraints::RowState s : states) out.emplace_back(names[static_cast<int>(s)]);
  return out;
}

// An FCLIB global problem as a dict of arrays: M, H, G (scipy.sparse), f, w, b, mu, title,
// description, math_info.
py::dict global_dict(constraints::FclibGlobalProblem p) {
  py::dict d;
  d["M"] = csr_to_scipy(p.M);
  d["H"] = csr_to_scipy(p.H);
  d["G"] = csr_to_scipy(p.G);
  d["f"] = std::move(p.f);
  d["w"] = std::move(p.w);
  d["b"] = std::move(p.b);
  d["mu"] = std::move(p.mu);
  d["title"] = p.info.title;
  d["description"] = p.info.description;
  d["math_info"] = p.info.math_info;
  return d;
}

}  // namespace

void bind_contact(py::module_& m) {
  py::class_<ContactProblem>(m, "ContactProblem",
                             "A frictional contact problem u = W r + q (FCLIB's local form): per contact, rows "
                             "(normal, tangent 1, tangent 2) and Coulomb's cone with its mu.")
      .def(py::init([](const py::handle& W, Eigen::VectorXd q, const Eigen::VectorXd& mu, bool box_friction) {
             return make_problem(csr_from_scipy(W, "ContactProblem: W"), std::move(q), mu, box_friction);
           }),
           py::arg("W"), py::arg("q"), py::arg("mu"), py::arg("box_friction") = false,
           "W: scipy.sparse (m x m), q (m), mu (m / 3), all copied; box_friction: a box (pyramid) bound instead of "
           "the circular cone. Raises sinew.Error naming the first bad size or value.")
      .def_property_readonly(
          "W", [](const ContactProblem& p) { return csr_to_scipy(p.problem.W); },
          "The Delassus operator as a scipy.sparse.csr_matrix (a copy).")
      .def_property_readonly(
          "q", [](py::object self) { return readonly_view(self.cast<const ContactProblem&>().problem.q, self); },
          "The free velocity (m): a read-only view into the problem, no copy.")
      .def_property_readonly(
          "mu", [](const ContactProblem& p) { return mu_of(p.problem.blocks); },
          "Friction coefficient per contact (a copy).")
      .def_property_readonly(
          "rows", [](const ContactProblem& p) { return p.problem.rows(); }, "Rows m = 3 contacts.")
      .def_property_readonly(
          "contacts", [](const ContactProblem& p) { return p.problem.blocks.size(); }, "Number of contacts.")
      .def_property(
          "title", [](const ContactProblem& p) { return p.info.title; },
          [](ContactProblem& p, std::string t) { p.info.title = std::move(t); }, "FCLIB title.")
      .def_property(
          "description", [](const ContactProblem& p) { return p.info.description; },
          [](ContactProblem& p, std::string t) { p.info.description = std::move(t); }, "FCLIB description.");

  py::class_<constraints::SolverReport>(m, "ContactReport", "How a contact solve ended.")
      .def_property_readonly(
          "status", [](const constraints::SolverReport& r) { return to_string(r.status); },
          "'converged', 'not converged' or 'failed'.")
      .def_property_readonly("converged", &constraints::SolverReport::converged, "True when the tolerance was reached.")
      .def_readonly("iterations", &constraints::SolverReport::iterations, "Iterations performed.")
      .def_readonly("error", &constraints::SolverReport::error, "Final natural-map error, relative to ||q||.")
      .def_readonly("error_history", &constraints::SolverReport::error_history, "Natural-map error per iteration.")
      .def_property_readonly(
          "states", [](const constraints::SolverReport& r) { return state_names(r.states); },
          "Per contact at the final r: 'open', 'stick' or 'slip'.")
      .def_readonly("message", &constraints::SolverReport::message, "What happened.");

  m.def("contact_solver_names", &constraints::constraint_solver_names,
        "Names solve_contact() accepts: newton-fb, newton-minmap, pgs, newton-cr-fb, newton-cr-minmap.");
  m.def(
      "solve_contact",
      [](const ContactProblem& p, const std::string& solver, double tol, int max_iterations,
         std::optional<Eigen::VectorXd> r0, const std::string& backend) {
        const SharedBackend be = backend_by_name(backend);
        std::unique_ptr<constraints::ConstraintSolver> s =
            constraints::make_constraint_solver(solver, *be, tol, max_iterations);
        Eigen::VectorXd r = r0 ? std::move(*r0) : Eigen::VectorXd();
        constraints::SolverReport report;
        {
          py::gil_scoped_release release;
          report = s->solve(p.problem, r);
        }
        return py::make_tuple(std::move(r), std::move(report));
      },
      py::arg("problem"), py::arg("solver") = "newton-fb", py::arg("tol") = 1e-8, py::arg("max_iterations") = 0,
      py::arg("r0") = py::none(), py::arg("backend") = "",
      "Solves `problem` with the solver named `solver` to natural-map error `tol` (relative to ||q||); "
      "max_iterations <= 0: the solver's limit for a full solve; r0 (m): warm start. Returns (r, ContactReport); "
      "r (m) is the last iterate whatever the status (moved to numpy, no copy).");
  m.def(
      "natural_map_error",
      [](const ContactProblem& p, const Eigen::VectorXd& r) {
        return constraints::natural_map_error(p.problem, r).relative;
      },
      py::arg("problem"), py::arg("r"),
      "The natural-map error of `problem` at impulse r (m), relative to ||q||: 0 exactly at a solution.");

  m.def("fclib_supported", &constraints::fclib_supported, "Whether this build reads and writes FCLIB (HDF5) files.");
  m.def(
      "read_fclib_local",
      [](const std::string& path) {
        constraints::FclibLocalProblem f = constraints::read_fclib_local(path);
        ContactProblem p = make_problem(std::move(f.W), std::move(f.q), f.mu, false);
        p.info = std::move(f.info);
        return p;
      },
      py::arg("path"), "Reads the local problem of the FCLIB file `path`; raises sinew.Error naming the file.");
  m.def(
      "read_fclib_solution",
      [](const std::string& path) -> py::object {
        std::optional<constraints::FclibSolution> s = constraints::read_fclib_solution(path);
        if (!s) return py::none();
        py::dict d;
        d["v"] = std::move(s->v);
        d["u"] = std::move(s->u);
        d["r"] = std::move(s->r);
        d["l"] = std::move(s->l);
        return std::move(d);
      },
      py::arg("path"), "The solution stored in the FCLIB file `path` as a dict of arrays v, u, r, l, or None.");
  m.def(
      "write_fclib_local",
      [](const std::string& path, const ContactProblem& p, std::optional<Eigen::VectorXd> r) {
        constraints::FclibLocalProblem f;
        f.W = p.problem.W;
        f.q = p.problem.q;
        f.mu = mu_of(p.problem.blocks);
        f.info = p.info;
        for (const constraints::ConstraintBlock& b : p.problem.blocks)
          require(b.kind == BlockKind::kContact, "write_fclib_local: FCLIB holds circular-cone contacts only");
        if (!r) return constraints::write_fclib_local(path, f);
        constraints::FclibSolution s;
        s.r = std::move(*r);
        require(s.r.size() == p.problem.q.size(), [&] {
          return "write_fclib_local: r has " + std::to_string(s.r.size()) + " rows, expected " +
                 std::to_string(p.problem.q.size());
        });
        s.u = p.problem.q;
        s.u += to_eigen(p.problem.W) * s.r;
        constraints::write_fclib_local(path, f, &s);
      },
      py::arg("path"), py::arg("problem"), py::arg("r") = py::none(),
      "Writes `problem` (and the solution r with its u = W r + q, when given) to the FCLIB file `path`, atomically.");
  m.def(
      "read_fclib_global", [](const std::string& path) { return global_dict(constraints::read_fclib_global(path)); },
      py::arg("path"),
      "Reads the global problem of the FCLIB file `path` (M v = H r + G l + f, G^T v + b = 0, u = H^T v + w, one "
      "Coulomb cone per contact) as a dict: M, H, G (scipy.sparse), f, w, b, mu, title, description, math_info.");
  m.def(
      "write_fclib_global",
      [](const std::string& path, const py::handle& M, const py::handle& H, Eigen::VectorXd f, Eigen::VectorXd w,
         Eigen::VectorXd mu, const py::object& G, std::optional<Eigen::VectorXd> b, std::optional<Eigen::VectorXd> r,
         std::optional<Eigen::VectorXd> v, const std::string& title) {
        constraints::FclibGlobalProblem p;
        p.M = csr_from_scipy(M, "write_fclib_global: M");
        p.H = csr_from_scipy(H, "write_fclib_global: H");
        if (!G.is_none())
          p.G = csr_from_scipy(G, "write_fclib_global: G");
        else {
          p.G.rows = p.M.rows;
          p.G.row_ptr.assign(static_cast<std::size_t>(p.M.rows) + 1, 0);
        }
        p.f = std::move(f);
        p.w = std::move(w);
        if (b) p.b = std::move(*b);
        p.mu = std::move(mu);
        p.info.title = title;
        if (!r && !v) return constraints::write_fclib_global(path, p);
        require(r && v, "write_fclib_global: give both r and v for a solution, or neither");
        constraints::FclibSolution s;
        s.r = std::move(*r);
        s.v = std::move(*v);
        require(s.v.size() == p.H.rows && s.r.size() == p.H.cols,
                "write_fclib_global: v must have M's rows and r H's columns");
        s.u = p.w;
        s.u += to_eigen(p.H).transpose() * s.v;
        constraints::write_fclib_global(path, p, &s);
      },
      py::arg("path"), py::arg("M"), py::arg("H"), py::arg("f"), py::arg("w"), py::arg("mu"), py::arg("G") = py::none(),
      py::arg("b") = py::none(), py::arg("r") = py::none(), py::arg("v") = py::none(), py::arg("title") = "",
      "Writes a global problem (M (n x n), H (n x m), f (n), w (m), mu (m / 3); optional equalities G (n x p), "
      "b (p)) and, when given, its solution r (m), v (n) with u = H^T v + w, to the FCLIB file `path`, "
      "atomically. Simulation.contact() gives these arrays for a step. Raises sinew.Error naming the file.");
}

}  // namespace sinew::python
