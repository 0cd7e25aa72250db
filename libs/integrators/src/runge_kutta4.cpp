#include "sinew/integrators/runge_kutta4.hpp"

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

void RungeKutta4Options::validate() const { require_linear_solver_kind(linear_solver, "RungeKutta4Options"); }

RungeKutta4::RungeKutta4(const RungeKutta4Options& options)
    : options_(options), ws_(std::make_unique<detail::Workspace>()) {
  options_.validate();
}

RungeKutta4::~RungeKutta4() = default;

bool RungeKutta4::accelerations(const model::DynamicalSystem& system, double t, const Eigen::VectorXd& q,
                                const Eigen::VectorXd& u, Eigen::VectorXd& a, StepReport& report) {
  const auto fail = [&](StepStatus status, const std::string& what) {
    report.status = status;
    report.message = "runge_kutta4: " + what + " at t = " + number_text(t, 4);
    return false;
  };
  if (const auto* tree = dynamic_cast<const model::KinematicTree*>(&system)) {
    ++report.linear_solves;
    if (!q.allFinite() || !u.allFinite()) return fail(StepStatus::kNonFinite, "a stage's state is not finite");
    if (!tree->accelerations(t, q, u, a))
      return fail(a.allFinite() ? StepStatus::kLinearSolverFailure : StepStatus::kNonFinite,
                  "the tree's mass matrix is not positive definite or its accelerations are not finite");
    return true;
  }
  detail::Workspace& ws = *ws_;
  const Index n = system.num_velocities();
  const std::vector<Index>& fixed = detail::checked_fixed_dofs(system, "runge_kutta4");
  system.forces(t, q, u, model::ForcePart::kAll, ws.f0);
  detail::require_size(ws.f0, n, "forces()");
  system.mass_matrix(t, q, ws.M);
  detail::require_square(ws.M, n, "mass_matrix()");
  if (!ws.f0.allFinite() || !detail::all_finite(ws.M))
    return fail(StepStatus::kNonFinite, "force or mass matrix is not finite");
  detail::pin_fixed(fixed, ws.M, &ws.f0);
  std::string message;
  ++report.linear_solves;
  a = ws.f0;
  if (!detail::factor_and_solve(ws, options_.linear_solver, ws.M, a, message))
    return fail(StepStatus::kLinearSolverFailure, "mass matrix solve: " + message);
  return true;
}

StepReport RungeKutta4::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  StepReport rep;
  u_[0] = in.u;
  for (Index i : detail::checked_fixed_dofs(system, "runge_kutta4")) u_[0][i] = 0.0;  // fixed DOFs stay at rest
  // Stage k at (t + c_k h, q0 (+) c_k h u_{k-1}, u0 + c_k h a_{k-1}), c = (0, 1/2, 1/2, 1).
  const double c[4] = {0.0, 0.5, 0.5, 1.0};
  for (int k = 0; k < 4; ++k) {
    if (k == 0) {
      q_stage_ = in.q;
    } else {
      system.advance_positions(in.q, u_[k - 1], c[k] * h, q_stage_);
      u_[k] = u_[0] + (c[k] * h) * a_[k - 1];
    }
    if (!accelerations(system, in.t + c[k] * h, q_stage_, u_[k], a_[k], rep)) return rep;
  }
  a_sum_ = a_[0] + 2.0 * a_[1] + 2.0 * a_[2] + a_[3];
  u_sum_ = u_[0] + 2.0 * u_[1] + 2.0 * u_[2] + u_[3];
  out.t = in.t + h;
  out.u = u_[0] + (h / 6.0) * a_sum_;
  system.advance_positions(in.q, u_sum_, h / 6.0, out.q);
  if (!out.q.allFinite() || !out.u.allFinite()) {
    rep.status = StepStatus::kNonFinite;
    rep.message = "runge_kutta4: the new state at t = " + number_text(out.t, 4) + " is not finite";
    return rep;
  }
  return rep;
}

}  // namespace sinew::integrators
