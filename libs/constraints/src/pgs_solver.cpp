#include "sinew/constraints/pgs_solver.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {

PgsSolver::PgsSolver(const PgsOptions& options) : options_(options) {
  require(options.relaxation > 0.0 && options.relaxation < 2.0,
          [&] { return "PgsSolver: relaxation must lie in (0, 2), got " + number_text(options.relaxation); });
  require(options.stop.max_iterations >= 1, "PgsSolver: max_iterations must be >= 1");
}

namespace {

// u_i = (W r)_i + q_i from W's row i.
double row_velocity(const DelassusProblem& p, const Eigen::VectorXd& r, Index i) {
  double s = p.q[i];
  for (Index k = p.W.row_ptr[i]; k < p.W.row_ptr[i + 1]; ++k) s += p.W.values[k] * r[p.W.col_idx[k]];
  return s;
}

double entry(const CsrMatrix& W, Index i, Index j) {
  for (Index k = W.row_ptr[i]; k < W.row_ptr[i + 1]; ++k)
    if (W.col_idx[k] == j) return W.values[k];
  return 0.0;
}

}  // namespace

SolverReport PgsSolver::do_solve(const DelassusProblem& p, Eigen::VectorXd& r) {
  SolverReport report;
  do_solve_into(p, r, report);
  return report;
}

void PgsSolver::do_solve_into(const DelassusProblem& p, Eigen::VectorXd& r, SolverReport& report) {
  report.reset();
  const double w = options_.relaxation;
  block_offsets_into(p.blocks, offsets_);
  const std::vector<Index>& offsets = offsets_;
  // Diagonal steps, formed once: 1/W_ii per scalar row, 1/lambda_max of each tangent 2x2 block.
  Eigen::VectorXd& step = step_;
  step.resize(p.rows());
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = offsets[b];
    const double d = entry(p.W, i, i);
    if (!(d > 0.0)) {
      report.status = SolverStatus::kFailed;
      report.message = "pgs: W(" + std::to_string(i) + ", " + std::to_string(i) + ") = " + number_text(d, 6) +
                       " is not positive; Gauss-Seidel needs a positive diagonal";
      return;
    }
    step[i] = 1.0 / d;
    if (block_size(p.blocks[b].kind) == 3) {
      const double a = entry(p.W, i + 1, i + 1), c = entry(p.W, i + 2, i + 2), o = entry(p.W, i + 1, i + 2);
      const double lmax = 0.5 * (a + c) + std::sqrt(0.25 * (a - c) * (a - c) + o * o);
      if (!(lmax > 0.0)) {
        report.status = SolverStatus::kFailed;
        report.message = "pgs: the tangent block of contact " + std::to_string(b) + " is not positive";
        return;
      }
      step[i + 1] = step[i + 2] = 1.0 / lmax;
    }
  }
  Eigen::VectorXd& u = u_;
  u.resize(p.rows());
  int next_check = 0;   // the sweep (0-based) after which the error is next evaluated
  int last_check = -1;  // the sweep of the last evaluation
  double last_error = 0.0;
  constexpr int kEveryFirst = 8, kMaxGap = 64;
  for (int it = 0; it < options_.stop.max_iterations; ++it) {
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      const ConstraintBlock& block = p.blocks[b];
      const Index i = offsets[b];
      const double ui = row_velocity(p, r, i);
      double ri = r[i] - w * step[i] * ui;
      if (block.kind != BlockKind::kBilateral && ri < 0.0) ri = 0.0;
      r[i] = ri;
      if (block_size(block.kind) == 1) continue;
      const double u1 = row_velocity(p, r, i + 1), u2 = row_velocity(p, r, i + 2);
      double t1 = r[i + 1] - w * step[i + 1] * u1, t2 = r[i + 2] - w * step[i + 2] * u2;
      const double bound = block.mu * r[i];
      if (block.kind == BlockKind::kContact) {
        const double norm = std::hypot(t1, t2);
        if (norm > bound) {
          const double s = norm > 0.0 ? bound / norm : 0.0;
          t1 *= s;
          t2 *= s;
        }
      } else {
        t1 = std::fmax(-bound, std::fmin(bound, t1));
        t2 = std::fmax(-bound, std::fmin(bound, t2));
      }
      r[i + 1] = t1;
      r[i + 2] = t2;
    }
    report.iterations = it + 1;
    if (options_.scheduled_checks && it < next_check && it + 1 < options_.stop.max_iterations) continue;
    for (Index i = 0; i < p.rows(); ++i) u[i] = row_velocity(p, r, i);
    const double error = natural_map_error(p, r, u).relative;
    // The next check: half the sweeps the measured rate predicts to the tolerance.
    int gap = 1;
    if (it >= kEveryFirst && last_check >= 0 && error < last_error && error > 0.0) {
      const double rate_log = std::log(error / last_error) / (it - last_check);  // < 0
      const double predicted = std::log(options_.stop.tolerance / error) / rate_log;
      // Never more than a quarter of the sweeps so far: PGS's rate can jump when the active
      // set settles, and the overshoot stays within 25% of the sweeps.
      const double most = std::min<double>(kMaxGap, std::max(1, (it + 1) / 4));
      gap = static_cast<int>(std::clamp(0.5 * predicted, 1.0, most));
    }
    last_check = it;
    last_error = error;
    next_check = it + gap;
    report.error_history.push_back(error);
    report.error = error;
    if (!std::isfinite(error)) {
      report.status = SolverStatus::kFailed;
      report.message = "pgs: non-finite error after sweep " + std::to_string(it + 1);
      return;
    }
    if (error <= options_.stop.tolerance) {
      report.status = SolverStatus::kConverged;
      // Appended to the kept message's storage, without temporaries (every converged solve).
      char count[16];
      const char* end = std::to_chars(count, count + sizeof count, it + 1).ptr;
      report.message.append("pgs: converged in ")
          .append(count, static_cast<std::size_t>(end - count))
          .append(" sweeps");
      block_states(p, r, u, report.states);
      return;
    }
  }
  report.status = SolverStatus::kNotConverged;
  report.message = "pgs: natural-map error " + number_text(report.error, 4) + " > tolerance " +
                   number_text(options_.stop.tolerance) + " after " + std::to_string(report.iterations) + " sweeps";
  block_states(p, r, u, report.states);
}

}  // namespace sinew::constraints
