// The convex (SAP) approximation of compliant contact: closed-form single-contact answers of
// the convex model, and optimality on random problems.
#include "sinew/constraints/sap_solver.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <random>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/block_diagonal_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_sap_solver_test {
namespace {

using testing::dense_to_csr;

// A particle of mass m with free velocity (vx, vy, vz) on the plane z = 0: global form with
// M = m I, H = J^T with J's rows (z, x, y), f = m v_free, w = 0 (FCLIB: M v = H r + f).
GlobalProblem particle(double m, double vx, double vy, double vz, double mu) {
  GlobalProblem p;
  p.M = dense_to_csr(m * Eigen::Matrix3d::Identity());
  Eigen::Matrix3d J;
  J << 0, 0, 1, 1, 0, 0, 0, 1, 0;
  p.H = dense_to_csr(J.transpose());
  p.f = m * Eigen::Vector3d(vx, vy, vz);
  p.w = Eigen::Vector3d::Zero();
  p.blocks = {{BlockKind::kContact, mu}};
  return p;
}

SapOptions stiff() {
  SapOptions o;
  // Nearly rigid, so the convex model's answer is the closed form up to O(1e-6); the scaled
  // gradient's round-off floor grows like eps / R, hence the looser stopping tolerance.
  o.rigid_fraction = 1e-6;
  o.sigma = 1e-6;
  o.stop.tolerance = 1e-9;
  return o;
}

TEST(Sap, SticksBelowTheBound) {
  SapSolver sap(stiff());
  GlobalSolution s;
  const SolverReport rep = sap.solve(particle(2.0, 0.5, 0.0, -2.0, 0.5), s);
  ASSERT_TRUE(rep.converged()) << rep.message;
  EXPECT_NEAR(s.r[0], 4.0, 2e-5);
  EXPECT_NEAR(s.r[1], -1.0, 2e-5);
  EXPECT_NEAR(s.v.norm(), 0.0, 2e-5);
  EXPECT_EQ(rep.states[0], RowState::kStick);
  EXPECT_LE(rep.iterations, 10);
}

TEST(Sap, SlipsWithTheConvexModelsSeparationVelocity) {
  // mu m |v_n| = 0.5 < m |v_T| = 3: sliding. The convex model's optimum has the friction
  // on the cone opposite the slip and a normal velocity u_n = mu ||u_T|| (Anitescu), where
  // Signorini-Coulomb would give u_n = 0.
  const double m = 1.0, mu = 0.25;
  SapSolver sap(stiff());
  GlobalSolution s;
  const SolverReport rep = sap.solve(particle(m, 1.8, 2.4, -2.0, mu), s);
  ASSERT_TRUE(rep.converged()) << rep.message;
  EXPECT_EQ(rep.states[0], RowState::kSlip);
  const double ut = std::hypot(s.v[0], s.v[1]);
  EXPECT_NEAR(s.v[2], mu * ut, 2e-5);
  EXPECT_NEAR(std::hypot(s.r[1], s.r[2]), mu * s.r[0], 1e-9 * s.r[0]);
  EXPECT_NEAR(s.r[1] * s.v[1] - s.r[2] * s.v[0], 0.0, 1e-9);  // r_T parallel to u_T ...
  EXPECT_LT(s.r[1] * s.v[0] + s.r[2] * s.v[1], 0.0);          // ... and opposite to it
  // Closed form of the convex model: m (v - v_free) = J^T r with u_n = mu ||u_T||,
  // ||r_T|| = mu r_n along -u_T: r_n = m (mu ||u_T|| + 2), ||u_T|| = 3 - mu r_n / m.
  const double rn = m * (mu * 3.0 + 2.0) / (1.0 + mu * mu);
  EXPECT_NEAR(s.r[0], rn, 2e-5);
}

TEST(Sap, SeparatingGivesExactlyNoImpulse) {
  SapSolver sap;
  GlobalSolution s;
  const SolverReport rep = sap.solve(particle(1.0, 1.0, 0.0, 0.5, 0.5), s);
  ASSERT_TRUE(rep.converged()) << rep.message;
  EXPECT_EQ(s.r.norm(), 0.0);
  EXPECT_EQ(rep.states[0], RowState::kOpen);
}

TEST(Sap, RandomProblemsReachTheConvexOptimum) {
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const GlobalProblem g = testing::random_global(seed, testing::mixed_blocks(seed, 4), 22);
    SapSolver sap;
    GlobalSolution s;
    const SolverReport rep = sap.solve(g, s);
    std::cout << "[figures] seed " << seed << " sap: " << to_string(rep.status) << ", " << rep.iterations
              << " Newton steps, natural-map error of the original problem " << rep.error << " (" << rep.message
              << ")\n";
    ASSERT_TRUE(rep.converged()) << rep.message;
    EXPECT_LE(rep.iterations, 30);
    // Optimality of the convex problem in local form: gamma in K, u~ = u + R gamma in K*
    // (not De Saxce-modified) and gamma . u~ = 0; bilateral u~ = 0; unilateral complementarity.
    EigenLdltSolver mass;
    const DelassusProblem local = to_delassus(g, mass);
    // The reported error is the common natural-map error of the original problem at r.
    EXPECT_NEAR(rep.error, natural_map_error(local, s.r).relative, 1e-12);
    EXPECT_GT(rep.error, 0.0) << "R > 0: the convex optimum is not the Signorini-Coulomb solution";
    const Eigen::VectorXd u = to_eigen(local.W) * s.r + local.q + sap.regularization().cwiseProduct(s.r);
    const double tol = 1e-8 * (1.0 + local.q.norm()) * (1.0 + s.r.norm());
    Index i = 0;
    for (const ConstraintBlock& b : local.blocks) {
      if (b.kind == BlockKind::kBilateral) {
        EXPECT_NEAR(u[i], 0.0, tol);
      } else if (b.kind == BlockKind::kUnilateral) {
        EXPECT_GE(s.r[i], 0.0);
        EXPECT_GE(u[i], -tol);
        EXPECT_NEAR(s.r[i] * u[i], 0.0, tol);
      } else {
        EXPECT_LE(std::hypot(s.r[i + 1], s.r[i + 2]), b.mu * s.r[i] * (1 + 1e-12) + 1e-300);
        EXPECT_GE(u[i] - b.mu * std::hypot(u[i + 1], u[i + 2]), -tol);
        EXPECT_NEAR(s.r.segment(i, 3).dot(u.segment(i, 3)), 0.0, tol);
      }
      i += block_size(b.kind);
    }
    // v and r are consistent with the global form: M v = H r + f.
    EXPECT_LT((to_eigen(g.M) * s.v - to_eigen(g.H) * s.r - g.f).norm(), 1e-8 * (1.0 + g.f.norm()));
  }
}

