/// @file
/// @brief MechanicalSystem: particles and rigid bodies with gravity and force fields, as the
/// DynamicalSystem integrators step (mechanics notes sec. 0.1-0.2; compliant-constraints
/// "mechanical states" and "masses"). The velocity convention is in system_state.hpp: world
/// twists (v of the body origin, w) for bodies.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/spatial_inertia.hpp"
#include "sinew/linalg/assembly.hpp"
#include "sinew/model/dynamical_system.hpp"
#include "sinew/model/force_field.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::model {

/// A particle of the model description.
struct Particle {
  double mass;       ///< m > 0
  Vec3 position;     ///< initial world position
  Vec3 velocity;     ///< initial world velocity
  std::string name;  ///< for messages; may be empty
};

/// A rigid body of the model description.
struct RigidBody {
  SpatialInertia inertia;  ///< mass, centre of mass and inertia in BODY coordinates
  Vec3 position;           ///< initial origin, world
  Quaternion orientation;  ///< initial orientation (unit)
  Vec3 velocity;           ///< initial velocity of the origin, world
  Vec3 angular_velocity;   ///< initial angular velocity, world
  std::string name;        ///< for messages; may be empty
};

/// Particles and rigid bodies with gravity and force fields: M(q) du/dt = F + G, where F holds
/// gravity and every force field (kElastic) and G the fictitious forces of rotating bodies with
/// offset centres of mass (kGyroscopic, core's fictitious_force() in world axes).
///
/// Const evaluations plan the stiffness pattern lazily on first use: evaluate one system from
/// one thread at a time (or call stiffness() once before sharing it).
///
/// Layout: components in the order added; a particle has 3 position and 3 velocity coordinates,
/// a body 7 (x, q_s, q_v) and 6 (v, w). The stiffness/damping pattern is planned once (on first
/// use after the last add_*) and reused by every later evaluation.
class MechanicalSystem : public DynamicalSystem {
 public:
  /// An empty system with zero gravity.
  MechanicalSystem();
  ~MechanicalSystem() override;
  /// Not copyable or movable: force fields and reductions keep references to the system.
  MechanicalSystem(const MechanicalSystem&) = delete;
  /// Not assignable (see the copy constructor).
  MechanicalSystem& operator=(const MechanicalSystem&) = delete;

  /// Adds a particle; returns its index. Throws sinew::Error when mass is not finite and > 0 or
  /// a coordinate is not finite.
  Index add_particle(double mass, const Vec3& position, const std::string& name = "",
                     const Vec3& velocity = Vec3{{0, 0, 0}});

  /// Adds a rigid body with @p inertia in body coordinates (checked with make_spatial_inertia());
  /// returns its index. Throws sinew::Error when the quaternion is not unit (|1 - |q|| > 1e-9)
  /// or a value is not finite.
  Index add_body(const SpatialInertia& inertia, const Vec3& position, const Quaternion& orientation,
                 const std::string& name = "", const Vec3& velocity = Vec3{{0, 0, 0}},
                 const Vec3& angular_velocity = Vec3{{0, 0, 0}});

  /// Gravity acceleration g (world), applied to every particle and to each body's centre of mass.
  /// Throws sinew::Error when g is not finite.
  void set_gravity(const Vec3& g);
  /// Gravity acceleration g.
  const Vec3& gravity() const { return gravity_; }

  /// Adds a force field after checking it against the system (ForceField::check()). Throws
  /// sinew::Error for a null field or what check() throws.
  void add_force_field(std::shared_ptr<const ForceField> field);

  /// Holds particle @p i at zero velocity (listed in fixed_velocity_dofs()).
  void fix_particle(Index i);
  /// Holds body @p b at zero velocity.
  void fix_body(Index b);

  /// Number of particles.
  Index num_particles() const { return static_cast<Index>(particles_.size()); }
  /// Number of rigid bodies.
  Index num_bodies() const { return static_cast<Index>(bodies_.size()); }
  /// Particle @p i (checked: sinew::Error when out of range).
  const Particle& particle(Index i) const;
  /// Body @p b (checked: sinew::Error when out of range).
  const RigidBody& body(Index b) const;
  /// A label such as "particle 3 'tip'" or "body 0" for messages.
  std::string particle_label(Index i) const;
  /// A label such as "body 1 'arm'" for messages.
  std::string body_label(Index b) const;
  /// Throws sinew::Error naming @p what unless 0 <= i < num_particles().
  void check_particle(Index i, const std::string& what) const;
  /// Throws sinew::Error naming @p what unless 0 <= b < num_bodies().
  void check_body(Index b, const std::string& what) const;
  /// Throws sinew::Error naming @p what unless the point's particle or body exists.
  void check_point(const PointRef& p, const std::string& what) const;

