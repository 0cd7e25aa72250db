/// @file
/// @brief Implicit (backward) Euler of the ArtiSynth mechanics notes sec. 0.9.2, solved to
/// tolerance by Newton: M (u - u_k) = h f(t_k + h, q_k (+) h u, u), q_{k+1} = q_k (+) h u. The
/// first Newton step is the notes' linearized update with M_hat = M + h D + h^2 K.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
struct RigidStageWorkspace;
}  // namespace detail

/// Options of ImplicitEuler.
struct ImplicitEulerOptions {
  NewtonOptions newton;  ///< tolerances, iterations, line search, linear solver
  /// Throws sinew::Error naming the first invalid field.
  void validate() const { newton.validate(); }
};

/// Implicit Euler (ArtiSynth notes 0.9.2), first order and dissipative. When the system has a
/// potential, the Newton steps are line-searched on the incremental potential
/// E(u) = 1/2 (u - u_k)^T M (u - u_k) + V(q_k (+) h u) + h/2 u^T D u, whose minimiser is the step.
class ImplicitEuler final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit ImplicitEuler(const ImplicitEulerOptions& options = {});
  ~ImplicitEuler() override;
  std::string name() const override { return "implicit_euler"; }
  /// The options in use.
  const ImplicitEulerOptions& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  ImplicitEulerOptions options_;
  std::unique_ptr<detail::Workspace> ws_;
  std::unique_ptr<detail::RigidStageWorkspace> rigid_ws_;  // rigid bodies under gravity alone
};

}  // namespace sinew::integrators
