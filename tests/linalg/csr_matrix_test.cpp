// Host CSR / BSR matrices: validation messages, Eigen round trips, block expansion, device round trip.
#include "sinew/linalg/csr_matrix.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cstdlib>

#include "expect_error.hpp"
#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"

namespace sinew::linalg_csr_matrix_test {
namespace {

TEST(CsrMatrix, EigenRoundTripKeepsEverything) {
  const CsrMatrix A = test::random_csr(30, 20, 0.3, 1);
  const CsrMatrix B = from_eigen(to_eigen(A));
  EXPECT_EQ(B.rows, A.rows);
  EXPECT_EQ(B.cols, A.cols);
  EXPECT_EQ(B.row_ptr, A.row_ptr);
  EXPECT_EQ(B.col_idx, A.col_idx);
  EXPECT_EQ(B.values, A.values);
}

TEST(CsrMatrix, FromUncompressedEigen) {
  EigenCsr E(3, 4);
  E.insert(2, 3) = 1.0;
  E.insert(0, 1) = -2.0;
  E.insert(2, 0) = 4.0;  // left uncompressed on purpose
  const CsrMatrix A = from_eigen(E);
  EXPECT_EQ(A.row_ptr, (std::vector<Index>{0, 1, 1, 3}));
  EXPECT_EQ(A.col_idx, (std::vector<Index>{1, 0, 3}));
  EXPECT_EQ(A.values, (std::vector<double>{-2.0, 4.0, 1.0}));
}

TEST(CsrMatrix, ValidateNamesTheProblem) {
  CsrMatrix A = test::random_csr(4, 4, 0.5, 2);
  A.values.pop_back();
  EXPECT_SINEW_ERROR(A.validate(), "CsrMatrix", "values for");
  Bsr3Matrix B;
  B.block_rows = 1;
  B.block_cols = 1;
  B.row_ptr = {0, 1};
  B.col_idx = {1};
  B.values.assign(9, 0.0);
  EXPECT_SINEW_ERROR(B.validate(), "Bsr3Matrix", "row 0 has column 1");
}

TEST(Bsr3Matrix, ExpansionToScalarCsrMatchesDenseBlocks) {
  const Bsr3Matrix A = test::random_bsr3(5, 4, 0.4, 3);
  const Eigen::MatrixXd D = Eigen::MatrixXd(to_eigen(to_csr(A)));
  ASSERT_EQ(D.rows(), 15);
  ASSERT_EQ(D.cols(), 12);
  Eigen::MatrixXd want = Eigen::MatrixXd::Zero(15, 12);
  for (Index i = 0; i < A.block_rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) want(3 * i + r, 3 * A.col_idx[k] + c) = A.values[9 * k + 3 * r + c];
  EXPECT_EQ(D, want);
}

TEST(CsrMatrix, DeviceRoundTrip) {
  auto b = make_backend("serial");
  const CsrMatrix A = test::random_csr(25, 35, 0.2, 4);
  const CsrMatrix B = to_host(*b, to_device(*b, A));
  EXPECT_EQ(B.row_ptr, A.row_ptr);
  EXPECT_EQ(B.col_idx, A.col_idx);
  EXPECT_EQ(B.values, A.values);
}

// The cursor walk visits every off-diagonal pair with a stored entry exactly once, with the
// positions a search finds, on random patterns (mirrors missing on either side).
TEST(CsrMatrix, MirrorPairWalkMeetsEveryPairOnceAsASearchDoes) {
  for (unsigned seed = 1; seed <= 20; ++seed) {
    std::srand(seed);
    const Index n = 1 + static_cast<Index>(seed % 9);
    Eigen::MatrixXi stored = Eigen::MatrixXi::Zero(n, n);
    CsrMatrix A;
    A.rows = A.cols = n;
    for (Index i = 0; i < n; ++i) {
      for (Index j = 0; j < n; ++j)
        if (std::rand() % 3 == 0) {
          stored(i, j) = static_cast<int>(A.col_idx.size());
          A.col_idx.push_back(j);
          A.values.push_back(1.0);
        } else {
          stored(i, j) = -1;
        }
      A.row_ptr.push_back(A.nnz());
    }
    Eigen::MatrixXi visits = Eigen::MatrixXi::Zero(n, n);
    std::vector<Index> cursor;
    for_each_mirror_pair(A, cursor, [&](Index i, Index j, Index lower, Index upper) {
      ASSERT_GT(i, j);
      EXPECT_EQ(lower, stored(i, j));
      EXPECT_EQ(upper, stored(j, i));
      ++visits(i, j);
    });
    for (Index i = 0; i < n; ++i)
      for (Index j = 0; j < i; ++j)
        EXPECT_EQ(visits(i, j), stored(i, j) >= 0 || stored(j, i) >= 0 ? 1 : 0)
            << "seed " << seed << " (" << i << ", " << j << ")";
  }
}

// csr_from_triplets gives Eigen's setFromTriplets, bit for bit (the same pattern, repeated
// entries summed in triplet order, explicit zeros kept), as the matrix or its transpose, from
// shuffled triplets and from triplets already ordered by the first sort's key (a Jacobian's rows
// appended in order, whose transpose skips that sort), into storage that is reused.
TEST(CsrMatrix, FromTripletsGivesEigensSums) {
  std::srand(17);
  const auto uniform = [] { return static_cast<double>(std::rand()) / RAND_MAX; };
  CsrMatrix out;  // reused across the cases
  for (int trial = 0; trial < 40; ++trial) {
    const Index rows = 1 + std::rand() % 30, cols = 1 + std::rand() % 30;
    std::vector<Eigen::Triplet<double, Index>> triplets;
    const int count = std::rand() % 200;
    for (int k = 0; k < count; ++k)  // few distinct positions: many repeats; some exact zeros
      triplets.emplace_back(std::rand() % rows, std::rand() % cols, k % 7 == 0 ? 0.0 : uniform() - 0.5);
    const bool ordered = trial % 2 == 1;
    for (bool transposed : {false, true}) {
      std::vector<Eigen::Triplet<double, Index>> input = triplets;
      if (ordered)  // by the first sort's key: the column of the result
        std::stable_sort(input.begin(), input.end(), [&](const auto& a, const auto& b) {
          return transposed ? a.row() < b.row() : a.col() < b.col();
        });
      const Index out_rows = transposed ? cols : rows, out_cols = transposed ? rows : cols;
      EigenCsr expected(out_rows, out_cols);
      std::vector<Eigen::Triplet<double, Index>> flipped;
      for (const auto& t : input)
        flipped.emplace_back(transposed ? t.col() : t.row(), transposed ? t.row() : t.col(), t.value());
      expected.setFromTriplets(flipped.begin(), flipped.end());
      csr_from_triplets(input, out_rows, out_cols, transposed, out);
      const CsrMatrix reference = from_eigen(expected);
      ASSERT_NO_THROW(out.validate());
      EXPECT_EQ(out.row_ptr, reference.row_ptr) << "trial " << trial;
      EXPECT_EQ(out.col_idx, reference.col_idx) << "trial " << trial;
      EXPECT_TRUE(out.values == reference.values) << "trial " << trial;
    }
  }
}

// A TripletCsrPlan gives csr_from_triplets' matrix bit for bit: on a fresh pattern, on the same
// pattern with new values (where only the values are scattered), on another pattern with the same
// number of triplets, on a different shape, and back on the first.
TEST(CsrMatrix, TripletPlanGivesTheBitsOfAFreshAssembly) {
  std::srand(29);
  const auto uniform = [] { return static_cast<double>(std::rand()) / RAND_MAX - 0.5; };
  auto random_triplets = [&](Index rows, Index cols, int count) {
    std::vector<Eigen::Triplet<double, Index>> t;
    for (int k = 0; k < count; ++k) t.emplace_back(std::rand() % rows, std::rand() % cols, uniform());
    return t;
  };
  auto revalue = [&](std::vector<Eigen::Triplet<double, Index>> t) {
    for (auto& e : t) e = Eigen::Triplet<double, Index>(e.row(), e.col(), uniform());
    return t;
  };
  const auto first = random_triplets(12, 9, 80);
  const auto other = random_triplets(12, 9, 80);
  const auto wider = random_triplets(12, 15, 80);
  TripletCsrPlan plan;
  CsrMatrix out, expected;
  const std::vector<std::pair<std::vector<Eigen::Triplet<double, Index>>, Index>> sequence{
      {first, 9}, {revalue(first), 9}, {revalue(first), 9}, {other, 9}, {wider, 15}, {revalue(first), 9}};
  for (bool transposed : {false, true})
    for (std::size_t k = 0; k < sequence.size(); ++k) {
      const auto& [triplets, cols] = sequence[k];
      const Index out_rows = transposed ? cols : 12, out_cols = transposed ? 12 : cols;
      plan.assemble(triplets, out_rows, out_cols, transposed, out);
      csr_from_triplets(triplets, out_rows, out_cols, transposed, expected);
      EXPECT_EQ(out.rows, expected.rows) << "case " << k;
      EXPECT_EQ(out.cols, expected.cols) << "case " << k;
      EXPECT_EQ(out.row_ptr, expected.row_ptr) << "case " << k;
      EXPECT_EQ(out.col_idx, expected.col_idx) << "case " << k;
      EXPECT_TRUE(out.values == expected.values) << "case " << k << (transposed ? " transposed" : "");
    }
}

// csr_diagonal reads the stored diagonal and gives 0 where none is stored, into reused storage.
TEST(CsrMatrix, DiagonalIsTheDenseDiagonal) {
  Eigen::VectorXd d = Eigen::VectorXd::Constant(3, 7.0);  // stale contents must not survive
  for (std::uint64_t seed = 1; seed <= 20; ++seed) {
    const CsrMatrix A = test::random_csr(25, 25, 0.15, seed);  // some diagonal entries missing
    csr_diagonal(A, d);
    const Eigen::VectorXd expected = Eigen::MatrixXd(to_eigen(A)).diagonal();
    EXPECT_TRUE(d == expected) << "seed " << seed;
  }
}

// The host product agrees with a dense product and with the serial backend's spmv bit for bit.
TEST(CsrMatrix, MultiplyIsTheSerialSpmv) {
  auto backend = make_backend("serial");
  Eigen::VectorXd y = Eigen::VectorXd::Constant(2, 7.0);  // resized, stale contents overwritten
  for (std::uint64_t seed = 1; seed <= 10; ++seed) {
    const CsrMatrix A = test::random_csr(30, 20, 0.2, seed);
    const Eigen::VectorXd x = Eigen::VectorXd::LinSpaced(20, -1.0, 2.0);
    csr_multiply(A, x, y);
    ASSERT_EQ(y.size(), 30);
    EXPECT_LT((y - Eigen::MatrixXd(to_eigen(A)) * x).norm(), 1e-13 * (1.0 + y.norm())) << "seed " << seed;
    const DeviceCsr dA = to_device(*backend, A);
    DeviceArray<double> dx = backend->upload(std::vector<double>(x.data(), x.data() + x.size()));
    DeviceArray<double> dy = backend->upload(std::vector<double>(30, 0.0));
    backend->spmv(1.0, dA, Op::kNoTranspose, dx, 0.0, dy);
    Eigen::VectorXd serial(30);
    backend->download(dy, serial.data(), 30);
    EXPECT_TRUE(serial == y) << "seed " << seed;
  }
}

}  // namespace
}  // namespace sinew::linalg_csr_matrix_test
