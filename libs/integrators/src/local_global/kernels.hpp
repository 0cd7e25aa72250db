// The per-element local step of LocalGlobalIntegrator (seed eq. (5)), written once as SINEW_HD
// functions and looped by sinew::for_each_index on every backend (kernels.cu compiles
// the CUDA launch).
// Private to the integrators library.
#pragma once

#include <algorithm>
#include <cmath>
#include <cstddef>
#include <type_traits>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/for_each_index.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/svd3.hpp"
#include "sinew/materials/arap.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/projective_local_steps.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::integrators::detail {

/// The element models of the local step (a plain int on the device).
enum LocalModel : int { kLocalArap = 0, kLocalCorotational = 1, kLocalNeoHookean = 2 };

/// What one local-step pass computes.
enum LocalMode : int {
  kLocalProject = 0,           ///< projections only
  kLocalProjectAndEnergy = 1,  ///< projections and the element energy V Psi(G_i q)
  kLocalEnergyOnly = 2         ///< element energy only (the final iterate); no projection, u untouched
};

/// The material of an element in the local step: its model and Lame parameters.
struct LocalMaterial {
  int model;            ///< LocalModel
  LameParameters lame;  ///< Lame parameters of the material
};

/// The materials of a local-step pass as a kernel reads them: one for every element (index null,
/// the single-material description: no per-element load), or a table on the backend indexed per
/// element (LocalGlobalDescription::materials, tet_material, triangle_material).
struct LocalMaterials {
  LocalMaterial single;        ///< every element's material when index is null
  const LocalMaterial* table;  ///< (materials) on the backend, or null
  const Index* index;          ///< (elements) each element's entry of table, or null
  /// The material of element @p e.
  SINEW_HD const LocalMaterial& operator()(std::size_t e) const { return index ? table[index[e]] : single; }
};

/// The materials of a description on the host (setup): its own and its materials[] as
/// local-step constants, looked up through an element's material index.
struct MaterialTable {
  LocalMaterial single;              ///< the description's own model and parameters
  std::vector<LocalMaterial> table;  ///< (materials) LocalGlobalDescription::materials
  /// The material of element @p e of @p index (tet_material or triangle_material; empty = single).
  const LocalMaterial& of(const std::vector<Index>& index, std::size_t e) const {
    return index.empty() ? single : table[static_cast<std::size_t>(index[e])];
  }
  /// Whether an element of @p index (n elements) is Neo-Hookean (it then needs an ADMM dual).
  bool any_neo_hookean(const std::vector<Index>& index, std::size_t n) const {
    if (index.empty()) return n > 0 && single.model == kLocalNeoHookean;
    return std::any_of(index.begin(), index.end(),
                       [&](Index k) { return table[static_cast<std::size_t>(k)].model == kLocalNeoHookean; });
  }
};

/// Total constraint weight W_i of an ARAP or co-rotational element (the factor of G_i^T G_i in
/// A, eq. (6)): ARAP 2 mu V (w/2 ||F - R||^2 = V mu ||F - R||^2 = V Psi_Arap exactly);
/// co-rotational 2 mu V + 3 lambda V (the ARAP constraint plus the volume constraint of
/// projective_volume_projection()). Neo-Hookean weights are per element (ADMM penalties).
SINEW_HD double projective_weight(const LocalMaterial& c, double volume) {
  if (c.model == kLocalArap) return 2.0 * c.lame.mu * volume;
  return (2.0 * c.lame.mu + 3.0 * c.lame.lambda) * volume;
}

/// ADMM weight of a Neo-Hookean element (LocalGlobalOptions::neo_hookean_weight and
/// neo_hookean_weight_floor): @p multiplier times max(sqrt(k m), @p floor k), with
/// k = (2 mu + lambda) V the element's elastic stiffness and m = @p mass / (h^2 @p grad2) its
/// inertia in deformation-gradient units. ADMM converges fastest
/// near sqrt(k m); the floor keeps the penalty within a small factor of the element's stiffness
/// where inertia is small (stiff materials, fine meshes, so sqrt(k m) << k): below it, on a
/// non-convex energy, the iterates stalled or wandered and the 5-iteration steps gained energy
/// (docs/benchmarks.md).
inline double neo_hookean_admm_weight(const LocalMaterial& c, double volume, double mass, double h2, double grad2,
                                      double multiplier, double floor) {
  const double k = (2.0 * c.lame.mu + c.lame.lambda) * volume;
  return multiplier * std::max(std::sqrt(k * mass / (h2 * grad2)), floor * k);
}

