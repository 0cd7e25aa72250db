/// @file
/// @brief Baraff's linear-time Lagrange multiplier solver: the O(n) block LDL^T factorization of
/// the KKT matrix of a tree (or forest) of primary constraints, and the O(nk) "constraint
/// anticipation" of k auxiliary rows (loops, contacts, limits).
///
/// Reference: D. Baraff, "Linear-Time Dynamics using Lagrange Multipliers"
/// (`shared/seeds/baraff-linear-time-lagrange-multipliers.md`).
///
/// The system is eq. (8) with Baraff's signs, written for a general right-hand side:
/// @f[ H\begin{pmatrix}\dot v\\ \lambda\end{pmatrix}
///     = \begin{pmatrix}M & -J^T\\ -J & 0\end{pmatrix}\begin{pmatrix}\dot v\\ \lambda\end{pmatrix}
///     = \begin{pmatrix}F^{ext}\\ c\end{pmatrix}, @f]
/// i.e. @f$M\dot v = J^T\lambda + F^{ext}@f$ (eq. (6)) and @f$J\dot v + c = 0@f$ (eq. (5)). With
/// @f$F^{ext} = 0@f$ and @f$c = -b@f$ this is eq. (8) itself, whose @f$\lambda@f$ solves
/// @f$A\lambda = b@f$, @f$A = JM^{-1}J^T@f$ (eq. (7)). The same equations hold with velocities
/// and impulses in place of accelerations and forces (Section 3).
///
/// Algorithm. The graph of H has one node per body and per primary constraint (Section 7); it is
/// a forest when the primary constraints are acyclic. Each tree is rooted (at its world
/// constraint if it has one, else at its lowest-numbered body) and ordered depth-first with
/// children before parents (Section 7.1, Appendix A "ordermatrix"), a perfect elimination order:
/// the factor has no fill-in. "sparsefactor" (Section 7.3, Appendix A "factor") computes per node
/// the pivot block @f$D_n = H_{nn} - \sum_{c\in child(n)} H_{c,n}^T D_c^{-1} H_{c,n}@f$ and the single
/// off-diagonal block @f$D_n^{-1}H_{n,par(n)}@f$; "sparsesolve" does one forward and one backward
/// sweep. Both are O(n). Rather than the explicit inverse "Dinv" of Appendix A, each pivot block
/// @f$D_n@f$ (positive definite for a body, negative definite for a constraint: footnote 8) is
/// kept factored, @f$D_n = L_nE_nL_n^T@f$, and the off-diagonal block as
/// @f$V_n = E_n^{-1}L_n^{-1}H_{n,par(n)}@f$: the same factorization of H at scalar granularity,
/// with symmetric Schur updates and no inverted blocks. It loses far fewer digits than explicit
/// inverses when a pivot block is ill-conditioned, and costs fewer flops. Two slips of the
/// printed Appendix A are corrected here: the sweeps subtract (`n.soln -= c.J^T c.soln`,
/// `n.soln -= n.J parent(n).soln`), and the off-diagonal blocks carry H's minus sign (the printed
/// code drops it; for the paper's right-hand side (0, -b) that leaves @f$\lambda@f$ unchanged and
/// only flips the unused body part, but for a general right-hand side the sign matters).
///
/// Costs: analysis and factor O(n), each solve O(n) and allocation-free once the workspace and
/// the outputs are sized (k > 0 adds O(nk) to factor() and O(n + k^2) per solve).
///
/// Auxiliary rows (Section 8) are 1-D rows @f$a = J^a\dot v + c^a@f$ (eq. (10)) with forces
/// @f$K\mu@f$ (eq. (11)). On factor() the solver computes the columns of @f$\widehat M^{-1}K@f$ with
/// one sparse solve each (the response of the primary-constrained system to the force
/// @f$k_j@f$, Section 8.1; Section 8.1 prints the right-hand side as @f$+JM^{-1}k_i@f$, Section
/// 8.2 step 3 correctly as @f$-JM^{-1}k_j@f$) and keeps only the k x k matrix
/// @f$J^a\widehat M^{-1}K@f$ of eq. (12). Per right-hand side it follows Section 8.2: one
/// sparse solve gives @f$\dot v^{aux}@f$ and the constant term @f$q = J^a\dot v^{aux} + c^a@f$ of
/// eq. (12); the caller (or a dense LDLT / LU) chooses @f$\mu@f$; one more sparse solve, of the
/// response to @f$K\mu@f$, finishes (step 5, by linearity). Rosenthal's workless shortcut
/// (Section 10) is not used.
#pragma once

