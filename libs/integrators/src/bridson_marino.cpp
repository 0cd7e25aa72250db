#include "sinew/integrators/bridson_marino.hpp"

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

void BridsonMarinoOptions::validate() const { require_linear_solver_kind(linear_solver, "BridsonMarinoOptions"); }

BridsonMarino::BridsonMarino(const BridsonMarinoOptions& options)
    : options_(options), ws_(std::make_unique<detail::Workspace>()) {
  options_.validate();
}

BridsonMarino::~BridsonMarino() = default;

namespace {

StepReport failure(StepStatus status, const std::string& why) {
  StepReport rep;
  rep.status = status;
  rep.message = "bridson_marino: " + why;
  return rep;
}

}  // namespace

StepReport BridsonMarino::first_half(const model::DynamicalSystem& system, const State& in, double h,
                                     Eigen::VectorXd& u_half, CsrMatrix& A) {
  check_step(system, in, h);
  detail::Workspace& ws = *ws_;
  const Index n = system.num_velocities();
  const std::vector<Index>& fixed = detail::checked_fixed_dofs(system, "bridson_marino");
  Eigen::VectorXd& u0 = ws.u_trial;
  u0 = in.u;
  for (Index i : fixed) u0[i] = 0.0;  // fixed DOFs start (and stay) at rest
  system.forces(in.t, in.q, u0, model::ForcePart::kAll, ws.f0);
  detail::require_size(ws.f0, n, "forces()");
  system.mass_matrix(in.t, in.q, ws.M);
  detail::require_square(ws.M, n, "mass_matrix()");
  system.damping(in.t, in.q, u0, ws.D);
  detail::require_square(ws.D, n, "damping()");
  if (!ws.f0.allFinite() || !detail::all_finite(ws.M) || !detail::all_finite(ws.D))
    return failure(StepStatus::kNonFinite,
                   "force, mass or damping matrix at t = " + number_text(in.t, 4) + " is not finite");

  // ArtiSynth 0.9.4 with A = M - h/2 df/du = M + h/2 D, both solves on one factorization:
  // A (u_{k+1/2} - u_k) = h/2 f_k.
  detail::combine(n, {{1.0, &ws.M}, {0.5 * h, &ws.D}}, true, ws.A);
  ws.r = 0.5 * h * ws.f0;
  detail::pin_fixed(fixed, ws.A, &ws.r);
  std::string message;
  ws.d = ws.r;
  if (!detail::factor_and_solve(ws, options_.linear_solver, ws.A, ws.d, message))
    return failure(StepStatus::kLinearSolverFailure,
                   "solve with M + h/2 D at t = " + number_text(in.t, 4) + ": " + message);
  StepReport rep;
  rep.linear_solves = 1;
  rep.message = "bridson_marino: first half";
  u_half = u0 + ws.d;
  A = ws.A;
  return rep;
}

StepReport BridsonMarino::second_half(const model::DynamicalSystem& system, const State& in, double h,
                                      const Eigen::VectorXd& u_half, State& out) {
  detail::Workspace& ws = *ws_;
  const Index n = system.num_velocities();
  require(ws.solver != nullptr && u_half.size() == n,
          "BridsonMarino::second_half: call first_half() on the same system first");
  system.advance_positions(in.q, u_half, h, out.q);
  if (!out.q.allFinite())
    return failure(StepStatus::kNonFinite, "positions at t = " + number_text(in.t + h, 4) + " are not finite");

  // f' = f(q_{k+1}, u_k); A (u_{k+1} - u_{k+1/2}) = h/2 f'.
  system.forces(in.t + h, out.q, ws.u_trial, model::ForcePart::kAll, ws.f);
  detail::require_size(ws.f, n, "forces()");
  if (!ws.f.allFinite())
    return failure(StepStatus::kNonFinite, "force at t = " + number_text(in.t + h, 4) + " is not finite");
  ws.r = 0.5 * h * ws.f;
  for (Index i : detail::checked_fixed_dofs(system, "bridson_marino")) ws.r[i] = 0.0;
  ws.d = ws.solver->solve(ws.r);
  out.t = in.t + h;
  out.u = u_half + ws.d;
  if (!out.u.allFinite())
    return failure(StepStatus::kNonFinite, "velocities at t = " + number_text(out.t, 4) + " are not finite");
  StepReport rep;  // a solve on first_half()'s factorization
  rep.message = "bridson_marino: two solves with M + h/2 D";
  return rep;
}

StepReport BridsonMarino::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  Eigen::VectorXd u_half;
  CsrMatrix A;
  StepReport first = first_half(system, in, h, u_half, A);
  if (!first.ok()) return first;
  StepReport rep = second_half(system, in, h, u_half, out);
  rep.linear_solves += first.linear_solves;
  return rep;
}

}  // namespace sinew::integrators
