// The per-row bending local step of LocalGlobalIntegrator (bending.hpp), written once as a
// SINEW_HD functor and looped by sinew::for_each_index on every backend (kernels.cu compiles the
// CUDA launch). Private to the integrators library.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels.hpp"
#include "sinew/core/config.hpp"
#include "sinew/core/for_each_index.hpp"

namespace sinew::integrators::detail {

/// One bending row r (an interior edge of the quadratic form, an interior vertex of the
/// Laplace-Beltrami form): y = G_r x (3 coordinates), p = 0 (quadratic) or the projection of y
/// onto the sphere of radius |G_r x_rest| (Laplace-Beltrami, Bouaziz et al. 2014), energy
/// W/2 |y - p|^2. By the envelope theorem (p minimises |y - p| over its set) the energy's
/// gradient with respect to y is W (y - p), which is what `residual` asks p_w to hold.
struct BendingLocalStepKernel {
  /// Small CUDA blocks, as the element local steps.
  static constexpr unsigned kCudaThreadsPerBlock = 128;
  int mode;                 ///< LocalMode
  bool residual;            ///< p_w = W (y - p) (the gradient rows) instead of W p
  const double* weights;    ///< (rows) W_r
  const double* rest_norm;  ///< (rows) |G_r x_rest|, or null for p = 0 (the quadratic form)
  const double* Gx;         ///< (3 rows) y = G x
  double* p_w;              ///< (3 rows) output: W p (or W (y - p))
  double* energy;           ///< (rows) output when the mode asks: W/2 |y - p|^2
  /// Row r.
  SINEW_HD void operator()(std::size_t r) const {
    const double* y = Gx + 3 * r;
    double p[3] = {0.0, 0.0, 0.0};
    if (rest_norm != nullptr) {
      const double norm = sqrt(y[0] * y[0] + y[1] * y[1] + y[2] * y[2]);
      if (norm > 0.0) {
        for (int i = 0; i < 3; ++i) p[i] = rest_norm[r] / norm * y[i];
      } else {
        p[0] = rest_norm[r];  // every point of the sphere is as close: a fixed one, deterministic
      }
    }
    const double w = weights[r];
    if (mode != kLocalProject) {
      double e = 0.0;
      for (int i = 0; i < 3; ++i) e += (y[i] - p[i]) * (y[i] - p[i]);
      energy[r] = 0.5 * w * e;
    }
    if (mode == kLocalEnergyOnly && !residual) return;
    for (int i = 0; i < 3; ++i) p_w[3 * r + i] = residual ? w * (y[i] - p[i]) : w * p[i];
  }
};

}  // namespace sinew::integrators::detail

#if SINEW_CUDA_KERNELS
namespace sinew {
/// kernels.cu compiles the launch of the bending local step.
template <>
struct CudaLaunchCompiled<integrators::detail::BendingLocalStepKernel> : std::true_type {};
}  // namespace sinew
#endif
