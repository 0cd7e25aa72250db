// Regularized KKT systems (ArtiSynth notes 0.11): agreement with a dense solve of the whole
// system, the hard limit as the compliance vanishes, the softening terms and a soft spring.
#include "sinew/linalg/regularized_kkt.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"

namespace sinew::linalg_regularized_kkt_test {
namespace {

// The whole (n + m) system [M -G^T; G C] solved by a dense LU, independently of RegularizedKkt.
KktSolution dense_kkt(const Eigen::MatrixXd& M, const Eigen::MatrixXd& G, const Eigen::VectorXd& C,
                      const Eigen::VectorXd& b, const Eigen::VectorXd& c) {
  const Eigen::Index n = M.rows(), m = G.rows();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, m) = -G.transpose();
  K.bottomLeftCorner(m, n) = G;
  K.bottomRightCorner(m, m) = C.asDiagonal();
  Eigen::VectorXd rhs(n + m);
  rhs << b, c;
  const Eigen::VectorXd y = K.fullPivLu().solve(rhs);
  return {y.head(n), y.tail(m)};
}

TEST(RegularizedKkt, MatchesADenseSolveOfTheWholeSystem) {
  const Eigen::Index n = 12, m = 5;
  const Eigen::MatrixXd M = test::random_dense_spd(n, 50.0, 1);
  const Eigen::MatrixXd G = test::random_matrix(m, n, 2);
  const Eigen::VectorXd b = test::random_dense_vector(n, 3), c = test::random_dense_vector(m, 4);
  for (double scale : {0.0, 1e-6, 1e-2, 1.0}) {
    SCOPED_TRACE("compliance scale " + std::to_string(scale));
    const Eigen::VectorXd C = scale * test::random_dense_vector(m, 5, 0.5, 2.0);
    const RegularizedKkt kkt(M, G, C);
    EXPECT_EQ(kkt.num_velocities(), n);
    EXPECT_EQ(kkt.num_constraints(), m);
    const KktSolution s = kkt.solve(b, c);
    const KktSolution want = dense_kkt(M, G, C, b, c);
    EXPECT_LT((s.v - want.v).norm(), 1e-12 * want.v.norm());
    EXPECT_LT((s.lambda - want.lambda).norm(), 1e-12 * want.lambda.norm());
    // And the equations themselves.
    EXPECT_LT((M * s.v - G.transpose() * s.lambda - b).norm(), 1e-12);
    EXPECT_LT((G * s.v + C.asDiagonal() * s.lambda - c).norm(), 1e-12);
  }
  EXPECT_LT((RegularizedKkt(M, G, Eigen::VectorXd()).solve_mass(b) - M.llt().solve(b)).norm(), 1e-13);
}

TEST(RegularizedKkt, TendsToTheHardSolutionLinearlyInTheCompliance) {
  const Eigen::Index n = 10, m = 4;
  const Eigen::MatrixXd M = test::random_dense_spd(n, 10.0, 6);
  const Eigen::MatrixXd G = test::random_matrix(m, n, 7);
  const Eigen::VectorXd b = test::random_dense_vector(n, 8), c = test::random_dense_vector(m, 9);
  const RegularizedKkt hard(M, G, Eigen::VectorXd());
  const KktSolution s0 = hard.solve(b, c);
  // First order: lambda(eps) = (S + eps I)^-1 r = lambda_0 - eps S^-1 lambda_0 + O(eps^2).
  const Eigen::VectorXd slope = hard.schur_complement().llt().solve(s0.lambda);
  for (int k = 4; k <= 9; ++k) {
    const double eps = std::pow(10.0, -k);
    const KktSolution s = RegularizedKkt(M, G, Eigen::VectorXd::Constant(m, eps)).solve(b, c);
    const double err = (s.lambda - s0.lambda).norm();
    SCOPED_TRACE("compliance " + std::to_string(eps));
    EXPECT_NEAR(err / (eps * slope.norm()), 1.0, 0.01);
    EXPECT_LT((G * s.v - c).norm(), 2.0 * eps * s0.lambda.norm());  // the constraint is violated by C lambda
  }
}

TEST(RegularizedKkt, RedundantConstraintsNeedCompliance) {
  const Eigen::Index n = 8;
  const Eigen::MatrixXd M = test::random_dense_spd(n, 10.0, 10);
  Eigen::MatrixXd G(3, n);
  G.topRows(2) = test::random_matrix(2, n, 11);
  G.row(2) = G.row(0);  // the same constraint twice
  const Eigen::VectorXd b = test::random_dense_vector(n, 12);
  Eigen::VectorXd c = test::random_dense_vector(3, 13);
  c[2] = c[0];
  EXPECT_SINEW_ERROR(RegularizedKkt(M, G, Eigen::VectorXd()), "Schur complement", "singular",
                     "positive compliance on redundant constraints");
  const Eigen::VectorXd C = Eigen::VectorXd::Constant(3, 1e-4);
  const KktSolution s = RegularizedKkt(M, G, C).solve(b, c);
  const KktSolution want = dense_kkt(M, G, C, b, c);
  EXPECT_LT((s.v - want.v).norm(), 1e-10 * want.v.norm());
  EXPECT_LT((s.lambda - want.lambda).norm(), 1e-10 * want.lambda.norm());
  EXPECT_NEAR(s.lambda[0], s.lambda[2], 1e-10 * std::abs(s.lambda[0]));  // equal compliance shares the load equally
  // Two copies of a constraint with compliance c act as one with compliance c / 2 (parallel springs).
  const KktSolution single = RegularizedKkt(M, G.topRows(2), Eigen::Vector2d(0.5e-4, 1e-4)).solve(b, c.head(2));
  EXPECT_NEAR(s.lambda[0] + s.lambda[2], single.lambda[0], 1e-10 * std::abs(single.lambda[0]));
  EXPECT_LT((s.v - single.v).norm(), 1e-10 * single.v.norm());
}

TEST(RegularizedKkt, SofteningTermsFollowEquationZeroEight) {
  const Eigen::Index m = 3;
  const double h = 0.01;
  const Eigen::VectorXd alpha = test::random_dense_vector(m, 14, 1e-4, 1e-2);
  Eigen::VectorXd beta = test::random_dense_vector(m, 15, 0.0, 0.05);
  beta[0] = 0.0;
  const Eigen::VectorXd phi = test::random_dense_vector(m, 16, -0.01, 0.01);
  const SoftConstraintTerms t = soften_constraints(alpha, beta, phi, h);
  EXPECT_DOUBLE_EQ(t.gamma[0], 2.0);  // no damping: gamma = 2
  for (Eigen::Index i = 0; i < m; ++i) {
    EXPECT_DOUBLE_EQ(t.gamma[i], 1.0 / (0.5 + beta[i] / h));
    EXPECT_DOUBLE_EQ(t.compliance[i], t.gamma[i] * alpha[i] / (h * h));
    EXPECT_DOUBLE_EQ(t.rhs[i], -t.gamma[i] * phi[i] / h);
  }
  // Solved with these terms, the impulse lambda = h lambda_bar satisfies eq. (0.8):
  // alpha lambda_bar = -phi_k - (h/2 + beta) G v.
  const Eigen::Index n = 9;
  const Eigen::MatrixXd M = test::random_dense_spd(n, 10.0, 17);
  const Eigen::MatrixXd G = test::random_matrix(m, n, 18);
  const KktSolution s = RegularizedKkt(M, G, t.compliance).solve(test::random_dense_vector(n, 19), t.rhs);
  const Eigen::VectorXd Gv = G * s.v;
  for (Eigen::Index i = 0; i < m; ++i)
    EXPECT_NEAR(alpha[i] * s.lambda[i] / h, -phi[i] - (h / 2 + beta[i]) * Gv[i], 1e-14);
}

TEST(RegularizedKkt, SoftSpringStepHasTheClosedForm) {
  // A particle of mass m on a soft constraint phi = x with stiffness k (alpha = 1/k), no
  // damping: m v1 = m v0 + h lambda_bar and lambda_bar = -k (phi_0 + h v1 / 2), so
  // v1 = (m v0 - h k phi_0) / (m + k h^2 / 2).
  const double m = 2.0, k = 500.0, h = 0.01, v0 = 0.3, phi0 = 0.02;
  const SoftConstraintTerms t = soften_constraints(Eigen::VectorXd::Constant(1, 1.0 / k), Eigen::VectorXd::Zero(1),
                                                   Eigen::VectorXd::Constant(1, phi0), h);
  const RegularizedKkt kkt(Eigen::MatrixXd::Constant(1, 1, m), Eigen::MatrixXd::Ones(1, 1), t.compliance);
  const KktSolution s = kkt.solve(Eigen::VectorXd::Constant(1, m * v0), t.rhs);
  EXPECT_NEAR(s.v[0], (m * v0 - h * k * phi0) / (m + k * h * h / 2), 1e-14);
  EXPECT_NEAR(s.lambda[0], h * -k * (phi0 + h * s.v[0] / 2), 1e-14);
  // Nearly rigid: the step makes the average (phi_0 + phi_1) / 2 = phi_0 + h v1 / 2 vanish, v1 -> -2 phi_0 / h.
  const SoftConstraintTerms stiff = soften_constraints(Eigen::VectorXd::Constant(1, 1e-12), Eigen::VectorXd::Zero(1),
                                                       Eigen::VectorXd::Constant(1, phi0), h);
  const KktSolution hard =
      RegularizedKkt(Eigen::MatrixXd::Constant(1, 1, m), Eigen::MatrixXd::Ones(1, 1), stiff.compliance)
          .solve(Eigen::VectorXd::Constant(1, m * v0), stiff.rhs);
  EXPECT_NEAR(hard.v[0], -2.0 * phi0 / h, 1e-6);
}

TEST(RegularizedKkt, RejectsBadInput) {
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(3, 3);
  const Eigen::MatrixXd G = Eigen::MatrixXd::Ones(1, 3);
  EXPECT_SINEW_ERROR(RegularizedKkt(Eigen::MatrixXd::Identity(3, 2), G, Eigen::VectorXd()), "M is 3x2");
  EXPECT_SINEW_ERROR(RegularizedKkt(M, Eigen::MatrixXd::Ones(1, 2), Eigen::VectorXd()), "G is 1x2",
                     "expected 3 columns");
  EXPECT_SINEW_ERROR(RegularizedKkt(M, G, Eigen::VectorXd::Ones(2)), "compliance has 2 entries", "expected 0 or 1");
  EXPECT_SINEW_ERROR(RegularizedKkt(M, G, -Eigen::VectorXd::Ones(1)), "expected compliance >= 0");
  Eigen::MatrixXd bad = M;
  bad(0, 1) = 0.5;
  EXPECT_SINEW_ERROR(RegularizedKkt(bad, G, Eigen::VectorXd()), "M is not symmetric");
  bad = -M;
  EXPECT_SINEW_ERROR(RegularizedKkt(bad, G, Eigen::VectorXd()), "M is not positive definite");
  bad = M;
  bad(2, 2) = std::nan("");
  EXPECT_SINEW_ERROR(RegularizedKkt(bad, G, Eigen::VectorXd()), "non-finite");
  const RegularizedKkt kkt(M, G, Eigen::VectorXd());
  EXPECT_SINEW_ERROR(kkt.solve(Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(1)), "b has 2 and c 1 entries",
                     "expected 3 and 1");
  EXPECT_SINEW_ERROR(kkt.solve_mass(Eigen::VectorXd::Zero(4)), "x has 4 entries, expected 3");
  const Eigen::VectorXd one = Eigen::VectorXd::Ones(1);
  EXPECT_SINEW_ERROR(soften_constraints(one, one, one, 0.0), "h = 0", "expected a step size > 0");
  EXPECT_SINEW_ERROR(soften_constraints(-one, one, one, 0.1), "alpha[0] = -1", "expected finite alpha >= 0");
  EXPECT_SINEW_ERROR(soften_constraints(one, -one, one, 0.1), "beta[0] = -1", "expected finite beta >= 0");
  EXPECT_SINEW_ERROR(soften_constraints(one, Eigen::VectorXd::Ones(2), one, 0.1), "expected equal sizes");
}

}  // namespace
}  // namespace sinew::linalg_regularized_kkt_test
