#include "sinew/constraints/baraff_adapter.hpp"

#include "sinew/core/error.hpp"

namespace sinew::constraints {

BaraffConstraintAdapter::BaraffConstraintAdapter(ConstraintSolver& solver, std::vector<ConstraintBlock> blocks)
    : solver_(&solver), blocks_(std::move(blocks)) {}

SolverReport BaraffConstraintAdapter::solve(const BaraffSolver& baraff, const Eigen::Ref<const Eigen::VectorXd>& force,
                                            const Eigen::Ref<const Eigen::VectorXd>& bias,
                                            const Eigen::Ref<const Eigen::VectorXd>& aux_bias, BaraffWorkspace& ws,
                                            BaraffSolution& out) {
  const Index k = baraff.num_auxiliary();
  validate_blocks(blocks_, k, "BaraffConstraintAdapter");
  const Eigen::MatrixXd& A = baraff.auxiliary_matrix();
  // Workless rows give a symmetric A up to round-off; anything else is not a Delassus operator.
  const double scale = k ? A.cwiseAbs().maxCoeff() : 0.0;
  require(k == 0 || (A - A.transpose()).cwiseAbs().maxCoeff() <= 1e-10 * scale,
          "BaraffConstraintAdapter: the auxiliary matrix is not symmetric; auxiliary rows must be workless "
          "(force direction = Jacobian^T) to be solved as a constraint problem");
  DelassusProblem local;
  local.W.rows = local.W.cols = k;
  local.W.row_ptr.assign(1, 0);
  for (Index i = 0; i < k; ++i) {
    for (Index j = 0; j < k; ++j) {
      local.W.col_idx.push_back(j);
      local.W.values.push_back(0.5 * (A(i, j) + A(j, i)));
    }
    local.W.row_ptr.push_back(static_cast<Index>(local.W.col_idx.size()));
  }
  local.q = baraff.auxiliary_rhs(force, bias, aux_bias, ws);
  local.blocks = blocks_;
  if (warm_.size() != k) warm_ = Eigen::VectorXd::Zero(k);
  const SolverReport report = solver_->solve(local, warm_);
  baraff.finish(warm_, ws, out);
  return report;
}

}  // namespace sinew::constraints
