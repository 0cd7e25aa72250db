// The conformance suite: every kernel of every compiled-in backend against the serial reference
// on random inputs (empty and size-1 arrays, non-square and transposed products), at tolerances
// derived from machine epsilon and the number of terms in each result. A backend that is not
// compiled in or cannot run here (cuda without a GPU) is reported as skipped, not passed.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <tuple>

#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::backends_conformance_test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();

// |got - want| <= 2 (terms + 2) eps magnitude per entry: both results are within
// gamma_terms * magnitude of the exact value (magnitude = the sum of absolute products).
void expect_close(const std::vector<double>& got, const std::vector<double>& want, const std::vector<double>& magnitude,
                  const std::vector<double>& terms, const std::string& what) {
  ASSERT_EQ(got.size(), want.size()) << what;
  for (std::size_t i = 0; i < got.size(); ++i) {
    const double tol = 2.0 * (terms[i] + 2.0) * kEps * magnitude[i];
    ASSERT_LE(std::fabs(got[i] - want[i]), tol) << what << " entry " << i << ": " << got[i] << " vs " << want[i];
  }
}

// Magnitudes (sum_k |a_ik x_k| + |beta y_i|) and term counts of y = alpha op(A) x + beta y.
void spmv_bounds(const CsrMatrix& A, bool transpose, const std::vector<double>& x, double alpha, double beta,
                 const std::vector<double>& y, std::vector<double>& mag, std::vector<double>& terms) {
  const std::size_t m = static_cast<std::size_t>(transpose ? A.cols : A.rows);
  mag.assign(m, 0.0);
  terms.assign(m, 1.0);
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
      const std::size_t out = static_cast<std::size_t>(transpose ? A.col_idx[k] : i);
      const std::size_t in = static_cast<std::size_t>(transpose ? i : A.col_idx[k]);
      mag[out] += std::fabs(alpha * A.values[k] * x[in]);
      terms[out] += 1.0;
    }
  if (beta != 0.0)
    for (std::size_t i = 0; i < m; ++i) mag[i] += std::fabs(beta * y[i]);
}

class Conformance : public ::testing::TestWithParam<std::string> {
 protected:
  void SetUp() override {
    for (const BackendInfo& info : builtin_backends().list()) {
      if (info.name != GetParam()) continue;
      if (!info.compiled) GTEST_SKIP() << GetParam() << " not available: " << info.where;
      if (!info.usable) GTEST_SKIP() << GetParam() << " cannot run here: " << info.where;
    }
    b = make_backend(GetParam());
    ref = make_backend("serial");
  }
  std::unique_ptr<Backend> b, ref;
  const std::vector<std::size_t> sizes{0, 1, 7, 4096, 4097, 100003};
};

TEST_P(Conformance, UploadDownloadFillCopy) {
  for (std::size_t n : sizes) {
    const std::vector<double> h = test::random_vector(n, n);
    DeviceArray<double> x = b->upload(h), y = b->allocate<double>(n);
    EXPECT_EQ(b->download(x), h);
    b->copy(x, y);
    EXPECT_EQ(b->download(y), h);
    b->fill(y, -2.5);
    EXPECT_EQ(b->download(y), std::vector<double>(n, -2.5));
    std::vector<Index> ih(n);
    for (std::size_t i = 0; i < n; ++i) ih[i] = static_cast<Index>(i * 7 % 13) - 3;
    EXPECT_EQ(b->download(b->upload(ih)), ih);
  }
}

