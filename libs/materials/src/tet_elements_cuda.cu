// The CUDA launches of the per-element tet kernels (tet_elements_kernel.hpp), one per model: the
// same inline SINEW_HD functions as the host backends, on the backend's device and stream.
#include "sinew/backends/cuda_launch.cuh"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "tet_elements_kernel.hpp"

namespace sinew {

template void cuda_for_each_index(const CudaQueue&, std::size_t, const detail::TetElementsKernel<LinearElasticity>&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const detail::TetElementsKernel<Corotational>&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const detail::TetElementsKernel<Arap>&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const detail::TetElementsKernel<StVenantKirchhoff>&);
template void cuda_for_each_index(const CudaQueue&, std::size_t, const detail::TetElementsKernel<StableNeoHookean>&);

}  // namespace sinew
