// The serial backend, oracle of the conformance suite, checked itself against Eigen.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <Eigen/SparseCore>

#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"

namespace sinew::backends_serial_reference_test {
namespace {

Eigen::VectorXd to_vec(const std::vector<double>& v) { return Eigen::Map<const Eigen::VectorXd>(v.data(), v.size()); }

class SerialReference : public ::testing::Test {
 protected:
  std::unique_ptr<Backend> b = make_backend("serial");
};

TEST_F(SerialReference, SpmvMatchesEigen) {
  const CsrMatrix A = test::random_csr(120, 80, 0.2, 1);
  const EigenCsr E = to_eigen(A);
  const std::vector<double> x80 = test::random_vector(80, 2), x120 = test::random_vector(120, 3);
  const std::vector<double> y120 = test::random_vector(120, 4), y80 = test::random_vector(80, 5);
  const DeviceCsr dA = to_device(*b, A);
  DeviceArray<double> x = b->upload(x80), y = b->upload(y120);
  b->spmv(0.5, dA, Op::kNoTranspose, x, -1.5, y);
  EXPECT_LE((to_vec(b->download(y)) - (0.5 * E * to_vec(x80) - 1.5 * to_vec(y120))).norm(), 1e-13);
  DeviceArray<double> xt = b->upload(x120), yt = b->upload(y80);
  b->spmv(2.0, dA, Op::kTranspose, xt, 0.25, yt);
  EXPECT_LE((to_vec(b->download(yt)) - (2.0 * E.transpose() * to_vec(x120) + 0.25 * to_vec(y80))).norm(), 1e-13);
}

TEST_F(SerialReference, Bsr3AndMultiVectorMatchEigen) {
  const Bsr3Matrix A = test::random_bsr3(40, 30, 0.2, 6);
  const EigenCsr E = to_eigen(to_csr(A));
  const std::vector<double> xh = test::random_vector(90, 7);
  DeviceArray<double> x = b->upload(xh), y = b->allocate<double>(120);
  b->bsr3_spmv(1.0, to_device(*b, A), x, 0.0, y);
  EXPECT_LE((to_vec(b->download(y)) - E * to_vec(xh)).norm(), 1e-13);

  const CsrMatrix S = test::random_csr(40, 30, 0.2, 8);
  // Y = S X with X (30 x 3) row-major equals (S kron I3) vec(X).
  Eigen::MatrixXd X = Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>(xh.data(), 30, 3);
  DeviceArray<double> Y = b->allocate<double>(120);
  b->spmv3(1.0, to_device(*b, S), Op::kNoTranspose, x, 0.0, Y);
  const Eigen::MatrixXd want = to_eigen(S) * X;
  const std::vector<double> got = b->download(Y);
  for (int i = 0; i < 40; ++i)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(got[3 * i + c], want(i, c), 1e-13);
  // And the transposed product Z = S^T W with W (40 x 3).
  const std::vector<double> wh = test::random_vector(120, 13);
  DeviceArray<double> W = b->upload(wh), Z = b->allocate<double>(90);
  b->spmv3(1.0, to_device(*b, S), Op::kTranspose, W, 0.0, Z);
  const Eigen::MatrixXd want_t =
      to_eigen(S).transpose() *
      Eigen::Map<const Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>>(wh.data(), 40, 3);
  const std::vector<double> got_t = b->download(Z);
  for (int i = 0; i < 30; ++i) {
    for (int c = 0; c < 3; ++c) {
      EXPECT_NEAR(got_t[3 * i + c], want_t(i, c), 1e-13);
    }
  }
}

TEST_F(SerialReference, SpgemmMatchesEigen) {
  const CsrMatrix A = test::random_csr(50, 60, 0.1, 9), B = test::random_csr(60, 40, 0.1, 10);
  const DeviceCsr dA = to_device(*b, A), dB = to_device(*b, B);
  DeviceCsr C = b->spgemm_symbolic(dA, dB);
  b->spgemm_numeric(dA, dB, C);
  const Eigen::MatrixXd want = Eigen::MatrixXd(to_eigen(A)) * Eigen::MatrixXd(to_eigen(B));
  const Eigen::MatrixXd got = Eigen::MatrixXd(to_eigen(to_host(*b, C)));
  EXPECT_LE((got - want).norm(), 1e-13);
  // The symbolic pattern holds exactly the structurally non-zero products.
  Eigen::MatrixXd pa = Eigen::MatrixXd(to_eigen(A)).cwiseAbs(), pb = Eigen::MatrixXd(to_eigen(B)).cwiseAbs();
  EXPECT_EQ(static_cast<long>(C.nnz()),
            ((pa.array() != 0).cast<double>().matrix() * (pb.array() != 0).cast<double>().matrix()).cwiseSign().sum());
}

TEST_F(SerialReference, Blas1MatchesPlainLoops) {
  const std::vector<double> xh = test::random_vector(10001, 11), yh = test::random_vector(10001, 12);
  DeviceArray<double> x = b->upload(xh), y = b->upload(yh);
  EXPECT_NEAR(b->dot(x, y), to_vec(xh).dot(to_vec(yh)), 1e-12);
  EXPECT_NEAR(b->nrm2(x), to_vec(xh).norm(), 1e-12);
  b->axpby(2.0, x, 3.0, y);
  EXPECT_LE((to_vec(b->download(y)) - (2.0 * to_vec(xh) + 3.0 * to_vec(yh))).norm(), 1e-12);
}

}  // namespace
}  // namespace sinew::backends_serial_reference_test
