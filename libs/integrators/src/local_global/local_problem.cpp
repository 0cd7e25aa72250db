// ConvergedLocalSolve: each L-G iteration's local contact problem solved to a tolerance
// (ContactSolve::kConverged).
#include "local_problem.hpp"

#include <utility>

#include "sinew/core/error.hpp"

namespace sinew::integrators::detail {

ConvergedLocalSolve::ConvergedLocalSolve(Backend& backend, const LocalGlobalContactOptions& options) : be_(&backend) {
  constraints::NewtonOptions o;
  o.function = options.function;
  o.stop = {options.tolerance, options.max_newton_steps};
  newton_ = std::make_unique<constraints::NewtonSolver>(backend, o);
}

ConvergedLocalSolve::~ConvergedLocalSolve() = default;

void ConvergedLocalSolve::prepare(CsrMatrix W, const std::vector<constraints::ConstraintBlock>& blocks) {
  problem_.W = std::move(W);
  problem_.blocks = blocks;
  const Index m = problem_.W.rows;
  problem_.q.setZero(m);
  r_.resize(m);
  problem_.validate();  // W and the blocks, once per step; q and r are checked per solve
}

void ConvergedLocalSolve::solve(const DeviceArray<double>& q, DeviceArray<double>& r, LocalGlobalReport& report) {
  const std::size_t m = static_cast<std::size_t>(problem_.W.rows);
  be_->download(q, problem_.q.data(), m);
  be_->download(r, r_.data(), m);
  require(problem_.q.allFinite() && r_.allFinite(),
          "LocalGlobalIntegrator: the local problem's q_loc or impulses are not finite (the iterate diverged)");
  const constraints::SolverReport solved = newton_->solve(problem_, r_, InputCheck::kTrusted);
  report.newton_steps += solved.iterations;
  report.cr_iterations += solved.inner_iterations;
  be_->upload(r_.data(), m, r);
}

}  // namespace sinew::integrators::detail
