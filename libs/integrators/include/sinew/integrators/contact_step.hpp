/// @file
/// @brief ContactStep: one constrained time step of a model::MechanicalSystem with frictional
/// contact, in the two stages of theta-method-convex-contact.tex ("Contact Resolution"):
///
///   1. free motion: implicit Euler solved by Newton (ImplicitEuler, i.e. the theta-method with
///      theta_q = theta_v = theta_vq = 1) gives the unconstrained end velocity v*:
///        M (v* - v0) = h f(t + h, q0 (+) h v*, v*);
///   2. contact: impulses r on the linearized momentum (the seed's A (v - v*) = J^T gamma)
///        A (v - v*) = J^T r,   A = M + h^2 theta_q theta_vq K + h theta_v D = M + h^2 K + h D,
///      with K (projected to be positive semi-definite per element) and D evaluated at the free
///      end point (q0 (+) h v*, v*), which is the Newton Jacobian of stage 1 at convergence
///      (A = M for rigid bodies without springs). The rows J, the gaps and the laws come from the
///      constraints at the start of the step (t, q0, v0), and r solves the Signorini-Coulomb
///      problem of constraint.hpp / constraint_problem.hpp (u = J v + gap / h on normal rows);
///   3. positions: q1 = q0 (+) h v (the implicit-Euler position update with the constrained v).
///
/// With ContactStepOptions::theta, the same stages for any theta: free motion by ThetaMethod,
/// A = M(q^theta_q) + theta_q theta_vq h^2 K + theta_v h D at (q^theta_q, v^theta_v) with
/// q^theta_q = q0 (+) h theta_q v*^theta_vq, and q1 = q0 (+) h (theta_vq v + (1 - theta_vq) v0).
/// The contact rows act on the end velocity v as above; an open contact and a joint keep their
/// gap and position error through the position update, and compliant rows take the scheme's
/// average force (constraint.hpp, StepWeights). The rows of every constraint but contact take
/// their Jacobian at the predicted midpoint of the step's chord q0 (+) h/2 v^theta_vq: a joint's
/// force along the constraint gradient there does no work on the chord (exactly for a rod or a
/// ball joint on a particle), so the theta = 1/2 schemes keep a pendulum's energy where rows at
/// the start pump it by the straight chord's outward drift (tests/physics/contact_schemes_test.cpp).
///
/// With ContactStepOptions::alpha_beta, the compliant alpha/beta scheme of
/// compliant-constraints-implicit-integration.tex ("Time integration") with constraint rows:
/// free motion by CompliantAlphaBeta, A = M + h alpha D + h^2 alpha beta K at its end point,
/// compliant rows solved through the seed's Schur complement
/// (h J P A^-1 P J^T + C / l) avlam = -(phi + (d + alpha h) phidot) / l - h J P A^-1 f,
/// l = alpha (h beta + d) (P: the fixed DOFs' columns dropped), and x1 = x0 + h (beta v +
/// (1 - beta) v0).
///
/// With ContactStepOptions::trapezoidal, the trapezoidal rule of the ArtiSynth notes (0.9.3,
/// 0.10): free motion by Trapezoidal, impulses on M_hat (v - v*) = J^T r with M_hat = M + h/2 D +
/// h^2/4 K at the free end point, q1 = q0 (+) h/2 (v + v0) (the weights of theta = 1/2). With
/// ContactStepOptions::bridson_marino, Bridson-Marino (0.9.4, 0.10): the constraints modify the
/// half-step velocity u_{k+1/2} (A = M + h/2 D), positions move by it, and the second half
/// A (u_{k+1} - u_{k+1/2}) = h/2 f(q_{k+1}, u_k) gives the end velocity, which the next step's
/// constraints correct (so at rest on a floor u_{k+1} = -g h / 2 while the positions stay).
///
/// On a model::ReducedSystem (attachments eliminated, driven components prescribed; mechanics
/// notes 0.17-0.21) the same stages run on the free velocities u: the constraints' rows G are
/// evaluated on the full system at the synced start state and enter as G' = G T (eq. 0.22, and
/// 0.31-0.32 for attachments to attached components), with the velocities s of the driven
/// components moved to the right-hand side (0.21: g' = g - G s, s at the end of the step), so
/// joints, one-dimensional constraints (0.20) and contact act on attached and driven components
/// through their masters. The same holds for any model::SystemMap of a DynamicalSystem's
/// coordinates onto a MechanicalSystem, such as model::TreeBodies for a KinematicTree's joint
/// coordinates: G' = G T with T the bodies' Jacobians. A friction row that no coordinate moves (a
/// joint blocks that tangent) gets a compliance of the size of its normal row's W_nn (estimated
/// from A's diagonal), so that the local solvers' W_ii scaling holds; its impulse is then zero. A
/// contact whose normal no coordinate moves loses its friction and acts on nothing.
///
/// The contact problem is solved either by any local ConstraintSolver (PGS, non-smooth Newton
/// FB / min-map, KKT for bilateral rows) on the Delassus form of to_delassus(), or by the SAP
/// solver on the global form. The step's natural-map error (natural_map.hpp) of the local
/// problem at the final r is reported for every solver, SAP included.
#pragma once

