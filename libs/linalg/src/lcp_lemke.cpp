#include "sinew/linalg/lcp_lemke.hpp"

#include <Eigen/LU>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "lcp_internal.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

std::string variable_name(Index v, Index n) {
  if (v < n) return "w" + std::to_string(v);
  if (v < 2 * n) return "z" + std::to_string(v - n);
  return "z0";
}

}  // namespace

LemkeLcpSolver::LemkeLcpSolver() : LemkeLcpSolver(Options{}) {}

LemkeLcpSolver::LemkeLcpSolver(const Options& params) : params_(params) {
  const auto positive = [](double x) { return x > 0.0 && std::isfinite(x); };
  if (params.max_pivots < 0)
    throw Error("LemkeLcpSolver: max_pivots = " + std::to_string(params.max_pivots) + ", expected >= 0 (0: automatic)");
  if (!(positive(params.pivot_tolerance) && positive(params.tie_tolerance) && positive(params.tolerance)))
    throw Error("LemkeLcpSolver: pivot_tolerance = " + number_text(params.pivot_tolerance, 6) +
                ", tie_tolerance = " + number_text(params.tie_tolerance, 6) +
                ", tolerance = " + number_text(params.tolerance, 6) + ", expected finite values > 0");
  if (params.refactor_interval < 1)
    throw Error("LemkeLcpSolver: refactor_interval = " + std::to_string(params.refactor_interval) +
                ", expected at least 1");
}

LcpResult LemkeLcpSolver::do_solve_columns(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                                           bool /*warm: pivoting starts from its own basis*/) {
  return pivot(M, q, z);
}

LcpResult LemkeLcpSolver::do_solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpBounds* bounds,
                                   Eigen::VectorXd& z, bool /*warm: pivoting starts from its own basis*/) {
  const DenseLcpColumns columns(M);
  if (bounds == nullptr) return pivot(columns, q, z);
  if (bounds->has_friction())
    throw Error(
        "lemke: the box problem has friction rows, whose bounds depend on z; expected fixed bounds "
        "(use PgsLcpSolver for friction boxes)");
  const detail::BoxLcpExpansion expanded(columns, q, *bounds);
  Eigen::VectorXd zeta;
  LcpResult result = pivot(expanded, expanded.q(), zeta);
  expanded.recover(zeta, z);
  // Judge the answer on the box problem itself, not only on its expansion.
  const Eigen::VectorXd w = M * z + q;
  result.residual = lcp_natural_residual(bounds, z, w);
  if (result.solved() && !(result.residual <= params_.tolerance)) {
    result.status = LcpStatus::kFailed;
    result.message = "lemke: box residual " + number_text(result.residual, 6) + " exceeds tolerance " +
                     number_text(params_.tolerance, 6) + " (ill-conditioned M)";
  }
  return result;
}

void LemkeLcpSolver::fetch_column(const LcpColumnSource& M, Index j) {
  if (have_column_[static_cast<std::size_t>(j)]) return;
  M.column(j, columns_.col(j));
  if (!columns_.col(j).allFinite())
    throw Error("lemke: column " + std::to_string(j) + " of M has non-finite entries, expected finite values");
  have_column_[static_cast<std::size_t>(j)] = 1;
  ++columns_requested_;
}

void LemkeLcpSolver::pivot_on(Index row, Eigen::VectorXd& p) {
  // Gauss-Jordan step on [B^-1 q, B^-1] with pivot column p = B^-1 a_entering.
  const double pr = p[row];
  pivot_row_ = basis_inverse_.row(row) / pr;
  const double value = basic_values_[row] / pr;
  p[row] = 0.0;
  basis_inverse_.noalias() -= p * pivot_row_;
  basic_values_ -= value * p;
  basis_inverse_.row(row) = pivot_row_;
  basic_values_[row] = value;
}

Index LemkeLcpSolver::lexicographic_min(std::vector<Index>& rows, const Eigen::VectorXd& denominators) const {
  // Rows tied on B^-1 q / p are ordered by B^-1 e_c / p for c = 0, 1, ...: the order of the
  // perturbed constant vector q + (eps, eps^2, ...). B^-1 is nonsingular, so one row remains.
  const Eigen::Index n = basis_inverse_.cols();
  for (Eigen::Index c = 0; c < n && rows.size() > 1; ++c) {
    double key_min = std::numeric_limits<double>::infinity();
    for (Index i : rows) key_min = std::min(key_min, basis_inverse_(i, c) / denominators[i]);
    const double cut = key_min + params_.tie_tolerance * std::max(1.0, std::abs(key_min));
    rows.erase(
        std::remove_if(rows.begin(), rows.end(), [&](Index i) { return basis_inverse_(i, c) / denominators[i] > cut; }),
        rows.end());
  }
  return rows.front();
}

Index LemkeLcpSolver::ratio_test(const Eigen::VectorXd& p, Index z0_row) const {
  const double threshold = params_.pivot_tolerance * p.cwiseAbs().maxCoeff();
  double theta_min = std::numeric_limits<double>::infinity();
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (p[i] > threshold) theta_min = std::min(theta_min, basic_values_[i] / p[i]);
  if (!std::isfinite(theta_min)) return -1;  // no blocking row: a ray
  const double cut = theta_min + params_.tie_tolerance * std::max(1.0, std::abs(theta_min));
  std::vector<Index> rows;
  for (Eigen::Index i = 0; i < p.size(); ++i)
    if (p[i] > threshold && basic_values_[i] / p[i] <= cut) rows.push_back(static_cast<Index>(i));
  // z0 leaving ends the path, so it takes precedence among tied rows.
  if (std::find(rows.begin(), rows.end(), z0_row) != rows.end()) return z0_row;
  return lexicographic_min(rows, p);
}

