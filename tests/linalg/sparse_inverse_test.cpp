// The sparse inverse factor: S^T S A = I, Theorem 1's pattern, the Kronecker-aware variant, and
// x = S^T (S b) on every usable backend.
#include "sinew/linalg/sparse_inverse.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "expect_error.hpp"
#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/kronecker.hpp"

namespace sinew::linalg_sparse_inverse_test {
namespace {

Eigen::MatrixXd dense(const CsrMatrix& A) { return Eigen::MatrixXd(to_eigen(A)); }

// S'^T S' A - I relative to |I| = sqrt(n), S' expanded per coordinate when block() = 3.
double inverse_error(const SparseInverse& inv, const CsrMatrix& A) {
  Eigen::MatrixXd S = dense(inv.factor());
  if (inv.block() == 3) S = dense(kronecker3_expand(inv.factor()));
  const Eigen::Index n = A.rows;
  return (S.transpose() * S * dense(A) - Eigen::MatrixXd::Identity(n, n)).norm() / std::sqrt(double(n));
}

TEST(SparseInverse, TimesAIsTheIdentity) {
  for (Index n : {1, 2, 10, 60, 200}) {
    const CsrMatrix A = test::random_spd(n, 0.05, 100 + n);
    for (CholmodOrdering o : {CholmodOrdering::kNestedDissection, CholmodOrdering::kAmd, CholmodOrdering::kNatural}) {
      const SparseInverse inv(A, {o, KroneckerStructure::kNone});
      EXPECT_LE(inverse_error(inv, A), 1e-12) << "n=" << n;
    }
  }
  const CsrMatrix K = to_csr(fem_grid_matrix({5, 4, 6}));
  EXPECT_LE(inverse_error(SparseInverse(K), K), 1e-12);
}

TEST(SparseInverse, PatternIsThePathsOfTheEliminationTree) {
  const CsrMatrix A = test::random_spd(80, 0.04, 7);
  CholmodSolver chol(CholmodOptions{CholmodOrdering::kAmd, CholmodKind::kSimplicial});
  chol.compute(A);
  const CholeskyFactor F = chol.factor();
  const std::vector<Index> parent = elimination_tree(A, F.perm);
  // The tree from A agrees with the factor: each column's first sub-diagonal row is its parent.
  for (Index j = 0; j < F.n; ++j) {
    const Index first = F.col_ptr[j] + 1 < F.col_ptr[j + 1] ? F.row_idx[F.col_ptr[j] + 1] : -1;
    EXPECT_EQ(parent[j], first) << "column " << j;
  }
  const CsrMatrix S = invert_cholesky_factor(F, parent);
  // Dense L^-1 P for comparison: every entry that is not negligible lies in S's pattern, and
  // S's values equal it.
  Eigen::MatrixXd L = Eigen::MatrixXd::Zero(F.n, F.n);
  for (Index j = 0; j < F.n; ++j)
    for (Index p = F.col_ptr[j]; p < F.col_ptr[j + 1]; ++p) L(F.row_idx[p], j) = F.values[p];
  const Eigen::MatrixXd Linv = L.triangularView<Eigen::Lower>().solve(Eigen::MatrixXd::Identity(F.n, F.n));
  Eigen::MatrixXd want(F.n, F.n);
  for (Index j = 0; j < F.n; ++j) want.col(F.perm[j]) = Linv.col(j);
  const Eigen::MatrixXd got = dense(S);
  EXPECT_LE((got - want).norm(), 1e-13 * want.norm());
  std::size_t depth_sum = 0;
  for (Index j = 0; j < F.n; ++j)
    for (Index k = j; k != -1; k = parent[k]) ++depth_sum;
  EXPECT_EQ(S.values.size(), depth_sum);
  EXPECT_LT(S.values.size(), static_cast<std::size_t>(F.n) * (F.n + 1) / 2) << "S must be sparser than dense";
}

TEST(SparseInverse, KroneckerAwareGivesTheSameAnswerWithAThirdOfTheEntries) {
  const CsrMatrix scalar = fem_grid_scalar_matrix({9, 9, 3});
  const CsrMatrix A = kronecker3_expand(scalar);
  ASSERT_TRUE(kronecker3_factor(A).has_value());
  const SparseInverse kron(A), full(A, {CholmodOrdering::kNestedDissection, KroneckerStructure::kNone});
  EXPECT_EQ(kron.block(), 3);
  EXPECT_EQ(full.block(), 1);
  EXPECT_EQ(kron.dofs(), A.rows);
  EXPECT_LE(inverse_error(kron, A), 1e-12);
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows, -2.0, 3.0);
  const Eigen::VectorXd want = dense(A).ldlt().solve(b);
  EXPECT_LE((kron.apply(b) - want).norm(), 1e-12 * want.norm());
  EXPECT_LE((full.apply(b) - want).norm(), 1e-12 * want.norm());
  EXPECT_LE(3 * kron.nnz(), full.nnz() + full.nnz() / 10) << "Kronecker-aware S stores a third of the entries";
  EXPECT_LT(kron.bytes_with_indices(), full.bytes_with_indices() / 2);
}

TEST(SparseInverse, KroneckerDetectionIsExact) {
  const CsrMatrix scalar = test::random_spd(12, 0.3, 9);
  CsrMatrix A = kronecker3_expand(scalar);
  const auto s = kronecker3_factor(A);
  ASSERT_TRUE(s.has_value());
  EXPECT_EQ(s->col_idx, scalar.col_idx);
  EXPECT_EQ(s->values, scalar.values);
  A.values[A.row_ptr[4]] *= 1.0 + 1e-15 * 8;  // the y row of vertex 1 no longer equals its x row
  EXPECT_FALSE(kronecker3_factor(A).has_value());
  EXPECT_FALSE(kronecker3_factor(to_csr(fem_grid_matrix({3, 3, 3}))).has_value()) << "coupled xyz blocks";
  EXPECT_SINEW_ERROR(SparseInverse(to_csr(fem_grid_matrix({3, 3, 3})),
                                   {CholmodOrdering::kNestedDissection, KroneckerStructure::kKronecker3}),
                     "stated to be A_s (x) I_3");
}

TEST(SparseInverse, AppliesOnEveryBackend) {
  const CsrMatrix block = to_csr(fem_grid_matrix({6, 5, 4}));
  const CsrMatrix kron = kronecker3_expand(fem_grid_scalar_matrix({7, 6, 5}));
  for (const CsrMatrix* A : {&block, &kron}) {
    const SparseInverse inv(*A);
    const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A->rows, 1.0, -1.0);
    const Eigen::VectorXd want = inv.apply(b);
    for (const BackendInfo& info : builtin_backends().list()) {
      if (!info.usable) continue;
      auto backend = make_backend(info.name);
      SparseInverseOperator op(*backend, inv);
      DeviceArray<double> db = backend->upload(std::vector<double>(b.data(), b.data() + b.size()));
      DeviceArray<double> dx = backend->allocate<double>(b.size());
      op.apply(db, dx);
      const std::vector<double> x = backend->download(dx);
      EXPECT_LE((Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()) - want).norm(), 1e-13 * want.norm())
          << info.name << " block " << inv.block();
      EXPECT_SINEW_ERROR(op.apply(db, db), "must not alias");
    }
  }
}

}  // namespace
}  // namespace sinew::linalg_sparse_inverse_test
