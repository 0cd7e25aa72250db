// Spatial inertia (mechanics notes sec. 0.1) against a body made of random point masses: the
// 6x6 matrix, closed-form inverse, factor G G^T and solve against Eigen, momentum and kinetic
// energy against point-mass sums; the fictitious force against d/dt of the momentum of a
// prescribed motion (finite differences); a torque-free body integrated with the exact
// exponential-map update conserves world angular momentum and energy; bad input is rejected.
#include "sinew/core/spatial_inertia.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

#include "expect_error.hpp"
#include "rigid_test_util.hpp"
#include "sinew/core/quaternion.hpp"

namespace sinew::core_spatial_inertia_test {
namespace {

using test::to_eigen;
using Mat6 = Eigen::Matrix<double, 6, 6>;
using Vec6 = Eigen::Matrix<double, 6, 1>;

struct PointMass {
  double m;
  Vec3 x;  // position in the body frame
};

// A random cloud of point masses (not all collinear) around an offset centre.
std::vector<PointMass> random_body(test::Rng& rng, int n) {
  std::vector<PointMass> pts;
  const Vec3 centre = 2.0 * rng.vec();
  for (int i = 0; i < n; ++i) pts.push_back({1.5 + rng.scalar(), centre + rng.vec()});
  return pts;
}

// m, c and J about c from the points: J = sum m_i (|r_i|^2 I - r_i r_i^T), r_i = x_i - c.
SpatialInertia inertia_of(const std::vector<PointMass>& pts) {
  double m = 0.0;
  Vec3 mc{{0, 0, 0}};
  for (const auto& p : pts) {
    m += p.m;
    mc = mc + p.m * p.x;
  }
  const Vec3 c = (1.0 / m) * mc;
  Mat3 J{};
  for (const auto& p : pts) {
    const Vec3 r = p.x - c;
    J = J + p.m * (squared_norm(r) * identity3() - outer_product(r, r));
  }
  return make_spatial_inertia(m, c, J);
}

// Sum over points of the point-mass spatial inertia [m I, -m[x]; m[x], -m[x][x]] (sec. 0.19).
Mat6 point_sum_matrix(const std::vector<PointMass>& pts) {
  Mat6 M = Mat6::Zero();
  for (const auto& p : pts) {
    const Eigen::Matrix3d X = to_eigen(cross_matrix(p.x));
    M.block<3, 3>(0, 0) += p.m * Eigen::Matrix3d::Identity();
    M.block<3, 3>(0, 3) -= p.m * X;
    M.block<3, 3>(3, 0) += p.m * X;
    M.block<3, 3>(3, 3) -= p.m * X * X;
  }
  return M;
}

TEST(SpatialInertia, MatrixInverseAndFactorMatchPointMasses) {
  test::Rng rng(21);
  for (int t = 0; t < 50; ++t) {
    const auto pts = random_body(rng, 4 + t % 5);
    const SpatialInertia I = inertia_of(pts);
    const Mat6 M = to_eigen(spatial_inertia_matrix(I));
    const Mat6 Mref = point_sum_matrix(pts);
    EXPECT_LE((M - Mref).norm(), 1e-12 * Mref.norm()) << M << "\n\n" << Mref;
    EXPECT_LE((M - M.transpose()).norm(), 1e-13 * M.norm());
    SpatialInertiaFactor F{};
    ASSERT_TRUE(factorize_inertia(I, F));
    const Mat6 G = to_eigen(factor_matrix(F));
    EXPECT_LE((G * G.transpose() - M).norm(), 1e-12 * M.norm());
    const Mat6 Minv = to_eigen(spatial_inertia_inverse(F));
    EXPECT_LE((Minv * M - Mat6::Identity()).norm(), 1e-12);
    EXPECT_LE((Minv - M.inverse()).norm(), 1e-12 * M.inverse().norm());
    EXPECT_LE((to_eigen(inverse_rotational_inertia(F)) * to_eigen(I.J) - Eigen::Matrix3d::Identity()).norm(), 1e-12);
    for (int k = 0; k < 5; ++k) {
      const Wrench f = rng.wrench();
      const Vec6 a = to_eigen(solve_inertia(F, f));
      const Vec6 ref = M.ldlt().solve(to_eigen(f));
      EXPECT_LE((a - ref).norm(), 1e-12 * (1.0 + ref.norm()));
      EXPECT_LE((M * a - to_eigen(f)).norm(), 1e-12 * (1.0 + to_eigen(f).norm()));
    }
  }
}

// Momentum and energy of the rigid velocity field u(x) = v + w x x summed over the points.
TEST(SpatialInertia, MomentumAndEnergyMatchPointMassSums) {
  test::Rng rng(22);
  for (int t = 0; t < 50; ++t) {
    const auto pts = random_body(rng, 6);
    const SpatialInertia I = inertia_of(pts);
    const Twist V = 2.0 * rng.twist();
    Vec3 P{{0, 0, 0}}, H{{0, 0, 0}};
    double T = 0.0;
    for (const auto& p : pts) {
      const Vec3 u = point_velocity(V, p.x);
      P = P + p.m * u;
      H = H + p.m * cross(p.x, u);  // about the frame origin
      T += 0.5 * p.m * squared_norm(u);
    }
    const Wrench L = momentum(I, V);
    EXPECT_LE(norm(L.f - P), 1e-12 * (1 + norm(P)));
    EXPECT_LE(norm(L.tau - H), 1e-12 * (1 + norm(H)));
    EXPECT_NEAR(kinetic_energy(I, V), T, 1e-12 * T);
    EXPECT_LE((to_eigen(spatial_inertia_matrix(I)) * to_eigen(V) - to_eigen(L)).norm(), 1e-12 * (1 + norm(H)));
  }
}

// Prescribed motion in world-aligned coordinates at the body origin: R(t) = exp(t a) exp(t b) R0,
// so w(t) = a + E(t) b and wdot = a x (E b) with E = rot(exp(t a)); p(t) = p0 + t v0 + t^2 c0.
// Newton-Euler about the moving origin: f = dP/dt, tau = dH/dt + v x P with (P, H) = M_w V. The
// fictitious force must close M_w (pddot, wdot) = (f, tau) + g(w).
TEST(SpatialInertia, FictitiousForceMatchesMomentumRate) {
  test::Rng rng(23);
  for (int t = 0; t < 30; ++t) {
    const SpatialInertia Ib = inertia_of(random_body(rng, 5));
    const Mat3 R0 = rng.rotation();
    const Vec3 a = 2.0 * rng.vec(), b = 2.0 * rng.vec(), v0 = rng.vec(), c0 = rng.vec();
    const double t0 = rng.scalar();
    const auto rot = [&](double tt) {
      return rotation_matrix(quat_exp(tt * a)) * rotation_matrix(quat_exp(tt * b)) * R0;
    };
    const auto omega = [&](double tt) { return a + rotation_matrix(quat_exp(tt * a)) * b; };
    const auto vel = [&](double tt) { return v0 + (2 * tt) * c0; };
    const auto mom = [&](double tt) { return momentum(rotate_inertia(Ib, rot(tt)), Twist{vel(tt), omega(tt)}); };
    const double h = 1e-4;
    const Wrench Lp = mom(t0 + h), Lm = mom(t0 - h), L0 = mom(t0);
    const Vec3 f = (0.5 / h) * (Lp.f - Lm.f);
    const Vec3 tau = (0.5 / h) * (Lp.tau - Lm.tau) + cross(vel(t0), L0.f);
    const SpatialInertia Iw = rotate_inertia(Ib, rot(t0));
    const Vec3 w = omega(t0);
    const Twist acc{2.0 * c0, cross(a, rotation_matrix(quat_exp(t0 * a)) * b)};
    const Wrench lhs = momentum(Iw, acc);  // M_w (pddot, wdot)
    const Wrench g = fictitious_force(Iw, w);
    const double scale = norm(g.f) + norm(g.tau) + norm(lhs.f) + norm(lhs.tau);
    EXPECT_LE(norm(lhs.f - (f + g.f)), 1e-7 * scale);
    EXPECT_LE(norm(lhs.tau - (tau + g.tau)), 1e-7 * scale);
    // The check is not blind to g: it is far from zero here.
    EXPECT_GT(norm(g.f) + norm(g.tau), 1e-2 * scale);
    // Body-frame reading of the same law: g transforms covariantly with the rotation.
    const Mat3 R = rot(t0);
    const Wrench gb = fictitious_force(Ib, transpose_times(R, w));
    EXPECT_LE(norm(R * gb.f - g.f) + norm(R * gb.tau - g.tau), 1e-12 * scale);
  }
}

// Torque-free body, c = 0, body angular velocity w_b: Euler's equations J wdot = -w x J w (the
// fictitious torque) by classical RK4, and the rotation by the exact exponential map with the
// midpoint velocity: w_{1/2} = RK4 over h/2; q_{k+1} = q_k exp(h w_{1/2}) (body frame);
// w_{k+1} = RK4 over h/2 from w_{1/2} (an exponential midpoint / Strang splitting, second
// order in the rotation). World angular momentum R J w_b and energy are conserved to O(h^2).
struct FreeBody {
  SpatialInertia I;
  SpatialInertiaFactor F;
  Vec3 wdot(const Vec3& w) const { return solve_inertia(F, fictitious_force(I, w)).w; }
  Vec3 rk4(const Vec3& w, double h) const {
    const Vec3 k1 = wdot(w), k2 = wdot(w + (0.5 * h) * k1), k3 = wdot(w + (0.5 * h) * k2), k4 = wdot(w + h * k3);
    return w + (h / 6.0) * (k1 + 2.0 * k2 + 2.0 * k3 + k4);
  }
};

void integrate_free_body(bool body_frame_update, double* drift_L, double* drift_E) {
  const Mat3 J{{2.0, 0.1, -0.2, 0.1, 3.0, 0.3, -0.2, 0.3, 5.0}};
  FreeBody b{make_spatial_inertia(1.3, Vec3{{0, 0, 0}}, J), {}};
  EXPECT_TRUE(factorize_inertia(b.I, b.F));
  Quaternion q = normalized(Quaternion{0.9, Vec3{{0.1, -0.3, 0.2}}});
  Vec3 w{{0.4, 2.0, 0.3}};  // near the unstable middle axis: a non-trivial tumble
  const auto world_L = [&]() { return rotate(q, J * w); };
  const Vec3 L0 = world_L();
  const double E0 = kinetic_energy(b.I, Twist{Vec3{{0, 0, 0}}, w});
  const double h = 1e-3;
  double dL = 0.0, dE = 0.0;
  for (int k = 0; k < 10000; ++k) {
    const Vec3 wm = b.rk4(w, 0.5 * h);
    q = body_frame_update ? quat_step_body(q, wm, h) : quat_step_world(q, wm, h);
    w = b.rk4(wm, 0.5 * h);
    dL = std::fmax(dL, norm(world_L() - L0) / norm(L0));
    dE = std::fmax(dE, std::fabs(kinetic_energy(b.I, Twist{Vec3{{0, 0, 0}}, w}) - E0) / E0);
  }
  *drift_L = dL;
  *drift_E = dE;
}

TEST(SpatialInertia, TorqueFreeBodyConservesWorldMomentumAndEnergy) {
  double dL = 1, dE = 1;
  integrate_free_body(true, &dL, &dE);
  EXPECT_LT(dL, 1e-6);
  EXPECT_LT(dE, 1e-10);
  // The same scheme with the body velocity wrongly used as a world velocity drifts by O(1):
  // the bound above separates a correct rotation update from a wrong one.
  integrate_free_body(false, &dL, &dE);
  EXPECT_GT(dL, 1e-2);
}

TEST(SpatialInertia, RejectsBadInput) {
  const Mat3 J{{2, 0, 0, 0, 3, 0, 0, 0, 4}};
  const Vec3 c{{0.1, 0.2, 0.3}};
  EXPECT_SINEW_ERROR(make_spatial_inertia(0.0, c, J), "mass", "> 0", "m = 0");
  EXPECT_SINEW_ERROR(make_spatial_inertia(-2.5, c, J), "mass", "m = -2.5");
  EXPECT_SINEW_ERROR(make_spatial_inertia(std::nan(""), c, J), "mass", "finite");
  EXPECT_SINEW_ERROR(make_spatial_inertia(1.0, Vec3{{0, INFINITY, 0}}, J), "centre of mass", "finite");
  Mat3 Jn = J;
  Jn(0, 1) = 0.5;
  EXPECT_SINEW_ERROR(make_spatial_inertia(1.0, c, Jn), "symmetric", "J(0,1) = 0.5", "J(1,0) = 0");
  const Mat3 Jind{{1, 0, 0, 0, -1, 0, 0, 0, 1}};
  EXPECT_SINEW_ERROR(make_spatial_inertia(1.0, c, Jind), "positive definite", "J");
  const Mat3 Jsing{{1, 1, 0, 1, 1, 0, 0, 0, 1}};
  EXPECT_SINEW_ERROR(make_spatial_inertia(1.0, c, Jsing), "positive definite");
  SpatialInertiaFactor F{};
  EXPECT_FALSE(factorize_inertia(SpatialInertia{1.0, c, Jind}, F));
  EXPECT_FALSE(factorize_inertia(SpatialInertia{-1.0, c, J}, F));
  EXPECT_NO_THROW(make_spatial_inertia(1.0, c, J));
}

}  // namespace
}  // namespace sinew::core_spatial_inertia_test
