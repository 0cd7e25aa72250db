/// @file
/// @brief Membrane (triangle) versions of the isotropic models: energy density, stress and
/// second derivative as functions of the 3x2 deformation gradient F of triangle.hpp.
///
/// Every rotation-invariant membrane model here is its 3D model evaluated at F3 = [F | n] with n
/// the deformed unit normal, i.e. with the thickness stretch held at 1 (plane strain). Such an
/// energy depends on F only through the invariants I1 = tr(F^T F) = sigma0^2 + sigma1^2 and
/// J = sqrt(det(F^T F)) = sigma0 sigma1 (the area ratio, >= 0: a membrane in 3D cannot invert),
/// and is written as phi(I1, J); the chain rule through I1(F) and D = J^2 = det(F^T F) is shared.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/small_dense.hpp"
#include "sinew/materials/stable_neo_hookean.hpp"
#include "sinew/materials/triangle.hpp"

namespace sinew {

/// A membrane energy density phi(I1, J) and its first and second partial derivatives.
struct MembraneInvariantDensity {
  double phi;     ///< energy density per unit rest area
  double phi_I;   ///< d phi / d I1
  double phi_J;   ///< d phi / d J
  double phi_II;  ///< d^2 phi / d I1^2
  double phi_IJ;  ///< d^2 phi / d I1 dJ
  double phi_JJ;  ///< d^2 phi / d J^2
};

/// I1 = |f0|^2 + |f1|^2 and D = |f0|^2 |f1|^2 - (f0.f1)^2 of y = (f0, f1) (F by columns).
/// @param y  (6) F by columns.
/// @param I1 output first invariant.
/// @param D  output det(F^T F) = J^2.
SINEW_HD void membrane_invariants(const double y[6], double& I1, double& D) {
  const double a = y[0] * y[0] + y[1] * y[1] + y[2] * y[2], b = y[3] * y[3] + y[4] * y[4] + y[5] * y[5];
  const double c = y[0] * y[3] + y[1] * y[4] + y[2] * y[5];
  I1 = a + b;
  D = a * b - c * c;
}

/// Shared chain rule from phi(I1, J) to d phi/dy (6) and d^2 phi/dy^2 (6x6), with
/// dI1/dy = 2 y, dD/df0 = 2|f1|^2 f0 - 2(f0.f1) f1, dD/df1 = 2|f0|^2 f1 - 2(f0.f1) f0 and
/// J = sqrt(D) (the caller ensures D > 0: a non-degenerate deformed triangle).
/// @param y  (6) F by columns.
/// @param d  the density and its partials at (I1(y), J(y)).
/// @param g  (6) output gradient, or nullptr.
/// @param H  output 6x6 second derivative, or nullptr.
SINEW_HD void membrane_chain_rule(const double y[6], const MembraneInvariantDensity& d, double* g, Mat6* H) {
  const double a = y[0] * y[0] + y[1] * y[1] + y[2] * y[2], b = y[3] * y[3] + y[4] * y[4] + y[5] * y[5];
  const double c = y[0] * y[3] + y[1] * y[4] + y[2] * y[5];
  const double J = sqrt(a * b - c * c);
  // phi as a function of D = J^2: phi_D = phi_J / (2J), phi_DD = phi_JJ/(4 J^2) - phi_J/(4 J^3).
  const double pD = d.phi_J / (2.0 * J);
  const double pDD = d.phi_JJ / (4.0 * J * J) - d.phi_J / (4.0 * J * J * J);
  const double pID = d.phi_IJ / (2.0 * J);
  double gI[6], gD[6];
  for (int i = 0; i < 3; ++i) {
    gI[i] = 2.0 * y[i];
    gI[3 + i] = 2.0 * y[3 + i];
    gD[i] = 2.0 * b * y[i] - 2.0 * c * y[3 + i];
    gD[3 + i] = 2.0 * a * y[3 + i] - 2.0 * c * y[i];
  }
  if (g)
    for (int k = 0; k < 6; ++k) g[k] = d.phi_I * gI[k] + pD * gD[k];
  if (!H) return;
  for (int r = 0; r < 6; ++r)
    for (int s = 0; s < 6; ++s) {
      // Second derivatives of I1 (2 I) and of D (blocks from |f0|^2 |f1|^2 - (f0.f1)^2).
      const int jr = r / 3, ir = r % 3, js = s / 3, is = s % 3;
      const double delta = ir == is ? 1.0 : 0.0;
      const double hI = r == s ? 2.0 : 0.0;
      double hD;
      if (jr == js) {  // f0 f0 block: 2|f1|^2 I - 2 f1 f1^T (f1 f1 block likewise with f0)
        const double n2 = jr == 0 ? b : a;
        const int o = jr == 0 ? 3 : 0;
        hD = 2.0 * n2 * delta - 2.0 * y[o + ir] * y[o + is];
      } else {  // f0 f1 block: 4 f0 f1^T - 2 f1 f0^T - 2 (f0.f1) I (f1 f0 block its transpose)
        const int p = jr == 0 ? 0 : 3, q = jr == 0 ? 3 : 0;
        hD = 4.0 * y[p + ir] * y[q + is] - 2.0 * y[q + ir] * y[p + is] - 2.0 * c * delta;
      }
      (*H)(r, s) = d.phi_I * hI + pD * hD + d.phi_II * gI[r] * gI[s] + pID * (gI[r] * gD[s] + gD[r] * gI[s]) +
                   pDD * gD[r] * gD[s];
    }
}

/// Adapter that turns a density phi(I1, J) (a type with static density(I1, J, p)) into the
/// membrane model interface of triangle.hpp (energy, stress, hessian of y = F by columns).
/// Stress and Hessian divide by J: the deformed triangle must not be degenerate (J > 0).
template <class Density>
struct MembraneFromInvariants {
  /// Energy density Psi(F) per unit rest area.
  /// @param y  (6) F by columns.
  /// @param p  Lame parameters.
  static SINEW_HD double energy(const double y[6], const TriRest& /*rest*/, const LameParameters& p) {
    double I1, D;
    membrane_invariants(y, I1, D);
    return Density::density(I1, sqrt(D), p).phi;
  }
  /// Stress P = dPsi/dF (3 x 2) by columns.
  /// @param y  (6) F by columns.
  /// @param p  Lame parameters.
  /// @param P  (6) output stress by columns.
  static SINEW_HD void stress(const double y[6], const TriRest& /*rest*/, const LameParameters& p, double P[6]) {
    double I1, D;
    membrane_invariants(y, I1, D);
    membrane_chain_rule(y, Density::density(I1, sqrt(D), p), P, nullptr);
  }
  /// d^2 Psi / dF^2 (6 x 6) in the column order of y.
  /// @param y  (6) F by columns.
  /// @param p  Lame parameters.
  /// @param H  (6 x 6) output.
  static SINEW_HD void hessian(const double y[6], const TriRest& /*rest*/, const LameParameters& p, Mat6& H) {
    double I1, D;
    membrane_invariants(y, I1, D);
    membrane_chain_rule(y, Density::density(I1, sqrt(D), p), nullptr, &H);
  }
};

/// St. Venant-Kirchhoff with E33 = 0: phi = mu/4 (I1^2 - 2 J^2 - 2 I1 + 2) + lambda/8 (I1 - 2)^2
/// (mu E:E + lambda/2 tr(E)^2 with tr(C^2) = I1^2 - 2 det C).
struct StVenantKirchhoffMembraneDensity {
  /// phi and its partials at (I1, J).
  static SINEW_HD MembraneInvariantDensity density(double I1, double J, const LameParameters& p) {
    const double m = p.mu, l = p.lambda;
    return MembraneInvariantDensity{0.25 * m * (I1 * I1 - 2 * J * J - 2 * I1 + 2) + 0.125 * l * (I1 - 2) * (I1 - 2),
                                    0.5 * m * (I1 - 1) + 0.25 * l * (I1 - 2),
                                    -m * J,
                                    0.5 * m + 0.25 * l,
                                    0.0,
                                    -m};
  }
};

/// Co-rotational with sigma2 = 1: phi = mu (I1 - 2 s + 2) + lambda/2 (s - 2)^2 with
/// s = sigma0 + sigma1 = sqrt(I1 + 2 J); with lambda = 0 this is ARAP.
struct CorotationalMembraneDensity {
  /// phi and its partials at (I1, J).
  static SINEW_HD MembraneInvariantDensity density(double I1, double J, const LameParameters& p) {
    const double s = sqrt(I1 + 2.0 * J), s3 = s * s * s, m = p.mu, l = p.lambda;
    return MembraneInvariantDensity{m * (I1 - 2 * s + 2) + 0.5 * l * (s - 2) * (s - 2),
                                    m * (1 - 1 / s) + 0.5 * l * (s - 2) / s,
                                    -2 * m / s + l * (s - 2) / s,
                                    (m + l) / (2 * s3),
                                    (m + l) / s3,
                                    2 * (m + l) / s3};
  }
};

/// ARAP with sigma2 = 1: phi = mu (I1 - 2 s + 2) = mu ((sigma0 - 1)^2 + (sigma1 - 1)^2).
struct ArapMembraneDensity {
  /// phi and its partials at (I1, J) (lambda is ignored).
  static SINEW_HD MembraneInvariantDensity density(double I1, double J, const LameParameters& p) {
    return CorotationalMembraneDensity::density(I1, J, LameParameters{p.mu, 0.0});
  }
};

/// Stable Neo-Hookean with sigma2 = 1: phi = mu'/2 (I1 - 2) + lambda'/2 (J - alpha)^2
/// - mu'/2 log(I1 + 2) - phi_0, parameters from StableNeoHookean::internal_parameters().
struct StableNeoHookeanMembraneDensity {
  /// phi and its partials at (I1, J).
  static SINEW_HD MembraneInvariantDensity density(double I1, double J, const LameParameters& p) {
    const StableNeoHookean::Internal q = StableNeoHookean::internal_parameters(p);
    const double m = q.mu, l = q.lambda, alpha = q.alpha;
    const double rest = 0.5 * l * (1 - alpha) * (1 - alpha) - 0.5 * m * log(4.0);
    return MembraneInvariantDensity{
        0.5 * m * (I1 - 2) + 0.5 * l * (J - alpha) * (J - alpha) - 0.5 * m * log(I1 + 2) - rest,
        0.5 * m - 0.5 * m / (I1 + 2),
        l * (J - alpha),
        0.5 * m / ((I1 + 2) * (I1 + 2)),
        0.0,
        l};
  }
};

/// Membrane St. Venant-Kirchhoff model for tri_energy() and friends.
using MembraneStVenantKirchhoff = MembraneFromInvariants<StVenantKirchhoffMembraneDensity>;
/// Membrane co-rotational model.
using MembraneCorotational = MembraneFromInvariants<CorotationalMembraneDensity>;
/// Membrane ARAP model.
using MembraneArap = MembraneFromInvariants<ArapMembraneDensity>;
/// Membrane stable Neo-Hookean model.
using MembraneStableNeoHookean = MembraneFromInvariants<StableNeoHookeanMembraneDensity>;

/// Linear membrane: phi = mu eps:eps + lambda/2 tr(eps)^2 with eps = sym(T^T F) - I (2x2) and
/// T = [t0 t1] the rest tangent frame; not rotation invariant (the plane-strain linearization of
/// every model above at rest), its second derivative is constant.
struct MembraneLinear {
  /// Small strain eps (2x2 row-major) of y = F by columns.
  static SINEW_HD void strain(const double y[6], const TriRest& r, double eps[4]) {
    const Vec3 f0{{y[0], y[1], y[2]}}, f1{{y[3], y[4], y[5]}};
    eps[0] = dot(r.t0, f0) - 1.0;
    eps[3] = dot(r.t1, f1) - 1.0;
    eps[1] = eps[2] = 0.5 * (dot(r.t0, f1) + dot(r.t1, f0));
  }
  /// Energy density per unit rest area.
  /// @param y  (6) F by columns.
  /// @param r  rest data (its tangent frame).
  /// @param p  Lame parameters.
  static SINEW_HD double energy(const double y[6], const TriRest& r, const LameParameters& p) {
    double e[4];
    strain(y, r, e);
    const double tr = e[0] + e[3];
    return p.mu * (e[0] * e[0] + e[1] * e[1] + e[2] * e[2] + e[3] * e[3]) + 0.5 * p.lambda * tr * tr;
  }
  /// Stress P = T (2 mu eps + lambda tr(eps) I) (3 x 2) by columns.
  /// @param y  (6) F by columns.
  /// @param r  rest data (its tangent frame).
  /// @param p  Lame parameters.
  /// @param P  (6) output.
  static SINEW_HD void stress(const double y[6], const TriRest& r, const LameParameters& p, double P[6]) {
    double e[4];
    strain(y, r, e);
    const double tr = e[0] + e[3];
    const double s00 = 2 * p.mu * e[0] + p.lambda * tr, s11 = 2 * p.mu * e[3] + p.lambda * tr, s01 = 2 * p.mu * e[1];
    for (int i = 0; i < 3; ++i) {
      P[i] = r.t0[i] * s00 + r.t1[i] * s01;
      P[3 + i] = r.t0[i] * s01 + r.t1[i] * s11;
    }
  }
  /// Constant d^2 Psi / dF^2 (6 x 6), built column by column from stress() (linear in y).
  /// @param y  (6) F by columns (unused: the model is quadratic).
  /// @param r  rest data (its tangent frame).
  /// @param p  Lame parameters.
  /// @param H  (6 x 6) output.
  static SINEW_HD void hessian(const double y[6], const TriRest& r, const LameParameters& p, Mat6& H) {
    (void)y;
    double P0[6], zero[6] = {0, 0, 0, 0, 0, 0};
    stress(zero, r, p, P0);
    for (int k = 0; k < 6; ++k) {
      double e[6] = {0, 0, 0, 0, 0, 0}, P[6];
      e[k] = 1.0;
      stress(e, r, p, P);
      for (int i = 0; i < 6; ++i) H(i, k) = P[i] - P0[i];
    }
  }
};

}  // namespace sinew