#include <Eigen/Dense>
#include <cstdint>
#include <functional>
#include <vector>

#include "sinew/linalg/baraff_problem.hpp"

namespace sinew {

/// How BaraffSolver factors the dense k x k system of eq. (12) for its direct solve.
enum class BaraffAuxiliaryMethod {
  kAuto,          ///< kLdlt when every auxiliary row is workless (symmetric matrix), else kPartialPivLu
  kLdlt,          ///< Eigen::LDLT: symmetric matrices (workless rows)
  kPartialPivLu,  ///< Eigen::PartialPivLU: any nonsingular matrix (rows with explicit force directions)
};

/// Parameters of BaraffSolver.
struct BaraffSolverOptions {
  /// Each pivot E_jj of a node block's L E L^T factorization (Appendix A "Dinv = D^-1") must
  /// exceed this fraction of the block's diagonal entry D_jj. A pivot that has lost 12 of 16
  /// digits signals a rank-deficient constraint (redundant, or with more rows than the body below
  /// it has degrees of freedom), whose multipliers would be noise; it is reported instead.
  double pivot_tolerance = 1e-12;
  /// Steps of iterative refinement after each sparse solve (x += H^-1 (z - H x)). Baraff's order
  /// eliminates without pivoting, so accuracy follows the conditioning of the pivot blocks, not
  /// only of H. Joint Jacobians, whose blocks compose like rigid motions, keep errors near 1e-13
  /// (the tests); arbitrary ill-conditioned square (weld) blocks compound along a chain and can
  /// lose many digits (1e-8 on 8 bodies in the tests). One step restores ~1e-15 there, for about
  /// twice the cost of a solve and a stored copy of H's blocks; 0 is the paper's algorithm.
  int refinement_steps = 0;
  /// Factorization of the dense auxiliary system used by the direct solve.
  BaraffAuxiliaryMethod auxiliary_method = BaraffAuxiliaryMethod::kAuto;
  /// The direct auxiliary solve requires the reciprocal condition number estimate of the k x k
  /// matrix (Eigen's rcond(), made by factor()) to be at least this. Below ~50 machine epsilons
  /// the matrix is singular to working precision (redundant auxiliary rows, e.g. a loop closed
  /// twice) and mu would be arbitrary; the residual cannot tell, since a backward-stable solve
  /// always has a small one. LCP callbacks get the matrix regardless.
  double auxiliary_min_rcond = 1e-14;
};

/// The results of one solve, in the problem's natural numbering (see BaraffProblem).
struct BaraffSolution {
  Eigen::VectorXd acceleration;  ///< (num_dofs) @f$\dot v@f$ (or the velocity / velocity change)
  Eigen::VectorXd lambda;        ///< (num_multipliers) primary multipliers @f$\lambda@f$
  Eigen::VectorXd mu;            ///< (k) auxiliary multipliers @f$\mu@f$ (empty when k = 0)
  /// (k) @f$a = J^a\dot v + c^a@f$ of eq. (10) at the solution: zero for equality rows, the
  /// complementary variable of @f$\mu@f$ for contacts (empty when k = 0).
  Eigen::VectorXd aux_value;
};

/// A caller's solver for the auxiliary system @f$a = A\mu + q@f$ of eq. (12), e.g. an LCP
/// solver (contacts: @f$a \ge 0@f$, @f$\mu \ge 0@f$, @f$a^T\mu = 0@f$). Gets A (k x k) and q (k);
/// returns @f$\mu@f$ (k).
using BaraffAuxiliarySolve = std::function<Eigen::VectorXd(const Eigen::MatrixXd& A, const Eigen::VectorXd& q)>;

class BaraffSolver;

/// Per-solve scratch memory of a BaraffSolver: sized by the first solve, reused without
/// allocation afterwards. One workspace per thread; a solver may be shared by many.
class BaraffWorkspace {
 public:
  /// An empty workspace; the first solve sizes it.
  BaraffWorkspace() = default;

