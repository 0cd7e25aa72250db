#include "sinew/integrators/newton_options.hpp"

#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/block_diagonal_solver.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::integrators {

namespace {
// Rigid bodies' blocks have 6 rows and particles' 3; a block of more than a dozen rows is a
// coupled structure that a sparse factor orders better.
constexpr Index kAutoMaxBlock = 12;
// A dense factor of n rows costs n^3 / 6 multiply-adds where a sparse one of a nearly dense
// matrix costs as much plus its ordering, symbolic pass and allocations; past a few dozen rows
// a coupled system is a mesh or a long chain, whose sparsity a sparse factor keeps.
constexpr Index kDenseMaxRows = 64;
// kAuto's choice of kDense: the share of A's n^2 entries that must be non-zero.
constexpr double kAutoDenseFill = 0.75;
}  // namespace

LinearSolverKind resolve_linear_solver(LinearSolverKind kind, const CsrMatrix& A) {
  if (kind != LinearSolverKind::kAuto) return kind;
  if (is_block_diagonal(A, kAutoMaxBlock)) return LinearSolverKind::kBlockDiagonal;
  const double n = static_cast<double>(A.rows);
  if (A.rows == A.cols && A.rows <= kDenseMaxRows && static_cast<double>(A.nnz()) >= kAutoDenseFill * n * n)
    return LinearSolverKind::kDense;
  return LinearSolverKind::kEigenLdlt;
}

void require_linear_solver_kind(LinearSolverKind kind, const char* who) {
  require(kind == LinearSolverKind::kEigenLdlt || kind == LinearSolverKind::kCholmod ||
              kind == LinearSolverKind::kBlockDiagonal || kind == LinearSolverKind::kDense ||
              kind == LinearSolverKind::kAuto,
          [&] {
            return std::string(who) +
                   ": linear_solver must be kEigenLdlt, kCholmod, kBlockDiagonal, kDense or kAuto, got " +
                   std::to_string(static_cast<int>(kind));
          });
}

std::unique_ptr<LinearSolver> make_linear_solver(LinearSolverKind kind) {
  switch (kind) {
    case LinearSolverKind::kEigenLdlt:
      return std::make_unique<EigenLdltSolver>();
    case LinearSolverKind::kCholmod:
      return std::make_unique<CholmodSolver>();
    case LinearSolverKind::kBlockDiagonal:
      return std::make_unique<BlockDiagonalSolver>(kAutoMaxBlock);
    case LinearSolverKind::kDense:
      return std::make_unique<BlockDiagonalSolver>(kDenseMaxRows);
    case LinearSolverKind::kAuto:
      throw Error("make_linear_solver: kAuto names no solver until resolve_linear_solver() sees the matrix");
  }
  throw Error("make_linear_solver: unknown LinearSolverKind " + std::to_string(static_cast<int>(kind)));
}

void NewtonOptions::validate() const {
  const std::string who = "NewtonOptions: ";
  require(std::isfinite(relative_tolerance) && relative_tolerance >= 0.0,
          [&] { return who + "relative_tolerance must be finite and >= 0, got " + number_text(relative_tolerance); });
  require(std::isfinite(absolute_tolerance) && absolute_tolerance >= 0.0,
          [&] { return who + "absolute_tolerance must be finite and >= 0, got " + number_text(absolute_tolerance); });
  require(relative_tolerance > 0.0 || absolute_tolerance > 0.0,
          [&] { return who + "relative_tolerance and absolute_tolerance must not both be 0"; });
  require(max_iterations >= 1,
          [&] { return who + "max_iterations must be >= 1, got " + std::to_string(max_iterations); });
  require(armijo > 0.0 && armijo < 1.0, [&] { return who + "armijo must be in (0, 1), got " + number_text(armijo); });
  require(backtrack > 0.0 && backtrack < 1.0,
          [&] { return who + "backtrack must be in (0, 1), got " + number_text(backtrack); });
  require(max_line_search_steps >= 0,
          [&] { return who + "max_line_search_steps must be >= 0, got " + std::to_string(max_line_search_steps); });
  require_linear_solver_kind(linear_solver, "NewtonOptions");
}

}  // namespace sinew::integrators
