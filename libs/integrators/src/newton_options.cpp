#include "sinew/integrators/newton_options.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::integrators {

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::kEigenLdlt:
      return std::make_unique<EigenLdltSolver>();
    case LinearSolverKind::kCholmod:
      return std::make_unique<CholmodSolver>();
  }
  throw Error("make_linear_solver: unknown LinearSolverKind " + std::to_string(static_cast<int>(kind)));
}

void NewtonOptions::validate() const {
  const std::string who = "NewtonOptions: ";
  require(std::isfinite(relative_tolerance) && relative_tolerance >= 0.0,
          who + "relative_tolerance must be finite and >= 0, got " + number_text(relative_tolerance));
  require(std::isfinite(absolute_tolerance) && absolute_tolerance >= 0.0,
          who + "absolute_tolerance must be finite and >= 0, got " + number_text(absolute_tolerance));
  require(relative_tolerance > 0.0 || absolute_tolerance > 0.0,
          who + "relative_tolerance and absolute_tolerance must not both be 0");
  require(max_iterations >= 1, who + "max_iterations must be >= 1, got " + std::to_string(max_iterations));
  require(armijo > 0.0 && armijo < 1.0, who + "armijo must be in (0, 1), got " + number_text(armijo));
  require(backtrack > 0.0 && backtrack < 1.0, who + "backtrack must be in (0, 1), got " + number_text(backtrack));
  require(max_line_search_steps >= 0,
          who + "max_line_search_steps must be >= 0, got " + std::to_string(max_line_search_steps));
  require(linear_solver == LinearSolverKind::kEigenLdlt || linear_solver == LinearSolverKind::kCholmod,
          who + "linear_solver must be kEigenLdlt or kCholmod");
}

}  // namespace sinew::integrators
