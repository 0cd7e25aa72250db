/// @file
/// @brief The realtime hyperelastic paper's own DIAGONAL non-smooth indicators (Sec. 5.3,
/// eqs. (24)-(25); Appendix B, eqs. (46)-(57)): per row a value phi, an indicator omega = d phi /
/// d u and a compliance e = d phi / d r, with friction linearized by the fixed-point split of
/// Macklin et al. 2019 (eqs. (49)-(51), (55)-(57)). IndicatorNewtonSolver (indicator_newton_solver.hpp)
/// builds the symmetric Newton matrix Omega W Omega + E Omega of eq. (26) from them.
///
/// Variables are FCLIB's local ones (constraint_problem.hpp): u = W r + q and r, so the seed's
/// delta_n -> u_n, dv_f -> u_T (2-vector), lambda_n -> r_n, lambda_f -> r_T, and its complementarity
/// preconditioner r -> rho (eq. (28) with W already carrying the step's h factors:
/// rho_n = W_nn, rho_t = (W_t1t1 + W_t2t2) / 2).
///
/// Normal and unilateral rows (eqs. (46)-(48) min-map, (52)-(54) Fischer-Burmeister) are
/// unilateral_ncp() of ncp_functions.hpp, which is already diagonal: phi = NCP(u, rho r),
/// omega = d phi / d u, e = d phi / d r.
///
/// Friction rows (eqs. (49)-(51), (55)-(57)): phi_T = omega_f u_T + E_f r_T with
///   omega_f = 1 if r_n > 0 else 0                       (J_f = H_f or 0, eqs. (50), (56)),
///   E_f     = a scalar per contact, held FIXED in the Newton step (d phi_T = omega_f du_T + E_f dr_T),
/// and with a = ||u_T||, b = ||r_T||, c = mu r_n, s = c - b (the slack of the cone):
///   min-map (51):  E_f = 1 (inactive, r_n <= 0);  0 (stick, a <= rho_t s);  (a - rho_t s) / c (slip);
///   FB      (57):  E_f = 1 (inactive);  rho_t (S - rho_t s) / (a + rho_t c - S),  S = sqrt(a^2 + rho_t^2 s^2).
/// At a Coulomb solution phi = 0: stick has u_T = 0 and E_f = 0 (FB: S = rho_t s, so the numerator
/// vanishes); slip has b = c, u_T = -a r_T / b, so E_f = a / c for both functions and
/// u_T + E_f r_T = 0; inactive has r_T = 0. Conversely phi_T = 0 on the slip branch forces
/// (c - b)(a + rho_t b) = 0, i.e. b = c, so the roots are exactly the Coulomb solutions. Newton on
/// this split converges linearly at best (E_f is frozen), which is what the seed accepts in
/// exchange for a diagonal E and a symmetric system.
#pragma once

#include <cmath>

#include "sinew/constraints/ncp_functions.hpp"
#include "sinew/core/config.hpp"