#include <Eigen/Core>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "sinew/constraints/constraint.hpp"
#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/constraints/sap_solver.hpp"
#include "sinew/integrators/bridson_marino.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/integrators/trapezoidal.hpp"
#include "sinew/linalg/linear_solver.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/reduced_system.hpp"
#include "sinew/model/system_map.hpp"

namespace sinew::integrators {

namespace detail {
class BaraffStep;
}

/// How ContactStep solves stage 2's linear algebra.
enum class StepFactor {
  kSparse,  ///< the local (Delassus) form W = J A^-1 J^T with A factored sparse; any solver
  /// Baraff's O(n) factor (baraff-linear-time-lagrange-multipliers.md): the hard bilateral rows
  /// between the components of A (rigid bodies, FEM bodies, particles) that form a forest are its
  /// primary constraints; contacts, limits and loop closures are auxiliary rows solved by the
  /// step's local solver. The step fails when it cannot be used (no local solver, a compliant
  /// auxiliary row, no such forest).
  kBaraff,
  kAuto  ///< kBaraff when it can be used, else kSparse
};

/// Options of ContactStep.
struct ContactStepOptions {
  /// ImplicitEulerOptions with NewtonOptions::record_residuals false (free_motion's default).
  static ImplicitEulerOptions without_residual_history() {
    ImplicitEulerOptions o;
    o.newton.record_residuals = false;
    return o;
  }
  /// Newton of stage 1 (implicit Euler, unless theta is set); without its residual history by
  /// default (NewtonOptions::record_residuals), so that a step allocates nothing.
  ImplicitEulerOptions free_motion = without_residual_history();
  /// The theta-method's two stages instead of implicit Euler (theta-method-convex-contact.tex):
  /// free motion v* by ThetaMethod, impulses on A (v - v*) = J^T gamma with
  /// A = M + theta_q theta_vq dt^2 K + theta_v dt D at (q^theta_q, v^theta_v) (eq.
  /// expression_for_A, convex for every theta), then q = q0 (+) dt v^theta_vq (eq. q_update).
  /// The symplectic midpoint preset keeps the energy of rolling without slip.
  std::optional<ThetaOptions> theta;
  /// The compliant alpha/beta scheme's two stages instead (see the file comment).
  std::optional<CompliantAlphaBetaOptions> alpha_beta;
  /// The trapezoidal rule's stages instead (see the file comment).
  std::optional<TrapezoidalOptions> trapezoidal;
  /// Bridson-Marino's stages instead (see the file comment). At most one of theta, alpha_beta,
  /// trapezoidal and bridson_marino is set.
  std::optional<BridsonMarinoOptions> bridson_marino;
  /// Stage 2's linear algebra: Baraff's factor where it can be used (a local solver, a joint
  /// forest, no compliant auxiliary row), else the sparse form; bench/gripper_bench measures
  /// Baraff 25-40% faster on the gripper.
  StepFactor factor = StepFactor::kAuto;
  constraints::StabilizationOptions stabilization;  ///< erp of penetration and joint errors
  constraints::SapOptions sap;                      ///< used when the step has no local solver
  /// Warm-start the contact solve with the previous step's impulses when the block structure
  /// (kinds and count) is the same; contacts come in a deterministic order, so a resting
  /// configuration keeps its contacts in place and the warm start is the previous answer.
  bool warm_start = true;
  /// A step whose local contact solve stopped unconverged still advances the state (its r is
  /// the last iterate and the report says so) while the natural-map error of that r is at most
  /// this; above it the step fails and leaves the state as it was. 1e-3: an iterative solver
  /// stopped by its iteration limit near the answer is normal in real-time use, while a
  /// diverged one (a non-smooth Newton on redundant contacts can end with errors >> 1) must
  /// not move the state. 0 accepts converged solves only. SAP is judged by its own status (its
  /// convex model is not exactly Signorini-Coulomb, so its natural-map error stays O(R)).
  double accept_error = 1e-3;
  /// A step whose hard position-level bilateral rows (joints, welds, rods) start off by more than
  /// this (|phi|, in the rows' units: m, or rad for angular rows) advances with
  /// ContactStepReport::above_joint_error_limit set: the joints are coming apart (steps too long
  /// for the motion, a loop that cannot close), which each solve alone does not show, as the
  /// solves hold the error the step started with. 1e-2; infinity never flags.
  double joint_error_limit = 1e-2;
  /// Throws sinew::Error naming the first invalid field.
  void validate() const;
};

/// What happened in one constrained step.
struct ContactStepReport {
  StepReport free_motion;             ///< stage 1 (Newton iterations, residuals)
  constraints::SolverReport contact;  ///< stage 2 (iterations, error, status); empty without rows
  double natural_map_error = 0.0;     ///< relative natural-map error of the local problem at r
  Index contacts = 0;                 ///< contact blocks in the step
  Index rows = 0;                     ///< constraint rows in the step
  std::string solver;                 ///< name of the contact solver used
  bool baraff = false;                ///< stage 2 ran on Baraff's factor (StepFactor)
  /// Stage 2 kept Baraff's split (bodies, primary and auxiliary rows, elimination order) of the
  /// step before, the problem's structure being the same; only the numbers were refactored.
  bool baraff_split_kept = false;
  bool advanced = false;  ///< true when the state was advanced
  /// True when the state was advanced.
  bool ok() const { return advanced; }
  /// True when the state was advanced although natural_map_error > accept_error: a SAP solve
  /// (judged by its own status) whose answer is not within the accept limit of the
  /// Signorini-Coulomb problem. Callers report it (MultibodySimulation: a warning per step).
  bool above_accept_limit = false;
  /// Largest |phi| of the step's hard position-level bilateral rows (joints, welds, rods) at
  /// the start of the step; 0 without such rows.
  double joint_error = 0.0;
  constraints::RowLabel joint_error_label;  ///< the row block of joint_error (its constraint and role)
  /// True when joint_error > ContactStepOptions::joint_error_limit: the step advanced, but its
  /// joints had come apart. Callers report it (MultibodySimulation: a warning per step).
  bool above_joint_error_limit = false;
  std::string message;  ///< what failed, or empty
};

/// The two-stage constrained step (see the file comment). Not thread-safe: it keeps its
/// solvers, matrices and the warm start between steps.
class ContactStep {
 public:
  /// A step whose contact problem is solved by @p solver on the local form, or by SAP on the
  /// global form when @p solver is null.
  explicit ContactStep(std::unique_ptr<constraints::ConstraintSolver> solver, const ContactStepOptions& options = {});
  /// Releases the solvers.
  ~ContactStep();

