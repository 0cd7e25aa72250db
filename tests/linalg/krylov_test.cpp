// Krylov solvers on the serial backend against dense solves: SPD, preconditioned, indefinite
// (MINRES), and every way a solve can fail to converge.
#include "sinew/linalg/krylov.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <memory>

#include "expect_error.hpp"
#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/serial_backend.hpp"
#include "sinew/linalg/fem_matrix.hpp"

namespace sinew::linalg_krylov_test {
namespace {

std::vector<double> to_std(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }
Eigen::VectorXd to_vec(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), v.size()); }

// A symmetric indefinite saddle-point matrix [K J^T; J 0] with K SPD and J of full row rank.
CsrMatrix saddle_point(Index n, Index m, std::uint64_t seed) {
  const Eigen::MatrixXd K = Eigen::MatrixXd(to_eigen(test::random_spd(n, 0.1, seed)));
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(m, n);
  for (Index i = 0; i < m; ++i) {
    J(i, i) = 1.0;
    J(i, (i * 7 + 3) % n) += 0.5;
  }
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n + m, n + m);
  H.topLeftCorner(n, n) = K;
  H.topRightCorner(n, m) = J.transpose();
  H.bottomLeftCorner(m, n) = J;
  return from_eigen(H.sparseView().cast<double>().eval());
}

class Krylov : public ::testing::Test {
 protected:
  std::unique_ptr<Backend> b = make_backend("serial");

  KrylovResult run(KrylovSolver& s, const CsrMatrix& A, const Eigen::VectorXd& rhs, Eigen::VectorXd& x,
                   const KrylovOptions& o, bool jacobi = false) {
    const DeviceCsr dA = to_device(*b, A);
    CsrOperator op(*b, dA);
    DeviceArray<double> db = b->upload(to_std(rhs)), dx = b->upload(to_std(x));
    std::vector<double> inv(static_cast<std::size_t>(A.rows));
    for (Index i = 0; i < A.rows; ++i)
      for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
        if (A.col_idx[k] == i) inv[i] = 1.0 / A.values[k];
    DeviceArray<double> dinv = b->upload(inv);
    const KrylovResult r = s.solve(op, db, dx, o, jacobi ? &dinv : nullptr);
    x = to_vec(b->download(dx));
    return r;
  }
};

TEST_F(Krylov, SpdSolversMatchADenseSolve) {
  const CsrMatrix A = to_csr(fem_grid_matrix({7, 6, 5}));
  const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(A.rows, -1.0, 1.0);
  const Eigen::VectorXd want = Eigen::MatrixXd(to_eigen(A)).ldlt().solve(rhs);
  ConjugateGradient cg(*b);
  ConjugateResidual cr(*b);
  Minres minres(*b);
  for (KrylovSolver* s : std::vector<KrylovSolver*>{&cg, &cr, &minres})
    for (bool jacobi : {false, true}) {
      Eigen::VectorXd x = Eigen::VectorXd::Zero(A.rows);
      const KrylovResult r = run(*s, A, rhs, x, KrylovOptions{1e-12, 500, true}, jacobi);
      EXPECT_TRUE(r.converged()) << s->name() << " " << r.message;
      EXPECT_LE(r.relative_residual, 1e-11) << s->name();
      EXPECT_LE((x - want).norm(), 1e-10 * want.norm()) << s->name() << (jacobi ? " jacobi" : "");
      EXPECT_EQ(static_cast<int>(r.history.size()), r.iterations);
      EXPECT_GT(r.iterations, 3) << "a non-trivial system";
    }
}

