/// @file
/// @brief Local steps of local-global (projective-dynamics and ADMM-PD) solvers of tetrahedra:
/// the per-element sub-problem p_i = argmin_p w_i/2 ||p - G_i q||^2 + zeta_i(p) of the seed paper
/// "realtime hyperelastic frictional contact", eq. (5), for the co-rotational volume constraint
/// and for the stable Neo-Hookean model (Overby et al. 2017, ADMM-PD). The ARAP / rotation
/// projection is rotation_local_projection() in arap.hpp.
///
/// Every function is SINEW_HD: the host backends and the CUDA kernel run the same code.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/core/svd3.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew {

/// U diag(sigma) V^T for the rotations of @p s and new (signed) singular values @p sigma.
SINEW_HD Mat3 svd3_compose(const Svd3& s, const Vec3& sigma) {
  return s.U * diagonal3(sigma[0], sigma[1], sigma[2]) * transpose(s.V);
}

/// Projection of F = U diag(sigma) V^T onto the co-rotational volume set
/// C = {P : tr(R(P)^T P) = 3}: p = U diag(sigma - (sum sigma - 3)/3) V^T (signed SVD). Then
/// ||F - p||^2 = (sum sigma - 3)^2 / 3 and F - p = (sum sigma - 3)/3 R, so a projective constraint
/// of weight w = 3 lambda V on it has exactly the energy lambda V/2 tr(R^T F - I)^2 and the
/// stress of Corotational's volume term: co-rotational elasticity is an ARAP constraint (weight
/// 2 mu V) plus this one, and the local-global fixed point is its implicit Euler step.
SINEW_HD Mat3 projective_volume_projection(const Svd3& s) {
  const double shift = (s.sigma[0] + s.sigma[1] + s.sigma[2] - 3.0) / 3.0;
  return svd3_compose(s, Vec3{{s.sigma[0] - shift, s.sigma[1] - shift, s.sigma[2] - shift}});
}

/// The ADMM-PD local problem of a stable Neo-Hookean element (Overby et al. 2017, the seed's
/// eq. (5) with zeta = V Psi):  z = argmin_Z  V Psi(Z) + w/2 ||Z - F_hat||^2.
/// Psi is isotropic, so the minimiser shares the (signed) singular vectors of F_hat and only its
/// three singular values are unknown: f(s) = V psi(s) + w/2 |s - sigma_hat|^2 with
/// psi(s) = mu'/2 (|s|^2 - 3) + lambda'/2 (s0 s1 s2 - alpha)^2 - mu'/2 log(|s|^2 + 1) - Psi_0.
struct NeoHookeanLocalProblem {
  StableNeoHookean::Internal q;  ///< mu', lambda', alpha of the model
  double volume;                 ///< rest volume V of the element (> 0)
  double weight;                 ///< the element's constraint weight w (> 0)
  Vec3 sigma_hat;                ///< signed singular values of F_hat

  /// f(s) = V psi(s) + w/2 |s - sigma_hat|^2 (psi(1, 1, 1) = 0, as StableNeoHookean::energy).
  SINEW_HD double objective(const Vec3& s) const {
    const double Ic = s[0] * s[0] + s[1] * s[1] + s[2] * s[2], dJ = s[0] * s[1] * s[2] - q.alpha;
    const double rest = 0.5 * q.lambda * (1.0 - q.alpha) * (1.0 - q.alpha) - 0.5 * q.mu * log(4.0);
    const double psi = 0.5 * q.mu * (Ic - 3.0) + 0.5 * q.lambda * dJ * dJ - 0.5 * q.mu * log(Ic + 1.0) - rest;
    const double d0 = s[0] - sigma_hat[0], d1 = s[1] - sigma_hat[1], d2 = s[2] - sigma_hat[2];
    return volume * psi + 0.5 * weight * (d0 * d0 + d1 * d1 + d2 * d2);
  }

