// Auxiliary constraints by constraint anticipation (Baraff, Section 8): loop closures as
// equalities, rows with explicit force directions, contacts solved as an LCP by an in-test brute
// force solver, the two-phase API, and the errors of the auxiliary entry points.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "baraff_test_problems.hpp"
#include "expect_error.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::linalg_baraff_auxiliary_test {
namespace {

using test::baraff_rel_error;
using test::BaraffDense;
using test::BaraffInput;

constexpr double kTol = 1e-10;  // relative agreement with the dense reference

// A rigid-body tree (n bodies, grounded) with loop-closing rows: each loop is a 3-D joint
// (three rows) between two bodies already connected through the tree, plus single-body rows.
BaraffInput tree_with_loops(int n, int loops, bool workless, std::mt19937_64& rng) {
  BaraffInput in = test::baraff_random_input(std::vector<int>(n, 6), test::baraff_tree_edges(n, true, rng), 3, rng);
  for (int l = 0; l < loops; ++l) {
    const int a = static_cast<int>(rng() % n);
    int b = static_cast<int>(rng() % n);
    if (b == a) b = (a + 1) % n;
    for (int r = 0; r < 3; ++r) in.auxiliary.push_back(test::baraff_random_row(in, {a, b}, workless, rng));
  }
  in.auxiliary.push_back(test::baraff_random_row(in, {static_cast<int>(rng() % n)}, workless, rng));
  return in;
}

// Equality solve against the dense KKT system with every auxiliary row active.
void expect_equalities_match_dense(const BaraffInput& in, const BaraffSolver& solver, std::mt19937_64& rng) {
  const BaraffDense dense(in);
  const int k = static_cast<int>(in.auxiliary.size());
  const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
  const Eigen::VectorXd ca = test::baraff_random_matrix(k, 1, rng);
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, c, ca, ws, out);
  std::vector<int> all(k);
  for (int i = 0; i < k; ++i) all[i] = i;
  Eigen::VectorXd v_ref, lambda_ref, mu_ref;
  dense.solve(F, c, ca, all, v_ref, lambda_ref, mu_ref);
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
  EXPECT_LT(baraff_rel_error(out.mu, mu_ref), kTol);
  EXPECT_LT(baraff_rel_error(out.acceleration, v_ref), kTol);
  EXPECT_LT(out.aux_value.norm(), kTol * ca.norm());  // a = 0 (eq. (10))
  EXPECT_LT((dense.J * out.acceleration + c).norm(), kTol * (F.norm() + c.norm()));
}

TEST(BaraffAuxiliary, LoopClosuresMatchDenseSolve) {
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    std::mt19937_64 rng(seed);
    const BaraffInput in = tree_with_loops(25, 2, true, rng);
    BaraffSolverOptions options;
    options.refinement_steps = static_cast<int>(seed % 2);  // the refined path too
    const BaraffSolver solver(in.problem(), options);
    EXPECT_EQ(solver.num_auxiliary(), 7);
    SCOPED_TRACE(seed);
    expect_equalities_match_dense(in, solver, rng);
  }
}

TEST(BaraffAuxiliary, LoopClosingAChainIntoARing) {
  // The classic case of Section 1.1: bodies 0..n-1 in a chain, the ring closed by an auxiliary
  // 3-D joint between the last and the first body. Particles (d = 3) with 2-D links.
  std::mt19937_64 rng(5);
  const int n = 30;
  BaraffInput in = test::baraff_random_input(std::vector<int>(n, 3), test::baraff_chain_edges(n, false), 2, rng);
  for (int r = 0; r < 2; ++r) in.auxiliary.push_back(test::baraff_random_row(in, {n - 1, 0}, true, rng));
  const BaraffSolver solver(in.problem());
  expect_equalities_match_dense(in, solver, rng);
}

TEST(BaraffAuxiliary, RowsWithExplicitForceDirectionsUseLu) {
  // Non-workless rows (K != J^a^T): the matrix of eq. (12) is not symmetric.
  for (std::uint64_t seed : {11u, 12u}) {
    std::mt19937_64 rng(seed);
    const BaraffInput in = tree_with_loops(20, 1, false, rng);
    const BaraffSolver solver(in.problem());
    const Eigen::MatrixXd& A = solver.auxiliary_matrix();
    EXPECT_GT((A - A.transpose()).norm(), 1e-3 * A.norm());
    SCOPED_TRACE(seed);
    expect_equalities_match_dense(in, solver, rng);
  }
}

TEST(BaraffAuxiliary, BothDenseMethodsAgreeOnWorklessRows) {
  std::mt19937_64 rng(15);
  const BaraffInput in = tree_with_loops(20, 2, true, rng);
  for (auto method : {BaraffAuxiliaryMethod::kLdlt, BaraffAuxiliaryMethod::kPartialPivLu}) {
    BaraffSolverOptions options;
    options.auxiliary_method = method;
    const BaraffSolver solver(in.problem(), options);
    std::mt19937_64 rhs_rng(16);
    expect_equalities_match_dense(in, solver, rhs_rng);
  }
}

