// Baraff's O(n) factor of a tree (or forest) of bodies and pairwise constraints given as numpy
// arrays, with workless auxiliary rows as equalities (loop closures): sinew.BaraffSolver.
#include <pybind11/eigen.h>
#include <pybind11/stl.h>

#include <optional>
#include <tuple>
#include <vector>

#include "bindings.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::python {
namespace {

/// A primary constraint as Python gives it: (body_a, body_b, J_a, J_b), -1 for the world (its block empty).
using ConstraintTuple = std::tuple<int, int, Eigen::MatrixXd, Eigen::MatrixXd>;
/// An auxiliary row as Python gives it: a list of (body, 1 x dim(body) row).
using AuxiliaryRow = std::vector<std::pair<int, Eigen::RowVectorXd>>;

/// The problem and its factorization, with the workspace of its solves.
struct PyBaraff {
  BaraffProblem problem;                  ///< bodies, constraints, auxiliary rows
  BaraffSolver solver;                    ///< the factorization of H
  mutable BaraffWorkspace ws;             ///< scratch memory of the solves
  mutable std::atomic<bool> busy{false};  ///< a solve is running (BusyGuard)

  explicit PyBaraff(BaraffProblem p) : problem(std::move(p)), solver(problem) {}
};

BaraffProblem make_problem(const std::vector<Eigen::MatrixXd>& masses, const std::vector<ConstraintTuple>& constraints,
                           const std::vector<AuxiliaryRow>& auxiliary) {
  std::vector<BaraffBody> bodies;
  for (const Eigen::MatrixXd& m : masses) bodies.push_back({m});
  std::vector<BaraffConstraint> primary;
  for (const auto& [a, b, ja, jb] : constraints) {
    BaraffConstraint c;
    c.body_a = a;
    c.body_b = b;
    c.jacobian_a = a == kBaraffWorld ? Eigen::MatrixXd() : ja;
    c.jacobian_b = b == kBaraffWorld ? Eigen::MatrixXd() : jb;
    primary.push_back(std::move(c));
  }
  std::vector<BaraffAuxiliaryConstraint> aux;
  for (const AuxiliaryRow& row : auxiliary) {
    BaraffAuxiliaryConstraint a;
    for (const auto& [body, jacobian] : row) a.blocks.push_back({body, jacobian, {}});
    aux.push_back(std::move(a));
  }
  return BaraffProblem(std::move(bodies), std::move(primary), std::move(aux));
}

}  // namespace

void bind_baraff(py::module_& m) {
  py::class_<PyBaraff>(m, "BaraffSolver",
                       "Baraff's linear-time factor of the KKT matrix H = [M J^T; J 0] of bodies and primary "
                       "constraints forming a forest, with workless auxiliary rows solved as equalities.")
      .def(py::init([](const std::vector<Eigen::MatrixXd>& masses, const std::vector<ConstraintTuple>& constraints,
                       const std::vector<AuxiliaryRow>& auxiliary) {
             py::gil_scoped_release release;  // the O(n) factorization
             return std::make_unique<PyBaraff>(make_problem(masses, constraints, auxiliary));
           }),
           py::arg("masses"), py::arg("constraints"), py::arg("auxiliary") = std::vector<AuxiliaryRow>{},
           "masses: one SPD (d x d) array per body; constraints: (body_a, body_b, J_a, J_b) per primary "
           "constraint of dimension m, J_x of shape (m x dim(body_x)), body -1 for the world (its J ignored); "
           "auxiliary: rows [(body, J row (dim(body))), ...]. Raises sinew.Error naming the body or constraint "
           "(a cycle among the primary constraints, a singular pivot, a bad size).")
      .def(
          "solve",
          [](const PyBaraff& s, const Eigen::VectorXd& force, const Eigen::VectorXd& bias,
             std::optional<Eigen::VectorXd> aux_bias) {
            BaraffSolution out;
            {
              BusyGuard guard(s.busy, "BaraffSolver.solve");
              py::gil_scoped_release release;
              if (aux_bias)
                s.solver.solve(force, bias, *aux_bias, s.ws, out);
              else
                s.solver.solve(force, bias, s.ws, out);
            }
            return py::make_tuple(std::move(out.acceleration), std::move(out.lambda), std::move(out.mu));
          },
          py::arg("force"), py::arg("bias"), py::arg("aux_bias") = py::none(),
          "Solves M a = J^T lambda (+ K mu) + force, J a + bias = 0 (and J^a a + aux_bias = 0 when the problem "
          "has auxiliary rows): returns (a (dofs), lambda (multipliers), mu (auxiliary rows)).")
      .def_property_readonly(
          "num_dofs", [](const PyBaraff& s) { return s.solver.num_dofs(); }, "Sum of the body dimensions.")
      .def_property_readonly(
          "num_multipliers", [](const PyBaraff& s) { return s.solver.num_multipliers(); },
          "Sum of the primary constraint dimensions.")
      .def_property_readonly(
          "num_components", [](const PyBaraff& s) { return s.solver.num_components(); },
          "Trees in the forest of bodies and primary constraints.")
      .def_property_readonly(
          "elimination_order", [](const PyBaraff& s) { return s.solver.elimination_order(); },
          "Depth-first elimination order: body i is node i, constraint j node num_bodies + j.");
}

}  // namespace sinew::python
