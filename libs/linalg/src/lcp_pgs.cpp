#include "sinew/linalg/lcp_pgs.hpp"

#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "lcp_internal.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew {
namespace {

// Sweeps between exact recomputations of w = M z + q: the column updates of a sweep accumulate
// round-off, which a full product every few sweeps removes at a small share of the cost.
constexpr Index kRefreshInterval = 16;

}  // namespace

PgsLcpSolver::PgsLcpSolver() : PgsLcpSolver(Options{}) {}

PgsLcpSolver::PgsLcpSolver(const Options& params) : params_(params) {
  if (params.max_iterations < 1)
    throw Error("PgsLcpSolver: max_iterations = " + std::to_string(params.max_iterations) + ", expected at least 1");
  if (!(params.tolerance > 0.0 && std::isfinite(params.tolerance)))
    throw Error("PgsLcpSolver: tolerance = " + number_text(params.tolerance, 6) + ", expected a finite value > 0");
  if (!(params.omega > 0.0 && params.omega < 2.0))
    throw Error("PgsLcpSolver: omega = " + number_text(params.omega, 6) + ", expected 0 < omega < 2");
}

LcpResult PgsLcpSolver::do_solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpBounds* bounds,
                                 Eigen::VectorXd& z, bool warm) {
  const Eigen::Index n = q.size();
  for (Eigen::Index i = 0; i < n; ++i)
    if (!(M(i, i) > 0.0))
      throw Error("PgsLcpSolver: M(" + std::to_string(i) + "," + std::to_string(i) + ") = " + number_text(M(i, i), 6) +
                  ", expected a positive diagonal");
  if (!(warm && params_.warm_start)) z.setZero();

  const double inf = std::numeric_limits<double>::infinity();
  const double omega = params_.omega;
  w_.noalias() = M * z;
  w_ += q;
  LcpResult result;
  for (Index sweep = 1; sweep <= params_.max_iterations; ++sweep) {
    for (Eigen::Index i = 0; i < n; ++i) {
      const Index ii = static_cast<Index>(i);
      const double lo = bounds ? bounds->lower(ii, z) : 0.0;
      const double hi = bounds ? bounds->upper(ii, z) : inf;
      // ArtiSynth 0.15, eq. (0.17): the row solved in isolation, relaxed, then projected (0.16).
      const double zi = std::max(lo, std::min(hi, z[i] - omega * w_[i] / M(i, i)));
      const double dz = zi - z[i];
      if (dz != 0.0) {
        z[i] = zi;
        w_ += dz * M.col(i);
      }
    }
    result.iterations = sweep;
    if (sweep % kRefreshInterval == 0) {
      w_.noalias() = M * z;
      w_ += q;
    }
    result.residual = lcp_natural_residual(bounds, z, w_);
    if (result.residual <= params_.tolerance) {
      w_.noalias() = M * z;  // confirm with an exact w before declaring success
      w_ += q;
      result.residual = lcp_natural_residual(bounds, z, w_);
      if (result.residual <= params_.tolerance) {
        result.status = LcpStatus::kSolved;
        return result;
      }
    }
  }
  w_.noalias() = M * z;
  w_ += q;
  result.residual = lcp_natural_residual(bounds, z, w_);
  result.status = LcpStatus::kNotConverged;
  result.message = "pgs: natural residual " + number_text(result.residual, 6) + " after " +
                   std::to_string(result.iterations) + " sweeps, expected at most " +
                   number_text(params_.tolerance, 6) + " (raise max_iterations, lower omega for friction)";
  return result;
}

}  // namespace sinew
