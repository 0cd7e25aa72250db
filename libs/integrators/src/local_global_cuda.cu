// LocalGlobalIntegrator's local step on the GPU: one thread per element running the same
// SINEW_HD local_step_element() / triangle_local_step() as the host backends
// (local_global_kernels.hpp, local_global_triangle_kernels.hpp).
#include <cuda_runtime.h>

#include <string>

#include "local_global_cuda.hpp"
#include "sinew/core/error.hpp"

namespace sinew::integrators::detail {
namespace {

__global__ void local_step_kernel(LocalConstants c, const double* volumes, const double* weights, std::size_t n,
                                  const double* F_t, double* u, double* p_w, double* energy) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= n) return;
  local_step_element(c, volumes[e], weights[e], F_t + 9 * e, u ? u + 9 * e : nullptr, p_w + 9 * e, energy + e);
}

__global__ void triangle_local_step_kernel(LocalConstants c, const double* volumes, const double* weights,
                                           std::size_t n, const double* F, double* u, double* p_w, double* energy) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= n) return;
  triangle_local_step(c, volumes[e], weights[e], F + 6 * e, u ? u + 6 * e : nullptr, p_w + 6 * e, energy + e);
}

// Waits for the last launch and turns a CUDA error into sinew::Error.
void check_launch(const char* what) {
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw Error(std::string(what) + ": CUDA error " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

}  // namespace

bool have_cuda_local_step() { return true; }

void local_step_cuda(const LocalConstants& constants, const double* volumes, const double* weights, std::size_t n,
                     const double* F_t, double* u, double* p_w, double* energy) {
  if (n == 0) return;
  constexpr unsigned kThreads = 128;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  local_step_kernel<<<blocks, kThreads>>>(constants, volumes, weights, n, F_t, u, p_w, energy);
  check_launch("local-global local step");
}

void triangle_local_step_cuda(const LocalConstants& constants, const double* volumes, const double* weights,
                              std::size_t n, const double* F, double* u, double* p_w, double* energy) {
  if (n == 0) return;
  constexpr unsigned kThreads = 128;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  triangle_local_step_kernel<<<blocks, kThreads>>>(constants, volumes, weights, n, F, u, p_w, energy);
  check_launch("local-global triangle local step");
}

}  // namespace sinew::integrators::detail
