// LocalGlobalIntegrator's local step on the GPU: one thread per element running the same
// SINEW_HD local_step_element() as the host backends (local_global_kernels.hpp).
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

}  // namespace

bool have_cuda_local_step() { return true; }

void local_step_cuda(const LocalConstants& constants, const double* volumes, const double* weights, std::size_t n,
                     const double* F_t, double* u, double* p_w, double* energy) {
  if (n == 0) return;
  constexpr unsigned kThreads = 128;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  local_step_kernel<<<blocks, kThreads>>>(constants, volumes, weights, n, F_t, u, p_w, energy);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw Error(std::string("local-global local step: CUDA error ") + cudaGetErrorName(e) + " (" +
                cudaGetErrorString(e) + ")");
}

}  // namespace sinew::integrators::detail
