// The stepper of a multibody scene file (multibody_stepper.hpp): contact solvers by name with
// their options (PgsOptions, constraints::NewtonOptions, IndicatorNewtonOptions, SapOptions), the
// ContactStep options, and the implicit integrators with their integrators::NewtonOptions; keys
// map one to one onto the fields of those structs.
#include "multibody_stepper.hpp"

#include <vector>

#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/integrators/trapezoidal.hpp"

namespace sinew::scene::detail {
namespace {

constraints::ConstraintSolverOptions read_stop(JsonObject& o, constraints::ConstraintSolverOptions s) {
  if (std::optional<JsonObject> stop = o.object("stop", true)) {
    s.tolerance = stop->real("tolerance", s.tolerance, 0.0);
    s.max_iterations = static_cast<int>(stop->integer("max_iterations", s.max_iterations, 1, 1000000000));
    stop->finish();
  }
  return s;
}

// The Newton solvers' GlobalizationOptions, read from keys of the solver's own object:
// line_search_steps, proximal, proximal_growth, proximal_range.
constraints::GlobalizationOptions read_globalization(JsonObject& o, constraints::GlobalizationOptions g) {
  g.line_search_steps = static_cast<int>(o.integer("line_search_steps", g.line_search_steps, 0, 1000));
  g.proximal = o.real("proximal", g.proximal, 0.0);
  g.proximal_growth = o.real("proximal_growth", g.proximal_growth, 1.0);
  g.proximal_range = o.real("proximal_range", g.proximal_range, 1.0);
  return g;
}

constraints::NcpFunction read_ncp(JsonObject& o, constraints::NcpFunction f) {
  const std::string s = o.choice("function", {"fischer_burmeister", "min_map"},
                                 f == constraints::NcpFunction::kMinMap ? "min_map" : "fischer_burmeister");
  return s == "min_map" ? constraints::NcpFunction::kMinMap : constraints::NcpFunction::kFischerBurmeister;
}

SolverSpec read_solver(JsonObject o) {
  SolverSpec s;
  s.type = o.choice("type", {"pgs", "newton", "indicator_newton", "sap", "kkt"}, std::nullopt);
  if (s.type == "pgs") {
    s.pgs.stop = read_stop(o, s.pgs.stop);
    s.pgs.relaxation = o.real("relaxation", s.pgs.relaxation, 0.0, 2.0, "a number in (0, 2)");
    if (!(s.pgs.relaxation > 0.0 && s.pgs.relaxation < 2.0))
      o.fail("relaxation", "expected a number in (0, 2), found " + number_text(s.pgs.relaxation));
  } else if (s.type == "newton") {
    constraints::NewtonOptions& n = s.newton;
    n.stop = read_stop(o, n.stop);
    n.function = read_ncp(o, n.function);
    if (std::optional<JsonObject> k = o.object("krylov", true)) {
      n.krylov.tolerance = k->real_above("tolerance", n.krylov.tolerance, 0.0);
      n.krylov.max_iterations = static_cast<int>(k->integer("max_iterations", n.krylov.max_iterations, 1, 1000000000));
      k->finish();
    }
    n.globalization = read_globalization(o, n.globalization);
    const std::string lin = o.choice("linear", {"auto", "sparse_lu", "bicgstab"}, "auto");
    n.linear = lin == "auto"        ? constraints::NewtonLinearSolver::kAuto
               : lin == "sparse_lu" ? constraints::NewtonLinearSolver::kSparseLu
                                    : constraints::NewtonLinearSolver::kBiCgStab;
    n.merit_memory = static_cast<int>(o.integer("merit_memory", n.merit_memory, 0, 1000));
  } else if (s.type == "indicator_newton") {
    constraints::IndicatorNewtonOptions& n = s.indicator_newton;
    n.stop = read_stop(o, n.stop);
    n.function = read_ncp(o, n.function);
    n.cr_iterations = static_cast<int>(o.integer("cr_iterations", n.cr_iterations, 1, 1000000));
    n.cr_tolerance = o.real("cr_tolerance", n.cr_tolerance, 0.0, 1.0);
    n.stall_steps = static_cast<int>(o.integer("stall_steps", n.stall_steps, 0, 1000000));
    n.globalization = read_globalization(o, n.globalization);
  } else if (s.type == "sap") {
    constraints::SapOptions& p = s.sap;
    p.stop = read_stop(o, p.stop);
    p.rigid_fraction = o.real_above("rigid_fraction", p.rigid_fraction, 0.0);
    p.sigma = o.real_above("sigma", p.sigma, 0.0);
    p.max_step = o.real_above("max_step", p.max_step, 0.0);
    p.dense_max_velocities = o.integer("dense_max_velocities", p.dense_max_velocities, 0, 1000000000);
  }
  o.finish();
  return s;
}

integrators::NewtonOptions read_implicit_newton(JsonObject& o, integrators::NewtonOptions n) {
  n.relative_tolerance = o.real("relative_tolerance", n.relative_tolerance, 0.0);
  n.absolute_tolerance = o.real("absolute_tolerance", n.absolute_tolerance, 0.0);
  if (!(n.relative_tolerance > 0.0 || n.absolute_tolerance > 0.0))
    o.fail("absolute_tolerance", "relative_tolerance and absolute_tolerance cannot both be 0");
  n.max_iterations = static_cast<int>(o.integer("max_iterations", n.max_iterations, 1, 1000000));
  const std::string merit = o.choice("merit", {"auto", "energy", "residual", "none"}, "auto");
  n.merit = merit == "auto"       ? integrators::LineSearchMerit::kAuto
            : merit == "energy"   ? integrators::LineSearchMerit::kEnergy
            : merit == "residual" ? integrators::LineSearchMerit::kResidual
                                  : integrators::LineSearchMerit::kNone;
  n.armijo = o.real("armijo", n.armijo, 0.0, 1.0, "a number in (0, 1)");
  n.backtrack = o.real("backtrack", n.backtrack, 0.0, 1.0, "a number in (0, 1)");
  if (!(n.armijo > 0.0 && n.armijo < 1.0)) o.fail("armijo", "expected a number in (0, 1)");
  if (!(n.backtrack > 0.0 && n.backtrack < 1.0)) o.fail("backtrack", "expected a number in (0, 1)");
  n.max_line_search_steps = static_cast<int>(o.integer("max_line_search_steps", n.max_line_search_steps, 0, 1000));
  n.projected_stiffness = o.boolean("projected_stiffness", n.projected_stiffness);
  n.symmetrize = o.boolean("symmetrize", n.symmetrize);
  const std::string solver =
      o.choice("linear_solver", {"auto", "eigen_ldlt", "cholmod", "block_diagonal", "dense"}, "auto");
  n.linear_solver = solver == "cholmod"          ? integrators::LinearSolverKind::kCholmod
                    : solver == "eigen_ldlt"     ? integrators::LinearSolverKind::kEigenLdlt
                    : solver == "block_diagonal" ? integrators::LinearSolverKind::kBlockDiagonal
                    : solver == "dense"          ? integrators::LinearSolverKind::kDense
                                                 : integrators::LinearSolverKind::kAuto;
  o.finish();
  return n;
}

// The preset of a "theta_..." name of make_integrator().
integrators::ThetaPreset theta_preset(const std::string& n) {
  return n == "theta_explicit_euler"     ? integrators::ThetaPreset::kExplicitEuler
         : n == "theta_symplectic_euler" ? integrators::ThetaPreset::kSymplecticEuler
         : n == "theta_implicit_euler"   ? integrators::ThetaPreset::kImplicitEuler
                                         : integrators::ThetaPreset::kSymplecticMidpoint;
}

bool has_newton_options(const std::string& integrator) {
  return integrator == "implicit_euler" || integrator == "trapezoidal" || integrator == "compliant_alpha_beta" ||
         integrator.rfind("theta_", 0) == 0;
}

}  // namespace

StepperSpec read_stepper(JsonObject o) {
  std::vector<std::string> types{"contact_step"};
  for (const std::string& n : integrators::integrator_names()) types.push_back(n);
  StepperSpec s;
  const std::string type = o.choice("type", types, std::nullopt);
  s.contact_step = type == "contact_step";
  if (s.contact_step) {
    s.solver = read_solver(*o.object("solver"));
    if (std::optional<JsonObject> f = o.object("fallback_solver", true)) {
      s.fallback = read_solver(*f);
      if (s.fallback->type == "sap" && s.solver.type == "sap") f->fail("type", "SAP cannot fall back on SAP");
    }
    if (std::optional<JsonObject> f = o.object("free_motion", true)) {
      // Stage 1 by implicit Euler, or the stages of a theta-method preset, the compliant alpha/beta
      // scheme, the trapezoidal rule or Bridson-Marino (contact_step.hpp).
      const std::string scheme =
          f->choice("scheme",
                    {"implicit_euler", "theta_midpoint", "theta_implicit_euler", "theta_symplectic_euler",
                     "theta_explicit_euler", "compliant_alpha_beta", "trapezoidal", "bridson_marino"},
                    "implicit_euler");
      if (std::optional<JsonObject> n = f->object("newton", true))
        s.options.free_motion.newton = read_implicit_newton(*n, s.options.free_motion.newton);
      if (scheme == "compliant_alpha_beta") {
        s.options.alpha_beta = integrators::CompliantAlphaBetaOptions{};
        s.options.alpha_beta->alpha = f->real("alpha", 1.0, 0.0, 1.0, "a number in [0, 1]");
        s.options.alpha_beta->beta = f->real("beta", 1.0, 0.0, 1.0, "a number in (0, 1]");
        if (!(s.options.alpha_beta->beta > 0.0)) f->fail("beta", "expected a number in (0, 1], found 0");
        s.options.alpha_beta->newton = s.options.free_motion.newton;
      } else if (scheme == "trapezoidal") {
        s.options.trapezoidal = integrators::TrapezoidalOptions{};
        s.options.trapezoidal->newton = s.options.free_motion.newton;
      } else if (scheme == "bridson_marino") {
        s.options.bridson_marino = integrators::BridsonMarinoOptions{};
      } else if (scheme != "implicit_euler") {
        s.options.theta = integrators::ThetaOptions::preset(theta_preset(scheme));
        s.options.theta->newton = s.options.free_motion.newton;
      }
      f->finish();
    }
    if (std::optional<JsonObject> st = o.object("stabilization", true)) {
      s.options.stabilization.erp = st->real("erp", 1.0, 0.0, 1.0, "a number in (0, 1]");
      if (!(s.options.stabilization.erp > 0.0)) st->fail("erp", "expected a number in (0, 1], found 0");
      st->finish();
    }
    const std::string factor = o.choice("factor", {"sparse", "baraff", "auto"}, "auto");
    s.options.factor = factor == "baraff" ? integrators::StepFactor::kBaraff
                       : factor == "auto" ? integrators::StepFactor::kAuto
                                          : integrators::StepFactor::kSparse;
    s.options.warm_start = o.boolean("warm_start", s.options.warm_start);
    s.options.accept_error = o.real("accept_error", s.options.accept_error, 0.0);
    s.options.joint_error_limit = o.real_above("joint_error_limit", s.options.joint_error_limit, 0.0);
  } else {
    s.integrator = type;
    if (has_newton_options(type))
      if (std::optional<JsonObject> n = o.object("newton", true)) s.implicit = read_implicit_newton(*n, s.implicit);
  }
  o.finish();
  return s;
}

std::unique_ptr<integrators::Integrator> make_implicit(const StepperSpec& s) {
  const std::string& n = s.integrator;
  if (n == "implicit_euler")
    return std::make_unique<integrators::ImplicitEuler>(integrators::ImplicitEulerOptions{s.implicit});
  if (n == "trapezoidal")
    return std::make_unique<integrators::Trapezoidal>(integrators::TrapezoidalOptions{s.implicit});
  if (n == "compliant_alpha_beta") {
    integrators::CompliantAlphaBetaOptions o;
    o.newton = s.implicit;
    return std::make_unique<integrators::CompliantAlphaBeta>(o);
  }
  if (n.rfind("theta_", 0) == 0) {
    integrators::ThetaOptions o = integrators::ThetaOptions::preset(theta_preset(n));
    o.newton = s.implicit;
    return std::make_unique<integrators::ThetaMethod>(o);
  }
  return integrators::make_integrator(n);
}

std::unique_ptr<integrators::ContactStep> make_contact_step(const SolverSpec& s,
                                                            integrators::ContactStepOptions options, Backend& backend) {
  std::unique_ptr<constraints::ConstraintSolver> solver;  // null: SAP, ContactStep's global solver
  if (s.type == "pgs") solver = std::make_unique<constraints::PgsSolver>(s.pgs);
  if (s.type == "newton") solver = std::make_unique<constraints::NewtonSolver>(backend, s.newton);
  if (s.type == "indicator_newton")
    solver = std::make_unique<constraints::IndicatorNewtonSolver>(backend, s.indicator_newton);
  if (s.type == "kkt") solver = std::make_unique<constraints::KktSolver>();
  options.sap = s.sap;
  return std::make_unique<integrators::ContactStep>(std::move(solver), options);
}

}  // namespace sinew::scene::detail
