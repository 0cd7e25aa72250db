#include "sinew/linalg/lcp_problem.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "lcp_internal.hpp"
#include "matrix_text.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

using detail::dims;

void check_matrix_and_vector(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const char* what) {
  const Eigen::Index n = q.size();
  if (M.rows() != n || M.cols() != n)
    throw Error(std::string(what) + ": M is " + dims(M) + ", expected " + std::to_string(n) + "x" + std::to_string(n) +
                " to match q");
  if (!M.allFinite()) throw Error(std::string(what) + ": M has non-finite entries, expected finite values");
  if (!q.allFinite()) throw Error(std::string(what) + ": q has non-finite entries, expected finite values");
}

}  // namespace

void LcpProblem::validate() const { check_matrix_and_vector(M, q, "LcpProblem"); }

LcpBounds LcpBounds::standard(Index n) {
  if (n < 0) throw Error("LcpBounds::standard: n = " + std::to_string(n) + ", expected n >= 0");
  LcpBounds b;
  b.lo = Eigen::VectorXd::Zero(n);
  b.hi = Eigen::VectorXd::Constant(n, std::numeric_limits<double>::infinity());
  return b;
}

void LcpBounds::set_friction(Index row, Index normal, double mu_value) {
  const Index n = static_cast<Index>(lo.size());
  if (row < 0 || row >= n || normal < 0 || normal >= n)
    throw Error("LcpBounds::set_friction: row " + std::to_string(row) + " and normal " + std::to_string(normal) +
                " must lie in [0, " + std::to_string(n) + ") (size lo and hi first)");
  if (friction_normal.empty()) {
    friction_normal.assign(static_cast<std::size_t>(n), -1);
    mu = Eigen::VectorXd::Zero(n);
  }
  friction_normal[static_cast<std::size_t>(row)] = normal;
  mu[row] = mu_value;
}

bool LcpBounds::has_friction() const {
  return std::any_of(friction_normal.begin(), friction_normal.end(), [](Index k) { return k >= 0; });
}

double LcpBounds::lower(Index i, const Eigen::VectorXd& z) const {
  if (!is_friction(i)) return lo[i];
  return -mu[i] * std::max(z[friction_normal[static_cast<std::size_t>(i)]], 0.0);
}

double LcpBounds::upper(Index i, const Eigen::VectorXd& z) const {
  if (!is_friction(i)) return hi[i];
  return mu[i] * std::max(z[friction_normal[static_cast<std::size_t>(i)]], 0.0);
}

void LcpBounds::validate(Index n) const {
  if (lo.size() != n || hi.size() != n)
    throw Error("LcpBounds: lo has " + std::to_string(lo.size()) + " and hi " + std::to_string(hi.size()) +
                " entries, expected " + std::to_string(n) + " each");
  const bool friction = !friction_normal.empty();
  if (friction) {
    if (!(static_cast<Index>(friction_normal.size()) == n && mu.size() == n))
      throw Error("LcpBounds: friction_normal has " + std::to_string(friction_normal.size()) + " and mu " +
                  std::to_string(mu.size()) + " entries, expected " + std::to_string(n) + " each (or both empty)");
  } else {
    if (mu.size() != 0) throw Error("LcpBounds: mu is set but friction_normal is empty; expected both or neither");
  }
  for (Index i = 0; i < n; ++i) {
    const auto row = [i] { return "LcpBounds: row " + std::to_string(i); };  // built only on failure
    if (friction && friction_normal[static_cast<std::size_t>(i)] >= 0) {
      const Index k = friction_normal[static_cast<std::size_t>(i)];
      if (k >= n || k == i)
        throw Error(row() + " has friction normal " + std::to_string(k) + ", expected another row in [0, " +
                    std::to_string(n) + ")");
      if (!(std::isfinite(mu[i]) && mu[i] >= 0.0))
        throw Error(row() + " has friction coefficient mu = " + number_text(mu[i], 6) + ", expected finite mu >= 0");
      if (friction_normal[static_cast<std::size_t>(k)] >= 0)
        throw Error(row() + " has friction normal " + std::to_string(k) +
                    ", which is itself a friction row; expected a normal row");
      if (!(lo[k] >= 0.0))
        throw Error(row() + " has friction normal " + std::to_string(k) + " with lo = " + number_text(lo[k], 6) +
                    ", expected a normal row with lo >= 0");
      continue;
    }
    if (!(friction_normal.empty() || friction_normal[static_cast<std::size_t>(i)] == -1))
      throw Error(row() + " has friction normal " + std::to_string(friction_normal.empty() ? -1 : friction_normal[i]) +
                  ", expected -1 (fixed bounds) or a row index");
    if (!(!std::isnan(lo[i]) && !std::isnan(hi[i]) && lo[i] <= hi[i] &&
          lo[i] < std::numeric_limits<double>::infinity() && hi[i] > -std::numeric_limits<double>::infinity()))
      throw Error(row() + " has bounds [" + number_text(lo[i], 6) + ", " + number_text(hi[i], 6) +
                  "], expected lo <= hi with lo < +inf and hi > -inf");
  }
}

void BoxLcpProblem::validate() const {
  check_matrix_and_vector(M, q, "BoxLcpProblem");
  bounds.validate(size());
}

double lcp_natural_residual(const LcpBounds* bounds, const Eigen::VectorXd& z, const Eigen::VectorXd& w) {
  if (z.size() != w.size())
    throw Error("lcp_natural_residual: z has " + std::to_string(z.size()) + " entries and w " +
                std::to_string(w.size()) + ", expected equal sizes");
  double r = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const Index ii = static_cast<Index>(i);
    const double lo = bounds ? bounds->lower(ii, z) : 0.0;
    const double hi = bounds ? bounds->upper(ii, z) : std::numeric_limits<double>::infinity();
    const double projected = std::max(lo, std::min(hi, z[i] - w[i]));
    r = std::max(r, std::abs(z[i] - projected));
  }
  return r;
}

double natural_residual(const LcpProblem& problem, const Eigen::VectorXd& z) {
  problem.validate();
  if (z.size() != problem.q.size())
    throw Error("natural_residual: z has " + std::to_string(z.size()) + " entries, expected " +
                std::to_string(problem.q.size()));
  const Eigen::VectorXd w = problem.M * z + problem.q;
  return lcp_natural_residual(nullptr, z, w);
}

double natural_residual(const BoxLcpProblem& problem, const Eigen::VectorXd& z) {
  problem.validate();
  if (z.size() != problem.q.size())
    throw Error("natural_residual: z has " + std::to_string(z.size()) + " entries, expected " +
                std::to_string(problem.q.size()));
  const Eigen::VectorXd w = problem.M * z + problem.q;
  return lcp_natural_residual(&problem.bounds, z, w);
}

DenseLcpColumns::DenseLcpColumns(const Eigen::MatrixXd& M) : M_(&M) {
  if (M.rows() != M.cols()) throw Error("DenseLcpColumns: M is " + dims(M) + ", expected a square matrix");
}

}  // namespace sinew
