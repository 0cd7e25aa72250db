/// @file
/// @brief KinematicTree: rigid bodies joined by hinges and sliders in a tree, in reduced (joint)
/// coordinates, with the O(n) recursive Newton-Euler bias forces and the composite-rigid-body
/// mass matrix (Featherstone, "Rigid Body Dynamics Algorithms", 2008, ch. 5-6), written in world
/// coordinates about the world origin.
///
/// Where maximal coordinates (MechanicalSystem bodies with joints as constraint rows, Baraff's
/// factor) carry 6 velocities per body and a row per constrained direction, a tree carries one
/// velocity per joint and has no joint drift to correct: a 20-link hinge chain is a 20 x 20
/// system instead of 120 velocities and 100 rows (issue 22 point 7, the chain against MuJoCo).
///
/// Conventions (sinew's, spatial_vector.hpp): twists are (v, w) with v the velocity of the
/// body-fixed point at the world origin, wrenches (f, tau) about the world origin. Joint k of body
/// k has the world motion axis S_k: a hinge of unit axis a through the point p gives
/// S = (p x a, a), a slider of axis a gives S = (a, 0). Then (Featherstone eq. 5.7, 6.4)
///   V_k = V_parent + S_k u_k,  A_k = A_parent + S_k qdd_k + V_k x S_k u_k,
///   f_k = I_k A_k + V_k x* I_k V_k,  F_k = f_k + sum of the children's F,  tau_k = S_k . F_k,
/// with gravity as the base's acceleration A_0 = (-g, 0), and the mass matrix (eq. 6.3)
///   M_kj = S_j . (I^c_k S_k) for j an ancestor of k (or k itself), I^c_k = sum of I over k's subtree,
/// where the world-frame spatial inertia about the origin of a body of mass m, world centre of
/// mass c and world rotational inertia J about it is I = [m 1, -m [c]; m [c], J - m [c][c]].
/// The equations of motion are (M(q) + A) qdd + b(q, u) = tau(t, q, u) - D u, with b = RNEA(q, u,
/// qdd = 0) (Coriolis, centrifugal and gravity terms), A the joints' armature, D their damping and
/// tau the joint forces of set_joint_force().
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>
#include <Eigen/Eigenvalues>
#include <functional>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/spatial_inertia.hpp"
#include "sinew/model/dynamical_system.hpp"

namespace sinew::model {

/// How a tree body moves relative to its parent.
enum class TreeJointKind {
  kHinge,  ///< rotation by q about the axis through the joint point
  kSlider  ///< translation by q along the axis
};

/// One body of a KinematicTree and the joint that joins it to its parent. At q = 0 the body's
/// axes are its parent's (the world's for a root), with the joint points coinciding.
struct TreeBody {
  std::string name;                             ///< for messages
  Index parent = -1;                            ///< the parent body (added before this one), -1 for the world
  TreeJointKind joint = TreeJointKind::kHinge;  ///< the joint to the parent
  Vec3 axis = Vec3{{0, 0, 1}};                  ///< joint axis in the parent's axes (any length > 0)
  Vec3 joint_in_parent = Vec3{{0, 0, 0}};       ///< joint point in the parent's frame (world for a root)
  Vec3 joint_in_body = Vec3{{0, 0, 0}};         ///< the same point in this body's frame
  SpatialInertia inertia{1.0, Vec3{{0, 0, 0}}, identity3()};  ///< about the body's frame (make_spatial_inertia)
  /// Inertia added to the joint's own diagonal entry of M (a motor's rotor seen through its
  /// gear: kg m^2 for a hinge, kg for a slider), >= 0; MuJoCo's joint armature.
  double armature = 0.0;
  /// Viscous joint damping, >= 0: the joint force -damping u (N m s/rad or N s/m).
  double damping = 0.0;
};

/// Joint forces tau(t, q, u) (motors, a controller), written into @p tau (sized to the joints).
using TreeJointForce =
    std::function<void(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& tau)>;

/// Rigid bodies joined to their parents by one-DOF joints (see the file comment): positions q are
/// the joint coordinates (angles in rad, slides in m), velocities u their rates. A
/// DynamicalSystem, so that the integrators step it; its mass matrix is dense (a tree's couples
/// each joint with its ancestors). Evaluations share a workspace: not thread-safe.
class KinematicTree final : public DynamicalSystem {
 public:
  /// An empty tree under gravity @p gravity (world, m/s^2).
  explicit KinematicTree(const Vec3& gravity = Vec3{{0, 0, -9.81}});

