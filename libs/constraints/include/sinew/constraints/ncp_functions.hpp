/// @file
/// @brief Per-row and per-contact NCP functions of the Signorini-Coulomb conditions
/// (realtime hyperelastic paper, Sec. 5.1 eqs. (12)-(14), Appendix B eqs. (46)-(57)), with their
/// exact generalized Jacobians split into the non-smooth indicators Omega and E (Sec. 5.3,
/// eqs. (24)-(26)) so that W is formed once and Omega W + E is assembled per iteration.
///
/// Variables are FCLIB's local ones: u = W r + q (velocity) and r (impulse). For a block,
///   phi(u, r) = 0  <=>  its law holds,   d phi = Omega du + E dr,
/// with Omega and E block-diagonal: 1x1 for bilateral and unilateral rows, 3x3 per contact. The
/// seed's eq. (25) keeps Omega diagonal and holds the friction coefficient E_f fixed (a
/// fixed-point split, Macklin et al. 2019), which makes Newton converge only linearly; here the
/// full 3x3 blocks are the exact derivatives, so Newton converges quadratically near a
/// (strictly complementary) solution. The preconditioners rho scale r to u's units (seed
/// eq. (28)); in FCLIB's impulse/velocity variables W already carries the step's h factors, so
/// eq. (28) reads rho_n = W_nn and rho_t = (W_t1t1 + W_t2t2) / 2.
///
/// Min-map contacts are Alart-Curnier's (Siconos NSN_AC, "Jean-Moreau" radius mu r_n): the
/// normal row is min(u_n, rho_n r_n) (eq. (46)) and, with x = rho_t r_T - u_T and the disk
/// D = {||y|| <= rho_t mu r_n},
///   phi_T = rho_t r_T - proj_D(x):   stick (x in D) phi_T = u_T;
///   slip  phi_T = rho_t r_T - rho_t mu r_n x / ||x||;   inactive (r_n <= 0) phi_T = rho_t r_T.
/// Fischer-Burmeister contacts use the second-order-cone FB function of the De Saxce form
/// (Siconos NSN_FB; Fukushima, Luo and Tseng 2001): with s = mu rho_t,
///   X = s (mu r_n, r_T) in K1,  Y = (u_n + mu ||u_T||, mu u_T) in K1,  X . Y = 0,
/// K1 the unit Lorentz cone, phi = X + Y - sqrt(X o X + Y o Y) in the Jordan algebra of K1. It is
/// the cone analog of eq. (14): zero exactly at Signorini-Coulomb, smooth wherever
/// X o X + Y o Y is interior to K1 (strict complementarity). Any s > 0 keeps the zeros (X . Y
/// = s mu r . u_hat); s = mu rho_t is eq. (28)'s scaling of the tangential parts (X_T = s r_T
/// against Y_T = mu u_T ~ mu rho_t r_T), which decide the slip direction; it also took fewer
/// steps than sqrt(rho_n rho_t) (docs/benchmarks.md).
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"