/// Local step of one element of material @p c in LocalMode @p mode. Layouts are those of the G SpMV (rows (e, j),
/// columns i): F_t holds F^T row-major (F_t[3 j + i] = F_ij) and p_w receives the weighted projection sum_k w_k p_k the
/// same way, so that b = M q~ + h^2 G^T p_w (eq. (6)).
/// @param F_t     (9) F = G_i q of the current iterate, transposed.
/// @param weight  ADMM weight w_i of a Neo-Hookean element; unused by the other models.
/// @param u       (9) ADMM scaled dual of a Neo-Hookean element (same layout), updated in place:
///                u += F - z; unused by the other models.
/// @param p_w     (9) output: ARAP 2 mu V R; co-rotational 2 mu V R + 3 lambda V p_vol;
///                Neo-Hookean w (z - u) (ADMM-PD's global right-hand side).
/// @param energy  output when the mode asks: V Psi(F) of the element's own model.
SINEW_HD void local_step_element(const LocalMaterial& c, int mode, double volume, double weight, const double* F_t,
                                 double* u, double* p_w, double* energy) {
  Mat3 F{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) F(i, j) = F_t[3 * j + i];
  if (c.model == kLocalNeoHookean) {
    if (mode != kLocalProject) *energy = volume * StableNeoHookean::energy(F, c.lame);
    if (mode == kLocalEnergyOnly) return;
    const double w = weight;
    Mat3 F_hat{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) F_hat(i, j) = F(i, j) + u[3 * j + i];
    const Mat3 z = neo_hookean_local_projection(F_hat, c.lame, volume, w);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double un = u[3 * j + i] + F(i, j) - z(i, j);
        u[3 * j + i] = un;
        p_w[3 * j + i] = w * (z(i, j) - un);
      }
    return;
  }
  const Svd3 s = svd3(F);
  const double d0 = s.sigma[0] - 1.0, d1 = s.sigma[1] - 1.0, d2 = s.sigma[2] - 1.0;
  const bool corot = c.model == kLocalCorotational;
  if (mode != kLocalProject) {
    double e = c.lame.mu * (d0 * d0 + d1 * d1 + d2 * d2);
    if (corot) e += 0.5 * c.lame.lambda * (d0 + d1 + d2) * (d0 + d1 + d2);
    *energy = volume * e;
  }
  if (mode == kLocalEnergyOnly) return;
  // R = U V^T with proper U, V: an inverted element (sigma2 < 0) gets the closest rotation
  // (the smallest singular value's sign flipped), never a reflection.
  const Mat3 R = s.U * transpose(s.V);
  Mat3 P = mat3_scale(2.0 * c.lame.mu * volume, R);
  if (corot) P = mat3_add(P, mat3_scale(3.0 * c.lame.lambda * volume, projective_volume_projection(s)));
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p_w[3 * j + i] = P(i, j);
}

/// local_step_element() of tetrahedron e: F_t, u, p_w hold 9 entries per element, volumes,
/// weights and energy one.
struct LocalStepKernel {
  /// Smaller CUDA blocks: each thread holds a 3x3 SVD and the model's local problem.
  static constexpr unsigned kCudaThreadsPerBlock = 128;
  LocalMaterials materials;  ///< each element's model and Lame parameters
  int mode;                  ///< LocalMode
  const double* volumes;     ///< (n) rest volumes
  const double* weights;     ///< (n) ADMM / projective weights
  const double* F_t;         ///< (9 n) deformation gradients, transposed
  double* u;                 ///< (9 n) scaled duals, or null without ADMM
  double* p_w;               ///< (9 n) weighted projections
  double* energy;            ///< (n) element energies
  /// Element e.
  SINEW_HD void operator()(std::size_t e) const {
    local_step_element(materials(e), mode, volumes[e], weights[e], F_t + 9 * e, u ? u + 9 * e : nullptr, p_w + 9 * e,
                       energy + e);
  }
};

}  // namespace sinew::integrators::detail

#if SINEW_CUDA_KERNELS
namespace sinew {
/// kernels.cu compiles the launch of the tetrahedral local step.
template <>
struct CudaLaunchCompiled<integrators::detail::LocalStepKernel> : std::true_type {};
}  // namespace sinew
#endif
