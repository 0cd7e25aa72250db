// Run-compressed CSR: conversion both ways, its product against the plain CSR product and
// against the documented summation order, bit-identical on every host backend and thread count,
// and the sparse inverse's elimination-order factors and operator built on it.
#include "sinew/linalg/run_csr.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <cstring>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::linalg_run_csr_test {
namespace {

// rows x cols with a few runs per row of random lengths (1 to 41: SIMD bodies and every tail
// length), some rows empty, one row full width.
CsrMatrix random_runs(Index rows, Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::uniform_int_distribution<Index> gap(0, 30), len(1, 41), nruns(0, 5);
  CsrMatrix A;
  A.rows = rows;
  A.cols = cols;
  for (Index i = 0; i < rows; ++i) {
    if (i == rows / 2) {
      for (Index j = 0; j < cols; ++j) {
        A.col_idx.push_back(j);
        A.values.push_back(u(rng));
      }
    } else {
      Index j = gap(rng);
      for (Index r = nruns(rng); r > 0 && j < cols; --r, j += 1 + gap(rng))
        for (Index end = std::min(cols, j + len(rng)); j < end; ++j) {
          A.col_idx.push_back(j);
          A.values.push_back(u(rng));
        }
    }
    A.row_ptr.push_back(A.nnz());
  }
  return A;
}

// Column-major rows x k matrix with entries in [-1, 1].
std::vector<double> random_block(Index rows, int k, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  std::vector<double> x(static_cast<std::size_t>(rows) * k);
  for (double& v : x) v = u(rng);
  return x;
}

// The documented order: lane t mod 4 of each run, lanes kept across a row's runs, then
// (l0 + l2) + (l1 + l3).
std::vector<double> reference_product(const RunCsr& A, int k, const std::vector<double>& X) {
  std::vector<double> Y(static_cast<std::size_t>(A.rows) * k);
  for (int c = 0; c < k; ++c)
    for (Index i = 0; i < A.rows; ++i) {
      double l[4] = {0.0, 0.0, 0.0, 0.0};
      for (Index q = A.row_ptr[i]; q < A.row_ptr[i + 1]; ++q)
        for (Index t = 0; t < A.run_ptr[q + 1] - A.run_ptr[q]; ++t) {
          const double prod = A.values[A.run_ptr[q] + t] * X[static_cast<std::size_t>(c) * A.cols + A.run_col[q] + t];
          l[t % 4] = l[t % 4] + prod;  // no contraction into an FMA: the kernel multiplies, then adds
        }
      Y[static_cast<std::size_t>(c) * A.rows + i] = (l[0] + l[2]) + (l[1] + l[3]);
    }
  return Y;
}

bool same_bits(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// Calls f(name, backend, threads) for every usable built-in backend at 1, 2 and 3 threads; a
// backend's remaining thread counts are skipped once f returns false.
template <class F>
void for_each_backend_and_thread_count(F&& f) {
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable) continue;
    for (int threads : {1, 2, 3}) {
      BackendOptions o;
      o.threads = threads;
      auto backend = make_backend(info.name, o);
      if (!f(info.name, *backend, threads)) break;
    }
  }
}

TEST(RunCsr, GroupsConsecutiveColumnsAndConvertsBack) {
  CsrMatrix A;
  A.rows = 3;
  A.cols = 10;
  A.row_ptr = {0, 6, 6, 8};
  A.col_idx = {0, 1, 2, 5, 7, 8, 9, 3};  // row 2 unsorted: rejected below
  A.values = {1, 2, 3, 4, 5, 6, 7, 8};
  EXPECT_SINEW_ERROR(to_run_csr(A), "");
  A.col_idx = {0, 1, 2, 5, 7, 8, 3, 4};
  const RunCsr R = to_run_csr(A);
  EXPECT_EQ(R.row_ptr, (std::vector<Index>{0, 3, 3, 4}));
  EXPECT_EQ(R.run_col, (std::vector<Index>{0, 5, 7, 3}));
  EXPECT_EQ(R.run_ptr, (std::vector<Index>{0, 3, 4, 6, 8}));
  EXPECT_EQ(R.values, A.values);
  EXPECT_EQ(R.bytes(), 8 * sizeof(double) + (4 + 5 + 4) * sizeof(Index));
  const CsrMatrix back = to_csr(R);
  EXPECT_EQ(back.row_ptr, A.row_ptr);
  EXPECT_EQ(back.col_idx, A.col_idx);
  EXPECT_EQ(back.values, A.values);
  const CsrMatrix big = random_runs(300, 500, 3);
  const CsrMatrix big_back = to_csr(to_run_csr(big));
  EXPECT_EQ(big_back.col_idx, big.col_idx);
  EXPECT_EQ(big_back.row_ptr, big.row_ptr);
}

