/// @file
/// @brief Axial springs between two points: force F(l, ldot) u along the spring, its position and
/// velocity Jacobians (artisynth mechanics notes, section 0.12), and the energy, Hessian and
/// projected Hessian of the linear spring (section 0.12.1).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Tension of an axial force law and its partial derivatives, what a law F(l, ldot) returns.
struct AxialTension {
  double force;     ///< F(l, ldot), positive pulls the end points together
  double d_length;  ///< dF/dl
  double d_rate;    ///< dF/dldot
};

/// Linear axial spring with damping, F = k (l - r) + d ldot (notes, section 0.12.1); also usable
/// as the force-law argument of axial_spring_forces() and axial_spring_jacobian().
struct LinearAxialSpring {
  double stiffness = 1.0;    ///< k (N/m); 1 is a neutral unit value, scenes always set it
  double damping = 0.0;      ///< d (N s/m); 0 = purely elastic, damping is opt-in
  double rest_length = 0.0;  ///< r (m); 0 gives a zero-length spring whose force is k (x2 - x1)

  /// F(l, ldot) = k (l - r) + d ldot with dF/dl = k and dF/dldot = d.
  SINEW_HD AxialTension operator()(double length, double rate) const {
    return AxialTension{stiffness * (length - rest_length) + damping * rate, stiffness, damping};
  }
};

/// Checks a linear spring's parameters (host side).
/// @throws sinew::Error naming the parameter when stiffness, damping or rest_length is negative
///         or not finite.
void validate(const LinearAxialSpring& spring);

/// Kinematics of a two-point spring: direction, length and length rate.
struct AxialSpringState {
  Vec3 u;                  ///< unit direction (x2 - x1) / l
  double length;           ///< l = |x2 - x1| (> 0 assumed)
  double rate;             ///< ldot = u^T (v2 - v1)
  Vec3 relative_velocity;  ///< v2 - v1
};

/// Computes u, l and ldot (notes, section 0.12). The caller ensures x1 != x2.
/// @param x  (6) positions x1 y1 z1 x2 y2 z2.
/// @param v  (6) velocities in the same layout.
SINEW_HD AxialSpringState axial_spring_state(const double x[6], const double v[6]) {
  const Vec3 d{{x[3] - x[0], x[4] - x[1], x[5] - x[2]}};
  const double l = norm(d);
  const Vec3 u{{d[0] / l, d[1] / l, d[2] / l}};
  const Vec3 dv{{v[3] - v[0], v[4] - v[1], v[5] - v[2]}};
  return AxialSpringState{u, l, dot(u, dv), dv};
}

/// Spring forces f1 = F(l, ldot) u, f2 = -f1 (notes, section 0.12, first equation).
/// @param law  callable (l, ldot) -> AxialTension, e.g. LinearAxialSpring.
/// @param x    (6) positions x1 y1 z1 x2 y2 z2.
/// @param v    (6) velocities in the same layout.
/// @param f    (6) output forces on point 1 then point 2.
template <class Law>
SINEW_HD void axial_spring_forces(const Law& law, const double x[6], const double v[6], double f[6]) {
  const AxialSpringState s = axial_spring_state(x, v);
  const double F = law(s.length, s.rate).force;
  for (int i = 0; i < 3; ++i) {
    f[i] = F * s.u[i];
    f[3 + i] = -F * s.u[i];
  }
}

/// The 3x3 blocks that determine both 6x6 Jacobians of a two-point spring (notes, section 0.12):
/// df/dx = two_point_matrix(dfdx) and df/dv = two_point_matrix(dfdv), because
/// df2/dx2 = df1/dx1 and df1/dx2 = df2/dx1 = -df1/dx1.
struct AxialSpringJacobian {
  /// df1/dx1 = -dF/dl U_n - (1/l) dF/dldot u (v2 - v1)^T U_p - (F/l) U_p, with U_n = u u^T and
  /// U_p = I - u u^T; not symmetric when dF/dldot != 0.
  Mat3 dfdx;
  /// df1/dv1 = -dF/dldot U_n.
  Mat3 dfdv;
};

/// Position and velocity Jacobian blocks of a spring with a general law F(l, ldot) (notes,
/// section 0.12, last two equations).
/// @param law  callable (l, ldot) -> AxialTension.
/// @param x    (6) positions x1 y1 z1 x2 y2 z2.
/// @param v    (6) velocities in the same layout.
template <class Law>
SINEW_HD AxialSpringJacobian axial_spring_jacobian(const Law& law, const double x[6], const double v[6]) {
  const AxialSpringState s = axial_spring_state(x, v);
  const AxialTension t = law(s.length, s.rate);
  const Mat3 Un = outer(s.u, s.u);
  const Mat3 Up = mat3_sub(identity3(), Un);
  const Mat3 damping_term = outer(s.u, s.relative_velocity) * Up;  // u (v2 - v1)^T U_p
  Mat3 dfdx = mat3_axpby(-t.d_length, Un, -t.force / s.length, Up);
  dfdx = mat3_axpby(1.0, dfdx, -t.d_rate / s.length, damping_term);
  return AxialSpringJacobian{dfdx, mat3_scale(-t.d_rate, Un)};
}

/// The 6x6 matrix [[B, -B], [-B, B]] of a two-point element from its 3x3 block B.
SINEW_HD Mat6 two_point_matrix(const Mat3& B) {
  Mat6 M{};
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      M(r, c) = B(r, c);
      M(r + 3, c + 3) = B(r, c);
      M(r, c + 3) = -B(r, c);
      M(r + 3, c) = -B(r, c);
    }
  return M;
}

/// Elastic energy k/2 (l - r)^2 of a linear spring (its damping is not conservative); its
/// gradient is -f of axial_spring_forces() with zero velocities.
/// @param spring  stiffness and rest length (damping is ignored).
/// @param x  (6) positions x1 y1 z1 x2 y2 z2.
SINEW_HD double linear_axial_spring_energy(const LinearAxialSpring& spring, const double x[6]) {
  const double l = sqrt((x[3] - x[0]) * (x[3] - x[0]) + (x[4] - x[1]) * (x[4] - x[1]) + (x[5] - x[2]) * (x[5] - x[2]));
  return 0.5 * spring.stiffness * (l - spring.rest_length) * (l - spring.rest_length);
}

/// Hessian block K of the linear spring energy, H = two_point_matrix(K) with
/// K = -df1/dx1 at d = 0 = k U_n + k (l - r)/l U_p (notes, section 0.12.1). With
/// @p project_psd, the eigenvalue k (l - r)/l of the two directions normal to the spring is
/// clamped at zero (a compressed spring), which makes H PSD; H's eigenvalues are 0 and twice K's.
/// @param spring       stiffness and rest length (damping is ignored).
/// @param x            (6) positions x1 y1 z1 x2 y2 z2.
/// @param project_psd  clamp the normal eigenvalue at zero (for Newton on a convex model).
SINEW_HD Mat3 linear_axial_spring_stiffness(const LinearAxialSpring& spring, const double x[6], bool project_psd) {
  const double zero[6] = {0, 0, 0, 0, 0, 0};
  const AxialSpringState s = axial_spring_state(x, zero);
  double normal = spring.stiffness * (s.length - spring.rest_length) / s.length;
  if (project_psd && normal < 0.0) normal = 0.0;
  const Mat3 Un = outer(s.u, s.u);
  return mat3_axpby(spring.stiffness, Un, normal, mat3_sub(identity3(), Un));
}

}  // namespace sinew