void LemkeLcpSolver::refactor(const Eigen::VectorXd& q) {
  const Index n = static_cast<Index>(q.size());
  Eigen::MatrixXd B = Eigen::MatrixXd::Zero(n, n);
  for (Index i = 0; i < n; ++i) {
    const Index v = basis_[static_cast<std::size_t>(i)];
    if (v < n) {
      B(v, i) = 1.0;
    } else if (v < 2 * n) {
      B.col(i) = -columns_.col(v - n);
    } else {
      B.col(i).setConstant(-1.0);  // covering vector d = 1
    }
  }
  basis_inverse_ = B.partialPivLu().inverse();
  basic_values_.noalias() = basis_inverse_ * q;
}

LcpResult LemkeLcpSolver::pivot(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z) {
  const Index n = M.size();
  columns_requested_ = 0;
  z.setZero(n);
  LcpResult result;
  if (n == 0 || q.minCoeff() >= 0.0) {  // z = 0, w = q is a solution
    result.status = LcpStatus::kSolved;
    result.residual = 0.0;
    return result;
  }
  basis_inverse_.setIdentity(n, n);
  basic_values_ = q;
  columns_.resize(n, n);
  have_column_.assign(static_cast<std::size_t>(n), 0);
  basis_.resize(static_cast<std::size_t>(n));
  for (Index i = 0; i < n; ++i) basis_[static_cast<std::size_t>(i)] = i;  // the w basis, B = I
  column_.resize(n);
  const Index z0 = 2 * n;
  const Index max_pivots = params_.max_pivots > 0 ? params_.max_pivots : 50 * (n + 1);

  // First pivot: z0 enters (column -d) at the level that makes every w_i = q_i + z0 >= 0; the
  // blocking row is the lexicographically smallest [q_i, e_i^T] / d_i.
  const double q_min = q.minCoeff();
  std::vector<Index> rows;
  for (Index i = 0; i < n; ++i)
    if (q[i] <= q_min + params_.tie_tolerance * std::max(1.0, std::abs(q_min))) rows.push_back(i);
  const Index z0_row = lexicographic_min(rows, Eigen::VectorXd::Ones(n));
  column_.setConstant(-1.0);
  pivot_on(z0_row, column_);
  basis_[static_cast<std::size_t>(z0_row)] = z0;
  Index entering = n + z0_row;  // complement of the w that left
  result.iterations = 1;

  bool terminated = false;
  Index since_refactor = 1;
  while (!terminated) {
    if (result.iterations >= max_pivots) {
      result.status = LcpStatus::kNotConverged;
      result.message = "lemke: pivot limit " + std::to_string(max_pivots) + " reached before z0 left the basis";
      break;
    }
    if (entering < n) {
      column_ = basis_inverse_.col(entering);
    } else {
      fetch_column(M, entering - n);
      column_.noalias() = -basis_inverse_ * columns_.col(entering - n);
    }
    const Index row = ratio_test(column_, z0_row);
    if (row < 0) {
      result.status = LcpStatus::kFailed;
      result.message = "lemke: ray termination at pivot " + std::to_string(result.iterations + 1) + " (entering " +
                       variable_name(entering, n) +
                       " is unblocked); for copositive-plus M (e.g. positive semi-definite) the LCP has "
                       "no solution";
      break;
    }
    const Index leaving = basis_[static_cast<std::size_t>(row)];
    pivot_on(row, column_);
    basis_[static_cast<std::size_t>(row)] = entering;
    ++result.iterations;
    terminated = leaving == z0;
    entering = leaving < n ? leaving + n : leaving - n;
    if (!terminated && ++since_refactor >= params_.refactor_interval) {
      refactor(q);
      since_refactor = 0;
    }
  }

  std::vector<Index> alpha;  // the z's in the basis
  for (Index i = 0; i < n; ++i) {
    const Index v = basis_[static_cast<std::size_t>(i)];
    if (v >= n && v < 2 * n) alpha.push_back(v - n);
  }
  std::sort(alpha.begin(), alpha.end());
  const Eigen::Index k = static_cast<Eigen::Index>(alpha.size());
  if (terminated && k > 0) {
    // Principal pivot (ArtiSynth notes 0.8, eq. (0.4)): z_alpha = -M_alpha_alpha^-1 q_alpha.
    Eigen::MatrixXd M_aa(k, k);
    Eigen::VectorXd q_a(k);
    for (Eigen::Index a = 0; a < k; ++a) {
      q_a[a] = q[alpha[a]];
      for (Eigen::Index b = 0; b < k; ++b) M_aa(a, b) = columns_(alpha[a], alpha[b]);
    }
    const Eigen::VectorXd z_a = M_aa.partialPivLu().solve(-q_a);
    for (Eigen::Index a = 0; a < k; ++a) z[alpha[a]] = z_a[a];
  } else {
    for (Index i = 0; i < n; ++i) {
      const Index v = basis_[static_cast<std::size_t>(i)];
      if (v >= n && v < 2 * n) z[v - n] = basic_values_[i];
    }
  }
  Eigen::VectorXd w = q;
  for (Index j : alpha) w += z[j] * columns_.col(j);
  result.residual = lcp_natural_residual(nullptr, z, w);
  if (terminated) {
    if (result.residual <= params_.tolerance) {
      result.status = LcpStatus::kSolved;
    } else {
      result.status = LcpStatus::kFailed;
      result.message = "lemke: the final basis gives natural residual " + number_text(result.residual, 6) +
                       ", above tolerance " + number_text(params_.tolerance, 6) + " (ill-conditioned M_alpha_alpha)";
    }
  }
  return result;
}

}  // namespace sinew
