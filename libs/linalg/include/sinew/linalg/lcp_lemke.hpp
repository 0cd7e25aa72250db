/// @file
/// @brief Lemke's complementary pivoting method with a lexicographic degeneracy rule and
/// on-demand matrix columns (ArtiSynth notes 0.8).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/linalg/lcp_solver.hpp"

namespace sinew {

/// Lemke's method on w - M z - d z0 = q with the covering vector d = (1, ..., 1).
///
/// The basis inverse is kept explicitly and updated per pivot; a column m_j of M is requested
/// from the LcpColumnSource only when z_j first enters the basis and is cached after that
/// (ArtiSynth notes 0.8). Ties in the minimum-ratio test are broken by the lexicographic rule on
/// the rows of [B^-1 q, B^-1] (the perturbation q + (eps, eps^2, ...)), which makes every
/// basis distinct and so rules out cycling on degenerate problems, e.g. redundant contacts with
/// duplicated rows where M is only positive semi-definite; when z0 ties it leaves at once.
/// On termination the complementary basis alpha = {j : z_j basic} gives the answer by the
/// principal pivot of eq. (0.4): z_alpha = -M_alpha_alpha^-1 q_alpha, z_beta = 0, solved afresh
/// from the stored columns so that update round-off does not reach z. Work per pivot is O(n^2);
/// the basis inverse and the column cache are dense n x n.
///
/// Lemke always ends with the (unique) solution for a P-matrix M, and for copositive-plus M
/// (e.g. positive semi-definite, symmetric or not) it finds a solution whenever one exists; a
/// secondary ray is reported as LcpStatus::kFailed ("ray termination"), which for such M proves
/// the LCP infeasible. Box problems with fixed bounds (finite or infinite, including free rows) are
/// solved through an equivalent standard LCP: shifted or mirrored variables, free variables split
/// in two, and one slack pair per doubly bounded row. Friction rows (bounds that depend on z)
/// are not a fixed box: they are rejected with sinew::Error; use PgsLcpSolver for them.
class LemkeLcpSolver final : public LcpSolver {
 public:
  /// Settings of the pivoting.
  struct Options {
    /// Pivot limit; 0 means 50 (n + 1). Lemke needs about n pivots on contact problems; the
    /// bound only stops the rare exponential paths and the effect of bad round-off.
    Index max_pivots = 0;
    /// Entries of the pivot column at most this times its largest magnitude count as zero:
    /// pivoting on them would amplify round-off by more than 1e12.
    double pivot_tolerance = 1e-12;
    /// Ratios (and lexicographic keys) within this relative distance count as tied, so that
    /// round-off does not decide between degenerate rows and the lexicographic rule does.
    double tie_tolerance = 1e-11;
    /// Recompute the basis inverse from the stored columns every this many pivots; 32 keeps the
    /// drift of the rank-one updates far below the tolerances at a small share of the work.
    Index refactor_interval = 32;
    /// The answer counts as solved when its natural residual is at most this (an absolute
    /// value in the units of z and w); 1e-9 leaves headroom over round-off for well-scaled M.
    double tolerance = 1e-9;
  };

  /// A solver with default Options.
  LemkeLcpSolver();
  /// A solver with @p params; throws sinew::Error unless the tolerances are positive and finite,
  /// max_pivots >= 0 and refactor_interval >= 1.
  explicit LemkeLcpSolver(const Options& params);

  /// The settings in use.
  const Options& options() const { return params_; }
  /// "lemke".
  const char* name() const override { return "lemke"; }

  /// Number of distinct columns of M requested by the last solve (ArtiSynth notes 0.8); the
  /// LcpColumnSource overload of solve builds no others.
  Index columns_requested() const { return columns_requested_; }

 protected:
  /// Pivots on the validated problem; throws sinew::Error if @p bounds has friction rows.
  LcpResult do_solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpBounds* bounds, Eigen::VectorXd& z,
                     bool warm) override;
  /// Pivots with on-demand columns; the value of @p z on entry is not used (no warm start).
  LcpResult do_solve_columns(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                             bool warm) override;

 private:
  LcpResult pivot(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z);
  void refactor(const Eigen::VectorXd& q);
  void fetch_column(const LcpColumnSource& M, Index j);
  Index ratio_test(const Eigen::VectorXd& p, Index z0_row) const;
  Index lexicographic_min(std::vector<Index>& rows, const Eigen::VectorXd& denominators) const;
  void pivot_on(Index row, Eigen::VectorXd& p);

  Options params_;
  Index columns_requested_ = 0;
  // Workspace of one solve, kept to reuse its memory. Variables: w_i = i, z_j = n + j, z0 = 2n.
  Eigen::MatrixXd basis_inverse_;  // (n x n) B^-1
  Eigen::VectorXd basic_values_;   // (n) B^-1 q, the values of the basic variables
  Eigen::MatrixXd columns_;        // (n x n) column j of M once requested
  std::vector<char> have_column_;  // (n) whether columns_ holds column j
  std::vector<Index> basis_;       // (n) the variable basic in each row
  Eigen::VectorXd column_;         // (n) scratch: entering column B^-1 a
  Eigen::RowVectorXd pivot_row_;   // (n) scratch: the scaled pivot row of B^-1
};

}  // namespace sinew
