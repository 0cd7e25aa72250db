/// @file
/// @brief Constraint: what joints, limits and contacts on a model::MechanicalSystem contribute to
/// one step's constraint problem (rows of the Jacobian over the system's velocity DOFs, their
/// violation, targets, compliance and damping), and the assembly of those rows into the global
/// form of FCLIB (constraint_problem.hpp) for a velocity-level step.
///
/// Row convention: the constraint velocity of row k is u_k = J_k v + w_k, where the law of the
/// row's block applies to u (bilateral u = 0; unilateral and contact normal u >= 0 _|_ r >= 0;
/// tangents by Coulomb's law), r is the row's impulse over the step (lambda h), and
/// w_k = erp phi_k / (h + d_k) - target_k stabilizes the position-level violation phi_k (an open
/// unilateral row, phi_k > 0, keeps its whole gap: erp = 1 there).
/// Compliant rows (compliant-constraints eq. lambda = -(phi + d phidot) / c, integrated
/// implicitly with phi_{n+1} = phi + h J v and phidot = J v) give
///   J v + phi / (h + d) + c / (h (h + d)) r = 0,
/// so they carry w = phi / (h + d) and the diagonal compliance C = c / (h (h + d)) of
/// GlobalProblem. A hard row is the limit c = 0 (and d = 0 gives w = phi / h: the violation is
/// removed in one step unless erp < 1 softens it).
///
/// Steps of other schemes (StepWeights: the theta-method's theta_q, theta_v, theta_vq; the
/// compliant alpha/beta scheme is (alpha, alpha, beta)) move the positions by
/// h v^theta_vq = h (theta_vq v + (1 - theta_vq) v0) and evaluate forces at q0 + theta_q h v^theta_vq
/// and v^theta_v. A compliant row's average force then satisfies the seed's
///   J dv + C avlam / l = -(phi + (d + theta_q h) phidot) / l,  l = h theta_q theta_vq + d theta_v
/// (compliant-constraints, "Time integration", with alpha = theta_q = theta_v, beta = theta_vq):
/// w = (phi + (d + theta_q h) phidot) / l - phidot and C = c / (h l), phidot = J v0, whose Schur
/// complement is the seed's (h J P A^-1 P J^T + C / l). An open unilateral row keeps its gap
/// through the position update, phi + h J v^theta_vq >= 0: w = (phi / h + (1 - theta_vq) phidot) /
/// theta_vq. So does a hard position-level bilateral row (a joint's): phi + h J v^theta_vq = 0 up
/// to erp, w = (erp phi / h + (1 - theta_vq) phidot) / theta_vq - target, so the joint holds at
/// the positions the step reaches. Velocity-level rows (ConstraintRows::velocity_level: drives,
/// prescribed twists, nonholonomic rows) and tangent rows act on v as above.
#pragma once

#include <Eigen/Core>
#include <Eigen/SparseCore>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/system_state.hpp"

namespace sinew::constraints {

/// Which constraint made a block of rows, for messages: the constraint's name, shared with the
/// constraint so that labelling rows every step copies no text, and a role within it (" x",
/// " drive"; static text). text() joins them when a message needs it.
struct RowLabel {
  /// An empty label.
  RowLabel() = default;
  /// A label of its own text (one copy of it, shared by the label's copies); implicit, so that
  /// a string serves wherever a label is expected.
  RowLabel(std::string text);
  /// A label of its own text (implicit, as above).
  RowLabel(const char* text);
  /// This label with @p role (static text, e.g. a string literal) after the name.
  RowLabel with_role(const char* role) const;
  /// The name followed by the role.
  std::string text() const;

