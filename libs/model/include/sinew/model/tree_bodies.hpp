/// @file
/// @brief TreeBodies: a KinematicTree's bodies as the rigid bodies of a MechanicalSystem, each
/// following its tree body, so that constraints written for a MechanicalSystem (contact with
/// obstacles and between the tree's own colliders, joints to the world) act on the tree's joint
/// coordinates through the bodies' Jacobians: u_full = T(q) u with T's rows of body b the 6 x n
/// Jacobian of its origin (columns of b's joint and its ancestors'), and
/// G' = G T (system_map.hpp). integrators::ContactStep steps the tree with contact through it.
#pragma once

#include <vector>

#include "sinew/model/kinematic_tree.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/system_map.hpp"

namespace sinew::model {

/// The bodies of a KinematicTree as a MechanicalSystem (see the file comment). Body b of system()
/// is tree body b: the same frame (colliders are placed in it), inertia and name, at q = 0
/// initially. Its positions are the tree's body poses and its velocities the bodies' twists
/// (velocity of the origin, angular velocity); it has no gravity or force fields of its own (the
/// tree's dynamics are the tree's). Evaluations use the tree's workspace: not thread-safe.
class TreeBodies final : public SystemMap {
 public:
  /// The bodies of @p tree, which must outlive this and not gain bodies afterwards (evaluations
  /// then throw sinew::Error).
  explicit TreeBodies(const KinematicTree& tree);
  /// Not copyable: system() is referenced by the constraints built on it.
  TreeBodies(const TreeBodies&) = delete;
  /// Not assignable (see the copy constructor).
  TreeBodies& operator=(const TreeBodies&) = delete;

  /// The tree.
  const KinematicTree& tree() const { return tree_; }
  /// The MechanicalSystem of the tree's bodies (rigid bodies only).
  const MechanicalSystem& system() const override { return system_; }
  /// The bodies' poses at the joint coordinates @p q (7 per body: origin, unit quaternion).
  void full_positions(double t, const Eigen::VectorXd& q, Eigen::VectorXd& q_full) const override;
  /// The bodies' twists J_b(q) u (6 per body: velocity of the origin, angular velocity).
  void full_velocities(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                       Eigen::VectorXd& u_full) const override;
  /// Zero: a tree has no driven motion.
  void driven_velocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& s) const override;
  /// T(q): the 6 rows of body b are its origin's Jacobian over the joints of b and its ancestors
  /// (those entries stored, zero or not, so that the pattern does not change with q). One pass
  /// over the tree; T has 6 (depth + 1) entries per body.
  void reduction_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& T) const override;

 private:
  /// Throws sinew::Error when the tree has gained bodies since, or @p q has the wrong size.
  void check(const Eigen::VectorXd& q, const char* who) const;

  const KinematicTree& tree_;
  MechanicalSystem system_;
  std::vector<std::vector<Index>> joints_;  ///< per body: its own joint and its ancestors', ascending
  // KinematicTree::frames() at the last evaluation (workspace).
  mutable std::vector<Vec3> x_;
  mutable std::vector<Mat3> R_;
  mutable std::vector<Eigen::Matrix<double, 6, 1>> S_, twist_;  ///< motion axes; twists about the world origin
};

}  // namespace sinew::model