TEST_P(Conformance, Blas1) {
  for (std::size_t n : sizes) {
    const std::vector<double> xh = test::random_vector(n, 10 + n), yh = test::random_vector(n, 20 + n, 0.5, 2.0);
    const std::vector<double> ones(n, 1.0);
    DeviceArray<double> x = b->upload(xh), y = b->upload(yh), rx = ref->upload(xh), ry = ref->upload(yh);

    std::vector<double> mag(n), terms(n, 2.0);
    for (std::size_t i = 0; i < n; ++i) mag[i] = 0.5 * std::fabs(xh[i]) + 2.0 * std::fabs(yh[i]);
    b->axpby(0.5, x, -2.0, y);
    ref->axpby(0.5, rx, -2.0, ry);
    expect_close(b->download(y), ref->download(ry), mag, terms, "axpby n=" + std::to_string(n));

    // beta = 0 ignores y, even NaN.
    DeviceArray<double> nan_y = b->upload(std::vector<double>(n, std::nan("")));
    b->axpby(1.5, x, 0.0, nan_y);
    std::vector<double> want(n);
    for (std::size_t i = 0; i < n; ++i) want[i] = 1.5 * xh[i];
    EXPECT_EQ(b->download(nan_y), want) << "axpby with b = 0 must ignore y";

    double dmag = 0;
    for (std::size_t i = 0; i < n; ++i) dmag += std::fabs(xh[i] * yh[i]);
    const double dtol = 2.0 * (n + 2.0) * kEps * dmag;
    DeviceArray<double> y0 = b->upload(yh), ry0 = ref->upload(yh);
    EXPECT_LE(std::fabs(b->dot(x, y0) - ref->dot(rx, ry0)), dtol) << "dot n=" << n;
    double nmag = 0;
    for (double v : xh) nmag += v * v;
    EXPECT_LE(std::fabs(b->nrm2(x) - ref->nrm2(rx)), 2.0 * (n + 4.0) * kEps * std::sqrt(nmag)) << "nrm2 n=" << n;

    b->scale(-3.0, y0);
    ref->scale(-3.0, ry0);
    EXPECT_EQ(b->download(y0), ref->download(ry0)) << "scale is one rounding per entry";

    DeviceArray<double> z = b->allocate<double>(n), rz = ref->allocate<double>(n);
    b->multiply(x, y0, z);
    ref->multiply(rx, ry0, rz);
    EXPECT_EQ(b->download(z), ref->download(rz)) << "multiply is one rounding per entry";
    b->divide(x, y0, x);  // aliasing z = x is allowed
    ref->divide(rx, ry0, rx);
    EXPECT_EQ(b->download(x), ref->download(rx)) << "divide is one rounding per entry";
  }
}

TEST_P(Conformance, CsrSpmvPlainAndTransposed) {
  const std::vector<std::pair<Index, Index>> shapes{{0, 0}, {0, 5}, {5, 0}, {1, 1}, {37, 53}, {53, 37}, {700, 400}};
  const std::vector<std::pair<double, double>> coefs{{1.0, 0.0}, {-0.7, 1.3}, {2.0, -1.0}};
  std::uint64_t seed = 100;
  for (auto [rows, cols] : shapes)
    for (Op op : {Op::kNoTranspose, Op::kTranspose})
      for (auto [alpha, beta] : coefs) {
        const CsrMatrix A = test::random_csr(rows, cols, 0.2, ++seed);
        const bool t = op == Op::kTranspose;
        const std::size_t nx = static_cast<std::size_t>(t ? rows : cols),
                          ny = static_cast<std::size_t>(t ? cols : rows);
        const std::vector<double> xh = test::random_vector(nx, ++seed);
        std::vector<double> yh = test::random_vector(ny, ++seed);
        if (beta == 0.0) yh.assign(ny, std::nan(""));  // beta = 0 must ignore y
        const DeviceCsr dA = to_device(*b, A), rA = to_device(*ref, A);
        DeviceArray<double> x = b->upload(xh), y = b->upload(yh), rx = ref->upload(xh), ry = ref->upload(yh);
        b->spmv(alpha, dA, op, x, beta, y);
        ref->spmv(alpha, rA, op, rx, beta, ry);
        std::vector<double> mag, terms;
        spmv_bounds(A, t, xh, alpha, beta, yh, mag, terms);
        expect_close(b->download(y), ref->download(ry), mag, terms,
                     "spmv " + std::to_string(rows) + "x" + std::to_string(cols) + (t ? " transposed" : ""));
      }
}

