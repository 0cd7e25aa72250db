/// @file
/// @brief Joint: the common part of joints between two components of a model::MechanicalSystem
/// (rigid body, particle or the fixed world): the joint frame on each side, compliance and
/// damping, limits, and the row kernels the concrete joints (joint_types.hpp, joint_point.hpp)
/// are written with.
///
/// Rows follow constraint.hpp: u = J v + w over the system's velocity DOFs, phi the position
/// error along the row's direction. A compliant joint (c > 0) carries the law of the
/// compliant-constraints seed, lambda = -(phi + d phidot) / c (section "compliance and damping"),
/// through ConstraintRows::set_compliance; c = 0 is a hard joint.
///
/// Two kinds of position rows are shared by every joint:
/// - translation along a direction n fixed in frame A (or in the world):
///   phi = n . (p_B - p_A), phidot = n . (v_B - v_A) + (w_A x n) . (p_B - p_A);
/// - relative rotation: the quaternion q_rel = Q_A^-1 Q_B of frame B in frame A (mechanics notes
///   sec. 0.2), phi = 2 sign(s) vec(q_rel) (the small rotation vector 2 sin(theta/2) u in A's
///   axes, the standard quaternion error of ODE/Bullet), with the exact derivative
///   phidot = sign(s) (s I - [vec q_rel]) Q_A^T (w_B - w_A).
/// Both Jacobians are the exact derivatives of their phi (the finite-difference tests check this
/// at violated, random states), so Newton-like position projection and compliance see the
/// true geometry.
#pragma once

#include <limits>
#include <string>

#include "sinew/constraints/constraint.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::constraints {

/// One side of a joint: the component it is attached to and the joint frame on it.
struct JointSide {
  /// What the side is attached to.
  enum class Kind {
    kWorld,     ///< the fixed world: origin and axes in world coordinates
    kBody,      ///< rigid body `index`: origin and axes in body coordinates
    kParticle,  ///< particle `index`: the frame origin is the particle; a particle has no
                ///< orientation, so its axes are fixed in the world
  };
  Kind kind = Kind::kWorld;          ///< what the side is attached to
  Index index = -1;                  ///< body or particle index (unused for the world)
  Vec3 origin = Vec3{{0, 0, 0}};     ///< frame origin: body coordinates (kBody), world (kWorld)
  Vec3 axis = Vec3{{0, 0, 1}};       ///< frame z axis (hinge / slider axis, plane normal); any length > 0
  Vec3 reference = Vec3{{1, 0, 0}};  ///< frame x axis before orthogonalization against `axis`
                                     ///< (zero angle of a hinge); must not be parallel to `axis`
};

/// A world side with frame origin @p origin and z axis @p axis (world coordinates).
JointSide world_side(const Vec3& origin, const Vec3& axis = Vec3{{0, 0, 1}}, const Vec3& reference = Vec3{{1, 0, 0}});
/// A side on body @p b with frame origin @p origin and z axis @p axis (body coordinates).
JointSide body_side(Index b, const Vec3& origin, const Vec3& axis = Vec3{{0, 0, 1}},
                    const Vec3& reference = Vec3{{1, 0, 0}});
/// A side on particle @p i (frame axes fixed in the world).
JointSide particle_side(Index i, const Vec3& axis = Vec3{{0, 0, 1}}, const Vec3& reference = Vec3{{1, 0, 0}});

/// Compliance and damping of a joint's position rows (compliant-constraints seed,
/// lambda = -(phi + d phidot) / c). The defaults make a hard joint.
struct JointCompliance {
  double compliance = 0.0;  ///< c >= 0 (units of phi per unit force); 0: hard
  double damping = 0.0;     ///< d >= 0 (time): the constraint force also opposes d phidot
};

/// A range lower <= coordinate <= upper of a joint coordinate (hinge angle, slider travel),
/// enforced by hard unilateral rows (ArtiSynth notes 0.10: a limit is a unilateral constraint).
///
/// A bound's row is added only while the distance to it, phi (>= 0 inside the range), is at most
/// `margin`, so an inactive limit costs nothing. Adding it a little before contact lets the
/// step stop exactly at the bound: an open row (phi > 0) keeps its whole gap (constraint.hpp),
/// so it pushes only if the step would cross the bound. With margin 0 the row appears only once
/// the bound is reached or crossed, and a fast joint overshoots by up to one step's travel.
struct JointLimit {
  bool enabled = false;                                     ///< false: no limit rows
  double lower = -std::numeric_limits<double>::infinity();  ///< lower bound (may be -inf)
  double upper = std::numeric_limits<double>::infinity();   ///< upper bound (may be +inf), > lower
  /// Activation distance (>= 0): 0.05 rad (3 degrees) or 5 cm covers the travel of a few steps
  /// at moderate speeds with h = 1e-3..1e-2; raise it for fast joints.
  double margin = 0.05;
};

