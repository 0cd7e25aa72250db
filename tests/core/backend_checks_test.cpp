// Checked entry points of Backend: wrong sizes, foreign arrays and bad patterns are errors that
// say what was expected.
#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"

namespace sinew::core_backend_checks_test {
namespace {

class BackendChecks : public ::testing::Test {
 protected:
  std::unique_ptr<Backend> b = make_backend("serial");
};

TEST_F(BackendChecks, VectorSizesMustMatch) {
  auto x = b->allocate<double>(3), y = b->allocate<double>(4);
  EXPECT_SINEW_ERROR(b->axpby(1, x, 1, y), "axpby", "is 4, expected 3");
  EXPECT_SINEW_ERROR(b->dot(x, y), "dot", "is 4, expected 3");
  EXPECT_SINEW_ERROR(b->multiply(x, y, y), "multiply");
  EXPECT_SINEW_ERROR(b->divide(x, x, y), "divide", "size of z");
  std::vector<double> h(5);
  EXPECT_SINEW_ERROR(b->upload(h.data(), h.size(), x), "upload", "is 3, expected 5");
  EXPECT_SINEW_ERROR(b->download(x, h.data(), h.size()), "download");
  EXPECT_SINEW_ERROR(b->copy(x, y), "copy");
}

TEST_F(BackendChecks, ArraysMustBelongToTheBackend) {
  auto other = make_backend("serial");
  auto x = other->allocate<double>(3);
  auto y = b->allocate<double>(3);
  EXPECT_SINEW_ERROR(b->axpby(1, x, 1, y), "axpby: x", "another backend", "'serial'");
  EXPECT_SINEW_ERROR(b->fill(x, 0.0), "fill");
}

TEST_F(BackendChecks, SparseDimensionsMustMatch) {
  const DeviceCsr A = upload_csr(*b, 2, 3, {0, 1, 2}, {0, 2}, {1.0, 2.0});
  auto x2 = b->allocate<double>(2), x3 = b->allocate<double>(3);
  EXPECT_SINEW_ERROR(b->spmv(1, A, Op::kNoTranspose, x2, 0, x2), "spmv", "size of x (cols of A)", "expected 3");
  EXPECT_SINEW_ERROR(b->spmv(1, A, Op::kTranspose, x3, 0, x3), "spmv", "size of x (rows of A)", "expected 2");
  EXPECT_SINEW_ERROR(b->spmv3(1, A, Op::kNoTranspose, x3, 0, x2), "spmv3", "cols of A x 3");
  EXPECT_SINEW_ERROR(b->spmv3(1, A, Op::kTranspose, x3, 0, x2), "spmv3", "rows of A x 3");
  EXPECT_SINEW_ERROR(b->spgemm_symbolic(A, A), "inner dimensions", "2x3");
  auto F = b->allocate<double>(10), R = b->allocate<double>(10);
  EXPECT_SINEW_ERROR(b->polar3(F, R), "not a multiple of 9");
}

TEST_F(BackendChecks, BadCsrPatternsAreRejectedWithTheRow) {
  EXPECT_SINEW_ERROR(upload_csr(*b, 2, 3, {0, 1}, {0}, {1.0}), "row_ptr has 2 entries", "rows + 1 = 3");
  EXPECT_SINEW_ERROR(upload_csr(*b, 2, 3, {0, 2, 1}, {0, 1}, {1.0, 1.0}), "row_ptr[rows] is 1");
  EXPECT_SINEW_ERROR(upload_csr(*b, 2, 3, {0, 1, 2}, {0, 3}, {1.0, 1.0}), "row 1 has column 3", "< 3");
  EXPECT_SINEW_ERROR(upload_csr(*b, 1, 3, {0, 2}, {2, 1}, {1.0, 1.0}), "row 0", "strictly increasing");
  EXPECT_SINEW_ERROR(upload_csr(*b, 1, 3, {0, 2}, {1, 1}, {1.0, 1.0}), "row 0", "no duplicates");
  EXPECT_SINEW_ERROR(upload_csr(*b, 1, 3, {0, 1}, {1}, {1.0, 2.0}), "2 values for 1");
  EXPECT_SINEW_ERROR(upload_bsr3(*b, 1, 1, {0, 1}, {0}, {1.0}), "expected 9 per block");
}

TEST_F(BackendChecks, EmptyArraysAreNoOps) {
  auto x = b->allocate<double>(0), y = b->allocate<double>(0);
  EXPECT_EQ(b->dot(x, y), 0.0);
  EXPECT_EQ(b->nrm2(x), 0.0);
  b->axpby(1, x, 1, y);
  EXPECT_TRUE(b->download(y).empty());
}

}  // namespace
}  // namespace sinew::core_backend_checks_test
