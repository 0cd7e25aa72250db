// Stand-in for indicator_newton_cuda.cu when sinew is built without CUDA.
#include "indicator_newton_kernels.hpp"
#include "sinew/core/error.hpp"

#ifndef SINEW_CONSTRAINTS_CUDA
namespace sinew::constraints::detail {

bool have_cuda_indicator_newton() { return false; }

void indicator_newton_blocks_cuda(NcpFunction, const IndicatorBlock*, std::size_t, const double*, const double*,
                                  const double*, const double*, double, const IndicatorRowsOut&) {
  throw Error("indicator-Newton kernel: sinew was built without CUDA (SINEW_WITH_CUDA=OFF)");
}

}  // namespace sinew::constraints::detail
#endif
