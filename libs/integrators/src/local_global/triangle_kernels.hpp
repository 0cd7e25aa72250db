// The per-triangle (membrane, cloth) local step of LocalGlobalIntegrator (seed eq. (5) on the
// 3x2 deformation gradient F = Ds Dm^-1 of materials' triangle.hpp), written once as SINEW_HD
// functions and looped by sinew::for_each_index on every backend (kernels.cu compiles
// the CUDA launch). Private to the integrators library.
//
// Energies (V = A t, rest area times thickness; sigma0, sigma1 >= 0 the singular values of F):
//   ARAP           V mu ((sigma0 - 1)^2 + (sigma1 - 1)^2)                       = V MembraneArap
//   co-rotational  ARAP + V lambda/2 (sigma0 + sigma1 - 2)^2                     = V MembraneCorotational
//   Neo-Hookean    V phi(I1, J) of StableNeoHookeanMembraneDensity (plane strain) = V MembraneStableNeoHookean
// so that the local-global fixed point is the implicit Euler step of the materials library's
// membrane models (membrane_models.hpp) with E scaled by the thickness.
#pragma once

#include <cmath>
#include <cstddef>
#include <type_traits>

#include "kernels.hpp"
#include "sinew/core/config.hpp"
#include "sinew/core/for_each_index.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"

namespace sinew::integrators::detail {

/// Thin SVD of a 3x2 matrix F = U diag(sigma) V^T: U (3x2) with orthonormal columns, V a 2x2
/// rotation, sigma >= 0 (a membrane has no inversion: the sign of det is not defined in 3D).
struct Svd32 {
  double u0[3], u1[3];  ///< columns of U
  double c, s;          ///< V = [[c, -s], [s, c]]: v0 = (c, s), v1 = (-s, c)
  double sigma[2];      ///< singular values, sigma[0] >= sigma[1] >= 0
};

/// A unit vector orthogonal to the unit vector @p a (for rank-deficient F).
SINEW_HD void unit_orthogonal(const double a[3], double out[3]) {
  // Cross with the coordinate axis least aligned with a: never near-parallel.
  const double ax = fabs(a[0]), ay = fabs(a[1]), az = fabs(a[2]);
  double e[3] = {0.0, 0.0, 0.0};
  e[(ax <= ay && ax <= az) ? 0 : (ay <= az ? 1 : 2)] = 1.0;
  out[0] = a[1] * e[2] - a[2] * e[1];
  out[1] = a[2] * e[0] - a[0] * e[2];
  out[2] = a[0] * e[1] - a[1] * e[0];
  const double l = sqrt(out[0] * out[0] + out[1] * out[1] + out[2] * out[2]);
  for (int i = 0; i < 3; ++i) out[i] /= l;
}

/// SVD of the 3x2 F given by columns @p y (y[3 j + i] = F_ij): one Jacobi rotation diagonalises
/// the 2x2 F^T F (its eigenvectors are V), then U's columns are F v0 / sigma0 and the part of
/// F v1 orthogonal to u0 (Gram-Schmidt keeps U orthonormal to round-off when sigma1 << sigma0).
SINEW_HD Svd32 svd32(const double y[6]) {
  const double c00 = y[0] * y[0] + y[1] * y[1] + y[2] * y[2], c11 = y[3] * y[3] + y[4] * y[4] + y[5] * y[5];
  const double c01 = y[0] * y[3] + y[1] * y[4] + y[2] * y[5];
  const double theta = 0.5 * atan2(2.0 * c01, c00 - c11);  // largest eigenvalue's direction first
  Svd32 r{};
  r.c = cos(theta);
  r.s = sin(theta);
  double a[3], b[3];
  for (int i = 0; i < 3; ++i) {
    a[i] = r.c * y[i] + r.s * y[3 + i];   // F v0
    b[i] = -r.s * y[i] + r.c * y[3 + i];  // F v1
  }
  r.sigma[0] = sqrt(a[0] * a[0] + a[1] * a[1] + a[2] * a[2]);
  if (r.sigma[0] > 0.0) {
    for (int i = 0; i < 3; ++i) r.u0[i] = a[i] / r.sigma[0];
  } else {
    r.u0[0] = 1.0;
    r.u0[1] = r.u0[2] = 0.0;
  }
  const double ub = r.u0[0] * b[0] + r.u0[1] * b[1] + r.u0[2] * b[2];
  for (int i = 0; i < 3; ++i) b[i] -= ub * r.u0[i];
  r.sigma[1] = sqrt(b[0] * b[0] + b[1] * b[1] + b[2] * b[2]);
  if (r.sigma[1] > 1e-300 && r.sigma[1] > 1e-14 * r.sigma[0]) {
    for (int i = 0; i < 3; ++i) r.u1[i] = b[i] / r.sigma[1];
  } else {
    unit_orthogonal(r.u0, r.u1);
  }
  return r;
}

/// U diag(t) V^T by columns into @p out (6) for new singular values @p t0, @p t1.
SINEW_HD void svd32_compose(const Svd32& d, double t0, double t1, double out[6]) {
  // column 0 = t0 u0 v0[0] + t1 u1 v1[0] = c t0 u0 - s t1 u1; column 1 = s t0 u0 + c t1 u1.
  for (int i = 0; i < 3; ++i) {
    out[i] = d.c * t0 * d.u0[i] - d.s * t1 * d.u1[i];
    out[3 + i] = d.s * t0 * d.u0[i] + d.c * t1 * d.u1[i];
  }
}

/// Total constraint weight W_i of an ARAP or co-rotational triangle of "volume" V = A t (the
/// factor of G_i^T G_i in A, eq. (6)): ARAP 2 mu V, so w/2 ||F - R||^2 = V mu sum (sigma - 1)^2;
/// co-rotational 2 mu V + 2 lambda V, the second for the area constraint of
/// triangle_local_step() (||F - p_area||^2 = (sigma0 + sigma1 - 2)^2 / 2).
SINEW_HD double triangle_projective_weight(const LocalMaterial& c, double volume) {
  if (c.model == kLocalArap) return 2.0 * c.lame.mu * volume;
  return (2.0 * c.lame.mu + 2.0 * c.lame.lambda) * volume;
}

/// The ADMM-PD local problem of a Neo-Hookean membrane in its two singular values:
/// f(s) = V phi(s) + w/2 |s - sigma_hat|^2 with phi = mu'/2 (I1 - 2) + lambda'/2 (J - alpha)^2
/// - mu'/2 log(I1 + 2) - phi_0, I1 = s0^2 + s1^2, J = s0 s1 (StableNeoHookeanMembraneDensity).
struct MembraneNeoHookeanLocalProblem {
  StableNeoHookean::Internal q;  ///< mu', lambda', alpha
  double volume;                 ///< V = A t (> 0)
  double weight;                 ///< w (> 0)
  double sigma_hat[2];           ///< singular values of F_hat

