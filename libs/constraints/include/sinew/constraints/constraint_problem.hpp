/// @file
/// @brief The constraint problem of one step in FCLIB's two forms: the local (Delassus) form
/// u = W r + q and the global form M v = H r + f, u = H^T v + w, with row blocks of three kinds
/// (bilateral, unilateral, frictional contact), and the conversion global -> local.
///
/// Conventions follow FCLIB 3.1 (/usr/include/fclib.h, struct fclib_local / fclib_global) exactly:
///   local:  find r (m) with u = W r + q and, per block, the law of its kind;
///   global: find v (n), r (m) with M v = H r + f, u = H^T v + w, and the same laws,
/// where FCLIB's H is n x m: the transpose of the constraint Jacobian J of the seeds (whose rows
/// are constraints), and f is the free-motion momentum plus external impulses (v* = M^-1 f).
/// Eliminating v (M symmetric positive definite) gives W = H^T M^-1 H and q = w + H^T M^-1 f.
/// FCLIB's optional equality block (G, b) and the local (V, R, s) are not used: bilateral rows of
/// H play that role here.
/// A frictional-contact block is (normal, tangent 1, tangent 2) in both r and u, as in FCLIB.
/// The laws, with u the local velocity and r the impulse of a block:
///   bilateral          u = 0, r free;
///   unilateral         0 <= u  _|_  r >= 0                         (joint limits, frictionless contact);
///   contact (circular) K* contains u + mu ||u_T|| e_n  _|_  r in K = {||r_T|| <= mu r_n}
///                      (Signorini-Coulomb in De Saxce's form; realtime paper eq. (45));
///   contact (box)      0 <= u_n _|_ r_n >= 0 and, per tangent t, r_t in [-mu r_n, mu r_n]
///                      with u_t of the opposite sign where r_t is at a bound and u_t = 0 inside
///                      (ArtiSynth notes 0.15, the box/pyramid friction of PGS solvers).
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/linear_solver.hpp"

namespace sinew::constraints {

/// Kind of one row block of a constraint problem; it fixes the block's size and law.
enum class BlockKind {
  kBilateral,          ///< 1 row, r free, u = 0 (joints; compliance enters through W's diagonal)
  kUnilateral,         ///< 1 row, 0 <= u _|_ r >= 0 (joint limits, frictionless contact)
  kContact,            ///< 3 rows (n, t1, t2), Coulomb friction with a circular cone
  kContactBoxFriction  ///< 3 rows (n, t1, t2), Coulomb friction with a box (pyramid) bound
};

/// Number of rows of a block of kind @p kind (1 or 3).
SINEW_HD int block_size(BlockKind kind) {
  return (kind == BlockKind::kContact || kind == BlockKind::kContactBoxFriction) ? 3 : 1;
}

/// One row block: its kind and, for contacts, the friction coefficient.
struct ConstraintBlock {
  BlockKind kind = BlockKind::kBilateral;  ///< law of the block
  double mu = 0.0;                         ///< Coulomb friction coefficient (contacts only), >= 0
};

/// Row offset of every block and the total number of rows: (blocks + 1) entries, the last = m.
std::vector<Index> block_offsets(const std::vector<ConstraintBlock>& blocks);
/// block_offsets() into @p offsets, whose storage is reused (a solve per step allocates nothing).
void block_offsets_into(const std::vector<ConstraintBlock>& blocks, std::vector<Index>& offsets);

/// Short name of a kind, e.g. "contact", for messages and reports.
std::string to_string(BlockKind kind);

/// Local (Delassus) form: find r with u = W r + q satisfying every block's law (FCLIB local).
/// W is positive (semi)definite and, in exact arithmetic, symmetric (H^T M^-1 H). Real problem
/// files (FCLIB, Siconos .dat from Siconos and LMGC90) store W non-symmetric by 1e-6 to 1e-3
/// relative (assembly round-off, LMGC's own Delassus blocks), and the solution of (W + W^T) / 2
/// does not solve the file's problem to 1e-8. So W is taken as it is: asymmetry() reports it,
/// and only solvers whose theory needs symmetry (conjugate residual, a Cholesky of W) refuse it.
struct DelassusProblem {
  CsrMatrix W;                          ///< (m x m) Delassus operator, positive (semi)definite
  Eigen::VectorXd q;                    ///< (m) free velocity
  std::vector<ConstraintBlock> blocks;  ///< row blocks in row order; sizes sum to m