  /// Adds @p body and returns its index (= its joint's coordinate). Throws sinew::Error naming the
  /// body and the field: a parent that is not an earlier body or -1, an axis that is zero or not
  /// finite, joint points that are not finite, an inertia that make_spatial_inertia() refuses, a
  /// negative or non-finite armature or damping.
  Index add_body(const TreeBody& body);
  /// Number of bodies (= joints = coordinates).
  Index num_bodies() const { return static_cast<Index>(bodies_.size()); }
  /// Body @p b as added (the axis normalized).
  const TreeBody& body(Index b) const { return bodies_[static_cast<std::size_t>(b)]; }
  /// Gravity (world).
  const Vec3& gravity() const { return gravity_; }

  /// World pose of body @p b at @p q: origin @p x and rotation @p R (body to world).
  void body_pose(const Eigen::VectorXd& q, Index b, Vec3& x, Mat3& R) const;
  /// World position of the point @p local of body @p b at @p q.
  Vec3 body_point(const Eigen::VectorXd& q, Index b, const Vec3& local) const;

  /// Every body's world frame and joint motion axis at @p q from one pass over the tree: body b's
  /// origin @p x[b], rotation @p R[b] (body to world) and its joint's twist @p S[b] = (v_O, w)
  /// about the world origin (the file comment's S_k). A point p of body b then moves at the sum
  /// over b's joint and its ancestors' j of (S_j.v + S_j.w x p) u_j (model::TreeBodies).
  void frames(const Eigen::VectorXd& q, std::vector<Vec3>& x, std::vector<Mat3>& R,
              std::vector<Eigen::Matrix<double, 6, 1>>& S) const;
  /// The 6 x n Jacobian of body @p b's point @p local at @p q: J u is the point's world velocity
  /// (rows 0-2) and the body's angular velocity (rows 3-5); the columns of joints that are not
  /// the body's or its ancestors' are zero (an end effector's Jacobian, for control and contact).
  void point_jacobian(const Eigen::VectorXd& q, Index b, const Vec3& local, Eigen::MatrixXd& J) const;

  /// Sets the joint forces applied at every evaluation (empty: none).
  void set_joint_force(TreeJointForce force) { joint_force_ = std::move(force); }

  /// The joint accelerations qdd = M(q)^-1 (tau(t, q, u) - D u - b(q, u)) (see the file comment),
  /// by the composite-rigid-body mass matrix and a dense Cholesky factor. Throws sinew::Error on
  /// wrong sizes or joint forces of the wrong size; @returns false when M is not positive definite
  /// or a value is not finite (qdd then undefined).
  bool accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& qdd) const;
  /// The bias b(q, u) of M qdd + b = tau (recursive Newton-Euler with qdd = 0): Coriolis,
  /// centrifugal and gravity terms; with @p with_gravity false the velocity terms alone.
  void bias_forces(const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool with_gravity, Eigen::VectorXd& b) const;
  /// The dense mass matrix M(q) (composite rigid bodies), armature included.
  void dense_mass_matrix(const Eigen::VectorXd& q, Eigen::MatrixXd& M) const;

