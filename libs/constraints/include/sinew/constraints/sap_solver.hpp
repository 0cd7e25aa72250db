/// @file
/// @brief Convex approximation of compliant contact solved by Newton with exact line search in
/// the global velocities (theta-method seed, "Contact Resolution": A (v - v*) = J^T gamma with
/// A = M + dt^2 theta_q theta_qv K + dt theta_v D > 0; the SAP formulation of Castro et al.).
///
/// With FCLIB's global form (M is the seed's A, H = J^T, v* = M^-1 f), per block a diagonal
/// regularization R > 0 and y = -R^-1 u (u = H^T v + w; the stabilization target is folded in w),
/// the impulse is the R-norm projection gamma = P_R(y) onto the block's set (R for bilateral,
/// R+ for unilateral, the cone K for contacts), and v minimises the strictly convex
///   l(v) = 1/2 ||v - v*||_M^2 + sum_blocks 1/2 ||P_R(y)||_R^2,
///   grad l = M (v - v*) - H gamma,   Hess l = M + H G H^T,  G = dP_R/dy R^-1 >= 0.
/// Its optimum solves  K contains gamma _|_ (W + R) gamma + q in K*  (W = H^T M^-1 H, q as in
/// to_delassus): Anitescu's convex relaxation of Coulomb friction with compliance R. It differs
/// from Signorini-Coulomb by O(R) and, while sliding, by the separation velocity
/// u_n = mu ||u_T|| of the convex model, so its stopping test is its own optimality
/// (the scaled gradient, SapOptions::stop), not the natural map of the original problem. What it
/// REPORTS (SolverReport::error, error_history) is nevertheless the common measure of every
/// solver: the natural-map error (natural_map.hpp) of the original problem (without R, with its
/// compliance) at gamma, relative to ||q||, q = H^T M^-1 f + w; it stays O(R) and does not reach
/// 1e-8 when contacts slide or R is not tiny (docs/scene_files.md gives the dropped cube's
/// figures). The scaled gradient is given in the message.
#pragma once

#include <memory>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/linear_solver.hpp"

namespace sinew::constraints {

/// Options of SapSolver.
struct SapOptions {
  /// Stopping rule on ||D grad l|| <= tolerance * max(||D M v||, ||D H gamma||), D = diag(M)^-1/2
  /// (SAP's scaled optimality); at most max_iterations Newton steps. The report's error is the
  /// natural-map error instead (class comment).
  ConstraintSolverOptions stop{1e-10, 100};
  /// R_n = rigid_fraction * w_c for normal, unilateral and bilateral rows, w_c = trace(W_cc) / size
  /// estimated with diag(M) as sum_j H_jc^2 / M_jj; SAP's near-rigid choice beta^2 / (4 pi^2) with beta = 1,
  /// which makes contact stiff enough to resolve within about one step.
  double rigid_fraction = 0.025330295910584444;
  /// R_t = sigma * w_c for friction rows; 1e-3 as in SAP: stiction with slip velocities ~1e-3 of
  /// the typical velocity scale.
  double sigma = 1e-3;
  /// Largest line-search step (SAP allows overshoot to 1.5).
  double max_step = 1.5;
  /// Up to this many velocities the Newton matrix is factored dense (within its band when the
  /// bandwidth is at most a quarter of n: bodies numbered along a stack), above it by a sparse
  /// LDL^T whose analysis is kept while the pattern stays. The 10-box stack (60 velocities,
  /// bandwidth 11) factors in about a fifth of the sparse path's instructions (bench/multibody_bench).
  Index dense_max_velocities = 72;
};

/// Newton on l(v) with an exact (safeguarded Newton-bisection) line search on the convex
/// one-dimensional l(v + alpha dv). M + H G H^T is factored each Newton step (dense or sparse,
/// SapOptions::dense_max_velocities). Handles all three circular kinds; box friction is
/// rejected. Problem compliance adds to R. The solver keeps its workspace (J, the Newton
/// matrix and its analysis, vectors) between solves, so an integrator that keeps it allocates
/// almost nothing per step once sized. Not safe to call concurrently on one object.
class SapSolver {
 public:
  /// A solver with @p options; throws sinew::Error on non-positive parameters (tolerance,
  /// rigid_fraction, sigma), max_iterations < 1, max_step < 1 or dense_max_velocities < 0.
  explicit SapSolver(const SapOptions& options = {});
  /// Releases the workspace.
  ~SapSolver();
  /// Moves the options and the workspace.
  SapSolver(SapSolver&&) noexcept;
  /// Moves the options and the workspace.
  SapSolver& operator=(SapSolver&&) noexcept;
  /// Short name.
  std::string name() const { return "sap"; }

  /// Solves @p problem; @p solution.r (m) is the warm start when non-empty (v starts at
  /// M^-1 (H r + f)). It stops on the scaled gradient (SapOptions::stop); the report's error and
  /// error_history are the natural-map error of the original problem (natural_map.hpp).
  /// @throws sinew::Error on invalid input, box-friction blocks, a warm start r of a size other
  ///         than 0 or m, or an M that is not positive definite.
  SolverReport solve(const GlobalProblem& problem, GlobalSolution& solution);
  /// The same with M already factored by @p mass (an integrator's own factor of its step
  /// matrix): M is not factored again. InputCheck::kTrusted skips the validation of @p problem
  /// (a step's own problem, checked where it was assembled).
  /// @throws sinew::Error as the other overload, or when @p mass is not factored with n rows.
  SolverReport solve(const GlobalProblem& problem, const LinearSolver& mass, GlobalSolution& solution,
                     InputCheck check = InputCheck::kFull);
  /// The same into @p report, whose storage is reused (SolverReport::reset()): an integrator that
  /// keeps its report allocates nothing here once the sizes have settled.
  void solve(const GlobalProblem& problem, const LinearSolver& mass, GlobalSolution& solution, SolverReport& report,
             InputCheck check = InputCheck::kFull);
  /// (m) the regularization R of the last solve (FCLIB row order): its optimum solves the local
  /// problem with W + diag(R) and Anitescu's law.
  const Eigen::VectorXd& regularization() const { return R_; }

 private:
  struct Workspace;  // kept between solves (sap_solver.cpp)
  SapOptions options_;
  Eigen::VectorXd R_;
  std::unique_ptr<Workspace> work_;
};

}  // namespace sinew::constraints
