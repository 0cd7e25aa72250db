// Non-smooth Newton with exact per-contact Jacobians: quadratic convergence near the solution
// on the random problems of the tests, the same answer from the direct (sparse LU) and the
// matrix-free (BiCGSTAB) linear solves, and determinism.
#include "sinew/constraints/newton_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <iostream>
#include <random>

#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_newton_solver_test {
namespace {

DelassusProblem random_problem(unsigned seed, int contacts) {
  const GlobalProblem g = testing::random_global(seed, testing::mixed_blocks(seed, contacts), 3 * contacts + 10);
  EigenLdltSolver mass;
  return to_delassus(g, mass);
}

std::string history(const SolverReport& rep) {
  std::string s;
  char buf[32];
  for (double e : rep.error_history) {
    std::snprintf(buf, sizeof buf, " %.2e", e);
    s += buf;
  }
  return s;
}

// Quadratic convergence: once the error is small (below 1e-3), every step that stays above
// round-off (e_{k+1} >= 1e-14) gives
// e_{k+1} <= C e_k^2 with a moderate C, and the last steps gain digits at a growing rate
// (a linearly converging method has e_{k+1} / e_k^2 growing without bound).
TEST(NewtonConvergence, QuadraticNearTheSolutionOnRandomProblems) {
  auto serial = make_backend("serial");
  // proximal = 0: the exact Newton matrix; 0.01 (the default): its shift, which vanishes with phi.
  for (double proximal : {0.0, 0.01})
    for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
      int checked = 0;
      for (unsigned seed = 1; seed <= 6; ++seed) {
        const DelassusProblem p = random_problem(seed, 4 + static_cast<int>(seed));
        NewtonOptions o;
        o.function = fn;
        o.globalization.proximal = proximal;
        o.stop = {1e-14, 50};  // past the usual 1e-8 to see the last quadratic steps
        NewtonSolver solver(*serial, o);
        Eigen::VectorXd r;
        const SolverReport rep = solver.solve(p, r);
        std::cout << "[figures] " << solver.name() << " proximal " << proximal << " seed " << seed << ": "
                  << rep.iterations << " steps, errors" << history(rep) << "\n";
        ASSERT_TRUE(rep.converged()) << solver.name() << " seed " << seed << ": " << rep.message;
        EXPECT_LE(rep.iterations, 20) << solver.name() << " seed " << seed;
        const std::vector<double>& e = rep.error_history;
        double worst = 0.0;
        for (std::size_t k = 0; k + 1 < e.size(); ++k) {
          if (e[k] > 1e-3 || e[k + 1] < 1e-14) continue;  // the local regime, above round-off
          const double ratio = e[k + 1] / (e[k] * e[k]);
          worst = std::max(worst, ratio);
          ++checked;
        }
        std::cout << "[figures]   max e_{k+1} / e_k^2 = " << worst << "\n";
        EXPECT_LT(worst, 1e4) << solver.name() << " seed " << seed << ":" << history(rep);
      }
      EXPECT_GE(checked, 6) << "each function shows several steps in the local regime";
    }
}

TEST(NewtonConvergence, DirectAndMatrixFreeStepsAgree) {
  auto serial = make_backend("serial");
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const DelassusProblem p = random_problem(seed, 6);
    for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
      NewtonOptions direct;
      direct.function = fn;
      direct.stop = {1e-11, 60};
      NewtonOptions iterative = direct;
      iterative.linear = NewtonLinearSolver::kBiCgStab;
      NewtonSolver a(*serial, direct), b(*serial, iterative);
      Eigen::VectorXd ra, rb;
      const SolverReport rep_a = a.solve(p, ra), rep_b = b.solve(p, rb);
      ASSERT_TRUE(rep_a.converged()) << rep_a.message;
      ASSERT_TRUE(rep_b.converged()) << rep_b.message;
      EXPECT_GT(rep_b.inner_iterations, 0);
      EXPECT_LE(rep_b.iterations, rep_a.iterations + 3) << "inexact steps stay Newton-like, seed " << seed;
      EXPECT_LT((ra - rb).norm(), 1e-8 * (1.0 + ra.norm())) << "seed " << seed;
    }
  }
}

