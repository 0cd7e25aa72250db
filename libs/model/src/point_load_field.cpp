#include "sinew/model/point_load_field.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {

void PointLoadField::add(const PointRef& point, const Vec3& force) {
  require(std::isfinite(force[0]) && std::isfinite(force[1]) && std::isfinite(force[2]),
          [&] { return "PointLoadField::add: load " + std::to_string(loads_.size()) + " has a non-finite force"; });
  loads_.push_back(Load{point, force, {}});
}

void PointLoadField::add(const PointRef& point, ForceHistory history) {
  require(static_cast<bool>(history),
          [&] { return "PointLoadField::add: load " + std::to_string(loads_.size()) + " has an empty force history"; });
  loads_.push_back(Load{point, Vec3{{0, 0, 0}}, std::move(history)});
}

void PointLoadField::check(const MechanicalSystem& system) const {
  for (std::size_t k = 0; k < loads_.size(); ++k)
    system.check_point(loads_[k].point, "point load " + std::to_string(k));
}

void PointLoadField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  std::vector<Index> dofs;
  for (const Load& l : loads_) {
    dofs.clear();
    system.append_point_dofs(l.point, dofs);
    out.add(dofs);
  }
}

void PointLoadField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  for (const Load& l : loads_) {
    const Vec3 F = force_of(l, s.t);
    add_point_forces({point_kinematics(s, l.point)}, F.v, f);
  }
}

void PointLoadField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  const Eigen::MatrixXd zero = Eigen::MatrixXd::Zero(3, 3);
  Eigen::MatrixXd K;
  for (const Load& l : loads_) {
    const Vec3 F = force_of(l, s.t);
    point_stiffness({point_kinematics(s, l.point)}, F.v, zero, zero, K);  // only the lever term
    if (projected) project_to_psd(K);
    for (Eigen::Index r = 0; r < K.rows(); ++r)
      for (Eigen::Index c = 0; c < K.cols(); ++c) *values++ = K(r, c);
  }
}

bool PointLoadField::is_conservative() const {
  for (const Load& l : loads_)
    if (l.history) return false;
  return true;
}

double PointLoadField::energy(const SystemState& s) const {
  require(is_conservative(), "PointLoadField::energy: a load has a force history, which has no potential");
  double V = 0.0;
  for (const Load& l : loads_) V -= dot(l.force, point_kinematics(s, l.point).x);
  return V;
}

}  // namespace sinew::model
