// Mixed LCPs (ArtiSynth notes 0.7, 0.8, 0.11): the reduction to a standard LCP agrees with an
// enumeration of the whole mixed system, with the closed-form reduced operator N M^-1 P_f N^T
// and with the Delassus box form; columns are built on demand; compliance removes degeneracy.
#include "sinew/linalg/mixed_lcp.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"
#include "sinew/linalg/lcp_lemke.hpp"
#include "sinew/linalg/lcp_pgs.hpp"

namespace sinew::linalg_mixed_lcp_test {
namespace {

MixedLcpProblem random_mixed(Eigen::Index nx, Eigen::Index ng, Eigen::Index nn, std::uint64_t seed) {
  MixedLcpProblem p;
  p.M = test::random_dense_spd(nx, 10.0, seed);
  p.G = test::random_matrix(ng, nx, seed + 1);
  p.N = test::random_matrix(nn, nx, seed + 2);
  p.f = test::random_dense_vector(nx, seed + 3);
  p.g = test::random_dense_vector(ng, seed + 4);
  p.n = test::random_dense_vector(nn, seed + 5);
  return p;
}

// Every split of the unilateral rows into active (w = 0) and inactive (z = 0), each solved as
// one dense linear system of the whole mixed problem; returns the admissible solutions.
std::vector<MixedLcpSolution> enumerate_mixed(const MixedLcpProblem& p) {
  const Eigen::Index nx = p.M.rows(), ng = p.G.rows(), nn = p.N.rows();
  const Eigen::VectorXd cg = p.bilateral_compliance.size() ? p.bilateral_compliance : Eigen::VectorXd::Zero(ng);
  const Eigen::VectorXd cn = p.unilateral_compliance.size() ? p.unilateral_compliance : Eigen::VectorXd::Zero(nn);
  std::vector<MixedLcpSolution> found;
  for (long mask = 0; mask < (1L << nn); ++mask) {
    std::vector<Eigen::Index> act;
    for (Eigen::Index i = 0; i < nn; ++i)
      if (mask & (1L << i)) act.push_back(i);
    const Eigen::Index na = static_cast<Eigen::Index>(act.size()), dim = nx + ng + na;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(dim, dim);
    Eigen::VectorXd rhs(dim);
    K.topLeftCorner(nx, nx) = p.M;
    K.block(0, nx, nx, ng) = -p.G.transpose();
    K.block(nx, 0, ng, nx) = p.G;
    K.block(nx, nx, ng, ng) = cg.asDiagonal();
    rhs << p.f, p.g, Eigen::VectorXd::Zero(na);
    for (Eigen::Index a = 0; a < na; ++a) {
      K.block(0, nx + ng + a, nx, 1) = -p.N.row(act[a]).transpose();
      K.block(nx + ng + a, 0, 1, nx) = p.N.row(act[a]);
      K(nx + ng + a, nx + ng + a) = cn[act[a]];
      rhs[nx + ng + a] = p.n[act[a]];
    }
    const Eigen::FullPivLU<Eigen::MatrixXd> lu(K);
    if (!lu.isInvertible()) continue;
    const Eigen::VectorXd y = lu.solve(rhs);
    MixedLcpSolution s;
    s.x = y.head(nx);
    s.lambda = y.segment(nx, ng);
    s.z = Eigen::VectorXd::Zero(nn);
    for (Eigen::Index a = 0; a < na; ++a) s.z[act[a]] = y[nx + ng + a];
    s.w = p.N * s.x + cn.cwiseProduct(s.z) - p.n;
    if (s.z.minCoeff() >= -1e-12 && s.w.minCoeff() >= -1e-12) found.push_back(s);
  }
  return found;
}

PgsLcpSolver::Options tight() {
  PgsLcpSolver::Options p;
  p.max_iterations = 200000;
  p.tolerance = 1e-13;
  return p;
}

void expect_same(const MixedLcpSolution& a, const MixedLcpSolution& b, double tol) {
  EXPECT_LT((a.x - b.x).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_LT((a.lambda - b.lambda).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_LT((a.z - b.z).lpNorm<Eigen::Infinity>(), tol);
  EXPECT_LT((a.w - b.w).lpNorm<Eigen::Infinity>(), tol);
}

TEST(MixedLcp, ReductionAgreesWithEnumerationOfTheWholeSystem) {
  int active = 0, inactive = 0;
  for (std::uint64_t seed : {1u, 2u, 3u}) {
    SCOPED_TRACE("seed = " + std::to_string(seed));
    const MixedLcpProblem p = random_mixed(12, 3, 7, 10 * seed);
    const auto all = enumerate_mixed(p);
    ASSERT_EQ(all.size(), 1u);
    const MixedLcpSolution& want = all.front();
    LemkeLcpSolver lemke;
    PgsLcpSolver pgs(tight());
    for (LcpSolver* solver : {static_cast<LcpSolver*>(&lemke), static_cast<LcpSolver*>(&pgs)}) {
      SCOPED_TRACE(solver->name());
      MixedLcpSolution s;
      const LcpResult r = solve_mixed_lcp(p, *solver, s);
      ASSERT_TRUE(r.solved()) << r.message;
      expect_same(s, want, 1e-10);
      EXPECT_LT((p.M * s.x - p.G.transpose() * s.lambda - p.N.transpose() * s.z - p.f).norm(), 1e-12);
      EXPECT_LT((p.G * s.x - p.g).norm(), 1e-12);
    }
    active += static_cast<int>((want.z.array() > 1e-8).count());
    inactive += static_cast<int>((want.w.array() > 1e-8).count());
  }
  EXPECT_GT(active, 0);
  EXPECT_GT(inactive, 0);
}

TEST(MixedLcp, ReducedOperatorIsTheProjectedDelassusMatrix) {
  const MixedLcpProblem p = random_mixed(10, 3, 5, 40);
  const MixedLcpReduction reduction(p);
  const LcpProblem lcp = reduction.lcp();
  // ArtiSynth notes 0.5 and 0.7 with dense inverses.
  const Eigen::MatrixXd Minv = p.M.inverse();
  const Eigen::MatrixXd S = p.G * Minv * p.G.transpose();
  const Eigen::MatrixXd Pf = Eigen::MatrixXd::Identity(10, 10) - p.G.transpose() * S.inverse() * p.G * Minv;
  const Eigen::VectorXd lambda0 = S.inverse() * (p.g - p.G * Minv * p.f);
  EXPECT_LT((lcp.M - p.N * Minv * Pf * p.N.transpose()).norm(), 1e-12);
  EXPECT_LT((lcp.M - lcp.M.transpose()).norm(), 1e-12);
  EXPECT_LT((lcp.q - (p.N * Minv * p.f + p.N * Minv * p.G.transpose() * lambda0 - p.n)).norm(), 1e-12);
  EXPECT_EQ(reduction.q(), lcp.q);
  // Back-substitution: lambda = lambda_0 - S^-1 G M^-1 N^T z.
  const Eigen::VectorXd z = test::random_dense_vector(5, 41, 0.0, 1.0);
  const MixedLcpSolution s = reduction.recover(z);
  EXPECT_LT((s.lambda - (lambda0 - S.inverse() * p.G * Minv * p.N.transpose() * z)).norm(), 1e-12);
  EXPECT_LT((s.w - (lcp.M * z + lcp.q)).norm(), 1e-12);
  // Without bilateral rows the operator is N M^-1 N^T.
  MixedLcpProblem free = p;
  free.G.resize(0, 10);
  free.g.resize(0);
  const LcpProblem plain = MixedLcpReduction(free).lcp();
  EXPECT_LT((plain.M - p.N * Minv * p.N.transpose()).norm(), 1e-12);
  EXPECT_LT((plain.q - (p.N * Minv * p.f - p.n)).norm(), 1e-12);
}

TEST(MixedLcp, AgreesWithTheDelassusBoxFormWithFreeRows) {
  // The same system as one box LCP on [lambda; z]: W = [G; N] M^-1 [G; N]^T, free bilateral rows.
  const MixedLcpProblem p = random_mixed(14, 4, 6, 50);
  MixedLcpSolution want;
  LemkeLcpSolver lemke;
  ASSERT_TRUE(solve_mixed_lcp(p, lemke, want).solved());
  Eigen::MatrixXd A(10, 14);
  A << p.G, p.N;
  Eigen::VectorXd rhs(10);
  rhs << p.g, p.n;
  BoxLcpProblem box;
  box.M = A * p.M.llt().solve(A.transpose());
  box.q = A * p.M.llt().solve(p.f) - rhs;
  box.bounds = LcpBounds::standard(10);
  box.bounds.lo.head(4).setConstant(-test::kInf);
  PgsLcpSolver pgs(tight());
  for (LcpSolver* solver : {static_cast<LcpSolver*>(&lemke), static_cast<LcpSolver*>(&pgs)}) {
    SCOPED_TRACE(solver->name());
    Eigen::VectorXd y;
    const LcpResult r = solver->solve(box, y);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_LT((y.head(4) - want.lambda).lpNorm<Eigen::Infinity>(), 1e-9);
    EXPECT_LT((y.tail(6) - want.z).lpNorm<Eigen::Infinity>(), 1e-9);
  }
  EXPECT_GT((want.z.array() > 1e-8).count(), 0);
  EXPECT_GT((want.w.array() > 1e-8).count(), 0);
}

TEST(MixedLcp, LemkeBuildsOnlyTheColumnsOfApproachingContacts) {
  // 30 contacts, of which 3 are violated at the unconstrained solution.
  MixedLcpProblem p = random_mixed(40, 2, 30, 60);
  const MixedLcpReduction probe(p);
  p.n = probe.q() + p.n - Eigen::VectorXd::Constant(30, 1.0);  // every slack q_i = 1: open
  for (Eigen::Index i : {4, 11, 25}) p.n[i] += 1.5;            // these three approach (q_i = -0.5)
  LemkeLcpSolver lemke;
  MixedLcpSolution s;
  const LcpResult r = solve_mixed_lcp(p, lemke, s);
  ASSERT_TRUE(r.solved()) << r.message;
  EXPECT_GE(lemke.columns_requested(), 1);
  EXPECT_LE(lemke.columns_requested(), 6);
  const LcpProblem lcp = MixedLcpReduction(p).lcp();
  Eigen::VectorXd z;
  ASSERT_TRUE(LemkeLcpSolver().solve(lcp, z).solved());
  EXPECT_LT((s.z - z).lpNorm<Eigen::Infinity>(), 1e-12);
  EXPECT_TRUE(test::satisfies_lcp(lcp.M, lcp.q, s.z, 1e-12));
}

TEST(MixedLcp, ComplianceMakesRedundantContactsUniqueAndVanishesLinearly) {
  // Contact rows 0 and 5 are the same constraint: hard, their split is arbitrary.
  MixedLcpProblem p = random_mixed(12, 2, 6, 70);
  p.N.row(5) = p.N.row(0);
  p.n[5] = p.n[0];
  p.n[0] += 2.0, p.n[5] += 2.0;  // make sure the duplicated contact is pushed closed
  LemkeLcpSolver lemke;
  MixedLcpSolution hard;
  ASSERT_TRUE(solve_mixed_lcp(p, lemke, hard).solved());
  ASSERT_GT(hard.z[0] + hard.z[5], 1e-3);
  double previous = 0.0;
  for (double eps : {1e-4, 1e-5, 1e-6}) {
    SCOPED_TRACE("compliance " + std::to_string(eps));
    MixedLcpProblem soft = p;
    soft.unilateral_compliance = Eigen::VectorXd::Constant(6, eps);
    soft.bilateral_compliance = Eigen::VectorXd::Constant(2, eps);
    const auto all = enumerate_mixed(soft);
    ASSERT_EQ(all.size(), 1u) << "compliance makes the reduced matrix positive definite";
    MixedLcpSolution s;
    const LcpResult r = solve_mixed_lcp(soft, lemke, s);
    ASSERT_TRUE(r.solved()) << r.message;
    expect_same(s, all.front(), 1e-8);
    EXPECT_NEAR(s.z[0], s.z[5], 1e-9);
    EXPECT_LT((s.w - (p.N * s.x - p.n + eps * s.z)).norm(), 1e-12);
    const double err = (s.x - hard.x).norm();
    if (previous > 0.0) {
      EXPECT_NEAR(previous / err, 10.0, 0.5);
    }
    previous = err;
  }
  EXPECT_GT(previous, 0.0);
}

TEST(MixedLcp, RejectsBadInput) {
  MixedLcpProblem p = random_mixed(6, 2, 3, 80);
  p.f.resize(5);
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "MixedLcpProblem: f has 5 entries, expected 6");
  p = random_mixed(6, 2, 3, 80);
  p.N.resize(3, 5);
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "N is 3x5", "expected 6 columns");
  p = random_mixed(6, 2, 3, 80);
  p.unilateral_compliance = -Eigen::VectorXd::Ones(3);
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "unilateral_compliance has a negative entry");
  p = random_mixed(6, 2, 3, 80);
  p.bilateral_compliance = Eigen::VectorXd::Ones(3);
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "bilateral_compliance has 3 entries, expected 2 or 0");
  p = random_mixed(6, 2, 3, 80);
  p.n[1] = std::nan("");
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "n has non-finite entries");
  p = random_mixed(6, 2, 3, 80);
  p.G.row(1) = p.G.row(0);
  EXPECT_SINEW_ERROR(MixedLcpReduction{p}, "Schur complement", "singular");
  p = random_mixed(6, 2, 3, 80);
  const MixedLcpReduction reduction(p);
  EXPECT_SINEW_ERROR(reduction.recover(Eigen::VectorXd::Zero(2)), "z has 2 entries, expected 3");
}

}  // namespace
}  // namespace sinew::linalg_mixed_lcp_test
