#include "sinew/linalg/lcp_solver.hpp"

#include <string>

#include "sinew/core/error.hpp"

namespace sinew {
namespace {

// Sizes z for the solve and says whether the caller gave a warm start.
bool prepare_start(const char* solver, Eigen::Index n, Eigen::VectorXd& z) {
  if (z.size() != 0 && z.size() != n)
    throw Error(std::string(solver) + ": z has " + std::to_string(z.size()) + " entries, expected 0 (cold start) or " +
                std::to_string(n) + " (warm start)");
  if (!z.allFinite())
    throw Error(std::string(solver) + ": the warm start z has non-finite entries, expected finite values");
  if (z.size() == n && n > 0) return true;
  z = Eigen::VectorXd::Zero(n);
  return false;
}

}  // namespace

const char* to_string(LcpStatus status) {
  switch (status) {
    case LcpStatus::kSolved:
      return "solved";
    case LcpStatus::kNotConverged:
      return "not_converged";
    case LcpStatus::kFailed:
      return "failed";
  }
  return "unknown";
}

LcpResult LcpSolver::solve(const LcpProblem& problem, Eigen::VectorXd& z) {
  problem.validate();
  const bool warm = prepare_start(name(), problem.q.size(), z);
  return do_solve(problem.M, problem.q, nullptr, z, warm);
}

LcpResult LcpSolver::solve(const BoxLcpProblem& problem, Eigen::VectorXd& z) {
  problem.validate();
  const bool warm = prepare_start(name(), problem.q.size(), z);
  return do_solve(problem.M, problem.q, &problem.bounds, z, warm);
}

LcpResult LcpSolver::solve(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z) {
  if (M.size() != q.size())
    throw Error(std::string(name()) + ": the column source has order " + std::to_string(M.size()) + " but q has " +
                std::to_string(q.size()) + " entries, expected equal sizes");
  if (!q.allFinite()) throw Error(std::string(name()) + ": q has non-finite entries, expected finite values");
  const bool warm = prepare_start(name(), q.size(), z);
  return do_solve_columns(M, q, z, warm);
}

LcpResult LcpSolver::do_solve_columns(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z,
                                      bool warm) {
  Eigen::MatrixXd dense(q.size(), q.size());
  for (Index j = 0; j < M.size(); ++j) M.column(j, dense.col(j));
  if (!dense.allFinite())
    throw Error(std::string(name()) + ": the column source gave non-finite entries of M, expected finite values");
  return do_solve(dense, q, nullptr, z, warm);
}

}  // namespace sinew
