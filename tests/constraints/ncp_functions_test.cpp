// NCP functions of the Signorini-Coulomb conditions: every branch, its indicator split
// (omega, e) against central differences where the function is smooth, and its zeros.
#include "sinew/constraints/ncp_functions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sinew/constraints/natural_map.hpp"

namespace sinew::constraints {
namespace {

constexpr double kStep = 1e-6;

// Central-difference d phi / du and d phi / dr of a unilateral row.
void check_unilateral_fd(NcpFunction fn, double u, double r, double rho) {
  NcpRow row, plus, minus;
  unilateral_ncp(fn, u, r, rho, row);
  unilateral_ncp(fn, u + kStep, r, rho, plus);
  unilateral_ncp(fn, u - kStep, r, rho, minus);
  const double du = (plus.phi - minus.phi) / (2 * kStep);
  unilateral_ncp(fn, u, r + kStep, rho, plus);
  unilateral_ncp(fn, u, r - kStep, rho, minus);
  const double dr = (plus.phi - minus.phi) / (2 * kStep);
  EXPECT_NEAR(row.omega, du, 1e-7) << "u=" << u << " r=" << r;
  EXPECT_NEAR(row.e, dr, 1e-7) << "u=" << u << " r=" << r;
  // Not trivially zero: one of the derivatives carries the row.
  EXPECT_GT(std::fabs(row.omega) + std::fabs(row.e), 0.1);
}

TEST(UnilateralNcp, MinMapBranchesAndJacobian) {
  NcpRow row;
  // Closed: u <= rho r, phi = u (drives the velocity to zero), omega = 1, e = 0.
  EXPECT_EQ(unilateral_ncp(NcpFunction::kMinMap, -0.3, 2.0, 0.5, row), RowState::kClosed);
  EXPECT_DOUBLE_EQ(row.phi, -0.3);
  EXPECT_DOUBLE_EQ(row.omega, 1.0);
  EXPECT_DOUBLE_EQ(row.e, 0.0);
  check_unilateral_fd(NcpFunction::kMinMap, -0.3, 2.0, 0.5);
  // Open: u > rho r, phi = rho r (drives the impulse to zero), omega = 0, e = rho.
  EXPECT_EQ(unilateral_ncp(NcpFunction::kMinMap, 1.5, 0.2, 0.5, row), RowState::kOpen);
  EXPECT_DOUBLE_EQ(row.phi, 0.1);
  EXPECT_DOUBLE_EQ(row.omega, 0.0);
  EXPECT_DOUBLE_EQ(row.e, 0.5);
  check_unilateral_fd(NcpFunction::kMinMap, 1.5, 0.2, 0.5);
}

TEST(UnilateralNcp, FischerBurmeisterJacobianAndZeros) {
  const double points[][2] = {{-0.3, 2.0}, {1.5, 0.2}, {0.7, -0.4}, {-1.0, -1.0}, {2.0, 3.0}};
  for (const auto& p : points) check_unilateral_fd(NcpFunction::kFischerBurmeister, p[0], p[1], 0.8);
  NcpRow row;
  // Zero exactly on the complementarity set, nonzero off it.
  unilateral_ncp(NcpFunction::kFischerBurmeister, 0.0, 3.0, 0.8, row);
  EXPECT_NEAR(row.phi, 0.0, 1e-15);
  unilateral_ncp(NcpFunction::kFischerBurmeister, 2.0, 0.0, 0.8, row);
  EXPECT_NEAR(row.phi, 0.0, 1e-15);
  unilateral_ncp(NcpFunction::kFischerBurmeister, 1.0, 1.0, 0.8, row);
  EXPECT_GT(std::fabs(row.phi), 0.1);
  unilateral_ncp(NcpFunction::kFischerBurmeister, -1.0, 1.0, 0.8, row);
  EXPECT_LT(row.phi, -0.5);
  // The kink (0, 0) gets an element of the generalized Jacobian with both parts positive.
  unilateral_ncp(NcpFunction::kFischerBurmeister, 0.0, 0.0, 0.8, row);
  EXPECT_GT(row.omega, 0.0);
  EXPECT_GT(row.e, 0.0);
}

// Central differences of all three rows of a contact with respect to u and r.
void check_contact_fd(NcpFunction fn, const double* u, const double* r, double mu, double rho_n, double rho_t) {
  NcpRow rows[3];
  contact_ncp(fn, u, r, mu, rho_n, rho_t, rows);
  for (int k = 0; k < 3; ++k) {
    for (int j = 0; j < 3; ++j) {
      double up[3] = {u[0], u[1], u[2]}, um[3] = {u[0], u[1], u[2]};
      up[j] += kStep;
      um[j] -= kStep;
      NcpRow p[3], m[3];
      contact_ncp(fn, up, r, mu, rho_n, rho_t, p);
      contact_ncp(fn, um, r, mu, rho_n, rho_t, m);
      EXPECT_NEAR((p[k].phi - m[k].phi) / (2 * kStep), j == k ? rows[k].omega : 0.0, 1e-7)
          << "d phi" << k << "/du" << j;
      double rp[3] = {r[0], r[1], r[2]}, rm[3] = {r[0], r[1], r[2]};
      rp[j] += kStep;
      rm[j] -= kStep;
      contact_ncp(fn, u, rp, mu, rho_n, rho_t, p);
      contact_ncp(fn, u, rm, mu, rho_n, rho_t, m);
      EXPECT_NEAR((p[k].phi - m[k].phi) / (2 * kStep), j == k ? rows[k].e : 0.0, 1e-7) << "d phi" << k << "/dr" << j;
    }
  }
}

TEST(ContactNcp, OpenBranchDrivesImpulseToZero) {
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    const double u[3] = {0.5, 0.2, -0.1}, r[3] = {-0.2, 0.3, 0.1};
    NcpRow rows[3];
    EXPECT_EQ(contact_ncp(fn, u, r, 0.5, 1.0, 1.0, rows), RowState::kOpen);
    EXPECT_DOUBLE_EQ(rows[1].phi, 0.3);
    EXPECT_DOUBLE_EQ(rows[1].omega, 0.0);
    EXPECT_DOUBLE_EQ(rows[2].e, 1.0);
    check_contact_fd(fn, u, r, 0.5, 1.0, 1.0);
  }
}

TEST(ContactNcp, StickBranchIsExactNewton) {
  // Min-map stick: ||u_T|| <= rho_t (mu r_n - ||r_T||) so phi_T = u_T, omega = 1, e = 0, and the
  // split is the exact derivative.
  const double u[3] = {-0.1, 0.01, 0.02}, r[3] = {2.0, 0.3, -0.2};
  NcpRow rows[3];
  EXPECT_EQ(contact_ncp(NcpFunction::kMinMap, u, r, 0.5, 1.0, 1.0, rows), RowState::kStick);
  EXPECT_DOUBLE_EQ(rows[1].phi, 0.01);
  EXPECT_DOUBLE_EQ(rows[2].e, 0.0);
  check_contact_fd(NcpFunction::kMinMap, u, r, 0.5, 1.0, 1.0);
  // A sticking solution (u = 0, r strictly inside the cone) is a zero of both functions.
  const double u0[3] = {0.0, 0.0, 0.0};
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    EXPECT_EQ(contact_ncp(fn, u0, r, 0.5, 1.0, 1.0, rows), RowState::kStick);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(rows[k].phi, 0.0, 1e-15);
  }
}

