/// @file
/// @brief Rayleigh (mass- and stiffness-proportional) damping of an element: D = alpha M + beta K.
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Rayleigh damping coefficients; D = alpha M + beta K (the damping matrix of the theta-method
/// seed, A = M + dt^2 theta_q theta_vq K + dt theta_v D, and of the artisynth integrators).
struct RayleighDamping {
  /// alpha (1/s): damps every motion, rigid ones too (like air drag); 0 keeps rigid motion free.
  double mass_coefficient = 0.0;
  /// beta (s): damps deformation in proportion to stiffness; 0 = undamped, damping is opt-in.
  double stiffness_coefficient = 0.0;
};

/// Checks Rayleigh coefficients (host side).
/// @throws sinew::Error naming the coefficient when it is negative or not finite.
void validate(const RayleighDamping& damping);

/// Element damping matrix D = alpha M + beta K.
/// @param damping  coefficients alpha, beta.
/// @param M        (N x N) element mass matrix.
/// @param K        (N x N) element stiffness (use the projected Hessian so that D stays PSD).
/// @param D        (N x N) output.
template <int N>
SINEW_HD void rayleigh_damping_matrix(const RayleighDamping& damping, const MatN<N>& M, const MatN<N>& K, MatN<N>& D) {
  for (int i = 0; i < N * N; ++i) D.m[i] = damping.mass_coefficient * M.m[i] + damping.stiffness_coefficient * K.m[i];
}

/// Element damping force f = -(alpha M + beta K) v, without forming D.
/// @param damping  coefficients alpha, beta.
/// @param M        (N x N) element mass matrix.
/// @param K        (N x N) element stiffness.
/// @param v        (N) element velocities.
/// @param f        (N) output force.
template <int N>
SINEW_HD void rayleigh_damping_force(const RayleighDamping& damping, const MatN<N>& M, const MatN<N>& K,
                                     const double v[N], double f[N]) {
  for (int r = 0; r < N; ++r) {
    double mv = 0.0, kv = 0.0;
    for (int c = 0; c < N; ++c) {
      mv += M(r, c) * v[c];
      kv += K(r, c) * v[c];
    }
    f[r] = -(damping.mass_coefficient * mv + damping.stiffness_coefficient * kv);
  }
}

}  // namespace sinew
