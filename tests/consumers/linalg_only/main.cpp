// Uses sinew::linalg alone: the sparse inverse factor S = L^-1 of a 2-D Laplacian (so that
// x = S^T S b) and conjugate gradient, both checked against Eigen's direct sparse solve.
// Exits 1 when an answer is off.
#include <Eigen/SparseCholesky>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/serial_backend.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace {

// The 5-point Laplacian of an n x n grid with Dirichlet boundary, plus a small shift: SPD.
sinew::EigenCsr laplacian_2d(int n) {
  std::vector<Eigen::Triplet<double, sinew::Index>> entries;
  auto id = [n](int i, int j) { return static_cast<sinew::Index>(i + n * j); };
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      entries.emplace_back(id(i, j), id(i, j), 4.01);
      if (i > 0) entries.emplace_back(id(i, j), id(i - 1, j), -1.0);
      if (i + 1 < n) entries.emplace_back(id(i, j), id(i + 1, j), -1.0);
      if (j > 0) entries.emplace_back(id(i, j), id(i, j - 1), -1.0);
      if (j + 1 < n) entries.emplace_back(id(i, j), id(i, j + 1), -1.0);
    }
  sinew::EigenCsr A(n * n, n * n);
  A.setFromTriplets(entries.begin(), entries.end());
  return A;
}

bool check(const char* what, const Eigen::VectorXd& x, const Eigen::VectorXd& want, double tolerance) {
  const double error = (x - want).norm() / want.norm();
  std::printf("%-32s relative error %.2e (tolerance %.0e)\n", what, error, tolerance);
  return error < tolerance;
}

}  // namespace

int main() {
  const sinew::EigenCsr A_eigen = laplacian_2d(40);
  const sinew::CsrMatrix A = sinew::from_eigen(A_eigen);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows, -1.0, 2.0);

  // Reference: Eigen's sparse LDL^T, independent of sinew.
  const Eigen::SparseMatrix<double> A_col = A_eigen;
  const Eigen::VectorXd want = Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>>(A_col).solve(b);

  // Sparse inverse: factor once, then every solve is two sparse products.
  const sinew::SparseInverse S(A);
  std::printf("sparse inverse: %lld dofs, nnz(L) = %zu, nnz(S) = %zu\n", static_cast<long long>(S.dofs()),
              S.factor_nnz(), S.nnz());
  bool ok = check("x = S^T S b", S.apply(b), want, 1e-10);

  // Conjugate gradient on core's serial reference backend, without the backend registry: one call
  // from host data.
  const std::unique_ptr<sinew::Backend> backend = sinew::make_serial_backend();
  Eigen::VectorXd x;
  const sinew::KrylovResult result = sinew::conjugate_gradient(*backend, A, b, x);
  std::printf("cg: %s after %d iterations\n", result.converged() ? "converged" : result.message.c_str(),
              result.iterations);
  ok = result.converged() && check("conjugate gradient", x, want, 1e-8) && ok;

  std::printf("%s\n", ok ? "linalg_only: OK" : "linalg_only: FAILED");
  return ok ? 0 : 1;
}
