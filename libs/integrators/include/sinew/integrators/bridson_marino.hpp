/// @file
/// @brief The Bridson-Marino scheme of the ArtiSynth mechanics notes sec. 0.9.4: two solves
/// with A = M + h/2 D (no position Jacobian),
///   A u_{k+1/2} = A u_k + h/2 f_k,  q_{k+1} = q_k (+) h u_{k+1/2},
///   A u_{k+1}   = A u_k + h/2 (f_k + f(t_k + h, q_{k+1}, u_k)).
/// Without damping this is velocity Verlet, hence second order; damping is implicit only
/// through its linearization A.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
}

/// Options of BridsonMarino.
struct BridsonMarinoOptions {
  /// Solver of A = M + h/2 D: block by block for uncoupled bodies, else Eigen LDL^T.
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;
  /// Throws sinew::Error on an unknown linear_solver.
  void validate() const;
};

/// Bridson-Marino (ArtiSynth notes 0.9.4); one factorization, two solves per step.
class BridsonMarino final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit BridsonMarino(const BridsonMarinoOptions& options = {});
  ~BridsonMarino() override;
  std::string name() const override { return "bridson_marino"; }
  /// The options in use.
  const BridsonMarinoOptions& options() const { return options_; }

  /// The first half of a step, for a stepper that modifies u_{k+1/2} to satisfy constraints
  /// (notes 0.9.4, 0.10): the free @p u_half from A (u_{k+1/2} - u_k) = h/2 f_k, and @p A = M +
  /// h/2 D at (t, q_k, u_k) with the fixed DOFs pinned, factored for second_half().
  /// @throws sinew::Error on misuse, as step().
  StepReport first_half(const model::DynamicalSystem& system, const State& in, double h, Eigen::VectorXd& u_half,
                        CsrMatrix& A);
  /// The second half from a (possibly constrained) @p u_half of the same step: q_{k+1} = q_k (+)
  /// h u_half and A (u_{k+1} - u_half) = h/2 f(t_k + h, q_{k+1}, u_k) into @p out; do_step() is
  /// first_half() then this with the free u_half.
  StepReport second_half(const model::DynamicalSystem& system, const State& in, double h, const Eigen::VectorXd& u_half,
                         State& out);

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  BridsonMarinoOptions options_;
  std::unique_ptr<detail::Workspace> ws_;
};

}  // namespace sinew::integrators
