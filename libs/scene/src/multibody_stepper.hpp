// The stepper of a "multibody" scene file (its "integrator" key): integrators::ContactStep with a
// contact solver chosen by name and its options (and an optional fallback solver), or an implicit
// integrator of make_integrator() with its Newton options. Private to the scene library.
#pragma once

#include <memory>
#include <optional>
#include <string>

#include "json_fields.hpp"
#include "sinew/constraints/indicator_newton_solver.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/integrators/integrator.hpp"

namespace sinew::scene::detail {

/// A contact solver: its name and options (SAP's live in ContactStepOptions::sap).
struct SolverSpec {
  std::string type;  // "pgs", "newton", "indicator_newton", "sap", "kkt"
  constraints::PgsOptions pgs;
  constraints::NewtonOptions newton;
  constraints::IndicatorNewtonOptions indicator_newton;
  constraints::SapOptions sap;
};

/// How a multibody scene is stepped.
struct StepperSpec {
  bool contact_step = true;
  SolverSpec solver;
  std::optional<SolverSpec> fallback;
  integrators::ContactStepOptions options;
  std::string integrator;               // make_integrator() name
  integrators::NewtonOptions implicit;  // its Newton options, where it has them
};

/// Reads the "integrator" object of a multibody scene.
StepperSpec read_stepper(JsonObject o);

/// The implicit integrator of @p s (not a contact step) with its Newton options.
std::unique_ptr<integrators::Integrator> make_implicit(const StepperSpec& s);

/// The ContactStep of solver @p s with @p options (SAP's options from @p s) on @p backend.
std::unique_ptr<integrators::ContactStep> make_contact_step(const SolverSpec& s,
                                                            integrators::ContactStepOptions options, Backend& backend);

}  // namespace sinew::scene::detail
