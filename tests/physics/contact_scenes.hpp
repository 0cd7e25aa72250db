// The contact scenario tests' view of the scene library's contact scenes (issue 6), and the
// contact solvers by name.
#pragma once

#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

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

// A run of ContactStep with the non-smooth Newton FB solver to 1e-13 on serial: the stepper (its
// last impulses), the state after the run and at the start of its last step (where that step's
// rows were evaluated); ok is false (and the test failed) when a step did not advance.
struct NewtonRun {
  std::unique_ptr<Backend> backend;  // before the stepper, whose solver refers to it
  std::unique_ptr<integrators::ContactStep> stepper;
  integrators::State state, before;
  bool ok = true;
};

// @p steps steps of @p h of @p system under @p constraints from its initial state (see NewtonRun).
inline NewtonRun run_newton_fb(const model::MechanicalSystem& system,
                               const std::vector<const constraints::Constraint*>& constraints, int steps, double h,
                               const std::string& what) {
  NewtonRun run;
  run.backend = make_backend("serial");
  run.stepper = std::make_unique<integrators::ContactStep>(make_contact_solver("newton_fb", *run.backend, 1e-13));
  run.state = integrators::State{0.0, system.initial_positions(), system.initial_velocities()};
  run.before = run.state;
  for (int k = 0; k < steps && run.ok; ++k) {
    run.before = run.state;
    const integrators::ContactStepReport r = run.stepper->step(system, constraints, run.state, h);
    run.ok = r.ok();
    if (!run.ok) ADD_FAILURE() << what << " step " << k << ": " << r.message;
  }
  return run;
}

}  // namespace sinew::contact_test
