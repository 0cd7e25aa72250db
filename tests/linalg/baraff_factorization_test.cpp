// BaraffSolver's factorization over time: refactoring with new values of the same structure,
// failed refactors that leave no usable factorization, and iterative refinement on pivot blocks
// that the unpivoted elimination order handles poorly.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>
#include <vector>

#include "baraff_test_problems.hpp"
#include "expect_error.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::linalg_baraff_factorization_test {
namespace {

using test::baraff_rel_error;
using test::BaraffDense;
using test::BaraffInput;

constexpr double kTol = 1e-10;  // relative agreement with the dense reference (task requirement)

TEST(BaraffFactorization, IterativeRefinementRepairsIllConditionedPivotBlocks) {
  // Eight rigid bodies welded (m = 6) by arbitrary 6 x 6 blocks with entries in [-1, 1]: unlike
  // joint Jacobians, the maps j_b^-1 j_a do not compose like rigid motions, the pivot blocks
  // span many orders of magnitude and the unpivoted elimination loses digits although H is tame
  // (cond ~ 2e3). One refinement step restores full accuracy.
  std::mt19937_64 rng(141);
  BaraffInput in;
  for (int i = 0; i < 8; ++i) in.bodies.push_back({test::baraff_random_spd(6, rng)});
  for (int i = 1; i < 8; ++i) {
    BaraffConstraint c;
    c.body_a = i - 1;
    c.body_b = i;
    c.jacobian_a = test::baraff_random_matrix(6, 6, rng);
    c.jacobian_b = test::baraff_random_matrix(6, 6, rng);
    in.constraints.push_back(c);
  }
  const BaraffDense dense(in);
  const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
  Eigen::VectorXd v_ref, lambda_ref, mu_ref;
  dense.solve(F, c, Eigen::VectorXd(), {}, v_ref, lambda_ref, mu_ref);
  double error[2];
  for (int steps : {0, 1}) {
    BaraffSolverOptions options;
    options.refinement_steps = steps;
    const BaraffSolver solver(in.problem(), options);
    BaraffWorkspace ws;
    BaraffSolution out;
    solver.solve(F, c, ws, out);
    error[steps] = baraff_rel_error(out.lambda, lambda_ref);
  }
  EXPECT_GT(error[0], 1e-11);  // the case is hard for the plain algorithm...
  EXPECT_LT(error[1], 1e-13);  // ...and refinement fixes it
  BaraffSolverOptions bad;
  bad.refinement_steps = -1;
  EXPECT_SINEW_ERROR(BaraffSolver(in.problem(), bad), "refinement_steps");
}

TEST(BaraffFactorization, RefactorWithNewValuesOfTheSameStructure) {
  std::mt19937_64 rng(101);
  const auto edges = test::baraff_tree_edges(15, true, rng);
  const BaraffInput a = test::baraff_random_input(std::vector<int>(15, 6), edges, 4, rng);
  BaraffInput b = a;
  for (auto& body : b.bodies) body.mass = test::baraff_random_spd(6, rng);
  for (auto& c : b.constraints) {
    if (c.body_a >= 0) c.jacobian_a = test::baraff_random_matrix(c.jacobian_a.rows(), 6, rng);
    if (c.body_b >= 0) c.jacobian_b = test::baraff_random_matrix(c.jacobian_b.rows(), 6, rng);
  }
  BaraffSolver solver(a.problem());
  const auto id = solver.factor_id();
  solver.factor(b.problem());
  EXPECT_NE(solver.factor_id(), id);
  const BaraffDense dense(b);
  const Eigen::VectorXd F = test::baraff_random_matrix(dense.M.rows(), 1, rng);
  const Eigen::VectorXd c = test::baraff_random_matrix(dense.J.rows(), 1, rng);
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, c, ws, out);
  Eigen::VectorXd v_ref, lambda_ref, mu_ref;
  dense.solve(F, c, Eigen::VectorXd(), {}, v_ref, lambda_ref, mu_ref);
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);

  BaraffInput other = a;
  std::swap(other.constraints[0].body_a, other.constraints[0].body_b);
  std::swap(other.constraints[0].jacobian_a, other.constraints[0].jacobian_b);
  EXPECT_SINEW_ERROR(solver.factor(other.problem()), "structure", "primary constraint 0");
  BaraffInput fewer = a;
  fewer.constraints.pop_back();
  EXPECT_SINEW_ERROR(solver.factor(fewer.problem()), "structure", "15 bodies and 15 primary constraints");
  solver.solve(F, c, ws, out);  // a structure mismatch leaves the factorization untouched
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);

  // New values that make a pivot singular: the failed factor() leaves no usable factorization.
  BaraffInput broken = b;
  for (auto& con : broken.constraints) {
    if (con.body_a >= 0 && con.body_b >= 0) {
      con.jacobian_a.setZero();
      con.jacobian_b.setZero();
    }
  }
  EXPECT_SINEW_ERROR(solver.factor(broken.problem()), "singular");
  EXPECT_EQ(solver.factor_id(), 0u);
  EXPECT_SINEW_ERROR(solver.solve(F, c, ws, out), "no valid factorization");
  Eigen::VectorXd x;
  EXPECT_SINEW_ERROR(solver.solve_kkt(Eigen::VectorXd::Zero(F.size() + c.size()), ws, x), "no valid factorization");
  solver.factor(b.problem());
  solver.solve(F, c, ws, out);
  EXPECT_LT(baraff_rel_error(out.lambda, lambda_ref), kTol);
}

}  // namespace
}  // namespace sinew::linalg_baraff_factorization_test
