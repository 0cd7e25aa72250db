/// @file
/// @brief A kinematically driven rigid body: its twist follows a prescribed, piecewise-constant
/// profile whatever pushes on it (a tool, a moving support, a conveyor), as six hard
/// velocity-level rows (constraint.hpp: phi = 0, target = the prescribed velocity; ArtiSynth notes
/// 0.21, parametrically controlled variables). The reaction of the rows is the force that drives
/// it; positions follow by the step's update (exact for a constant twist).
#pragma once

#include <string>
#include <vector>

#include "sinew/constraints/constraint.hpp"
#include "sinew/model/reduced_system.hpp"

namespace sinew::constraints {

/// A change of a prescribed twist: from `time` on, the body moves with it.
struct TwistChange {
  double time = 0.0;                        ///< when it changes (s)
  Vec3 velocity = Vec3{{0, 0, 0}};          ///< velocity of the body origin (world)
  Vec3 angular_velocity = Vec3{{0, 0, 0}};  ///< angular velocity (world)
};

/// A piecewise-constant twist in time; a step uses the twist of its start time.
struct TwistProfile {
  Vec3 velocity = Vec3{{0, 0, 0}};          ///< velocity of the body origin before the first change
  Vec3 angular_velocity = Vec3{{0, 0, 0}};  ///< angular velocity before the first change
  std::vector<TwistChange> changes;         ///< later twists, in increasing time
  /// The twist (velocity then angular velocity) at time @p t.
  TwistChange at(double t) const;
};

/// The motion of a body that starts at (@p x0, @p q0) and moves with @p profile, integrated
/// exactly (constant twist between changes, the world angular velocity turning q by exp(w dt)):
/// the same prescription as a parametric component of model::ReducedSystem::drive_body() (notes
/// sec. 0.21), whose velocities leave the system instead of being held by rows. Its velocity at
/// t is profile.at(t); accelerations are zero (the jumps at changes are not smoothed).
model::BodyDrive twist_drive(const TwistProfile& profile, const Vec3& x0, const Quaternion& q0);

/// Rigid body `body` moves with `profile`: six hard rows (v, w) = profile(t).
class PrescribedMotion final : public Constraint {
 public:
  /// A driven body named @p name (for messages).
  PrescribedMotion(std::string name, Index body, TwistProfile profile);
  std::string name() const override { return name_; }
  /// Throws sinew::Error naming the constraint for a missing body, non-finite values or times
  /// that do not increase.
  void check(const model::MechanicalSystem& system) const override;
  /// Appends the six rows (one bilateral block each).
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;
  /// The profile.
  const TwistProfile& profile() const { return profile_; }

 private:
  std::string name_;
  RowLabel row_label_;  // name_, shared by the labels of its rows
  Index body_;
  TwistProfile profile_;
};

}  // namespace sinew::constraints
