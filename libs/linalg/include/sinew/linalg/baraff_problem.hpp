/// @file
/// @brief The immutable input of Baraff's linear-time Lagrange multiplier solver: bodies with
/// dense mass blocks, primary pairwise constraints (an acyclic set) and auxiliary 1-D rows.
///
/// Reference: D. Baraff, "Linear-Time Dynamics using Lagrange Multipliers"
/// (`shared/seeds/baraff-linear-time-lagrange-multipliers.md`). Notation follows its Section 4:
/// body i has dim(i) degrees of freedom and an SPD mass block @f$M_i@f$ (Section 4.1); primary
/// constraint i is the m-dimensional acceleration condition of eq. (2) restricted to two bodies,
/// @f$j_{ia}\dot v_a + j_{ib}\dot v_b + c_i = 0@f$; auxiliary constraint i is the scalar row
/// @f$a_i = J^a_i \dot v + c^a_i@f$ of eq. (10) with force direction @f$k_i@f$ of eq. (11).
#pragma once

#include <Eigen/Core>
#include <vector>

namespace sinew {

/// Index used for "the fixed world" in place of a body index in a primary constraint.
inline constexpr int kBaraffWorld = -1;

/// One body of dimension d = mass.rows() >= 1 (6 for a rigid body, 3 for a particle, any d).
struct BaraffBody {
  Eigen::MatrixXd mass;  ///< (d x d) symmetric positive definite mass block M_i (Section 4.1)
};

/// A primary (equality, workless) constraint of dimension m between two bodies, or between one
/// body and the world: the block row i of J in eq. (4)-(5), with constraint force
/// @f$J_i^T\lambda_i@f$ (eq. (3)). Primary constraints must form a forest (Section 1.1, 7).
struct BaraffConstraint {
  int body_a = kBaraffWorld;   ///< first body, or kBaraffWorld
  int body_b = kBaraffWorld;   ///< second body, or kBaraffWorld (at most one of the two)
  Eigen::MatrixXd jacobian_a;  ///< (m x dim(body_a)) block j_{i,a}; 0 x 0 when body_a is the world
  Eigen::MatrixXd jacobian_b;  ///< (m x dim(body_b)) block j_{i,b}; 0 x 0 when body_b is the world
};

/// The part of one auxiliary row that acts on one body (Section 8.1).
struct BaraffAuxiliaryBlock {
  int body = 0;                 ///< body index in [0, number of bodies)
  Eigen::RowVectorXd jacobian;  ///< (1 x dim(body)) block of the row J^a_i of eq. (10)
  /// (dim(body)) block of the force direction k_i of eq. (11); left empty for a workless row,
  /// whose force direction is jacobian^T (contacts, joint limits, loop closures).
  Eigen::VectorXd force;
};

/// A one-dimensional auxiliary constraint (loop closure, contact, joint limit; Section 8): the
/// scalar @f$a_i = J^a_i\dot v + c^a_i@f$ of eq. (10) acted on by the force @f$k_i\mu_i@f$. It may
/// touch any number of distinct bodies (the world needs no block). A multi-dimensional loop joint
/// is given as one auxiliary row per dimension.
struct BaraffAuxiliaryConstraint {
  std::vector<BaraffAuxiliaryBlock> blocks;  ///< one block per body it acts on (at least one)
};

/// Checks of BaraffProblem's constructor.
struct BaraffProblemOptions {
  /// Largest accepted |M_ij - M_ji| relative to max |M_ij| of the block. The factorization reads
  /// one triangle only, so a visibly non-symmetric mass block is a modelling error, while the
  /// default leaves room for the rounding of an assembled rotated inertia (R I R^T).
  double mass_symmetry_tolerance = 1e-10;
};

/// Description of the system of Baraff's eq. (8): bodies (M), primary constraints (J) and
/// auxiliary rows (J^a, K). Its structure is validated once, on construction, and never changes;
/// its numbers may be replaced by assign_values() (a simulation's next step). A BaraffSolver is
/// made from it and refactored from it, or from another problem of the same structure.
///
/// Degrees of freedom are numbered body after body (body i owns entries
/// [body_offset(i), body_offset(i) + body_dim(i)) of @f$\dot v@f$), multipliers constraint after
/// constraint (constraint i owns [constraint_offset(i), + constraint_dim(i)) of @f$\lambda@f$).
class BaraffProblem {
 public:
  /// Validates and stores the system.
  /// @throws sinew::Error naming the body, constraint or auxiliary row and what was expected:
  ///   empty or non-square, non-symmetric, non-finite or not positive definite mass blocks; body
  ///   indices out of range; a constraint on the world twice or on one body twice; Jacobian blocks
  ///   whose sizes do not match m x dim(body); m = 0; auxiliary rows without blocks, with a body
  ///   twice, or with blocks of the wrong size. (Cycles are found by BaraffSolver.)
  BaraffProblem(std::vector<BaraffBody> bodies, std::vector<BaraffConstraint> constraints,
                std::vector<BaraffAuxiliaryConstraint> auxiliary = {}, const BaraffProblemOptions& options = {});

