/// @file
/// @brief ContactConstraint: frictional contact between the components of a
/// model::MechanicalSystem (rigid bodies carrying analytic shapes, particles) and static
/// obstacles, as Signorini-Coulomb row blocks (realtime-hyperelastic-frictional-contact Sec. 3.2,
/// Appendix A.1 eq. (30)-(31)).
///
/// Each contact found by the collision library's analytic pair functions (box-half-space,
/// box-box, point-shape, ...) becomes one block of kind kContact (or kContactBoxFriction) with
/// friction coefficient mu and the three rows
///   n^T (J_A - J_B),  t1^T (J_A - J_B),  t2^T (J_A - J_B),
/// J_X the 3 x ndof point Jacobian (model::point_jacobian()) of the witness point of X on its
/// component (zero for a static obstacle), n the normal from B to A and (t1, t2) the tangents
/// of the contact frame; phi = gap = n . (point_a - point_b) on the normal row, 0 on the
/// tangents. With assemble_step_problem() (constraint.hpp) the normal row then reads
/// u_n = n . (v_A - v_B) + gap / h >= 0: the linearized gap at the end of the step stays open.
///
/// Order (deterministic): first every rigid collider against every obstacle (colliders in the
/// order added, obstacles in the order added), then every pair of colliders (i < k, A = i,
/// B = k), then every particle of every particle set against every obstacle; within a pair, the
/// pair function's order.
#pragma once

#include <string>
#include <vector>

#include "sinew/collision/narrow_phase.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/shape.hpp"
#include "sinew/constraints/constraint.hpp"

namespace sinew::constraints {

/// Parameters of ContactConstraint.
struct ContactOptions {
  /// Coulomb friction coefficient of every contact (>= 0).
  double mu = 0.5;
  /// Contacts are kept while their gap <= margin. Open contacts keep their whole gap in the
  /// step (u_n = v_n + gap / h), so a margin larger than the distance travelled in one step
  /// (|v| h) catches an approaching surface before it is crossed; 5 mm covers 5 m/s at 1 ms.
  double margin = 5e-3;
  /// Friction cone: circular (kContact, the seeds' Coulomb law) or the box/pyramid of PGS
  /// solvers (kContactBoxFriction).
  bool box_friction = false;
  /// Throws sinew::Error unless mu is finite and >= 0 and margin is finite and >= 0.
  void validate() const;
};

/// A rigid collider: an analytic shape fixed in a rigid body, centred at the body origin with
/// the body's axes (the shape's local frame is the body frame).
struct BodyCollider {
  Index body = -1;  ///< rigid-body index in the system
  Shape shape;      ///< shape in body coordinates
};

/// Contact between rigid colliders, particles and static obstacles, all with one friction
/// coefficient: one contact block (n, t1, t2) per contact point (see the file comment).
class ContactConstraint final : public Constraint {
 public:
  /// A contact constraint named @p name with @p params (checked: sinew::Error when invalid).
  explicit ContactConstraint(const ContactOptions& params = {}, std::string name = "contact");

  /// Adds a static obstacle; returns its index.
  Index add_obstacle(const Shape& shape, const Pose& pose);
  /// Adds a collider @p shape carried by rigid body @p body; returns its index.
  Index add_body_collider(Index body, const Shape& shape);
  /// Adds the particles [first, first + count) as contact points against the obstacles (e.g. the
  /// vertices of a deformable body from scene::add_deformable_body()). Throws sinew::Error when
  /// first or count is negative.
  void add_particles(Index first, Index count);

  /// The parameters in use.
  const ContactOptions& params() const { return params_; }
  /// Sets the friction coefficient of every contact (checked like ContactOptions::mu).
  void set_mu(double mu);

  std::string name() const override { return name_; }
  /// Throws sinew::Error for a collider body or particle missing from @p system, or a shape pair
  /// (collider-obstacle, collider-collider) without a contact function.
  void check(const model::MechanicalSystem& system) const override;
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 private:
  ContactOptions params_;
  std::string name_;
  std::vector<Obstacle> obstacles_;
  std::vector<BodyCollider> colliders_;
  std::vector<std::pair<Index, Index>> particle_ranges_;  // (first, count) per add_particles() call
};

}  // namespace sinew::constraints
