/// @file
/// @brief Masses and force fields on mapped points (compliant-constraints, "Matrix assembly":
/// masses and forces are allowed on any state; on a mapped state x = g(q) with v = J u they enter
/// the system as M += J^T M_x J, F += J^T f_x and K += J^T K_x J plus the geometric stiffness of
/// the mapping, -d(J^T)/dq f_x: the turning lever of a force on a body marker, mechanics notes
/// sec. 0.19). Both are ForceFields, so every integrator and stepper of a MechanicalSystem
/// assembles them with the rest through the same shift matrices.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/model/force_field.hpp"
#include "sinew/model/mapped_points.hpp"

namespace sinew::model {

/// Point masses on mapped points: M += J_i^T m_i J_i per point, gravity F += J^T m g, and the
/// velocity-product force -J^T m (Jdot u) (ForcePart::kGyroscopic). A mass at a marker of a body
/// is then the same as that body's inertia grown by a point mass there.
class MappedMassField final : public ForceField {
 public:
  /// Masses @p masses (one per point of @p points, finite and > 0).
  /// @throws sinew::Error naming the point for a bad mass or a size mismatch.
  MappedMassField(std::shared_ptr<const MappedPoints> points, std::vector<double> masses);

  std::string name() const override { return "masses on " + points_->name(); }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  /// The turning lever of gravity on marker terms (no other stiffness).
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool has_mass() const override { return true; }
  void mass_values(const SystemState& s, double* values) const override;
  void add_fictitious_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  bool is_conservative() const override { return true; }
  /// Gravity's potential -sum m_i g . x_i.
  double energy(const SystemState& s) const override;

 private:
  std::shared_ptr<const MappedPoints> points_;
  std::vector<double> masses_;
};

/// A force field written on the particles of points->proxy() acting on the mapped points:
/// F += J^T f, K = J^T K_x J + J^T D_x dv/dq (rotating markers) + the levers of the total point
/// forces, D = J^T D_x J. Any particle field (springs, FEM tets or membranes, point loads) so acts
/// on rigid points, barycentric points or multimapped points unchanged.
class MappedForceField final : public ForceField {
 public:
  /// @p field on @p points->proxy() (checked there now).
  /// @throws sinew::Error for a null argument or what field->check(proxy) throws.
  MappedForceField(std::shared_ptr<const MappedPoints> points, std::shared_ptr<const ForceField> field);

  std::string name() const override { return field_->name() + " on " + points_->name(); }
  void check(const MechanicalSystem& system) const override;
  /// The field's elements over their points' term DOFs, then one lever element per point.
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  void damping_values(const SystemState& s, double* values) const override;
  bool is_conservative() const override { return field_->is_conservative(); }
  double energy(const SystemState& s) const override;

 private:
  // Element e of the field: its points (distinct, in order of first DOF) and, per DOF of its
  // block, the row 3 k + c of its points' 3-vectors.
  struct Element {
    std::vector<Index> points;
    std::vector<Index> rows;
  };
  // The field's forces on the points at @p s (3 per point) and the proxy state.
  Eigen::VectorXd point_forces(const SystemState& s, SystemState& proxy_state) const;

  std::shared_ptr<const MappedPoints> points_;
  std::shared_ptr<const ForceField> field_;
  ElementLayout field_layout_;  // the field's layout on the proxy
  std::vector<Element> elements_;
  std::vector<Index> lever_points_;  // the points with a body term (the others have no lever)
};

}  // namespace sinew::model
