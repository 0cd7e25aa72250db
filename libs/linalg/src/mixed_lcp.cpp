#include "sinew/linalg/mixed_lcp.hpp"

#include <string>
#include <utility>

#include "matrix_text.hpp"
#include "sinew/core/error.hpp"

namespace sinew {
namespace {

using detail::dims;

void check_size(const Eigen::VectorXd& v, Eigen::Index want, const char* name, bool optional) {
  if (!(v.size() == want || (optional && v.size() == 0)))
    throw Error(std::string("MixedLcpProblem: ") + name + " has " + std::to_string(v.size()) + " entries, expected " +
                std::to_string(want) + (optional ? " or 0" : ""));
  if (!v.allFinite())
    throw Error(std::string("MixedLcpProblem: ") + name + " has non-finite entries, expected finite values");
  if (!(!optional || v.size() == 0 || v.minCoeff() >= 0.0))
    throw Error(std::string("MixedLcpProblem: ") + name + " has a negative entry, expected values >= 0");
}

}  // namespace

void MixedLcpProblem::validate() const {
  const Eigen::Index nx = M.rows();
  if (M.cols() != nx || nx == 0)
    throw Error("MixedLcpProblem: M is " + dims(M) + ", expected a square matrix of order nx > 0");
  if (G.cols() != nx) throw Error("MixedLcpProblem: G is " + dims(G) + ", expected " + std::to_string(nx) + " columns");
  if (N.cols() != nx) throw Error("MixedLcpProblem: N is " + dims(N) + ", expected " + std::to_string(nx) + " columns");
  if (!(M.allFinite() && G.allFinite() && N.allFinite()))
    throw Error("MixedLcpProblem: M, G or N has non-finite entries, expected finite values");
  check_size(f, nx, "f", false);
  check_size(g, G.rows(), "g", false);
  check_size(n, N.rows(), "n", false);
  check_size(bilateral_compliance, G.rows(), "bilateral_compliance", true);
  check_size(unilateral_compliance, N.rows(), "unilateral_compliance", true);
}

namespace {

const MixedLcpProblem& validated(const MixedLcpProblem& problem) {
  problem.validate();
  return problem;
}

}  // namespace

MixedLcpReduction::MixedLcpReduction(const MixedLcpProblem& problem)
    : kkt_(validated(problem).M, problem.G, problem.bilateral_compliance),
      N_(problem.N),
      f_(problem.f),
      g_(problem.g),
      n_(problem.n) {
  c_n_ = problem.unilateral_compliance.size() > 0 ? problem.unilateral_compliance
                                                  : Eigen::VectorXd(Eigen::VectorXd::Zero(N_.rows()));
  // q = N_bar A^-1 b - n: the unilateral slack at z = 0 (notes 0.7; x_0 uses lambda_0).
  q_ = N_ * kkt_.solve(f_, g_).v - n_;
}

void MixedLcpReduction::column(Index j, Eigen::Ref<Eigen::VectorXd> out) const {
  // Column j of N_bar A^-1 N_bar^T: the slack response to a unit impulse on row j (notes 0.8).
  const KktSolution unit = kkt_.solve(N_.row(j).transpose(), Eigen::VectorXd::Zero(g_.size()));
  out.noalias() = N_ * unit.v;
  out[j] += c_n_[j];
}

LcpProblem MixedLcpReduction::lcp() const {
  LcpProblem p;
  p.M.resize(q_.size(), q_.size());
  for (Index j = 0; j < size(); ++j) column(j, p.M.col(j));
  p.q = q_;
  return p;
}

MixedLcpSolution MixedLcpReduction::recover(const Eigen::VectorXd& z) const {
  if (z.size() != q_.size())
    throw Error("MixedLcpReduction::recover: z has " + std::to_string(z.size()) + " entries, expected " +
                std::to_string(q_.size()));
  if (!z.allFinite()) throw Error("MixedLcpReduction::recover: z has non-finite entries, expected finite values");
  MixedLcpSolution s;
  KktSolution y = kkt_.solve(f_ + N_.transpose() * z, g_);  // (x, lambda) = A^-1 (b + N_bar^T z)
  s.x = std::move(y.v);
  s.lambda = std::move(y.lambda);
  s.z = z;
  s.w = N_ * s.x + c_n_.cwiseProduct(z) - n_;
  return s;
}

LcpResult solve_mixed_lcp(const MixedLcpProblem& problem, LcpSolver& solver, MixedLcpSolution& solution) {
  const MixedLcpReduction reduction(problem);
  Eigen::VectorXd z = solution.z;
  const LcpResult result = solver.solve(reduction, reduction.q(), z);
  solution = reduction.recover(z);
  return result;
}

}  // namespace sinew
