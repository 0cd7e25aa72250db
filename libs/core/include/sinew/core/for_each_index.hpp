/// @file
/// @brief sinew::for_each_index: how a library above core runs its own per-element or per-contact
/// kernel on any backend, written once as a plain functor with a SINEW_HD call operator.
///
/// On a backend that runs host code the functor is looped by Backend::for_each_range(); on a
/// backend that reports a CUDA queue (Backend::cuda_queue()) it is launched as a kernel on that
/// backend's device and stream, ordered with the backend's own work and with no device-wide
/// synchronization. The CUDA launch of a functor type F is compiled in the library that owns F:
/// one .cu file explicitly instantiates sinew::cuda_for_each_index<F> from
/// sinew/backends/cuda_launch.cuh, and the library's private kernel header specialises
/// sinew::CudaLaunchCompiled<F> to true when it is built with CUDA (SINEW_CUDA_KERNELS).
#pragma once

#include <cstddef>
#include <optional>
#include <string>
#include <type_traits>

#include "sinew/core/backend.hpp"
#include "sinew/core/error.hpp"

namespace sinew {

/// True when the library that owns functor type F compiled its CUDA launch (cuda_for_each_index<F>);
/// specialised to std::true_type in that library's private kernel header, inside its CUDA builds.
template <class F>
struct CudaLaunchCompiled : std::false_type {};

/// Launches f(i) for i < n as a CUDA kernel on @p queue's device and stream; defined in
/// sinew/backends/cuda_launch.cuh and instantiated for F by the library that owns F.
/// @throws sinew::Error when the launch fails.
template <class F>
void cuda_for_each_index(const CudaQueue& queue, std::size_t n, const F& f);

/// The RangeKernel that loops a per-index functor over a range on a host backend.
template <class F>
class IndexRangeKernel final : public RangeKernel {
 public:
  /// Loops @p f (which must outlive this kernel).
  explicit IndexRangeKernel(const F& f) : f_(f) {}
  /// Calls f(i) for i in [begin, end).
  void operator()(std::size_t begin, std::size_t end) const override {
    for (std::size_t i = begin; i < end; ++i) f_(i);
  }

 private:
  const F& f_;
};

/// True when @p backend can run functor type F: it runs host code, or it reports a CUDA queue and
/// F's CUDA launch was compiled. Constructors check this to fail early with a clear message.
template <class F>
bool can_run_kernel(const Backend& backend) {
  if (backend.runs_host_code()) return true;
  if constexpr (CudaLaunchCompiled<F>::value) return backend.cuda_queue().has_value();
  return false;
}

/// Why @p backend cannot run a kernel named @p what (for the error can_run_kernel() == false asks for).
inline std::string cannot_run_kernel_message(const Backend& backend, const std::string& what) {
  return what + ": backend '" + backend.name() + "' (" + backend.execution_space() +
         ") runs no host code, and no device launch of this kernel was compiled for it (the CUDA "
         "launches need a sinew built with SINEW_WITH_CUDA=ON)";
}

/// Runs f(i) for every i < n on @p backend: a RangeKernel on host backends, a kernel on the
/// backend's CUDA stream on device backends. Each index is computed by exactly one call, so
/// results do not depend on the split. Device-side results are ordered on the backend's stream
/// like any other backend kernel (downloads wait for them).
/// @throws sinew::Error naming @p what when the backend cannot run F (can_run_kernel()).
template <class F>
void for_each_index(Backend& backend, std::size_t n, const F& f, const char* what = "kernel") {
  if (backend.runs_host_code()) {
    if (n > 0) backend.for_each_range(n, IndexRangeKernel<F>(f));
    return;
  }
  if constexpr (CudaLaunchCompiled<F>::value) {
    if (const std::optional<CudaQueue> queue = backend.cuda_queue()) {
      if (n > 0) cuda_for_each_index(*queue, n, f);
      return;
    }
  }
  throw Error(cannot_run_kernel_message(backend, what));
}

}  // namespace sinew
