// BlockDiagonalSolver against dense solves on block-diagonal matrices of mixed block sizes, the
// blocks diagonal_blocks() finds, and its refusals (a coupled matrix, a block that is not
// positive definite).
#include "sinew/linalg/block_diagonal_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>
#include <vector>

#include "expect_error.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::linalg_block_diagonal_solver_test {
namespace {

// A symmetric positive-definite matrix with dense diagonal blocks of the given sizes; each block
// is B B^T + 0.1 I scaled by 10^(-3..3), so that the blocks' scales differ as bodies' do.
CsrMatrix block_spd(const std::vector<Index>& sizes, unsigned seed) {
  std::mt19937 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0), e(-3.0, 3.0);
  Index n = 0;
  for (Index k : sizes) n += k;
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  Index s = 0;
  for (Index k : sizes) {
    Eigen::MatrixXd B(k, k);
    for (Index i = 0; i < k; ++i)
      for (Index j = 0; j < k; ++j) B(i, j) = u(rng);
    const double scale = std::pow(10.0, e(rng));
    A.block(s, s, k, k) = scale * (B * B.transpose() + 0.1 * Eigen::MatrixXd::Identity(k, k));
    s += k;
  }
  return from_eigen(EigenCsr(A.sparseView()));
}

TEST(BlockDiagonalSolver, MatchesADenseSolveForMixedBlockSizes) {
  const std::vector<Index> sizes{6, 3, 1, 6, 12, 2, 6, 3, 3, 7};
  const CsrMatrix A = block_spd(sizes, 1);
  std::vector<Index> starts{0};
  for (Index k : sizes) starts.push_back(starts.back() + k);
  EXPECT_EQ(diagonal_blocks(A, 12), starts);
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(A));
  const Eigen::MatrixXd B = Eigen::MatrixXd::Random(A.rows, 4);
  const Eigen::MatrixXd want = D.llt().solve(B);
  BlockDiagonalSolver s;
  s.compute(A);
  EXPECT_LE((s.solve(B) - want).norm(), 1e-12 * want.norm());
  EigenLdltSolver ldlt;
  ldlt.compute(A);
  EXPECT_LE((s.solve(B) - ldlt.solve(B)).norm(), 1e-12 * want.norm());
  // New values on the same pattern.
  CsrMatrix A2 = A;
  for (double& v : A2.values) v *= 3.0;
  s.factorize(A2);
  EXPECT_LE((s.solve(B) - want / 3.0).norm(), 1e-12 * want.norm());
}

// One block at a time (block_starts(), solve_block()) gives the bits of the whole solve.
TEST(BlockDiagonalSolver, SolvesOneBlockAloneAsTheWholeSolveDoes) {
  const CsrMatrix A = block_spd({6, 3, 1, 6}, 4);
  BlockDiagonalSolver s;
  EXPECT_SINEW_ERROR(s.solve_block(0, nullptr), "not factored");
  s.compute(A);
  EXPECT_EQ(s.block_starts(), (std::vector<Index>{0, 6, 9, 10, 16}));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(16, -1.0, 2.0);
  const Eigen::VectorXd whole = s.solve(b);
  Eigen::VectorXd by_block = b;
  for (std::size_t k = 0; k < 4; ++k) s.solve_block(k, by_block.data() + s.block_starts()[k]);
  EXPECT_TRUE(by_block == whole);
  EXPECT_SINEW_ERROR(s.solve_block(4, by_block.data()), "block 4 of 4");
}

// Many right-hand sides of one block in one call (as W = H^T M^-1 H takes a body's columns of
// H) give the bits of one solve_block() per column, for the unrolled sizes (6, 3, 1) and the
// general one (5), well beyond the fixed-size loops' reach for a wrong stride.
TEST(BlockDiagonalSolver, SolvesABlocksColumnsAsOneBlockSolveEach) {
  const CsrMatrix A = block_spd({6, 3, 1, 5}, 7);
  BlockDiagonalSolver s;
  EXPECT_SINEW_ERROR(s.solve_block_columns(0, nullptr, 1), "not factored");
  s.compute(A);
  constexpr Index kColumns = 7;
  for (std::size_t k = 0; k < 4; ++k) {
    const Index d = s.block_starts()[k + 1] - s.block_starts()[k];
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(d, kColumns);
    Eigen::MatrixXd together = B, one_by_one = B;
    s.solve_block_columns(k, together.data(), kColumns);
    for (Index j = 0; j < kColumns; ++j) s.solve_block(k, one_by_one.col(j).data());
    EXPECT_TRUE(together == one_by_one) << "block " << k;
    EXPECT_FALSE(together == B) << "block " << k;  // it did solve
  }
  Eigen::VectorXd x(6);
  EXPECT_SINEW_ERROR(s.solve_block_columns(4, x.data(), 1), "block 4 of 4");
  EXPECT_SINEW_ERROR(s.solve_block_columns(0, x.data(), -1), "-1 columns");
}

TEST(BlockDiagonalSolver, FindsTheSmallestBlocksAndRefusesCoupling) {
  // A diagonal matrix: blocks of one row; zeros inside a block's square do not split it.
  const CsrMatrix diag = block_spd({1, 1, 1, 1}, 2);
  EXPECT_EQ(diagonal_blocks(diag, 1), (std::vector<Index>{0, 1, 2, 3, 4}));
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(5, 5);
  D(0, 2) = D(2, 0) = 0.1;  // couples rows 0-2 (row 1 lies inside the block)
  const CsrMatrix A = from_eigen(EigenCsr(D.sparseView()));
  EXPECT_EQ(diagonal_blocks(A, 3), (std::vector<Index>{0, 3, 4, 5}));
  EXPECT_TRUE(diagonal_blocks(A, 2).empty());
  BlockDiagonalSolver small(2);
  EXPECT_SINEW_ERROR(small.compute(A), "not block diagonal with blocks of at most 2 rows");
  // A chain (tridiagonal) couples everything.
  Eigen::MatrixXd T = 2.0 * Eigen::MatrixXd::Identity(20, 20);
  for (int i = 0; i + 1 < 20; ++i) T(i, i + 1) = T(i + 1, i) = -0.5;
  EXPECT_TRUE(diagonal_blocks(from_eigen(EigenCsr(T.sparseView())), 12).empty());
  EXPECT_SINEW_ERROR(BlockDiagonalSolver(0), "max_block must be >= 1");
}

TEST(BlockDiagonalSolver, NamesThePivotOfABlockThatIsNotPositiveDefinite) {
  Eigen::MatrixXd D = Eigen::MatrixXd::Identity(9, 9);
  D.block(6, 6, 3, 3) << 1, 2, 0, 2, 1, 0, 0, 0, 1;  // eigenvalues 3, -1, 1
  BlockDiagonalSolver s;
  EXPECT_SINEW_ERROR(s.compute(from_eigen(EigenCsr(D.sparseView()))), "not positive definite: pivot 7 is -3");
  EXPECT_FALSE(s.factored());
}

}  // namespace
}  // namespace sinew::linalg_block_diagonal_solver_test
