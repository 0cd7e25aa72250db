// The CUDA launches of LocalGlobalIntegrator's local steps (kernels.hpp,
// triangle_kernels.hpp): the same inline SINEW_HD functions as the host backends,
// on the backend's device and stream.
#include "bending_kernels.hpp"
#include "kernels.hpp"
#include "sinew/backends/cuda_launch.cuh"
#include "triangle_kernels.hpp"

namespace sinew {

template void cuda_for_each_index(const CudaQueue&, std::size_t, const integrators::detail::LocalStepKernel&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const integrators::detail::TriangleLocalStepKernel&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const integrators::detail::BendingLocalStepKernel&);

}  // namespace sinew