namespace sinew::constraints {

/// Value and diagonal indicators of one scalar row: d phi = omega du + e dr (seed eq. (25)).
struct IndicatorRow {
  double phi = 0.0;    ///< value of the row's NCP function
  double omega = 0.0;  ///< non-smooth indicator d phi / d u (the seed's omega), >= 0
  double e = 0.0;      ///< compliance d phi / d r (the seed's E), >= 0
};

/// Values and diagonal indicators of one contact, rows (n, t1, t2): d phi_k = omega_k du_k + e_k dr_k.
struct IndicatorContact {
  double phi[3] = {0.0, 0.0, 0.0};    ///< (3) values: normal, tangent 1, tangent 2
  double omega[3] = {0.0, 0.0, 0.0};  ///< (3) indicators d phi_k / d u_k, >= 0
  double e[3] = {0.0, 0.0, 0.0};      ///< (3) compliances d phi_k / d r_k, >= 0
};

/// A unilateral (or contact normal) row 0 <= u _|_ r >= 0 with preconditioner rho > 0, by seed
/// eqs. (46)-(48) (min-map: omega = 1, e = 0 when u <= rho r, else omega = 0, e = rho) or
/// (52)-(54) (FB: omega = 1 - u / S, e = (1 - rho r / S) rho, S = sqrt(u^2 + rho^2 r^2)).
/// Returns kClosed when u <= rho r, kOpen otherwise.
SINEW_HD RowState indicator_unilateral(NcpFunction fn, double u, double r, double rho, IndicatorRow& out) {
  NcpRow row;  // unilateral_ncp is already the seed's diagonal formula
  const RowState state = unilateral_ncp(fn, u, r, rho, row);
  out.phi = row.phi;
  out.omega = row.omega;
  out.e = row.e;
  return state;
}

/// The friction compliance E_f of seed eq. (51) (min-map) or (57) (FB) for an ACTIVE contact
/// (c = mu r_n > 0), with a = ||u_T||, b = ||r_T|| and rho_t > 0; writes it to @p e (finite, >= 0)
/// and returns kStick when a <= rho_t (c - b), kSlip otherwise.
///
/// Guards: FB's numerator rho_t (S - rho_t s) is >= 0 and vanishes exactly when a = 0 and s >= 0
/// (sticking at rest), where the denominator a + rho_t c - S = rho_t b can vanish too (r_T = 0):
/// the limit along stick is 0, so E_f = 0 there. Inside the cone (s >= 0) the denominator is
/// >= rho_t b >= 0; outside it (b > c) it reaches 0 and turns negative once b > 2c and
/// rho_t b (b - 2c) >= 2 a c, where eq. (57) would give an infinite or negative E_f (a friction
/// pushed further out of the cone). There E_f is clamped to the min-map slip value
/// (a - rho_t s) / c, which equals FB's on the cone's boundary (both a / c) and is positive
/// outside it, so the step still pulls r_T back toward the cone. A value that overflows (c tiny
/// against a + rho_t b) is left for the caller to catch: it returns +inf, never NaN.
SINEW_HD RowState indicator_friction_compliance(NcpFunction fn, double a, double b, double c, double rho_t, double& e) {
  const double s = c - b;
  const RowState state = a <= rho_t * s ? RowState::kStick : RowState::kSlip;
  if (fn == NcpFunction::kMinMap) {
    e = state == RowState::kStick ? 0.0 : (a - rho_t * s) / c;
    return state;
  }
  const double S = std::sqrt(a * a + rho_t * rho_t * s * s);
  const double numerator = rho_t * (S - rho_t * s);
  const double denominator = a + rho_t * c - S;
  if (!(numerator > 0.0)) {
    e = 0.0;
  } else if (denominator > 0.0) {
    e = numerator / denominator;
  } else {
    e = (a - rho_t * s) / c;  // b > 2c: eq. (57) breaks down, see above
  }
  return state;
}

/// One contact (rows n, t1, t2) with Coulomb coefficient @p mu >= 0 and preconditioners
/// @p rho_n, @p rho_t > 0, by the seed's diagonal formulas (file comment): normal row by
/// indicator_unilateral(), friction rows phi_T = omega_f u_T + E_f r_T. @p u, @p r: (3) normal,
/// tangent 1, tangent 2. Returns the friction branch: kOpen when inactive (r_n <= 0: omega_f = 0,
/// E_f = 1, which drives r_T to 0, eq. (51)'s first case), kStick or kSlip otherwise.
/// A frictionless contact (mu = 0) and a cone too thin for E_f to be represented (c so small
/// that (a - rho_t s) / c overflows) also take E_f = 1, omega_f = 0: r_T = 0 is their law (the
/// cone is the ray r_T = 0), and the slip formula divides by c = 0; they report kSlip when
/// u_T != 0 and kStick otherwise, like contact_ncp().
SINEW_HD RowState indicator_contact(NcpFunction fn, const double* u, const double* r, double mu, double rho_n,
                                    double rho_t, IndicatorContact& out) {
  IndicatorRow normal;
  indicator_unilateral(fn, u[0], r[0], rho_n, normal);
  out.phi[0] = normal.phi;
  out.omega[0] = normal.omega;
  out.e[0] = normal.e;
  const double a = std::sqrt(u[1] * u[1] + u[2] * u[2]);
  const double b = std::sqrt(r[1] * r[1] + r[2] * r[2]);
  const double c = mu * r[0];
  RowState state = RowState::kOpen;
  double omega_f = 0.0, e_f = 1.0;
  if (r[0] > 0.0) {
    state = a > 0.0 ? RowState::kSlip : RowState::kStick;
    if (c > 0.0) {
      double e = 0.0;
      const RowState branch = indicator_friction_compliance(fn, a, b, c, rho_t, e);
      if (e <= 1.7e308) {  // finite (the formulas never give NaN for c > 0)
        state = branch;
        omega_f = 1.0;
        e_f = e;
      }
    }
  }
  for (int k = 1; k < 3; ++k) {
    out.phi[k] = omega_f * u[k] + e_f * r[k];
    out.omega[k] = omega_f;
    out.e[k] = e_f;
  }
  return state;
}

}  // namespace sinew::constraints