  /// First position coordinate of particle @p i in q (unchecked, like the three below; see
  /// check_particle() and check_body()).
  Index particle_position_offset(Index i) const { return particle_pos_[i]; }
  /// First velocity coordinate of particle @p i in u.
  Index particle_velocity_offset(Index i) const { return particle_vel_[i]; }
  /// First position coordinate of body @p b in q (x, then q_s, q_v).
  Index body_position_offset(Index b) const { return body_pos_[b]; }
  /// First velocity coordinate of body @p b in u (v, then w).
  Index body_velocity_offset(Index b) const { return body_vel_[b]; }
  /// The velocity DOFs of the component carrying @p p (none for a world point), appended.
  void append_point_dofs(const PointRef& p, std::vector<Index>& dofs) const;

  /// Position of particle @p i in @p q (num_positions() entries, else sinew::Error; as the three below).
  Vec3 particle_position(const Eigen::VectorXd& q, Index i) const;
  /// Writes the position of particle @p i into @p q.
  void set_particle_position(Eigen::VectorXd& q, Index i, const Vec3& x) const;
  /// Origin @p x and orientation @p r of body @p b in @p q.
  void body_pose(const Eigen::VectorXd& q, Index b, Vec3& x, Quaternion& r) const;
  /// Writes the pose of body @p b into @p q (throws unless @p r is unit within 1e-9).
  void set_body_pose(Eigen::VectorXd& q, Index b, const Vec3& x, const Quaternion& r) const;

  /// Positions of the initial state (size num_positions()).
  Eigen::VectorXd initial_positions() const;
  /// Velocities of the initial state (size num_velocities()).
  Eigen::VectorXd initial_velocities() const;

  /// Fills @p s from (t, q, u); throws sinew::Error on wrong sizes or a body quaternion whose
  /// norm is off by more than 1e-6 (naming the body).
  void evaluate_state(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, SystemState& s) const;

  /// The 3x3 mass block m I of particle @p i.
  Eigen::Matrix3d particle_mass_block(Index i) const;
  /// The 6x6 world-axes spatial inertia of body @p b at @p s (mechanics notes sec. 0.1).
  Eigen::Matrix<double, 6, 6> body_mass_block(const SystemState& s, Index b) const {
    return body_mass_block(s.bodies[b].R, b);
  }
  /// The 6x6 world-axes spatial inertia of body @p b at rotation @p R (body to world).
  Eigen::Matrix<double, 6, 6> body_mass_block(const Mat3& R, Index b) const;
  /// Gravity's wrench on body @p b at rotation @p R (body to world): m g at the centre of mass, as
  /// a force and a torque about the body origin (what the built-in gravity applies).
  Wrench body_gravity(const Mat3& R, Index b) const;
  /// True for rigid bodies under gravity alone (no particles, no force fields): between
  /// constraints every body then moves on its own, which integrators exploit body by body.
  bool rigid_bodies_only() const { return particles_.empty() && fields_.empty(); }

  /// The force fields, in the order added (gravity is built in, not listed).
  const std::vector<std::shared_ptr<const ForceField>>& force_fields() const { return fields_; }

  // DynamicalSystem
  Index num_positions() const override { return num_positions_; }
  Index num_velocities() const override { return num_velocities_; }
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override;
  void mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const override;
  void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override;
  void stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                 CsrMatrix& K) const override;
  void damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const override;
  bool has_potential() const override;
  /// False for bodies and particles under gravity alone, each body framed at its centre of mass
  /// (no force field, no gravity torque to turn).
  bool has_force_jacobians() const override;
  double potential_energy(double t, const Eigen::VectorXd& q) const override;
  const std::vector<Index>& fixed_velocity_dofs() const override { return fixed_dofs_; }

  /// Forces of one part at an evaluated state (for ReducedSystem, which builds the state itself).
  void forces_at(const SystemState& s, ForcePart part, Eigen::VectorXd& f) const;
  /// Stiffness at an evaluated state.
  void stiffness_at(const SystemState& s, bool projected, CsrMatrix& K) const;
  /// Damping at an evaluated state.
  void damping_at(const SystemState& s, CsrMatrix& D) const;
  /// Mass matrix at an evaluated state.
  void mass_matrix_at(const SystemState& s, CsrMatrix& M) const;

 private:
  struct Plan;  // the assembly plan of K and D, built on first use
  const Plan& plan() const;
  void assemble(const SystemState& s, bool damping, bool projected, CsrMatrix& A) const;

  std::vector<Particle> particles_;
  std::vector<RigidBody> bodies_;
  std::vector<Index> particle_pos_, particle_vel_;  // (n_particles) offsets in q and u
  std::vector<Index> body_pos_, body_vel_;          // (n_bodies) offsets in q and u
  Index num_positions_ = 0, num_velocities_ = 0;
  Vec3 gravity_{{0, 0, 0}};
  std::shared_ptr<const ForceField> gravity_field_;  // built in; sees gravity_ through the system
  std::vector<std::shared_ptr<const ForceField>> fields_;
  std::vector<Index> fixed_dofs_;  // sorted, unique
  mutable std::unique_ptr<Plan> plan_;
};

}  // namespace sinew::model
