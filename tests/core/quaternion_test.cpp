// Quaternion algebra against Eigen::Quaterniond, exp/log round trips at tiny angles and near pi,
// exp against Eigen::AngleAxisd, the derivative relations of mechanics notes sec. 0.2 against
// finite differences, and the exact world/body rotation updates.
#include "sinew/core/quaternion.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "rigid_test_util.hpp"

namespace sinew::core_quaternion_test {
namespace {

constexpr double kEps = std::numeric_limits<double>::epsilon();
const double kPi = std::acos(-1.0);

using test::to_eigen;
using Rng = test::Rng;
Eigen::Quaterniond to_eigen(const Quaternion& q) { return Eigen::Quaterniond(q.s, q.v[0], q.v[1], q.v[2]); }

// Distance between two rotations given as quaternions, blind to the sign q ~ -q.
double rot_dist(const Quaternion& a, const Quaternion& b) {
  const Eigen::Vector4d x(a.s, a.v[0], a.v[1], a.v[2]), y(b.s, b.v[0], b.v[1], b.v[2]);
  return std::min((x - y).norm(), (x + y).norm());
}

TEST(Quaternion, ProductConjugateRotateMatchEigen) {
  Rng rng(7);
  for (int t = 0; t < 200; ++t) {
    const Quaternion q = rng.quat(), p = rng.quat();
    const Vec3 x = rng.vec();
    const Eigen::Quaterniond qe = to_eigen(q), pe = to_eigen(p);
    EXPECT_LE((to_eigen(q * p).coeffs() - (qe * pe).coeffs()).norm(), 8 * kEps);
    EXPECT_LE((to_eigen(conjugate(q)).coeffs() - qe.conjugate().coeffs()).norm(), 0.0);
    EXPECT_LE((to_eigen(rotate(q, x)) - qe * to_eigen(x)).norm(), 16 * kEps);
    EXPECT_LE((to_eigen(rotation_matrix(q)) - qe.toRotationMatrix()).norm(), 16 * kEps);
    // q (0, x) q^-1 of sec. 0.2 written out with the product.
    const Quaternion r = q * Quaternion{0.0, x} * conjugate(q);
    EXPECT_NEAR(r.s, 0.0, 8 * kEps);
    EXPECT_LE(norm(r.v - rotate(q, x)), 16 * kEps);
    // The product composes rotations: p first, then q.
    EXPECT_LE(norm(rotate(q * p, x) - rotate(q, rotate(p, x))), 16 * kEps);
  }
}

TEST(Quaternion, NormalizedAndIdentity) {
  const Quaternion q = normalized(Quaternion{2.0, Vec3{{0.0, -2.0, 1.0}}});
  EXPECT_NEAR(norm(q), 1.0, 2 * kEps);
  EXPECT_NEAR(q.s, 2.0 / 3.0, 2 * kEps);
  EXPECT_NEAR(q.v[1], -2.0 / 3.0, 2 * kEps);
  const Quaternion z = normalized(Quaternion{0.0, Vec3{{0, 0, 0}}});
  EXPECT_EQ(z.s, 1.0);
  EXPECT_EQ(norm(z.v), 0.0);
  const Vec3 x{{0.3, -0.2, 0.9}};
  EXPECT_EQ(norm(rotate(quat_identity(), x) - x), 0.0);
}

TEST(Quaternion, RotationMatrixRoundTripAllAngles) {
  Rng rng(7);
  for (int t = 0; t < 400; ++t) {
    Quaternion q = rng.quat();
    if (t % 4 == 1) q = quat_from_axis_angle(rng.unit(), kPi - 1e-9 * (t % 7));  // near pi
    if (t % 4 == 2) q = quat_from_axis_angle(rng.unit(), 1e-10 * t);             // near identity
    const Mat3 R = rotation_matrix(q);
    const Quaternion back = quat_from_rotation_matrix(R);
    EXPECT_GE(back.s, 0.0);
    EXPECT_LE(rot_dist(back, q), 32 * kEps) << "t=" << t;
    EXPECT_LE((to_eigen(rotation_matrix(back)) - to_eigen(R)).norm(), 32 * kEps);
  }
  // Exactly pi about each axis: the trace branch is not taken.
  for (int i = 0; i < 3; ++i) {
    Vec3 u{{0, 0, 0}};
    u[i] = 1.0;
    const Quaternion q = quat_from_axis_angle(u, kPi);
    EXPECT_LE(rot_dist(quat_from_rotation_matrix(rotation_matrix(q)), q), 8 * kEps);
  }
}

TEST(QuaternionExp, MatchesAngleAxis) {
  Rng rng(7);
  for (int t = 0; t < 300; ++t) {
    const Vec3 u = rng.unit();
    const double theta = t == 0 ? 0.0 : (t % 3 == 0 ? 1e-12 * t : 3.0 * (rng.scalar() + 1.0) / 2.0 + 0.1);
    const Vec3 phi = theta * u;
    const Quaternion q = quat_exp(phi);
    const Eigen::Quaterniond ref(Eigen::AngleAxisd(theta, to_eigen(u)));
    EXPECT_LE((to_eigen(q).coeffs() - ref.coeffs()).norm(), 8 * kEps) << "theta=" << theta;
    EXPECT_NEAR(norm(q), 1.0, 4 * kEps);
  }
  EXPECT_EQ(quat_exp(Vec3{{0, 0, 0}}).s, 1.0);
}

TEST(QuaternionExp, LogRoundTripTinyMediumNearPi) {
  Rng rng(7);
  const double angles[] = {0.0, 1e-300, 1e-15, 1e-12, 1e-9,       1e-6,        9.99e-4, 1.001e-3,
                           0.1, 1.0,    2.5,   3.0,   kPi - 1e-6, kPi - 1e-12, kPi};
  for (double theta : angles) {
    for (int t = 0; t < 20; ++t) {
      const Vec3 phi = theta * rng.unit();
      const Vec3 back = quat_log(quat_exp(phi));
      // Relative accuracy for the rotation vector, except at exactly pi where +-pi u are equal.
      if (theta < kPi - 1e-9) {
        EXPECT_LE(norm(back - phi), 8 * kEps * std::max(theta, 1e-300)) << "theta=" << theta;
      } else {
        EXPECT_NEAR(norm(back), theta, 8 * kEps);
        EXPECT_LE(std::min(norm(back - phi), norm(back + phi)), 64 * kEps) << "theta=" << theta;
        EXPECT_LE(rot_dist(quat_exp(back), quat_exp(phi)), 8 * kEps);
      }
      // exp(log(q)) = q up to sign, for q and for -q (log picks theta <= pi).
      const Quaternion q = quat_exp(phi);
      EXPECT_LE(rot_dist(quat_exp(quat_log(q)), q), 8 * kEps);
      EXPECT_LE(rot_dist(quat_exp(quat_log(-1.0 * q)), q), 8 * kEps);
      EXPECT_LE(norm(quat_log(-1.0 * q)), kPi + 8 * kEps);
    }
  }
  // A rotation past pi comes back as the equivalent shorter one.
  const Vec3 u{{0.0, 0.6, 0.8}};
  EXPECT_LE(norm(quat_log(quat_exp(4.0 * u)) - (4.0 - 2 * kPi) * u), 16 * kEps);
  // log does not depend on the scale of q.
  const Quaternion q = quat_exp(Vec3{{0.3, -0.4, 1.2}});
  EXPECT_LE(norm(quat_log(3.0 * q) - quat_log(q)), 8 * kEps);
}

// d/dt exp(t w) q = 1/2 (0, w) exp(t w) q (eq. 0.1) and d/dt q exp(t w) = 1/2 q exp(t w) (0, w),
// checked by central differences; the error shrinks as h^2.
TEST(QuaternionExp, DerivativeMatchesFiniteDifferences) {
  Rng rng(7);
  for (int t = 0; t < 50; ++t) {
    const Quaternion q0 = rng.quat();
    const Vec3 w = 2.0 * rng.vec();
    const double t0 = rng.scalar();
    const auto world = [&](double tt) { return quat_exp(tt * w) * q0; };
    const auto body = [&](double tt) { return q0 * quat_exp(tt * w); };
    double err_prev[2] = {0, 0};
    for (double h : {1e-3, 5e-4}) {
      const Quaternion dw =
          (0.5 / h) * Quaternion{world(t0 + h).s - world(t0 - h).s, world(t0 + h).v - world(t0 - h).v};
      const Quaternion db = (0.5 / h) * Quaternion{body(t0 + h).s - body(t0 - h).s, body(t0 + h).v - body(t0 - h).v};
      const Quaternion aw = quat_derivative_world(world(t0), w), ab = quat_derivative_body(body(t0), w);
      const double ew = std::hypot(dw.s - aw.s, norm(dw.v - aw.v));
      const double eb = std::hypot(db.s - ab.s, norm(db.v - ab.v));
      EXPECT_LE(ew, 1e-6 * (1 + norm(w) * norm(w) * norm(w)));
      EXPECT_LE(eb, 1e-6 * (1 + norm(w) * norm(w) * norm(w)));
      if (err_prev[0] > 1e-12) {
        EXPECT_LT(ew, 0.3 * err_prev[0]);  // second order: ratio 1/4
        EXPECT_LT(eb, 0.3 * err_prev[1]);
      }
      err_prev[0] = ew;
      err_prev[1] = eb;
    }
    // A world velocity and the same velocity in body coordinates, R^T w, give the same qdot.
    const Quaternion aw = quat_derivative_world(q0, w), ab = quat_derivative_body(q0, rotate(conjugate(q0), w));
    EXPECT_LE(std::hypot(aw.s - ab.s, norm(aw.v - ab.v)), 16 * kEps);  // same motion, w mapped to body
  }
}

// The exact updates rotate by exactly h w: log(q_{k+1} q_k^-1) = h w (world) and
// log(q_k^-1 q_{k+1}) = h w (body), from tiny to large steps, and steps do not accumulate error.
TEST(QuaternionExp, StepWorldAndBodyAreExactForConstantVelocity) {
  Rng rng(7);
  for (int t = 0; t < 50; ++t) {
    const Quaternion q = rng.quat();
    const Vec3 w = 3.0 * rng.vec();
    for (double h : {1e-12, 1e-6, 1e-2, 0.5}) {
      const Quaternion qw = quat_step_world(q, w, h);
      EXPECT_LE(norm(quat_log(qw * conjugate(q)) - h * w), 16 * kEps * std::max(1.0, h * norm(w))) << h;
      const Quaternion qb = quat_step_body(q, w, h);
      EXPECT_LE(norm(quat_log(conjugate(q) * qb) - h * w), 16 * kEps * std::max(1.0, h * norm(w))) << h;
      // Body velocity w is world velocity R w: the two updates agree.
      EXPECT_LE(rot_dist(quat_step_world(q, rotate(q, w), h), qb), 16 * kEps);
    }
    // Many small steps equal one big one (exactness, no accumulation of truncation error).
    Quaternion qs = q;
    for (int k = 0; k < 1000; ++k) qs = quat_step_world(qs, w, 1e-3);
    EXPECT_LE(rot_dist(qs, quat_step_world(q, w, 1.0)), 1e-12);
  }
}

TEST(Quaternion, EigenMatrixInput) {
  Rng rng(7);
  for (int t = 0; t < 50; ++t) {
    const Eigen::Quaterniond e(Eigen::AngleAxisd(3.1 * (rng.scalar() + 1) / 2, to_eigen(rng.unit())));
    const Quaternion q = quat_from_rotation_matrix(to_mat3(e.toRotationMatrix()));
    EXPECT_LE(rot_dist(q, Quaternion{e.w(), to_vec3(e.vec())}), 16 * kEps);
  }
}

}  // namespace
}  // namespace sinew::core_quaternion_test
