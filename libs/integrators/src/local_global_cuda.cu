// The CUDA launches of LocalGlobalIntegrator's local steps (local_global_kernels.hpp,
// local_global_triangle_kernels.hpp): the same inline SINEW_HD functions as the host backends,
// on the backend's device and stream.
#include "local_global_kernels.hpp"
#include "local_global_triangle_kernels.hpp"
#include "sinew/backends/cuda_launch.cuh"

namespace sinew {

template void cuda_for_each_index(const CudaQueue&, std::size_t, const integrators::detail::LocalStepKernel&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const integrators::detail::TriangleLocalStepKernel&);

}  // namespace sinew
