/// @file
/// @brief Options of the Newton solve shared by the implicit integrators, and the choice of
/// linear solver for their Newton systems.
#pragma once

#include <memory>

#include "sinew/linalg/linear_solver.hpp"

namespace sinew::integrators {

/// Which sparse direct solver factors the Newton matrix A = M + c_K K + c_D D.
enum class LinearSolverKind {
  kEigenLdlt,      ///< Eigen's SimplicialLDLT: no external dependency, fine for small systems
  kCholmod,        ///< CHOLMOD supernodal/simplicial Cholesky: for large 3-D systems
  kBlockDiagonal,  ///< dense Cholesky per diagonal block (BlockDiagonalSolver): uncoupled bodies only
  /// dense Cholesky of diagonal blocks of up to 64 rows (BlockDiagonalSolver): a small coupled
  /// system, such as a kinematic tree's joint-space mass matrix, is one block; no ordering, and
  /// no allocation once its size is known
  kDense,
  /// kBlockDiagonal where A is block diagonal (blocks <= 12 rows); kDense where A has at most 64
  /// rows and at least 3/4 of its entries are non-zero; else kEigenLdlt
  kAuto
};

/// A new linear solver of the given kind (kAuto: throws, resolve it for a matrix first).
std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind);

/// The kind that factors @p A: @p kind itself unless it is kAuto, which becomes kBlockDiagonal
/// when A's non-zeros lie in diagonal blocks of at most 12 rows (rigid bodies and particles that
/// no force field couples), kDense when A is small and nearly dense (a kinematic tree's mass
/// matrix), else kEigenLdlt.
LinearSolverKind resolve_linear_solver(LinearSolverKind kind, const CsrMatrix& A);

/// Throws sinew::Error naming @p who unless @p kind is one of the enumerators.
void require_linear_solver_kind(LinearSolverKind kind, const char* who);

/// What the backtracking line search measures.
enum class LineSearchMerit {
  kAuto,      ///< the incremental potential when the system has one and the scheme allows it, else kResidual
  kEnergy,    ///< incremental potential E(u); falls back to kResidual where E is not defined
  kResidual,  ///< the 2-norm of the momentum residual
  kNone       ///< full Newton steps
};

/// Parameters of the Newton solve of an implicit velocity update. validate() throws sinew::Error
/// naming the offending field and its admissible range.
struct NewtonOptions {
  /// Converged when |r| <= max(absolute_tolerance, relative_tolerance |r_0|), r_0 the residual
  /// at the start velocity; 1e-10 leaves four digits above round-off in double precision.
  double relative_tolerance = 1e-10;
  /// Floor of the tolerance for steps whose initial residual is already tiny (system at rest).
  double absolute_tolerance = 1e-14;
  /// Newton converges in a handful of iterations near the solution; 25 leaves room for the line
  /// search to bring a far start home before a step is reported as not converged.
  int max_iterations = 25;
  /// Energy where it is defined (it makes every Newton step descend on a convex-ish function).
  LineSearchMerit merit = LineSearchMerit::kAuto;
  /// Armijo sufficient-decrease constant; 1e-4 is the customary value (Nocedal-Wright 3.1).
  double armijo = 1e-4;
  /// Step-length reduction per backtracking step.
  double backtrack = 0.5;
  /// Backtracking steps before the shortest tried step is taken anyway (2^-20 ~ 1e-6).
  int max_line_search_steps = 20;
  /// PSD-project the element stiffnesses from the first iteration on. Off by default: the exact
  /// Hessian converges quadratically (fewer iterations a step, docs/benchmarks.md) and skips an
  /// eigen-decomposition per element; when the exact Newton matrix is rejected (not
  /// positive definite, a strongly compressed or inverted element) the step switches to the
  /// projected stiffness from that iteration on, and says so in its report.
  bool projected_stiffness = false;
  /// Use (A + A^T)/2: velocity-space stiffness of rigid bodies is not symmetric away from
  /// equilibrium (ArtiSynth notes 0.23) while Cholesky/LDL^T need symmetry; Newton stays
  /// convergent (linearly where the skew part matters).
  bool symmetrize = true;
  /// Keep StepReport::residual_norms, the residual norm at each Newton iterate. false leaves it
  /// empty (residual_norm and the counts are kept), so that a step allocates nothing: the history
  /// is the one heap block a returned report would own (ContactStep's free motion by default).
  bool record_residuals = true;
  /// kAuto: block by block where A is block diagonal (rigid bodies and particles with no
  /// coupling field, where a sparse ordering is wasted work), else Eigen LDL^T.
  LinearSolverKind linear_solver = LinearSolverKind::kAuto;

  /// Throws sinew::Error unless every field is in range (tolerances >= 0 and finite, not both 0;
  /// max_iterations >= 1; 0 < armijo < 1; 0 < backtrack < 1; max_line_search_steps >= 0).
  void validate() const;
};

}  // namespace sinew::integrators
