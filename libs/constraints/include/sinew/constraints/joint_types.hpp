/// @file
/// @brief The frame joints: ball (spherical), hinge (revolute), slider (prismatic) and fixed
/// (weld), between two sides (rigid body, particle or world; joint.hpp), with optional limits
/// and a driven joint speed on the hinge and the slider.
///
/// Rows (each one bilateral row unless said otherwise; ArtiSynth notes 0.10-0.11):
/// | joint  | position rows                                            | allowed relative motion |
/// |--------|----------------------------------------------------------|-------------------------|
/// | ball   | 3: p_B - p_A along world x, y, z                          | any rotation about p     |
/// | hinge  | ball + 2: z_A x z_B along x_A, y_A (axes kept parallel)   | rotation about z         |
/// | slider | 2: p_B - p_A along x_A, y_A + 3: relative rotation        | translation along z_A    |
/// | fixed  | 3: p_B - p_A along world axes + 3: relative rotation      | none                     |
/// A limit adds up to two unilateral rows (joint.hpp, JointLimit); a drive adds one bilateral
/// velocity-level row J_coord v = speed (phi = 0, target = speed: constraint.hpp's `target`).
/// Position rows take the joint's compliance (compliant-constraints seed, lambda =
/// -(phi + d phidot)/c); limit and drive rows are hard.
#pragma once

#include <string>
#include <vector>

#include "sinew/constraints/joint.hpp"

namespace sinew::constraints {

/// A change of a drive's speed: from `time` on, the coordinate moves at `speed`.
struct DriveChange {
  double time = 0.0;   ///< when the speed changes (s)
  double speed = 0.0;  ///< the speed from then on
};

/// A joint coordinate driven at a speed (rad/s for a hinge, length/s for a slider), constant or
/// piecewise constant in time: a parametrically controlled coordinate (mechanics notes sec.
/// 0.21), e.g. a gripper's close, lift and hold.
struct JointDrive {
  bool enabled = false;  ///< false: the coordinate is free (within its limits)
  double speed = 0.0;    ///< desired d(coordinate)/dt (before the first change)
  /// Later speeds in increasing time; a step uses the speed of its start time.
  std::vector<DriveChange> changes;
  /// The speed at time @p t.
  double speed_at(double t) const;
};

/// Options of a one-DOF joint (hinge, slider).
struct AxisJointOptions {
  JointCompliance compliance;  ///< of the position rows (default: hard)
  JointLimit limit;            ///< range of the joint coordinate (default: none)
  JointDrive drive;            ///< driven speed of the joint coordinate (default: none)
};

/// Ball (spherical) joint: the frame origins coincide, 3 rows phi = p_B - p_A (world axes).
class BallJoint final : public Joint {
 public:
  /// A ball joint named @p label between the frame origins of @p a and @p b.
  BallJoint(std::string label, JointSide a, JointSide b, JointCompliance compliance = {});
  /// Appends the 3 rows.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;
};

/// A joint with one free coordinate along or about z_A (a hinge's angle, a slider's travel) that
/// carries a limit and a drive: what HingeJoint and SliderJoint share.
class AxisJoint : public Joint {
 public:
  /// Options as given.
  const AxisJointOptions& options() const { return options_; }

 protected:
  /// A joint of @p kind ("hinge", "slider") named @p label, with @p options' compliance.
  AxisJoint(std::string kind, std::string label, JointSide a, JointSide b, AxisJointOptions options);
  /// Checks the limit (called @p limit_name in messages) and the drive speed.
  void check_limit_and_drive(const std::string& limit_name) const;

  AxisJointOptions options_;  ///< limit, drive and compliance
};

/// Hinge (revolute) joint about the z axes of the two frames: ball rows, 2 rows keeping z_B
/// parallel to z_A (phi = (z_A x z_B) . x_A and . y_A, the small rotation about x_A and y_A),
/// then the angle limit and drive rows.
class HingeJoint final : public AxisJoint {
 public:
  /// A hinge named @p label; its angle is 0 when the reference (x) axes coincide.
  HingeJoint(std::string label, JointSide a, JointSide b, AxisJointOptions options = {});
  /// Hinge angle theta = atan2(y_A . x_B, x_A . x_B) in (-pi, pi]: the rotation of B's x axis
  /// about z_A (exact for aligned axes; a misalignment only tilts x_B out of A's xy plane).
  double angle(const model::SystemState& s) const;
  /// Appends 5 position rows, the active limit rows and the drive row.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 protected:
  /// Checks the limit (within (-pi, pi]) and the drive speed.
  void check_parameters(const model::MechanicalSystem& system) const override;
};

/// Slider (prismatic) joint along z_A: 2 rows keep p_B on A's z axis through p_A, 3 rows keep
/// the frames' orientations equal; then the travel limit and drive rows.
class SliderJoint final : public AxisJoint {
 public:
  /// A slider named @p label; the travel is 0 when the frame origins coincide.
  SliderJoint(std::string label, JointSide a, JointSide b, AxisJointOptions options = {});
  /// Travel z_A . (p_B - p_A).
  double travel(const model::SystemState& s) const;
  /// Appends 5 position rows, the active limit rows and the drive row.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 protected:
  /// Checks the limit and the drive speed.
  void check_parameters(const model::MechanicalSystem& system) const override;
};

/// Fixed (weld) joint: the two frames coincide, 3 translational + 3 rotational rows.
class FixedJoint final : public Joint {
 public:
  /// A weld named @p label holding frame B on frame A.
  FixedJoint(std::string label, JointSide a, JointSide b, JointCompliance compliance = {});
  /// Appends the 6 rows.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;
};

}  // namespace sinew::constraints
