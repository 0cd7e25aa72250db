// Every LcpSolver on the same problems: random SPD LCPs against the QP optimum (ArtiSynth notes
// 0.3), degenerate LCPs from redundant contacts, box LCPs against enumeration.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"
#include "sinew/linalg/lcp_lemke.hpp"
#include "sinew/linalg/lcp_pgs.hpp"

namespace sinew::linalg_lcp_solvers_test {
namespace {

using test::kInf;

std::unique_ptr<LcpSolver> make_solver(const std::string& name) {
  if (name == "pgs") {
    PgsLcpSolver::Options p;
    p.max_iterations = 200000;
    p.tolerance = 1e-12;
    return std::make_unique<PgsLcpSolver>(p);
  }
  return std::make_unique<LemkeLcpSolver>();
}

class LcpSolvers : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<LcpSolver> solver_ = make_solver(GetParam());
};

// The QP optimum by an independent method: enumeration for small n, projected gradient else.
Eigen::VectorXd qp_optimum(const Eigen::MatrixXd& M, const Eigen::VectorXd& q) {
  const Eigen::Index n = q.size();
  if (n <= 10) {
    const auto all = test::enumerate_box_lcp(M, q, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Constant(n, kInf));
    EXPECT_EQ(all.size(), 1u) << "an SPD LCP has exactly one solution";
    return all.empty() ? Eigen::VectorXd::Zero(n) : all.front();
  }
  const Eigen::VectorXd z = test::projected_gradient_lcp(M, q);
  EXPECT_LT(test::box_residual(M, q, Eigen::VectorXd::Zero(n), Eigen::VectorXd::Constant(n, kInf), z), 1e-12)
      << "the reference did not converge";
  return z;
}

TEST_P(LcpSolvers, ScalarLcpBothBranches) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Constant(1, 1, 4.0);
  p.q = Eigen::VectorXd::Constant(1, -2.0);  // contact closes: z = 0.5, w = 0
  Eigen::VectorXd z;
  ASSERT_TRUE(solver_->solve(p, z).solved());
  EXPECT_NEAR(z[0], 0.5, 1e-14);
  p.q[0] = 3.0;  // contact opens: z = 0, w = 3
  z.resize(0);
  const LcpResult r = solver_->solve(p, z);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_EQ(z[0], 0.0);
  EXPECT_EQ(r.residual, 0.0);
}

TEST_P(LcpSolvers, SpdProblemsMatchTheQpOptimum) {
  for (Eigen::Index n : {5, 20, 60}) {
    for (std::uint64_t seed : {11u, 12u, 13u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", seed = " + std::to_string(seed));
      LcpProblem p;
      p.M = test::random_dense_spd(n, 20.0, seed);
      p.q = test::random_dense_vector(n, seed + 100, -1.0, 0.5);
      Eigen::VectorXd z;
      const LcpResult r = solver_->solve(p, z);
      ASSERT_TRUE(r.solved()) << r.message;
      EXPECT_LE(r.residual, 1e-10);
      EXPECT_NEAR(r.residual, natural_residual(p, z), 1e-15);
      EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-10));
      const Eigen::VectorXd ref = qp_optimum(p.M, p.q);
      EXPECT_LT((z - ref).lpNorm<Eigen::Infinity>(), 1e-9);
      // Not trivial: some contacts are closed (z > 0) and some open (w > 0).
      const Eigen::VectorXd w = p.M * z + p.q;
      EXPECT_GT((z.array() > 1e-6).count(), 0);
      EXPECT_GT((w.array() > 1e-6).count(), 0);
    }
  }
}