 private:
  friend class BaraffSolver;
  Eigen::VectorXd x_;               ///< (num_dofs + num_multipliers) KKT unknowns in elimination order
  Eigen::VectorXd q_;               ///< (k) constant term of eq. (12)
  Eigen::VectorXd aux_bias_;        ///< (k) c^a of the prepared right-hand side
  Eigen::VectorXd rhs_;             ///< (num_dofs + num_multipliers) z kept for iterative refinement
  Eigen::VectorXd correction_;      ///< (num_dofs + num_multipliers) residual, then correction
  Eigen::VectorXd negative_q_;      ///< (k) right-hand side -q of the direct solve
  Eigen::VectorXd free_velocity_;   ///< (num_dofs) v^aux of Section 8.1 (no auxiliary force)
  Eigen::VectorXd free_lambda_;     ///< (num_multipliers) lambda without auxiliary force
  std::uint64_t prepared_for_ = 0;  ///< factor_id() of the solver whose auxiliary_rhs filled it
};

/// Baraff's O(n) solver for the KKT system of eq. (8) with primary constraints forming a forest,
/// plus k auxiliary rows in O(nk) (Section 8). Construction analyses the graph and factors;
/// solves are const and take a BaraffWorkspace, so one factorization serves many right-hand
/// sides (and threads). The solver keeps no reference to the problem.
class BaraffSolver {
 public:
  /// Builds the graph of H, checks that the primary constraints are acyclic, orders it
  /// depth-first (Section 7.1) and factors it (factor()).
  /// @throws sinew::Error when a primary constraint closes a cycle (naming it: loop constraints
  ///   must be auxiliary; two constraints to the world in one tree also close a loop, through the
  ///   world), on a bad option, or when factor() does.
  explicit BaraffSolver(const BaraffProblem& problem, const BaraffSolverOptions& options = {});

  /// "sparsefactor" (Section 7.3, Appendix A "factor") of H with the values of @p problem, which
  /// must have the structure the solver was built for (body dimensions, constraint bodies and
  /// dimensions); its auxiliary rows may differ entirely. Then, when k > 0, the k x k matrix
  /// @f$J^a\widehat M^{-1}K@f$ of eq. (12) (Section 8.1, O(nk)) and its dense factorization.
  /// @throws sinew::Error on a structure mismatch (the solver is left as it was), when a pivot
  ///   block is not definite (naming the constraint or body: a primary constraint's Jacobian
  ///   blocks on the bodies below it in the elimination tree must have full row rank), or when the
  ///   auxiliary matrix is not finite; after the last two the solver refuses to solve until a
  ///   factor() succeeds.
  void factor(const BaraffProblem& problem);

  /// "sparsesolve" (Section 7.3) of @f$Hx = z@f$ for the primary constraints only, in natural
  /// numbering: @p rhs and @p x are (num_dofs + num_multipliers), body blocks then constraint
  /// blocks. Auxiliary rows are ignored. O(n), no allocation once @p x and @p ws are sized.
  /// @throws sinew::Error when rhs has the wrong size or the last factor() threw (as every solve).
  void solve_kkt(const Eigen::Ref<const Eigen::VectorXd>& rhs, BaraffWorkspace& ws, Eigen::VectorXd& x) const;

  /// The primary multipliers of eq. (7), @f$JM^{-1}J^T\lambda = b@f$, by solving eq. (8),
  /// @f$Hx = (0, -b)@f$, as the paper does. @p b and @p lambda are (num_multipliers).
  /// @throws sinew::Error when b has the wrong size or there is no valid factorization.
  void solve_multipliers(const Eigen::Ref<const Eigen::VectorXd>& b, BaraffWorkspace& ws,
                         Eigen::VectorXd& lambda) const;

  /// Acceleration and primary multipliers for a problem without auxiliary rows:
  /// @f$M\dot v = J^T\lambda + F^{ext}@f$ (eq. (6)), @f$J\dot v + c = 0@f$ (eq. (5)). @p force is
  /// (num_dofs), @p bias is c (num_multipliers). One sparse solve.
  /// @throws sinew::Error on wrong sizes or when the problem has auxiliary rows (then pass aux_bias).
  void solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
             BaraffWorkspace& ws, BaraffSolution& out) const;

