// Uses sinew::linalg alone: the sparse inverse factor S = L^-1 of a 2-D Laplacian (so that
// x = S^T S b) and conjugate gradient, both checked against Eigen's direct sparse solve.
// Exits 1 when an answer is off.
#include <Eigen/SparseCholesky>
#include <cstdio>
#include <string>
#include <vector>

#include "sinew/core/host_memory.hpp"
#include "sinew/core/loop_backend.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/linear_operator.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace {

// The Krylov solvers run on a sinew::Backend. Linking sinew::backends would bring every backend
// library, so this program makes its own one-thread backend from core's LoopBackend: a loop and
// host memory are all a CPU backend needs.
struct PlainLoop : sinew::HostMemory {
  static constexpr bool kHostCode = true;
  template <class F>
  void for_each(std::size_t n, const F& f) const {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  std::string execution_space() const { return "host, one thread"; }
  int concurrency() const { return 1; }
};

class PlainBackend final : public sinew::LoopBackend<PlainLoop> {
 public:
  PlainBackend() : LoopBackend("plain", PlainLoop{}) {}
};

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

  // Conjugate gradient on the backend.
  PlainBackend backend;
  const sinew::DeviceCsr A_device = sinew::to_device(backend, A);
  sinew::CsrOperator op(backend, A_device);
  const sinew::DeviceArray<double> b_device = backend.upload(std::vector<double>(b.data(), b.data() + b.size()));
  sinew::DeviceArray<double> x_device = backend.upload(std::vector<double>(b.size(), 0.0));
  sinew::ConjugateGradient cg(backend);
  const sinew::KrylovResult result = cg.solve(op, b_device, x_device);
  std::printf("cg: %s after %d iterations\n", result.converged() ? "converged" : result.message.c_str(),
              result.iterations);
  const std::vector<double> x = backend.download(x_device);
  ok = result.converged() &&
       check("conjugate gradient", Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()), want, 1e-8) && ok;

  std::printf("%s\n", ok ? "linalg_only: OK" : "linalg_only: FAILED");
  return ok ? 0 : 1;
}
