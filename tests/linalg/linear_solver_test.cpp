// CHOLMOD (every kind and ordering) and Eigen's SimplicialLDLT against dense Eigen solves, and
// their errors for matrices that are not symmetric positive definite.
#include "sinew/linalg/linear_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <memory>

#include "expect_error.hpp"
#include "random_sparse.hpp"
#include "sinew/linalg/block_diagonal_solver.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "sinew/linalg/fem_matrix.hpp"

namespace sinew::linalg_linear_solver_test {
namespace {

std::vector<std::unique_ptr<LinearSolver>> all_solvers() {
  std::vector<std::unique_ptr<LinearSolver>> s;
  for (CholmodKind kind : {CholmodKind::kAuto, CholmodKind::kSupernodal, CholmodKind::kSimplicial})
    for (CholmodOrdering o : {CholmodOrdering::kNestedDissection, CholmodOrdering::kMetis, CholmodOrdering::kAmd,
                              CholmodOrdering::kNatural})
      s.push_back(std::make_unique<CholmodSolver>(CholmodOptions{o, kind}));
  s.push_back(std::make_unique<EigenLdltSolver>());
  return s;
}

TEST(LinearSolver, EverySolverMatchesADenseSolve) {
  for (Index n : {1, 2, 17, 120}) {
    const CsrMatrix A = test::random_spd(n, 0.1, 10 + n);
    const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(A));
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, 3);
    const Eigen::MatrixXd want = D.ldlt().solve(B);
    for (auto& s : all_solvers()) {
      s->compute(A);
      const Eigen::MatrixXd X = s->solve(B);
      EXPECT_LE((X - want).norm(), 1e-12 * want.norm()) << s->name() << " n=" << n;
      const Eigen::VectorXd x = s->solve(Eigen::VectorXd(B.col(1)));
      EXPECT_LE((x - want.col(1)).norm(), 1e-12 * want.norm()) << s->name();
    }
  }
}

TEST(LinearSolver, FemMatrixResidual) {
  const CsrMatrix A = to_csr(fem_grid_matrix({9, 8, 7}));
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(A.rows, -1.0, 2.0);
  for (auto& s : all_solvers()) {
    s->compute(A);
    const Eigen::VectorXd x = s->solve(b);
    EXPECT_LE((to_eigen(A) * x - b).norm(), 1e-12 * b.norm()) << s->name();
  }
}

TEST(LinearSolver, RefactorsNewValuesOnTheSamePattern) {
  CsrMatrix A = test::random_spd(40, 0.2, 3);
  CholmodSolver s;
  s.compute(A);
  for (double& v : A.values) v *= 2.0;
  s.factorize(A);
  const Eigen::VectorXd b = Eigen::VectorXd::Ones(40);
  EXPECT_LE((to_eigen(A) * s.solve(b) - b).norm(), 1e-12);
  CsrMatrix other = test::random_spd(40, 0.3, 4);
  EXPECT_SINEW_ERROR(s.factorize(other), "pattern given to compute()");
}

// compute() keeps its analysis while the pattern holds: new values on the kept analysis give
// the bits of a fresh solver; a new pattern, and a failed analysis, are analysed anew.
TEST(LinearSolver, KeepsTheAnalysisWhileThePatternHolds) {
  const Eigen::VectorXd b = Eigen::VectorXd::LinSpaced(60, -1.0, 2.0);
  auto fresh = all_solvers();
  auto kept = all_solvers();
  CsrMatrix A = test::random_spd(60, 0.1, 21);
  for (std::size_t k = 0; k < kept.size(); ++k) {
    EXPECT_FALSE(kept[k]->analysed(A));
    kept[k]->compute(A);
    EXPECT_TRUE(kept[k]->analysed(A)) << kept[k]->name();
  }
  for (double& v : A.values) v *= 1.5;
  A.values[0] += 1.0;  // the diagonal (0, 0): a new factor, not a scaled one
  for (std::size_t k = 0; k < kept.size(); ++k) {
    ASSERT_TRUE(kept[k]->analysed(A));
    kept[k]->compute(A, InputCheck::kTrusted);
    fresh[k]->compute(A);
    const Eigen::VectorXd x = kept[k]->solve(b), want = fresh[k]->solve(b);
    EXPECT_EQ(x, want) << kept[k]->name();
    EXPECT_LE((to_eigen(A) * x - b).norm(), 1e-11 * b.norm()) << kept[k]->name();
    const CsrMatrix other = test::random_spd(60, 0.2, 22);
    EXPECT_FALSE(kept[k]->analysed(other));
    kept[k]->compute(other);  // a new pattern: analysed again
    EXPECT_LE((to_eigen(other) * kept[k]->solve(b) - b).norm(), 1e-11 * b.norm()) << kept[k]->name();
  }
  // A block-diagonal solver's analysis that fails (coupled rows) leaves nothing to keep: the
  // next matrix, of the pattern analysed before, is analysed again and solved right.
  Eigen::MatrixXd D = 2.0 * Eigen::MatrixXd::Identity(4, 4);
  D(0, 1) = D(1, 0) = 0.5;
  const CsrMatrix blocks = from_eigen(EigenCsr(D.sparseView()));
  D(1, 2) = D(2, 1) = 0.5;
  const CsrMatrix coupled = from_eigen(EigenCsr(D.sparseView()));
  BlockDiagonalSolver s(2);
  s.compute(blocks);
  EXPECT_SINEW_ERROR(s.compute(coupled), "not block diagonal");
  EXPECT_FALSE(s.analysed(blocks));
  s.compute(blocks);
  const Eigen::VectorXd c = Eigen::VectorXd::Ones(4);
  EXPECT_LE((to_eigen(blocks) * s.solve(c) - c).norm(), 1e-14);
}