  /// Gradient of objective(): V (mu' (1 - 1/(Ic+1)) s + lambda' (J - alpha) dJ/ds) + w (s - sigma_hat).
  SINEW_HD Vec3 gradient(const Vec3& s) const {
    const double Ic = s[0] * s[0] + s[1] * s[1] + s[2] * s[2], dJ = s[0] * s[1] * s[2] - q.alpha;
    const double a = q.mu * (1.0 - 1.0 / (Ic + 1.0));
    const Vec3 gJ{{s[1] * s[2], s[0] * s[2], s[0] * s[1]}};
    Vec3 g{};
    for (int i = 0; i < 3; ++i) g[i] = volume * (a * s[i] + q.lambda * dJ * gJ[i]) + weight * (s[i] - sigma_hat[i]);
    return g;
  }

  /// Hessian of objective() (3x3, symmetric): V (a I + 2 mu' s s^T/(Ic+1)^2 + lambda' (gJ gJ^T +
  /// (J - alpha) d2J)) + w I, with d2J_ij = s_k for {i, j, k} = {0, 1, 2}.
  SINEW_HD Mat3 hessian(const Vec3& s) const {
    const double Ic = s[0] * s[0] + s[1] * s[1] + s[2] * s[2], dJ = s[0] * s[1] * s[2] - q.alpha;
    const double a = q.mu * (1.0 - 1.0 / (Ic + 1.0)), b = 2.0 * q.mu / ((Ic + 1.0) * (Ic + 1.0));
    const Vec3 gJ{{s[1] * s[2], s[0] * s[2], s[0] * s[1]}};
    Mat3 H{};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) {
        const double d2J = i == j ? 0.0 : s[3 - i - j];
        H(i, j) =
            volume * (b * s[i] * s[j] + q.lambda * (gJ[i] * gJ[j] + dJ * d2J)) + (i == j ? volume * a + weight : 0.0);
      }
    return H;
  }
};

/// Solves H d = g for a symmetric 3x3 H by Cholesky; false (d untouched) when H is not
/// numerically positive definite.
SINEW_HD bool solve_spd3(const Mat3& H, const Vec3& g, Vec3& d) {
  const double l00 = H(0, 0);
  if (!(l00 > 0.0)) return false;
  const double L00 = sqrt(l00), L10 = H(1, 0) / L00, L20 = H(2, 0) / L00;
  const double l11 = H(1, 1) - L10 * L10;
  if (!(l11 > 1e-14 * H(1, 1))) return false;
  const double L11 = sqrt(l11), L21 = (H(2, 1) - L20 * L10) / L11;
  const double l22 = H(2, 2) - L20 * L20 - L21 * L21;
  if (!(l22 > 1e-14 * H(2, 2))) return false;
  const double L22 = sqrt(l22);
  const double y0 = g[0] / L00, y1 = (g[1] - L10 * y0) / L11, y2 = (g[2] - L20 * y0 - L21 * y1) / L22;
  d[2] = y2 / L22;
  d[1] = (y1 - L21 * d[2]) / L11;
  d[0] = (y0 - L10 * d[1] - L20 * d[2]) / L00;
  return true;
}

/// Most Newton iterations of the Neo-Hookean local solve. Newton in the 3 singular values
/// converges quadratically; started from s = sigma_hat (exact when Psi'(sigma_hat) = 0, and
/// within O(V Psi' / w) of the answer otherwise, since w is of the order of the element
/// stiffness) it reaches round-off in 3-6 iterations on moderate strains. 30 leaves room for
/// the gradient-descent fallback steps of strongly compressed or inverted elements, where
/// (J - alpha) d2J makes the Hessian indefinite.
constexpr int kNeoHookeanLocalMaxIterations = 30;

