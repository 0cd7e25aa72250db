// Lemke's method: ray termination on infeasible problems, nonsymmetric P-matrices, on-demand
// columns (ArtiSynth notes 0.8), pivot limits and rejected input.
#include "sinew/linalg/lcp_lemke.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <set>
#include <string>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"

namespace sinew::linalg_lcp_lemke_test {
namespace {

using test::kInf;

// Column source that records which columns were asked for.
class CountingColumns final : public LcpColumnSource {
 public:
  explicit CountingColumns(const Eigen::MatrixXd& M) : M_(M) {}
  Index size() const override { return static_cast<Index>(M_.rows()); }
  void column(Index j, Eigen::Ref<Eigen::VectorXd> out) const override {
    out = M_.col(j);
    ++calls;
    asked.insert(j);
  }
  mutable int calls = 0;
  mutable std::set<Index> asked;

 private:
  const Eigen::MatrixXd& M_;
};

TEST(LcpLemke, RayTerminationOnInfeasibleProblems) {
  // w1 = z1 - z2 - 1 and w2 = -z1 + z2 - 1 cannot both be >= 0: no solution, M is PSD.
  LcpProblem p;
  p.M.resize(2, 2);
  p.M << 1, -1, -1, 1;
  p.q = Eigen::Vector2d(-1.0, -1.0);
  LemkeLcpSolver solver;
  Eigen::VectorXd z;
  LcpResult r = solver.solve(p, z);
  EXPECT_EQ(r.status, LcpStatus::kFailed);
  EXPECT_NE(r.message.find("ray termination"), std::string::npos) << r.message;
  EXPECT_GT(r.residual, 0.1);
  // w = 0 z - 1: infeasible at once.
  p.M = Eigen::MatrixXd::Zero(1, 1);
  p.q = Eigen::VectorXd::Constant(1, -1.0);
  z.resize(0);
  r = solver.solve(p, z);
  EXPECT_EQ(r.status, LcpStatus::kFailed);
  EXPECT_NE(r.message.find("ray termination"), std::string::npos) << r.message;
}

TEST(LcpLemke, LexicographicRuleAvoidsCyclingOnDegenerateProblems) {
  // Positive semi-definite, nonsymmetric and degenerate (all of q tied): with ties broken by
  // the lowest row index instead of the lexicographic rule, Lemke cycles on both until its pivot
  // limit (found by a random search over small integer problems).
  Eigen::MatrixXd A(3, 3), B(3, 3);
  A << 2, 3, 1, 1, 2, 3, 3, 1, 2;
  B << 0, 2, -1, -2, 1, 3, 1, -1, 1;
  for (const Eigen::MatrixXd& M : {A, B}) {
    LcpProblem p;
    p.M = M;
    p.q = Eigen::Vector3d::Constant(-2.0);
    ASSERT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M + M.transpose()).eigenvalues().minCoeff(), -1e-12);
    Eigen::VectorXd z;
    const LcpResult r = LemkeLcpSolver().solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_LE(r.iterations, 10);
    EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-12));
  }
}

TEST(LcpLemke, NonsymmetricPMatricesMatchEnumeration) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    SCOPED_TRACE("seed = " + std::to_string(seed));
    const Eigen::Index n = 7;
    const Eigen::MatrixXd S = test::random_matrix(n, n, 60 + seed);
    LcpProblem p;
    p.M = test::random_dense_spd(n, 10.0, seed) + 2.0 * (S - S.transpose());  // positive definite: a P-matrix
    p.q = test::random_dense_vector(n, 70 + seed);
    const auto all = test::enumerate_box_lcp(p.M, p.q, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Constant(n, kInf));
    ASSERT_EQ(all.size(), 1u);
    LemkeLcpSolver solver;
    Eigen::VectorXd z;
    const LcpResult r = solver.solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_LT((z - all.front()).lpNorm<Eigen::Infinity>(), 1e-10);
    EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-10));
  }
}