TEST_P(Conformance, TransposedSpmvFollowsValueChanges) {
  CsrMatrix A = test::random_csr(60, 40, 0.3, 7);
  DeviceCsr dA = to_device(*b, A), rA = to_device(*ref, A);
  const std::vector<double> xh = test::random_vector(60, 8);
  DeviceArray<double> x = b->upload(xh), y = b->allocate<double>(40), rx = ref->upload(xh),
                      ry = ref->allocate<double>(40);
  b->spmv(1.0, dA, Op::kTranspose, x, 0.0, y);  // builds the transpose pattern
  for (double& v : A.values) v *= -3.0;
  b->upload(A.values.data(), A.values.size(), dA.values);
  ref->upload(A.values.data(), A.values.size(), rA.values);
  b->spmv(1.0, dA, Op::kTranspose, x, 0.0, y);
  ref->spmv(1.0, rA, Op::kTranspose, rx, 0.0, ry);
  std::vector<double> mag, terms;
  spmv_bounds(A, true, xh, 1.0, 0.0, {}, mag, terms);
  expect_close(b->download(y), ref->download(ry), mag, terms, "transposed spmv after new values");
}

// A per-step matrix uploaded into arrays that only grow (to_device into a kept DeviceCsr): the
// memory is kept while the matrix fits, replaced when it outgrows it, and products (transposed
// ones too, whose pattern is rebuilt) follow each new pattern.
TEST_P(Conformance, MatricesUploadedIntoGrowOnlyArraysFollowTheirPatterns) {
  DeviceArray<double> v;
  v.grow_to(*b, 50);
  const double* first = v.data();
  v.grow_to(*b, 20);
  EXPECT_EQ(v.size(), 20u);
  EXPECT_EQ(v.capacity(), 50u);
  EXPECT_EQ(v.data(), first);
  const std::vector<double> twenty = test::random_vector(20, 3);
  b->upload(twenty.data(), twenty.size(), v);
  EXPECT_EQ(b->download(v), twenty);
  v.grow_to(*b, 80);
  EXPECT_EQ(v.size(), 80u);
  EXPECT_GE(v.capacity(), 80u);

  DeviceCsr dA;
  std::uint64_t seed = 500;
  for (auto [rows, cols, density] : {std::tuple<Index, Index, double>{60, 40, 0.3}, {30, 40, 0.1}, {90, 40, 0.5}}) {
    const CsrMatrix A = test::random_csr(rows, cols, density, ++seed);
    to_device(*b, A, dA);
    const DeviceCsr rA = to_device(*ref, A);
    for (Op op : {Op::kNoTranspose, Op::kTranspose}) {
      const Index in = op == Op::kTranspose ? rows : cols, out = op == Op::kTranspose ? cols : rows;
      const std::vector<double> xh = test::random_vector(static_cast<std::size_t>(in), ++seed);
      DeviceArray<double> x = b->upload(xh), y = b->allocate<double>(static_cast<std::size_t>(out)),
                          rx = ref->upload(xh), ry = ref->allocate<double>(static_cast<std::size_t>(out));
      b->spmv(1.0, dA, op, x, 0.0, y);
      ref->spmv(1.0, rA, op, rx, 0.0, ry);
      std::vector<double> mag, terms;
      spmv_bounds(A, op == Op::kTranspose, xh, 1.0, 0.0, {}, mag, terms);
      expect_close(b->download(y), ref->download(ry), mag, terms,
                   "grow-only " + std::to_string(rows) + (op == Op::kTranspose ? " transposed" : ""));
    }
  }
}

