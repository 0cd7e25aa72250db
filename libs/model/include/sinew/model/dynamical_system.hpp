/// @file
/// @brief The second-order system an integrator steps: M(q) du/dt = F(t, q, u) + G(t, q, u),
/// dq/dt = N(q) u (theta-method eq. v_update / q_update; compliant-constraints Sec. 2).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::model {

/// Which part of the generalized force to evaluate: the theta-method splits the forces into F,
/// whose gradients are positive (semi-)definite (springs, dampers, elements, external loads), and
/// G, the Coriolis / gyroscopic / fictitious terms that are treated explicitly.
enum class ForcePart {
  kAll,        ///< F + G
  kElastic,    ///< F: forces with well-behaved gradients K = -dF/dq, D = -dF/du
  kGyroscopic  ///< G: velocity-product (Coriolis, gyroscopic, fictitious) forces
};

/// A mechanical system as integrators see it: generalized positions q (size num_positions()),
/// velocities u (size num_velocities(); 3 per particle, 6 per rigid body, fewer once attachments
/// are reduced), a configuration-dependent mass matrix and forces with their Jacobians.
///
/// Derivatives with respect to positions are taken in velocity space: K = -dF/dq means
/// -d/dh F(q (+) h du) at h = 0, where (+) is advance_positions(), so K is num_velocities() square
/// even when orientations are stored as quaternions (ArtiSynth notes 0.2, 0.22).
class DynamicalSystem {
 public:
  virtual ~DynamicalSystem() = default;

  /// Number of generalized position coordinates (quaternions count 4).
  virtual Index num_positions() const = 0;
  /// Number of generalized velocity coordinates.
  virtual Index num_velocities() const = 0;

  /// q1 = q0 (+) h u: positions after moving with constant velocity u for time h (exact
  /// exponential map for orientations, so unit quaternions stay unit). q1 may alias q0.
  virtual void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                                 Eigen::VectorXd& q1) const = 0;

  /// The mass matrix M(q), num_velocities() square, symmetric positive definite.
  virtual void mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const = 0;

  /// Generalized forces of the requested part at (t, q, u), written to f (resized).
  virtual void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
                      Eigen::VectorXd& f) const = 0;

  /// Stiffness K = -dF/dq of the elastic part F (velocity-space derivative, see class comment).
  /// With @p projected, each element's contribution is projected to be positive semi-definite.
  virtual void stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                         CsrMatrix& K) const = 0;

  /// Damping D = -dF/du of the elastic part F.
  virtual void damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const = 0;

  /// False when stiffness() and damping() are zero at every state (no force depends on q or u):
  /// step matrices are then M alone, and integrators skip evaluating K and D. True by default.
  virtual bool has_force_jacobians() const { return true; }

  /// True when F(t, q, 0) = -dV/dq for the potential_energy() below (the velocity-dependent part
  /// of F is then pure damping), so implicit Euler can line-search on the incremental potential.
  virtual bool has_potential() const { return false; }

  /// Potential energy V(t, q) of the conservative part of F (only meaningful if has_potential()).
  /// The default throws sinew::Error (no potential).
  virtual double potential_energy(double t, const Eigen::VectorXd& q) const;

  /// Kinetic energy u^T M(q) u / 2; throws sinew::Error unless u has num_velocities() entries.
  virtual double kinetic_energy(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u) const;

  /// Velocity DOFs held fixed (zero velocity, positions unchanged). Every integrator honours
  /// them: their velocities stay zero and their rows and columns leave the Newton system (the
  /// compliant alpha/beta scheme's projection P, compliant-constraints Sec. 3). Sorted, unique.
  virtual const std::vector<Index>& fixed_velocity_dofs() const { return no_fixed_dofs_; }

 private:
  std::vector<Index> no_fixed_dofs_;
};

}  // namespace sinew::model