// The same answer whether the Newton matrix is factored dense or sparse: the two paths differ
// by round-off only.
TEST(Sap, DenseAndSparseNewtonMatricesGiveTheSameAnswer) {
  for (unsigned seed = 1; seed <= 4; ++seed) {
    const GlobalProblem g = testing::random_global(seed, testing::mixed_blocks(seed, 4), 22);
    SapOptions dense_options, sparse_options;
    dense_options.dense_max_velocities = 22;
    sparse_options.dense_max_velocities = 21;
    GlobalSolution dense, sparse;
    const SolverReport a = SapSolver(dense_options).solve(g, dense);
    const SolverReport b = SapSolver(sparse_options).solve(g, sparse);
    ASSERT_TRUE(a.converged() && b.converged()) << a.message << " / " << b.message;
    EXPECT_LT((dense.r - sparse.r).norm(), 1e-9 * (1.0 + dense.r.norm())) << "seed " << seed;
    EXPECT_LT((dense.v - sparse.v).norm(), 1e-9 * (1.0 + dense.v.norm())) << "seed " << seed;
  }
}

// Particles in a row, each pressed onto the next by a contact whose rows touch both: the
// Newton matrix is banded (bandwidth 5 of 36 velocities), so the dense path factors it within
// the band. It gives the sparse path's answer.
TEST(Sap, ABandedNewtonMatrixGivesTheSparsePathsAnswer) {
  const int count = 12;
  const Index n = 3 * count;
  GlobalProblem g;
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n), H = Eigen::MatrixXd::Zero(n, 3 * (count - 1) + 3);
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (Index i = 0; i < n; ++i) M(i, i) = 1.5 + uni(gen);
  for (int c = 0; c < count; ++c) {
    // Contact c: particle c against particle c + 1 (the last one against the ground), rows
    // (normal z, x, y) of the relative velocity.
    const int axes[3] = {2, 0, 1};
    for (int r = 0; r < 3; ++r) {
      H(3 * c + axes[r], 3 * c + r) = 1.0;
      if (c + 1 < count) H(3 * (c + 1) + axes[r], 3 * c + r) = -1.0 + 0.1 * uni(gen);
    }
    g.blocks.push_back({BlockKind::kContact, 0.3 + 0.2 * uni(gen)});
  }
  H.conservativeResize(n, 3 * count);
  g.M = from_eigen(EigenCsr(M.sparseView()));
  g.H = from_eigen(EigenCsr(H.sparseView()));
  g.f = Eigen::VectorXd::Zero(n);
  for (Index i = 0; i < n; ++i) g.f[i] = M(i, i) * (i % 3 == 2 ? -1.0 - 0.1 * i : 0.5 * uni(gen));
  g.w = Eigen::VectorXd::Zero(3 * count);
  SapOptions banded, sparse_options;
  sparse_options.dense_max_velocities = 0;
  GlobalSolution a, b;
  const SolverReport ra = SapSolver(banded).solve(g, a);
  const SolverReport rb = SapSolver(sparse_options).solve(g, b);
  ASSERT_TRUE(ra.converged() && rb.converged()) << ra.message << " / " << rb.message;
  EXPECT_GE(ra.iterations, 2);
  EXPECT_LT((a.r - b.r).norm(), 1e-9 * b.r.norm());
  EXPECT_LT((a.v - b.v).norm(), 1e-9 * (1.0 + b.v.norm()));
}

