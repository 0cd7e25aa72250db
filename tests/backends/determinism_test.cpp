// Same input, same bits, whatever the thread count: the CPU backends share the fixed blocked
// reduction order and compute each output entry on one thread.
#include <gtest/gtest.h>

#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"

namespace sinew::backends_determinism_test {
namespace {

struct Results {
  double dot;
  std::vector<double> spmv, spmv_t, bsr, spgemm;
};

Results run(Backend& b) {
  const Bsr3Matrix K = fem_grid_matrix({12, 11, 10});
  const CsrMatrix A = to_csr(K);
  const std::vector<double> xh = test::random_vector(static_cast<std::size_t>(A.rows), 42);
  const DeviceCsr dA = to_device(b, A);
  DeviceArray<double> x = b.upload(xh), y = b.allocate<double>(xh.size());
  Results r;
  r.dot = b.dot(x, x);
  b.spmv(1.0, dA, Op::kNoTranspose, x, 0.0, y);
  r.spmv = b.download(y);
  b.spmv(1.0, dA, Op::kTranspose, x, 0.0, y);
  r.spmv_t = b.download(y);
  b.bsr3_spmv(1.0, to_device(b, K), x, 0.0, y);
  r.bsr = b.download(y);
  DeviceCsr C = b.spgemm_symbolic(dA, dA);
  b.spgemm_numeric(dA, dA, C);
  r.spgemm = b.download(C.values);
  return r;
}

void expect_identical(const Results& a, const Results& b, const std::string& what) {
  EXPECT_EQ(a.dot, b.dot) << what;
  EXPECT_EQ(a.spmv, b.spmv) << what;
  EXPECT_EQ(a.spmv_t, b.spmv_t) << what;
  EXPECT_EQ(a.bsr, b.bsr) << what;
  EXPECT_EQ(a.spgemm, b.spgemm) << what;
}

TEST(Determinism, CpuBackendsGiveTheSameBitsForAnyThreadCount) {
  auto serial = make_backend("serial");
  const Results ref = run(*serial);
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable || info.name == "serial" || info.name == "cuda") continue;
    for (int threads : {1, 2, 3}) {
      BackendOptions o;
      o.threads = threads;
      auto b = make_backend(info.name, o);
      expect_identical(run(*b), ref, info.name + " with " + std::to_string(threads) + " threads");
      expect_identical(run(*b), ref, info.name + " run twice");
    }
  }
}

TEST(Determinism, CudaRepeatsItsOwnBits) {
  bool usable = false;
  for (const BackendInfo& info : builtin_backends().list()) usable = usable || (info.name == "cuda" && info.usable);
  if (!usable) GTEST_SKIP() << "cuda backend not usable here (no GPU or not compiled in)";
  auto b = make_backend("cuda");
  expect_identical(run(*b), run(*b), "cuda run twice");
}

}  // namespace
}  // namespace sinew::backends_determinism_test