// Redundant contacts: rows of J duplicated, so M = J Minv J^T is only positive semi-definite and
// z is not unique, but w is, and so is the total impulse of each group of duplicates.
TEST_P(LcpSolvers, RedundantContactsGiveValidSolutions) {
  for (Eigen::Index k : {6, 20}) {
    SCOPED_TRACE("unique contacts k = " + std::to_string(k));
    const Eigen::Index dofs = k + 4;
    const Eigen::MatrixXd J = test::random_matrix(k, dofs, 40 + k);
    const Eigen::VectorXd minv = test::random_dense_vector(dofs, 41 + k, 0.5, 1.5);
    const Eigen::VectorXd v = test::random_dense_vector(dofs, 42 + k);
    std::vector<Eigen::Index> group;  // group[r]: the unique contact of row r
    for (Eigen::Index c = 0; c < k; ++c)
      for (Eigen::Index copies = 0; copies < 1 + c % 3; ++copies) group.push_back(c);
    const Eigen::Index m = static_cast<Eigen::Index>(group.size());
    Eigen::MatrixXd Jd(m, dofs);
    for (Eigen::Index r = 0; r < m; ++r) Jd.row(r) = J.row(group[r]);
    LcpProblem p;
    p.M = Jd * minv.asDiagonal() * Jd.transpose();
    p.q = Jd * v;
    ASSERT_LT(Eigen::FullPivLU<Eigen::MatrixXd>(p.M).rank(), m) << "the test needs a singular M";

    const Eigen::MatrixXd Mk = J * minv.asDiagonal() * J.transpose();
    const Eigen::VectorXd qk = J * v;
    const Eigen::VectorXd zk = qp_optimum(Mk, qk);
    const Eigen::VectorXd wk = Mk * zk + qk;

    Eigen::VectorXd z;
    const LcpResult r = solver_->solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-10));
    const Eigen::VectorXd w = p.M * z + p.q;
    Eigen::VectorXd group_total = Eigen::VectorXd::Zero(k);
    for (Eigen::Index row = 0; row < m; ++row) {
      EXPECT_NEAR(w[row], wk[group[row]], 1e-9) << "row " << row;
      group_total[group[row]] += z[row];
    }
    EXPECT_LT((group_total - zk).lpNorm<Eigen::Infinity>(), 1e-8);
    EXPECT_GT((zk.array() > 1e-6).count(), 0);
    EXPECT_GT((wk.array() > 1e-6).count(), 0);
  }
}

TEST_P(LcpSolvers, RankOneDegenerateLcp) {
  // w = (sum z) 1 - 1: every z >= 0 with sum 1 solves it; all ratios tie at every pivot.
  LcpProblem p;
  p.M = Eigen::MatrixXd::Ones(6, 6);
  p.q = -Eigen::VectorXd::Ones(6);
  Eigen::VectorXd z;
  const LcpResult r = solver_->solve(p, z);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_TRUE(test::satisfies_lcp(p.M, p.q, z, 1e-10));
  EXPECT_NEAR(z.sum(), 1.0, 1e-10);
}

// Bounds covering every kind: standard, finite box, free, upper only, fixed.
LcpBounds mixed_bounds(Eigen::Index n) {
  LcpBounds b;
  b.lo.resize(n);
  b.hi.resize(n);
  for (Eigen::Index i = 0; i < n; ++i) {
    switch (i % 5) {
      case 0:
        b.lo[i] = 0.0, b.hi[i] = kInf;
        break;
      case 1:
        b.lo[i] = -0.2, b.hi[i] = 0.15;
        break;
      case 2:
        b.lo[i] = -kInf, b.hi[i] = kInf;
        break;
      case 3:
        b.lo[i] = -kInf, b.hi[i] = 0.05;
        break;
      default:
        b.lo[i] = 0.1, b.hi[i] = 0.1;
        break;
    }
  }
  return b;
}

