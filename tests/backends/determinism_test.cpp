// Same input, same bits, whatever the thread count: the CPU backends share the fixed blocked
// reduction order and compute each output entry on one thread.
#include <gtest/gtest.h>

#include "host_backends.hpp"
#include "random_sparse.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"

namespace sinew::backends_determinism_test {
namespace {

// Every result of the kernels that reduce or scatter, one after another: dot, CSR SpMV plain and
// transposed, 3x3-block SpMV, SpGEMM values.
std::vector<double> run(Backend& b) {
  const Bsr3Matrix K = fem_grid_matrix({12, 11, 10});
  const CsrMatrix A = to_csr(K);
  const std::vector<double> xh = test::random_vector(static_cast<std::size_t>(A.rows), 42);
  const DeviceCsr dA = to_device(b, A);
  DeviceArray<double> x = b.upload(xh), y = b.allocate<double>(xh.size());
  std::vector<double> out{b.dot(x, x)};
  auto append = [&](const std::vector<double>& v) { out.insert(out.end(), v.begin(), v.end()); };
  b.spmv(1.0, dA, Op::kNoTranspose, x, 0.0, y);
  append(b.download(y));
  b.spmv(1.0, dA, Op::kTranspose, x, 0.0, y);
  append(b.download(y));
  b.bsr3_spmv(1.0, to_device(b, K), x, 0.0, y);
  append(b.download(y));
  DeviceCsr C = b.spgemm_symbolic(dA, dA);
  b.spgemm_numeric(dA, dA, C);
  append(b.download(C.values));
  return out;
}

TEST(Determinism, CpuBackendsGiveTheSameBitsForAnyThreadCount) {
  // Each backend twice at each thread count: run to run and against serial.
  const int compared = test::expect_host_backends_bitwise_equal(
      [](Backend& b) {
        std::vector<double> once = run(b);
        const std::vector<double> again = run(b);
        once.insert(once.end(), again.begin(), again.end());
        return once;
      },
      "determinism", {1, 2, 3});
  if (compared == 0) GTEST_SKIP() << "a serial-only build: no other host backend to compare with serial";
}

TEST(Determinism, CudaRepeatsItsOwnBits) {
  bool usable = false;
  for (const BackendInfo& info : builtin_backends().list()) usable = usable || (info.name == "cuda" && info.usable);
  if (!usable) GTEST_SKIP() << "cuda backend not usable here (no GPU or not compiled in)";
  auto b = make_backend("cuda");
  EXPECT_EQ(run(*b), run(*b)) << "cuda run twice";
}

}  // namespace
}  // namespace sinew::backends_determinism_test
