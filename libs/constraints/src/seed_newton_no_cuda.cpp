// Stand-in for seed_newton_cuda.cu when sinew is built without CUDA.
#include "seed_newton_kernels.hpp"
#include "sinew/core/error.hpp"

#ifndef SINEW_CONSTRAINTS_CUDA
namespace sinew::constraints::detail {

bool have_cuda_seed_newton() { return false; }

void seed_newton_blocks_cuda(NcpFunction, const SeedBlock*, std::size_t, const double*, const double*, const double*,
                             const double*, double, const SeedRowsOut&) {
  throw Error("seed Newton indicator kernel: sinew was built without CUDA (SINEW_WITH_CUDA=OFF)");
}

}  // namespace sinew::constraints::detail
#endif