  /// Advances @p state (t, q, u of @p system) by @p h with the rows of @p constraints (evaluated
  /// at the start of the step). Fixed velocity DOFs of the system stay zero: their Jacobian
  /// columns are dropped, and so are blocks left without any entry (a fixed body on the
  /// floor). On failure (!report.ok()) the state is unchanged.
  /// @throws sinew::Error on misuse: h not finite and > 0, a state of the wrong size or not
  ///         finite, a null constraint, or a constraint whose check() fails.
  ContactStepReport step(const model::MechanicalSystem& system,
                         const std::vector<const constraints::Constraint*>& constraints, State& state, double h);

  /// The same step on the free velocities of @p system (see the file comment): @p state holds
  /// every position of system.system() and the reduced velocities; the attached components'
  /// positions follow their masters, the driven ones are set from their trajectories at the end
  /// of the step. @throws sinew::Error on misuse, as the other overload.
  ContactStepReport step(const model::ReducedSystem& system,
                         const std::vector<const constraints::Constraint*>& constraints, State& state, double h);

  /// step() into @p report, whose storage (its strings, the contact solver's history and states)
  /// is reused: a caller that keeps one report for its steps allocates nothing per step once the
  /// sizes have settled (with NewtonSolver, PGS or Baraff; SAP's report is still assigned fresh).
  void step(const model::MechanicalSystem& system, const std::vector<const constraints::Constraint*>& constraints,
            State& state, double h, ContactStepReport& report);
  /// The ReducedSystem step() into @p report, as above.
  void step(const model::ReducedSystem& system, const std::vector<const constraints::Constraint*>& constraints,
            State& state, double h, ContactStepReport& report);

