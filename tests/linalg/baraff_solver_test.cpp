// Baraff's O(n) KKT solver for primary constraints (Sections 6-7, Appendix A) against dense
// reference solves of the same system: chains, random trees, forests, stars, body dimensions
// 1..9 and constraint dimensions 1..6; elimination-order properties; cycles and bad pivots.
#include "sinew/linalg/baraff_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "baraff_test_problems.hpp"
#include "expect_error.hpp"

namespace sinew::linalg_baraff_solver_test {
namespace {

using test::baraff_rel_error;
using test::BaraffDense;
using test::BaraffInput;

constexpr double kTol = 1e-10;  // relative agreement with the dense reference (task requirement)

// Solves with Baraff and with dense LU for a random (F, c); checks lambda and v, and the
// equations themselves (eq. (6), eq. (5)).
void expect_matches_dense(const BaraffInput& in, std::mt19937_64& rng) {
  const BaraffProblem problem = in.problem();
  const BaraffSolver solver(problem);
  const BaraffDense dense(in);
  const Eigen::VectorXd F = test::baraff_random_matrix(problem.num_dofs(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(problem.num_multipliers(), 1, rng);
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, c, ws, out);
  Eigen::VectorXd v_ref, lambda_ref, mu_ref;
  dense.solve(F, c, Eigen::VectorXd(), {}, v_ref, lambda_ref, mu_ref);
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
  EXPECT_LT(baraff_rel_error(out.acceleration, v_ref), kTol);
  const double scale = F.norm() + c.norm();
  EXPECT_LT((dense.M * out.acceleration - dense.J.transpose() * out.lambda - F).norm(), kTol * scale);  // eq. (6)
  EXPECT_LT((dense.J * out.acceleration + c).norm(), kTol * scale);                                     // eq. (5)
  EXPECT_TRUE(out.mu.size() == 0 && out.aux_value.size() == 0);
}

TEST(BaraffSolver, RigidChainsMatchDenseSolve) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    std::mt19937_64 rng(seed);
    const int n = 10 + static_cast<int>(seed) * 7;
    const bool grounded = seed % 2 == 0;
    const BaraffInput in =
        test::baraff_random_input(std::vector<int>(n, 6), test::baraff_chain_edges(n, grounded), 6, rng);
    SCOPED_TRACE(seed);
    expect_matches_dense(in, rng);
  }
}

TEST(BaraffSolver, RandomTreesWithMixedDimensionsMatchDenseSolve) {
  const std::vector<int> dim_choices{1, 2, 3, 4, 6, 9};
  int large = 0;
  for (std::uint64_t seed = 10; seed < 18; ++seed) {
    std::mt19937_64 rng(seed);
    const int n = 20 + static_cast<int>(seed % 5) * 6;
    std::vector<int> dims(n);
    for (int& d : dims) d = dim_choices[rng() % dim_choices.size()];
    // max_m = 9 lets constraints between 9-D bodies exceed the fixed-size kernels (d <= 6).
    const BaraffInput in =
        test::baraff_random_input(dims, test::baraff_tree_edges(n, seed % 3 != 0, rng), seed % 2 ? 6 : 9, rng);
    for (const auto& c : in.constraints) large += (c.body_a >= 0 ? c.jacobian_a : c.jacobian_b).rows() > 6;
    SCOPED_TRACE(seed);
    expect_matches_dense(in, rng);
  }
  EXPECT_GT(large, 0);  // the run-time-sized kernels ran for constraints too, not only bodies
}

TEST(BaraffSolver, ParticleTreesAndAllConstraintDimensions) {
  // Particles (d = 3) with 1..3-D constraints, and rigid bodies with every m in 1..6.
  for (std::uint64_t seed = 20; seed < 24; ++seed) {
    std::mt19937_64 rng(seed);
    const BaraffInput in = test::baraff_random_input(std::vector<int>(30, seed < 22 ? 3 : 6),
                                                     test::baraff_tree_edges(30, seed % 2 == 1, rng), 6, rng);
    std::vector<int> seen(7, 0);
    for (const auto& c : in.constraints) ++seen[(c.body_a >= 0 ? c.jacobian_a : c.jacobian_b).rows()];
    if (seed >= 22) {
      for (int m = 1; m <= 6; ++m) {
        EXPECT_GT(seen[m], 0) << "the generator should produce m = " << m;
      }
    }
    SCOPED_TRACE(seed);
    expect_matches_dense(in, rng);
  }
}

TEST(BaraffSolver, ForestsWithSeveralComponentsAndIsolatedBodies) {
  std::mt19937_64 rng(31);
  // Components: grounded chain (bodies 0-7), floating tree (8-19), grounded tree (20-31),
  // isolated bodies 32 and 33, floating chain (34-39).
  std::vector<std::pair<int, int>> edges = test::baraff_chain_edges(8, true, 0);
  for (const auto& e : test::baraff_tree_edges(12, false, rng, 8)) edges.push_back(e);
  for (const auto& e : test::baraff_tree_edges(12, true, rng, 20)) edges.push_back(e);
  for (const auto& e : test::baraff_chain_edges(6, false, 34)) edges.push_back(e);
  std::shuffle(edges.begin(), edges.end(), rng);
  std::vector<int> dims(40);
  for (int& d : dims) d = rng() % 2 ? 6 : 3;
  const BaraffInput in = test::baraff_random_input(dims, edges, 6, rng);
  const BaraffSolver solver(in.problem());
  EXPECT_EQ(solver.num_components(), 6);
  expect_matches_dense(in, rng);
}

TEST(BaraffSolver, StarWithDenseSchurComplementMatchesLdlt) {
  // Figure 1b: every constraint shares body 0, so A = J M^-1 J^T is completely dense, yet H's
  // graph is a tree. Reference: LDLT of the Schur complement (eq. (7)).
  std::mt19937_64 rng(41);
  std::vector<std::pair<int, int>> edges;
  for (int i = 1; i < 25; ++i) edges.emplace_back(0, i);
  const BaraffInput in = test::baraff_random_input(std::vector<int>(25, 6), edges, 1, rng);
  const BaraffProblem problem = in.problem();
  const BaraffDense dense(in);
  const Eigen::MatrixXd A = dense.J * dense.M.inverse() * dense.J.transpose();
  EXPECT_GT((A.array().abs() > 1e-12).count(), A.size() * 9 / 10);  // the point of the example
  const Eigen::VectorXd b = test::baraff_random_matrix(problem.num_multipliers(), 1, rng);
  const BaraffSolver solver(problem);
  BaraffWorkspace ws;
  Eigen::VectorXd lambda;
  solver.solve_multipliers(b, ws, lambda);
  EXPECT_LT(baraff_rel_error(lambda, A.ldlt().solve(b)), kTol);
  expect_matches_dense(in, rng);
}

TEST(BaraffSolver, SolveMultipliersMatchesSchurComplement) {
  std::mt19937_64 rng(51);
  const BaraffInput in =
      test::baraff_random_input(std::vector<int>(40, 6), test::baraff_tree_edges(40, true, rng), 5, rng);
  const BaraffDense dense(in);
  const Eigen::MatrixXd A = dense.J * dense.M.llt().solve(dense.J.transpose());
  const BaraffSolver solver(in.problem());
  BaraffWorkspace ws;
  Eigen::VectorXd lambda;
  const Eigen::VectorXd b = test::baraff_random_matrix(A.rows(), 1, rng);
  solver.solve_multipliers(b, ws, lambda);
  EXPECT_LT(baraff_rel_error(lambda, A.ldlt().solve(b)), kTol);
}

TEST(BaraffSolver, SolveKktMatchesDenseLuForGeneralRightHandSides) {
  std::mt19937_64 rng(61);
  const BaraffInput in =
      test::baraff_random_input({6, 3, 6, 6, 2, 6, 3, 3, 6, 1, 6, 6}, test::baraff_tree_edges(12, true, rng), 6, rng);
  const BaraffDense dense(in);
  const auto n = dense.M.rows(), m = dense.J.rows();
  Eigen::MatrixXd H = Eigen::MatrixXd::Zero(n + m, n + m);
  H << dense.M, -dense.J.transpose(), -dense.J, Eigen::MatrixXd::Zero(m, m);
  const BaraffSolver solver(in.problem());
  BaraffWorkspace ws;
  Eigen::VectorXd x;
  for (int r = 0; r < 5; ++r) {
    const Eigen::VectorXd z = test::baraff_random_matrix(n + m, 1, rng);
    solver.solve_kkt(z, ws, x);
    EXPECT_LT(baraff_rel_error(x, H.fullPivLu().solve(z)), kTol);
    EXPECT_LT((H * x - z).norm(), kTol * z.norm());
  }
}

TEST(BaraffSolver, OneFactorizationServesManyRightHandSidesWithoutReallocation) {
  std::mt19937_64 rng(71);
  const BaraffInput in =
      test::baraff_random_input(std::vector<int>(30, 6), test::baraff_tree_edges(30, true, rng), 6, rng);
  const BaraffDense dense(in);
  const BaraffSolver solver(in.problem());
  const auto id = solver.factor_id();
  BaraffWorkspace ws;
  BaraffSolution out;
  const double* v_data = nullptr;
  const double* l_data = nullptr;
  for (int r = 0; r < 25; ++r) {
    const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
    const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
    solver.solve(F, c, ws, out);
    if (r == 0) {
      v_data = out.acceleration.data();
      l_data = out.lambda.data();
    }
    EXPECT_EQ(out.acceleration.data(), v_data);  // outputs sized once, then reused
    EXPECT_EQ(out.lambda.data(), l_data);
    Eigen::VectorXd v_ref, lambda_ref, mu_ref;
    dense.solve(F, c, Eigen::VectorXd(), {}, v_ref, lambda_ref, mu_ref);
    EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
    EXPECT_LT(baraff_rel_error(out.acceleration, v_ref), kTol);
  }
  EXPECT_EQ(solver.factor_id(), id);  // solves never refactor
}

TEST(BaraffSolver, EliminationOrderIsPerfect) {
  // Section 7.1: every node precedes its parent, so each node has at most one neighbour later in
  // the order (no fill-in), and a world constraint is the root of its tree (no later neighbour).
  std::mt19937_64 rng(81);
  std::vector<std::pair<int, int>> edges = test::baraff_tree_edges(50, true, rng);
  for (const auto& e : test::baraff_chain_edges(20, true, 50)) edges.push_back(e);
  const BaraffInput in = test::baraff_random_input(std::vector<int>(70, 6), edges, 3, rng);
  const BaraffSolver solver(in.problem());
  const std::vector<int>& order = solver.elimination_order();
  const int nb = 70, nodes = nb + static_cast<int>(in.constraints.size());
  ASSERT_EQ(static_cast<int>(order.size()), nodes);
  std::vector<int> pos(nodes, -1);
  for (int p = 0; p < nodes; ++p) pos[order[p]] = p;
  for (int p : pos) ASSERT_GE(p, 0);  // a permutation
  std::vector<int> later(nodes, 0);
  for (int c = 0; c < static_cast<int>(in.constraints.size()); ++c)
    for (int b : {in.constraints[c].body_a, in.constraints[c].body_b})
      if (b != kBaraffWorld) ++later[pos[b] < pos[nb + c] ? b : nb + c];
  int roots = 0;
  for (int v = 0; v < nodes; ++v) {
    EXPECT_LE(later[v], 1) << "node " << v;
    roots += later[v] == 0;
  }
  EXPECT_EQ(roots, solver.num_components());
  EXPECT_EQ(roots, 2);
  for (int c = 0; c < static_cast<int>(in.constraints.size()); ++c) {
    if (in.constraints[c].body_a == kBaraffWorld || in.constraints[c].body_b == kBaraffWorld) {
      EXPECT_EQ(later[nb + c], 0) << "world constraint " << c << " must be a root";
    }
  }
}

TEST(BaraffSolver, LongChainHasSmallResidual) {
  // 20000 bodies: the ordering must not recurse, and the answer must satisfy eqs. (5)-(6).
  std::mt19937_64 rng(91);
  const int n = 20000;
  const BaraffInput in = test::baraff_random_input(std::vector<int>(n, 6), test::baraff_chain_edges(n, true), 3, rng);
  const BaraffProblem problem = in.problem();
  const BaraffSolver solver(problem);
  const Eigen::VectorXd F = test::baraff_random_matrix(problem.num_dofs(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(problem.num_multipliers(), 1, rng);
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, c, ws, out);
  // Residuals block by block, without dense matrices.
  Eigen::VectorXd r1 = -F, r2 = c;
  for (int i = 0; i < n; ++i) r1.segment(6 * i, 6) += in.bodies[i].mass * out.acceleration.segment(6 * i, 6);
  for (int k = 0; k < n; ++k) {
    const BaraffConstraint& con = in.constraints[k];
    const auto off = problem.constraint_offset(k), m = problem.constraint_dim(k);
    for (auto [b, j] : {std::make_pair(con.body_a, &con.jacobian_a), std::make_pair(con.body_b, &con.jacobian_b)}) {
      if (b == kBaraffWorld) continue;
      r1.segment(6 * b, 6) -= j->transpose() * out.lambda.segment(off, m);
      r2.segment(off, m) += *j * out.acceleration.segment(6 * b, 6);
    }
  }
  const double scale = F.norm() + c.norm();
  EXPECT_LT(r1.norm(), kTol * scale);
  EXPECT_LT(r2.norm(), kTol * scale);
}

TEST(BaraffSolver, CycleOfPrimaryConstraintsIsAnError) {
  std::mt19937_64 rng(111);
  // 0-1, 1-2, 2-3, 3-1: constraint 3 closes the loop 1-2-3.
  const BaraffInput loop = test::baraff_random_input(std::vector<int>(4, 6), {{0, 1}, {1, 2}, {2, 3}, {3, 1}}, 3, rng);
  EXPECT_SINEW_ERROR(BaraffSolver(loop.problem()), "primary constraint 3", "between body 3 and body 1", "cycle",
                     "loop constraints must be auxiliary");
  // Two world constraints in one tree close a loop through the world.
  const BaraffInput twice =
      test::baraff_random_input(std::vector<int>(3, 6), {{0, kBaraffWorld}, {0, 1}, {1, 2}, {kBaraffWorld, 2}}, 3, rng);
  EXPECT_SINEW_ERROR(BaraffSolver(twice.problem()), "primary constraint 3", "between the world and body 2",
                     "through the world", "auxiliary");
  // Two parallel constraints between the same bodies are a cycle of length two.
  const BaraffInput parallel = test::baraff_random_input(std::vector<int>(2, 6), {{0, 1}, {1, 0}}, 3, rng);
  EXPECT_SINEW_ERROR(BaraffSolver(parallel.problem()), "primary constraint 1", "cycle");
  // Separate trees each grounded once are fine.
  const BaraffInput ok =
      test::baraff_random_input(std::vector<int>(4, 6), {{0, kBaraffWorld}, {0, 1}, {2, 3}, {kBaraffWorld, 3}}, 3, rng);
  EXPECT_EQ(BaraffSolver(ok.problem()).num_components(), 2);
}

TEST(BaraffSolver, RankDeficientConstraintPivotIsReported) {
  // A 4-D constraint cannot act on a 3-D particle below it in the tree: its pivot block
  // -j Dinv j^T (4 x 4) has rank 3. Body 0 (6-D) roots the tree, so the particle is the child.
  std::mt19937_64 rng(121);
  BaraffInput in;
  in.bodies = {{test::baraff_random_spd(6, rng)}, {test::baraff_random_spd(3, rng)}};
  BaraffConstraint c;
  c.body_a = 0;
  c.body_b = 1;
  c.jacobian_a = test::baraff_random_matrix(4, 6, rng);
  c.jacobian_b = test::baraff_random_matrix(4, 3, rng);
  in.constraints = {c};
  EXPECT_SINEW_ERROR(BaraffSolver(in.problem()), "primary constraint 0", "singular", "body 1", "full row rank");
  // A redundant row (row 2 = row 0 + row 1) is reported the same way.
  in.bodies[1].mass = test::baraff_random_spd(6, rng);
  in.constraints[0].jacobian_a = test::baraff_random_matrix(3, 6, rng);
  in.constraints[0].jacobian_b = test::baraff_random_matrix(3, 6, rng);
  in.constraints[0].jacobian_b.row(2) = in.constraints[0].jacobian_b.row(0) + in.constraints[0].jacobian_b.row(1);
  EXPECT_SINEW_ERROR(BaraffSolver(in.problem()), "primary constraint 0", "singular at row 2");
}

TEST(BaraffSolver, EmptyAndUnconstrainedProblems) {
  const BaraffSolver empty(BaraffProblem({}, {}));
  BaraffWorkspace ws;
  BaraffSolution out;
  empty.solve(Eigen::VectorXd(), Eigen::VectorXd(), ws, out);
  EXPECT_EQ(out.acceleration.size(), 0);
  EXPECT_EQ(empty.num_components(), 0);
  // Free bodies only: every body is its own tree and v = M^-1 F.
  std::mt19937_64 rng(151);
  BaraffInput in;
  in.bodies = {{test::baraff_random_spd(6, rng)}, {test::baraff_random_spd(3, rng)}, {test::baraff_random_spd(1, rng)}};
  const BaraffSolver free_bodies(in.problem());
  EXPECT_EQ(free_bodies.num_components(), 3);
  const Eigen::VectorXd F = test::baraff_random_matrix(10, 1, rng);
  free_bodies.solve(F, Eigen::VectorXd(), ws, out);
  EXPECT_LT(baraff_rel_error(out.acceleration, BaraffDense(in).M.ldlt().solve(F)), 1e-14);
  EXPECT_EQ(out.lambda.size(), 0);
}

TEST(BaraffSolver, SolveChecksSizes) {
  std::mt19937_64 rng(131);
  const BaraffInput in = test::baraff_random_input(std::vector<int>(3, 6), test::baraff_chain_edges(3, false), 3, rng);
  const BaraffProblem problem = in.problem();
  const BaraffSolver solver(problem);
  BaraffWorkspace ws;
  BaraffSolution out;
  const Eigen::VectorXd F = Eigen::VectorXd::Zero(problem.num_dofs());
  const Eigen::VectorXd c = Eigen::VectorXd::Zero(problem.num_multipliers());
  EXPECT_SINEW_ERROR(solver.solve(Eigen::VectorXd::Zero(5), c, ws, out), "force", "18");
  EXPECT_SINEW_ERROR(solver.solve(F, Eigen::VectorXd::Zero(50), ws, out), "bias", "num_multipliers");
  Eigen::VectorXd x;
  EXPECT_SINEW_ERROR(solver.solve_kkt(F, ws, x), "rhs", "num_dofs + num_multipliers");
  EXPECT_SINEW_ERROR(solver.solve_multipliers(F, ws, x), "b must have");
  BaraffSolverOptions bad;
  bad.pivot_tolerance = -1.0;
  EXPECT_SINEW_ERROR(BaraffSolver(problem, bad), "pivot_tolerance");
  bad.pivot_tolerance = 1e-12;
  bad.auxiliary_min_rcond = 2.0;
  EXPECT_SINEW_ERROR(BaraffSolver(problem, bad), "auxiliary_min_rcond");
}

}  // namespace
}  // namespace sinew::linalg_baraff_solver_test