  /// As above with the k auxiliary rows as equalities, @f$a = 0@f$ (loop closures): Section 8.2
  /// steps 2-5 with @f$\mu@f$ from the dense factorization of eq. (12) made by factor().
  /// @p aux_bias is @f$c^a@f$ (k). Two sparse solves and one k x k back-substitution.
  /// @throws sinew::Error on wrong sizes or when the auxiliary matrix is singular to working
  ///   precision (see BaraffSolverOptions::auxiliary_min_rcond).
  void solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
             const Eigen::Ref<const Eigen::VectorXd>& aux_bias, BaraffWorkspace& ws, BaraffSolution& out) const;

  /// As above with @f$\mu@f$ chosen by @p solve_auxiliary from (A, q) of eq. (12), e.g. an LCP
  /// solver for contacts (Section 8.1: @f$a_i \ge 0@f$, @f$a_i\mu_i = 0@f$). Allocates what the
  /// callback allocates.
  /// @throws sinew::Error on wrong sizes, or when the callback returns a vector that is not
  ///   finite or not of length k.
  void solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
             const Eigen::Ref<const Eigen::VectorXd>& aux_bias, const BaraffAuxiliarySolve& solve_auxiliary,
             BaraffWorkspace& ws, BaraffSolution& out) const;

  /// The k x k matrix @f$A = J^a\widehat M^{-1}K@f$ of eq. (12), computed by factor().
  const Eigen::MatrixXd& auxiliary_matrix() const { return aux_matrix_; }

  /// First half of an auxiliary solve (Section 8.2 steps 2-3): solves for the motion without
  /// auxiliary forces, keeps it in @p ws, and returns q (k) with @f$a = A\mu + q@f$ (eq. (12)).
  /// Sizes as in solve(). Continue with finish(). @throws sinew::Error on wrong sizes (aux_bias: k)
  /// or when there is no valid factorization.
  const Eigen::VectorXd& auxiliary_rhs(const Eigen::Ref<const Eigen::VectorXd>& force,
                                       const Eigen::Ref<const Eigen::VectorXd>& bias,
                                       const Eigen::Ref<const Eigen::VectorXd>& aux_bias, BaraffWorkspace& ws) const;

  /// Second half (Section 8.2 step 5): adds the response to the auxiliary force @f$K\mu@f$ (one
  /// sparse solve) to the state kept by auxiliary_rhs() and fills @p out. @p mu is (k).
  /// @throws sinew::Error when @p ws was not prepared by auxiliary_rhs() of this factorization,
  ///   or @p mu has the wrong length or is not finite.
  void finish(const Eigen::Ref<const Eigen::VectorXd>& mu, BaraffWorkspace& ws, BaraffSolution& out) const;

  /// Bytes of the factor's numbers (the pivot and link blocks), each of which the two sweeps of
  /// a solve read once: 2 factor_bytes() per solve is the traffic that bounds a solve whose
  /// factor does not fit in cache (bench/baraff_bench.cpp compares it with the STREAM triad).
  std::size_t factor_bytes() const { return sizeof(double) * (pivot_.size() + link_.size()); }
  /// Number of bodies.
  int num_bodies() const { return num_bodies_; }
  /// Number of primary constraints.
  int num_constraints() const { return num_constraints_; }
  /// Number k of auxiliary rows of the last factor().
  int num_auxiliary() const { return static_cast<int>(aux_row_ptr_.size()) - 1; }
  /// Sum of the body dimensions (length of @f$\dot v@f$).
  int num_dofs() const { return num_dofs_; }
  /// Sum of the primary constraint dimensions (length of @f$\lambda@f$).
  int num_multipliers() const { return num_multipliers_; }
  /// Number of trees in the forest of H (connected components of bodies).
  int num_components() const { return num_components_; }
  /// The elimination order "Forward" of Appendix A (children before parents): node ids, where
  /// body i is node i and primary constraint j is node num_bodies() + j.
  const std::vector<int>& elimination_order() const { return order_; }
  /// Identifies the current factorization (changes with every factor(); 0 after a factor() that
  /// threw, when every solve refuses to run until the next successful factor()).
  std::uint64_t factor_id() const { return factor_id_; }

 private:
  /// Builds the graph of H, checks it is a forest, orders it (baraff_ordering.cpp).
  void analyze(const BaraffProblem& problem);
  /// Throws unless @p problem has the structure analyze() saw.
  void check_structure(const BaraffProblem& problem) const;
  /// "sparsefactor" of the primary KKT matrix (baraff_factor.cpp).
  void factor_primary(const BaraffProblem& problem);
  /// The k x k matrix of eq. (12) and its dense factorization (baraff_auxiliary.cpp).
  void factor_auxiliary(const BaraffProblem& problem);
  /// Throws the error for a pivot block that is not definite, naming its body or constraint.
  [[noreturn]] void report_singular_pivot(const BaraffProblem& problem, int position, int column) const;
  /// "sparsesolve" of H x = z on x in elimination order (z on entry).
  void solve_in_place(double* x) const;
  /// solve_in_place() on ws.x_ plus options_.refinement_steps steps of iterative refinement.
  void sparse_solve(BaraffWorkspace& ws) const;
  /// r = z - H x in elimination order, from the blocks kept for refinement.
  void residual(const double* z, const double* x, double* r) const;
  /// Sizes @p ws for this solver (allocates on the first call only).
  void prepare_workspace(BaraffWorkspace& ws) const;
  /// Copies (force; bias) in natural numbering into x in elimination order.
  void scatter_natural(const double* force, const double* bias, double* x) const;
  /// Copies x in elimination order back to (velocity; lambda) in natural numbering.
  void gather_natural(const double* x, double* velocity, double* lambda) const;
  /// x = (K mu; 0) in elimination order.
  void scatter_auxiliary_force(const double* mu, double* x) const;
  /// J^a_row v for v (num_dofs) in natural numbering.
  double auxiliary_row_dot(int row, const double* velocity) const;
  /// Throws unless a factorization is valid (factor_id_ != 0); @p who names the caller.
  void check_factored(const char* who) const;
  /// Throws unless factored and force has num_dofs, bias num_multipliers entries; @p who names the caller.
  void check_rhs(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
                 const char* who) const;

  BaraffSolverOptions options_;  ///< parameters

  // Structure (analyze): nodes are bodies 0..n-1 and constraints n..n+nc-1.
  int num_bodies_ = 0;                     ///< n
  int num_constraints_ = 0;                ///< number of primary constraints
  int num_dofs_ = 0;                       ///< sum of body dimensions
  int num_multipliers_ = 0;                ///< sum of constraint dimensions
  int num_components_ = 0;                 ///< trees in the forest
  int max_dim_ = 0;                        ///< largest node dimension
  std::vector<int> body_offset_;           ///< (n + 1) natural offsets of the bodies in v
  std::vector<int> constraint_bodies_;     ///< (2 nc) body_a, body_b per constraint (structure check)
  std::vector<int> constraint_offset_;     ///< (nc + 1) natural offsets of the constraints in lambda
  std::vector<int> order_;                 ///< (nodes) node id at each elimination position (Forward)
  std::vector<int> position_;              ///< (nodes) elimination position of each node id
  std::vector<int> parent_;                ///< (nodes) parent position per position, -1 at a root
  std::vector<int> dim_;                   ///< (nodes) block size per position
  std::vector<int> x_offset_;              ///< (nodes + 1) offset of each position in the ordered x
  std::vector<int> natural_offset_;        ///< (nodes) offset per position in (v; lambda) natural order
  std::vector<int> natural_x_offset_;      ///< (nodes) offset in the ordered x per node id (natural order)
  std::vector<std::size_t> pivot_offset_;  ///< (nodes + 1) offsets of the d x d blocks in pivot_
  std::vector<std::size_t> link_offset_;   ///< (nodes + 1) offsets of the d x d_parent blocks in link_

  // Numbers (factor): column-major blocks per elimination position.
  /// Per node, D_n = L_n E_n L_n^T in place: L_n strictly below the diagonal, E_n^-1 on it
  /// (column-major d x d); Appendix A's "Dinv" in factored form.
  std::vector<double> pivot_;
  /// Per non-root node, V_n = E_n^-1 L_n^-1 H_{n,par(n)} (d x d_parent): Appendix A's "J" after
  /// factor, so that H = R^T E R with R unit upper triangular (L^T on the diagonal, V beside it).
  std::vector<double> link_;
  std::vector<double> h_diag_;   ///< M_n per body position, at pivot_offset_ (kept for refinement only)
  std::vector<double> h_link_;   ///< H_{n,par(n)} per non-root position, at link_offset_ (refinement only)
  std::uint64_t factor_id_ = 0;  ///< unique per factor() call

  // Auxiliary rows (factor), flattened: row r owns blocks [aux_row_ptr_[r], aux_row_ptr_[r+1]).
  std::vector<int> aux_row_ptr_{0};    ///< (k + 1) block ranges per row
  std::vector<int> aux_body_;          ///< (blocks) body of each block
  std::vector<int> aux_value_ptr_{0};  ///< (blocks + 1) offsets into aux_jacobian_ / aux_force_
  std::vector<double> aux_jacobian_;   ///< J^a entries per block
  std::vector<double> aux_force_;      ///< k_i entries per block (J^a^T when workless)
  Eigen::MatrixXd aux_matrix_;         ///< (k x k) J^a M_hat^-1 K of eq. (12)
  BaraffAuxiliaryMethod aux_method_ = BaraffAuxiliaryMethod::kLdlt;  ///< method resolved from kAuto
  Eigen::LDLT<Eigen::MatrixXd> aux_ldlt_;                            ///< factorization of aux_matrix_ (kLdlt)
  Eigen::PartialPivLU<Eigen::MatrixXd> aux_lu_;                      ///< factorization of aux_matrix_ (kPartialPivLu)
  double aux_rcond_ = 1.0;  ///< reciprocal condition estimate of aux_matrix_ (factor())
};

}  // namespace sinew