TEST_P(LcpSolvers, BoxProblemsMatchEnumeration) {
  test::BoxBranches total;
  for (Eigen::Index n : {1, 3, 5, 7}) {
    for (std::uint64_t seed : {21u, 22u, 23u, 24u}) {
      SCOPED_TRACE("n = " + std::to_string(n) + ", seed = " + std::to_string(seed));
      BoxLcpProblem p;
      p.M = test::random_dense_spd(n, 10.0, seed);
      p.q = test::random_dense_vector(n, seed + 50, -3.0, 3.0);
      p.bounds = mixed_bounds(n);
      const auto all = test::enumerate_box_lcp(p.M, p.q, p.bounds.lo, p.bounds.hi);
      ASSERT_EQ(all.size(), 1u);
      Eigen::VectorXd z;
      const LcpResult r = solver_->solve(p, z);
      ASSERT_TRUE(r.solved()) << r.message;
      EXPECT_LT((z - all.front()).lpNorm<Eigen::Infinity>(), 1e-9);
      test::BoxBranches b;
      EXPECT_TRUE(test::satisfies_box_conditions(p.M, p.q, p.bounds, z, 1e-10, &b));
      total.at_lower += b.at_lower, total.at_upper += b.at_upper, total.interior += b.interior;
      total.collapsed += b.collapsed;
    }
  }
  EXPECT_GT(total.at_lower, 0);
  EXPECT_GT(total.at_upper, 0);
  EXPECT_GT(total.interior, 0);
  EXPECT_GT(total.collapsed, 0);
}

TEST_P(LcpSolvers, LargerBoxProblemsMatchTheBoxQpOptimum) {
  for (Eigen::Index n : {20, 60}) {
    SCOPED_TRACE("n = " + std::to_string(n));
    BoxLcpProblem p;
    p.M = test::random_dense_spd(n, 20.0, 70 + n);
    p.q = test::random_dense_vector(n, 71 + n, -3.0, 3.0);
    p.bounds = mixed_bounds(n);
    const Eigen::VectorXd ref = test::projected_gradient_qp(p.M, p.q, p.bounds.lo, p.bounds.hi);
    ASSERT_LT(test::box_residual(p.M, p.q, p.bounds.lo, p.bounds.hi, ref), 1e-12);
    Eigen::VectorXd z;
    const LcpResult r = solver_->solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_LT((z - ref).lpNorm<Eigen::Infinity>(), 1e-9);
    EXPECT_NEAR(r.residual, natural_residual(p, z), 1e-15);
    test::BoxBranches b;
    EXPECT_TRUE(test::satisfies_box_conditions(p.M, p.q, p.bounds, z, 1e-10, &b));
    EXPECT_GT(b.at_lower, 0);
    EXPECT_GT(b.at_upper, 0);
    EXPECT_GT(b.interior, 0);
  }
}

TEST_P(LcpSolvers, EmptyProblemIsSolved) {
  LcpProblem p;
  Eigen::VectorXd z;
  const LcpResult r = solver_->solve(p, z);
  EXPECT_TRUE(r.solved());
  EXPECT_EQ(z.size(), 0);
}

TEST_P(LcpSolvers, RejectsBadInput) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(3, 3);
  p.q = -Eigen::VectorXd::Ones(3);
  Eigen::VectorXd z = Eigen::VectorXd::Zero(2);
  EXPECT_SINEW_ERROR(solver_->solve(p, z), "z has 2 entries", "expected 0 (cold start) or 3");
  z = Eigen::VectorXd::Constant(3, std::nan(""));
  EXPECT_SINEW_ERROR(solver_->solve(p, z), "warm start z has non-finite entries");
  z.resize(0);
  p.q[1] = kInf;
  EXPECT_SINEW_ERROR(solver_->solve(p, z), "LcpProblem: q has non-finite entries");
  p.q[1] = 0.0;
  p.M.resize(3, 2);
  EXPECT_SINEW_ERROR(solver_->solve(p, z), "LcpProblem: M is 3x2", "expected 3x3");
  BoxLcpProblem b;
  b.M = Eigen::MatrixXd::Identity(2, 2);
  b.q = Eigen::VectorXd::Zero(2);
  b.bounds = LcpBounds::standard(2);
  b.bounds.lo[1] = 1.0;
  b.bounds.hi[1] = 0.0;
  EXPECT_SINEW_ERROR(solver_->solve(b, z), "row 1 has bounds [1, 0]", "expected lo <= hi");
}

INSTANTIATE_TEST_SUITE_P(All, LcpSolvers, ::testing::Values("pgs", "lemke"),
                         [](const ::testing::TestParamInfo<std::string>& info) { return info.param; });

}  // namespace
}  // namespace sinew::linalg_lcp_solvers_test
