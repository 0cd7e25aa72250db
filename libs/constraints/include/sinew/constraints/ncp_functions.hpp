/// @file
/// @brief Per-row and per-contact NCP functions of the Signorini-Coulomb conditions
/// (realtime hyperelastic paper, Sec. 5.1 eqs. (12)-(14), Appendix B eqs. (46)-(57)), with their
/// generalized Jacobians split into the non-smooth indicators Omega and E (Sec. 5.3,
/// eqs. (24)-(26)) so that W is formed once and Omega W Omega + E is applied per iteration.
///
/// Variables are FCLIB's local ones: u = W r + q (velocity) and r (impulse). For a row,
///   phi(u, r) = 0  <=>  its law holds,   d phi = omega du + e dr,
/// with omega (the seed's Omega, weight of H, i.e. of u) and e (the seed's E) diagonal.
/// The preconditioner rho scales r to u's units (seed eq. (28)); in FCLIB's impulse/velocity
/// variables W already carries the step's h factors, so eq. (28) reads rho_n = W_nn for the
/// normal and rho_t = (W_t1t1 + W_t2t2) / 2 for friction (one scalar for both tangents keeps the
/// friction force opposite to the slip velocity).
///
/// Friction (eqs. (49)-(51), (55)-(57)): with r_n > 0 and mu r_n > 0, a = ||u_T||,
/// b = rho_t (mu r_n - ||r_T||), and m = NCP(a, b),
///   phi_T = u_T + e_t r_T,   e_t = (a - m) / (mu r_n) >= 0,   omega_t = 1;
/// e_t is the seed's E_f, held fixed in the Jacobian (the fixed-point split of Macklin et al.
/// 2019): exact in the stick branch (e_t = 0) and at the solution. For min-map m = min(a, b),
/// which is eq. (51). Our copy of eq. (57) is truncated; the Fischer-Burmeister variant uses
/// m = a + b - sqrt(a^2 + b^2), which gives the same stick/slip fixed points. With r_n <= 0 or
/// mu r_n = 0 the contact is open (or frictionless): phi_T = r_T, omega_t = 0, e_t = 1.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"

namespace sinew::constraints {

/// Which NCP function turns a complementarity condition into an equation (seed eqs. (13)-(14)).
enum class NcpFunction {
  kFischerBurmeister,  ///< phi(a, b) = a + b - sqrt(a^2 + b^2): smooth except at (0, 0)
  kMinMap              ///< phi(a, b) = min(a, b): piecewise linear (Alart-Curnier-like)
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

/// One frictional contact (rows n, t1, t2) with Coulomb coefficient @p mu and preconditioners
/// @p rho_n, @p rho_t > 0: the normal row by unilateral_ncp(u_n, r_n), the tangent rows by the
/// friction function of the file comment. @p u, @p r: (3) normal, tangent 1, tangent 2;
/// @p out: (3) rows in the same order. Returns kOpen, kStick or kSlip.
SINEW_HD RowState contact_ncp(NcpFunction fn, const double* u, const double* r, double mu, double rho_n, double rho_t,
                              NcpRow* out) {
  unilateral_ncp(fn, u[0], r[0], rho_n, out[0]);
  const double bound = mu * r[0];
  const double a = std::sqrt(u[1] * u[1] + u[2] * u[2]);
  if (!(r[0] > 0.0) || !(bound > 0.0)) {
    // Open or frictionless: the tangential impulse is driven to zero (eqs. (50)-(51), first case).
    for (int k = 1; k < 3; ++k) out[k] = NcpRow{r[k], 0.0, 1.0};
    if (!(r[0] > 0.0)) return RowState::kOpen;  // the seed's inactive set: r_n <= 0
    return a > 0.0 ? RowState::kSlip : RowState::kStick;
  }
  const double rt = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const double b = rho_t * (bound - rt);
  const double m = ncp_value(fn, a, b);
  double e = (a - m) / bound;
  if (e < 0.0) e = 0.0;  // round-off only: a - min(a, b) >= 0 and sqrt(a^2 + b^2) - b >= 0
  for (int k = 1; k < 3; ++k) out[k] = NcpRow{u[k] + e * r[k], 1.0, e};
  return a <= b ? RowState::kStick : RowState::kSlip;
}

}  // namespace sinew::constraints