TEST_P(Conformance, Bsr3Spmv) {
  const std::vector<std::pair<Index, Index>> shapes{{0, 0}, {1, 1}, {2, 5}, {31, 17}, {400, 400}};
  std::uint64_t seed = 300;
  for (auto [br, bc] : shapes)
    for (double beta : {0.0, 0.6}) {
      const Bsr3Matrix A = test::random_bsr3(br, bc, 0.15, ++seed);
      const std::vector<double> xh = test::random_vector(3 * static_cast<std::size_t>(bc), ++seed);
      const std::vector<double> yh = test::random_vector(3 * static_cast<std::size_t>(br), ++seed);
      const DeviceBsr3 dA = to_device(*b, A), rA = to_device(*ref, A);
      DeviceArray<double> x = b->upload(xh), y = b->upload(yh), rx = ref->upload(xh), ry = ref->upload(yh);
      b->bsr3_spmv(1.7, dA, x, beta, y);
      ref->bsr3_spmv(1.7, rA, rx, beta, ry);
      std::vector<double> mag, terms;
      spmv_bounds(to_csr(A), false, xh, 1.7, beta, yh, mag, terms);
      expect_close(b->download(y), ref->download(ry), mag, terms,
                   "bsr3_spmv " + std::to_string(br) + "x" + std::to_string(bc));
    }
}

TEST_P(Conformance, MultiVectorSpmvPlainAndTransposed) {
  const std::vector<std::pair<Index, Index>> shapes{{0, 0}, {1, 1}, {3, 8}, {8, 3}, {300, 200}};
  std::uint64_t seed = 500;
  for (auto [rows, cols] : shapes)
    for (Op op : {Op::kNoTranspose, Op::kTranspose})
      for (double beta : {0.0, -0.4}) {
        const bool t = op == Op::kTranspose;
        const Index in = t ? rows : cols, out = t ? cols : rows;
        const CsrMatrix A = test::random_csr(rows, cols, 0.1, ++seed);
        const std::vector<double> Xh = test::random_vector(3 * static_cast<std::size_t>(in), ++seed);
        const std::vector<double> Yh = test::random_vector(3 * static_cast<std::size_t>(out), ++seed);
        const DeviceCsr dA = to_device(*b, A), rA = to_device(*ref, A);
        DeviceArray<double> X = b->upload(Xh), Y = b->upload(Yh), rX = ref->upload(Xh), rY = ref->upload(Yh);
        b->spmv3(0.9, dA, op, X, beta, Y);
        ref->spmv3(0.9, rA, op, rX, beta, rY);
        // Column c of Y is the spmv of column c of X: reuse the scalar bounds per column.
        std::vector<double> mag(Yh.size()), terms(Yh.size());
        for (int c = 0; c < 3; ++c) {
          std::vector<double> xc(in), yc(out), mc, tc;
          for (Index k = 0; k < in; ++k) xc[k] = Xh[3 * k + c];
          for (Index k = 0; k < out; ++k) yc[k] = Yh[3 * k + c];
          spmv_bounds(A, t, xc, 0.9, beta, yc, mc, tc);
          for (Index k = 0; k < out; ++k) {
            mag[3 * k + c] = mc[k];
            terms[3 * k + c] = tc[k];
          }
        }
        expect_close(b->download(Y), ref->download(rY), mag, terms, std::string("spmv3") + (t ? " transposed" : ""));
      }
}

