/// @file
/// @brief The local-problem solvers by name, for programs and files that choose one by a string
/// (`sinew contact solve --solver`): each name is the solver's own ConstraintSolver::name().
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/core/backend.hpp"

namespace sinew::constraints {

/// The names make_constraint_solver() knows: "newton-fb", "newton-minmap", "pgs",
/// "newton-cr-fb", "newton-cr-minmap".
const std::vector<std::string>& constraint_solver_names();

/// The solver named @p name, on @p backend (which must outlive it), stopping at natural-map error
/// @p tolerance or after @p max_iterations iterations; max_iterations <= 0 picks a limit for
/// solving a problem to its end: 100000 sweeps for PGS, 200 Newton steps, 2000 for the
/// conjugate-residual Newton (linear on friction). Other options are the solvers' defaults.
/// @throws sinew::Error naming the known names when @p name is not one of them.
std::unique_ptr<ConstraintSolver> make_constraint_solver(const std::string& name, Backend& backend, double tolerance,
                                                         int max_iterations = 0);

}  // namespace sinew::constraints
