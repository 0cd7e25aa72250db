/// @file
/// @brief The theta-method of theta-method-convex-contact.tex, Sec. "Discrete Time Formulation":
///   M(q^theta_q) (v - v0) = dt F(q^theta_q, v^theta_v) + dt G        (eq. v_update)
///   q = q0 (+) dt v^theta_vq                                         (eq. q_update)
///   q^theta_q = q0 (+) dt theta_q v^theta_vq                         (eq. position_update)
/// with x^theta = theta x + (1 - theta) x0 (eq. theta_method). The free-motion velocity
/// m(v*) = 0 (eq. vstar_definition) is solved by Newton with the matrix
/// A = M + dt^2 theta_q theta_vq K + dt theta_v D (eq. expression_for_A). F (elastic part) is
/// implicit through K and D; G (gyroscopic) is explicit at (q0, v0) by default, as the seed's
/// split prescribes (its gradients need not be definite). Contact impulses are not part of
/// this free-motion stage.
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

/// The four schemes the seed names as instances of the theta-method.
enum class ThetaPreset {
  kExplicitEuler,      ///< theta_q = theta_v = theta_vq = 0
  kSymplecticEuler,    ///< theta_q = 0, theta_v = theta_vq = 1
  kImplicitEuler,      ///< theta_q = theta_v = theta_vq = 1
  kSymplecticMidpoint  ///< theta_q = theta_v = theta_vq = 1/2 (second order, energy-conserving)
};

/// Where the gyroscopic part G of the force is evaluated.
enum class GyroscopicTreatment {
  kExplicit,  ///< G(t0, q0, v0): the seed's split
  kImplicit   ///< G(q^theta_q, v^theta_v) inside the Newton residual (its Jacobian is left out
              ///< of A, so Newton converges linearly at rate O(dt |dG/dv| / |M|)); keeps the
              ///< midpoint rule's conservation of angular momentum and energy for rigid bodies
};

/// Options of ThetaMethod; the default is the symplectic midpoint rule.
struct ThetaOptions {
  double theta_q = 0.5;   ///< weight of the end configuration in q^theta_q, in [0, 1]
  double theta_v = 0.5;   ///< weight of the end velocity in v^theta_v (force velocity), in [0, 1]
  double theta_vq = 0.5;  ///< weight of the end velocity in the position update, in [0, 1]
  /// The seed's explicit G by default.
  GyroscopicTreatment gyroscopic = GyroscopicTreatment::kExplicit;
  NewtonOptions newton;  ///< tolerances, iterations, line search, linear solver

  /// The thetas of a named preset (other fields default).
  static ThetaOptions preset(ThetaPreset preset);
  /// Throws sinew::Error naming the first invalid field (thetas outside [0, 1], Newton options).
  void validate() const;
};

/// The theta-method free-motion step (theta-method eqs. v_update, q_update, vstar_definition).
class ThetaMethod final : public Integrator {
 public:
  /// Checks @p options (sinew::Error when invalid).
  explicit ThetaMethod(const ThetaOptions& options = {});
  ~ThetaMethod() override;
  /// "theta_midpoint", "theta_implicit_euler", ... for the presets, else "theta(q,v,vq)".
  std::string name() const override;
  /// The options in use.
  const ThetaOptions& options() const { return options_; }

 protected:
  StepReport do_step(const model::DynamicalSystem& system, const State& in, double h, State& out) override;

 private:
  ThetaOptions options_;
  std::string name_;  // name(), for messages
  std::unique_ptr<detail::Workspace> ws_;
  std::unique_ptr<detail::RigidStageWorkspace> rigid_ws_;  // rigid bodies under gravity alone
};

}  // namespace sinew::integrators