/// The world frame of one joint side at a state: origin, axes and the DOFs it moves.
struct JointFrame {
  Vec3 p;          ///< frame origin, world
  Mat3 R;          ///< frame axes as columns (x, y, z), world
  Quaternion q;    ///< orientation of the frame, world (R = rotation_matrix(q))
  Vec3 body_x;     ///< origin of the carrying body (lever arms), world; p for a particle
  Index dof = -1;  ///< first velocity DOF of the component (-1 for the world)
  int ndof = 0;    ///< 6 (body), 3 (particle) or 0 (world)
};

/// Base of the joints: two sides, a label, compliance; checks its references once.
/// Implementations add their rows in add_rows() with the kernels below.
class Joint : public Constraint {
 public:
  /// "<kind> '<label>'", e.g. "hinge 'elbow'".
  std::string name() const override;
  /// Checks both sides (existing body / particle, a nonzero axis, a reference not parallel to
  /// it), the compliance and the joint's own parameters; throws sinew::Error naming the joint.
  void check(const model::MechanicalSystem& system) const override;
  /// Side A (the reference side: translational directions and angles are measured in its frame).
  const JointSide& side_a() const { return a_; }
  /// Side B.
  const JointSide& side_b() const { return b_; }
  /// Compliance and damping of the position rows.
  const JointCompliance& compliance() const { return compliance_; }

 protected:
  /// A joint of kind @p kind (e.g. "hinge") named @p label between @p a and @p b.
  Joint(std::string kind, std::string label, JointSide a, JointSide b, JointCompliance compliance);
  /// Checks of the concrete joint's parameters (called by check() after the common checks).
  virtual void check_parameters(const model::MechanicalSystem& system) const;
  /// Checks a limit's bounds and margin, naming the joint and @p what ("angle limit").
  void check_limit(const JointLimit& limit, const std::string& what) const;
  /// Frame of side A at @p s.
  JointFrame frame_a(const model::SystemState& s) const;
  /// Frame of side B at @p s.
  JointFrame frame_b(const model::SystemState& s) const;
  /// Makes rows [first, first + count) compliant with this joint's compliance (no-op when hard).
  void apply_compliance(ConstraintRows& out, Index first, Index count) const;
  /// The label of this joint's rows (its name, shared: labelling rows every step copies no text).
  const RowLabel& row_label() const { return label_; }

 private:
  RowLabel label_;  // name() = "<kind> '<label>'", made once
  JointSide a_, b_;
  Mat3 axes_a_, axes_b_;  // each side's axes in its own coordinates, made once (frames are taken every step)
  JointCompliance compliance_;
};

/// Frame of @p side at @p s (the side has been checked).
JointFrame evaluate_joint_frame(const model::SystemState& s, const JointSide& side);

/// Adds to row @p row the terms of one side: @p linear . (velocity of the world point @p point
/// moving with the side) + @p angular . (angular velocity of the side). A particle takes only
/// the linear term (it has no rotation), the world nothing.
void add_side_terms(ConstraintRows& out, Index row, const JointFrame& f, const Vec3& point, const Vec3& linear,
                    const Vec3& angular);

/// Appends a bilateral (or unilateral) translational row along the unit direction @p n (world):
/// phi = n . (pb - pa) - offset, pa and pb world points carried by frames A and B. With
/// @p n_in_a, n turns with frame A (slider, plane normal) and the Jacobian carries that turn;
/// otherwise n is fixed in the world (ball joint). Returns the row.
Index add_translation_row(ConstraintRows& out, BlockKind kind, const JointFrame& A, const Vec3& pa, const JointFrame& B,
                          const Vec3& pb, const Vec3& n, bool n_in_a, double offset, const RowLabel& label);

/// Appends the rows of the relative rotation of B in A listed in @p axes (0 = x, 1 = y, 2 = z
/// of frame A), phi = 2 sign(s) vec(Q_A^-1 Q_B) (see the file comment); returns the first row.
Index add_rotation_rows(ConstraintRows& out, const JointFrame& A, const JointFrame& B, const int* axes, int count,
                        const RowLabel& label);

}  // namespace sinew::constraints