// The product equals the CSR product to rounding and the documented order bit for bit, on every
// host backend and thread count (so serial, tbb and kokkos agree exactly).
TEST(RunCsr, ProductMatchesCsrAndIsBitIdenticalOnEveryHostBackendAndThreadCount) {
  const CsrMatrix A = random_runs(700, 900, 11);
  const RunCsr R = to_run_csr(A);
  ASSERT_LT(R.runs(), static_cast<std::size_t>(A.nnz()) / 4) << "the test matrix must have long runs";
  const EigenCsr E = to_eigen(A);
  for (int k : {1, 3}) {
    const std::vector<double> X = random_block(A.cols, k, 5 + k);
    const std::vector<double> want = reference_product(R, k, X);
    for (int c = 0; c < k; ++c) {
      const Eigen::VectorXd x = Eigen::Map<const Eigen::VectorXd>(X.data() + c * A.cols, A.cols);
      const Eigen::VectorXd y = E * x;
      const Eigen::VectorXd got = Eigen::Map<const Eigen::VectorXd>(want.data() + c * A.rows, A.rows);
      EXPECT_LE((got - y).norm(), 1e-14 * y.norm()) << "k=" << k;
    }
    for_each_backend_and_thread_count([&](const std::string& name, Backend& backend, int threads) {
      if (!backend.runs_host_code()) {
        EXPECT_SINEW_ERROR(DeviceRunCsr(backend, R), "does not run host code");
        return false;
      }
      const DeviceRunCsr D(backend, R);
      EXPECT_EQ(D.nnz(), R.nnz());
      EXPECT_EQ(D.bytes(), R.bytes());
      const DeviceArray<double> dx = backend.upload(X);
      DeviceArray<double> dy = backend.allocate<double>(want.size());
      D.multiply(backend, k, dx, dy);
      EXPECT_TRUE(same_bits(backend.download(dy), want)) << name << " threads " << threads << " k " << k;
      EXPECT_SINEW_ERROR(D.multiply(backend, 2, dx, dy), "components must be 1 or 3");
      DeviceArray<double> small = backend.allocate<double>(want.size() - 1);
      EXPECT_SINEW_ERROR(D.multiply(backend, k, dx, small), "rows * components");
      return true;
    });
  }
}

// After nested dissection (CHOLMOD postorders the tree) every row of L^-1 is a single range of
// columns, L^-T has far fewer runs than entries, and P^T L^-T L^-1 P is S'^T S'.
TEST(RunCsr, EliminationOrderFactorsOfTheSparseInverse) {
  const CsrMatrix scalar = fem_grid_scalar_matrix({8, 7, 6});
  const SparseInverse inv(kronecker3_expand(scalar));
  ASSERT_EQ(inv.block(), 3);
  const auto [L, Lt] = elimination_order_factors(inv.factor(), inv.elimination_order());
  const Index n = inv.factor().rows;
  EXPECT_EQ(L.runs(), static_cast<std::size_t>(n)) << "one run per row of L^-1";
  EXPECT_EQ(L.nnz(), inv.nnz());
  EXPECT_EQ(Lt.nnz(), inv.nnz());
  EXPECT_LT(Lt.runs(), inv.nnz() / 4);
  const Eigen::MatrixXd Ld = Eigen::MatrixXd(to_eigen(to_csr(L)));
  const Eigen::MatrixXd Ltd = Eigen::MatrixXd(to_eigen(to_csr(Lt)));
  EXPECT_EQ((Ld.transpose() - Ltd).norm(), 0.0);
  EXPECT_EQ(Eigen::MatrixXd(Ld.triangularView<Eigen::StrictlyUpper>()).norm(), 0.0) << "L^-1 is lower triangular";
  Eigen::MatrixXd P = Eigen::MatrixXd::Zero(n, n);
  for (Index k = 0; k < n; ++k) P(k, inv.elimination_order()[k]) = 1.0;
  const Eigen::MatrixXd S = Eigen::MatrixXd(to_eigen(inv.factor()));
  EXPECT_EQ((Ld * P - S).norm(), 0.0) << "S' = L^-1 P exactly (same stored values)";
  EXPECT_SINEW_ERROR(elimination_order_factors(inv.factor(), std::vector<Index>(n, 0)), "not a permutation");
}

// The operator's run-compressed product: equal to the host reference, bit-identical across host
// backends and thread counts, and its byte count is the run format's.
TEST(RunCsr, SparseInverseOperatorIsBitIdenticalAcrossHostBackendsAndThreads) {
  const CsrMatrix kron = kronecker3_expand(fem_grid_scalar_matrix({9, 8, 7}));
  const CsrMatrix block = to_csr(fem_grid_matrix({5, 4, 6}));
  for (const CsrMatrix* A : {&kron, &block}) {
    const SparseInverse inv(*A);
    std::vector<double> b(static_cast<std::size_t>(A->rows));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.37 * static_cast<double>(i)) + 0.1;
    const Eigen::VectorXd want = inv.apply(Eigen::Map<const Eigen::VectorXd>(b.data(), A->rows));
    // The bytes one apply streams: both run factors and every vector pass.
    const std::size_t m = static_cast<std::size_t>(inv.factor().rows);
    const auto [L, Lt] = elimination_order_factors(inv.factor(), inv.elimination_order());
    const double moved = static_cast<double>(L.bytes() + Lt.bytes()) +
                         8.0 * static_cast<double>(b.size()) * sizeof(double) + 2.0 * m * sizeof(Index);
    std::vector<double> first;
    for_each_backend_and_thread_count([&](const std::string& name, Backend& backend, int threads) {
      SparseInverseOperator op(backend, inv);
      EXPECT_EQ(op.run_compressed(), backend.runs_host_code()) << name;
      if (!op.run_compressed()) return false;
      EXPECT_DOUBLE_EQ(op.bytes_per_apply(), moved);
      const DeviceArray<double> db = backend.upload(b);
      DeviceArray<double> dx = backend.allocate<double>(b.size());
      op.apply(db, dx);
      const std::vector<double> x = backend.download(dx);
      EXPECT_LE((Eigen::Map<const Eigen::VectorXd>(x.data(), A->rows) - want).norm(), 1e-13 * want.norm())
          << name << " threads " << threads;
      if (first.empty())
        first = x;
      else
        EXPECT_TRUE(same_bits(x, first)) << name << " threads " << threads << " block " << inv.block();
      return true;
    });
  }
}

}  // namespace
}  // namespace sinew::linalg_run_csr_test
