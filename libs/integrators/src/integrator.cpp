#include "sinew/integrators/integrator.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::integrators {

const char* to_string(StepStatus status) {
  switch (status) {
    case StepStatus::kConverged:
      return "converged";
    case StepStatus::kNotConverged:
      return "not converged";
    case StepStatus::kNonFinite:
      return "non-finite";
    case StepStatus::kLinearSolverFailure:
      return "linear solver failure";
  }
  return "unknown";
}

void Integrator::check_step(const model::DynamicalSystem& system, const State& state, double h) const {
  const auto who = [this] { return name() + "::step"; };  // named only in a message
  require(std::isfinite(h) && h > 0.0,
          [&] { return who() + ": step size h must be finite and > 0, got " + number_text(h); });
  require(std::isfinite(state.t), [&] { return who() + ": time t must be finite, got " + number_text(state.t); });
  const Index nq = system.num_positions(), nu = system.num_velocities();
  require(state.q.size() == nq, [&] {
    return who() + ": q has " + std::to_string(state.q.size()) +
           " entries, the system has num_positions() = " + std::to_string(nq);
  });
  require(state.u.size() == nu, [&] {
    return who() + ": u has " + std::to_string(state.u.size()) +
           " entries, the system has num_velocities() = " + std::to_string(nu);
  });
  require(state.q.allFinite() && state.u.allFinite(),
          [&] { return who() + ": the state (q, u) must be finite at t = " + number_text(state.t, 6); });
}

StepReport Integrator::step(const model::DynamicalSystem& system, State& state, double h) {
  check_step(system, state, h);
  const Index nq = system.num_positions(), nu = system.num_velocities();
  out_.q.resize(nq);
  out_.u.resize(nu);
  out_.t = state.t;
  StepReport report = do_step(system, state, h, out_);
  if (report.ok()) {
    state.t = out_.t;
    state.q.swap(out_.q);
    state.u.swap(out_.u);
  }
  return report;
}

}  // namespace sinew::integrators
