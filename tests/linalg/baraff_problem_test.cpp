// BaraffProblem: numbering of bodies and constraints, and every input check with its message.
#include "sinew/linalg/baraff_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <limits>
#include <random>
#include <vector>

#include "baraff_test_problems.hpp"
#include "expect_error.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::linalg_baraff_problem_test {
namespace {

// Bodies 0 (6-D), 1 (3-D), 2 (6-D); constraint 0: 0-1 (m = 2), constraint 1: world-2 (m = 3).
test::BaraffInput small_input() {
  std::mt19937_64 rng(7);
  return test::baraff_random_input({6, 3, 6}, {{0, 1}, {kBaraffWorld, 2}}, 3, rng);
}

TEST(BaraffProblem, NumbersBodiesAndConstraintsInOrder) {
  test::BaraffInput in = small_input();
  std::mt19937_64 rng(8);
  in.constraints[0].jacobian_a = test::baraff_random_matrix(2, 6, rng);
  in.constraints[0].jacobian_b = test::baraff_random_matrix(2, 3, rng);
  in.constraints[1].jacobian_b = test::baraff_random_matrix(3, 6, rng);
  in.auxiliary = {test::baraff_random_row(in, {1, 2}, true, rng), test::baraff_random_row(in, {0}, false, rng)};
  const BaraffProblem p = in.problem();
  EXPECT_EQ(p.num_bodies(), 3);
  EXPECT_EQ(p.num_constraints(), 2);
  EXPECT_EQ(p.num_auxiliary(), 2);
  EXPECT_EQ(p.num_dofs(), 15);
  EXPECT_EQ(p.num_multipliers(), 5);
  EXPECT_EQ(p.body_offset(2), 9);
  EXPECT_EQ(p.body_dim(1), 3);
  EXPECT_EQ(p.constraint_offset(1), 2);
  EXPECT_EQ(p.constraint_dim(1), 3);
  EXPECT_FALSE(p.auxiliary_workless());
  in.auxiliary.pop_back();
  EXPECT_TRUE(in.problem().auxiliary_workless());
}

TEST(BaraffProblem, EmptyProblemIsValid) {
  const BaraffProblem p({}, {});
  EXPECT_EQ(p.num_dofs(), 0);
  EXPECT_EQ(p.num_multipliers(), 0);
}

TEST(BaraffProblem, MassBlocksAreChecked) {
  test::BaraffInput in = small_input();
  in.bodies[1].mass = Eigen::MatrixXd::Identity(3, 2);
  EXPECT_SINEW_ERROR(in.problem(), "body 1", "square", "3 x 2");
  in = small_input();
  in.bodies[2].mass(0, 1) += 0.5;
  EXPECT_SINEW_ERROR(in.problem(), "body 2", "symmetric");
  in = small_input();
  in.bodies[0].mass = -Eigen::MatrixXd::Identity(6, 6);
  EXPECT_SINEW_ERROR(in.problem(), "body 0", "symmetric positive definite");
  in = small_input();
  in.bodies[0].mass = Eigen::MatrixXd::Zero(6, 6);
  EXPECT_SINEW_ERROR(in.problem(), "body 0", "positive definite");
  in = small_input();
  in.bodies[1].mass(2, 2) = std::nan("");
  EXPECT_SINEW_ERROR(in.problem(), "body 1", "non-finite");
  in = small_input();
  in.bodies[1].mass.resize(0, 0);
  EXPECT_SINEW_ERROR(in.problem(), "body 1", "d >= 1");
}

// New numbers on the same structure (a simulation's next step): a solver refactored from the
// updated problem gives the bits of one built from a new problem; a structure change or a bad
// number is refused naming it, and a refused call changes nothing.
TEST(BaraffProblem, AssignValuesTakesNewNumbersOnTheSameStructure) {
  test::BaraffInput in = small_input();
  std::mt19937_64 rng(9);
  in.auxiliary = {test::baraff_random_row(in, {1, 2}, true, rng)};
  BaraffProblem p = in.problem();
  test::BaraffInput next = small_input();
  std::mt19937_64 rng2(10);
  for (auto& b : next.bodies) b.mass = test::baraff_random_spd(static_cast<int>(b.mass.rows()), rng2);
  next.constraints[0].jacobian_a = test::baraff_random_matrix(next.constraints[0].jacobian_a.rows(), 6, rng2);
  next.auxiliary = {test::baraff_random_row(next, {1, 2}, true, rng2)};
  p.assign_values(next.bodies, next.constraints, next.auxiliary);
  const BaraffProblem fresh = next.problem();
  EXPECT_TRUE(p.bodies()[2].mass == fresh.bodies()[2].mass);
  BaraffSolver updated(in.problem()), made(fresh);
  updated.factor(p);
  const Eigen::VectorXd force = Eigen::VectorXd::LinSpaced(p.num_dofs(), -1.0, 1.0);
  const Eigen::VectorXd bias = Eigen::VectorXd::LinSpaced(p.num_multipliers(), 0.5, -0.5);
  const Eigen::VectorXd aux_bias = Eigen::VectorXd::Constant(1, 0.2);
  BaraffWorkspace ws;
  BaraffSolution a, b;
  updated.solve(force, bias, aux_bias, ws, a);
  made.solve(force, bias, aux_bias, ws, b);
  EXPECT_TRUE(a.acceleration == b.acceleration && a.lambda == b.lambda && a.mu == b.mu);

  test::BaraffInput bad = next;
  bad.bodies[1].mass(0, 0) = std::numeric_limits<double>::quiet_NaN();
  EXPECT_SINEW_ERROR(p.assign_values(bad.bodies, bad.constraints, bad.auxiliary), "body 1", "non-finite");
  EXPECT_TRUE(p.bodies()[1].mass == fresh.bodies()[1].mass) << "a refused call changes nothing";
  bad = next;
  bad.constraints[1].jacobian_b = test::baraff_random_matrix(bad.constraints[1].jacobian_b.rows() + 1, 6, rng2);
  EXPECT_SINEW_ERROR(p.assign_values(bad.bodies, bad.constraints, bad.auxiliary), "primary constraint 1", "structure");
  bad = next;
  bad.auxiliary[0].blocks.pop_back();
  EXPECT_SINEW_ERROR(p.assign_values(bad.bodies, bad.constraints, bad.auxiliary), "auxiliary row 0", "structure");
  bad = next;
  bad.bodies[2].mass(0, 1) += 0.5;
  EXPECT_SINEW_ERROR(p.assign_values(bad.bodies, bad.constraints, bad.auxiliary), "body 2", "symmetric");
}

TEST(BaraffProblem, ConstraintsAreChecked) {
  test::BaraffInput in = small_input();
  in.constraints[0].body_b = 3;
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 0", "body_b = 3", "[0, 3)");
  in = small_input();
  in.constraints[0].body_a = -2;
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 0", "body_a = -2");
  in = small_input();
  in.constraints[0].jacobian_b = Eigen::MatrixXd::Ones(in.constraints[0].jacobian_b.rows(), 6);
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 0", "jacobian_b must be m x 3", "dim of body 1");
  in = small_input();
  in.constraints[0].jacobian_a = Eigen::MatrixXd::Ones(in.constraints[0].jacobian_b.rows() + 1, 6);
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 0", "same number of rows");
  in = small_input();
  in.constraints[1].jacobian_a = Eigen::MatrixXd::Ones(1, 6);
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 1", "jacobian_a must be empty", "world");
  in = small_input();
  in.constraints[1].body_b = kBaraffWorld;
  in.constraints[1].jacobian_b.resize(0, 0);
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 1", "both are the world");
  in = small_input();
  in.constraints[0].body_b = 0;
  in.constraints[0].jacobian_b = in.constraints[0].jacobian_a;
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 0", "with itself");
  in = small_input();
  in.constraints[1].jacobian_b = Eigen::MatrixXd::Zero(0, 6);
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 1", "m >= 1");
  in = small_input();
  in.constraints[1].jacobian_b(0, 0) = std::numeric_limits<double>::infinity();
  EXPECT_SINEW_ERROR(in.problem(), "primary constraint 1", "non-finite");
}

TEST(BaraffProblem, AuxiliaryRowsAreChecked) {
  std::mt19937_64 rng(9);
  test::BaraffInput in = small_input();
  in.auxiliary = {BaraffAuxiliaryConstraint{}};
  EXPECT_SINEW_ERROR(in.problem(), "auxiliary constraint 0", "at least one block");
  in.auxiliary = {test::baraff_random_row(in, {0, 2}, true, rng)};
  in.auxiliary[0].blocks[1].body = 5;
  EXPECT_SINEW_ERROR(in.problem(), "auxiliary constraint 0, block 1", "body = 5", "[0, 3)");
  in.auxiliary[0].blocks[1].body = 0;
  EXPECT_SINEW_ERROR(in.problem(), "auxiliary constraint 0, block 1", "already appears");
  in.auxiliary = {test::baraff_random_row(in, {1}, true, rng), test::baraff_random_row(in, {1}, true, rng)};
  in.auxiliary[1].blocks[0].jacobian = Eigen::RowVectorXd::Ones(6);
  EXPECT_SINEW_ERROR(in.problem(), "auxiliary constraint 1, block 0", "1 x 3", "got 1 x 6");
  in.auxiliary[1].blocks[0].jacobian = Eigen::RowVectorXd::Ones(3);
  in.auxiliary[1].blocks[0].force = Eigen::VectorXd::Ones(2);
  EXPECT_SINEW_ERROR(in.problem(), "auxiliary constraint 1, block 0", "force", "length 3");
}

}  // namespace
}  // namespace sinew::linalg_baraff_problem_test