TEST(LinearSolver, CholmodFactorReproducesThePermutedMatrix) {
  const CsrMatrix A = test::random_spd(50, 0.15, 5);
  for (CholmodKind kind : {CholmodKind::kSupernodal, CholmodKind::kSimplicial}) {
    CholmodSolver s(CholmodOptions{CholmodOrdering::kNestedDissection, kind});
    s.compute(A);
    const CholeskyFactor F = s.factor();
    Eigen::MatrixXd L = Eigen::MatrixXd::Zero(F.n, F.n);
    for (Index j = 0; j < F.n; ++j) {
      EXPECT_EQ(F.row_idx[F.col_ptr[j]], j) << "diagonal first";
      for (Index p = F.col_ptr[j]; p < F.col_ptr[j + 1]; ++p) L(F.row_idx[p], j) = F.values[p];
    }
    const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(A));
    Eigen::MatrixXd PAPt(F.n, F.n);
    for (Index i = 0; i < F.n; ++i)
      for (Index j = 0; j < F.n; ++j) PAPt(i, j) = D(F.perm[i], F.perm[j]);
    EXPECT_LE((L * L.transpose() - PAPt).norm(), 1e-13 * D.norm());
  }
}

TEST(LinearSolver, RejectsMatricesThatAreNotSymmetricPositiveDefinite) {
  CsrMatrix A = test::random_spd(6, 0.5, 6);
  std::size_t off = A.values.size();  // first stored off-diagonal entry
  for (Index i = 0; i < A.rows && off == A.values.size(); ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      if (A.col_idx[k] != i) {
        off = static_cast<std::size_t>(k);
        break;
      }
  ASSERT_LT(off, A.values.size());
  A.values[off] += 0.5;  // breaks symmetry
  CsrMatrix indefinite = test::random_spd(6, 0.5, 7);
  for (Index i = 0; i < 6; ++i)
    for (Index k = indefinite.row_ptr[i]; k < indefinite.row_ptr[i + 1]; ++k)
      if (indefinite.col_idx[k] == i && i == 4) indefinite.values[k] = -1.0;
  CsrMatrix rect;
  rect.rows = 2;
  rect.cols = 3;
  rect.row_ptr = {0, 0, 0};
  for (auto& s : all_solvers()) {
    EXPECT_SINEW_ERROR(s->compute(A), "expected a symmetric matrix");
    EXPECT_SINEW_ERROR(s->compute(indefinite), "not positive definite");
    EXPECT_SINEW_ERROR(s->compute(rect), "expected a square matrix", "2x3");
  }
  CholmodSolver fresh;
  EXPECT_SINEW_ERROR(fresh.solve(Eigen::VectorXd(Eigen::VectorXd::Ones(3))), "before a successful compute()");
  CsrMatrix nan = test::random_spd(4, 0.0, 8);
  nan.values[0] = std::nan("");
  EXPECT_SINEW_ERROR(fresh.compute(nan), "not finite");
}

// require_symmetric() looks entries above the diagonal up from below when the triangles mirror
// each other; every way a mirror can be wrong or missing is still caught, on either side.
TEST(LinearSolver, RequireSymmetricFindsEveryBrokenMirror) {
  auto csr = [](std::vector<std::vector<std::pair<Index, double>>> rows) {
    CsrMatrix A;
    A.rows = A.cols = static_cast<Index>(rows.size());
    for (const auto& row : rows) {
      for (const auto& [j, v] : row) {
        A.col_idx.push_back(j);
        A.values.push_back(v);
      }
      A.row_ptr.push_back(static_cast<Index>(A.col_idx.size()));
    }
    return A;
  };
  // Symmetric, with a stored zero whose mirror is not stored (it reads as 0).
  EXPECT_NO_THROW(require_symmetric(csr({{{0, 4.0}, {1, 1.0}}, {{0, 1.0}, {1, 4.0}, {2, 0.0}}, {{2, 4.0}}}), "S"));
  // A value differs (found from below) ...
  EXPECT_SINEW_ERROR(require_symmetric(csr({{{0, 4.0}, {1, 1.0}}, {{0, 1.5}, {1, 4.0}}}), "S"),
                     "S: expected a symmetric matrix", "(1, 0) = 1.5");
  // ... an upper entry has no mirror and the triangles differ in size ...
  EXPECT_SINEW_ERROR(require_symmetric(csr({{{0, 4.0}, {2, 1.0}}, {{1, 4.0}}, {{2, 4.0}}}), "S"), "(0, 2) = 1");
  // ... or as many entries, but a lower one (a stored zero) mirrors nothing and an upper one has no mirror.
  EXPECT_SINEW_ERROR(require_symmetric(csr({{{0, 4.0}, {2, 1.0}}, {{0, 0.0}, {1, 4.0}}, {{2, 4.0}}}), "S"),
                     "(0, 2) = 1");
}

}  // namespace
}  // namespace sinew::linalg_linear_solver_test