  /// Takes the numbers of @p bodies, @p constraints and @p auxiliary, which must have this
  /// problem's structure (each body's size, each constraint's bodies and block sizes, each
  /// auxiliary row's bodies, sizes and force directions present or not), into the storage it
  /// has: no allocation. Checks as the constructor does except definiteness of the mass blocks,
  /// which BaraffSolver::factor() reports (naming the body).
  /// @throws sinew::Error naming the first mismatch or non-finite or non-symmetric entry; the
  ///   problem is then left as it was.
  void assign_values(const std::vector<BaraffBody>& bodies, const std::vector<BaraffConstraint>& constraints,
                     const std::vector<BaraffAuxiliaryConstraint>& auxiliary);

  /// Writable view of body @p i's mass block, for a caller that rewrites the numbers in place
  /// between factorizations (never the sizes) and vouches for what assign_values() checks: finite,
  /// symmetric entries. An integrator's step problem whose structure holds from step to step.
  Eigen::Ref<Eigen::MatrixXd> mass_values(int i) { return bodies_[static_cast<std::size_t>(i)].mass; }
  /// Writable view of primary constraint @p i's Jacobian block on side @p side (0: body_a, 1:
  /// body_b; 0 x 0 on the world), with mass_values()' contract (finite entries).
  Eigen::Ref<Eigen::MatrixXd> jacobian_values(int i, int side) {
    BaraffConstraint& c = constraints_[static_cast<std::size_t>(i)];
    return side == 0 ? c.jacobian_a : c.jacobian_b;
  }
  /// Writable view of block @p block of auxiliary row @p i's Jacobian, with mass_values()' contract.
  Eigen::Ref<Eigen::RowVectorXd> auxiliary_jacobian_values(int i, int block) {
    return auxiliary_[static_cast<std::size_t>(i)].blocks[static_cast<std::size_t>(block)].jacobian;
  }

  /// Number of bodies n.
  int num_bodies() const { return static_cast<int>(bodies_.size()); }
  /// Number of primary constraints.
  int num_constraints() const { return static_cast<int>(constraints_.size()); }
  /// Number k of auxiliary rows (the size of the system of eq. (12)).
  int num_auxiliary() const { return static_cast<int>(auxiliary_.size()); }
  /// Length of @f$\dot v@f$ and of a force vector: the sum of the body dimensions.
  int num_dofs() const { return body_offset_.back(); }
  /// Length of @f$\lambda@f$ and of the bias c: the sum of the primary constraint dimensions.
  int num_multipliers() const { return constraint_offset_.back(); }

  /// Dimension dim(i) of body @p i.
  int body_dim(int i) const { return body_offset_[i + 1] - body_offset_[i]; }
  /// First entry of body @p i in @f$\dot v@f$ and in a force vector.
  int body_offset(int i) const { return body_offset_[i]; }
  /// Dimension m of primary constraint @p i.
  int constraint_dim(int i) const { return constraint_offset_[i + 1] - constraint_offset_[i]; }
  /// First entry of primary constraint @p i in @f$\lambda@f$ and in the bias c.
  int constraint_offset(int i) const { return constraint_offset_[i]; }

  /// The bodies, as given.
  const std::vector<BaraffBody>& bodies() const { return bodies_; }
  /// The primary constraints, as given.
  const std::vector<BaraffConstraint>& constraints() const { return constraints_; }
  /// The auxiliary rows, as given.
  const std::vector<BaraffAuxiliaryConstraint>& auxiliary() const { return auxiliary_; }
  /// True when every auxiliary row is workless (K = (J^a)^T), so that the matrix of eq. (12) is
  /// symmetric positive semidefinite.
  bool auxiliary_workless() const { return auxiliary_workless_; }

 private:
  std::vector<BaraffBody> bodies_;                    ///< (n) mass blocks
  std::vector<BaraffConstraint> constraints_;         ///< primary constraints
  std::vector<BaraffAuxiliaryConstraint> auxiliary_;  ///< (k) auxiliary rows
  std::vector<int> body_offset_;                      ///< (n + 1) prefix sums of body dimensions
  std::vector<int> constraint_offset_;                ///< (constraints + 1) prefix sums of m
  bool auxiliary_workless_ = true;                    ///< no auxiliary block has an explicit force
  double mass_symmetry_tolerance_ = 0.0;              ///< BaraffProblemOptions' (for assign_values())
};

}  // namespace sinew
