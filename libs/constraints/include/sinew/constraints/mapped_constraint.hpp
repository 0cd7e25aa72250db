/// @file
/// @brief A constraint on mapped points (compliant-constraints, "Matrix assembly": the Jacobian of
/// a constraint on a mapped state is the product of the mapping Jacobians, G = G_x J, and its
/// compliance is the row's own): any Constraint written on the particles of
/// model::MappedPoints::proxy() (a distance joint, a point on a surface, contact of points)
/// acts on rigid, barycentric or multimapped points.
#pragma once

#include <memory>
#include <string>

#include "sinew/constraints/constraint.hpp"
#include "sinew/model/mapped_points.hpp"

namespace sinew::constraints {

/// @p constraint on the proxy particles of @p points: its rows G_x become G_x J over the system's
/// velocity DOFs; phi, targets, blocks, compliance and damping are kept as they are, and so are
/// contact records, their moving sides becoming combinations of points (ContactSide::kPoints).
class MappedConstraint final : public Constraint {
 public:
  /// @p constraint on @p points->proxy() (checked there now).
  /// @throws sinew::Error for a null argument or what constraint->check(proxy) throws.
  MappedConstraint(std::shared_ptr<const model::MappedPoints> points, std::shared_ptr<const Constraint> constraint);

  std::string name() const override { return constraint_->name() + " on " + points_->name(); }
  /// Throws unless @p system is the one the points are mapped from.
  void check(const model::MechanicalSystem& system) const override;
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 private:
  std::shared_ptr<const model::MappedPoints> points_;
  std::shared_ptr<const Constraint> constraint_;
};

}  // namespace sinew::constraints
