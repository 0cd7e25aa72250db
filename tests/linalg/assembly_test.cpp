// Sparse assembly: sums of shifted local blocks against dense products with explicit shift
// matrices, duplicates summed in input order (bit-exact), plan reuse, 3x3 blocks, bad input.
#include "sinew/linalg/assembly.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <map>
#include <random>

#include "expect_error.hpp"

namespace sinew::linalg_assembly_test {
namespace {

TEST(Assembly, DuplicatesAreSummedInInputOrder) {
  std::mt19937_64 rng(1);
  std::uniform_int_distribution<Index> r(0, 39), c(0, 29);
  std::uniform_real_distribution<double> u(-1, 1);
  MatrixAssembler a(40, 30);
  std::map<std::pair<Index, Index>, double> want;  // summed in input order, like the plan
  for (int k = 0; k < 5000; ++k) {
    const Index i = r(rng), j = c(rng);
    const double v = u(rng);
    a.add(i, j, v);
    want[{i, j}] += v;
  }
  const CsrMatrix A = a.build();
  A.validate();
  ASSERT_EQ(A.values.size(), want.size());
  std::size_t k = 0;
  for (const auto& [ij, v] : want) {
    EXPECT_EQ(A.col_idx[k], ij.second);
    EXPECT_EQ(A.values[k], v) << "bit-exact sum in input order at (" << ij.first << ", " << ij.second << ")";
    ++k;
  }
}

TEST(Assembly, ShiftedBlocksEqualTheSumOfShiftMatrixProducts) {
  // A = sum_e J_e^T K_e J_e with J_e = [0 .. I .. 0] selecting the block's rows/columns.
  const Index n = 12;
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  MatrixAssembler a(n, n);
  std::mt19937_64 rng(2);
  for (int e = 0; e < 20; ++e) {
    const Index size = 1 + e % 4, at = (e * 5) % (n - size + 1);
    const Eigen::MatrixXd K = Eigen::MatrixXd::Random(size, size);
    Eigen::MatrixXd J = Eigen::MatrixXd::Zero(size, n);
    J.block(0, at, size, size).setIdentity();
    dense += J.transpose() * K * J;
    a.add_block(at, at, K);
  }
  EXPECT_LE((Eigen::MatrixXd(to_eigen(a.build())) - dense).norm(), 1e-14 * dense.norm());
}

TEST(Assembly, ScatteredElementMatrices) {
  // Triangle elements of a strip: each 3x3 element matrix scattered by its vertex map.
  const Index vertices = 10;
  MatrixAssembler a(vertices, vertices);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(vertices, vertices);
  for (Index t = 0; t + 2 < vertices; ++t) {
    const std::vector<Index> dofs{t, t + 2, t + 1};
    const Eigen::Matrix3d K = Eigen::Matrix3d::Random() + Eigen::Matrix3d::Identity() * t;
    a.add_scattered(dofs, K);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) dense(dofs[i], dofs[j]) += K(i, j);
  }
  EXPECT_LE((Eigen::MatrixXd(to_eigen(a.build())) - dense).norm(), 1e-14 * dense.norm());
  EXPECT_SINEW_ERROR(a.add_scattered({0, 1}, Eigen::Matrix3d::Identity()), "3x3", "DOF map's size 2");
}

TEST(Assembly, PlanReassemblesNewValuesIdentically) {
  std::mt19937_64 rng(3);
  std::uniform_int_distribution<Index> d(0, 49);
  std::uniform_real_distribution<double> u(-1, 1);
  std::vector<Position> pos(2000);
  for (Position& p : pos) p = {d(rng), d(rng)};
  MatrixAssembler a(50, 50);
  for (const Position& p : pos) a.add(p.row, p.col, u(rng));
  const AssemblyPlan plan = a.plan();
  EXPECT_EQ(plan.contributions(), 2000u);
  // New values on the same positions: the plan gives the same bits as a fresh build.
  std::vector<double> fresh(pos.size());
  for (double& v : fresh) v = u(rng);
  std::vector<double> values;
  plan.assemble(fresh.data(), values);
  MatrixAssembler c(50, 50);
  for (std::size_t k = 0; k < pos.size(); ++k) c.add(pos[k].row, pos[k].col, fresh[k]);
  const CsrMatrix C = c.build();
  EXPECT_EQ(C.values, values);
  EXPECT_EQ(C.col_idx, plan.col_idx());
  EXPECT_NE(C.values, a.build().values) << "the new values did change the matrix";
}

TEST(Assembly, ThreeByThreeBlocks) {
  std::vector<Position> pos{{0, 0}, {1, 2}, {0, 0}, {2, 1}, {1, 2}};
  std::vector<double> blocks(9 * pos.size());
  for (std::size_t k = 0; k < blocks.size(); ++k) blocks[k] = static_cast<double>(k % 13) - 6.0;
  const AssemblyPlan plan(3, 3, pos, 9);
  std::vector<double> values;
  plan.assemble(blocks.data(), values);
  const Bsr3Matrix B = to_bsr3(plan, values);
  B.validate();
  Eigen::MatrixXd want = Eigen::MatrixXd::Zero(9, 9);
  for (std::size_t k = 0; k < pos.size(); ++k)
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) want(3 * pos[k].row + r, 3 * pos[k].col + c) += blocks[9 * k + 3 * r + c];
  EXPECT_EQ(Eigen::MatrixXd(to_eigen(to_csr(B))), want);
  EXPECT_EQ(B.nnzb(), 3);
  EXPECT_SINEW_ERROR(to_csr(plan, values), "3x3 blocks");
}

TEST(Assembly, RejectsPositionsOutsideTheMatrix) {
  EXPECT_SINEW_ERROR(AssemblyPlan(3, 4, {{0, 0}, {3, 1}}), "contribution 1 at (3, 1)", "3x4");
  EXPECT_SINEW_ERROR(AssemblyPlan(3, 4, {{0, -1}}), "contribution 0");
  EXPECT_SINEW_ERROR(AssemblyPlan(3, 4, {}, 4), "width must be 1");
}

}  // namespace
}  // namespace sinew::linalg_assembly_test