  /// f(s).
  SINEW_HD double objective(const double s[2]) const {
    const double I1 = s[0] * s[0] + s[1] * s[1], dJ = s[0] * s[1] - q.alpha;
    const double rest = 0.5 * q.lambda * (1.0 - q.alpha) * (1.0 - q.alpha) - 0.5 * q.mu * log(4.0);
    const double phi = 0.5 * q.mu * (I1 - 2.0) + 0.5 * q.lambda * dJ * dJ - 0.5 * q.mu * log(I1 + 2.0) - rest;
    const double d0 = s[0] - sigma_hat[0], d1 = s[1] - sigma_hat[1];
    return volume * phi + 0.5 * weight * (d0 * d0 + d1 * d1);
  }
  /// Gradient: V (a s_i + lambda' (J - alpha) s_j) + w (s_i - sigma_hat_i), a = mu' (1 - 1/(I1 + 2)).
  SINEW_HD void gradient(const double s[2], double g[2]) const {
    const double I1 = s[0] * s[0] + s[1] * s[1], dJ = s[0] * s[1] - q.alpha;
    const double a = q.mu * (1.0 - 1.0 / (I1 + 2.0));
    g[0] = volume * (a * s[0] + q.lambda * dJ * s[1]) + weight * (s[0] - sigma_hat[0]);
    g[1] = volume * (a * s[1] + q.lambda * dJ * s[0]) + weight * (s[1] - sigma_hat[1]);
  }
  /// Hessian (2x2 symmetric: h00, h01, h11): V (a I + 2 mu' s s^T/(I1+2)^2 + lambda' (gJ gJ^T +
  /// (J - alpha) [[0, 1], [1, 0]])) + w I with gJ = (s1, s0).
  SINEW_HD void hessian(const double s[2], double& h00, double& h01, double& h11) const {
    const double I1 = s[0] * s[0] + s[1] * s[1], dJ = s[0] * s[1] - q.alpha;
    const double a = q.mu * (1.0 - 1.0 / (I1 + 2.0)), b = 2.0 * q.mu / ((I1 + 2.0) * (I1 + 2.0));
    h00 = volume * (a + b * s[0] * s[0] + q.lambda * s[1] * s[1]) + weight;
    h11 = volume * (a + b * s[1] * s[1] + q.lambda * s[0] * s[0]) + weight;
    h01 = volume * (b * s[0] * s[1] + q.lambda * (s[0] * s[1] + dJ));
  }
};

/// Minimiser of MembraneNeoHookeanLocalProblem::objective() by damped Newton (a gradient step
/// where the 2x2 Hessian is not positive definite), the 2-D twin of solve_neo_hookean_local():
/// halving until the objective does not increase, stopping at a gradient below 1e-13 of w (1 +
/// |sigma_hat|) or a step at round-off. The unconstrained minimiser has s >= 0 (flipping a
/// negative s_i towards sigma_hat_i >= 0 lowers both terms), so no bound is needed.
SINEW_HD void solve_membrane_neo_hookean_local(const MembraneNeoHookeanLocalProblem& p, double s[2]) {
  s[0] = p.sigma_hat[0];
  s[1] = p.sigma_hat[1];
  const double scale = p.weight * (1.0 + fabs(p.sigma_hat[0]) + fabs(p.sigma_hat[1]));
  double f = p.objective(s);
  for (int it = 0; it < kNeoHookeanLocalMaxIterations; ++it) {
    double g[2];
    p.gradient(s, g);
    const double gnorm2 = g[0] * g[0] + g[1] * g[1];
    if (!(sqrt(gnorm2) > 1e-13 * scale)) break;
    double h00, h01, h11, d[2];
    p.hessian(s, h00, h01, h11);
    const double det = h00 * h11 - h01 * h01;
    const bool newton = h00 > 0.0 && det > 1e-14 * h00 * h11;
    if (newton) {
      d[0] = (h11 * g[0] - h01 * g[1]) / det;
      d[1] = (h00 * g[1] - h01 * g[0]) / det;
    } else {
      const double hn = sqrt(h00 * h00 + 2.0 * h01 * h01 + h11 * h11);
      d[0] = g[0] / (p.weight + hn);
      d[1] = g[1] / (p.weight + hn);
    }
    double t = 1.0, trial[2] = {s[0], s[1]}, ft = f;
    bool accepted = false;
    for (int ls = 0; ls < 40 && !accepted; ++ls, t *= 0.5) {
      trial[0] = s[0] - t * d[0];
      trial[1] = s[1] - t * d[1];
      ft = p.objective(trial);
      accepted = ft <= f;
      if (!accepted && newton && ls == 0) {  // near the minimum f's decrease is below round-off
        double gt[2];
        p.gradient(trial, gt);
        accepted = gt[0] * gt[0] + gt[1] * gt[1] < gnorm2;
      }
    }
    if (!accepted) break;
    t *= 2.0;
    const double step = t * sqrt(d[0] * d[0] + d[1] * d[1]);
    s[0] = trial[0];
    s[1] = trial[1];
    f = ft;
    if (step <= 1e-16 * (1.0 + sqrt(s[0] * s[0] + s[1] * s[1]))) break;
  }
}

/// Local step of one triangle of material @p c in LocalMode @p mode. Layouts are those of the triangle G SpMV (rows (e,
/// j), j = 0, 1; columns i): F_t holds F by columns (F_t[3 j + i] = F_ij, triangle.hpp's y) and p_w receives the
/// weighted projection the same way, so that b = M q~ + h^2 G^T p_w (eq. (6)).
/// @param volume  V = A t of the triangle.
/// @param weight  ADMM weight w of a Neo-Hookean triangle; unused by the other models.
/// @param F_t     (6) F = G_i q of the current iterate.
/// @param u       (6) ADMM scaled dual (Neo-Hookean only), updated in place: u += F - z.
/// @param p_w     (6) output: ARAP 2 mu V R (R = U V^T, the closest matrix with orthonormal
///                columns); co-rotational 2 mu V R + 2 lambda V p_area with p_area = U diag(sigma -
///                (sigma0 + sigma1 - 2)/2) V^T; Neo-Hookean w (z - u).
/// @param energy  output when the mode asks: V Psi(F) of the triangle's model.
SINEW_HD void triangle_local_step(const LocalMaterial& c, int mode, double volume, double weight, const double* F_t,
                                  double* u, double* p_w, double* energy) {
  if (c.model == kLocalNeoHookean) {
    const StableNeoHookean::Internal q = StableNeoHookean::internal_parameters(c.lame);
    if (mode != kLocalProject) {
      const Svd32 d = svd32(F_t);
      const MembraneNeoHookeanLocalProblem energy_only{q, volume, 0.0, {0.0, 0.0}};
      *energy = energy_only.objective(d.sigma);  // w = 0: V phi(sigma)
    }
    if (mode == kLocalEnergyOnly) return;
    double F_hat[6];
    for (int k = 0; k < 6; ++k) F_hat[k] = F_t[k] + u[k];
    const Svd32 d = svd32(F_hat);
    const MembraneNeoHookeanLocalProblem problem{q, volume, weight, {d.sigma[0], d.sigma[1]}};
    double s[2];
    solve_membrane_neo_hookean_local(problem, s);
    double z[6];
    svd32_compose(d, s[0], s[1], z);
    for (int k = 0; k < 6; ++k) {
      const double un = u[k] + F_t[k] - z[k];
      u[k] = un;
      p_w[k] = weight * (z[k] - un);
    }
    return;
  }
  const Svd32 d = svd32(F_t);
  const double d0 = d.sigma[0] - 1.0, d1 = d.sigma[1] - 1.0;
  const bool corot = c.model == kLocalCorotational;
  if (mode != kLocalProject) {
    double e = c.lame.mu * (d0 * d0 + d1 * d1);
    if (corot) e += 0.5 * c.lame.lambda * (d0 + d1) * (d0 + d1);
    *energy = volume * e;
  }
  if (mode == kLocalEnergyOnly) return;
  double R[6];
  svd32_compose(d, 1.0, 1.0, R);
  const double wr = 2.0 * c.lame.mu * volume;
  for (int k = 0; k < 6; ++k) p_w[k] = wr * R[k];
  if (corot) {
    // Area constraint: the singular values projected onto sigma0 + sigma1 = 2; its weight
    // 2 lambda V gives w/2 ||F - p||^2 = lambda V/2 (sigma0 + sigma1 - 2)^2 exactly.
    const double shift = 0.5 * (d.sigma[0] + d.sigma[1] - 2.0);
    double P[6];
    svd32_compose(d, d.sigma[0] - shift, d.sigma[1] - shift, P);
    const double wa = 2.0 * c.lame.lambda * volume;
    for (int k = 0; k < 6; ++k) p_w[k] += wa * P[k];
  }
}

/// triangle_local_step() of triangle e: F, u, p_w hold 6 entries per element, volumes, weights
/// and energy one.
struct TriangleLocalStepKernel {
  /// Smaller CUDA blocks, as the tetrahedral local step.
  static constexpr unsigned kCudaThreadsPerBlock = 128;
  LocalMaterials materials;  ///< each triangle's model and Lame parameters
  int mode;                  ///< LocalMode
  const double* volumes;     ///< (n) rest area times thickness
  const double* weights;     ///< (n) ADMM / projective weights
  const double* F;           ///< (6 n) deformation gradients by columns
  double* u;                 ///< (6 n) scaled duals, or null without ADMM
  double* p_w;               ///< (6 n) weighted projections
  double* energy;            ///< (n) element energies
  /// Triangle e.
  SINEW_HD void operator()(std::size_t e) const {
    triangle_local_step(materials(e), mode, volumes[e], weights[e], F + 6 * e, u ? u + 6 * e : nullptr, p_w + 6 * e,
                        energy + e);
  }
};

}  // namespace sinew::integrators::detail

#if SINEW_CUDA_KERNELS
namespace sinew {
/// kernels.cu compiles the launch of the triangle local step.
template <>
struct CudaLaunchCompiled<integrators::detail::TriangleLocalStepKernel> : std::true_type {};
}  // namespace sinew
#endif
