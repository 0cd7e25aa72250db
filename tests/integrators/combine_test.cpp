// detail::combine, the step matrix A = sum_k s_k B_k (optionally (C + C^T) / 2) of the
// integrators' Newton and contact stages: against the same sums made densely, on symmetric and on
// non-symmetric patterns; the storage of A is reused from call to call.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <random>

#include "sinew/core/error.hpp"
#include "velocity_newton.hpp"

namespace sinew::integrators::integrators_combine_test {
namespace {

// A random n x n CSR matrix with about @p fill of its entries stored; mirrored pattern when @p symmetric.
CsrMatrix random_csr(Index n, double fill, bool symmetric, std::mt19937& rng) {
  std::uniform_real_distribution<double> u(-1.0, 1.0), pick(0.0, 1.0);
  Eigen::MatrixXd dense = Eigen::MatrixXd::Zero(n, n);
  for (Index i = 0; i < n; ++i)
    for (Index j = 0; j < n; ++j)
      if (pick(rng) < fill) {
        dense(i, j) = u(rng);
        if (symmetric) dense(j, i) = u(rng);  // mirrored pattern, different values
      }
  CsrMatrix A;
  A.rows = A.cols = n;
  for (Index i = 0; i < n; ++i) {
    for (Index j = 0; j < n; ++j)
      if (dense(i, j) != 0.0) {
        A.col_idx.push_back(j);
        A.values.push_back(dense(i, j));
      }
    A.row_ptr.push_back(static_cast<Index>(A.col_idx.size()));
  }
  return A;
}

Eigen::MatrixXd to_dense(const CsrMatrix& A) {
  Eigen::MatrixXd d = Eigen::MatrixXd::Zero(A.rows, A.cols);
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) d(i, A.col_idx[k]) = A.values[k];
  return d;
}

TEST(Combine, SumsAndSymmetrizesAsTheDenseSumsOnAnyPattern) {
  std::mt19937 rng(7);
  const Index n = 23;
  CsrMatrix A;  // reused by every call
  for (bool symmetric : {true, false})
    for (int trial = 0; trial < 20; ++trial) {
      const CsrMatrix M = random_csr(n, 0.1, true, rng), K = random_csr(n, 0.15, symmetric, rng),
                      D = random_csr(n, 0.05, symmetric, rng);
      const double sk = 1e-4 * (trial + 1), sd = 0.01;
      // Term by term in the order combine() adds them: the same sums, hence the same bits.
      const Eigen::MatrixXd C = (to_dense(M) + sk * to_dense(K)) + sd * to_dense(D);
      for (bool symmetrize : {false, true}) {
        detail::combine(n, {{1.0, &M}, {sk, &K}, {sd, &D}}, symmetrize, A);
        ASSERT_NO_THROW(A.validate());
        const Eigen::MatrixXd expected = symmetrize ? Eigen::MatrixXd(0.5 * (C + C.transpose())) : C;
        EXPECT_TRUE(to_dense(A) == expected)
            << "symmetric pattern " << symmetric << ", symmetrize " << symmetrize << ", trial " << trial
            << ": max difference " << (to_dense(A) - expected).cwiseAbs().maxCoeff();
        // Stored entries: the union of the patterns (and of their mirrors when symmetrized).
        const Eigen::MatrixXd got = to_dense(A);
        EXPECT_EQ(((expected.array() != 0.0) && (got.array() == 0.0)).count(), 0);
      }
    }
}

TEST(Combine, AnEmptyTermCountsAsZeroAndTheResultMustNotBeATerm) {
  std::mt19937 rng(3);
  const CsrMatrix M = random_csr(9, 0.3, true, rng);
  const CsrMatrix empty;
  CsrMatrix A;
  detail::combine(9, {{1.0, &M}, {2.0, &empty}}, false, A);
  EXPECT_TRUE(to_dense(A) == to_dense(M));
  // A term of explicit zeros adds nothing, not even its pattern: one term left is copied scaled.
  CsrMatrix zeros = random_csr(9, 0.3, false, rng);
  std::fill(zeros.values.begin(), zeros.values.end(), 0.0);
  detail::combine(9, {{2.0, &M}, {1.0, &zeros}}, false, A);
  EXPECT_EQ(A.row_ptr, M.row_ptr);
  EXPECT_EQ(A.col_idx, M.col_idx);
  EXPECT_TRUE(to_dense(A) == 2.0 * to_dense(M));
  detail::combine(9, {{2.0, &M}, {1.0, &zeros}}, true, A);
  EXPECT_TRUE(to_dense(A) == Eigen::MatrixXd(to_dense(M) + to_dense(M).transpose()));
  CsrMatrix B = M;
  EXPECT_THROW(detail::combine(9, {{1.0, &M}, {1.0, &B}}, true, B), Error);
  const CsrMatrix wrong = random_csr(8, 0.3, true, rng);
  EXPECT_THROW(detail::combine(9, {{1.0, &M}, {1.0, &wrong}}, true, A), Error);
}

}  // namespace
}  // namespace sinew::integrators::integrators_combine_test