TEST(LcpLemke, BuildsOnlyTheColumnsItPivotsOn) {
  // 40 contacts of which only a few are approaching (q < 0).
  const Eigen::Index n = 40;
  LcpProblem p;
  p.M = test::random_dense_spd(n, 10.0, 90);
  p.q = test::random_dense_vector(n, 91, 0.5, 1.0);
  for (Eigen::Index i : {3, 17, 29}) p.q[i] = -1.0;
  const CountingColumns columns(p.M);
  LemkeLcpSolver solver;
  Eigen::VectorXd z;
  const LcpResult r = solver.solve(columns, p.q, z);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_EQ(solver.columns_requested(), static_cast<Index>(columns.asked.size()));
  EXPECT_EQ(columns.calls, static_cast<int>(columns.asked.size())) << "a column was built twice";
  EXPECT_GE(columns.asked.size(), 1u);
  EXPECT_LE(columns.asked.size(), 6u);
  Eigen::VectorXd z_dense;
  ASSERT_TRUE(LemkeLcpSolver().solve(p, z_dense).solved());
  EXPECT_LT((z - z_dense).lpNorm<Eigen::Infinity>(), 1e-13);
  EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-12));
  // Nothing approaches: no pivot and no column.
  p.q = test::random_dense_vector(n, 92, 0.5, 1.0);
  const CountingColumns none(p.M);
  const LcpResult r0 = solver.solve(none, p.q, z);
  EXPECT_TRUE(r0.solved());
  EXPECT_EQ(r0.iterations, 0);
  EXPECT_EQ(none.calls, 0);
  EXPECT_EQ(z, Eigen::VectorXd::Zero(n));
}

TEST(LcpLemke, PivotLimitIsReported) {
  LcpProblem p;
  p.M = test::random_dense_spd(20, 10.0, 93);
  p.q = -Eigen::VectorXd::Ones(20);
  LemkeLcpSolver::Options params;
  params.max_pivots = 3;
  Eigen::VectorXd z;
  const LcpResult r = LemkeLcpSolver(params).solve(p, z);
  EXPECT_EQ(r.status, LcpStatus::kNotConverged);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_NE(r.message.find("pivot limit 3"), std::string::npos) << r.message;
  EXPECT_NEAR(r.residual, natural_residual(p, z), 1e-14);
}

TEST(LcpLemke, FrequentRefactoringGivesTheSameAnswer) {
  LcpProblem p;
  p.M = test::random_dense_spd(30, 100.0, 94);
  p.q = test::random_dense_vector(30, 95);
  Eigen::VectorXd z1, z2;
  LemkeLcpSolver::Options params;
  params.refactor_interval = 1;
  const LcpResult r1 = LemkeLcpSolver(params).solve(p, z1);
  params.refactor_interval = 1000;
  const LcpResult r2 = LemkeLcpSolver(params).solve(p, z2);
  ASSERT_TRUE(r1.solved());
  ASSERT_TRUE(r2.solved());
  EXPECT_EQ(r1.iterations, r2.iterations);
  EXPECT_LT((z1 - z2).lpNorm<Eigen::Infinity>(), 1e-12);
}

TEST(LcpLemke, RejectsFrictionRowsAndBadParameters) {
  BoxLcpProblem p = test::random_contact_problem(2, 8, 0.5, 96);
  Eigen::VectorXd z;
  LemkeLcpSolver solver;
  EXPECT_SINEW_ERROR(solver.solve(p, z), "friction rows", "use PgsLcpSolver");
  LemkeLcpSolver::Options params;
  params.pivot_tolerance = 0.0;
  EXPECT_SINEW_ERROR(LemkeLcpSolver{params}, "pivot_tolerance = 0", "expected finite values > 0");
  params = {};
  params.max_pivots = -1;
  EXPECT_SINEW_ERROR(LemkeLcpSolver{params}, "max_pivots = -1");
  params = {};
  params.refactor_interval = 0;
  EXPECT_SINEW_ERROR(LemkeLcpSolver{params}, "refactor_interval = 0", "expected at least 1");
  const Eigen::MatrixXd M = Eigen::MatrixXd::Identity(3, 3);
  const DenseLcpColumns columns(M);
  EXPECT_SINEW_ERROR(solver.solve(columns, Eigen::VectorXd::Zero(2), z), "order 3 but q has 2 entries");
  Eigen::MatrixXd bad = Eigen::MatrixXd::Identity(2, 2);
  bad(1, 0) = std::nan("");
  const DenseLcpColumns bad_columns(bad);
  z.resize(0);
  EXPECT_SINEW_ERROR(solver.solve(bad_columns, -Eigen::VectorXd::Ones(2), z), "column 0 of M has non-finite entries");
}

}  // namespace
}  // namespace sinew::linalg_lcp_lemke_test
