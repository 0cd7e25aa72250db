// NCP functions of the Signorini-Coulomb conditions: every branch, its indicator split
// (omega, e) against central differences where the function is smooth, and its zeros.
#include "sinew/constraints/ncp_functions.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "sinew/constraints/natural_map.hpp"

namespace sinew::constraints::constraints_ncp_functions_test {
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

// Central differences of the full 3x3 blocks d phi / du and d phi / dr of a contact, against
// the exact Omega_c and E_c (the point must be away from the branch kinks).
void check_contact_fd(NcpFunction fn, const double* u, const double* r, double mu, double rho_n, double rho_t) {
  NcpContact c;
  contact_ncp(fn, u, r, mu, rho_n, rho_t, c);
  double norm = 0.0;
  for (int k = 0; k < 9; ++k) norm += std::fabs(c.omega[k]) + std::fabs(c.e[k]);
  EXPECT_GT(norm, 0.1);  // not trivially zero
  for (int j = 0; j < 3; ++j) {
    for (int wrt = 0; wrt < 2; ++wrt) {
      double xp[3] = {0.0, 0.0, 0.0}, xm[3] = {0.0, 0.0, 0.0}, yp[3], ym[3];
      const double* base = wrt == 0 ? u : r;
      const double* other = wrt == 0 ? r : u;
      for (int k = 0; k < 3; ++k) {
        xp[k] = xm[k] = base[k];
        yp[k] = ym[k] = other[k];
      }
      xp[j] += kStep;
      xm[j] -= kStep;
      NcpContact p, m;
      contact_ncp(fn, wrt == 0 ? xp : yp, wrt == 0 ? yp : xp, mu, rho_n, rho_t, p);
      contact_ncp(fn, wrt == 0 ? xm : ym, wrt == 0 ? ym : xm, mu, rho_n, rho_t, m);
      for (int k = 0; k < 3; ++k) {
        const double fd = (p.phi[k] - m.phi[k]) / (2 * kStep);
        const double exact = wrt == 0 ? c.omega[3 * k + j] : c.e[3 * k + j];
        EXPECT_NEAR(fd, exact, 1e-6 * (1.0 + std::fabs(exact)))
            << "d phi" << k << "/d" << (wrt == 0 ? "u" : "r") << j << " u=(" << u[0] << "," << u[1] << "," << u[2]
            << ") r=(" << r[0] << "," << r[1] << "," << r[2] << ")";
      }
    }
  }
}

constexpr NcpFunction kBoth[] = {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister};

TEST(ContactNcp, InactiveBranchDrivesImpulseToZero) {
  // r_n <= 0: min-map's friction disk is empty, phi_T = rho_t r_T; FB's cone function is smooth
  // there too (X outside K1). Both Jacobians are exact.
  const double u[3] = {0.5, 0.2, -0.1}, r[3] = {-0.2, 0.3, 0.1};
  NcpContact c;
  EXPECT_EQ(contact_ncp(NcpFunction::kMinMap, u, r, 0.5, 1.0, 2.0, c), RowState::kOpen);
  EXPECT_DOUBLE_EQ(c.phi[1], 0.6);
  EXPECT_DOUBLE_EQ(c.omega[4], 0.0);
  EXPECT_DOUBLE_EQ(c.e[8], 2.0);
  for (NcpFunction fn : kBoth) check_contact_fd(fn, u, r, 0.5, 1.0, 2.0);
  EXPECT_EQ(contact_ncp(NcpFunction::kFischerBurmeister, u, r, 0.5, 1.0, 2.0, c), RowState::kOpen);
  // Frictionless (mu = 0) active contact: unilateral normal, r_T driven to zero.
  const double ra[3] = {1.0, 0.3, 0.1};
  for (NcpFunction fn : kBoth) {
    contact_ncp(fn, u, ra, 0.0, 1.0, 2.0, c);
    EXPECT_DOUBLE_EQ(c.phi[2], 0.2);
    check_contact_fd(fn, u, ra, 0.0, 1.0, 2.0);
  }
}

TEST(ContactNcp, OpenNormalWithImpulseLeft) {
  // u_n > rho_n r_n > 0: the normal row drives r_n to 0 (min-map omega_nn = 0, e_nn = rho_n);
  // the friction rows still see the disk of radius mu r_n.
  const double u[3] = {2.0, 0.4, -0.3}, r[3] = {0.5, 0.1, 0.05};
  NcpContact c;
  contact_ncp(NcpFunction::kMinMap, u, r, 0.6, 1.5, 1.0, c);
  EXPECT_DOUBLE_EQ(c.phi[0], 0.75);
  EXPECT_DOUBLE_EQ(c.omega[0], 0.0);
  EXPECT_DOUBLE_EQ(c.e[0], 1.5);
  for (NcpFunction fn : kBoth) check_contact_fd(fn, u, r, 0.6, 1.5, 1.0);
}

TEST(ContactNcp, StickBranchIsExactNewton) {
  // Min-map stick: ||rho_t r_T - u_T|| <= rho_t mu r_n, so phi_T = u_T: Omega_TT = I, E_TT = 0.
  const double u[3] = {-0.1, 0.01, 0.02}, r[3] = {2.0, 0.3, -0.2};
  NcpContact c;
  EXPECT_EQ(contact_ncp(NcpFunction::kMinMap, u, r, 0.5, 1.0, 1.0, c), RowState::kStick);
  EXPECT_DOUBLE_EQ(c.phi[1], 0.01);
  EXPECT_DOUBLE_EQ(c.omega[4], 1.0);
  EXPECT_DOUBLE_EQ(c.e[4], 0.0);
  for (NcpFunction fn : kBoth) check_contact_fd(fn, u, r, 0.5, 1.0, 1.0);
  // A sticking solution (u = 0, r strictly inside the cone) is a zero of both functions.
  const double u0[3] = {0.0, 0.0, 0.0};
  for (NcpFunction fn : kBoth) {
    EXPECT_EQ(contact_ncp(fn, u0, r, 0.5, 1.0, 1.0, c), RowState::kStick);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.phi[k], 0.0, 1e-15);
  }
}