  std::shared_ptr<const std::string> name;  ///< the constraint's name (null: empty)
  const char* role = "";                    ///< static text after the name
};

/// One side of a contact block: what its witness point moves with.
struct ContactSide {
  /// What the side is.
  enum class Kind : int {
    kObstacle = 0,  ///< a static obstacle; index: the obstacle's in its ContactConstraint (order added)
    kBody = 1,      ///< one rigid body; index: the body's
    kParticle = 2,  ///< one particle; index: the particle's
    /// a combination of points (a point of a triangle or an edge, a point mapped over several
    /// components); index -1
    kPoints = 3
  };
  Kind kind = Kind::kObstacle;  ///< what the side is
  Index index = -1;             ///< which one (see Kind)
};

/// Where a contact block acts, recorded beside its rows by the constraint that adds it
/// (ContactConstraint): at the state the rows were evaluated at.
struct ContactRecord {
  Index block = -1;    ///< the block's index in ConstraintRows::blocks
  Vec3 point_a;        ///< world witness point on side A (the side the normal points to)
  Vec3 point_b;        ///< world witness point on side B
  ContactFrame frame;  ///< normal (from B to A), tangent1, tangent2: the directions of the block's rows
  ContactSide a;       ///< side A
  ContactSide b;       ///< side B
};

/// The rows that constraints add for one step, appended block by block. Row indices of
/// `jacobian` count from 0 over all rows appended so far (use next_row()).
struct ConstraintRows {
  std::vector<ConstraintBlock> blocks;           ///< row blocks in row order (their sizes sum to rows())
  std::vector<Eigen::Triplet<double>> jacobian;  ///< (row, velocity DOF, value) entries of J
  std::vector<double> phi;                       ///< (rows) position-level violation: a joint's error, a
                                                 ///< contact's signed gap along the normal; 0 for rows
                                                 ///< without a position level (friction, velocity-level)
  std::vector<double> target;                    ///< (rows) desired constraint velocity (driven joints,
                                                 ///< moving obstacles' normal speed); 0 for most rows
  std::vector<double> compliance;                ///< (rows) c >= 0; 0 is a hard row
  std::vector<double> damping;                   ///< (rows) d >= 0 of compliant rows
  /// (rows) 1 for a row without a position level (a drive, a prescribed twist, a nonholonomic
  /// row): a step whose positions move by a weighted velocity constrains its end velocity; 0 for
  /// a position-level row, which constrains the positions the step reaches (StepWeights).
  std::vector<char> velocity_level;
  std::vector<RowLabel> labels;  ///< (blocks) which constraint made the block, for messages
  /// (contact blocks) where each contact block acts, in block order; constraints that add
  /// contact blocks without recording them leave those out.
  std::vector<ContactRecord> contacts;

