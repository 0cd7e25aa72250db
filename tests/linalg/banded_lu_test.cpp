// BandedLu against Eigen's dense LU with partial pivoting: random banded matrices whose small
// diagonals make pivoting necessary (one has zeros on its whole diagonal, which no LU without row
// interchanges factors), bandwidths 0 to 4, and a singular matrix reported as such.
#include "sinew/linalg/banded_lu.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <random>

namespace sinew::linalg_banded_lu_test {
namespace {

// A random n x n matrix of bandwidth b, its diagonal scaled by @p diagonal (0: a zero diagonal).
Eigen::MatrixXd random_band(Index n, Index b, double diagonal, unsigned seed) {
  std::mt19937 gen(seed);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = std::max<Index>(0, i - b); j <= std::min<Index>(n - 1, i + b); ++j)
      A(i, j) = (i == j ? diagonal : 1.0) * uni(gen);
  return A;
}

TEST(BandedLu, SolvesAsADenseLuWithPivoting) {
  BandedLu lu;
  for (Index b = 0; b <= 4; ++b)
    for (const double diagonal : {1e-3, 1.0, 10.0}) {
      const Index n = 40;
      const Eigen::MatrixXd A = b == 0 ? (Eigen::MatrixXd::Identity(n, n) * (1.0 + diagonal)).eval()
                                       : random_band(n, b, diagonal, static_cast<unsigned>(7 * b + 1));
      lu.resize(n, b);
      for (Index i = 0; i < n; ++i)
        for (Index j = std::max<Index>(0, i - b); j <= std::min<Index>(n - 1, i + b); ++j) lu(i, j) = A(i, j);
      ASSERT_TRUE(lu.factor()) << "b " << b << ", diagonal " << diagonal;
      const Eigen::VectorXd rhs = Eigen::VectorXd::LinSpaced(n, -1.0, 2.0);
      Eigen::VectorXd x = rhs;
      lu.solve(x);
      const Eigen::VectorXd expected = A.partialPivLu().solve(rhs);
      EXPECT_LT((x - expected).norm(), 1e-10 * expected.norm()) << "b " << b << ", diagonal " << diagonal;
      EXPECT_LT((A * x - rhs).norm(), 1e-13 * A.norm() * x.norm()) << "b " << b << ", diagonal " << diagonal;
    }
}

TEST(BandedLu, AZeroDiagonalNeedsItsRowInterchanges) {
  const Index n = 30, b = 2;
  const Eigen::MatrixXd A = random_band(n, b, 0.0, 3);
  ASSERT_GT(std::abs(A.determinant()), 0.0);
  BandedLu lu;
  lu.resize(n, b);
  for (Index i = 0; i < n; ++i)
    for (Index j = std::max<Index>(0, i - b); j <= std::min<Index>(n - 1, i + b); ++j) lu(i, j) = A(i, j);
  ASSERT_TRUE(lu.factor());
  Eigen::VectorXd x = Eigen::VectorXd::Ones(n);
  lu.solve(x);
  EXPECT_LT((A * x - Eigen::VectorXd::Ones(n)).norm(), 1e-10 * std::sqrt(static_cast<double>(n)));
  // Refilled after set_zero(): a singular matrix (a zero column) is reported, not solved.
  lu.set_zero();
  for (Index i = 0; i < n; ++i)
    for (Index j = std::max<Index>(0, i - b); j <= std::min<Index>(n - 1, i + b); ++j)
      if (j != 5) lu(i, j) = A(i, j);
  EXPECT_FALSE(lu.factor());
}

}  // namespace
}  // namespace sinew::linalg_banded_lu_test