// A kinematic chain's contacts: a dense joint-space M (20 joints) and contacts whose rows reach
// every joint from a link to the root (consecutive columns 0..k, the dense path's column-by-column
// sums), with one block over every other joint (not consecutive: the general sums). The dense path
// gives the sparse path's answer.
TEST(Sap, ATreesWideContactBlocksGiveTheSparsePathsAnswer) {
  const Index n = 20, contacts = 8;
  std::mt19937 gen(9);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  Eigen::MatrixXd B(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j) B(i, j) = uni(gen);
  const Eigen::MatrixXd M = B * B.transpose() + static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n, 3 * contacts);
  GlobalProblem g;
  for (Index c = 0; c < contacts; ++c) {
    const Index reach = c + 1 < contacts ? 4 + 2 * c : n;  // columns 0 .. reach - 1
    for (Index r = 0; r < 3; ++r)
      for (Index j = 0; j < reach; ++j)
        if (c + 1 < contacts || j % 2 == 0) H(j, 3 * c + r) = uni(gen);
    g.blocks.push_back({BlockKind::kContact, 0.5 + 0.3 * uni(gen)});
  }
  g.M = from_eigen(EigenCsr(M.sparseView()));
  g.H = from_eigen(EigenCsr(H.sparseView()));
  g.f = M * Eigen::VectorXd::Constant(n, -0.5);
  g.w = Eigen::VectorXd::Zero(3 * contacts);
  SapOptions dense_options, sparse_options;
  sparse_options.dense_max_velocities = 0;
  GlobalSolution a, b;
  const SolverReport ra = SapSolver(dense_options).solve(g, a);
  const SolverReport rb = SapSolver(sparse_options).solve(g, b);
  ASSERT_TRUE(ra.converged() && rb.converged()) << ra.message << " / " << rb.message;
  EXPECT_GE(ra.iterations, 2);
  EXPECT_GT(a.r.norm(), 0.0);
  EXPECT_LT((a.r - b.r).norm(), 1e-9 * b.r.norm());
  EXPECT_LT((a.v - b.v).norm(), 1e-9 * (1.0 + b.v.norm()));
}

