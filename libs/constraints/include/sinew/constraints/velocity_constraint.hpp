/// @file
/// @brief Velocity-level (nonholonomic) constraints: rows on velocities that no position
/// function integrates, so phi = 0 and only u = J v (- target) is constrained (constraint.hpp):
/// a knife edge (no sideways velocity of a blade) and a disk rolling without slipping on a plane.
///
/// Both are written against joint.hpp's sides: side A carries the ground (the world or a body
/// whose plane moves), side B the blade or the disk, and the rows constrain the velocity of B's
/// material point relative to A's material point at the same place (ArtiSynth notes 0.10: a
/// bilateral constraint G u = g with no position level). Compliance c, d (JointCompliance) makes
/// them soft: u + c / (h (h + d)) r = 0, a viscous coupling.
#pragma once

#include <string>

#include "sinew/constraints/joint.hpp"

namespace sinew::constraints {

/// Knife edge: the origin of side B (a point of the blade) has no velocity along B's z axis (the
/// blade's sideways direction) relative to side A: one bilateral row, phi = 0. A sled or a
/// skate moves along its blade and turns about the normal, but cannot slide sideways.
class KnifeEdgeConstraint final : public Joint {
 public:
  /// A knife edge named @p label: @p ground (side A) and @p blade (side B, z = sideways).
  KnifeEdgeConstraint(std::string label, JointSide ground, JointSide blade, JointCompliance compliance = {});
  /// Appends the row.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;
};

/// Options of a RollingDiskConstraint.
struct RollingDiskOptions {
  double radius = 1.0;         ///< disk radius R > 0 (the disk is B's frame origin, normal B's z)
  bool hold_on_plane = true;   ///< add the holonomic row keeping the disk's lowest point on the plane
  JointCompliance compliance;  ///< of every row (default: hard)
};

/// A disk (side B: centre at the frame origin, axis B's z, radius R) rolling without slipping on
/// the plane of side A (through A's origin, normal A's z). The contact point is the disk's
/// lowest point p = c + R d, d = -(n - (n . a) a) / |n - (n . a) a|. Rows: optionally the
/// holonomic n . (p - o) = 0 (its Jacobian n^T (v_B(p) - v_A(o)) + turn of n is exact: p is the
/// minimizer of the height over the rim, so its own motion along the rim does not count), then
/// 2 velocity rows t . (v_B(p) - v_A(p)) = 0 along the rolling direction t1 = n x a / |n x a|
/// and the sideways direction t2 = n x t1.
class RollingDiskConstraint final : public Joint {
 public:
  /// A rolling disk named @p label: @p plane (side A) and @p disk (side B, a body).
  RollingDiskConstraint(std::string label, JointSide plane, JointSide disk, RollingDiskOptions options = {});
  /// World contact point p (the disk's lowest point towards the plane) at @p s.
  /// @throws sinew::Error naming the constraint when the disk lies flat (a parallel to n).
  Vec3 contact_point(const model::SystemState& s) const;
  /// Appends 1 + 2 rows (2 without hold_on_plane).
  /// @throws sinew::Error naming the constraint when the disk lies flat.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 protected:
  /// Checks that the disk is a body and the radius.
  void check_parameters(const model::MechanicalSystem& system) const override;

 private:
  RollingDiskOptions options_;
};

}  // namespace sinew::constraints
