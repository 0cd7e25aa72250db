/// @file
/// @brief Axial and multi-point springs between points of a mechanical system (particles, body
/// markers, world anchors), from the materials library's per-element forces and Jacobians
/// (mechanics notes sec. 0.12, 0.14) mapped to generalized coordinates by point_kinematics.hpp.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sinew/materials/axial_spring.hpp"
#include "sinew/model/force_field.hpp"
#include "sinew/model/point_kinematics.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

/// A general axial force law F(l, ldot) (tension, positive pulls the ends together) with its
/// partial derivatives, as the materials library's AxialTension.
using AxialLaw = std::function<AxialTension(double length, double rate)>;

/// Two-point axial springs, each linear (k, d, rest length; conservative) or with a general law
/// F(l, ldot) (then the field is not conservative). f1 = F u, f2 = -f1 (notes sec. 0.12).
class AxialSpringField final : public ForceField {
 public:
  /// Adds a linear spring between @p a and @p b (parameters checked by materials' validate()).
  void add(const PointRef& a, const PointRef& b, const LinearAxialSpring& spring);
  /// Adds a spring with a general law between @p a and @p b; throws sinew::Error when @p law is empty.
  void add(const PointRef& a, const PointRef& b, AxialLaw law);
  /// Number of springs.
  Index size() const { return static_cast<Index>(springs_.size()); }

  std::string name() const override { return "axial springs"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  void damping_values(const SystemState& s, double* values) const override;
  bool is_conservative() const override;
  double energy(const SystemState& s) const override;

 private:
  struct Spring {
    PointRef a, b;
    bool linear;
    LinearAxialSpring params;  // when linear
    AxialLaw law;              // when not linear
  };
  AxialTension tension(const Spring& sp, double l, double ldot) const;
  std::vector<Spring> springs_;
};

/// Multi-point springs (cables through via points) whose tension F(L, Ldot) depends on the total
/// length of the path's active segments (notes sec. 0.14, eqs. 0.11-0.14). A passive segment
/// (an inextensible tendon part) carries the tension F like every segment but does not count in
/// L, so a spring with passive segments has no energy (is_conservative() is false).
class MultiPointSpringField final : public ForceField {
 public:
  /// Adds a spring through @p points (at least 2, else sinew::Error) with a linear law; returns its index.
  Index add(const std::vector<PointRef>& points, const LinearAxialSpring& spring);
  /// Adds a spring through @p points (at least 2) with a general law F(L, Ldot); returns its index.
  /// Throws sinew::Error for fewer points or an empty @p law.
  Index add(const std::vector<PointRef>& points, AxialLaw law);
  /// Sets which segments of spring @p k count in L (one flag per segment; all active initially).
  /// Throws sinew::Error on a bad index or a flag count other than the segment count.
  void set_active_segments(Index k, const std::vector<bool>& active);

  std::string name() const override { return "multi-point springs"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  void damping_values(const SystemState& s, double* values) const override;
  bool is_conservative() const override;
  double energy(const SystemState& s) const override;

 private:
  struct Spring {
    std::vector<PointRef> points;
    bool linear;
    LinearAxialSpring params;
    AxialLaw law;
    std::unique_ptr<bool[]> active;  // (segments) flags, or null when every segment is active
  };
  // Point kinematics, forces (3n) and Jacobians (3n x 3n) of spring @p sp.
  void evaluate(const SystemState& s, const Spring& sp, std::vector<PointKinematics>& pk, std::vector<double>& f,
                Eigen::MatrixXd* dfdx, Eigen::MatrixXd* dfdv) const;
  std::vector<Spring> springs_;
};

}  // namespace sinew::model
