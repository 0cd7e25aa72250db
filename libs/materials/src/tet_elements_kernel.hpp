// The per-element kernel of TetMaterial::evaluate_elements, private to materials: one plain
// functor per model, looped on host backends and launched on CUDA ones by sinew::for_each_index
// (tet_elements_cuda.cu compiles the launches).
#pragma once

#include <cstddef>
#include <type_traits>

#include "sinew/core/config.hpp"
#include "sinew/core/for_each_index.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew::detail {

/// Energy, gradient and Hessian (exact or PSD-projected) of element e of model Model.
template <class Model>
struct TetElementsKernel {
  /// Smaller CUDA blocks: each thread holds a 12x12 Hessian.
  static constexpr unsigned kCudaThreadsPerBlock = 128;
  const double* x;       ///< (3 n_vertices) positions
  const Index* tets;     ///< (4 n) vertex indices
  const TetRest* rests;  ///< (n) rest data
  LameParameters lame;   ///< checked Lame parameters
  bool project_psd;      ///< clamp each Hessian's negative eigenvalues
  double* energy;        ///< (n) element energies
  double* gradient;      ///< (12 n) element gradients
  double* hessian;       ///< (144 n) row-major element Hessians
  /// Element e.
  SINEW_HD void operator()(std::size_t e) const {
    double xe[12];
    for (int a = 0; a < 4; ++a)
      for (int i = 0; i < 3; ++i) xe[3 * a + i] = x[3 * static_cast<std::size_t>(tets[4 * e + a]) + i];
    const TetRest& rest = rests[e];
    energy[e] = tet_energy<Model>(rest, xe, lame);
    tet_gradient<Model>(rest, xe, lame, gradient + 12 * e);
    Mat12 H;
    if (project_psd) {
      tet_projected_hessian<Model>(rest, xe, lame, H);
    } else {
      tet_hessian<Model>(rest, xe, lame, H);
    }
    for (int k = 0; k < 144; ++k) hessian[144 * e + k] = H.m[k];
  }
};

}  // namespace sinew::detail

#if SINEW_CUDA_KERNELS
namespace sinew {
/// tet_elements_cuda.cu compiles the launch of every model's element kernel.
template <class Model>
struct CudaLaunchCompiled<detail::TetElementsKernel<Model>> : std::true_type {};
}  // namespace sinew
#endif
