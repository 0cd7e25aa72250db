// Every Backend kernel on every usable backend, on generated FEM-like matrices (3x3 blocks,
// 27-point coupling, ~10^4 to ~10^6 DOFs), reporting GB/s next to the time, with a STREAM triad
// in the same run. The closing table reads each SpMV's GB/s as a fraction of the triad.
//
//   backend_kernels_bench [--sizes=24,48,70] [--triad_mib=256] [Google Benchmark flags]
//   e.g. --benchmark_out=bench.json --benchmark_out_format=json
#include <benchmark/benchmark.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <thread>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/traffic.hpp"
#include "stream_triad.hpp"

namespace {

using namespace sinew;

// Host matrices of one grid size, generated once.
struct Problem {
  Index n;                // vertices per axis
  Bsr3Matrix block;       // 3x3-block matrix (3 n^3 DOFs)
  CsrMatrix scalar3;      // the same as scalar CSR
  CsrMatrix scalar;       // per-vertex scalar matrix (n^3 rows), for spmv3 and spgemm
  std::vector<double> x;  // (3 n^3) input vector
};

std::map<Index, std::unique_ptr<Problem>> g_problems;
std::map<std::string, std::unique_ptr<Backend>> g_backends;

Problem& problem(Index n) {
  auto& p = g_problems[n];
  if (!p) {
    p = std::make_unique<Problem>();
    p->n = n;
    p->block = fem_grid_matrix({n, n, n});
    p->scalar3 = to_csr(p->block);
    p->scalar = fem_grid_scalar_matrix({n, n, n});
    p->x.resize(static_cast<std::size_t>(p->scalar3.rows));
    for (std::size_t i = 0; i < p->x.size(); ++i) p->x[i] = std::sin(0.37 * static_cast<double>(i)) + 0.5;
  }
  return *p;
}

Backend& backend(const std::string& name) {
  auto& b = g_backends[name];
  if (!b) b = make_backend(name);
  return *b;
}

// Times f on backend b (synchronised per iteration), counting `bytes` per call as GB/s.
template <class F>
void timed(benchmark::State& state, Backend& b, double bytes, double dofs, F f) {
  for (auto _ : state) {
    f();
    b.synchronize();
  }
  state.counters["GB/s"] = benchmark::Counter(bytes * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
  state.counters["dofs"] = dofs;
}

void register_backend_kernels(const std::string& name, Index n) {
  const std::string suffix = "/" + name + "/n:" + std::to_string(n);
  auto reg = [&](const std::string& kernel, auto body) {
    benchmark::RegisterBenchmark((kernel + suffix).c_str(),
                                 [name, n, body](benchmark::State& s) {
                                   Backend& b = backend(name);
                                   Problem& p = problem(n);
                                   body(s, b, p);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  };
  reg("csr_spmv", [](benchmark::State& s, Backend& b, Problem& p) {
    const DeviceCsr A = to_device(b, p.scalar3);
    DeviceArray<double> x = b.upload(p.x), y = b.allocate<double>(p.x.size());
    timed(s, b, csr_spmv_bytes(A.rows, A.cols, A.nnz()), A.rows, [&] { b.spmv(1.0, A, Op::kNoTranspose, x, 0.0, y); });
  });
  reg("csr_spmv_transposed", [](benchmark::State& s, Backend& b, Problem& p) {
    const DeviceCsr A = to_device(b, p.scalar3);
    DeviceArray<double> x = b.upload(p.x), y = b.allocate<double>(p.x.size());
    b.spmv(1.0, A, Op::kTranspose, x, 0.0, y);  // builds the transpose pattern outside the timing
    timed(s, b, csr_spmv_bytes(A.rows, A.cols, A.nnz()) + A.nnz() * sizeof(Index), A.rows,
          [&] { b.spmv(1.0, A, Op::kTranspose, x, 0.0, y); });
  });
  reg("bsr3_spmv", [](benchmark::State& s, Backend& b, Problem& p) {
    const DeviceBsr3 A = to_device(b, p.block);
    DeviceArray<double> x = b.upload(p.x), y = b.allocate<double>(p.x.size());
    timed(s, b, bsr3_spmv_bytes(A.block_rows, A.block_cols, A.nnzb()), 3.0 * A.block_rows,
          [&] { b.bsr3_spmv(1.0, A, x, 0.0, y); });
  });
  reg("spmv3", [](benchmark::State& s, Backend& b, Problem& p) {
    const DeviceCsr A = to_device(b, p.scalar);
    DeviceArray<double> X = b.upload(p.x), Y = b.allocate<double>(p.x.size());
    timed(s, b, spmv3_bytes(A.rows, A.cols, A.nnz()), 3.0 * A.rows,
          [&] { b.spmv3(1.0, A, Op::kNoTranspose, X, 0.0, Y); });
  });
  reg("spgemm_numeric", [](benchmark::State& s, Backend& b, Problem& p) {
    const DeviceCsr A = to_device(b, p.scalar);
    DeviceCsr C = b.spgemm_symbolic(A, A);
    // Reads A twice (row of A, rows of B = A) and writes C; a lower bound on the traffic.
    timed(s, b, 2.0 * csr_spmv_bytes(A.rows, A.cols, A.nnz()) + C.nnz() * 12.0, A.rows,
          [&] { b.spgemm_numeric(A, A, C); });
  });
  reg("dot", [](benchmark::State& s, Backend& b, Problem& p) {
    DeviceArray<double> x = b.upload(p.x), y = b.upload(p.x);
    double r = 0;
    timed(s, b, 16.0 * p.x.size(), p.x.size(), [&] { r += b.dot(x, y); });
    benchmark::DoNotOptimize(r);
  });
  reg("axpby", [](benchmark::State& s, Backend& b, Problem& p) {
    DeviceArray<double> x = b.upload(p.x), y = b.upload(p.x);
    timed(s, b, 24.0 * p.x.size(), p.x.size(), [&] { b.axpby(0.5, x, 0.5, y); });
  });
  reg("upload", [](benchmark::State& s, Backend& b, Problem& p) {
    DeviceArray<double> x = b.allocate<double>(p.x.size());
    timed(s, b, 16.0 * p.x.size(), p.x.size(), [&] { b.upload(p.x.data(), p.x.size(), x); });
  });
  reg("polar3", [](benchmark::State& s, Backend& b, Problem& p) {
    const std::size_t elements = p.x.size() / 9;
    std::vector<double> F(9 * elements);
    for (std::size_t e = 0; e < elements; ++e)
      for (int k = 0; k < 9; ++k) F[9 * e + k] = (k % 4 == 0 ? 1.0 : 0.0) + 0.2 * p.x[9 * e + k];
    DeviceArray<double> dF = b.upload(F), dR = b.allocate<double>(F.size());
    timed(s, b, 144.0 * elements, elements, [&] { b.polar3(dF, dR); });
  });
}

// Console output as usual, plus the closing table of SpMV bandwidth against the triad.
class SummaryReporter : public benchmark::ConsoleReporter {
 public:
  void ReportRuns(const std::vector<Run>& runs) override {
    for (const Run& r : runs) {
      auto it = r.counters.find("GB/s");
      if (it != r.counters.end() && r.run_type == Run::RT_Iteration) gbs_[r.benchmark_name()] = it->second.value;
    }
    ConsoleReporter::ReportRuns(runs);
  }
  void print_summary(Index largest) const {
    double triad = 0;
    std::string triad_name;
    for (const auto& [name, v] : gbs_)
      if (name.rfind("stream_triad", 0) == 0 && v > triad) {
        triad = v;
        triad_name = name.substr(0, name.find("/real_time"));
      }
    std::printf("\nSpMV on the largest matrix (n = %d, %d DOFs) against the STREAM triad (%s: %.2f GB/s)\n", largest,
                3 * largest * largest * largest, triad_name.c_str(), triad);
    std::printf("%-22s %-8s %10s %14s\n", "kernel", "backend", "GB/s", "of triad");
    for (const char* kernel : {"csr_spmv", "bsr3_spmv", "spmv3", "csr_spmv_transposed"})
      for (const auto& [name, v] : gbs_) {
        const std::string prefix = std::string(kernel) + "/";
        const std::string tail = "/n:" + std::to_string(largest) + "/";
        if (name.rfind(prefix, 0) != 0 || name.find(tail) == std::string::npos) continue;
        const std::string b = name.substr(prefix.size(), name.find('/', prefix.size()) - prefix.size());
        std::printf("%-22s %-8s %10.2f %13.0f%%\n", kernel, b.c_str(), v, triad > 0 ? 100.0 * v / triad : 0.0);
      }
  }

 private:
  std::map<std::string, double> gbs_;
};

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> sizes = sinew::bench::take_int_list(argc, argv, "sizes", "24,48,70");
  const std::size_t triad_mib = std::stoul(sinew::bench::take_flag(argc, argv, "triad_mib", "256"));

  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;

  const int hw = static_cast<int>(std::max(1u, std::thread::hardware_concurrency()));
  for (int threads : {1, hw}) {
    if (threads == 1 && hw == 1) continue;
    benchmark::RegisterBenchmark(("stream_triad/threads:" + std::to_string(threads)).c_str(),
                                 [triad_mib, threads](benchmark::State& s) {
                                   sinew::bench::StreamTriad t(triad_mib, threads);
                                   for (auto _ : s) t.run();
                                   s.counters["GB/s"] = benchmark::Counter(
                                       t.bytes() * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
                                 })
        ->Unit(benchmark::kMillisecond)
        ->UseRealTime();
  }
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable) {
      std::fprintf(stderr, "skipping backend %s: %s\n", info.name.c_str(), info.where.c_str());
      continue;
    }
    for (Index n : sizes) register_backend_kernels(info.name, n);
  }

  SummaryReporter reporter;
  benchmark::RunSpecifiedBenchmarks(&reporter);
  reporter.print_summary(*std::max_element(sizes.begin(), sizes.end()));
  g_backends.clear();
  benchmark::Shutdown();
  return 0;
}
