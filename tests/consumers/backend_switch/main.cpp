// Runs the same conjugate-gradient solve on a backend chosen at run time, without recompiling:
//   backend_switch --list            the backends of this installation and whether each can run
//   backend_switch --backend tbb     by argument
//   backend_switch settings.txt      by a settings file holding a line "backend = tbb"
//   SINEW_BACKEND=tbb backend_switch by the environment (otherwise: serial)
// The answer is checked against the same solve on the serial reference backend; exits 1 when they
// disagree and 2 for a backend that is unknown or cannot run here.
#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/linear_operator.hpp"

namespace {

// The backend named by a "backend = NAME" line of @p path ("" when there is none).
std::string backend_from_file(const std::string& path) {
  std::ifstream in(path);
  if (!in) throw sinew::Error(path + ": cannot read the settings file");
  for (std::string line; std::getline(in, line);) {
    const auto eq = line.find('=');
    if (line.rfind("backend", 0) != 0 || eq == std::string::npos) continue;
    const auto first = line.find_first_not_of(" \t", eq + 1);
    const auto last = line.find_last_not_of(" \t\r");
    if (first != std::string::npos) return line.substr(first, last - first + 1);
  }
  return "";
}

// 7-point Laplacian of an n^3 grid plus a small shift (SPD).
sinew::CsrMatrix laplacian_3d(int n) {
  std::vector<Eigen::Triplet<double, sinew::Index>> entries;
  auto id = [n](int i, int j, int k) { return static_cast<sinew::Index>(i + n * (j + n * k)); };
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i) {
        entries.emplace_back(id(i, j, k), id(i, j, k), 6.01);
        for (int d : {-1, 1}) {
          if (i + d >= 0 && i + d < n) entries.emplace_back(id(i, j, k), id(i + d, j, k), -1.0);
          if (j + d >= 0 && j + d < n) entries.emplace_back(id(i, j, k), id(i, j + d, k), -1.0);
          if (k + d >= 0 && k + d < n) entries.emplace_back(id(i, j, k), id(i, j, k + d), -1.0);
        }
      }
  sinew::EigenCsr A(n * n * n, n * n * n);
  A.setFromTriplets(entries.begin(), entries.end());
  return sinew::from_eigen(A);
}

// Solves A x = b with conjugate gradient on @p backend; returns x on the host.
std::vector<double> solve_on(sinew::Backend& backend, const sinew::CsrMatrix& A, const std::vector<double>& b) {
  const sinew::DeviceCsr A_device = sinew::to_device(backend, A);
  sinew::CsrOperator op(backend, A_device);
  const sinew::DeviceArray<double> b_device = backend.upload(b);
  sinew::DeviceArray<double> x_device = backend.upload(std::vector<double>(b.size(), 0.0));
  sinew::ConjugateGradient cg(backend);
  const sinew::KrylovResult r = cg.solve(op, b_device, x_device);
  if (!r.converged()) throw sinew::Error("cg on " + backend.name() + ": " + r.message);
  std::printf("  %-8s cg converged in %d iterations (%s)\n", backend.name().c_str(), r.iterations,
              backend.execution_space().c_str());
  return backend.download(x_device);
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() == 1 && args[0] == "--list") {
    for (const sinew::BackendInfo& info : sinew::builtin_backends().list())
      std::printf("%s %s %s\n", info.name.c_str(), info.usable ? "usable" : "unavailable", info.origin.c_str());
    return 0;
  }
  std::string name;
  try {
    if (args.size() == 2 && args[0] == "--backend")
      name = args[1];
    else if (args.size() == 1)
      name = backend_from_file(args[0]);
    if (name.empty()) name = sinew::backend_name_from_environment("serial");

    const sinew::CsrMatrix A = laplacian_3d(16);
    std::vector<double> b(static_cast<std::size_t>(A.rows));
    for (std::size_t i = 0; i < b.size(); ++i) b[i] = std::sin(0.01 * double(i));
    std::printf("backend '%s', %lld unknowns\n", name.c_str(), static_cast<long long>(A.rows));
    auto chosen = sinew::make_backend(name);  // throws sinew::Error naming what is missing
    const std::vector<double> x = solve_on(*chosen, A, b);
    auto serial = sinew::make_backend("serial");
    const std::vector<double> reference = solve_on(*serial, A, b);

    // Parallel reductions sum in another order: agreement to round-off, not bit for bit.
    double diff = 0.0, norm = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i) {
      diff = std::max(diff, std::fabs(x[i] - reference[i]));
      norm = std::max(norm, std::fabs(reference[i]));
    }
    const bool ok = diff <= 1e-10 * norm;
    std::printf("max |x_%s - x_serial| / max |x_serial| = %.2e: %s\n", name.c_str(), diff / norm,
                ok ? "backend_switch: OK" : "backend_switch: FAILED");
    return ok ? 0 : 1;
  } catch (const sinew::Error& e) {
    std::fprintf(stderr, "backend_switch: %s\n", e.what());
    return 2;
  }
}