// The one-call solves from host data (core's serial backend, no registry) give the bits of the
// solver objects on device data, with and without Jacobi, and start from zero when x is empty.
TEST_F(Krylov, OneCallSolvesFromHostDataEqualTheSolverObjects) {
  const CsrMatrix A = to_csr(fem_grid_matrix({6, 5, 4}));
  const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(A.rows, -1.0, 1.0);
  Eigen::VectorXd inverse_diagonal(A.rows);
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      if (A.col_idx[k] == i) inverse_diagonal[i] = 1.0 / A.values[k];
  const std::unique_ptr<Backend> serial = make_serial_backend();
  ConjugateGradient cg(*b);
  ConjugateResidual cr(*b);
  Minres mr(*b);
  using OneCall = KrylovResult (*)(Backend&, const CsrMatrix&, const Eigen::VectorXd&, Eigen::VectorXd&,
                                   const KrylovOptions&, const Eigen::VectorXd*);
  const std::pair<KrylovSolver*, OneCall> pairs[] = {
      {&cg, &conjugate_gradient}, {&cr, &conjugate_residual}, {&mr, &minres}};
  for (const auto& [object, one_call] : pairs)
    for (bool jacobi : {false, true}) {
      Eigen::VectorXd want = Eigen::VectorXd::Zero(A.rows), got;
      const KrylovResult a = run(*object, A, rhs, want, KrylovOptions{1e-12, 500, true}, jacobi);
      const KrylovResult c =
          one_call(*serial, A, rhs, got, KrylovOptions{1e-12, 500, true}, jacobi ? &inverse_diagonal : nullptr);
      EXPECT_TRUE(c.converged()) << object->name() << " " << c.message;
      EXPECT_EQ(c.iterations, a.iterations) << object->name();
      EXPECT_EQ(c.history, a.history) << object->name();
      ASSERT_EQ(got.size(), want.size());
      EXPECT_EQ(got, want) << object->name() << (jacobi ? " jacobi" : "");
    }
  Eigen::VectorXd x(3), short_b(2);
  EXPECT_SINEW_ERROR(conjugate_gradient(*serial, A, rhs, x), "conjugate_gradient: x has 3 entries");
  EXPECT_SINEW_ERROR(minres(*serial, A, short_b, x), "minres: b has 2 entries");
  const Eigen::VectorXd bad_diagonal(4);
  x.resize(0);
  EXPECT_SINEW_ERROR(conjugate_residual(*serial, A, rhs, x, {}, &bad_diagonal), "inverse diagonal has 4 entries");
}

TEST_F(Krylov, JacobiHelpsABadlyScaledSystem) {
  CsrMatrix A = test::random_spd(300, 0.02, 11);
  // Scale rows and columns by 10^(i mod 4): condition ~1e6 without preconditioning.
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      A.values[k] *= std::pow(10.0, i % 4) * std::pow(10.0, A.col_idx[k] % 4);
  const Eigen::VectorXd rhs = Eigen::VectorXd::Ones(A.rows);
  ConjugateGradient cg(*b);
  Eigen::VectorXd x0 = Eigen::VectorXd::Zero(A.rows), x1 = x0;
  const KrylovResult plain = run(cg, A, rhs, x0, {1e-10, 2000, true}, false);
  const KrylovResult pcg = run(cg, A, rhs, x1, {1e-10, 2000, true}, true);
  EXPECT_TRUE(pcg.converged());
  EXPECT_LT(2 * pcg.iterations, plain.iterations);
}

TEST_F(Krylov, MinresSolvesASaddlePointWhereCgBreaksDown) {
  const CsrMatrix H = saddle_point(60, 20, 12);
  const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(H.rows, 1.0, 2.0);
  const Eigen::VectorXd want = Eigen::MatrixXd(to_eigen(H)).fullPivLu().solve(rhs);
  Minres minres(*b);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(H.rows);
  const KrylovResult r = run(minres, H, rhs, x, {1e-12, 1000, true});
  EXPECT_TRUE(r.converged()) << r.message;
  EXPECT_LE((x - want).norm(), 1e-9 * want.norm());
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    EXPECT_LE(r.history[k], r.history[k - 1] * (1 + 1e-12)) << "MINRES residuals never grow";
  }
  // CG needs a positive-definite matrix: on the saddle point it reports the breakdown.
  ConjugateGradient cg(*b);
  Eigen::VectorXd y = Eigen::VectorXd::Zero(H.rows);
  const KrylovResult c = run(cg, H, rhs, y, {1e-12, 1000, true});
  EXPECT_FALSE(c.converged());
  EXPECT_EQ(c.status, KrylovStatus::kBreakdown) << c.message;
  EXPECT_NE(c.message.find("positive definite"), std::string::npos) << c.message;
}

