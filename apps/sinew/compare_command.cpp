// `sinew compare`: the same kernels on every usable backend, side by side, checked against the
// serial backend's results.
#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <functional>
#include <memory>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "options.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/linalg/fem_matrix.hpp"
#include "sinew/linalg/traffic.hpp"

namespace sinew::app {

namespace {

struct Row {
  std::string backend, kernel;
  double ms = 0, gbs = 0, max_rel_diff = 0;
};

// Median wall time of @p repeat runs of @p f in milliseconds (after one warm-up run).
double median_ms(Backend& b, int repeat, const std::function<void()>& f) {
  f();
  b.synchronize();
  std::vector<double> t;
  for (int r = 0; r < repeat; ++r) {
    const auto t0 = std::chrono::steady_clock::now();
    f();
    b.synchronize();
    t.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
  }
  std::sort(t.begin(), t.end());
  return t[t.size() / 2];
}

double max_rel_diff(const std::vector<double>& a, const std::vector<double>& ref) {
  double scale = 0, diff = 0;
  for (std::size_t i = 0; i < a.size(); ++i) {
    scale = std::max(scale, std::fabs(ref[i]));
    diff = std::max(diff, std::fabs(a[i] - ref[i]));
  }
  return scale > 0 ? diff / scale : diff;
}

// One kernel's median time, the bytes it must move, and its output (to compare backends).
struct KernelResult {
  std::string name;
  double ms, bytes;
  std::vector<double> result;
};

// Times every kernel on @p b; the output of each is downloaded after the timed runs.
std::vector<KernelResult> run_kernels(Backend& b, const Bsr3Matrix& block, const CsrMatrix& scalar_csr,
                                      const CsrMatrix& scalar, int repeat) {
  std::vector<KernelResult> out;
  const DeviceCsr A = to_device(b, scalar_csr);
  const DeviceBsr3 Ab = to_device(b, block);
  const DeviceCsr S = to_device(b, scalar);
  const std::size_t n = static_cast<std::size_t>(A.rows);
  std::vector<double> xh(n);
  for (std::size_t i = 0; i < n; ++i) xh[i] = std::sin(0.37 * static_cast<double>(i)) + 0.5;
  DeviceArray<double> x = b.upload(xh), y = b.allocate<double>(n);
  // Polar decompositions of n/9 matrices taken from x itself.
  DeviceArray<double> F = b.allocate<double>(n / 9 * 9), R = b.allocate<double>(n / 9 * 9);
  b.upload(xh.data(), F.size(), F);
  double d = 0;

  auto add = [&](const std::string& name, double bytes, const std::function<void()>& f,
                 const std::function<std::vector<double>()>& output) {
    const double ms = median_ms(b, repeat, f);
    out.push_back({name, ms, bytes, output()});
  };
  auto y_out = [&] { return b.download(y); };
  const double csr_bytes = csr_spmv_bytes(A.rows, A.cols, A.nnz());
  add(
      "csr_spmv", csr_bytes, [&] { b.spmv(1.0, A, Op::kNoTranspose, x, 0.0, y); }, y_out);
  add(
      "csr_spmv_T", csr_bytes + A.nnz() * sizeof(Index), [&] { b.spmv(1.0, A, Op::kTranspose, x, 0.0, y); }, y_out);
  add(
      "bsr3_spmv", bsr3_spmv_bytes(Ab.block_rows, Ab.block_cols, Ab.nnzb()), [&] { b.bsr3_spmv(1.0, Ab, x, 0.0, y); },
      y_out);
  add(
      "spmv3", spmv3_bytes(S.rows, S.cols, S.nnz()), [&] { b.spmv3(1.0, S, Op::kNoTranspose, x, 0.0, y); }, y_out);
  add(
      "dot", 16.0 * n, [&] { d = b.dot(x, x); }, [&] { return std::vector<double>{d}; });
  add(
      "axpby", 16.0 * n, [&] { b.axpby(0.5, x, 0.0, y); }, y_out);
  add(
      "polar3", 16.0 * F.size(), [&] { b.polar3(F, R); }, [&] { return b.download(R); });
  return out;
}

}  // namespace

int compare_command(const std::vector<std::string>& args) {
  const Options opts("compare", args, {"size", "backend", "repeat", "threads", "out"});
  const int size = opts.integer("size", 32, 2, 120);
  const int repeat = opts.integer("repeat", 5, 1, 1000);
  BackendOptions bo;
  bo.threads = opts.integer("threads", 0, 0, 4096);
  const std::string out_dir = opts.str("out", "results");

  std::vector<std::string> names;
  const std::string chosen = opts.str("backend", backend_name_from_environment(""));
  if (!chosen.empty()) {
    names = {chosen};
  } else {
    for (const BackendInfo& info : builtin_backends().list())
      if (info.usable) names.push_back(info.name);
  }

  const GridSize grid{size, size, size};
  const Bsr3Matrix block = fem_grid_matrix(grid);
  const CsrMatrix scalar_csr = to_csr(block);
  const CsrMatrix scalar = fem_grid_scalar_matrix(grid);
  std::printf("FEM-like grid %dx%dx%d: %d DOFs, %d nonzeros (%d 3x3 blocks); %d repeats, median time\n\n", size, size,
              size, scalar_csr.rows, scalar_csr.nnz(), block.nnzb(), repeat);

  auto serial = make_backend("serial");
  const std::vector<KernelResult> ref = run_kernels(*serial, block, scalar_csr, scalar, repeat);
  std::vector<Row> rows;
  for (const std::string& name : names) {
    std::unique_ptr<Backend> b = name == "serial" ? nullptr : make_backend(name, bo);
    const std::vector<KernelResult> res = b ? run_kernels(*b, block, scalar_csr, scalar, repeat) : ref;
    for (std::size_t k = 0; k < res.size(); ++k)
      rows.push_back(
          {name, res[k].name, res[k].ms, res[k].bytes / res[k].ms * 1e-6, max_rel_diff(res[k].result, ref[k].result)});
  }

  std::printf("%-8s %-11s %10s %8s %10s %14s\n", "backend", "kernel", "time ms", "GB/s", "vs serial", "max rel diff");
  for (const Row& r : rows) {
    double serial_ms = r.ms;
    for (const KernelResult& s : ref)
      if (s.name == r.kernel) serial_ms = s.ms;
    std::printf("%-8s %-11s %10.3f %8.2f %9.2fx %14.2e\n", r.backend.c_str(), r.kernel.c_str(), r.ms, r.gbs,
                serial_ms / r.ms, r.max_rel_diff);
  }

  const std::filesystem::path path = std::filesystem::path(out_dir) / "compare.csv";
  write_atomically("compare", path, [&](std::ostream& f) {
    f << "backend,kernel,size,dofs,time_ms,gb_per_s,max_rel_diff_vs_serial\n";
    for (const Row& r : rows)
      f << r.backend << ',' << r.kernel << ',' << size << ',' << scalar_csr.rows << ',' << r.ms << ',' << r.gbs << ','
        << r.max_rel_diff << '\n';
  });
  std::printf("\nwrote %s\n", path.string().c_str());
  return 0;
}

}  // namespace sinew::app