  /// The same step on @p dynamics, whose coordinates @p map carries onto the MechanicalSystem
  /// map.system() that @p constraints are written for (a KinematicTree through its
  /// model::TreeBodies): the rows G, evaluated on map.system() at the mapped start state, enter
  /// as G T (file comment). @p state holds the coordinates of @p dynamics. A ReducedSystem takes
  /// its own overload, which also sets the driven components at the end of the step.
  /// @throws sinew::Error on misuse, as the other overloads.
  ContactStepReport step(const model::DynamicalSystem& dynamics, const model::SystemMap& map,
                         const std::vector<const constraints::Constraint*>& constraints, State& state, double h);
  /// The mapped step() into @p report, as above.
  void step(const model::DynamicalSystem& dynamics, const model::SystemMap& map,
            const std::vector<const constraints::Constraint*>& constraints, State& state, double h,
            ContactStepReport& report);

  /// The generalized impulses J^T r of the last step's rows on the MechanicalSystem's own
  /// velocities (for a ReducedSystem or mapped step: before the reduction, so attached components
  /// and a tree's bodies show the impulses they receive); empty after a step without rows.
  Eigen::VectorXd last_system_impulses() const;
  /// The options it steps with.
  const ContactStepOptions& options() const { return options_; }
  /// The global problem of the last step that had rows (FCLIB's M v = H r + f, u = H^T v + w):
  /// what write_step_fclib() writes.
  const constraints::GlobalProblem& last_problem() const { return problem_; }
  /// The impulses r of the last step that had rows (FCLIB row order).
  const Eigen::VectorXd& last_impulses() const { return r_; }
  /// Where the contact blocks of the last step act (witness points, frames and sides at the start
  /// of the step; ContactRecord::block indexes last_problem().blocks, and the block's impulses
  /// are last_impulses() there). Empty when the last step had no rows or failed before its
  /// problem was assembled.
  const std::vector<constraints::ContactRecord>& last_contacts() const { return contacts_; }
  /// The velocities v of the last step (after contact; Bridson-Marino: the half-step velocity).
  const Eigen::VectorXd& last_velocities() const { return v_; }
  /// Block structure of the warm start the next step may use (the last solved step's blocks; empty
  /// after a failed step or one without rows): with last_impulses(), what a checkpoint saves.
  const std::vector<constraints::ConstraintBlock>& warm_start_blocks() const { return last_blocks_; }
  /// Restores the warm start saved from warm_start_blocks() and last_impulses() (a resumed run
  /// then continues bit for bit); last_contacts() is empty until the next step.
  /// @throws sinew::Error when @p r's size is not the blocks' rows.
  void set_warm_start(const std::vector<constraints::ConstraintBlock>& blocks, const Eigen::VectorXd& r);