TEST_F(Krylov, ConjugateResidualNeverIncreasesTheResidual) {
  const CsrMatrix A = test::random_spd(150, 0.05, 13);
  ConjugateResidual cr(*b);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(A.rows);
  const KrylovResult r = run(cr, A, Eigen::VectorXd::Ones(A.rows), x, {1e-12, 500, true});
  EXPECT_TRUE(r.converged());
  for (std::size_t k = 1; k < r.history.size(); ++k) {
    EXPECT_LE(r.history[k], r.history[k - 1] * (1 + 1e-12));
  }
}

TEST_F(Krylov, ReportsWhenItDidNotConverge) {
  const CsrMatrix A = to_csr(fem_grid_matrix({8, 8, 8}));
  ConjugateGradient cg(*b);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(A.rows);
  // Ones would be an eigenvector (springs do not resist translation): use a ramp.
  const KrylovResult r = run(cg, A, Eigen::VectorXd::LinSpaced(A.rows, -1.0, 1.0), x, {1e-14, 3, true});
  EXPECT_EQ(r.status, KrylovStatus::kMaxIterations);
  EXPECT_FALSE(r.converged());
  EXPECT_EQ(r.iterations, 3);
  EXPECT_NE(r.message.find("did not converge in 3 iterations"), std::string::npos) << r.message;
  EXPECT_GT(r.relative_residual, 1e-14);
}

TEST_F(Krylov, NonFiniteInputIsReported) {
  const CsrMatrix A = test::random_spd(10, 0.3, 14);
  Eigen::VectorXd rhs = Eigen::VectorXd::Ones(10);
  rhs[3] = std::nan("");
  ConjugateGradient cg(*b);
  Eigen::VectorXd x = Eigen::VectorXd::Zero(10);
  const KrylovResult r = run(cg, A, rhs, x, {});
  EXPECT_EQ(r.status, KrylovStatus::kNonFinite) << r.message;
}

TEST_F(Krylov, TrivialCasesAndBadSizes) {
  const CsrMatrix A = test::random_spd(10, 0.3, 15);
  ConjugateGradient cg(*b);
  Eigen::VectorXd x = Eigen::VectorXd::Ones(10);
  const KrylovResult zero = run(cg, A, Eigen::VectorXd::Zero(10), x, {});
  EXPECT_TRUE(zero.converged());
  EXPECT_EQ(x, Eigen::VectorXd::Zero(10));
  const Eigen::VectorXd exact = Eigen::MatrixXd(to_eigen(A)).ldlt().solve(Eigen::VectorXd::Ones(10));
  x = exact;
  const KrylovResult start = run(cg, A, Eigen::VectorXd::Ones(10), x, {1e-8, 10, true});
  EXPECT_TRUE(start.converged());
  EXPECT_EQ(start.iterations, 0);
  const DeviceCsr dA = to_device(*b, A);
  CsrOperator op(*b, dA);
  DeviceArray<double> small = b->allocate<double>(9), ok = b->allocate<double>(10);
  EXPECT_SINEW_ERROR(cg.solve(op, small, ok), "must have 10 entries");
  EXPECT_SINEW_ERROR(cg.solve(op, ok, ok, {}, &small), "inverse diagonal has 9 entries");
}

}  // namespace
}  // namespace sinew::linalg_krylov_test
