// Stand-in for tet_elements_cuda.cu when sinew is built without CUDA.
#include "sinew/core/error.hpp"
#include "tet_elements_cuda.hpp"

#ifndef SINEW_MATERIALS_CUDA
namespace sinew::detail {

bool have_cuda_tet_elements() { return false; }

void evaluate_tet_elements_cuda(MaterialModel, const LameParameters&, const double*, const Index*, const TetRest*,
                                std::size_t, bool, double*, double*, double*) {
  throw Error("tet element kernels: sinew was built without CUDA (SINEW_WITH_CUDA=OFF)");
}

}  // namespace sinew::detail
#endif
