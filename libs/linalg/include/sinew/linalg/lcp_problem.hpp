/// @file
/// @brief Problem types of the complementarity solvers: the standard LCP, the box-bounded LCP with
/// friction boxes, their checks and natural residual, and column-wise access to the LCP matrix.
///
/// References: ArtiSynth notes 0.3 (LCP = QP), 0.10 (box friction conditions, eq. (0.6)), 0.8
/// (on-demand columns) and 0.16 (friction bounds mu z_n).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"

namespace sinew {

/// The standard LCP: find z with w = M z + q, z >= 0, w >= 0, z^T w = 0.
///
/// For symmetric positive semi-definite M it is the KKT condition of the QP
/// min 1/2 z^T M z + q^T z subject to z >= 0 (ArtiSynth notes 0.3); the Delassus matrices of
/// contact problems are of that kind.
struct LcpProblem {
  Eigen::MatrixXd M;  ///< (n x n) LCP matrix
  Eigen::VectorXd q;  ///< (n) constant vector

  /// Number of complementary pairs n.
  Index size() const { return static_cast<Index>(q.size()); }
  /// Throws sinew::Error unless M is n x n, q has n entries and every entry is finite.
  void validate() const;
};

/// Bounds of a box-bounded LCP, fixed per row or, on friction rows, proportional to the normal
/// variable of the same contact: -mu_i max(z_n, 0) <= z_i <= mu_i max(z_n, 0) (ArtiSynth notes
/// 0.16, the box friction of notes 0.10, eq. (0.6)).
struct LcpBounds {
  Eigen::VectorXd lo;  ///< (n) lower bounds, -infinity allowed; not used on friction rows
  Eigen::VectorXd hi;  ///< (n) upper bounds, +infinity allowed; not used on friction rows
  /// (n, or empty when there is no friction) for a friction row the index of its normal row,
  /// -1 for a row with the fixed bounds lo, hi.
  std::vector<Index> friction_normal;
  Eigen::VectorXd mu;  ///< (n, or empty when there is no friction) friction coefficient of each friction row

  /// The bounds 0 <= z < +infinity of the standard LCP for n rows.
  static LcpBounds standard(Index n);
  /// Makes row @p row a friction row bounded by mu * z(normal); sizes friction_normal and mu to n
  /// on first use. Throws sinew::Error for indices out of range.
  void set_friction(Index row, Index normal, double mu_value);
  /// True when at least one row is a friction row.
  bool has_friction() const;
  /// True when row @p i is a friction row.
  bool is_friction(Index i) const { return !friction_normal.empty() && friction_normal[i] >= 0; }
  /// Lower bound of row @p i at the point @p z (n): lo_i, or -mu_i max(z_n, 0) on a friction row.
  double lower(Index i, const Eigen::VectorXd& z) const;
  /// Upper bound of row @p i at the point @p z (n): hi_i, or mu_i max(z_n, 0) on a friction row.
  double upper(Index i, const Eigen::VectorXd& z) const;
  /// Throws sinew::Error unless the sizes fit n rows, lo <= hi with no NaN, and every friction row
  /// has mu >= 0 finite and a normal row that is in range, not itself, not a friction row and
  /// has lo >= 0 (so that mu z_n is a valid half-width).
  void validate(Index n) const;
};

/// The box-bounded LCP (box MLCP): find z with w = M z + q and, row by row,
/// z_i = lo_i => w_i >= 0, z_i = hi_i => w_i <= 0, lo_i < z_i < hi_i => w_i = 0
/// (ArtiSynth notes 0.10, eq. (0.6)); friction rows take their bounds from LcpBounds.
///
/// Free rows (lo = -inf, hi = +inf) carry bilateral constraints, rows with [0, +inf) unilateral
/// ones, so one problem holds a whole contact system in Delassus form.
struct BoxLcpProblem {
  Eigen::MatrixXd M;  ///< (n x n) LCP matrix
  Eigen::VectorXd q;  ///< (n) constant vector
  LcpBounds bounds;   ///< bounds of the n rows

  /// Number of rows n.
  Index size() const { return static_cast<Index>(q.size()); }
  /// Throws sinew::Error unless M is n x n with finite entries, q is finite with n entries and
  /// the bounds pass LcpBounds::validate.
  void validate() const;
};

/// Natural residual ||z - mid(lo, hi, z - w)||_inf of a box LCP at @p z (n) with @p w (n) =
/// M z + q; zero exactly at solutions (for the standard LCP it is ||min(z, w)||_inf).
/// @p bounds == nullptr means the standard bounds 0 <= z. Friction bounds are taken at @p z.
double lcp_natural_residual(const LcpBounds* bounds, const Eigen::VectorXd& z, const Eigen::VectorXd& w);

/// Natural residual of @p problem at @p z (n); see lcp_natural_residual. Throws sinew::Error on
/// a size mismatch.
double natural_residual(const LcpProblem& problem, const Eigen::VectorXd& z);
/// Natural residual of @p problem at @p z (n); see lcp_natural_residual. Throws sinew::Error on
/// a size mismatch.
double natural_residual(const BoxLcpProblem& problem, const Eigen::VectorXd& z);

/// Column-wise access to an n x n LCP matrix, so that a pivoting solver builds only the columns
/// of the variables it brings into its basis (ArtiSynth notes 0.8: "column j of M is computed
/// (and stored) whenever z_j is added to the basis for the first time").
class LcpColumnSource {
 public:
  virtual ~LcpColumnSource() = default;
  /// Order n of the matrix.
  virtual Index size() const = 0;
  /// Writes column @p j (0 <= j < n) of the matrix into @p out (n).
  virtual void column(Index j, Eigen::Ref<Eigen::VectorXd> out) const = 0;
};

/// LcpColumnSource over a dense matrix held by reference (the matrix must outlive this object).
class DenseLcpColumns final : public LcpColumnSource {
 public:
  /// Wraps the square matrix @p M; throws sinew::Error if it is not square.
  explicit DenseLcpColumns(const Eigen::MatrixXd& M);
  /// Order n of the wrapped matrix.
  Index size() const override { return static_cast<Index>(M_->rows()); }
  /// Copies column @p j of the wrapped matrix into @p out (n).
  void column(Index j, Eigen::Ref<Eigen::VectorXd> out) const override { out = M_->col(j); }

 private:
  const Eigen::MatrixXd* M_;  // not owned
};

}  // namespace sinew
