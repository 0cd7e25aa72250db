// Make a backend by name and run kernels on it: the same calls run on serial, tbb, kokkos or
// cuda, chosen at run time (here by the SINEW_BACKEND environment variable, else "serial").
#include <cmath>
#include <cstdio>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/error.hpp"

int main() {
  // What this build has: every backend is listed, compiled in or not, with why it can't run.
  for (const sinew::BackendInfo& info : sinew::builtin_backends().list())
    std::printf("%-7s compiled=%d usable=%d  %s\n", info.name.c_str(), info.compiled, info.usable, info.where.c_str());

  // A backend that is missing or cannot run here is an error that says why: no silent fallback.
  std::unique_ptr<sinew::Backend> backend;
  try {
    backend = sinew::make_backend(sinew::backend_name_from_environment("serial"));
  } catch (const sinew::Error& e) {
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
  std::printf("running on %s (%s, %d threads)\n", backend->name().c_str(), backend->execution_space().c_str(),
              backend->concurrency());

  // Arrays live in the backend's memory (device memory for cuda): upload, compute, download.
  const std::size_t n = 1000;
  std::vector<double> x_host(n), y_host(n);
  for (std::size_t i = 0; i < n; ++i) {
    x_host[i] = 1.0 / double(i + 1);
    y_host[i] = double(i);
  }
  sinew::DeviceArray<double> x = backend->upload(x_host);
  sinew::DeviceArray<double> y = backend->upload(y_host);

  backend->axpby(2.0, x, 0.5, y);       // y = 2 x + 0.5 y
  const double d = backend->dot(x, y);  // deterministic: fixed blocked summation order
  const std::vector<double> y_result = backend->download(y);

  // Check against the same sums on the host.
  double d_expected = 0.0, max_error = 0.0;
  for (std::size_t i = 0; i < n; ++i) {
    const double yi = 2.0 * x_host[i] + 0.5 * y_host[i];
    max_error = std::max(max_error, std::abs(y_result[i] - yi));
    d_expected += x_host[i] * yi;
  }
  std::printf("dot = %.15g (host %.15g), max |y error| = %g\n", d, d_expected, max_error);
  return (max_error < 1e-14 && std::abs(d - d_expected) < 1e-12 * std::abs(d_expected)) ? 0 : 1;
}
