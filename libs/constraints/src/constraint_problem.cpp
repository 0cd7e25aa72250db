#include "sinew/constraints/constraint_problem.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {

std::vector<Index> block_offsets(const std::vector<ConstraintBlock>& blocks) {
  std::vector<Index> offsets(blocks.size() + 1, 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) offsets[b + 1] = offsets[b] + block_size(blocks[b].kind);
  return offsets;
}

std::string to_string(BlockKind kind) {
  switch (kind) {
    case BlockKind::kBilateral:
      return "bilateral";
    case BlockKind::kUnilateral:
      return "unilateral";
    case BlockKind::kContact:
      return "contact";
    case BlockKind::kContactBoxFriction:
      return "contact-box-friction";
  }
  return "unknown";
}

void validate_blocks(const std::vector<ConstraintBlock>& blocks, Index rows, const char* what) {
  Index total = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const ConstraintBlock& block = blocks[b];
    const int kind = static_cast<int>(block.kind);
    // Messages only on failure: this runs on every step's rows.
    if (kind < 0 || kind > static_cast<int>(BlockKind::kContactBoxFriction))
      throw Error(std::string(what) + ": block " + std::to_string(b) + " has an unknown kind " + std::to_string(kind));
    if (!(std::isfinite(block.mu) && block.mu >= 0.0))
      throw Error(std::string(what) + ": block " + std::to_string(b) + " (" + to_string(block.kind) +
                  ") needs a finite friction coefficient mu >= 0, got " + number_text(block.mu));
    total += block_size(block.kind);
  }
  require(total == rows, std::string(what) + ": the blocks cover " + std::to_string(total) +
                             " rows but the problem has " + std::to_string(rows));
}

namespace {

void require_finite(const Eigen::VectorXd& x, const std::string& what) {
  for (Eigen::Index i = 0; i < x.size(); ++i)
    require(std::isfinite(x[i]), what + ": entry " + std::to_string(i) + " is not finite");
}

void require_finite(const CsrMatrix& A, const std::string& what) {
  for (Index r = 0; r < A.rows; ++r)
    for (Index k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k)
      require(std::isfinite(A.values[k]),
              what + ": entry (" + std::to_string(r) + ", " + std::to_string(A.col_idx[k]) + ") is not finite");
}

}  // namespace

void DelassusProblem::validate() const {
  const Index m = rows();
  require(W.rows == m && W.cols == m, "DelassusProblem: W must be " + std::to_string(m) + "x" + std::to_string(m) +
                                          " (the size of q), got " + std::to_string(W.rows) + "x" +
                                          std::to_string(W.cols));
  W.validate();
  require(static_cast<Index>(W.values.size()) == W.nnz(), "DelassusProblem: W has values.size() != nnz");
  require_finite(W, "DelassusProblem: W");
  require_symmetric(W, "DelassusProblem: W", 1e-10);
  require_finite(q, "DelassusProblem: q");
  validate_blocks(blocks, m, "DelassusProblem");
}

void GlobalProblem::validate() const {
  const Index n = velocities(), m = rows();
  require(M.rows == n && M.cols == n, "GlobalProblem: M must be " + std::to_string(n) + "x" + std::to_string(n) +
                                          " (the size of f), got " + std::to_string(M.rows) + "x" +
                                          std::to_string(M.cols));
  require(H.rows == n && H.cols == m, "GlobalProblem: H must be " + std::to_string(n) + "x" + std::to_string(m) +
                                          " (size of f x size of w, FCLIB's H = J^T), got " + std::to_string(H.rows) +
                                          "x" + std::to_string(H.cols));
  M.validate();
  H.validate();
  require_finite(M, "GlobalProblem: M");
  require_finite(H, "GlobalProblem: H");
  require_symmetric(M, "GlobalProblem: M");
  require_finite(f, "GlobalProblem: f");
  require_finite(w, "GlobalProblem: w");
  require(compliance.size() == 0 || compliance.size() == m, "GlobalProblem: compliance must be empty or have " +
                                                                std::to_string(m) + " entries, got " +
                                                                std::to_string(compliance.size()));
  for (Eigen::Index i = 0; i < compliance.size(); ++i)
    require(std::isfinite(compliance[i]) && compliance[i] >= 0.0,
            "GlobalProblem: compliance " + std::to_string(i) + " must be finite and >= 0");
  validate_blocks(blocks, m, "GlobalProblem");
}

DelassusProblem to_delassus(const GlobalProblem& problem, LinearSolver& mass_solver) {
  problem.validate();
  mass_solver.compute(problem.M);
  const Eigen::MatrixXd X = mass_solver.solve(Eigen::MatrixXd(to_eigen(problem.H)));  // M^-1 H (n x m)
  Eigen::MatrixXd W = to_eigen(problem.H).transpose() * X;                            // (m x m)
  W = 0.5 * (W + W.transpose()).eval();  // exact symmetry for the solvers' checks
  if (problem.compliance.size()) W.diagonal() += problem.compliance;
  DelassusProblem local;
  const Index m = problem.rows();
  local.W.rows = local.W.cols = m;
  local.W.row_ptr.assign(1, 0);
  for (Index i = 0; i < m; ++i) {
    for (Index j = 0; j < m; ++j) {
      local.W.col_idx.push_back(j);
      local.W.values.push_back(W(i, j));
    }
    local.W.row_ptr.push_back(static_cast<Index>(local.W.col_idx.size()));
  }
  local.q = problem.w + to_eigen(problem.H).transpose() * mass_solver.solve(problem.f);
  local.blocks = problem.blocks;
  return local;
}

Eigen::VectorXd global_velocity(const GlobalProblem& problem, const LinearSolver& mass_solver,
                                const Eigen::VectorXd& r) {
  require(mass_solver.factored() && mass_solver.rows() == problem.velocities(),
          "global_velocity: the solver must hold the factorization of M (call to_delassus first)");
  require(r.size() == problem.rows(), "global_velocity: r must have " + std::to_string(problem.rows()) +
                                          " entries, got " + std::to_string(r.size()));
  const Eigen::VectorXd rhs = to_eigen(problem.H) * r + problem.f;
  return mass_solver.solve(rhs);
}

}  // namespace sinew::constraints
