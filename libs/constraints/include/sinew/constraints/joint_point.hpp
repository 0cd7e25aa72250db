/// @file
/// @brief Point joints of one row: a distance between two points (rod, or rope as a one-sided
/// maximum) and a point held on a surface (plane or sphere) carried by another side.
///
/// The points are the frame origins of JointSide (a particle, a body marker or a world point);
/// their axes are unused except for the plane normal (the z axis of the surface side). Rows follow
/// joint.hpp: phi is the signed distance error along the unit direction n between the points, and
/// J = n^T (J_B - J_A) is its exact derivative. A rope is a unilateral row (ArtiSynth notes 0.10)
/// added while its slack L - |p_B - p_A| is at most the margin (see JointLimit for why a margin).
#pragma once

#include <string>

#include "sinew/constraints/joint.hpp"

namespace sinew::constraints {

/// Options of a DistanceJoint.
struct DistanceOptions {
  double length = 1.0;         ///< L > 0
  bool rope = false;           ///< false: |p_B - p_A| = L (rod); true: |p_B - p_A| <= L (rope)
  double margin = 0.05;        ///< rope only: its row is added while the slack is <= margin (>= 0)
  JointCompliance compliance;  ///< of the row (default: hard)
};

/// Distance joint: one row phi = |p_B - p_A| - L (rod) or phi = L - |p_B - p_A| >= 0 (rope).
class DistanceJoint final : public Joint {
 public:
  /// A distance joint named @p label between the frame origins of @p a and @p b.
  DistanceJoint(std::string label, JointSide a, JointSide b, DistanceOptions options = {});
  /// Distance |p_B - p_A| at @p s.
  double distance(const model::SystemState& s) const;
  /// Appends the row (a rope only while it is taut or nearly so).
  /// @throws sinew::Error naming the joint when the two points coincide (no direction).
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 protected:
  /// Checks L > 0 and the margin.
  void check_parameters(const model::MechanicalSystem& system) const override;

 private:
  DistanceOptions options_;
};

/// A surface carried by the surface side of a PointOnSurfaceJoint.
struct SurfaceOptions {
  /// Shape of the surface.
  enum class Shape {
    kPlane,  ///< the plane through the side's frame origin with normal its z axis
    kSphere  ///< the sphere of `radius` about the side's frame origin
  };
  Shape shape = Shape::kPlane;  ///< shape of the surface
  double radius = 1.0;          ///< sphere radius (> 0); unused for a plane
  JointCompliance compliance;   ///< of the row (default: hard)
};

/// Point-on-surface joint: the origin of side B stays on a plane or sphere of side A, one row
/// phi = n . (p_B - p_A) (plane, n = z_A turning with A) or |p_B - p_A| - radius (sphere).
class PointOnSurfaceJoint final : public Joint {
 public:
  /// A point-on-surface joint named @p label: @p surface carries the surface, @p point the point.
  PointOnSurfaceJoint(std::string label, JointSide surface, JointSide point, SurfaceOptions options = {});
  /// Appends the row.
  /// @throws sinew::Error naming the joint when the point is at a sphere's centre.
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 protected:
  /// Checks the radius.
  void check_parameters(const model::MechanicalSystem& system) const override;

 private:
  SurfaceOptions options_;
};

}  // namespace sinew::constraints