namespace sinew::constraints {

/// Which NCP function turns a complementarity condition into an equation (seed eqs. (13)-(14)).
enum class NcpFunction {
  kFischerBurmeister,  ///< phi(a, b) = a + b - sqrt(a^2 + b^2); contacts: its second-order-cone form
  kMinMap              ///< phi(a, b) = min(a, b); contacts: Alart-Curnier's projection on the friction disk
};

/// The branch a row or contact is in at the evaluated point.
enum class RowState : int {
  kOpen = 0,    ///< separating or inactive: r driven to 0 (unilateral / contact normal)
  kClosed = 1,  ///< active, no friction involved: u driven to 0 (bilateral, unilateral)
  kStick = 2,   ///< contact active, tangential velocity driven to 0
  kSlip = 3     ///< contact active, friction on the cone boundary opposite the slip
};

/// Value and generalized-Jacobian split of one scalar NCP row: d phi = omega du + e dr.
struct NcpRow {
  double phi = 0.0;    ///< value of the NCP function
  double omega = 0.0;  ///< derivative with respect to u (the seed's non-smooth indicator)
  double e = 0.0;      ///< derivative with respect to r (the seed's E)
};

/// Value and generalized Jacobian of one contact (rows n, t1, t2): d phi = Omega du + E dr with
/// 3x3 blocks stored row-major (the per-contact blocks Omega_c, E_c of eq. (25) made full).
struct NcpContact {
  double phi[3] = {0.0, 0.0, 0.0};  ///< values of the three rows
  double omega[9] = {};             ///< d phi / du, row-major
  double e[9] = {};                 ///< d phi / dr, row-major
};

/// phi(a, b) of @p fn for 0 <= a _|_ b >= 0 (seed eqs. (13)-(14)).
SINEW_HD double ncp_value(NcpFunction fn, double a, double b) {
  return fn == NcpFunction::kMinMap ? (a <= b ? a : b) : a + b - std::sqrt(a * a + b * b);
}

/// A unilateral row 0 <= u _|_ r >= 0 with preconditioner rho > 0: phi = NCP(u, rho r)
/// (seed eqs. (46)-(48) min-map, (52)-(54) Fischer-Burmeister). At the FB kink (u = r = 0) the
/// element of the generalized Jacobian with the gradient of the smooth part along (1, 1)/sqrt2
/// is taken. Returns the branch: kClosed when u <= rho r, kOpen otherwise.
SINEW_HD RowState unilateral_ncp(NcpFunction fn, double u, double r, double rho, NcpRow& out) {
  const double b = rho * r;
  const RowState state = u <= b ? RowState::kClosed : RowState::kOpen;
  if (fn == NcpFunction::kMinMap) {
    out.phi = u <= b ? u : b;
    out.omega = u <= b ? 1.0 : 0.0;
    out.e = u <= b ? 0.0 : rho;
    return state;
  }
  const double s = std::sqrt(u * u + b * b);
  out.phi = u + b - s;
  if (s > 0.0) {
    out.omega = 1.0 - u / s;
    out.e = (1.0 - b / s) * rho;
  } else {
    out.omega = 1.0 - 1.0 / std::sqrt(2.0);
    out.e = (1.0 - 1.0 / std::sqrt(2.0)) * rho;
  }
  return state;
}

/// Second-order-cone Fischer-Burmeister function phi = x + y - sqrt(x o x + y o y) on the
/// Lorentz cone {||v_T|| <= v_0} in R^3, with its Jacobians @p dx, @p dy (3x3 row-major):
/// I - L_w^-1 L_x and I - L_w^-1 L_y, w = sqrt(x o x + y o y), L_v the arrow matrix of v
/// (Fukushima, Luo and Tseng 2001). Where w is on the cone's boundary the smaller spectral
/// value is floored to 1e-10 of the larger for the Jacobian (a limit of nearby Jacobians);
/// at x = y = 0 the element (1 - 1/sqrt2) I is taken, as in the scalar case.
SINEW_HD void soc_fischer_burmeister(const double* x, const double* y, double* phi, double* dx, double* dy) {
  const double z0 = x[0] * x[0] + x[1] * x[1] + x[2] * x[2] + y[0] * y[0] + y[1] * y[1] + y[2] * y[2];
  const double z1[2] = {2.0 * (x[0] * x[1] + y[0] * y[1]), 2.0 * (x[0] * x[2] + y[0] * y[2])};
  const double nz1 = std::sqrt(z1[0] * z1[0] + z1[1] * z1[1]);
  const double dir[2] = {nz1 > 0.0 ? z1[0] / nz1 : 1.0, nz1 > 0.0 ? z1[1] / nz1 : 0.0};
  const double s2 = std::sqrt(z0 + nz1);
  double s1 = std::sqrt(z0 - nz1 > 0.0 ? z0 - nz1 : 0.0);  // z = x o x + y o y lies in the cone
  double w[3] = {0.5 * (s1 + s2), 0.5 * (s2 - s1) * dir[0], 0.5 * (s2 - s1) * dir[1]};
  for (int k = 0; k < 3; ++k) phi[k] = x[k] + y[k] - w[k];
  for (int k = 0; k < 9; ++k) dx[k] = dy[k] = 0.0;
  if (!(s2 > 0.0)) {
    for (int k = 0; k < 3; ++k) dx[4 * k] = dy[4 * k] = 1.0 - 1.0 / std::sqrt(2.0);
    return;
  }
  if (s1 < 1e-10 * s2) {
    s1 = 1e-10 * s2;
    w[0] = 0.5 * (s1 + s2);
    w[1] = 0.5 * (s2 - s1) * dir[0];
    w[2] = 0.5 * (s2 - s1) * dir[1];
  }
  // L_w^-1 = (1 / d) [[w0, -w_T^T], [-w_T, (d / w0) I + w_T w_T^T / w0]], d = w0^2 - ||w_T||^2 = s1 s2.
  const double d = s1 * s2;
  double inv[9];
  inv[0] = w[0] / d;
  for (int i = 1; i < 3; ++i) {
    inv[i] = inv[3 * i] = -w[i] / d;
    for (int j = 1; j < 3; ++j) inv[3 * i + j] = ((i == j ? d : 0.0) + w[i] * w[j]) / (w[0] * d);
  }
  // Arrow matrices L_x = [[x0, x_T^T], [x_T, x0 I]]; dphi = I - L_w^-1 L_v.
  for (int pass = 0; pass < 2; ++pass) {
    const double* v = pass == 0 ? x : y;
    double* out = pass == 0 ? dx : dy;
    const double L[9] = {v[0], v[1], v[2], v[1], v[0], 0.0, v[2], 0.0, v[0]};
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j)
        out[3 * i + j] =
            (i == j ? 1.0 : 0.0) - (inv[3 * i] * L[j] + inv[3 * i + 1] * L[3 + j] + inv[3 * i + 2] * L[6 + j]);
  }
}

