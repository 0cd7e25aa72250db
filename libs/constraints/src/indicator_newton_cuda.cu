// IndicatorNewtonSolver's per-block kernel on the GPU: one thread per block running the same inline
// SINEW_HD function as the host backends (indicator_newton_kernels.hpp, ncp_indicators.hpp).
#include <cuda_runtime.h>

#include <string>

#include "indicator_newton_kernels.hpp"
#include "sinew/core/error.hpp"

namespace sinew::constraints::detail {
namespace {

__global__ void indicator_newton_kernel(NcpFunction fn, const IndicatorBlock* blocks, std::size_t n, const double* u,
                                        const double* r, const double* rho, const double* diag_w, double proximal,
                                        IndicatorRowsOut out) {
  const std::size_t b = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (b >= n) return;
  indicator_newton_block(fn, blocks[b], u, r, rho, diag_w, proximal, out);
}

}  // namespace

bool have_cuda_indicator_newton() { return true; }

void indicator_newton_blocks_cuda(NcpFunction fn, const IndicatorBlock* blocks, std::size_t n, const double* u,
                                  const double* r, const double* rho, const double* diag_w, double proximal,
                                  const IndicatorRowsOut& out) {
  if (n == 0) return;
  constexpr unsigned kThreads = 128;
  const unsigned grid = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  indicator_newton_kernel<<<grid, kThreads>>>(fn, blocks, n, u, r, rho, diag_w, proximal, out);
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw Error(std::string("indicator-Newton kernel: CUDA error ") + cudaGetErrorName(e) + " (" +
                cudaGetErrorString(e) + ")");
}

}  // namespace sinew::constraints::detail
