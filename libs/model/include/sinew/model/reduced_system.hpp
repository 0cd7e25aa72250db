/// @file
/// @brief Attachments removed by null-space reduction and kinematically driven components
/// (mechanics notes sec. 0.17-0.21): the ReducedSystem whose velocities are those of the free
/// components, u_full = T(q) u + s(t, q), with M' = T^T M T (eq. 0.21), f' = T^T f (eq. 0.23) and
/// the fictitious-force adjustment -T^T M (Tdot u + s') of sec. 0.19.
#pragma once

#include <Eigen/Core>
#include <functional>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/dynamical_system.hpp"
#include "sinew/model/mapping.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/system_map.hpp"

namespace sinew::model {

/// Prescribed motion of a particle at one time: position, velocity, acceleration (world).
struct PointMotion {
  Vec3 x;  ///< position
  Vec3 v;  ///< velocity
  Vec3 a;  ///< acceleration
};

/// Prescribed motion of a body at one time in the model's convention: pose, world twist of the
/// origin and its time derivative.
struct BodyMotion {
  Vec3 x;        ///< origin
  Quaternion q;  ///< orientation (unit)
  Vec3 v;        ///< velocity of the origin
  Vec3 w;        ///< angular velocity
  Vec3 a;        ///< dv/dt
  Vec3 alpha;    ///< dw/dt
};

/// A particle trajectory t -> (x, v, a).
using ParticleDrive = std::function<PointMotion(double t)>;
/// A body trajectory t -> (x, q, v, w, vdot, wdot).
using BodyDrive = std::function<BodyMotion(double t)>;

/// The system of the free components of a MechanicalSystem once attachments are eliminated and
/// driven (parametric) components are prescribed (notes sec. 0.17-0.21).
///
/// Positions: the full position vector of the MechanicalSystem (so renderers read every
/// component); every evaluation at time t first sets the driven components from their
/// trajectories and the attached ones from their masters, and advance_positions() moves the free
/// components and then re-places the attached ones (driven entries are refreshed at the next
/// evaluation, or by sync_positions()). Velocities: those of the free components, in component
/// order (particles, then bodies), 3 or 6 each.
///
/// Attachments may be made to attached components; they are eliminated in the order of their
/// directed acyclic graph (sec. 0.18), and a cycle is an error naming its components.
/// Forces: kElastic is T^T F; kGyroscopic is T^T (G - M c) with c = Tdot u + s' the known
/// accelerations (the fictitious forces of attachments to rotating bodies and the inertia of
/// driven motion, sec. 0.19 and 0.21). Stiffness: K' = T^T (K + G_k) T + T^T D Z, exact in
/// velocity space: G_k is the lever term of forces carried by attachments to rotating bodies and
/// Z = du_full/dq at fixed free velocities (the projected K' is T^T K_psd T alone).
class ReducedSystem : public DynamicalSystem, public SystemMap {
 public:
  /// The reduction of @p system (which must outlive it and not gain components afterwards).
  explicit ReducedSystem(const MechanicalSystem& system);
  ~ReducedSystem() override;

  /// Attaches particle @p i to the mapped point @p masters (a body marker: particle-to-body; a
  /// barycentric point: particle-to-particles; any mix). Throws sinew::Error when i or a master is
  /// out of range, i is already attached or driven, or i is among its own masters.
  void attach_particle(Index i, const MappedPoint& masters);
  /// Attaches particle @p i to body @p b at its current (initial) place in the body.
  void attach_particle_to_body(Index i, Index b);
  /// Attaches body @p child rigidly to body @p parent at their initial relative pose. Throws
  /// sinew::Error for an index out of range, child == parent, or a child already attached or driven.
  void attach_body(Index child, Index parent);
  /// Prescribes the motion of particle @p i. Throws sinew::Error for an index out of range, a
  /// particle already attached or driven, or an empty @p drive (as drive_body()).
  void drive_particle(Index i, ParticleDrive drive);
  /// Prescribes the motion of body @p b (its twist in the model's world convention).
  void drive_body(Index b, BodyDrive drive);

  /// Orders the attachments (masters first) and numbers the free velocities. Throws sinew::Error
  /// naming the components of a cycle. Must be called after the last attach_* / drive_* and
  /// before any evaluation (which otherwise throws).
  void finalize();

  /// The full system.
  const MechanicalSystem& system() const override { return system_; }
  /// Whether particle @p i (or body @p b) is free, i.e. has reduced velocities.
  bool particle_is_free(Index i) const;
  /// Whether body @p b is free.
  bool body_is_free(Index b) const;
  /// First reduced velocity of free particle @p i (-1 when not free).
  Index particle_velocity_offset(Index i) const;
  /// First reduced velocity of free body @p b (-1 when not free).
  Index body_velocity_offset(Index b) const;

  /// The reduced velocities of the full velocities @p u_full: the free components' entries
  /// (the attached and driven ones follow their masters and drives).
  Eigen::VectorXd free_velocities(const Eigen::VectorXd& u_full) const;
  /// Sets the driven components of @p q from their trajectories at @p t and the attached ones
  /// from their masters.
  void sync_positions(double t, Eigen::VectorXd& q) const;
  /// @p q with sync_positions() at @p t applied: the positions are the full system's.
  void full_positions(double t, const Eigen::VectorXd& q, Eigen::VectorXd& q_full) const override;
  /// Full velocities u_full = T u + s(t) (q synced internally, @p q unchanged).
  void full_velocities(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                       Eigen::VectorXd& u_full) const override;
  /// The driven components' velocities s(t) and what they carry through attachments (u = 0).
  void driven_velocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& s) const override;
  /// The reduction matrix T (full velocities x reduced velocities) at (t, q).
  void reduction_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& T) const override;
  /// The accelerations of the full system for reduced accelerations udot = 0 at (t, q, u):
  /// c = Tdot u + s' (driven accelerations, carried through attachments), so that
  /// udot_full = T udot + c.
  void known_accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& c) const;

  // DynamicalSystem
  Index num_positions() const override { return system_.num_positions(); }
  Index num_velocities() const override;
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override;
  void mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const override;
  void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override;
  void stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                 CsrMatrix& K) const override;
  void damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const override;
  bool has_potential() const override;
  double potential_energy(double t, const Eigen::VectorXd& q) const override;
  const std::vector<Index>& fixed_velocity_dofs() const override;

 private:
  struct Attachment;
  struct Evaluation;
  Index num_components() const { return system_.num_particles() + system_.num_bodies(); }
  std::string label(Index c) const;
  void check_new_dependent(Index c, const std::string& what) const;
  void require_finalized() const;
  void place_attached(Eigen::VectorXd& q) const;
  void evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool derivatives, Evaluation& e) const;

  const MechanicalSystem& system_;
  std::vector<Attachment> attachments_;
  std::vector<int> role_;                       // (components) 0 free, 1 attached, 2 driven
  std::vector<Index> attachment_of_;            // (components) attachment index or -1
  std::vector<ParticleDrive> particle_drives_;  // (particles) empty unless driven
  std::vector<BodyDrive> body_drives_;          // (bodies) empty unless driven
  std::vector<Index> order_;                    // attachments, masters first
  std::vector<Index> red_offset_;               // (components) first reduced velocity or -1
  Index num_red_ = 0;
  std::vector<Index> fixed_;  // reduced fixed DOFs
  bool finalized_ = false;
};

}  // namespace sinew::model
