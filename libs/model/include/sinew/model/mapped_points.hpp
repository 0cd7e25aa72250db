/// @file
/// @brief Mapped states of points (compliant-constraints, "Matrix assembly": a mapped state x =
/// g(q) with velocity v = J u, forces mapped back by J^T, the global matrices assembled as
/// J^T M_x J, J^T K_x J through the shift matrices of each element; mechanics notes sec. 0.19,
/// eq. 0.36 for a point of a body). Each point is a MappedPoint, x = sum_k w_k p_k over particles
/// and body markers: a rigid point, a barycentric point of a tet or triangle (a collision
/// surface embedded in an FEM mesh), or a multimapping over several components. Masses, force
/// fields (mapped_fields.hpp) and constraints (constraints/mapped_constraint.hpp) are put on the
/// points through MappedPoints; chains of mappings are compose()d into one MappedPoint.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/mapping.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

/// The terms of some mapped points at one state: each term's kinematics and weight, the
/// element view that maps point quantities to the terms' velocity DOFs.
struct MappedTerms {
  std::vector<PointKinematics> terms;  ///< the terms of the points, point by point
  std::vector<double> weights;         ///< (terms) w_k
  std::vector<Index> first_term;       ///< (points + 1) terms of point i: [first_term[i], first_term[i + 1])

  /// Velocity DOFs of the terms in order (ndof each, none for a world term): an element's layout.
  std::vector<Index> dofs() const;
  /// W (3 points x 3 terms): x_i = sum_k w_k p_k in matrix form.
  Eigen::MatrixXd weight_matrix() const;
  /// Term forces W^T f of point forces @p f (3 per point).
  Eigen::VectorXd term_forces(const Eigen::VectorXd& f) const;
};

/// A mapped state: points over a MechanicalSystem, each x_i = sum_k w_k p_k with velocity Jacobian
/// J_i = sum_k w_k J_k (point_jacobian(): I for a particle, [I, -[R p]] for a marker). Force
/// fields and constraints are written on proxy(), a particle system with one particle per mapped
/// point, so any particle field (springs, FEM tets and membranes, point loads) or particle
/// constraint works on mapped points unchanged.
class MappedPoints {
 public:
  /// The points @p points of @p system (which must outlive this; every reference checked, none
  /// empty, weights finite); @p name names them in messages.
  /// @throws sinew::Error naming the point and the bad term.
  MappedPoints(const MechanicalSystem& system, std::vector<MappedPoint> points, std::string name = "mapped points");
  /// Not copyable: the proxy system is referenced by the fields written on it.
  MappedPoints(const MappedPoints&) = delete;
  /// Not assignable (see the copy constructor).
  MappedPoints& operator=(const MappedPoints&) = delete;

  /// Number of points.
  Index size() const { return static_cast<Index>(points_.size()); }
  /// The points.
  const std::vector<MappedPoint>& points() const { return points_; }
  /// The system the points are mapped from.
  const MechanicalSystem& system() const { return system_; }
  /// One unit-mass particle per point at its initial position: what fields and constraints on
  /// the points are written on (particle i is point i).
  const MechanicalSystem& proxy() const { return proxy_; }
  /// Name for messages.
  const std::string& name() const { return name_; }

  /// The velocity DOFs of the terms of the points @p which, in MappedTerms::dofs() order (a
  /// particle's 3, a body's 6, none for a world term): the layout of an element over them.
  std::vector<Index> term_dofs(const std::vector<Index>& which) const;
  /// Positions and velocities of the points at @p s, as a state of proxy().
  void evaluate(const SystemState& s, SystemState& proxy_state) const;
  /// The terms of the points @p which (indices into points()) at @p s.
  MappedTerms terms(const SystemState& s, const std::vector<Index>& which) const;
  /// J (3 size() x num_velocities()): the Jacobian of every point, sparse.
  void jacobian(const SystemState& s, CsrMatrix& J) const;
  /// Jdot u of every point (3 size()): sum_k w_k w x (w x r_k) over the marker terms.
  Eigen::VectorXd velocity_product(const SystemState& s) const;
  /// F += J^T f for point forces @p f (3 size()).
  void add_forces(const SystemState& s, const Eigen::VectorXd& f, Eigen::VectorXd& F) const;

 private:
  const MechanicalSystem& system_;
  std::vector<MappedPoint> points_;
  std::string name_;
  MechanicalSystem proxy_;
};

/// A chain of mappings as one: @p outer, a point over inner's proxy() (particles, world points),
/// as a point over inner's system, each particle term i replaced by inner.points()[i] scaled by
/// its weight; then J = J_outer J_inner exactly (both mappings are linear in the terms).
/// @throws sinew::Error when @p outer has a body term or a particle index out of range.
MappedPoint compose(const MappedPoint& outer, const MappedPoints& inner);

}  // namespace sinew::model
