/// @file
/// @brief The implicit trapezoidal rule of the ArtiSynth mechanics notes sec. 0.9.3, solved to
/// tolerance by Newton: M (u - u_k) = h/2 (f(t_k + h, q_{k+1}, u) + f(t_k, q_k, u_k)),
/// q_{k+1} = q_k (+) h/2 (u + u_k). The Newton matrix is the notes'
/// M_hat = M + h/2 D + h^2/4 K. Second order; M is taken at q_k.
#pragma once

#include <memory>
#include <string>

#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators {

namespace detail {
struct Workspace;
}

/// Options of Trapezoidal.
struct TrapezoidalOptions {
  NewtonOptions newton;  ///< tolerances, iterations, line search, linear solver
  /// Throws sinew::Error naming the first invalid field.
  void validate() const { newton.validate(); }
};

/// Implicit trapezoidal rule (ArtiSynth notes 0.9.3).
class Trapezoidal final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit Trapezoidal(const TrapezoidalOptions& options = {});
  ~Trapezoidal() override;
  std::string name() const override { return "trapezoidal"; }
  /// The options in use.
  const TrapezoidalOptions& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  TrapezoidalOptions options_;
  std::unique_ptr<detail::Workspace> ws_;
};

}  // namespace sinew::integrators
