// The Krylov solvers on every compiled-in backend against the serial backend: same convergence,
// same solution within the tolerance's reach.
#include <gtest/gtest.h>

#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/krylov.hpp"

namespace sinew::backends_krylov_conformance_test {
namespace {

struct Outcome {
  KrylovResult result;
  std::vector<double> x;
};

Outcome solve_on(Backend& b, const std::string& solver, const CsrMatrix& A, bool jacobi) {
  const DeviceCsr dA = to_device(b, A);
  CsrOperator op(b, dA);
  std::vector<double> rhs(static_cast<std::size_t>(A.rows)), inv(rhs.size());
  for (Index i = 0; i < A.rows; ++i) {
    rhs[i] = std::cos(0.1 * i);
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      if (A.col_idx[k] == i) inv[i] = 1.0 / A.values[k];
  }
  DeviceArray<double> db = b.upload(rhs), dx = b.allocate<double>(rhs.size()), dinv = b.upload(inv);
  b.fill(dx, 0.0);
  std::unique_ptr<KrylovSolver> s;
  if (solver == "cg") s = std::make_unique<ConjugateGradient>(b);
  if (solver == "cr") s = std::make_unique<ConjugateResidual>(b);
  if (solver == "minres") s = std::make_unique<Minres>(b);
  Outcome o;
  o.result = s->solve(op, db, dx, KrylovOptions{1e-10, 1000, true}, jacobi ? &dinv : nullptr);
  o.x = b.download(dx);
  return o;
}

class KrylovConformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const BackendInfo& info : builtin_backends().list())
      if (info.name == GetParam() && !info.usable) GTEST_SKIP() << GetParam() << ": " << info.where;
    b = make_backend(GetParam());
    ref = make_backend("serial");
  }
  std::unique_ptr<Backend> b, ref;
};

TEST_P(KrylovConformance, EverySolverAgreesWithSerial) {
  const CsrMatrix A = to_csr(fem_grid_matrix({10, 9, 8}));
  for (const char* solver : {"cg", "cr", "minres"})
    for (bool jacobi : {false, true}) {
      const Outcome got = solve_on(*b, solver, A, jacobi), want = solve_on(*ref, solver, A, jacobi);
      ASSERT_TRUE(want.result.converged()) << solver << ": " << want.result.message;
      EXPECT_TRUE(got.result.converged()) << solver << ": " << got.result.message;
      // Rounding differs between backends only in reductions: at most a couple of iterations.
      EXPECT_NEAR(got.result.iterations, want.result.iterations, 2) << solver;
      // Both are within 1e-10 relative residual of the solution; cond(A) is below 100 here.
      double diff = 0, norm = 0;
      for (std::size_t i = 0; i < want.x.size(); ++i) {
        diff = std::max(diff, std::fabs(got.x[i] - want.x[i]));
        norm = std::max(norm, std::fabs(want.x[i]));
      }
      EXPECT_LE(diff, 1e-7 * norm) << solver << (jacobi ? " jacobi" : "");
    }
}

INSTANTIATE_TEST_SUITE_P(AllBackends, KrylovConformance,
                         ::testing::Values(std::string("serial"), std::string("tbb"), std::string("kokkos"),
                                           std::string("cuda")),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace sinew::backends_krylov_conformance_test