 private:
  std::unique_ptr<constraints::ConstraintSolver> solver_;
  constraints::SapSolver sap_;
  constraints::GlobalSolution sap_solution_;                          // SAP's in/out, swapped with r_ and v_
  std::unique_ptr<LinearSolver> mass_solver_;                         // factors A for to_delassus / global_velocity
  LinearSolverKind mass_solver_kind_ = LinearSolverKind::kEigenLdlt;  // of mass_solver_: kAuto resolved for A
  ContactStepOptions options_;
  // The end of a step whose stage 2 left r_ and v_: acceptance, then stage 3.
  void finish_step(const model::DynamicalSystem& system, ContactStepReport& report, State& state, double h);
  // Every step: @p dynamics steps, @p mechanics evaluates the constraints (the same system, or
  // the system of the map @p map from the coordinates of @p dynamics).
  void step_on(const model::DynamicalSystem& dynamics, const model::MechanicalSystem& mechanics,
               const model::SystemMap* map, const std::vector<const constraints::Constraint*>& constraints,
               State& state, double h, ContactStepReport& report);
  // rows_ of @p constraints at the start of the step (through @p map onto the velocities of
  // @p dynamics when it is set; full_jacobian_ then keeps the entries over the full velocities).
  void gather_rows(const model::DynamicalSystem& dynamics, const model::MechanicalSystem& mechanics,
                   const model::SystemMap* map, const std::vector<const constraints::Constraint*>& constraints,
                   const State& state, const Eigen::VectorXd& v_free, double h);
  // For the schemes whose positions move by a weighted velocity: the Jacobians of the rows of
  // every constraint but contact (blocks [first_block[c], first_block[c + 1]) of constraint c)
  // taken at the predicted midpoint of the step's chord (see contact_step.cpp).
  void take_midpoint_jacobians(const model::DynamicalSystem& dynamics, const model::MechanicalSystem& mechanics,
                               const model::SystemMap* map,
                               const std::vector<const constraints::Constraint*>& constraints,
                               const std::vector<Index>& first_block, const State& state, const Eigen::VectorXd& v_free,
                               double h);

  ImplicitEuler free_;
  std::unique_ptr<ThetaMethod> theta_;              // free motion when options.theta is set
  std::unique_ptr<CompliantAlphaBeta> alpha_beta_;  // free motion when options.alpha_beta is set
  std::unique_ptr<Trapezoidal> trapezoidal_;        // free motion when options.trapezoidal is set
  std::unique_ptr<BridsonMarino> bridson_marino_;   // both halves when options.bridson_marino is set
  // The step's end after its (constrained) v_: Bridson-Marino's second half, or the scheme's
  // position update. Returns an empty string, or why it failed (the state is then unchanged).
  std::string advance(const model::DynamicalSystem& system, State& state, double h);
  constraints::StepWeights weights_;            // of the scheme (implicit Euler: all 1)
  std::unique_ptr<detail::BaraffStep> baraff_;  // stage 2 by Baraff's factor (options.factor)
  constraints::ConstraintRows rows_, mid_rows_;
  std::vector<Index> first_block_;                     // gather_rows: each constraint's first block
  std::vector<std::size_t> first_entry_;               // gather_rows: each constraint's first Jacobian entry
  std::vector<char> has_entry_;                        // drop_empty_blocks: rows with a Jacobian entry
  constraints::DelassusProblem local_;                 // stage 2 in local form (kept: its storage is reused)
  Eigen::VectorXd q1_;                                 // advance: the end positions
  std::vector<Eigen::Triplet<double>> full_jacobian_;  // rows_ over the full velocities (mapped steps)
  Index full_velocities_ = 0;                          // of the last step's MechanicalSystem
  CsrMatrix T_;                                        // reduction matrix of a mapped step
  constraints::GlobalProblem problem_;
  TripletCsrPlan h_plan_;                             // problem_.H's pattern, kept while the rows keep their structure
  std::vector<constraints::ContactRecord> contacts_;  // of problem_'s contact blocks (last_contacts())
  std::vector<constraints::ConstraintBlock> last_blocks_;
  Eigen::VectorXd r_, v_;
  Eigen::VectorXd u_;  // W r + q of the local solve, for the step's natural-map error
  State free_state_;
  CsrMatrix M_, K_, D_, A_;
  model::SystemState s0_, s_mid_;
  Eigen::VectorXd q_full_, u_full_;   // the mapped system's state (evaluate_full)
  Eigen::VectorXd s_end_;             // gather_rows: the map's driven velocities at the step's end
  Eigen::VectorXd a_diagonal_;        // soften_blocked_contact_rows: A's diagonal
  Eigen::VectorXd spare_compliance_;  // soften_blocked_contact_rows: storage for problem_'s compliance
  std::vector<double> row_weight_;    // soften_blocked_contact_rows: sum_j H_ji^2 / A_jj per row
  // take_midpoint_jacobians' and the theta stage's buffers, kept so that a step allocates nothing.
  Eigen::VectorXd u_mix_, v_mix_, q_mid_;
  std::vector<Index> mid_offsets_;
  std::vector<char> mid_replaced_;
  std::vector<Eigen::Triplet<double>> mid_entries_;
};

}  // namespace sinew::integrators
