// Assemble a sparse SPD matrix from local blocks, factor it, build its sparse inverse factor
// S = L^-1 (A^-1 = S^T S), and solve the same system with conjugate gradient on a backend.
#include <cmath>
#include <cstdio>

#include <Eigen/Core>

#include "sinew/backends/registry.hpp"
#include "sinew/linalg/assembly.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/linear_operator.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

int main() {
  // A chain of n nodes joined by springs of stiffness k, plus a mass term m on the diagonal:
  // A = M + K is the matrix of an implicit step. Each spring adds k [1 -1; -1 1] at (i, i+1).
  const sinew::Index n = 200;
  const double k = 100.0, m = 1.0;
  sinew::MatrixAssembler assembler(n, n);
  Eigen::Matrix2d spring;
  spring << k, -k, -k, k;
  for (sinew::Index i = 0; i + 1 < n; ++i) assembler.add_scattered({i, i + 1}, spring);
  for (sinew::Index i = 0; i < n; ++i) assembler.add(i, i, m);
  const sinew::CsrMatrix A = assembler.build();  // duplicates summed, columns sorted

  Eigen::VectorXd b(n);
  for (sinew::Index i = 0; i < n; ++i) b[i] = std::sin(0.1 * double(i));

  // Direct: sparse Cholesky (CHOLMOD, nested-dissection ordering).
  sinew::CholmodSolver cholesky;
  cholesky.compute(A);
  const Eigen::VectorXd x_direct = cholesky.solve(b);

  //! [sparse_inverse]
  // Sparse inverse: x = S^T (S b), two sparse products (realtime paper, eqs. (7)-(8)).
  const sinew::SparseInverse inverse(A);
  const Eigen::VectorXd x_inverse = inverse.apply(b);
  //! [sparse_inverse]
  std::printf("L: %zu entries, S = L^-1: %zu entries\n", inverse.factor_nnz(), inverse.nnz());

  // Iterative: conjugate gradient with a Jacobi preconditioner, on any backend.
  auto backend = sinew::make_backend("serial");
  const sinew::DeviceCsr A_device = sinew::to_device(*backend, A);
  sinew::CsrOperator op(*backend, A_device);
  std::vector<double> inverse_diagonal(n), b_host(b.data(), b.data() + n);
  for (sinew::Index i = 0; i < n; ++i) inverse_diagonal[i] = 1.0 / (m + (i == 0 || i == n - 1 ? k : 2 * k));
  sinew::DeviceArray<double> b_device = backend->upload(b_host);
  sinew::DeviceArray<double> x_device = backend->upload(std::vector<double>(n, 0.0));
  sinew::DeviceArray<double> diag_device = backend->upload(inverse_diagonal);
  sinew::ConjugateGradient cg(*backend);
  sinew::KrylovOptions options;
  options.tolerance = 1e-12;
  const sinew::KrylovResult result = cg.solve(op, b_device, x_device, options, &diag_device);
  const std::vector<double> x_cg_host = backend->download(x_device);
  const Eigen::VectorXd x_cg = Eigen::Map<const Eigen::VectorXd>(x_cg_host.data(), n);

  // The three answers agree.
  const double e_inverse = (x_inverse - x_direct).norm() / x_direct.norm();
  const double e_cg = (x_cg - x_direct).norm() / x_direct.norm();
  std::printf("CG: %d iterations (%s); |x_S - x_chol|/|x| = %.2e, |x_cg - x_chol|/|x| = %.2e\n", result.iterations,
              result.converged() ? "converged" : result.message.c_str(), e_inverse, e_cg);
  return (result.converged() && e_inverse < 1e-12 && e_cg < 1e-9) ? 0 : 1;
}