TEST(ContactNcp, SlipBranchZeroAtCoulombSlip) {
  // Sliding at the cone boundary with the friction opposite the slip velocity, u_n = 0.
  const double mu = 0.4, rn = 3.0;
  const double dir[2] = {0.6, -0.8};
  const double u[3] = {0.0, 0.5 * dir[0], 0.5 * dir[1]};
  const double r[3] = {rn, -mu * rn * dir[0], -mu * rn * dir[1]};
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    NcpRow rows[3];
    EXPECT_EQ(contact_ncp(fn, u, r, mu, 1.0, 2.0, rows), RowState::kSlip);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(rows[k].phi, 0.0, 1e-14) << k;
    EXPECT_NEAR(rows[1].e, 0.5 / (mu * rn), 1e-14);  // E_f = ||u_T|| / (mu r_n) at the solution
    EXPECT_LT(contact_natural_map_squared(u, r, mu), 1e-28);
  }
  // Friction along the slip (wrong sign) is not a zero.
  const double wrong[3] = {rn, mu * rn * dir[0], mu * rn * dir[1]};
  NcpRow rows[3];
  contact_ncp(NcpFunction::kMinMap, u, wrong, mu, 1.0, 2.0, rows);
  EXPECT_GT(std::fabs(rows[1].phi) + std::fabs(rows[2].phi), 0.5);
  EXPECT_GT(contact_natural_map_squared(u, wrong, mu), 0.1);
}

TEST(ConeProjection, AllThreeRegions) {
  const double mu = 0.5;
  double inside[3] = {2.0, 0.3, 0.4};
  project_on_cone(inside, mu);
  EXPECT_DOUBLE_EQ(inside[1], 0.3);
  double polar[3] = {-2.0, 0.3, 0.4};
  project_on_cone(polar, mu);
  EXPECT_EQ(polar[0], 0.0);
  EXPECT_EQ(polar[2], 0.0);
  const double x[3] = {1.0, 3.0, 4.0};
  double p[3] = {x[0], x[1], x[2]};
  project_on_cone(p, mu);
  EXPECT_NEAR(std::hypot(p[1], p[2]), mu * p[0], 1e-14);                                        // on the boundary
  EXPECT_NEAR((x[0] - p[0]) * p[0] + (x[1] - p[1]) * p[1] + (x[2] - p[2]) * p[2], 0.0, 1e-13);  // x - p _|_ p
  EXPECT_NEAR((1.0 + mu * 5.0) / (1.0 + mu * mu), p[0], 1e-14);
}

}  // namespace
}  // namespace sinew::constraints