// A heap like bench/contact_solvers_bench's: more contact rows than degrees of freedom, so W is
// singular and sticking contacts make the exact Newton matrix singular; the proximal shift and
// the gradient fallback of the line search must still reach the tolerance.
TEST(NewtonConvergence, RankDeficientDelassusConverges) {
  auto serial = make_backend("serial");
  for (unsigned seed = 1; seed <= 3; ++seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    const int contacts = 15, dofs = 24;  // 45 rows on 24 velocities
    Eigen::MatrixXd Jc(3 * contacts, dofs);
    for (Eigen::Index i = 0; i < Jc.rows(); ++i)
      for (Eigen::Index j = 0; j < dofs; ++j) Jc(i, j) = uni(gen);
    DelassusProblem p;
    p.W = testing::dense_to_csr(Jc * Jc.transpose() / dofs);
    p.q.resize(3 * contacts);
    for (int c = 0; c < contacts; ++c) {
      p.q[3 * c] = uni(gen) - 0.3;  // mostly approaching
      p.q[3 * c + 1] = uni(gen);
      p.q[3 * c + 2] = uni(gen);
      p.blocks.push_back({BlockKind::kContact, 0.5});
    }
    for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister})
      for (NewtonLinearSolver linear : {NewtonLinearSolver::kSparseLu, NewtonLinearSolver::kBiCgStab}) {
        NewtonOptions o;
        o.function = fn;
        o.linear = linear;
        o.stop = {1e-8, 100};
        NewtonSolver solver(*serial, o);
        Eigen::VectorXd r;
        const SolverReport rep = solver.solve(p, r);
        std::cout << "[figures] rank-deficient seed " << seed << " " << solver.name()
                  << (linear == NewtonLinearSolver::kSparseLu ? " lu" : " bicgstab") << ": " << rep.iterations
                  << " steps\n";
        EXPECT_TRUE(rep.converged()) << solver.name() << " seed " << seed << ": " << rep.message;
      }
  }
}