TEST(ContactNcp, SlipBranchFullBlockJacobian) {
  // Off the solution in the slip branch: the full 3x3 blocks (coupling r_n into the tangents
  // and the tangents with each other) match central differences for both functions.
  const double u[3] = {0.3, 0.8, -0.5}, r[3] = {1.2, -0.1, 0.4};
  NcpContact c;
  EXPECT_EQ(contact_ncp(NcpFunction::kMinMap, u, r, 0.4, 1.0, 2.0, c), RowState::kSlip);
  EXPECT_NE(c.e[3], 0.0);      // d phi_t1 / d r_n
  EXPECT_NE(c.omega[5], 0.0);  // d phi_t1 / d u_t2: not diagonal
  for (NcpFunction fn : kBoth) check_contact_fd(fn, u, r, 0.4, 1.0, 2.0);
  // Random points of every region for both functions (FB is smooth off degenerate points;
  // min-map off its kinks, which random points miss).
  unsigned state = 12345u;
  auto uni = [&] {
    state = state * 1664525u + 1013904223u;
    return 2.0 * (state >> 8) / double(1u << 24) - 1.0;
  };
  for (int trial = 0; trial < 40; ++trial) {
    const double uu[3] = {uni(), uni(), uni()}, rr[3] = {uni() + 0.3, uni(), uni()};
    for (NcpFunction fn : kBoth) check_contact_fd(fn, uu, rr, 0.3 + 0.5 * std::fabs(uni()), 0.7, 1.3);
  }
}

TEST(ContactNcp, SlipBranchZeroAtCoulombSlip) {
  // Sliding at the cone boundary with the friction opposite the slip velocity, u_n = 0.
  const double mu = 0.4, rn = 3.0;
  const double dir[2] = {0.6, -0.8};
  const double u[3] = {0.0, 0.5 * dir[0], 0.5 * dir[1]};
  const double r[3] = {rn, -mu * rn * dir[0], -mu * rn * dir[1]};
  for (NcpFunction fn : kBoth) {
    NcpContact c;
    EXPECT_EQ(contact_ncp(fn, u, r, mu, 1.0, 2.0, c), RowState::kSlip);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.phi[k], 0.0, 1e-14) << k;
    EXPECT_LT(contact_natural_map_squared(u, r, mu), 1e-28);
    check_contact_fd(fn, u, r, mu, 1.0, 2.0);  // strictly complementary: smooth at the solution
  }
  // Friction along the slip (wrong sign) is not a zero.
  const double wrong[3] = {rn, mu * rn * dir[0], mu * rn * dir[1]};
  for (NcpFunction fn : kBoth) {
    NcpContact c;
    contact_ncp(fn, u, wrong, mu, 1.0, 2.0, c);
    EXPECT_GT(std::fabs(c.phi[0]) + std::fabs(c.phi[1]) + std::fabs(c.phi[2]), 0.2);
  }
  EXPECT_GT(contact_natural_map_squared(u, wrong, mu), 0.1);
  // A separating contact (r = 0, u_n > 0, any u_T) is a zero of both.
  const double sep_u[3] = {0.7, 0.2, -0.4}, zero[3] = {0.0, 0.0, 0.0};
  for (NcpFunction fn : kBoth) {
    NcpContact c;
    contact_ncp(fn, sep_u, zero, mu, 1.0, 2.0, c);
    for (int k = 0; k < 3; ++k) EXPECT_NEAR(c.phi[k], 0.0, 1e-15) << k;
  }
}

TEST(SocFischerBurmeister, ZeroExactlyOnConeComplementarity) {
  double phi[3], dx[9], dy[9];
  // x, y on the boundary, orthogonal: complementary.
  const double x[3] = {1.0, 0.6, 0.8}, y[3] = {2.0, -1.2, -1.6};
  soc_fischer_burmeister(x, y, phi, dx, dy);
  for (double v : phi) EXPECT_NEAR(v, 0.0, 1e-14);
  // Not orthogonal: nonzero.
  const double y2[3] = {2.0, 1.2, 1.6};
  soc_fischer_burmeister(x, y2, phi, dx, dy);
  EXPECT_GT(std::fabs(phi[0]) + std::fabs(phi[1]) + std::fabs(phi[2]), 0.1);
  // The kink x = y = 0 gets (1 - 1/sqrt2) I for both parts.
  const double z[3] = {0.0, 0.0, 0.0};
  soc_fischer_burmeister(z, z, phi, dx, dy);
  EXPECT_NEAR(dx[0], 1.0 - 1.0 / std::sqrt(2.0), 1e-15);
  EXPECT_NEAR(dy[8], 1.0 - 1.0 / std::sqrt(2.0), 1e-15);
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
}  // namespace sinew::constraints::constraints_ncp_functions_test
