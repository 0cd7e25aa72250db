#include "sinew/constraints/sap_solver.hpp"

#include <Eigen/SparseCholesky>
#include <cmath>
#include <cstdio>
#include <string>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {

namespace {

using ColSparse = Eigen::SparseMatrix<double>;

// Per-block impulse gamma = P_R(-R^-1 u), cost 1/2 ||gamma||_R^2 and G = dP_R/dy R^-1 (3x3 or 1x1
// in the top-left corner).
struct BlockEval {
  Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
  RowState state = RowState::kOpen;
};

double evaluate(const std::vector<ConstraintBlock>& blocks, const std::vector<Index>& offsets, const Eigen::VectorXd& R,
                const Eigen::VectorXd& u, Eigen::VectorXd& gamma, std::vector<BlockEval>* evals) {
  double cost = 0.0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const Index i = offsets[b];
    BlockEval ev;
    if (blocks[b].kind != BlockKind::kContact) {
      const double y = -u[i] / R[i];
      const bool free = blocks[b].kind == BlockKind::kBilateral || y > 0.0;
      gamma[i] = free ? y : 0.0;
      ev.G(0, 0) = free ? 1.0 / R[i] : 0.0;
      ev.state = free ? RowState::kClosed : RowState::kOpen;
      cost += 0.5 * R[i] * gamma[i] * gamma[i];
    } else {
      // Projection in the R-norm = Euclidean projection of R^1/2 y onto the cone with
      // mu~ = mu sqrt(R_t / R_n), mapped back by R^-1/2.
      const double sn = std::sqrt(R[i]), st = std::sqrt(R[i + 1]);
      const double mu = blocks[b].mu * st / sn;
      const double yt[3] = {-u[i] / R[i] * sn, -u[i + 1] / R[i + 1] * st, -u[i + 2] / R[i + 2] * st};
      double p[3] = {yt[0], yt[1], yt[2]};
      project_on_cone(p, mu);
      const double s[3] = {sn, st, st};
      for (int k = 0; k < 3; ++k) gamma[i + k] = p[k] / s[k];
      cost += 0.5 * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      const double xt = std::hypot(yt[1], yt[2]);
      Eigen::Matrix3d dP = Eigen::Matrix3d::Zero();
      if (xt <= mu * yt[0]) {
        dP.setIdentity();
        ev.state = RowState::kStick;
      } else if (mu * xt <= -yt[0] || xt == 0.0) {
        ev.state = RowState::kOpen;
      } else {
        ev.state = RowState::kSlip;
        const Eigen::Vector2d t(yt[1] / xt, yt[2] / xt);
        const double c = 1.0 / (1.0 + mu * mu), pn = (yt[0] + mu * xt) * c;
        dP(0, 0) = c;
        dP.block<1, 2>(0, 1) = mu * c * t.transpose();
        dP.block<2, 1>(1, 0) = mu * c * t;
        dP.block<2, 2>(1, 1) =
            mu * mu * c * t * t.transpose() + (mu * pn / xt) * (Eigen::Matrix2d::Identity() - t * t.transpose());
      }
      for (int r = 0; r < 3; ++r)
        for (int k = 0; k < 3; ++k) ev.G(r, k) = dP(r, k) / (s[r] * s[k]);
    }
    if (evals) (*evals)[b] = ev;
  }
  return cost;
}

}  // namespace

SapSolver::SapSolver(const SapOptions& options) : options_(options) {
  require(options.stop.tolerance > 0.0 && options.stop.max_iterations >= 1,
          "SapSolver: tolerance must be > 0 and max_iterations >= 1");
  require(options.rigid_fraction > 0.0 && options.sigma > 0.0 && options.max_step >= 1.0,
          "SapSolver: rigid_fraction and sigma must be > 0 and max_step >= 1");
}