// Like the chain over a box of bench/contact_solvers_bench: the contacts of bodies linked by
// joints, condensed to contacts only by the joints' Schur complement, W = Jc N N^T Jc^T (N an
// orthonormal basis of the joints' null space): 45 rows of rank 5, and every other contact
// duplicates its neighbour's rows (first tangent flipped). The problem is built around a known
// solution (stick, slip and open contacts), so it is solvable. With the fixed proximal factor
// and a monotone line search (proximal_growth = 1, merit_memory = 0), 9 of these 80 solves
// stalled or ran out of steps (both functions, LU and BiCGSTAB); the adaptive shift and the
// non-monotone search must solve them all.
TEST(NewtonConvergence, CondensedChainLikeProblemsConverge) {
  auto serial = make_backend("serial");
  const int dofs = 45, joints = 40, contacts = 15;
  const double mu = 0.5;
  const unsigned seeds = test::quick_tests() ? 5 : 20;  // SINEW_QUICK_TESTS: a quarter of them
  for (unsigned seed = 1; seed <= seeds; ++seed) {
    std::mt19937 gen(seed);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    Eigen::MatrixXd Jb(joints, dofs), Jc(3 * contacts, dofs);
    for (int i = 0; i < joints; ++i)
      for (int j = 0; j < dofs; ++j) Jb(i, j) = uni(gen);
    for (int c = 0; c < contacts; ++c) {
      if (c % 2 == 1) {  // the neighbour's normal, a flipped first tangent
        Jc.middleRows(3 * c, 3) = Jc.middleRows(3 * c - 3, 3);
        Jc.row(3 * c + 1) = -Jc.row(3 * c - 2);
        continue;
      }
      for (int i = 0; i < 3; ++i)
        for (int j = 0; j < dofs; ++j) Jc(3 * c + i, j) = uni(gen);
    }
    const Eigen::MatrixXd kernel = Eigen::FullPivLU<Eigen::MatrixXd>(Jb).kernel();
    const Eigen::MatrixXd N =
        Eigen::HouseholderQR<Eigen::MatrixXd>(kernel).householderQ() * Eigen::MatrixXd::Identity(dofs, kernel.cols());
    const Eigen::MatrixXd W = Jc * N * N.transpose() * Jc.transpose() / dofs;
    // A solution (r*, u*): open (r = 0, u_n > 0), slip (r on the cone's boundary opposite u_T,
    // u_n = 0) or stick (r inside the cone, u = 0); q = u* - W r*.
    Eigen::VectorXd rs = Eigen::VectorXd::Zero(3 * contacts), us = Eigen::VectorXd::Zero(3 * contacts);
    DelassusProblem p;
    for (int c = 0; c < contacts; ++c) {
      p.blocks.push_back({BlockKind::kContact, mu});
      const double kind = 0.5 * (uni(gen) + 1.0);
      if (kind < 0.2) {
        us[3 * c] = 0.5 * (uni(gen) + 1.0);
        us[3 * c + 1] = uni(gen);
        us[3 * c + 2] = uni(gen);
      } else if (kind < 0.7) {
        rs[3 * c] = 0.5 * (uni(gen) + 1.2);
        const double angle = 3.14159 * uni(gen), speed = 0.5 * (uni(gen) + 1.0);
        us[3 * c + 1] = speed * std::cos(angle);
        us[3 * c + 2] = speed * std::sin(angle);
        rs[3 * c + 1] = -mu * rs[3 * c] * std::cos(angle);
        rs[3 * c + 2] = -mu * rs[3 * c] * std::sin(angle);
      } else {
        rs[3 * c] = 0.5 * (uni(gen) + 1.2);
        rs[3 * c + 1] = 0.5 * mu * rs[3 * c] * uni(gen);
        rs[3 * c + 2] = 0.5 * mu * rs[3 * c] * uni(gen);
      }
    }
    p.W = testing::dense_to_csr(W);
    p.q = us - W * rs;
    for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister})
      for (NewtonLinearSolver linear : {NewtonLinearSolver::kSparseLu, NewtonLinearSolver::kBiCgStab}) {
        NewtonOptions o;
        o.function = fn;
        o.linear = linear;
        o.stop = {1e-8, 100};
        NewtonSolver solver(*serial, o);
        Eigen::VectorXd r;
        const SolverReport rep = solver.solve(p, r);
        EXPECT_TRUE(rep.converged()) << solver.name() << (linear == NewtonLinearSolver::kSparseLu ? " lu" : " bicgstab")
                                     << " seed " << seed << ": " << rep.message << "; errors" << history(rep);
      }
  }
}