TEST(BaraffAuxiliary, AuxiliaryMatrixIsJaMhatInverseK) {
  // M_hat^-1 = M^-1 - M^-1 J^T (J M^-1 J^T)^-1 J M^-1: the response with the primary constraints
  // holding (Section 8.1).
  std::mt19937_64 rng(21);
  const BaraffInput in = tree_with_loops(18, 2, false, rng);
  const BaraffDense d(in);
  const Eigen::MatrixXd Minv = d.M.inverse();
  const Eigen::MatrixXd A = d.J * Minv * d.J.transpose();
  const Eigen::MatrixXd Mhat_inv = Minv - Minv * d.J.transpose() * A.ldlt().solve(d.J * Minv);
  const Eigen::MatrixXd expected = d.Ja * Mhat_inv * d.Kt.transpose();
  const BaraffSolver solver(in.problem());
  EXPECT_LT((solver.auxiliary_matrix() - expected).norm(), kTol * expected.norm());
}

TEST(BaraffAuxiliary, RowsAcrossComponentsOfAForest) {
  // Two separate grounded chains and a floating tree; rows join different components
  // (Section 1.1: "two different chains colliding with each other").
  std::mt19937_64 rng(31);
  std::vector<std::pair<int, int>> edges = test::baraff_chain_edges(10, true, 0);
  for (const auto& e : test::baraff_chain_edges(10, true, 10)) edges.push_back(e);
  for (const auto& e : test::baraff_tree_edges(10, false, rng, 20)) edges.push_back(e);
  BaraffInput in = test::baraff_random_input(std::vector<int>(30, 6), edges, 5, rng);
  in.auxiliary = {test::baraff_random_row(in, {9, 19}, true, rng), test::baraff_random_row(in, {5, 25}, true, rng),
                  test::baraff_random_row(in, {3, 14, 27}, true, rng)};
  const BaraffSolver solver(in.problem());
  EXPECT_EQ(solver.num_components(), 3);
  expect_equalities_match_dense(in, solver, rng);
}

TEST(BaraffAuxiliary, ContactsSolvedAsLcpAreComplementary) {
  // Six frictionless contacts (workless rows; a >= 0, mu >= 0, a mu = 0) on a grounded tree,
  // solved by the brute-force LCP through the callback; then compared with the dense KKT system
  // in which exactly the active contacts are equalities.
  int mixed_cases = 0;
  for (std::uint64_t seed = 40; seed < 46; ++seed) {
    std::mt19937_64 rng(seed);
    const int n = 24;
    BaraffInput in = test::baraff_random_input(std::vector<int>(n, 6), test::baraff_tree_edges(n, true, rng), 3, rng);
    for (int i = 0; i < 6; ++i) {
      const int a = static_cast<int>(rng() % n);
      const int b = (a + 1 + static_cast<int>(rng() % (n - 1))) % n;
      in.auxiliary.push_back(
          test::baraff_random_row(in, i % 2 ? std::vector<int>{a} : std::vector<int>{a, b}, true, rng));
    }
    const BaraffDense dense(in);
    const BaraffSolver solver(in.problem());
    const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
    const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
    const Eigen::VectorXd ca = test::baraff_random_matrix(6, 1, rng);
    BaraffWorkspace ws;
    BaraffSolution out;
    int calls = 0;
    solver.solve(
        F, c, ca,
        [&](const Eigen::MatrixXd& A, const Eigen::VectorXd& q) {
          ++calls;
          return test::baraff_brute_force_lcp(A, q);
        },
        ws, out);
    EXPECT_EQ(calls, 1);
    SCOPED_TRACE(seed);
    const double scale = out.aux_value.cwiseAbs().maxCoeff() + out.mu.cwiseAbs().maxCoeff();
    std::vector<int> active;
    for (int i = 0; i < 6; ++i) {
      EXPECT_GE(out.mu[i], 0.0);
      EXPECT_GE(out.aux_value[i], -kTol * scale);
      EXPECT_LE(std::abs(out.mu[i] * out.aux_value[i]), kTol * scale * scale);
      if (out.mu[i] > 0.0) active.push_back(i);
    }
    mixed_cases += !active.empty() && active.size() < 6;
    Eigen::VectorXd v_ref, lambda_ref, mu_ref;
    dense.solve(F, c, ca, active, v_ref, lambda_ref, mu_ref);
    EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
    EXPECT_LT(baraff_rel_error(out.acceleration, v_ref), kTol);
    EXPECT_LT((out.mu - mu_ref).norm(), kTol * mu_ref.norm());
    // aux_value is the a of eq. (10) at the final motion.
    EXPECT_LT((out.aux_value - (dense.Ja * out.acceleration + ca)).norm(), kTol * scale);
  }
  EXPECT_GE(mixed_cases, 4);  // the seeds exercise both open and closed contacts
}