/// The branch of a contact by the seed's predicates (eqs. (49)-(51)): open when r_n <= 0, stick
/// when ||u_T|| <= rho_t (mu r_n - ||r_T||), slip otherwise.
SINEW_HD RowState contact_branch(const double* u, const double* r, double mu, double rho_t) {
  if (!(r[0] > 0.0)) return RowState::kOpen;
  const double a = std::sqrt(u[1] * u[1] + u[2] * u[2]);
  return a <= rho_t * (mu * r[0] - std::sqrt(r[1] * r[1] + r[2] * r[2])) ? RowState::kStick : RowState::kSlip;
}

/// One frictional contact (rows n, t1, t2) with Coulomb coefficient @p mu and preconditioners
/// @p rho_n, @p rho_t > 0: Alart-Curnier for kMinMap, second-order-cone FB for
/// kFischerBurmeister (file comment), with the exact 3x3 Jacobian blocks. @p u, @p r: (3)
/// normal, tangent 1, tangent 2. Returns kOpen, kStick or kSlip: for min-map the branch of the
/// friction row's projection, for FB contact_branch(); frictionless contacts (mu = 0) report kSlip
/// when u_T != 0.
SINEW_HD RowState contact_ncp(NcpFunction fn, const double* u, const double* r, double mu, double rho_n, double rho_t,
                              NcpContact& out) {
  for (int k = 0; k < 9; ++k) out.omega[k] = out.e[k] = 0.0;
  const double radius = rho_t * mu * r[0];                  // of the disk D in x's units
  if (fn == NcpFunction::kFischerBurmeister && mu > 0.0) {  // any r_n: FB is continuous across r_n = 0
    const double s = mu * rho_t, a = std::sqrt(u[1] * u[1] + u[2] * u[2]);
    const double X[3] = {s * mu * r[0], s * r[1], s * r[2]};
    const double Y[3] = {u[0] + mu * a, mu * u[1], mu * u[2]};
    double dX[9], dY[9];
    soc_fischer_burmeister(X, Y, out.phi, dX, dY);
    // Chain rule: dX = s diag(mu, 1, 1) dr; dY = [[1, mu t^T], [0, mu I]] du with t = u_T / ||u_T||
    // (0 at u_T = 0, an element of the generalized gradient of the norm).
    const double t[2] = {a > 0.0 ? u[1] / a : 0.0, a > 0.0 ? u[2] / a : 0.0};
    for (int i = 0; i < 3; ++i) {
      out.e[3 * i] = dX[3 * i] * s * mu;
      out.omega[3 * i] = dY[3 * i];
      for (int j = 1; j < 3; ++j) {
        out.e[3 * i + j] = dX[3 * i + j] * s;
        out.omega[3 * i + j] = mu * (dY[3 * i] * t[j - 1] + dY[3 * i + j]);
      }
    }
    return contact_branch(u, r, mu, rho_t);
  }
  // Normal row (min-map; FB when frictionless): unilateral_ncp, independent of r_T, u_T.
  NcpRow n;
  unilateral_ncp(fn, u[0], r[0], rho_n, n);
  out.phi[0] = n.phi;
  out.omega[0] = n.omega;
  out.e[0] = n.e;
  const double a = std::sqrt(u[1] * u[1] + u[2] * u[2]);
  if (!(radius > 0.0)) {
    // Inactive (r_n <= 0) or frictionless: the disk is empty, phi_T = rho_t r_T drives r_T to 0
    // (the slip formula's limit at r_n -> 0+, so phi is continuous there).
    for (int k = 1; k < 3; ++k) {
      out.phi[k] = rho_t * r[k];
      out.e[4 * k] = rho_t;
    }
    if (!(r[0] > 0.0)) return RowState::kOpen;
    return a > 0.0 ? RowState::kSlip : RowState::kStick;
  }
  const double x[2] = {rho_t * r[1] - u[1], rho_t * r[2] - u[2]};
  const double nx = std::sqrt(x[0] * x[0] + x[1] * x[1]);
  if (nx <= radius) {  // stick: proj_D(x) = x, phi_T = u_T
    for (int k = 1; k < 3; ++k) {
      out.phi[k] = u[k];
      out.omega[4 * k] = 1.0;
    }
    return RowState::kStick;
  }
  // Slip: proj_D(x) = radius x / ||x||, d(x / ||x||) = (I - xh xh^T) dx / ||x||, dx = rho_t dr_T - du_T.
  const double xh[2] = {x[0] / nx, x[1] / nx}, k = radius / nx;
  for (int i = 0; i < 2; ++i) {
    out.phi[1 + i] = rho_t * r[1 + i] - radius * xh[i];
    out.e[3 * (1 + i)] = -rho_t * mu * xh[i];
    for (int j = 0; j < 2; ++j) {
      const double p = k * ((i == j ? 1.0 : 0.0) - xh[i] * xh[j]);  // k (I - xh xh^T)
      out.omega[3 * (1 + i) + 1 + j] = p;
      out.e[3 * (1 + i) + 1 + j] = rho_t * ((i == j ? 1.0 : 0.0) - p);
    }
  }
  return RowState::kSlip;
}

}  // namespace sinew::constraints