/// Minimiser s of NeoHookeanLocalProblem::objective() by damped Newton: a Newton step when the
/// 3x3 Hessian is positive definite, else a gradient step scaled by 1/(w + V |H|); each step
/// halved until the objective does not increase (it decreases monotonically). Stops when the
/// gradient is below 1e-13 of its scale w (1 + |sigma_hat|), or the step is below round-off.
/// @param p           the element's local problem.
/// @param iterations  if not null, receives the Newton iterations taken.
SINEW_HD Vec3 solve_neo_hookean_local(const NeoHookeanLocalProblem& p, int* iterations = nullptr) {
  Vec3 s = p.sigma_hat;
  const double scale = p.weight * (1.0 + fabs(p.sigma_hat[0]) + fabs(p.sigma_hat[1]) + fabs(p.sigma_hat[2]));
  double f = p.objective(s);
  int it = 0;
  for (; it < kNeoHookeanLocalMaxIterations; ++it) {
    const Vec3 g = p.gradient(s);
    const double gnorm = sqrt(dot(g, g));
    if (!(gnorm > 1e-13 * scale)) break;  // converged (or NaN: stop, the caller sees it)
    const Mat3 H = p.hessian(s);
    Vec3 d{};
    const bool newton = solve_spd3(H, g, d);
    if (!newton) {
      const double hn = sqrt(frobenius_norm2(H));
      for (int i = 0; i < 3; ++i) d[i] = g[i] / (p.weight + hn);
    }
    double t = 1.0;
    Vec3 trial{};
    double ft = f;
    bool accepted = false;
    for (int ls = 0; ls < 40 && !accepted; ++ls, t *= 0.5) {
      for (int i = 0; i < 3; ++i) trial[i] = s[i] - t * d[i];
      ft = p.objective(trial);
      accepted = ft <= f;
      // Near the minimum the decrease g^T H^-1 g / 2 falls below the round-off of f, so a full
      // Newton step that shrinks the gradient is taken too (quadratic convergence to 1e-13).
      if (!accepted && newton && ls == 0) {
        const Vec3 gt = p.gradient(trial);
        accepted = dot(gt, gt) < dot(g, g);
      }
    }
    if (!accepted) break;  // no decrease along d even for tiny steps: at round-off
    t *= 2.0;              // the loop halved t once more after accepting
    const double step = t * sqrt(dot(d, d));
    s = trial;
    f = ft;
    if (step <= 1e-16 * (1.0 + sqrt(dot(s, s)))) {
      ++it;
      break;
    }
  }
  if (iterations) *iterations = it;
  return s;
}

/// ADMM-PD local step of a stable Neo-Hookean element: z = argmin_Z V Psi(Z) + w/2 ||Z - F_hat||^2
/// (signed SVD of F_hat, then solve_neo_hookean_local() on its singular values).
/// @param F_hat   the local target G_i q + u_i (3x3).
/// @param lame    Lame parameters of the model.
/// @param volume  rest volume V (> 0).
/// @param weight  constraint weight w (> 0).
/// @param iterations  if not null, receives the Newton iterations taken.
SINEW_HD Mat3 neo_hookean_local_projection(const Mat3& F_hat, const LameParameters& lame, double volume, double weight,
                                           int* iterations = nullptr) {
  const Svd3 s = svd3(F_hat);
  const NeoHookeanLocalProblem problem{StableNeoHookean::internal_parameters(lame), volume, weight, s.sigma};
  return svd3_compose(s, solve_neo_hookean_local(problem, iterations));
}

/// The local objective over the full 3x3 Z: V Psi(Z) + w/2 ||Z - F_hat||^2 (for checks).
SINEW_HD double neo_hookean_local_objective(const Mat3& Z, const Mat3& F_hat, const LameParameters& lame, double volume,
                                            double weight) {
  return volume * StableNeoHookean::energy(Z, lame) + 0.5 * weight * frobenius_norm2(mat3_sub(Z, F_hat));
}

/// Gradient of neo_hookean_local_objective() over Z: V P(Z) + w (Z - F_hat).
SINEW_HD Mat3 neo_hookean_local_objective_gradient(const Mat3& Z, const Mat3& F_hat, const LameParameters& lame,
                                                   double volume, double weight) {
  return mat3_axpby(volume, StableNeoHookean::stress(Z, lame), weight, mat3_sub(Z, F_hat));
}

}  // namespace sinew
