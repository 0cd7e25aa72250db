/// @file
/// @brief SystemMap: the map of a DynamicalSystem's coordinates onto the particles and bodies of a
/// MechanicalSystem, u_full = T(q) u + s(t, q) (mechanics notes sec. 0.17-0.21, eq. 0.21), through
/// which constraint rows written for the MechanicalSystem (contact, joints) act on the
/// DynamicalSystem as G' = G T (eq. 0.22). ReducedSystem (attachments eliminated, driven
/// components prescribed) and TreeBodies (a KinematicTree's bodies) are such maps;
/// integrators::ContactStep steps a system with constraints through one.
#pragma once

#include <Eigen/Core>

#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::model {

/// The map of a DynamicalSystem's positions q and velocities u onto those of a MechanicalSystem
/// (see the file comment).
class SystemMap {
 public:
  virtual ~SystemMap() = default;
  /// The MechanicalSystem whose particles and bodies the coordinates move.
  virtual const MechanicalSystem& system() const = 0;
  /// Its positions q_full at (t, q), into @p q_full (sized here).
  virtual void full_positions(double t, const Eigen::VectorXd& q, Eigen::VectorXd& q_full) const = 0;
  /// Its velocities u_full = T(q) u + s(t, q), into @p u_full (sized here).
  virtual void full_velocities(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                               Eigen::VectorXd& u_full) const = 0;
  /// The driven part s(t, q) of u_full (its value at u = 0), into @p s (sized here).
  virtual void driven_velocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& s) const = 0;
  /// T(q) at (t, q): system().num_velocities() rows, a column per velocity of u.
  virtual void reduction_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& T) const = 0;
};

}  // namespace sinew::model
