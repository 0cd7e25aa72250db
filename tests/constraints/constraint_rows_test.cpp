// ConstraintRows and assemble_step_problem: the FCLIB global form of a velocity-level step,
// stabilization of violations, compliance from (c, d), and clear errors.
#include "sinew/constraints/constraint.hpp"

#include <gtest/gtest.h>

#include <Eigen/Sparse>
#include <random>

#include "expect_error.hpp"

namespace sinew::constraints::constraints_constraint_rows_test {
namespace {

CsrMatrix diagonal(const std::vector<double>& d) {
  CsrMatrix A;
  A.rows = A.cols = static_cast<Index>(d.size());
  for (std::size_t i = 0; i < d.size(); ++i) {
    A.col_idx.push_back(static_cast<Index>(i));
    A.values.push_back(d[i]);
    A.row_ptr.push_back(static_cast<Index>(i + 1));
  }
  return A;
}

TEST(ConstraintRows, StepProblemOfAContactAndACompliantJoint) {
  // Particle 0 (3 DOFs) in contact with the ground plane z = 0 at gap -0.01 (penetrating) and an
  // open contact of particle 1 at gap 0.2; a compliant bilateral row between their x coordinates.
  ConstraintRows rows;
  const Index c0 = rows.add_block(BlockKind::kContact, 0.5, {-0.01, 0, 0}, {0, 0, 0}, "contact 0");
  rows.jacobian.emplace_back(c0, 2, 1.0);
  rows.jacobian.emplace_back(c0 + 1, 0, 1.0);
  rows.jacobian.emplace_back(c0 + 2, 1, 1.0);
  const Index c1 = rows.add_block(BlockKind::kUnilateral, 0.0, {0.2}, {0}, "contact 1");
  rows.jacobian.emplace_back(c1, 5, 1.0);
  const Index j = rows.add_block(BlockKind::kBilateral, 0.0, {0.03}, {0.5}, "joint");
  rows.jacobian.emplace_back(j, 0, 1.0);
  rows.jacobian.emplace_back(j, 3, -1.0);
  rows.set_compliance(j, 1, 1e-3, 0.02);
  const double h = 0.01;
  StabilizationOptions stab;
  stab.erp = 0.5;
  const Eigen::VectorXd v_free = Eigen::VectorXd::LinSpaced(6, -1, 1);
  const GlobalProblem g = assemble_step_problem(rows, diagonal({2, 2, 2, 3, 3, 3}), v_free, h, stab);
  ASSERT_EQ(g.rows(), 5);
  ASSERT_EQ(g.velocities(), 6);
  EXPECT_DOUBLE_EQ(g.f[4], 3 * v_free[4]) << "f = A v_free";
  const Eigen::MatrixXd H = Eigen::MatrixXd(to_eigen(g.H));
  EXPECT_EQ(H(2, 0), 1.0);  // H = J^T: column 0 is the normal row
  EXPECT_EQ(H(3, 4), -1.0);
  EXPECT_DOUBLE_EQ(g.w[0], 0.5 * -0.01 / h) << "penetration removed at the erp rate";
  EXPECT_DOUBLE_EQ(g.w[3], 0.2 / h) << "an open contact keeps its whole gap";
  EXPECT_DOUBLE_EQ(g.w[4], 0.5 * 0.03 / (h + 0.02) - 0.5) << "compliant: phi / (h + d), minus the target";
  ASSERT_EQ(g.compliance.size(), 5);
  EXPECT_DOUBLE_EQ(g.compliance[4], 1e-3 / (h * (h + 0.02)));
  EXPECT_EQ(g.compliance[0], 0.0);
  EXPECT_EQ(g.blocks.size(), 3u);
}

TEST(ConstraintRows, WeightedStepProblemMovesEachKindOfRowThroughItsOwnLaw) {
  // theta_vq < 1: a position-level row sees its gap through q1 = q0 + h (tvq v + (1 - tvq) v0),
  // so phidot = J v0 enters w; a hard velocity-level row (a drive) keeps implicit Euler's w.
  ConstraintRows rows;
  const Index normal = rows.add_block(BlockKind::kContact, 0.5, {0.01, 0, 0}, {0, 0, 0}, "contact");
  const Index hard = rows.add_block(BlockKind::kBilateral, 0.0, {-0.002}, {0.0}, "hard");
  const Index soft = rows.add_block(BlockKind::kBilateral, 0.0, {0.003}, {0.0}, "soft");
  const Index drive = rows.add_block(BlockKind::kBilateral, 0.0, {0.0}, {0.7}, "drive");
  rows.set_compliance(soft, 1, 1e-4, 0.01);
  rows.set_velocity_level(drive, 1);
  for (Index r = 0; r < rows.rows(); ++r)
    for (Index c = 0; c < 4; ++c) rows.jacobian.emplace_back(r, c, 0.25 * (r + 1) - 0.5 * c);
  const Eigen::VectorXd v0 = Eigen::VectorXd::LinSpaced(4, -0.3, 0.9), v_free = Eigen::VectorXd::Constant(4, 0.1);
  const double h = 0.01, erp = 0.4;
  StabilizationOptions stab;
  stab.erp = erp;
  StepWeights weights;
  weights.theta_q = 0.5;
  weights.theta_v = 0.6;
  weights.theta_vq = 0.5;
  const GlobalProblem g = assemble_step_problem(rows, diagonal({1, 2, 3, 4}), v_free, h, stab, weights, v0);
  const GlobalProblem euler = assemble_step_problem(rows, diagonal({1, 2, 3, 4}), v_free, h, stab);
  auto phidot = [&](Index r) {
    double s = 0.0;
    for (Index c = 0; c < 4; ++c) s += (0.25 * (r + 1) - 0.5 * c) * v0[c];
    return s;
  };
  const double tvq = 0.5, tq = 0.5, tv = 0.6;
  EXPECT_NEAR(g.w[normal], (0.01 / h + (1 - tvq) * phidot(normal)) / tvq, 1e-12) << "open gap: whole";
  EXPECT_NEAR(g.w[normal + 1], (1 - tvq) * phidot(normal + 1) / tvq, 1e-12) << "friction: no gap";
  EXPECT_NEAR(g.w[hard], (erp * -0.002 / h + (1 - tvq) * phidot(hard)) / tvq, 1e-12);
  const double l = h * tq * tvq + 0.01 * tv;
  EXPECT_NEAR(g.w[soft], (erp * 0.003 + (0.01 + tq * h) * phidot(soft)) / l - phidot(soft), 1e-12);
  EXPECT_NEAR(g.compliance[soft], 1e-4 / (h * l), 1e-9);
  EXPECT_EQ(g.w[drive], euler.w[drive]) << "a velocity-level row: implicit Euler's w, -0.7";
  EXPECT_EQ(g.w[drive], -0.7);
  EXPECT_NE(phidot(drive), 0.0);
}

TEST(ConstraintRows, CompliantRowReproducesTheCompliantForceLaw) {
  // One particle (mass m) on a compliant spring-like row phi = x: the step's impulse must equal
  // h lambda with lambda = -(phi_{n+1} + d phidot) / c, phi_{n+1} = phi + h v, phidot = v.
  const double m = 2.0, h = 0.01, c = 1e-2, d = 0.05, phi = 0.1, v_free = 0.3;
  ConstraintRows rows;
  rows.add_block(BlockKind::kBilateral, 0.0, {phi}, {0}, "spring");
  rows.jacobian.emplace_back(0, 0, 1.0);
  rows.set_compliance(0, 1, c, d);
  const GlobalProblem g = assemble_step_problem(rows, diagonal({m}), Eigen::VectorXd::Constant(1, v_free), h);
  // u = v + w + C r = 0 with m v = m v_free + r: solve the 2x2 system by hand.
  const double r = -(v_free + g.w[0]) / (1.0 / m + g.compliance[0]);
  const double v = v_free + r / m;
  EXPECT_NEAR(r / h, -(phi + h * v + d * v) / c, 1e-12);
}

// H = J^T and f = A v_free as Eigen forms them (setFromTriplets, sparse times dense), bit for
// bit: repeated (row, DOF) pairs summed in the order they were added, explicit zeros kept.
TEST(ConstraintRows, StepProblemHoldsEigensSumsOfTheTriplets) {
  std::mt19937 rng(11);
  std::uniform_int_distribution<int> dof(0, 8);
  std::uniform_real_distribution<double> value(-1.0, 1.0);
  ConstraintRows rows;
  for (int b = 0; b < 6; ++b) {
    const Index first = rows.add_block(b % 2 ? BlockKind::kContact : BlockKind::kBilateral, 0.3,
                                       std::vector<double>(b % 2 ? 3 : 1, 0.01),
                                       std::vector<double>(b % 2 ? 3 : 1, 0.0), "block " + std::to_string(b));
    for (Index r = first; r < rows.rows(); ++r)
      for (int e = 0; e < 7; ++e) rows.jacobian.emplace_back(r, dof(rng), e == 3 ? 0.0 : value(rng));  // repeats
  }
  CsrMatrix A = diagonal({2, 2, 2, 3, 3, 3, 1, 1, 1});
  A.values[4] = 3.5;
  Eigen::VectorXd v_free(9);
  for (int i = 0; i < 9; ++i) v_free[i] = value(rng);
  const GlobalProblem g = assemble_step_problem(rows, A, v_free, 0.01);
  Eigen::SparseMatrix<double> J(rows.rows(), 9);
  J.setFromTriplets(rows.jacobian.begin(), rows.jacobian.end());
  const CsrMatrix expected = from_eigen(EigenCsr(J.transpose()));
  EXPECT_EQ(g.H.row_ptr, expected.row_ptr);
  EXPECT_EQ(g.H.col_idx, expected.col_idx);
  EXPECT_EQ(g.H.values, expected.values);
  EXPECT_TRUE(g.f == Eigen::VectorXd(to_eigen(A) * v_free));
}

TEST(ConstraintRows, AddRowsAppendsTheBlocksAddBlockWould) {
  // add_rows (a joint's rows at once) against add_block row by row: the same blocks, labels and
  // per-row arrays, after rows already there (a compliant one, so that the new rows' defaults show).
  ConstraintRows one, many;
  for (ConstraintRows* rows : {&one, &many}) {
    rows->add_block(BlockKind::kUnilateral, 0.0, {0.5}, {0.25}, "limit");
    rows->set_compliance(0, 1, 1e-3, 0.1);
  }
  const RowLabel hinge("hinge 'elbow'");
  const char* const roles[] = {" x", " y", " z"};
  const double phi[] = {1e-3, -2e-3, 0.0};
  for (int k = 0; k < 3; ++k) one.add_block(BlockKind::kBilateral, 0.0, {phi[k]}, {0.0}, hinge.with_role(roles[k]));
  EXPECT_EQ(many.add_rows(BlockKind::kBilateral, 3, phi, hinge, roles), 1);
  EXPECT_EQ(many.add_rows(BlockKind::kBilateral, 0, phi, hinge, roles), 4);  // nothing to add
  ASSERT_EQ(many.blocks.size(), one.blocks.size());
  for (std::size_t b = 0; b < one.blocks.size(); ++b) {
    EXPECT_EQ(many.blocks[b].kind, one.blocks[b].kind);
    EXPECT_EQ(many.blocks[b].mu, one.blocks[b].mu);
    EXPECT_EQ(many.labels[b].text(), one.labels[b].text());
  }
  EXPECT_EQ(many.labels[3].text(), "hinge 'elbow' z");
  EXPECT_EQ(many.phi, one.phi);
  EXPECT_EQ(many.target, one.target);
  EXPECT_EQ(many.compliance, one.compliance);
  EXPECT_EQ(many.damping, one.damping);
  EXPECT_EQ(many.velocity_level, one.velocity_level);
  EXPECT_SINEW_ERROR(many.add_rows(BlockKind::kContact, 1, phi, hinge, roles), "one-row blocks");
  EXPECT_SINEW_ERROR(many.add_rows(BlockKind::kBilateral, -1, phi, hinge, roles), "count >= 0");
  EXPECT_EQ(many.rows(), 4);  // a refused call adds nothing
}

TEST(ConstraintRows, BadRowsAreErrors) {
  ConstraintRows rows;
  EXPECT_SINEW_ERROR(rows.add_block(BlockKind::kContact, 0.5, {0}, {0}, "c"), "contact block has 3 rows");
  rows.add_block(BlockKind::kUnilateral, 0.0, {0.1}, {0}, "limit");
  rows.jacobian.emplace_back(0, 7, 1.0);
  EXPECT_SINEW_ERROR(assemble_step_problem(rows, diagonal({1, 1}), Eigen::VectorXd::Zero(2), 0.01), "(0, 7)");
  rows.jacobian.clear();
  EXPECT_SINEW_ERROR(rows.set_compliance(0, 1, -1.0, 0.0), "finite and >= 0");
  EXPECT_SINEW_ERROR(assemble_step_problem(rows, diagonal({1}), Eigen::VectorXd::Zero(1), 0.0), "h must be");
  StabilizationOptions stab;
  stab.erp = 0.0;
  EXPECT_SINEW_ERROR(assemble_step_problem(rows, diagonal({1}), Eigen::VectorXd::Zero(1), 0.01, stab), "erp");
}

}  // namespace
}  // namespace sinew::constraints::constraints_constraint_rows_test
