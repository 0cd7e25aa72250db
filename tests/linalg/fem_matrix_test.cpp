// The generated FEM-like matrices are what the benchmarks claim: symmetric positive definite,
// 27-point coupled, and the scalar one is the per-vertex counterpart of the block one's pattern.
#include "sinew/linalg/fem_matrix.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>

#include "expect_error.hpp"

namespace sinew::linalg_fem_matrix_test {
namespace {

TEST(FemGridMatrix, IsSymmetricPositiveDefiniteWith27PointCoupling) {
  const Bsr3Matrix K = fem_grid_matrix({4, 3, 5});
  K.validate();
  EXPECT_EQ(K.block_rows, 60);
  // Interior vertex (1,1,1) couples to all 27; corner (0,0,0) to 8.
  const Index interior = 1 + 4 * (1 + 3 * 1);
  EXPECT_EQ(K.row_ptr[interior + 1] - K.row_ptr[interior], 27);
  EXPECT_EQ(K.row_ptr[1] - K.row_ptr[0], 8);
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(to_csr(K)));
  EXPECT_LE((D - D.transpose()).norm(), 1e-14 * D.norm());
  const Eigen::VectorXd ev = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(D).eigenvalues();
  EXPECT_GE(ev.minCoeff(), 1.0 - 1e-10);  // K is PSD, M = I: eigenvalues of M + K are >= 1
  EXPECT_GT(ev.maxCoeff(), 2.0);          // ...and the springs do contribute
}

TEST(FemGridScalarMatrix, IsTheLaplacianPlusIdentityOfTheSamePattern) {
  const GridSize g{3, 4, 2};
  const CsrMatrix S = fem_grid_scalar_matrix(g);
  const Bsr3Matrix K = fem_grid_matrix(g);
  EXPECT_EQ(S.row_ptr, K.row_ptr);
  EXPECT_EQ(S.col_idx, K.col_idx);
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(S));
  EXPECT_LE((D - D.transpose()).norm(), 1e-14);
  EXPECT_LE((D * Eigen::VectorXd::Ones(D.rows()) - Eigen::VectorXd::Ones(D.rows())).norm(), 1e-12);  // rows sum to 1
}

TEST(FemGridMatrix, RejectsBadSizes) {
  EXPECT_SINEW_ERROR(fem_grid_matrix({0, 3, 3}), "fem grid", ">= 1", "0x3x3");
  EXPECT_SINEW_ERROR(fem_grid_scalar_matrix({2000, 2000, 2000}), "32-bit");
}

}  // namespace
}  // namespace sinew::linalg_fem_matrix_test

namespace sinew::linalg_fem_matrix_test {
namespace {

TEST(ClothStretchMatrix, IsMassPlusWeightedEdgeLaplacian) {
  ClothGrid c;
  c.nx = 4;
  c.ny = 3;
  const CsrMatrix A = cloth_stretch_matrix(c);
  EXPECT_EQ(A.rows, 12);
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(A));
  EXPECT_LE((D - D.transpose()).norm(), 1e-15);
  // Rows sum to the mass (the Laplacian annihilates constants).
  EXPECT_LE((D * Eigen::VectorXd::Ones(12) - c.mass * Eigen::VectorXd::Ones(12)).norm(), 1e-15);
  // Edges: 3 x 3 horizontal + 4 x 2 vertical + 3 x 2 diagonal = 23, each adding 2 off-diagonal entries.
  EXPECT_EQ(A.nnz(), 12 + 2 * 23);
  // Corner (0,0) has edges to (1,0), (0,1) and (1,1): diagonal = m + 3 h^2 w.
  EXPECT_NEAR(D(0, 0), c.mass + 3 * c.time_step * c.time_step * c.stiffness, 1e-15);
  EXPECT_EQ(c.triangles(), 12);
  EXPECT_SINEW_ERROR(cloth_stretch_matrix({1, 5}), "at least 2x2");
}

}  // namespace
}  // namespace sinew::linalg_fem_matrix_test
