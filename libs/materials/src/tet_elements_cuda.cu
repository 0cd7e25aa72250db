// Per-element tet kernels on the GPU: one thread per element running the same inline SINEW_HD
// functions as the host backends (tetrahedron.hpp and the model headers).
#include <cuda_runtime.h>

#include <string>

#include "sinew/core/error.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/corotational.hpp"
#include "sinew/materials/linear_elasticity.hpp"
#include "sinew/materials/st_venant_kirchhoff.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "tet_elements_cuda.hpp"

namespace sinew::detail {
namespace {

template <class Model>
__global__ void tet_elements_kernel(const double* x, const Index* tets, const TetRest* rests, std::size_t n,
                                    LameParameters lame, bool project_psd, double* energy, double* gradient,
                                    double* hessian) {
  const std::size_t e = static_cast<std::size_t>(blockIdx.x) * blockDim.x + threadIdx.x;
  if (e >= n) return;
  double xe[12];
  for (int a = 0; a < 4; ++a)
    for (int i = 0; i < 3; ++i) xe[3 * a + i] = x[3 * static_cast<std::size_t>(tets[4 * e + a]) + i];
  const TetRest rest = rests[e];
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

template <class Model>
void launch(const double* x, const Index* tets, const TetRest* rests, std::size_t n, const LameParameters& lame,
            bool project_psd, double* energy, double* gradient, double* hessian) {
  constexpr unsigned kThreads = 128;
  const unsigned blocks = static_cast<unsigned>((n + kThreads - 1) / kThreads);
  tet_elements_kernel<Model><<<blocks, kThreads>>>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
}

}  // namespace

bool have_cuda_tet_elements() { return true; }

void evaluate_tet_elements_cuda(MaterialModel model, const LameParameters& lame, const double* x, const Index* tets,
                                const TetRest* rests, std::size_t n, bool project_psd, double* energy, double* gradient,
                                double* hessian) {
  if (n == 0) return;
  switch (model) {
    case MaterialModel::kLinear:
      launch<LinearElasticity>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
      break;
    case MaterialModel::kCorotational:
      launch<Corotational>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
      break;
    case MaterialModel::kArap:
      launch<Arap>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
      break;
    case MaterialModel::kStVenantKirchhoff:
      launch<StVenantKirchhoff>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
      break;
    case MaterialModel::kStableNeoHookean:
      launch<StableNeoHookean>(x, tets, rests, n, lame, project_psd, energy, gradient, hessian);
      break;
  }
  cudaError_t e = cudaGetLastError();
  if (e == cudaSuccess) e = cudaDeviceSynchronize();
  if (e != cudaSuccess)
    throw Error(std::string("tet element kernels (") + material_model_name(model) + "): CUDA error " +
                cudaGetErrorName(e) + " (" + cudaGetErrorString(e) + ")");
}

}  // namespace sinew::detail
