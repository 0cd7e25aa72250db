#include "sinew/linalg/regularized_kkt.hpp"

#include <cmath>
#include <string>

#include "lcp_internal.hpp"
#include "matrix_text.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

// A Schur complement whose Cholesky pivots (the squared diagonal of L) span more than this
// ratio is singular to working precision: rounding alone leaves pivots of about n eps.
constexpr double kSingularPivotRatio = 1e-12;

using detail::dims;

}  // namespace

SoftConstraintTerms soften_constraints(const Eigen::VectorXd& alpha, const Eigen::VectorXd& beta,
                                       const Eigen::VectorXd& phi, double h) {
  const Eigen::Index m = alpha.size();
  if (beta.size() != m || phi.size() != m)
    throw Error("soften_constraints: alpha, beta and phi have " + std::to_string(m) + ", " +
                std::to_string(beta.size()) + " and " + std::to_string(phi.size()) + " entries, expected equal sizes");
  if (!(std::isfinite(h) && h > 0.0))
    throw Error("soften_constraints: h = " + number_text(h, 6) + ", expected a step size > 0");
  for (Eigen::Index i = 0; i < m; ++i) {
    if (!(std::isfinite(alpha[i]) && alpha[i] >= 0.0))
      throw Error("soften_constraints: alpha[" + std::to_string(i) + "] = " + number_text(alpha[i], 6) +
                  ", expected finite alpha >= 0");
    if (!(std::isfinite(beta[i]) && beta[i] >= 0.0))
      throw Error("soften_constraints: beta[" + std::to_string(i) + "] = " + number_text(beta[i], 6) +
                  ", expected finite beta >= 0");
  }
  if (!phi.allFinite()) throw Error("soften_constraints: phi has non-finite entries, expected finite values");
  SoftConstraintTerms t;
  // gamma = (1/2 + beta/h)^-1, defined after eq. (0.8).
  t.gamma = (0.5 + beta.array() / h).inverse().matrix();
  t.compliance = (t.gamma.array() * alpha.array() / (h * h)).matrix();  // gamma alpha / h^2, eq. (0.9)
  t.rhs = (-t.gamma.array() * phi.array() / h).matrix();                // -gamma phi_k / h, eq. (0.9)
  return t;
}

RegularizedKkt::RegularizedKkt(const Eigen::MatrixXd& M, const Eigen::MatrixXd& G, const Eigen::VectorXd& compliance)
    : G_(G) {
  const Eigen::Index n = M.rows();
  const Eigen::Index m = G.rows();
  if (M.cols() != n || n == 0)
    throw Error("RegularizedKkt: M is " + dims(M) + ", expected a square matrix of order n > 0");
  if (G.cols() != n)
    throw Error("RegularizedKkt: G is " + dims(G) + ", expected " + std::to_string(n) + " columns to match M");
  if (compliance.size() != 0 && compliance.size() != m)
    throw Error("RegularizedKkt: compliance has " + std::to_string(compliance.size()) + " entries, expected 0 or " +
                std::to_string(m) + " (one per row of G)");
  if (!(M.allFinite() && G.allFinite() && compliance.allFinite()))
    throw Error("RegularizedKkt: M, G or the compliance has non-finite entries, expected finite values");
  if (!(compliance.size() == 0 || compliance.minCoeff() >= 0.0))
    throw Error("RegularizedKkt: compliance has a negative entry, expected compliance >= 0");
  const double scale = M.cwiseAbs().maxCoeff();
  if (!((M - M.transpose()).cwiseAbs().maxCoeff() <= 1e-12 * scale))
    throw Error("RegularizedKkt: M is not symmetric, expected a symmetric positive definite M");
  mass_llt_.compute(M);
  if (mass_llt_.info() != Eigen::Success) throw Error("RegularizedKkt: M is not positive definite, expected an SPD M");

  if (m == 0) {  // no constraints: only M is factored (Eigen's solve rejects an empty right-hand side)
    schur_.resize(0, 0);
    return;
  }
  const Eigen::MatrixXd MinvGt = mass_llt_.solve(G.transpose());  // (n x m)
  schur_ = G * MinvGt;
  if (compliance.size() == m) schur_.diagonal() += compliance;
  schur_llt_.compute(schur_);
  const Eigen::VectorXd pivots = Eigen::MatrixXd(schur_llt_.matrixL()).diagonal().array().square().matrix();
  if (!(schur_llt_.info() == Eigen::Success && pivots.minCoeff() > kSingularPivotRatio * pivots.maxCoeff()))
    throw Error(
        "RegularizedKkt: the Schur complement G M^-1 G^T + C is singular to working precision; expected G of "
        "full row rank or a positive compliance on redundant constraints");
}

KktSolution RegularizedKkt::solve(const Eigen::VectorXd& b, const Eigen::VectorXd& c) const {
  if (b.size() != G_.cols() || c.size() != G_.rows())
    throw Error("RegularizedKkt::solve: b has " + std::to_string(b.size()) + " and c " + std::to_string(c.size()) +
                " entries, expected " + std::to_string(G_.cols()) + " and " + std::to_string(G_.rows()));
  if (!b.allFinite() || !c.allFinite())
    throw Error("RegularizedKkt::solve: b or c has non-finite entries, expected finite values");
  KktSolution s;
  const Eigen::VectorXd Minv_b = mass_llt_.solve(b);
  // ArtiSynth notes 0.6 with the compliance of (0.9): (G M^-1 G^T + C) lambda = c - G M^-1 b.
  s.lambda = G_.rows() > 0 ? Eigen::VectorXd(schur_llt_.solve(c - G_ * Minv_b)) : Eigen::VectorXd();
  s.v = Minv_b;
  if (G_.rows() > 0) s.v += mass_llt_.solve(G_.transpose() * s.lambda);
  return s;
}

Eigen::VectorXd RegularizedKkt::solve_mass(const Eigen::VectorXd& x) const {
  if (x.size() != G_.cols())
    throw Error("RegularizedKkt::solve_mass: x has " + std::to_string(x.size()) + " entries, expected " +
                std::to_string(G_.cols()));
  return mass_llt_.solve(x);
}

}  // namespace sinew
