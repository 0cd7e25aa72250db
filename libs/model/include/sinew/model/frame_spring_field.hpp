/// @file
/// @brief Frame springs between two rigid bodies, or a body and a fixed world frame: the
/// six-DOF spring and damper of mechanics notes sec. 0.22 (eqs. 0.37-0.40), its wrenches and
/// Jacobians from the materials library turned to the world-twist convention (sec. 0.22.3).
#pragma once

#include <string>
#include <vector>

#include "sinew/materials/frame_spring.hpp"
#include "sinew/model/force_field.hpp"

namespace sinew::model {

/// Frame springs: frame 1 fixed on body A (R_1A, p1 of the FrameSpring), frame 2 on body B
/// (R_2B, p2) or, when B is kWorldFrame, frame 2 fixed in the world at pose (R_2B, p2).
/// Conservative, with V = k_t/2 |x2 - x1|^2 + k_r/2 phi^2 (phi the angle of R_21).
class FrameSpringField final : public ForceField {
 public:
  /// The index that stands for the fixed world frame in place of body B.
  static constexpr Index kWorldFrame = -1;

  /// Adds a spring between body @p a and body @p b (or kWorldFrame); coefficients checked by
  /// materials' validate(). Throws sinew::Error when a == b or a coefficient is invalid.
  void add(Index a, Index b, const FrameSpring& spring);

  std::string name() const override { return "frame springs"; }
  void check(const MechanicalSystem& system) const override;
  void layout(const MechanicalSystem& system, ElementLayout& out) const override;
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override;
  void stiffness_values(const SystemState& s, bool projected, double* values) const override;
  void damping_values(const SystemState& s, double* values) const override;
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override;

 private:
  struct Spring {
    Index a, b;
    FrameSpring params;
  };
  std::vector<Spring> springs_;
};

}  // namespace sinew::model
