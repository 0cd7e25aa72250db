/// @file
/// @brief Multi-point springs: an axial spring routed through via points (generalized pulleys)
/// whose tension F(L, Ldot) depends on the total length of its active segments (artisynth
/// mechanics notes, section 0.14, eqs. 0.11-0.14).
#pragma once

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/axial_spring.hpp"
#include "sinew/materials/mat3_ops.hpp"

namespace sinew {

/// Total length L and rate Ldot of the active segments (eq. 0.14; all segments when @p active is
/// null). Segment i runs from point i to point i + 1 with u_i = (x_{i+1} - x_i) / l_i (eq. 0.11).
/// @param n       number of segments (n + 1 points, n >= 1); no segment may have zero length.
/// @param x       (3 (n + 1)) point positions, x0 y0 z0 x1 ...
/// @param v       (3 (n + 1)) point velocities, same layout.
/// @param active  (n) whether segment i counts in L and Ldot, or nullptr for all.
/// @param L       output total active length.
/// @param Ldot    output its rate.
SINEW_HD void multi_point_spring_length(int n, const double* x, const double* v, const bool* active, double& L,
                                        double& Ldot) {
  L = 0.0;
  Ldot = 0.0;
  for (int i = 0; i < n; ++i) {
    if (active && !active[i]) continue;
    const double xs[6] = {x[3 * i], x[3 * i + 1], x[3 * i + 2], x[3 * i + 3], x[3 * i + 4], x[3 * i + 5]};
    const double vs[6] = {v[3 * i], v[3 * i + 1], v[3 * i + 2], v[3 * i + 3], v[3 * i + 4], v[3 * i + 5]};
    const AxialSpringState s = axial_spring_state(xs, vs);
    L += s.length;
    Ldot += s.rate;
  }
}

/// Forces f_i = F v_i with v_0 = u_0, v_i = u_i - u_{i-1}, v_n = -u_{n-1} (section 0.14), F from
/// the law at the active length.
/// @param law     callable (L, Ldot) -> AxialTension (e.g. LinearAxialSpring).
/// @param n       number of segments (n >= 1).
/// @param x       (3 (n + 1)) positions.
/// @param v       (3 (n + 1)) velocities.
/// @param active  (n) active segments, or nullptr for all.
/// @param f       (3 (n + 1)) output forces.
template <class Law>
SINEW_HD void multi_point_spring_forces(const Law& law, int n, const double* x, const double* v, const bool* active,
                                        double* f) {
  double L, Ldot;
  multi_point_spring_length(n, x, v, active, L, Ldot);
  const double F = law(L, Ldot).force;
  for (int k = 0; k < 3 * (n + 1); ++k) f[k] = 0.0;
  for (int i = 0; i < n; ++i) {
    const Vec3 d{{x[3 * i + 3] - x[3 * i], x[3 * i + 4] - x[3 * i + 1], x[3 * i + 5] - x[3 * i + 2]}};
    const double l = norm(d);
    for (int k = 0; k < 3; ++k) {
      f[3 * i + k] += F * d[k] / l;
      f[3 * i + 3 + k] -= F * d[k] / l;
    }
  }
}

/// Position and velocity Jacobians (3 (n + 1)) x (3 (n + 1)), row-major, of
/// multi_point_spring_forces() (section 0.14):
/// df_i/dx_j = v_i dF/dx_j + F (du_i/dx_j - du_{i-1}/dx_j) with du_k/dx_k = -P_k / l_k,
/// du_k/dx_{k+1} = P_k / l_k, P_k = I - u_k u_k^T; dF/dx_j = F_L dL/dx_j + F_Ldot dLdot/dx_j;
/// df_i/dv_j = F_Ldot v_i dLdot/dv_j, with dL/dx_j = dLdot/dv_j as in the notes.
/// @param law     callable (L, Ldot) -> AxialTension.
/// @param n       number of segments (n >= 1).
/// @param x       (3 (n + 1)) positions.
/// @param v       (3 (n + 1)) velocities.
/// @param active  (n) active segments, or nullptr for all.
/// @param dfdx    (9 (n + 1)^2) output, row-major.
/// @param dfdv    (9 (n + 1)^2) output, row-major.
template <class Law>
SINEW_HD void multi_point_spring_jacobian(const Law& law, int n, const double* x, const double* v, const bool* active,
                                          double* dfdx, double* dfdv) {
  const int m = 3 * (n + 1);
  double L, Ldot;
  multi_point_spring_length(n, x, v, active, L, Ldot);
  const AxialTension t = law(L, Ldot);
  for (int k = 0; k < m * m; ++k) dfdx[k] = dfdv[k] = 0.0;
  // Pass 1: geometric terms F du/dx; segment k adds -P_k/l_k to (k, k), P_k/l_k to (k, k+1) and
  // the negatives to rows k + 1 (f_{k+1} carries -u_k).
  for (int k = 0; k < n; ++k) {
    const double xs[6] = {x[3 * k], x[3 * k + 1], x[3 * k + 2], x[3 * k + 3], x[3 * k + 4], x[3 * k + 5]};
    const double vs[6] = {v[3 * k], v[3 * k + 1], v[3 * k + 2], v[3 * k + 3], v[3 * k + 4], v[3 * k + 5]};
    const AxialSpringState s = axial_spring_state(xs, vs);
    const Mat3 P = mat3_sub(identity3(), outer(s.u, s.u));
    for (int r = 0; r < 3; ++r)
      for (int c = 0; c < 3; ++c) {
        const double g = t.force * P(r, c) / s.length;
        dfdx[(3 * k + r) * m + 3 * k + c] -= g;
        dfdx[(3 * k + r) * m + 3 * k + 3 + c] += g;
        dfdx[(3 * k + 3 + r) * m + 3 * k + c] += g;
        dfdx[(3 * k + 3 + r) * m + 3 * k + 3 + c] -= g;
      }
  }
  // Pass 2: v_i (dF/dx_j) and v_i (dF/dv_j), outer products of per-point vectors.
  for (int i = 0; i <= n; ++i) {
    Vec3 vi{{0, 0, 0}};  // v_i = u_i - u_{i-1} over existing segments (all, active or not)
    for (int side = 0; side < 2; ++side) {
      const int k = side == 0 ? i : i - 1;  // segment starting (u_i, +) or ending (u_{i-1}, -) at i
      if (k < 0 || k >= n) continue;
      const Vec3 d{{x[3 * k + 3] - x[3 * k], x[3 * k + 4] - x[3 * k + 1], x[3 * k + 5] - x[3 * k + 2]}};
      const double l = norm(d), sgn = side == 0 ? 1.0 : -1.0;
      for (int c = 0; c < 3; ++c) vi[c] += sgn * d[c] / l;
    }
    for (int j = 0; j <= n; ++j) {
      Vec3 dL{{0, 0, 0}}, dLdot{{0, 0, 0}};  // dL/dx_j (= dLdot/dv_j) and dLdot/dx_j
      for (int side = 0; side < 2; ++side) {
        const int k = side == 0 ? j : j - 1;
        if (k < 0 || k >= n || (active && !active[k])) continue;
        const double xs[6] = {x[3 * k], x[3 * k + 1], x[3 * k + 2], x[3 * k + 3], x[3 * k + 4], x[3 * k + 5]};
        const double vs[6] = {v[3 * k], v[3 * k + 1], v[3 * k + 2], v[3 * k + 3], v[3 * k + 4], v[3 * k + 5]};
        const AxialSpringState s = axial_spring_state(xs, vs);
        const double sgn = side == 0 ? -1.0 : 1.0;  // x_j is the start (-) or the end (+) of segment k
        const Vec3 Pw = vec3_sub(s.relative_velocity, Vec3{{s.u[0] * s.rate, s.u[1] * s.rate, s.u[2] * s.rate}});
        for (int c = 0; c < 3; ++c) {
          dL[c] += sgn * s.u[c];
          dLdot[c] += sgn * Pw[c] / s.length;
        }
      }
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < 3; ++c) {
          dfdx[(3 * i + r) * m + 3 * j + c] += vi[r] * (t.d_length * dL[c] + t.d_rate * dLdot[c]);
          dfdv[(3 * i + r) * m + 3 * j + c] += vi[r] * t.d_rate * dL[c];
        }
    }
  }
}

}  // namespace sinew