TEST(BaraffAuxiliary, TwoPhaseApiFinishesFromGivenMultipliers) {
  // auxiliary_rhs() then finish() with an arbitrary mu: the motion under F + K mu with the
  // primary constraints holding, and a = A mu + q (eq. (12)).
  std::mt19937_64 rng(51);
  const BaraffInput in = tree_with_loops(20, 1, false, rng);
  const BaraffDense dense(in);
  const BaraffSolver solver(in.problem());
  const int k = solver.num_auxiliary();
  BaraffWorkspace ws;
  BaraffSolution out;
  for (int r = 0; r < 3; ++r) {
    const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
    const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
    const Eigen::VectorXd ca = test::baraff_random_matrix(k, 1, rng);
    const Eigen::VectorXd q = solver.auxiliary_rhs(F, c, ca, ws);
    const Eigen::VectorXd mu = test::baraff_random_matrix(k, 1, rng);
    solver.finish(mu, ws, out);
    Eigen::VectorXd v_ref, lambda_ref, unused;
    dense.solve(F + dense.Kt.transpose() * mu, c, ca, {}, v_ref, lambda_ref, unused);
    EXPECT_LT(baraff_rel_error(out.acceleration, v_ref), kTol);
    EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
    EXPECT_EQ(out.mu, mu);
    const Eigen::VectorXd a = solver.auxiliary_matrix() * mu + q;
    EXPECT_LT((out.aux_value - a).norm(), kTol * a.norm());
  }
}

TEST(BaraffAuxiliary, OneFactorizationManyRightHandSides) {
  std::mt19937_64 rng(61);
  const BaraffInput in = tree_with_loops(22, 2, true, rng);
  const BaraffSolver solver(in.problem());
  for (int r = 0; r < 10; ++r) expect_equalities_match_dense(in, solver, rng);
}

TEST(BaraffAuxiliary, RefactorWithDifferentAuxiliaryRows) {
  // Contacts come and go while the primary tree stays: factor() accepts new auxiliary rows.
  std::mt19937_64 rng(71);
  BaraffInput in = tree_with_loops(16, 1, true, rng);
  BaraffSolver solver(in.problem());
  in.auxiliary.resize(2);
  in.auxiliary.push_back(test::baraff_random_row(in, {3, 7}, false, rng));
  solver.factor(in.problem());
  EXPECT_EQ(solver.num_auxiliary(), 3);
  expect_equalities_match_dense(in, solver, rng);
  in.auxiliary.clear();
  solver.factor(in.problem());
  EXPECT_EQ(solver.num_auxiliary(), 0);
  BaraffWorkspace ws;
  BaraffSolution out;
  const BaraffDense dense(in);
  const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
  solver.solve(F, c, Eigen::VectorXd(), ws, out);  // k = 0 through the auxiliary overload
  Eigen::VectorXd v_ref, lambda_ref, mu_ref;
  dense.solve(F, c, Eigen::VectorXd(), {}, v_ref, lambda_ref, mu_ref);
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
}

TEST(BaraffAuxiliary, EntryPointsCheckTheirInputs) {
  std::mt19937_64 rng(81);
  BaraffInput in = tree_with_loops(8, 1, true, rng);
  BaraffSolver solver(in.problem());
  const BaraffDense dense(in);
  const Eigen::VectorXd F = Eigen::VectorXd::Zero(dense.M.rows());
  const Eigen::VectorXd c = Eigen::VectorXd::Zero(dense.J.rows());
  const Eigen::VectorXd ca = Eigen::VectorXd::Ones(4);
  BaraffWorkspace ws;
  BaraffSolution out;
  EXPECT_SINEW_ERROR(solver.solve(F, c, ws, out), "4 auxiliary constraints", "aux_bias");
  EXPECT_SINEW_ERROR(solver.solve(F, c, Eigen::VectorXd::Zero(3), ws, out), "aux_bias", "(4)", "got 3");
  EXPECT_SINEW_ERROR(solver.finish(Eigen::VectorXd::Zero(4), ws, out), "not prepared by auxiliary_rhs");
  solver.auxiliary_rhs(F, c, ca, ws);
  EXPECT_SINEW_ERROR(solver.finish(Eigen::VectorXd::Zero(2), ws, out), "mu must have", "got 2");
  EXPECT_SINEW_ERROR(solver.finish(Eigen::VectorXd::Constant(4, std::nan("")), ws, out), "non-finite");
  solver.factor(in.problem());  // a new factorization invalidates the prepared state
  EXPECT_SINEW_ERROR(solver.finish(Eigen::VectorXd::Zero(4), ws, out), "not prepared");
  EXPECT_SINEW_ERROR(
      solver.solve(
          F, c, ca, [](const Eigen::MatrixXd&, const Eigen::VectorXd&) { return Eigen::VectorXd(3); }, ws, out),
      "auxiliary solver must return mu with 4 entries", "got 3");
  EXPECT_SINEW_ERROR(solver.solve(F, c, ca, BaraffAuxiliarySolve(), ws, out), "callback is empty");
  // A loop closed twice: two identical rows make eq. (12) singular and inconsistent.
  in.auxiliary.push_back(in.auxiliary[0]);
  const BaraffSolver twice(in.problem());
  EXPECT_SINEW_ERROR(twice.solve(F, c, Eigen::VectorXd::LinSpaced(5, 1.0, 5.0), ws, out), "singular", "redundant");
}

}  // namespace
}  // namespace sinew::linalg_baraff_auxiliary_test
