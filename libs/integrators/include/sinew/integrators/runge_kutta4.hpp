/// @file
/// @brief RungeKutta4: the classical explicit fourth-order Runge-Kutta method on the first-order
/// form dq/dt = N(q) u, du/dt = a(t, q, u) = M(q)^-1 f(t, q, u). Its four stages k = 1..4 at
/// c = (0, 1/2, 1/2, 1) take the velocities u^1 = u_0, u^k = u_0 + c_k h a^(k-1) and the
/// accelerations a^k = a(t + c_k h, q_0 (+) c_k h u^(k-1), u^k); then
///   u_1 = u_0 + h/6 (a^1 + 2 a^2 + 2 a^3 + a^4),  q_1 = q_0 (+) h/6 (u^1 + 2 u^2 + 2 u^3 + u^4).
/// Fourth order where positions add (a model::KinematicTree's joint coordinates, particles); on
/// rigid-body orientations q_0 (+) h w composes rotations about different axes as if they
/// commuted, which keeps it second order there. Four mass-matrix solves per step; a
/// KinematicTree takes its own accelerations (composite rigid bodies and a dense Cholesky factor)
/// instead of the sparse solver. MuJoCo's "RK4" integrator is this method in joint coordinates.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
}

/// Options of RungeKutta4.
struct RungeKutta4Options {
  /// Solver of the mass-matrix systems (not used for a KinematicTree).
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// Throws sinew::Error on an unknown linear_solver.
  void validate() const;
};

/// Classical fourth-order Runge-Kutta (see the file comment): explicit, so stable only for steps
/// below the stiffest mode's period / ~2.8.
class RungeKutta4 final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit RungeKutta4(const RungeKutta4Options& options = {});
  ~RungeKutta4() override;
  std::string name() const override { return "runge_kutta4"; }
  /// The options in use.
  const RungeKutta4Options& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  /// a = M(q)^-1 f(t, q, u) with fixed DOFs held at zero; false with @p message on failure.
  bool accelerations(const model::DynamicalSystem& system, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                     Eigen::VectorXd& a, StepReport& report);

  RungeKutta4Options options_;
  std::unique_ptr<detail::Workspace> ws_;
  Eigen::VectorXd a_[4], u_[4], q_stage_, u_sum_, a_sum_;
};

}  // namespace sinew::integrators