// Particles in a row, each pressed onto the next by a contact (the last onto the ground) whose
// frame is tilted off the axes: W couples each contact only to its neighbours (a bandwidth of 5 of
// 90 rows, its 3 x 3 blocks full), so kAuto factors the Newton matrix in its band. It takes the
// sparse LU's steps (the same iterations, the same answer to round-off), with either function.
TEST(NewtonConvergence, ABandedProblemIsFactoredInItsBandAsBySparseLu) {
  auto serial = make_backend("serial");
  const int count = 30;
  const Index n = 3 * count;
  std::mt19937 gen(7);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n), H = Eigen::MatrixXd::Zero(n, 3 * count);
  GlobalProblem g;
  for (Index i = 0; i < n; ++i) M(i, i) = 1.5 + uni(gen);
  for (int c = 0; c < count; ++c) {
    // The frame's rows (normal ~z, tangents ~x, ~y), tilted by up to 0.3 in every component.
    const int axes[3] = {2, 0, 1};
    for (int r = 0; r < 3; ++r)
      for (int a = 0; a < 3; ++a) {
        const double e = (a == axes[r] ? 1.0 : 0.0) + 0.3 * uni(gen);
        H(3 * c + a, 3 * c + r) = e;
        if (c + 1 < count) H(3 * (c + 1) + a, 3 * c + r) = -e;
      }
    g.blocks.push_back({BlockKind::kContact, 0.3 + 0.2 * uni(gen)});
  }
  g.M = testing::dense_to_csr(M);
  g.H = testing::dense_to_csr(H);
  g.f = Eigen::VectorXd::Zero(n);
  for (Index i = 0; i < n; ++i) g.f[i] = M(i, i) * (i % 3 == 2 ? -1.0 - 0.1 * static_cast<double>(i) : 0.5 * uni(gen));
  g.w = Eigen::VectorXd::Zero(3 * count);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    std::vector<Eigen::VectorXd> answers;
    std::vector<int> iterations;
    for (NewtonLinearSolver linear : {NewtonLinearSolver::kAuto, NewtonLinearSolver::kSparseLu}) {
      NewtonOptions o;
      o.function = fn;
      o.linear = linear;
      o.stop = {1e-11, 100};
      NewtonSolver solver(*serial, o);
      Eigen::VectorXd r;
      const SolverReport rep = solver.solve(p, r);
      ASSERT_TRUE(rep.converged()) << solver.name() << ": " << rep.message << "; errors" << history(rep);
      answers.push_back(r);
      iterations.push_back(rep.iterations);
    }
    EXPECT_GE(iterations[0], 3);
    EXPECT_EQ(iterations[0], iterations[1]);
    EXPECT_LT((answers[0] - answers[1]).norm(), 1e-9 * answers[1].norm());
    EXPECT_GT(answers[0].norm(), 1.0);
  }
}

TEST(NewtonConvergence, DeterministicAcrossRuns) {
  auto serial = make_backend("serial");
  const DelassusProblem p = random_problem(9, 8);
  for (NewtonLinearSolver linear : {NewtonLinearSolver::kSparseLu, NewtonLinearSolver::kBiCgStab}) {
    NewtonOptions o;
    o.linear = linear;
    NewtonSolver solver(*serial, o);
    Eigen::VectorXd r1, r2;
    const SolverReport a = solver.solve(p, r1), b = solver.solve(p, r2);
    ASSERT_TRUE(a.converged()) << a.message;
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.error_history, b.error_history);
    EXPECT_EQ((r1 - r2).norm(), 0.0);
  }
}

// The solver keeps its vectors and its sparse LU's analysis between solves (the analysis for as
// long as W's pattern and the blocks stay): a kept solver gives the bits of a fresh one through a
// sequence that changes size, path (dense LU up to 48 rows, sparse LU above), values on a kept
// pattern, and pattern.
TEST(NewtonConvergence, AKeptSolverGivesTheBitsOfAFreshOne) {
  auto serial = make_backend("serial");
  const DelassusProblem small = random_problem(9, 8), large = random_problem(4, 30), other = random_problem(6, 30);
  ASSERT_LE(small.rows(), 48);
  ASSERT_GT(large.rows(), 48);
  DelassusProblem rescaled = large;  // the same pattern, other values
  for (double& v : rescaled.W.values) v *= 1.25;
  rescaled.q *= -0.5;
  NewtonSolver kept(*serial);
  for (const DelassusProblem* p :
       std::initializer_list<const DelassusProblem*>{&small, &large, &rescaled, &other, &large, &small}) {
    NewtonSolver fresh(*serial);
    Eigen::VectorXd r_kept, r_fresh;
    const SolverReport a = kept.solve(*p, r_kept), b = fresh.solve(*p, r_fresh);
    EXPECT_TRUE(a.converged()) << a.message;
    EXPECT_EQ(a.iterations, b.iterations);
    EXPECT_EQ(a.error_history, b.error_history);
    EXPECT_TRUE(r_kept == r_fresh) << "rows " << p->rows();
  }
}

}  // namespace
}  // namespace sinew::constraints::constraints_newton_solver_test