SolverReport SapSolver::solve(const GlobalProblem& p, GlobalSolution& solution) {
  p.validate();
  for (std::size_t b = 0; b < p.blocks.size(); ++b)
    require(p.blocks[b].kind != BlockKind::kContactBoxFriction, [&] {
      return "sap: block " + std::to_string(b) + " uses box friction; the convex approximation needs a circular cone";
    });
  const Index n = p.velocities(), m = p.rows();
  require(solution.r.size() == 0 || solution.r.size() == m,
          [&] { return "sap: the warm start r must be empty or have " + std::to_string(m) + " entries"; });
  const std::vector<Index> offsets = block_offsets(p.blocks);
  const ColSparse M = ColSparse(to_eigen(p.M));
  const ColSparse H = ColSparse(to_eigen(p.H));               // (n x m) FCLIB's H = J^T
  const ColSparse Ht = ColSparse(to_eigen(p.H).transpose());  // (m x n) the Jacobian J
  Eigen::SimplicialLDLT<ColSparse> mass(M);
  require(mass.info() == Eigen::Success, "sap: M is not positive definite");
  const Eigen::VectorXd v_star = mass.solve(p.f);
  const Eigen::VectorXd D = M.diagonal().cwiseSqrt().cwiseInverse();

  // Regularization: near-rigid normal, small tangential, from diagonal estimates of W.
  Eigen::VectorXd Wdiag = Eigen::VectorXd::Zero(m);
  for (int k = 0; k < H.outerSize(); ++k)  // column k of H = constraint row k
    for (ColSparse::InnerIterator it(H, k); it; ++it) Wdiag[k] += it.value() * it.value() / M.coeff(it.row(), it.row());
  Eigen::VectorXd R(m);
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = offsets[b];
    const int s = block_size(p.blocks[b].kind);
    const double wc = std::max(Wdiag.segment(i, s).mean(), 1e-300);
    R[i] = options_.rigid_fraction * wc;
    for (int k = 1; k < s; ++k) R[i + k] = options_.sigma * wc;
  }
  if (p.compliance.size()) R += p.compliance;
  R_ = R;

  // The common error measure (natural_map.hpp) of the ORIGINAL problem (without R) at r = gamma:
  // u = W gamma + q = H^T M^-1 (H gamma + f) + w + C gamma (to_delassus), one solve with M's
  // factor; natural_map_error(problem, r, u) reads only q and the blocks, so W is not formed.
  DelassusProblem original;
  original.q = Ht * v_star + p.w;
  original.blocks = p.blocks;
  const auto natural_map = [&](const Eigen::VectorXd& impulse) {
    Eigen::VectorXd u_r = Ht * mass.solve(Eigen::VectorXd(H * impulse + p.f)) + p.w;
    if (p.compliance.size()) u_r += p.compliance.cwiseProduct(impulse);
    return natural_map_error(original, impulse, u_r).relative;
  };
  Eigen::VectorXd v = v_star;
  if (solution.r.size() == m) v = mass.solve(Eigen::VectorXd(H * solution.r + p.f));
  Eigen::VectorXd gamma(m), u(m), grad(n), dv(n), du(m), gamma_a(m);
  std::vector<BlockEval> evals(p.blocks.size());
  SolverReport report;
  const auto finish = [&](SolverStatus status, const std::string& message) {
    solution.v = v;
    solution.r = gamma;
    report.status = status;
    report.message = "sap: " + message;
    report.states.clear();
    for (const BlockEval& e : evals) report.states.push_back(e.state);
    return report;
  };
  for (int it = 0;; ++it) {
    u = Ht * v + p.w;
    evaluate(p.blocks, offsets, R, u, gamma, &evals);
    const Eigen::VectorXd momentum = M * (v - v_star);
    const Eigen::VectorXd impulse = H * gamma;
    grad = momentum - impulse;
    const double scale = std::max((D.asDiagonal() * (M * v)).norm(), (D.asDiagonal() * impulse).norm());
    const double optimality = (D.asDiagonal() * grad).norm() / (scale > 0.0 ? scale : 1.0);
    report.error = natural_map(gamma);
    if (it > 0) report.error_history.push_back(report.error);
    const std::string figures =
        " (scaled gradient " + number_text(optimality, 3) + ", natural-map error " + number_text(report.error, 3) + ")";
    if (!std::isfinite(optimality) || !std::isfinite(report.error))
      return finish(SolverStatus::kFailed, "non-finite gradient at step " + std::to_string(it));
    if (optimality <= options_.stop.tolerance)
      return finish(SolverStatus::kConverged, "converged in " + std::to_string(it) + " Newton steps" + figures);
    if (it == options_.stop.max_iterations)
      return finish(SolverStatus::kNotConverged, "scaled gradient " + number_text(optimality, 3) + " > tolerance " +
                                                     number_text(options_.stop.tolerance, 3) + " after " +
                                                     std::to_string(it) + " Newton steps" + figures);
    // Newton step on M + H^T G H (G block diagonal, PSD): sparse LDL^T.
    std::vector<Eigen::Triplet<double>> triplets;
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      const int s = block_size(p.blocks[b].kind);
      for (int r = 0; r < s; ++r)
        for (int k = 0; k < s; ++k)
          if (evals[b].G(r, k) != 0.0) triplets.emplace_back(offsets[b] + r, offsets[b] + k, evals[b].G(r, k));
    }
    ColSparse G(m, m);
    G.setFromTriplets(triplets.begin(), triplets.end());
    const ColSparse hessian = M + ColSparse(H * G * Ht);
    Eigen::SimplicialLDLT<ColSparse> ldlt(hessian);
    if (ldlt.info() != Eigen::Success) return finish(SolverStatus::kFailed, "the Newton matrix could not be factored");
    dv = -ldlt.solve(grad);
    du = Ht * dv;
    // Exact line search: root of g(a) = dv^T M (v + a dv - v*) - du^T gamma(a) on [0, max_step]
    // (l is convex along the line: g is non-decreasing), safeguarded Newton-bisection.
    const double dMd = dv.dot(M * dv), dMv = dv.dot(momentum);
    const auto slope = [&](double a, double* curvature) {
      evaluate(p.blocks, offsets, R, u + a * du, gamma_a, curvature ? &evals : nullptr);
      if (curvature) {
        double c = dMd;
        for (std::size_t b = 0; b < p.blocks.size(); ++b) {
          const int s = block_size(p.blocks[b].kind);
          const Eigen::VectorXd d = du.segment(offsets[b], s);
          c += d.dot(evals[b].G.topLeftCorner(s, s) * d);
        }
        *curvature = c;
      }
      return dMv + a * dMd - du.dot(gamma_a);
    };
    const double g0 = slope(0.0, nullptr);
    double lo = 0.0, hi = options_.max_step, alpha = hi;
    if (g0 < 0.0 && slope(hi, nullptr) > 0.0) {
      alpha = 1.0;
      for (int k = 0; k < 100; ++k) {
        double curvature = 0.0;
        const double g = slope(alpha, &curvature);
        if (std::fabs(g) <= 1e-14 * std::fabs(g0)) break;
        (g < 0.0 ? lo : hi) = alpha;
        const double next = curvature > 0.0 ? alpha - g / curvature : 0.5 * (lo + hi);
        alpha = (next > lo && next < hi) ? next : 0.5 * (lo + hi);
        if (hi - lo <= 1e-15 * hi) break;
      }
    } else if (!(g0 < 0.0)) {
      alpha = 0.0;  // not a descent direction (round-off at the optimum): stop moving
    }
    if (alpha == 0.0)
      return finish(SolverStatus::kNotConverged, "no descent left at scaled gradient " + number_text(optimality, 3) +
                                                     " (round-off floor above the tolerance " +
                                                     number_text(options_.stop.tolerance, 3) + ")" + figures);
    v += alpha * dv;
    report.iterations = it + 1;
  }
}

}  // namespace sinew::constraints
