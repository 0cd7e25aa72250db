/// @file
/// @brief Axial springs in stress form, f1 = sigma(l) (x2 - x1) (artisynth mechanics notes,
/// section 0.13): the truss-element view with material and geometric stiffness, including the
/// quadratic (Green) strain law sigma = k (l^2 - r^2) / (2 r^2).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/mat3_ops.hpp"

namespace sinew {

/// A stress law sigma(l) (force per length) and its derivative, what a stress law returns.
struct AxialStress {
  double stress;    ///< sigma(l) = F / l
  double d_length;  ///< d sigma / dl
};

/// The linear spring in stress form, sigma = k (l - r) / l (section 0.13), d sigma/dl = k r / l^2.
struct LinearAxialStress {
  double stiffness = 1.0;    ///< k (N/m); neutral unit value, scenes set it
  double rest_length = 0.0;  ///< r (m); 0 gives sigma = k and df1/dx1 = -k I

  /// sigma and d sigma / dl at length l > 0.
  SINEW_HD AxialStress operator()(double length) const {
    return AxialStress{stiffness * (length - rest_length) / length, stiffness * rest_length / (length * length)};
  }
};

/// The quadratic-strain (Green) truss law sigma = k eps, eps = (l^2 - r^2) / (2 r^2) (section
/// 0.13); its energy is k r^2 eps^2 / 2.
struct GreenStrainAxialStress {
  double stiffness = 1.0;    ///< k (N/m); neutral unit value, scenes set it
  double rest_length = 1.0;  ///< r (m, > 0); the strain is relative to it, so 0 is not allowed

  /// sigma and d sigma / dl = k l / r^2.
  SINEW_HD AxialStress operator()(double length) const {
    const double r2 = rest_length * rest_length;
    return AxialStress{stiffness * (length * length - r2) / (2.0 * r2), stiffness * length / r2};
  }
};

/// Checks a Green-strain law's parameters (host side).
/// @throws sinew::Error naming the parameter when stiffness < 0 or rest_length <= 0 (or either
///         is not finite).
void validate(const GreenStrainAxialStress& law);

/// Forces f1 = sigma(l) dx, f2 = -f1 with dx = x2 - x1.
/// @param law  callable l -> AxialStress.
/// @param x    (6) positions x1 y1 z1 x2 y2 z2 (x1 != x2).
/// @param f    (6) output forces on point 1 then point 2.
template <class Law>
SINEW_HD void axial_stress_forces(const Law& law, const double x[6], double f[6]) {
  const Vec3 dx{{x[3] - x[0], x[4] - x[1], x[5] - x[2]}};
  const double sigma = law(norm(dx)).stress;
  for (int i = 0; i < 3; ++i) {
    f[i] = sigma * dx[i];
    f[3 + i] = -sigma * dx[i];
  }
}

/// Jacobian block df1/dx1 = dx (d sigma/dx1) - sigma I = -(1/l) d sigma/dl dx dx^T - sigma I
/// (section 0.13: material stiffness, then geometric stiffness); the 6x6 Jacobian is
/// two_point_matrix() of it (axial_spring.hpp). For GreenStrainAxialStress this is
/// -(k / r^2) dx dx^T - sigma I.
/// @param law  callable l -> AxialStress.
/// @param x    (6) positions x1 y1 z1 x2 y2 z2 (x1 != x2).
template <class Law>
SINEW_HD Mat3 axial_stress_jacobian(const Law& law, const double x[6]) {
  const Vec3 dx{{x[3] - x[0], x[4] - x[1], x[5] - x[2]}};
  const double l = norm(dx);
  const AxialStress s = law(l);
  return mat3_axpby(-s.d_length / l, outer(dx, dx), -s.stress, identity3());
}

/// Energy k r^2 eps^2 / 2 of the Green-strain spring (its gradient is -f).
/// @param law  stiffness k and rest length r.
/// @param x    (6) positions x1 y1 z1 x2 y2 z2.
SINEW_HD double green_strain_spring_energy(const GreenStrainAxialStress& law, const double x[6]) {
  const Vec3 dx{{x[3] - x[0], x[4] - x[1], x[5] - x[2]}};
  const double r2 = law.rest_length * law.rest_length;
  const double eps = (dot(dx, dx) - r2) / (2.0 * r2);
  return 0.5 * law.stiffness * r2 * eps * eps;
}

/// Hessian block K = -df1/dx1 of the Green-strain spring, H = two_point_matrix(K). Its
/// eigenvalues are k l^2 / r^2 + sigma along the spring and sigma (twice) across; with
/// @p project_psd each is clamped at zero (a compressed truss), which makes H PSD.
/// @param law          stiffness k and rest length r.
/// @param x            (6) positions x1 y1 z1 x2 y2 z2 (x1 != x2).
/// @param project_psd  clamp the negative eigenvalues at zero.
SINEW_HD Mat3 green_strain_spring_stiffness(const GreenStrainAxialStress& law, const double x[6], bool project_psd) {
  const Vec3 dx{{x[3] - x[0], x[4] - x[1], x[5] - x[2]}};
  const double l2 = dot(dx, dx), r2 = law.rest_length * law.rest_length;
  const double sigma = law.stiffness * (l2 - r2) / (2.0 * r2);
  double along = law.stiffness * l2 / r2 + sigma, across = sigma;
  if (project_psd) {
    along = along > 0.0 ? along : 0.0;
    across = across > 0.0 ? across : 0.0;
  }
  const Mat3 Un = mat3_scale(1.0 / l2, outer(dx, dx));
  return mat3_axpby(along, Un, across, mat3_sub(identity3(), Un));
}

}  // namespace sinew
