/// @file
/// @brief Prescribed world forces applied at points (particles, body markers): actuator, contact
/// or wind loads. A force at a marker is the wrench (f, r x f) on its body, whose torque turns
/// with the body (the lever stiffness of point_kinematics.hpp).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sinew/model/force_field.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

/// A world force as a function of time.
using ForceHistory = std::function<Vec3(double t)>;

/// Point loads: constant world forces (conservative, V = -sum f . x) or given histories f(t).
class PointLoadField final : public ForceField {
 public:
  /// Applies the constant world force @p force at @p point (finite, checked).
  void add(const PointRef& point, const Vec3& force);
  /// Applies the world force @p history(t) at @p point (then the field has no potential).
  /// Throws sinew::Error when @p history is empty.
  void add(const PointRef& point, ForceHistory history);

  std::string name() const override { return "point loads"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  bool is_conservative() const override;
  double energy(const SystemState& s) const override;

 private:
  struct Load {
    PointRef point;
    Vec3 force;            // constant force when history is empty
    ForceHistory history;  // time-dependent force, or empty
  };
  Vec3 force_of(const Load& load, double t) const { return load.history ? load.history(t) : load.force; }
  std::vector<Load> loads_;
};

}  // namespace sinew::model