  /// Number m of rows.
  Index rows() const { return static_cast<Index>(q.size()); }
  /// Throws sinew::Error naming the first problem: sizes, a W that is not square or breaks the
  /// CSR invariants or holds a non-finite entry, a non-finite q, a negative or non-finite mu.
  /// O(nnz(W) + m) with no allocation unless something is wrong: it runs on every solve.
  void validate() const;
};

/// Where W is least symmetric: max |W_ij - W_ji| over max |W_ij| (0 for a symmetric W).
struct Asymmetry {
  double relative = 0.0;  ///< max |W_ij - W_ji| / max |W_kl|
  Index row = -1;         ///< i of the largest difference (-1 when W is symmetric)
  Index col = -1;         ///< j of the largest difference
};

/// The asymmetry of @p W (square, valid CSR with sorted columns): O(nnz log(row length)).
Asymmetry asymmetry(const CsrMatrix& W);

/// Throws sinew::Error when @p problem's W is not symmetric to @p relative_tolerance, naming
/// @p who, the entry, and what to use instead (@p alternative).
void require_symmetric_w(const DelassusProblem& problem, const std::string& who, const std::string& alternative,
                         double relative_tolerance = 1e-10);

/// Global form: M v = H r + f, u = H^T v + w with every block's law (FCLIB global, without its
/// optional equality block G; bilateral columns of H play that role here).
struct GlobalProblem {
  CsrMatrix M;                          ///< (n x n) mass (or system) matrix, symmetric positive definite
  CsrMatrix H;                          ///< (n x m) FCLIB's H = J^T, columns in block order
  Eigen::VectorXd f;                    ///< (n) M v = H r + f: free-motion momentum plus external impulses
  Eigen::VectorXd w;                    ///< (m) u = H^T v + w
  Eigen::VectorXd compliance;           ///< (m) diagonal C added to W (u = H^T v + w + C r); empty = none
  std::vector<ConstraintBlock> blocks;  ///< row blocks in row order; sizes sum to m

  /// Number n of velocities.
  Index velocities() const { return static_cast<Index>(f.size()); }
  /// Number m of constraint rows.
  Index rows() const { return static_cast<Index>(w.size()); }
  /// Throws sinew::Error naming the first size mismatch, non-finite entry, asymmetric M,
  /// negative compliance or bad mu (M's definiteness is checked when it is factored).
  void validate() const;
};

/// Throws sinew::Error unless @p blocks are valid for @p rows rows (sizes sum to rows, mu finite
/// and >= 0); @p what names the problem in the message.
void validate_blocks(const std::vector<ConstraintBlock>& blocks, Index rows, const char* what);

/// The local form of @p problem: W = H^T M^-1 H + C and q = w + H^T M^-1 f (FCLIB's reduction).
/// @p mass_solver factors M (any LinearSolver, e.g. CholmodSolver or EigenLdltSolver) and is
/// left holding that factorization for global_velocity(). W is sparse: M^-1 H is formed in
/// column panels and only its non-zero entries kept (M's factor couples no two connected
/// components of M, so bodies that share no contact give exact zeros), then W = H^T (M^-1 H)
/// and its mirror averaged (W is symmetric in exact arithmetic). With a BlockDiagonalSolver
/// (uncoupled bodies) W is summed body by body instead, H_k^T A_k^-1 H_k over the columns each
/// body's rows touch: O(sum of their squares) rather than O(n m). The sparse-inverse SpGEMM path
/// W = J S^T S J^T (realtime paper eq. (27)) belongs to the integrator that owns S.
/// @throws sinew::Error on invalid input or an M that is not positive definite.
DelassusProblem to_delassus(const GlobalProblem& problem, LinearSolver& mass_solver);
/// to_delassus() into @p out, whose storage is reused: with a BlockDiagonalSolver (uncoupled
/// bodies) an integrator that keeps @p out between steps allocates nothing here once sized.
/// InputCheck::kTrusted skips the validation of @p problem and of M (a step's own problem,
/// checked where it was assembled).
void to_delassus(const GlobalProblem& problem, LinearSolver& mass_solver, DelassusProblem& out,
                 InputCheck check = InputCheck::kFull);

/// v = M^-1 (H r + f) for a solver that holds M's factorization (from to_delassus()); @p r has m
/// entries, v has n. Throws sinew::Error when the solver is not factored with n rows or r's size differs.
Eigen::VectorXd global_velocity(const GlobalProblem& problem, const LinearSolver& mass_solver,
                                const Eigen::VectorXd& r);
/// global_velocity() into @p v, whose storage is reused (solved in place: no allocation with a
/// solver that solves in place, e.g. BlockDiagonalSolver).
void global_velocity(const GlobalProblem& problem, const LinearSolver& mass_solver, const Eigen::VectorXd& r,
                     Eigen::VectorXd& v);

}  // namespace sinew::constraints
