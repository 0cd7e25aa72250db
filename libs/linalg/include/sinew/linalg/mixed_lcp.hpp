/// @file
/// @brief The mixed LCP of a mechanical system with bilateral and unilateral constraints, its
/// reduction to a standard LCP with on-demand columns, and the back-substitution of the
/// bilateral multipliers (ArtiSynth notes 0.7 and 0.8, regularization of 0.11).
#pragma once

#include <Eigen/Core>

#include "sinew/linalg/lcp_problem.hpp"
#include "sinew/linalg/lcp_solver.hpp"
#include "sinew/linalg/regularized_kkt.hpp"

namespace sinew {

/// The mixed LCP of ArtiSynth notes 0.7, with the optional compliances of notes 0.11:
///   M x - G^T lambda - N^T z = f,
///   G x + C_G lambda = g,
///   w = N x + C_N z - n,   0 <= z _|_ w >= 0.
/// With C_G = C_N = 0 it is the system of 0.7; C_G is the regularized bilateral block of eq.
/// (0.9) and C_N the regularized unilateral block of eq. (0.10) (see soften_constraints).
struct MixedLcpProblem {
  Eigen::MatrixXd M;                      ///< (nx x nx) symmetric positive definite (mass or system matrix)
  Eigen::MatrixXd G;                      ///< (ng x nx) bilateral constraint rows; ng may be 0
  Eigen::MatrixXd N;                      ///< (nn x nx) unilateral constraint rows
  Eigen::VectorXd f;                      ///< (nx) force (or momentum) term
  Eigen::VectorXd g;                      ///< (ng) bilateral right-hand side
  Eigen::VectorXd n;                      ///< (nn) unilateral right-hand side: N x + C_N z >= n
  Eigen::VectorXd bilateral_compliance;   ///< (ng, or empty for 0) diagonal of C_G, >= 0
  Eigen::VectorXd unilateral_compliance;  ///< (nn, or empty for 0) diagonal of C_N, >= 0

  /// Throws sinew::Error unless the sizes agree, every entry is finite and the compliances are
  /// non-negative (M and G are checked further when the problem is factored).
  void validate() const;
};

/// A solution of a mixed LCP: the primal variables, both multipliers and the unilateral slack.
struct MixedLcpSolution {
  Eigen::VectorXd x;       ///< (nx) primal variables (velocities)
  Eigen::VectorXd lambda;  ///< (ng) bilateral multipliers
  Eigen::VectorXd z;       ///< (nn) unilateral multipliers, >= 0
  Eigen::VectorXd w;       ///< (nn) unilateral slack N x + C_N z - n, >= 0 and _|_ z
};

/// The standard LCP that remains after the bilateral rows are eliminated (ArtiSynth notes 0.7):
/// with A = [M -G^T; G C_G], N_bar = [N 0] and b = [f; g],
///   w = (N_bar A^-1 N_bar^T + C_N) z + (N_bar A^-1 b - n),   0 <= z _|_ w >= 0,
/// equivalently N M^-1 P_f N^T z + N M^-1 f + N M^-1 G^T lambda_0 - n with the projection P_f
/// of notes 0.5 when C_G = C_N = 0. The matrix is offered column by column, each column one
/// solve with A (notes 0.8: built on demand), and the multipliers come back from
/// (x, lambda) = A^-1 (b + N_bar^T z), i.e. lambda = lambda_0 - (G M^-1 G^T)^-1 G M^-1 N^T z.
class MixedLcpReduction final : public LcpColumnSource {
 public:
  /// Validates @p problem, factors A (see RegularizedKkt) and computes q = N_bar A^-1 b - n.
  /// @throws sinew::Error as MixedLcpProblem::validate and RegularizedKkt do.
  explicit MixedLcpReduction(const MixedLcpProblem& problem);

  /// Number nn of unilateral rows: the order of the reduced LCP.
  Index size() const override { return static_cast<Index>(q_.size()); }
  /// Column @p j of N_bar A^-1 N_bar^T + C_N into @p out (nn): one solve with A.
  void column(Index j, Eigen::Ref<Eigen::VectorXd> out) const override;
  /// (nn) constant vector N_bar A^-1 b - n of the reduced LCP.
  const Eigen::VectorXd& q() const { return q_; }
  /// The reduced LCP with all nn columns assembled (nn solves with A).
  LcpProblem lcp() const;
  /// Back-substitution of @p z (nn): (x, lambda) = A^-1 (b + N_bar^T z) and w = N x + C_N z - n.
  /// @throws sinew::Error if z has the wrong size or non-finite entries.
  MixedLcpSolution recover(const Eigen::VectorXd& z) const;

 private:
  RegularizedKkt kkt_;     // A = [M -G^T; G C_G]
  Eigen::MatrixXd N_;      // (nn x nx)
  Eigen::VectorXd f_, g_;  // (nx), (ng)
  Eigen::VectorXd n_;      // (nn)
  Eigen::VectorXd c_n_;    // (nn) diagonal of C_N (zeros when none)
  Eigen::VectorXd q_;      // (nn)
};

/// Solves @p problem by reduction (ArtiSynth notes 0.7) with @p solver on the column source
/// (so a pivoting solver builds only the columns it needs, notes 0.8), then back-substitutes.
/// @param problem the mixed LCP (validated here)
/// @param solver any LCP solver; its settings (tolerance, limits) apply to the reduced LCP
/// @param solution in: solution.z of size 0 or nn is the warm start; out: the whole solution,
///        also when the result is not solved (then the last iterate).
/// @throws sinew::Error as MixedLcpReduction and LcpSolver::solve do.
LcpResult solve_mixed_lcp(const MixedLcpProblem& problem, LcpSolver& solver, MixedLcpSolution& solution);

}  // namespace sinew
