/// @file
/// @brief Symplectic (semi-implicit) Euler of the ArtiSynth mechanics notes sec. 0.9.1:
/// M u_{k+1} = M u_k + h f(t_k, q_k, u_k), q_{k+1} = q_k (+) h u_{k+1}. First order; one
/// factorization of M per step.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
}

/// Options of SymplecticEuler.
struct SymplecticEulerOptions {
  /// Solver of the mass-matrix system: block by block for uncoupled bodies, else Eigen LDL^T.
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// Throws sinew::Error on an unknown linear_solver.
  void validate() const;
};

/// Symplectic Euler (ArtiSynth notes 0.9.1); the whole force f = F + G is explicit.
class SymplecticEuler final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit SymplecticEuler(const SymplecticEulerOptions& options = {});
  ~SymplecticEuler() override;
  std::string name() const override { return "symplectic_euler"; }
  /// The options in use.
  const SymplecticEulerOptions& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  /// The velocity increment u_{k+1} - u_k = h M^-1 f into the workspace by the sparse solve (fixed
  /// DOFs at rest); false with @p rep filled on numerical trouble.
  bool general_increment(const model::DynamicalSystem& system, const State& in, double h, StepReport& rep);

  SymplecticEulerOptions options_;
  std::unique_ptr<detail::Workspace> ws_;
};

}  // namespace sinew::integrators
