#include "sinew/integrators/symplectic_euler.hpp"

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators {

void SymplecticEulerOptions::validate() const { require_linear_solver_kind(linear_solver, "SymplecticEulerOptions"); }

SymplecticEuler::SymplecticEuler(const SymplecticEulerOptions& options)
    : options_(options), ws_(std::make_unique<detail::Workspace>()) {
  options_.validate();
}

SymplecticEuler::~SymplecticEuler() = default;

StepReport SymplecticEuler::do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) {
  detail::Workspace& ws = *ws_;
  StepReport rep;
  // ArtiSynth 0.9.1: M (u_{k+1} - u_k) = h f_k, then q_{k+1} = q_k (+) h u_{k+1}; ws.d = u_{k+1} - u_k.
  if (const auto* tree = dynamic_cast<const model::KinematicTree*>(&system)) {
    // In joint coordinates (MuJoCo's "Euler"), with the tree's own mass matrix and dense factor.
    ws.u_mix = in.u;
    if (!tree->accelerations(in.t, in.q, in.u, ws.d)) {
      rep.status = ws.d.allFinite() ? StepStatus::kLinearSolverFailure : StepStatus::kNonFinite;
      rep.message =
          "symplectic_euler: the tree's mass matrix is not positive definite or its accelerations are "
          "not finite at t = " +
          number_text(in.t, 4);
      return rep;
    }
    ws.d *= h;
  } else if (!general_increment(system, in, h, rep)) {
    return rep;
  }
  rep.linear_solves = 1;
  out.t = in.t + h;
  out.u = ws.u_mix + ws.d;
  system.advance_positions(in.q, out.u, h, out.q);
  if (!out.q.allFinite() || !out.u.allFinite()) {
    rep.status = StepStatus::kNonFinite;
    rep.message = "symplectic_euler: the new state at t = " + number_text(out.t, 4) + " is not finite";
  }
  return rep;
}

bool SymplecticEuler::general_increment(const model::DynamicalSystem& system, const State& in, double h,
                                        StepReport& rep) {
  detail::Workspace& ws = *ws_;
  const Index n = system.num_velocities();
  const std::vector<Index>& fixed = detail::checked_fixed_dofs(system, "symplectic_euler");
  ws.u_mix = in.u;
  for (Index i : fixed) ws.u_mix[i] = 0.0;  // fixed DOFs start (and stay) at rest
  system.forces(in.t, in.q, ws.u_mix, model::ForcePart::kAll, ws.f0);
  detail::require_size(ws.f0, n, "forces()");
  system.mass_matrix(in.t, in.q, ws.M);
  detail::require_square(ws.M, n, "mass_matrix()");
  if (!ws.f0.allFinite() || !detail::all_finite(ws.M)) {
    rep.status = StepStatus::kNonFinite;
    rep.message = "symplectic_euler: force or mass matrix at t = " + number_text(in.t, 4) + " is not finite";
    return false;
  }
  std::string message;
  ws.r = h * ws.f0;
  detail::pin_fixed(fixed, ws.M, &ws.r);
  ws.d = ws.r;
  if (!detail::factor_and_solve(ws, options_.linear_solver, ws.M, ws.d, message)) {
    rep.status = StepStatus::kLinearSolverFailure;
    rep.message = "symplectic_euler: mass matrix solve at t = " + number_text(in.t, 4) + ": " + message;
    return false;
  }
  return true;
}

}  // namespace sinew::integrators
