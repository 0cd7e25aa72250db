/// @file
/// @brief The one CUDA launch of sinew: a per-index functor as a kernel on a backend's device and
/// stream. The cuda backend loops its own loop::* functors with it, and a library's .cu file
/// instantiates sinew::cuda_for_each_index<F> for its functors (sinew/core/for_each_index.hpp):
///
///     #include "sinew/backends/cuda_launch.cuh"
///     template void sinew::cuda_for_each_index(const sinew::CudaQueue&, std::size_t, const MyKernel&);
///
/// Nothing here waits for the device: work is ordered on the stream, and a launch error is
/// reported at once (asynchronous faults surface at the backend's next synchronizing call).
#pragma once

#include <cuda_runtime.h>

#include <cstddef>
#include <string>
#include <type_traits>

#include "sinew/core/error.hpp"
#include "sinew/core/for_each_index.hpp"

namespace sinew {
namespace cuda_launch_detail {

/// Threads per block of a per-index kernel, unless the functor names its own.
constexpr unsigned kThreadsPerBlock = 256;

/// F's `static constexpr unsigned kCudaThreadsPerBlock` when it has one (register-heavy element
/// kernels ask for smaller blocks), kThreadsPerBlock otherwise.
template <class F, class = void>
struct ThreadsPerBlock : std::integral_constant<unsigned, kThreadsPerBlock> {};
/// F's `static constexpr unsigned kCudaThreadsPerBlock` when it has one.
template <class F>
struct ThreadsPerBlock<F, std::void_t<decltype(F::kCudaThreadsPerBlock)>>
    : std::integral_constant<unsigned, F::kCudaThreadsPerBlock> {};

/// f(i) for the thread's index i < n.
template <class F>
__global__ void index_kernel(std::size_t n, F f) {
  const std::size_t i = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (i < n) f(i);
}

/// Throws sinew::Error naming @p call when @p e is not cudaSuccess.
inline void check(cudaError_t e, const char* call) {
  if (e != cudaSuccess)
    throw Error(std::string("CUDA: ") + call + " failed: " + cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

/// Makes @p device current for the guard's lifetime and restores the caller's device after.
class DeviceGuard {
 public:
  /// Switches to @p device when another one is current.
  explicit DeviceGuard(int device) {
    check(cudaGetDevice(&previous_), "cudaGetDevice");
    if (previous_ != device) check(cudaSetDevice(device), "cudaSetDevice");
    switched_ = previous_ != device;
  }
  ~DeviceGuard() {
    if (switched_) cudaSetDevice(previous_);
  }
  DeviceGuard(const DeviceGuard&) = delete;
  DeviceGuard& operator=(const DeviceGuard&) = delete;

 private:
  int previous_ = 0;
  bool switched_ = false;
};

}  // namespace cuda_launch_detail

template <class F>
void cuda_for_each_index(const CudaQueue& queue, std::size_t n, const F& f) {
  if (n == 0) return;
  using namespace cuda_launch_detail;
  const DeviceGuard guard(queue.device);
  constexpr unsigned threads = ThreadsPerBlock<F>::value;
  const std::size_t blocks = (n + threads - 1) / threads;
  index_kernel<<<static_cast<unsigned>(blocks), threads, 0, static_cast<cudaStream_t>(queue.stream)>>>(n, f);
  check(cudaGetLastError(), "kernel launch");
}

}  // namespace sinew