// A solver kept between solves (its workspace, the sparse pattern map and analysis) gives the
// bits of a fresh one: on new values with the same pattern, then on a new pattern, then back.
TEST(Sap, AKeptSolverGivesTheBitsOfAFreshOne) {
  for (const Index dense_max : {Index{0}, Index{100}}) {
    SapOptions o;
    o.dense_max_velocities = dense_max;
    SapSolver kept(o);
    const GlobalProblem problems[] = {testing::random_global(1, testing::mixed_blocks(1, 4), 22),
                                      testing::random_global(2, testing::mixed_blocks(1, 4), 22),
                                      testing::random_global(3, testing::mixed_blocks(3, 6), 30),
                                      testing::random_global(4, testing::mixed_blocks(1, 4), 22)};
    for (const GlobalProblem& g : problems) {
      GlobalSolution a, b;
      const SolverReport ra = kept.solve(g, a);
      const SolverReport rb = SapSolver(o).solve(g, b);
      ASSERT_TRUE(ra.converged()) << ra.message;
      EXPECT_EQ(ra.iterations, rb.iterations);
      EXPECT_EQ(ra.error, rb.error);
      EXPECT_TRUE(a.r == b.r && a.v == b.v) << "dense_max_velocities " << dense_max;
    }
  }
}

// With M factored by the caller (an integrator's factor, here block by block) the answer is
// the one SAP finds with its own factor, up to round-off, and a factor of the wrong size is
// refused.
TEST(Sap, AGivenMassFactorGivesItsOwnAnswer) {
  // Two particles on the plane, each with its own contact: M is block diagonal.
  GlobalProblem g;
  Eigen::Matrix<double, 6, 6> M = Eigen::Vector<double, 6>(2, 2, 2, 3, 3, 3).asDiagonal();
  M(0, 1) = M(1, 0) = 0.5;  // particle 0's mass couples x and y: a 3x3 block
  g.M = from_eigen(EigenCsr(M.sparseView()));
  Eigen::Matrix<double, 6, 6> H = Eigen::Matrix<double, 6, 6>::Zero();
  H(2, 0) = H(0, 1) = H(1, 2) = 1.0;  // particle 0: rows (z, x, y)
  H(5, 3) = H(3, 4) = H(4, 5) = 1.0;  // particle 1
  g.H = dense_to_csr(H);
  g.f = Eigen::Vector<double, 6>(1.0, 0.0, -4.0, 6.0, 1.0, -3.0);
  g.w = Eigen::VectorXd::Zero(6);
  g.blocks = {{BlockKind::kContact, 0.5}, {BlockKind::kContact, 0.3}};
  BlockDiagonalSolver blocks(3);
  blocks.compute(g.M);
  SapSolver sap;
  GlobalSolution own, given;
  const SolverReport a = sap.solve(g, own);
  const SolverReport b = sap.solve(g, blocks, given);
  ASSERT_TRUE(a.converged() && b.converged()) << a.message << " / " << b.message;
  EXPECT_LT((own.r - given.r).norm(), 1e-12 * own.r.norm());
  EXPECT_EQ(b.states[0], RowState::kStick);  // mu r_n > |r_T|: particle 0 sticks
  EXPECT_EQ(b.states[1], RowState::kSlip);   // particle 1 slides
  EigenLdltSolver small;
  small.compute(dense_to_csr(Eigen::Matrix3d::Identity()));
  EXPECT_THROW(sap.solve(g, small, given), Error);
}

TEST(Sap, IterationLimitAndBadInput) {
  const GlobalProblem g = testing::random_global(3, testing::mixed_blocks(3, 4), 22);
  SapOptions o;
  o.stop = {1e-14, 1};
  GlobalSolution s;
  const SolverReport rep = SapSolver(o).solve(g, s);
  EXPECT_EQ(rep.status, SolverStatus::kNotConverged);
  EXPECT_NE(rep.message.find("tolerance"), std::string::npos);
  GlobalProblem box = particle(1.0, 0.0, 0.0, -1.0, 0.3);
  box.blocks[0].kind = BlockKind::kContactBoxFriction;
  EXPECT_THROW(SapSolver().solve(box, s), Error);
  EXPECT_THROW(SapSolver(SapOptions{{1e-10, 10}, 0.0, 1e-3, 1.5}), Error);
  EXPECT_THROW(SapSolver(SapOptions{{1e-10, 10}, 0.025, 1e-3, 1.5, -1}), Error);
}

}  // namespace
}  // namespace sinew::constraints::constraints_sap_solver_test