  /// Number of rows appended.
  Index rows() const { return static_cast<Index>(phi.size()); }
  /// Index the next appended row will have.
  Index next_row() const { return rows(); }
  /// Appends a block of @p kind (1 or 3 rows) with per-row phi and target, hard (c = d = 0);
  /// returns the index of its first row. Jacobian entries are added separately.
  /// @p phi and @p target have block_size(kind) entries; throws sinew::Error otherwise.
  Index add_block(BlockKind kind, double mu, const std::vector<double>& phi, const std::vector<double>& target,
                  RowLabel label);
  /// As above with the values in braces, e.g. add_block(kind, 0, {phi}, {0.0}, label): no
  /// temporary vectors (joints add their rows every step).
  Index add_block(BlockKind kind, double mu, std::initializer_list<double> phi, std::initializer_list<double> target,
                  RowLabel label);
  /// Appends @p count hard one-row blocks of @p kind (bilateral or unilateral) with phi from
  /// @p row_phi, target 0, labelled @p label with role @p roles[k] (static text); returns the first
  /// row. Each array grows once (a joint's rows, every step). Throws sinew::Error for a kind of
  /// more rows or a negative count.
  Index add_rows(BlockKind kind, Index count, const double* row_phi, const RowLabel& label, const char* const* roles);
  /// Makes the rows [first, first + count) compliant with compliance c and damping d (>= 0).
  /// Throws sinew::Error when the range leaves [0, rows()) or c, d are negative or not finite.
  void set_compliance(Index first, Index count, double c, double d);
  /// Marks the rows [first, first + count) as velocity-level (see velocity_level). Throws
  /// sinew::Error when the range leaves [0, rows()).
  void set_velocity_level(Index first, Index count);
  /// Removes every row, keeping capacity.
  void clear();
  /// Throws sinew::Error naming the first inconsistency (sizes, a row or DOF out of range for
  /// @p num_velocities, a non-finite value, negative compliance or damping, a contact record of
  /// a block that is not a contact).
  void validate(Index num_velocities) const;
};

/// A constraint on a MechanicalSystem (a joint, a joint limit, a velocity-level constraint, a
/// set of contacts). Implementations check their references once in check() and may assume them
/// in add_rows().
class Constraint {
 public:
  virtual ~Constraint() = default;
  /// A short name for messages, e.g. "hinge 'elbow'".
  virtual std::string name() const = 0;
  /// Throws sinew::Error naming the bad reference (missing body or particle, bad parameter).
  virtual void check(const model::MechanicalSystem& system) const = 0;
  /// Appends this constraint's rows at the evaluated state @p s (possibly none: an inactive
  /// limit, no contact).
  virtual void add_rows(const model::MechanicalSystem& system, const model::SystemState& s,
                        ConstraintRows& out) const = 0;
};

/// How position-level violations are fed back into a velocity-level step.
struct StabilizationOptions {
  /// Fraction of the violation removed per step (error reduction parameter), in (0, 1]: 1 is
  /// the implicit position projection of a hard row; smaller values soften the correction.
  double erp = 1.0;
  /// Throws sinew::Error unless 0 < erp <= 1.
  void validate() const;
};

/// The weights of the scheme a step's rows are averaged over (see the file comment); all 1 is
/// implicit Euler.
struct StepWeights {
  double theta_q = 1.0;   ///< forces act at the positions q0 + theta_q h v^theta_vq, in [0, 1]
  double theta_v = 1.0;   ///< forces act at the velocity v^theta_v, in [0, 1]
  double theta_vq = 1.0;  ///< positions move by h v^theta_vq, in (0, 1]
  /// True for implicit Euler (every weight 1).
  bool implicit_euler() const { return theta_q == 1.0 && theta_v == 1.0 && theta_vq == 1.0; }
  /// Throws sinew::Error unless theta_q, theta_v are in [0, 1] and theta_vq in (0, 1].
  void validate() const;
};

/// The global problem of one velocity-level step A (v - v_free) = J^T r (theta-method's
/// linearized momentum, or M (v - v*) = J^T r for an explicit free motion): M := A, f := A v_free,
/// H := J^T, w and the compliance from the rows (see the file comment), blocks as given.
/// @param rows       constraint rows (validated against A's size).
/// @param A          (n x n) symmetric positive-definite step matrix.
/// @param v_free     (n) unconstrained end velocity.
/// @param h          step size (> 0).
/// @param options    how violations are fed back (erp).
/// @throws sinew::Error on invalid rows or sizes.
GlobalProblem assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free,
                                    double h, const StabilizationOptions& options = {});

/// assemble_step_problem() for a step of scheme @p weights from the start velocity @p v0 (n):
/// compliant, hard position-level and open unilateral rows as the file comment says (the same as above when
/// @p weights is implicit Euler).
/// @throws sinew::Error on invalid rows, sizes or weights, or a compliant row that the scheme
///         makes explicit (l = h theta_q theta_vq + d theta_v = 0).
GlobalProblem assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free,
                                    double h, const StabilizationOptions& options, const StepWeights& weights,
                                    const Eigen::VectorXd& v0);

/// assemble_step_problem() of a scheme into @p out, whose storage is reused: an integrator that
/// keeps its problem between steps allocates nothing here once the sizes have settled. With
/// InputCheck::kTrusted A is taken as symmetric with a valid pattern (an integrator's own step
/// matrix, symmetric by construction); the rows and A's values are still checked. With
/// @p h_plan, H is assembled through it (only the values are scattered while the rows' Jacobian
/// keeps its structure from call to call).
/// @throws sinew::Error as above.
void assemble_step_problem(const ConstraintRows& rows, const CsrMatrix& A, const Eigen::VectorXd& v_free, double h,
                           const StabilizationOptions& options, const StepWeights& weights, const Eigen::VectorXd& v0,
                           GlobalProblem& out, InputCheck check = InputCheck::kFull, TripletCsrPlan* h_plan = nullptr);

}  // namespace sinew::constraints
