// The contact scenario tests' view of the scene library's contact scenes (issue 6), and the
// contact solvers by name.
#pragma once

#include <algorithm>
#include <memory>
#include <string>

#include "sinew/backends/registry.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/scene/contact_scenes.hpp"

namespace sinew::contact_test {

using scene::box_inertia;
using scene::box_shape;
using scene::ContactScene;
using scene::incline_scene;
using scene::kGravity;
constexpr double kPi = 3.14159265358979323846;

// The stack of the tests: 10 boxes 0.1 m high (scene::box_stack_scene()).
constexpr int kBoxes = 10;
constexpr double kHalfHeight = 0.05;
inline ContactScene stack_scene(double mu = 0.5) { return scene::box_stack_scene(kBoxes, mu); }

// A local contact solver by name ("pgs", "newton_fb", "newton_minmap") or null for "sap".
inline std::unique_ptr<constraints::ConstraintSolver> make_contact_solver(const std::string& name, Backend& backend,
                                                                          double tolerance = 1e-9,
                                                                          int pgs_sweeps = 2000) {
  if (name == "pgs") {
    constraints::PgsOptions o;
    o.stop.tolerance = tolerance;
    o.stop.max_iterations = pgs_sweeps;
    return std::make_unique<constraints::PgsSolver>(o);
  }
  if (name == "newton_fb" || name == "newton_minmap") {
    constraints::NewtonOptions o;
    o.stop.tolerance = tolerance;
    o.function = name == "newton_fb" ? constraints::NcpFunction::kFischerBurmeister : constraints::NcpFunction::kMinMap;
    return std::make_unique<constraints::NewtonSolver>(backend, o);
  }
  return nullptr;  // "sap": the global-form solver inside ContactStep
}

// Solver statistics over a run.
struct SolveStats {
  int steps = 0, max_iterations = 0, unconverged = 0;
  long total_iterations = 0;
  double max_error = 0.0;
  void add(const integrators::ContactStepReport& r) {
    if (r.rows == 0) return;
    ++steps;
    max_iterations = std::max(max_iterations, r.contact.iterations);
    total_iterations += r.contact.iterations;
    max_error = std::max(max_error, r.natural_map_error);
    if (!r.contact.converged()) ++unconverged;
  }
};

}  // namespace sinew::contact_test
