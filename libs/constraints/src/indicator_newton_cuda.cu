// The CUDA launch of IndicatorNewtonStep's per-block kernel (indicator_newton_kernels.hpp): the
// same inline SINEW_HD function as the host backends, on the backend's device and stream.
#include "indicator_newton_kernels.hpp"
#include "sinew/backends/cuda_launch.cuh"

namespace sinew {

template void cuda_for_each_index(const CudaQueue&, std::size_t, const constraints::detail::IndicatorNewtonKernel&);

}  // namespace sinew
