// Problem builders shared by the constraints tests: dense helpers and random well-posed
// problems (SPD W = H M^-1 H^T from a random Jacobian and mass matrix, fixed seeds).
#pragma once

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "sinew/constraints/constraint_problem.hpp"

namespace sinew::constraints::testing {

// Every entry of a dense matrix as CSR (explicit zeros kept, so patterns are symmetric).
inline CsrMatrix dense_to_csr(const Eigen::MatrixXd& A) {
  CsrMatrix C;
  C.rows = static_cast<Index>(A.rows());
  C.cols = static_cast<Index>(A.cols());
  C.row_ptr.assign(1, 0);
  for (Eigen::Index i = 0; i < A.rows(); ++i) {
    for (Eigen::Index j = 0; j < A.cols(); ++j) {
      C.col_idx.push_back(static_cast<Index>(j));
      C.values.push_back(A(i, j));
    }
    C.row_ptr.push_back(static_cast<Index>(C.col_idx.size()));
  }
  return C;
}

// A random global problem: n velocities, blocks as given, M SPD, H (n x m, FCLIB's J^T) of full
// column rank (n >= m),
// w drawn so that most contacts approach (negative normal free velocity) and slide.
inline GlobalProblem random_global(unsigned seed, const std::vector<ConstraintBlock>& blocks, Index n) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  GlobalProblem p;
  p.blocks = blocks;
  const Index m = block_offsets(blocks).back();
  Eigen::MatrixXd B(n, n), H(n, m);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) B(i, j) = uni(gen);
  const Eigen::MatrixXd M = B * B.transpose() / n + Eigen::MatrixXd::Identity(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < m; ++j) H(i, j) = uni(gen);
  Eigen::VectorXd f(n), w(m);
  for (Index i = 0; i < n; ++i) f[i] = 0.1 * uni(gen);
  for (Index i = 0; i < m; ++i) w[i] = 0.5 * uni(gen);
  // Contacts approach (w_n < 0, so most close) and slide sideways by up to 1.5 m/s: a mix of
  // open, stick and slip at the solution.
  const std::vector<Index> offsets = block_offsets(blocks);
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    if (block_size(blocks[b].kind) != 3) continue;
    w[offsets[b]] = -std::fabs(uni(gen)) + 0.2;
    w[offsets[b] + 1] = 1.5 * uni(gen);
    w[offsets[b] + 2] = 1.5 * uni(gen);
  }
  p.M = dense_to_csr(M);
  p.H = dense_to_csr(H);
  p.f = f;
  p.w = w;
  return p;
}

// nc circular-cone contacts with mu in [0.2, 0.9], plus one unilateral and one bilateral row.
inline std::vector<ConstraintBlock> mixed_blocks(unsigned seed, int nc) {
  std::mt19937 gen(seed + 1000);
  std::uniform_real_distribution<double> mu(0.2, 0.9);
  std::vector<ConstraintBlock> blocks;
  for (int c = 0; c < nc; ++c) blocks.push_back({BlockKind::kContact, mu(gen)});
  blocks.push_back({BlockKind::kUnilateral, 0.0});
  blocks.push_back({BlockKind::kBilateral, 0.0});
  return blocks;
}

}  // namespace sinew::constraints::testing