  // DynamicalSystem.
  Index num_positions() const override { return num_bodies(); }
  Index num_velocities() const override { return num_bodies(); }
  /// q1 = q0 + h u (joint coordinates add).
  void advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                         Eigen::VectorXd& q1) const override;
  /// M(q) as a dense CSR matrix.
  void mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const override;
  /// kElastic: gravity's generalized force -b(q, 0) and the damping -D u; kGyroscopic: the velocity
  /// terms -(b(q, u) - b(q, 0)) and the joint forces tau(t, q, u), whose derivatives are not known
  /// (the implicit schemes take them explicitly); kAll: their sum.
  void forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
              Eigen::VectorXd& f) const override;
  /// K = -dF/dq of the gravity force, by central differences of bias_forces() (dense; O(n^2)
  /// RNEA passes are cheap for the small trees this is for). Projected: its symmetric part with
  /// negative eigenvalues set to zero.
  void stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                 CsrMatrix& K) const override;
  /// D = diag(damping) (the velocity terms are in ForcePart::kGyroscopic).
  void damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const override;
  /// True: gravity's generalized force depends on q.
  bool has_force_jacobians() const override { return true; }
  /// True: gravity is conservative.
  bool has_potential() const override { return true; }
  /// -sum of m g . c over the bodies.
  double potential_energy(double t, const Eigen::VectorXd& q) const override;
  /// 1/2 u^T M(q) u.
  double kinetic_energy(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u) const override;

 private:
  using Vector6 = Eigen::Matrix<double, 6, 1>;
  using Matrix6 = Eigen::Matrix<double, 6, 6>;
  /// Fills the workspace's world poses, motion axes and spatial inertias at @p q.
  void kinematics(const Eigen::VectorXd& q) const;
  /// RNEA on the kinematics of the last kinematics() call (qdd = 0).
  void rnea(const Eigen::VectorXd& u, bool with_gravity, Eigen::VectorXd& b) const;
  /// CRBA on the kinematics of the last kinematics() call, into ws_.M.
  void crba() const;
  /// Adds the joint forces tau(t, q, u) to @p f (sized); throws sinew::Error when the callback
  /// writes a vector of the wrong size.
  void add_joint_force(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& f) const;
  /// Throws sinew::Error unless @p v has num_bodies() entries.
  void check_size(const Eigen::VectorXd& v, const char* what, const char* where) const;

  std::vector<TreeBody> bodies_;
  Vec3 gravity_;
  TreeJointForce joint_force_;
  /// Per-evaluation storage (sized with the tree): kinematics, RNEA and CRBA passes.
  struct Workspace {
    std::vector<Eigen::Matrix3d> R;  ///< body to world rotations
    std::vector<Eigen::Vector3d> x;  ///< body origins (world)
    std::vector<Vector6> S;          ///< motion axes (world, about the origin)
    std::vector<Matrix6> I;          ///< spatial inertias (world, about the origin)
    std::vector<Matrix6> Ic;         ///< composite inertias
    std::vector<Vector6> V, A, F;    ///< RNEA twists, accelerations, forces
    Eigen::MatrixXd M;               ///< mass matrix
    Eigen::LLT<Eigen::MatrixXd> llt{0};
    Eigen::VectorXd b, tau, q_plus, q_minus, b_plus, b_minus;
    Eigen::VectorXd zero;  ///< zero velocities (forces()' elastic part, stiffness())
    /// stiffness() and its projection: Q, the eigenvectors Q V_T, their columns scaled by max(l, 0)
    Eigen::MatrixXd K, Q, eigenvectors, K_half;
    Eigen::Tridiagonalization<Eigen::MatrixXd> tridiagonal{0};  ///< K = Q T Q^T
    Eigen::VectorXd t_diagonal, t_subdiagonal, householder;     ///< T's diagonals; Q's workspace
    Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd> eigen{0};    ///< T = V_T diag(l) V_T^T
    Eigen::LLT<Eigen::MatrixXd> llt_K{0};                       ///< stiffness()'s definiteness test
  };
  mutable Workspace ws_;
};

}  // namespace sinew::model
