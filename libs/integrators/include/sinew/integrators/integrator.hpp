/// @file
/// @brief Integrator: the abstract time stepper of a model::DynamicalSystem, the state it advances
/// and the StepReport every step returns (iterations, residuals, status, message).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/model/dynamical_system.hpp"

namespace sinew::integrators {

/// The state an integrator advances: time, positions and velocities of a DynamicalSystem.
struct State {
  double t = 0.0;     ///< time
  Eigen::VectorXd q;  ///< (num_positions) generalized positions (quaternions count 4)
  Eigen::VectorXd u;  ///< (num_velocities) generalized velocities
};

/// How a step ended. Only kConverged updates the state; every other status leaves it untouched.
enum class StepStatus {
  kConverged,           ///< the step's equations were solved to tolerance (explicit steps: always)
  kNotConverged,        ///< Newton reached max_iterations above tolerance
  kNonFinite,           ///< a force, matrix, residual or the new state was NaN or Inf
  kLinearSolverFailure  ///< the linear solver rejected its matrix (not symmetric positive definite...)
};

/// Short lower-case name of a status ("converged", "not converged", ...).
const char* to_string(StepStatus status);

/// What happened in one step; returned by Integrator::step().
struct StepReport {
  StepStatus status = StepStatus::kConverged;  ///< outcome; the state changed only if kConverged
  int iterations = 0;                          ///< Newton iterations (linear solves of the Newton system)
  int line_search_steps = 0;                   ///< backtracking reductions of the step length, all iterations
  int linear_solves = 0;                       ///< factorizations done (explicit schemes count theirs too)
  std::vector<double> residual_norms;          ///< 2-norm of the momentum residual at each Newton iterate
  double residual_norm = 0.0;                  ///< last residual norm (0 for schemes without one)
  double tolerance = 0.0;                      ///< the residual norm the Newton solve had to reach
  bool energy_merit = false;                   ///< the line search measured the incremental potential
  std::string message;                         ///< human-readable account: what failed, where and with which values

  /// True when the step converged and the state was advanced.
  bool ok() const { return status == StepStatus::kConverged; }
};

/// A time stepper of model::DynamicalSystem. step() checks its input (sizes, h > 0, a finite
/// state) and throws sinew::Error on misuse, then calls do_step(); numerical trouble is never
/// thrown but reported in the StepReport, with the state left as it was. Not thread-safe: an
/// integrator keeps its linear solver and workspace between steps.
class Integrator {
 public:
  virtual ~Integrator() = default;

  /// Name under which make_integrator() builds this integrator (e.g. "implicit_euler").
  virtual std::string name() const = 0;

  /// Advances @p state by one step of size @p h. Throws sinew::Error when h is not finite and
  /// positive, when q or u has the wrong size, or when the state is not finite. On success
  /// (report.ok()) the state holds t + h and the new q, u; otherwise it is unchanged.
  StepReport step(const model::DynamicalSystem& system, State& state, double h);

 protected:
  /// Scheme-specific step from the checked state @p in into @p out (already sized); the report's
  /// status decides whether step() copies @p out into the caller's state.
  virtual StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) = 0;
  /// What step() checks before do_step(): h finite and > 0, the state's sizes for @p system, a
  /// finite state. @throws sinew::Error naming the integrator and the bad value.
  void check_step(const model::DynamicalSystem& system, const State& state, double h) const;

 private:
  State out_;  // reused between steps so that a failed step leaves the caller's state untouched
};

}  // namespace sinew::integrators
