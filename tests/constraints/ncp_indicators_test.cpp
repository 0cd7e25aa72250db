// The seed's diagonal indicators (ncp_indicators.hpp): every branch of eqs. (46)-(57) with
// values worked out by hand, and phi = 0 exactly at Signorini-Coulomb solutions, nonzero away.
#include "sinew/constraints/ncp_indicators.hpp"

#include <gtest/gtest.h>

#include <cmath>

namespace sinew::constraints::constraints_ncp_indicators_test {
namespace {

constexpr NcpFunction kMin = NcpFunction::kMinMap;
constexpr NcpFunction kFb = NcpFunction::kFischerBurmeister;

TEST(NcpIndicators, UnilateralMinMapClosedAndOpen) {
  IndicatorRow row;
  // u = 0.5 <= rho r = 2: closed, phi = u, omega = 1, e = 0 (eqs. (46)-(48)).
  EXPECT_EQ(indicator_unilateral(kMin, 0.5, 1.0, 2.0, row), RowState::kClosed);
  EXPECT_EQ(row.phi, 0.5);
  EXPECT_EQ(row.omega, 1.0);
  EXPECT_EQ(row.e, 0.0);
  // u = 3 > rho r = 2: open, phi = rho r, omega = 0, e = rho.
  EXPECT_EQ(indicator_unilateral(kMin, 3.0, 1.0, 2.0, row), RowState::kOpen);
  EXPECT_EQ(row.phi, 2.0);
  EXPECT_EQ(row.omega, 0.0);
  EXPECT_EQ(row.e, 2.0);
}

TEST(NcpIndicators, UnilateralFischerBurmeister) {
  IndicatorRow row;
  // u = 3, rho r = 4: S = 5, phi = 3 + 4 - 5 = 2, omega = 1 - 3/5, e = (1 - 4/5) rho (eqs. (52)-(54)).
  EXPECT_EQ(indicator_unilateral(kFb, 3.0, 2.0, 2.0, row), RowState::kClosed);
  EXPECT_NEAR(row.phi, 2.0, 1e-15);
  EXPECT_NEAR(row.omega, 0.4, 1e-15);
  EXPECT_NEAR(row.e, 0.4, 1e-15);
  // u = 5, rho r = 0 (open): phi = 0, omega = 0, e = rho.
  EXPECT_EQ(indicator_unilateral(kFb, 5.0, 0.0, 2.0, row), RowState::kOpen);
  EXPECT_EQ(row.phi, 0.0);
  EXPECT_EQ(row.omega, 0.0);
  EXPECT_EQ(row.e, 2.0);
}

TEST(NcpIndicators, InactiveFrictionDrivesTheTangentImpulseToZero) {
  // r_n <= 0: omega_f = 0, E_f = 1, phi_T = r_T (eq. (51) first case), for both functions.
  for (NcpFunction fn : {kMin, kFb})
    for (double rn : {0.0, -0.1}) {
      const double u[3] = {1.0, 0.3, -0.4}, r[3] = {rn, 0.2, 0.1};
      IndicatorContact c;
      EXPECT_EQ(indicator_contact(fn, u, r, 0.5, 1.0, 2.0, c), RowState::kOpen);
      for (int k = 1; k < 3; ++k) {
        EXPECT_EQ(c.phi[k], r[k]);
        EXPECT_EQ(c.omega[k], 0.0);
        EXPECT_EQ(c.e[k], 1.0);
      }
      // Separating: the normal row is open too (FB's omega = 1 - u / S vanishes only at r_n = 0).
      if (fn == kMin || rn == 0.0) {
        EXPECT_EQ(c.omega[0], 0.0);
      }
    }
}

TEST(NcpIndicators, MinMapStickAndSlip) {
  IndicatorContact c;
  // Stick: c = mu r_n = 0.5, b = 0.1, rho_t s = 2 * 0.4 = 0.8 >= a = 0.5: E_f = 0, phi_T = u_T.
  const double u_stick[3] = {0.0, 0.3, 0.4}, r_stick[3] = {1.0, 0.1, 0.0};
  EXPECT_EQ(indicator_contact(kMin, u_stick, r_stick, 0.5, 1.0, 2.0, c), RowState::kStick);
  EXPECT_EQ(c.phi[0], 0.0);  // closed normal row: phi_n = u_n
  EXPECT_EQ(c.omega[0], 1.0);
  EXPECT_EQ(c.phi[1], 0.3);
  EXPECT_EQ(c.phi[2], 0.4);
  EXPECT_EQ(c.omega[1], 1.0);
  EXPECT_EQ(c.e[1], 0.0);
  // Slip: b = 0.3, s = 0.2, rho_t = 1, a = 1 > 0.2: E_f = (1 - 0.2) / 0.5 = 1.6,
  // phi_T = u_T + 1.6 r_T = (0.6 + 0.48, 0.8).
  const double u_slip[3] = {0.0, 0.6, 0.8}, r_slip[3] = {1.0, 0.3, 0.0};
  EXPECT_EQ(indicator_contact(kMin, u_slip, r_slip, 0.5, 1.0, 1.0, c), RowState::kSlip);
  EXPECT_NEAR(c.e[1], 1.6, 1e-15);
  EXPECT_EQ(c.e[2], c.e[1]);
  EXPECT_NEAR(c.phi[1], 1.08, 1e-15);
  EXPECT_NEAR(c.phi[2], 0.8, 1e-15);
  EXPECT_EQ(c.omega[1], 1.0);
}

TEST(NcpIndicators, FischerBurmeisterStickSlipAndClamp) {
  double e = -1.0;
  // a = 0 inside the cone: numerator rho_t (S - rho_t s) = 0, E_f = 0 (also at r_T = 0, a 0/0).
  EXPECT_EQ(indicator_friction_compliance(kFb, 0.0, 0.1, 0.5, 2.0, e), RowState::kStick);
  EXPECT_EQ(e, 0.0);
  EXPECT_EQ(indicator_friction_compliance(kFb, 0.0, 0.0, 0.5, 2.0, e), RowState::kStick);
  EXPECT_EQ(e, 0.0);
  // Stick side, smoothed: a = 3, s = 0.4, rho_t = 10: S = 5, E_f = 10 (5 - 4) / (3 + 5 - 5) = 10/3.
  EXPECT_EQ(indicator_friction_compliance(kFb, 3.0, 0.1, 0.5, 10.0, e), RowState::kStick);
  EXPECT_NEAR(e, 10.0 / 3.0, 1e-14);
  // On the cone's boundary (s = 0): E_f = rho_t a / (rho_t c) = a / c = 4, as min-map's slip.
  EXPECT_EQ(indicator_friction_compliance(kFb, 2.0, 0.5, 0.5, 1.0, e), RowState::kSlip);
  EXPECT_NEAR(e, 4.0, 1e-15);
  EXPECT_EQ(indicator_friction_compliance(kMin, 2.0, 0.5, 0.5, 1.0, e), RowState::kSlip);
  EXPECT_NEAR(e, 4.0, 1e-15);
  // b = 2 > 2c = 1: the denominator 0.1 + 0.5 - sqrt(0.01 + 2.25) < 0; clamped to the min-map
  // value (a - rho_t s) / c = (0.1 + 1.5) / 0.5 = 3.2, finite and positive.
  EXPECT_EQ(indicator_friction_compliance(kFb, 0.1, 2.0, 0.5, 1.0, e), RowState::kSlip);
  EXPECT_NEAR(e, 3.2, 1e-14);
  // Through indicator_contact: the slip case's rows.
  const double u[3] = {0.0, 2.0, 0.0}, r[3] = {1.0, 0.3, 0.4};
  IndicatorContact c;
  EXPECT_EQ(indicator_contact(kFb, u, r, 0.5, 1.0, 1.0, c), RowState::kSlip);
  EXPECT_NEAR(c.phi[1], 2.0 + 4.0 * 0.3, 1e-14);
  EXPECT_NEAR(c.phi[2], 4.0 * 0.4, 1e-14);
  EXPECT_EQ(c.omega[1], 1.0);
  EXPECT_EQ(c.omega[2], 1.0);
}

TEST(NcpIndicators, FrictionlessActiveContactKeepsNoFriction) {
  // mu = 0 with r_n > 0: the cone is the ray r_T = 0, so omega_f = 0, E_f = 1 (no division by c).
  for (NcpFunction fn : {kMin, kFb}) {
    const double u[3] = {0.0, 0.3, 0.0}, r[3] = {1.0, 0.2, 0.0};
    IndicatorContact c;
    EXPECT_EQ(indicator_contact(fn, u, r, 0.0, 1.0, 1.0, c), RowState::kSlip);
    EXPECT_EQ(c.omega[1], 0.0);
    EXPECT_EQ(c.e[1], 1.0);
    EXPECT_EQ(c.phi[1], 0.2);
  }
}

// phi = 0 exactly at a Coulomb solution of each branch, and clearly nonzero near it.
TEST(NcpIndicators, ZeroExactlyAtSignoriniCoulombSolutions) {
  const double mu = 0.5, rho_n = 1.3, rho_t = 0.7;
  struct Case {
    const char* what;
    double u[3], r[3], u_off[3], r_off[3];
  };
  const Case cases[] = {
      // stick: u = 0, r strictly inside the cone; away: a small slip velocity
      {"stick", {0.0, 0.0, 0.0}, {1.0, 0.2, -0.1}, {0.0, 0.01, 0.0}, {1.0, 0.2, -0.1}},
      // slip: ||r_T|| = mu r_n opposite u_T = 2 (0.6, 0.8), u_n = 0; away: r_T inside the cone
      {"slip", {0.0, 1.2, 1.6}, {1.0, -0.3, -0.4}, {0.0, 1.2, 1.6}, {1.0, -0.27, -0.36}},
      // open: r = 0, u_n > 0; away: a leftover friction impulse
      {"open", {0.5, 1.0, 2.0}, {0.0, 0.0, 0.0}, {0.5, 1.0, 2.0}, {0.0, 0.05, 0.0}},
  };
  for (NcpFunction fn : {kMin, kFb})
    for (const Case& k : cases) {
      IndicatorContact c;
      indicator_contact(fn, k.u, k.r, mu, rho_n, rho_t, c);
      for (int i = 0; i < 3; ++i) EXPECT_NEAR(c.phi[i], 0.0, 1e-15) << k.what << " row " << i;
      indicator_contact(fn, k.u_off, k.r_off, mu, rho_n, rho_t, c);
      EXPECT_GT(std::hypot(c.phi[1], c.phi[2]), 1e-3) << k.what << ": phi must see the violation";
    }
}

}  // namespace
}  // namespace sinew::constraints::constraints_ncp_indicators_test
