#include "sinew/constraints/solver_by_name.hpp"

#include <algorithm>

#include "sinew/constraints/indicator_newton_solver.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/error.hpp"

namespace sinew::constraints {

const std::vector<std::string>& constraint_solver_names() {
  static const std::vector<std::string> names = {"newton-fb", "newton-minmap", "pgs", "newton-cr-fb",
                                                 "newton-cr-minmap"};
  return names;
}

std::unique_ptr<ConstraintSolver> make_constraint_solver(const std::string& name, Backend& backend, double tolerance,
                                                         int max_iterations) {
  const std::vector<std::string>& names = constraint_solver_names();
  if (std::find(names.begin(), names.end(), name) == names.end()) {
    std::string known;
    for (const std::string& n : names) known += (known.empty() ? "" : ", ") + n;
    throw Error("unknown constraint solver '" + name + "', expected one of: " + known);
  }
  const bool cr = name.rfind("newton-cr-", 0) == 0;
  const int fallback = name == "pgs" ? 100000 : cr ? 2000 : 200;
  const ConstraintSolverOptions stop{tolerance, max_iterations > 0 ? max_iterations : fallback};
  if (name == "pgs") {
    PgsOptions o;
    o.stop = stop;
    return std::make_unique<PgsSolver>(o);
  }
  const NcpFunction function =
      name.find("minmap") != std::string::npos ? NcpFunction::kMinMap : NcpFunction::kFischerBurmeister;
  if (cr) {
    IndicatorNewtonOptions o;
    o.stop = stop;
    o.function = function;
    return std::make_unique<IndicatorNewtonSolver>(backend, o);
  }
  NewtonOptions o;
  o.stop = stop;
  o.function = function;
  return std::make_unique<NewtonSolver>(backend, o);
}

}  // namespace sinew::constraints
