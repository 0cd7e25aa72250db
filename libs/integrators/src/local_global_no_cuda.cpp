// Stand-in for local_global_cuda.cu when sinew is built without CUDA.
#include "local_global_cuda.hpp"
#include "sinew/core/error.hpp"

#ifndef SINEW_INTEGRATORS_CUDA
namespace sinew::integrators::detail {

bool have_cuda_local_step() { return false; }

void local_step_cuda(const LocalConstants&, const double*, const double*, std::size_t, const double*, double*, double*,
                     double*) {
  throw Error("local-global local step: sinew was built without CUDA (SINEW_WITH_CUDA=OFF)");
}

void triangle_local_step_cuda(const LocalConstants&, const double*, const double*, std::size_t, const double*, double*,
                              double*, double*) {
  throw Error("local-global triangle local step: sinew was built without CUDA (SINEW_WITH_CUDA=OFF)");
}

}  // namespace sinew::integrators::detail
#endif