TEST_P(Conformance, SpgemmSymbolicOnceNumericTwice) {
  const std::vector<std::array<Index, 3>> shapes{{0, 0, 0}, {1, 1, 1}, {5, 0, 4}, {20, 30, 10}, {150, 90, 120}};
  std::uint64_t seed = 700;
  for (auto [m, k, n] : shapes) {
    CsrMatrix A = test::random_csr(m, k, 0.1, ++seed);
    const CsrMatrix B = test::random_csr(k, n, 0.1, ++seed);
    const DeviceCsr dA0 = to_device(*b, A), dB = to_device(*b, B), rA0 = to_device(*ref, A), rB = to_device(*ref, B);
    DeviceCsr C = b->spgemm_symbolic(dA0, dB), rC = ref->spgemm_symbolic(rA0, rB);
    const CsrMatrix hC = to_host(*b, C), hrC = to_host(*ref, rC);
    ASSERT_EQ(hC.row_ptr, hrC.row_ptr);
    ASSERT_EQ(hC.col_idx, hrC.col_idx);
    for (int pass = 0; pass < 2; ++pass) {
      if (pass == 1)
        for (double& v : A.values) v = v * 2.0 - 0.25;  // same pattern, new values: reuse the plan
      const DeviceCsr dA = to_device(*b, A), rA = to_device(*ref, A);
      b->spgemm_numeric(dA, dB, C);
      ref->spgemm_numeric(rA, rB, rC);
      // Magnitudes from |A| |B| on the host.
      std::vector<double> mag(hC.col_idx.size(), 0.0), terms(hC.col_idx.size(), 1.0);
      for (Index i = 0; i < m; ++i)
        for (Index ka = A.row_ptr[i]; ka < A.row_ptr[i + 1]; ++ka)
          for (Index kb = B.row_ptr[A.col_idx[ka]]; kb < B.row_ptr[A.col_idx[ka] + 1]; ++kb) {
            Index p = hC.row_ptr[i];
            while (hC.col_idx[p] != B.col_idx[kb]) ++p;
            mag[p] += std::fabs(A.values[ka] * B.values[kb]);
            terms[p] += 1.0;
          }
      expect_close(b->download(C.values), ref->download(rC.values), mag, terms, "spgemm pass " + std::to_string(pass));
    }
  }
}

TEST_P(Conformance, BatchPolarDecomposition) {
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{2000}}) {
    // diag(1.5, 1, +-0.5) plus noise: distinct singular values, every fifth element inverted.
    std::vector<double> Fh = test::random_vector(9 * n, 900 + n, -0.1, 0.1);
    for (std::size_t e = 0; e < n; ++e) {
      Fh[9 * e] += 1.5;
      Fh[9 * e + 4] += 1.0;
      Fh[9 * e + 8] += e % 5 == 0 ? -0.5 : 0.5;
    }
    DeviceArray<double> F = b->upload(Fh), R = b->allocate<double>(9 * n), rF = ref->upload(Fh),
                        rR = ref->allocate<double>(9 * n);
    b->polar3(F, R);
    ref->polar3(rF, rR);
    const std::vector<double> got = b->download(R), want = ref->download(rR);
    // Well-separated singular values: the rotation is well-conditioned, so results agree to ~1e3 eps.
    for (std::size_t i = 0; i < got.size(); ++i) ASSERT_NEAR(got[i], want[i], 1e3 * kEps) << "entry " << i;
  }
}

// Counts how often each index is visited; ranges must partition [0, n).
struct VisitCounter final : RangeKernel {
  explicit VisitCounter(std::vector<int>& v) : visits(&v) {}
  std::vector<int>* visits;
  void operator()(std::size_t begin, std::size_t end) const override {
    for (std::size_t i = begin; i < end; ++i) ++(*visits)[i];
  }
};

TEST_P(Conformance, RangeKernelsVisitEveryIndexOnce) {
  if (!b->runs_host_code()) {
    std::vector<int> visits(10, 0);
    EXPECT_THROW(b->for_each_range(10, VisitCounter(visits)), Error) << "a device backend must refuse host code";
    return;
  }
  for (std::size_t n : {std::size_t{0}, std::size_t{1}, std::size_t{3}, std::size_t{1000}, std::size_t{100003}}) {
    std::vector<int> visits(n, 0);
    b->for_each_range(n, VisitCounter(visits));
    for (std::size_t i = 0; i < n; ++i) ASSERT_EQ(visits[i], 1) << "index " << i << " of " << n;
  }
}

std::vector<std::string> non_reference_backends() {
  std::vector<std::string> names;
  for (const std::string& n : builtin_backends().names())
    if (n != "serial") names.push_back(n);
  return names;
}

INSTANTIATE_TEST_SUITE_P(AllBackends, Conformance, ::testing::ValuesIn(non_reference_backends()),
                         [](const ::testing::TestParamInfo<std::string>& i) { return i.param; });

}  // namespace
}  // namespace sinew::backends_conformance_test
