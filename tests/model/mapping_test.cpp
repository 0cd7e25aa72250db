// Mappings: Jacobians and velocity-product terms against finite differences on the manifold,
// subsets, and bad references.
#include <gtest/gtest.h>

#include <random>

#include "expect_error.hpp"
#include "mixed_scene.hpp"
#include "model_test_support.hpp"
#include "sinew/model/mapping.hpp"

namespace sinew::model::model_mapping_test {
namespace {

using test::dense;
using test::matrices_agree;

// dx/du columns by central differences of apply() along advance_positions() directions.
Eigen::MatrixXd fd_mapping_jacobian(const Mapping& m, const Eigen::VectorXd& q, double h = 1e-6) {
  const MechanicalSystem& sys = m.system();
  Eigen::MatrixXd J(m.output_size(), sys.num_velocities());
  Eigen::VectorXd qp, qm, xp, xm;
  for (Index j = 0; j < sys.num_velocities(); ++j) {
    sys.advance_positions(q, Eigen::VectorXd::Unit(sys.num_velocities(), j), h, qp);
    sys.advance_positions(q, Eigen::VectorXd::Unit(sys.num_velocities(), j), -h, qm);
    m.apply(qp, xp);
    m.apply(qm, xm);
    J.col(j) = (xp - xm) / (2 * h);
  }
  return J;
}

struct Scene {
  MechanicalSystem sys;
  Index b0 = 0, b1 = 0, p[3] = {0, 0, 0};
  Scene() {
    b0 = sys.add_body(test::test_inertia(1.0, Vec3{{0.1, 0, 0}}), Vec3{{0, 0, 0}},
                      quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.4));
    for (int i = 0; i < 3; ++i) p[i] = sys.add_particle(1.0, Vec3{{1.0 * i, 0.5, -0.2 * i}});
    b1 = sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{2, 1, 0}},
                      quat_from_axis_angle(Vec3{{1, 0, 0}}, -0.8));
  }
};

TEST(Mapping, PointJacobiansAndRatesMatchFiniteDifferences) {
  Scene sc;
  const Vec3 local{{0.3, -0.2, 0.5}};
  MappedPoint mixed{{body_point(sc.b0, local), 0.5},
                    {particle_point(sc.p[1]), 0.3},
                    {body_point(sc.b1, Vec3{{-0.1, 0.2, 0.1}}), 0.2}};
  MappedPoint anchored{{particle_point(sc.p[0]), 0.5}, {world_point(Vec3{{1, 2, 3}}), 0.5}};
  const PointMapping m(sc.sys, {rigid_point(sc.b0, local),
                                barycentric_point({sc.p[0], sc.p[1], sc.p[2]}, {0.2, 0.5, 0.3}), mixed, anchored});
  std::mt19937 rng(1);
  Eigen::VectorXd q, u;
  test::random_state(sc.sys, rng, q, u);
  CsrMatrix J;
  m.jacobian(q, J);
  EXPECT_TRUE(matrices_agree(dense(J), fd_mapping_jacobian(m, q), 1e-7, "point mapping J"));
  // Jdot u = d/dh [J(q (+) h u) u].
  const double h = 1e-6;
  Eigen::VectorXd qp, qm, a;
  sc.sys.advance_positions(q, u, h, qp);
  sc.sys.advance_positions(q, u, -h, qm);
  CsrMatrix Jp, Jm;
  m.jacobian(qp, Jp);
  m.jacobian(qm, Jm);
  const Eigen::VectorXd fd = (dense(Jp) * u - dense(Jm) * u) / (2 * h);
  m.jacobian_rate_times(q, u, a);
  EXPECT_TRUE(matrices_agree(a, fd, 1e-6, "Jdot u"));
  // The rigid point itself: x = x_b + R p.
  Eigen::VectorXd x;
  m.apply(q, x);
  const Quaternion r = normalized(Quaternion{q[3], Vec3{{q[4], q[5], q[6]}}});
  const Vec3 expect = Vec3{{q[0], q[1], q[2]}} + rotate(r, local);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(x[c], expect[c], 1e-14);
}

// Frame velocities: translational rows by differences of the origin, rotational rows by the
// rotation vector log(q(+h) q(-h)^-1) / 2h; Jdot u by differences of J(q(t)) u.
TEST(Mapping, FrameJacobianMatchesFiniteDifferencesOnTheManifold) {
  Scene sc;
  const FrameMapping m(sc.sys, {BodyFrame{sc.b0, Vec3{{0.3, -0.2, 0.5}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.3)},
                                BodyFrame{sc.b1, Vec3{{-0.4, 0.1, 0.2}}, quat_identity()}});
  std::mt19937 rng(4);
  Eigen::VectorXd q, u;
  test::random_state(sc.sys, rng, q, u);
  CsrMatrix J;
  m.jacobian(q, J);
  const double h = 1e-6;
  const Index n = sc.sys.num_velocities();
  Eigen::MatrixXd fd(12, n);
  Eigen::VectorXd qp, qm, xp, xm;
  for (Index j = 0; j < n; ++j) {
    sc.sys.advance_positions(q, Eigen::VectorXd::Unit(n, j), h, qp);
    sc.sys.advance_positions(q, Eigen::VectorXd::Unit(n, j), -h, qm);
    m.apply(qp, xp);
    m.apply(qm, xm);
    for (int k = 0; k < 2; ++k) {
      fd.block(6 * k, j, 3, 1) = (xp.segment<3>(7 * k) - xm.segment<3>(7 * k)) / (2 * h);
      const Quaternion a{xp[7 * k + 3], Vec3{{xp[7 * k + 4], xp[7 * k + 5], xp[7 * k + 6]}}};
      const Quaternion b{xm[7 * k + 3], Vec3{{xm[7 * k + 4], xm[7 * k + 5], xm[7 * k + 6]}}};
      const Vec3 w = quat_log(a * conjugate(b));
      for (int c = 0; c < 3; ++c) fd(6 * k + 3 + c, j) = w[c] / (2 * h);
    }
  }
  EXPECT_TRUE(matrices_agree(dense(J), fd, 1e-7, "frame J"));
  sc.sys.advance_positions(q, u, h, qp);
  sc.sys.advance_positions(q, u, -h, qm);
  CsrMatrix Jp, Jm;
  m.jacobian(qp, Jp);
  m.jacobian(qm, Jm);
  Eigen::VectorXd a;
  m.jacobian_rate_times(q, u, a);
  EXPECT_TRUE(matrices_agree(a, (dense(Jp) - dense(Jm)) * u / (2 * h), 1e-6, "frame Jdot u"));
}

// A chain body -> frame -> frame -> frame -> point: the composed frame's pose is the chain's,
// its J the parent's shifted by the world offsets ([I, -[d]; 0, I] per link, notes eq. 0.41),
// and the point on it moves as a rigid point of the body (J against finite differences).
TEST(Mapping, FramesInFramesAndPointsOnThemComposeToTheirBody) {
  Scene sc;
  const BodyFrame f1{sc.b0, Vec3{{0.3, -0.2, 0.5}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.3)};
  const Vec3 p2{{0.1, 0.4, -0.2}}, p3{{-0.3, 0.05, 0.2}}, tip{{0.02, -0.07, 0.11}};
  const Quaternion r2 = quat_from_axis_angle(Vec3{{0, 1, 0}}, -0.7),
                   r3 = quat_from_axis_angle(Vec3{{0.6, 0, 0.8}}, 1.1);
  const BodyFrame f2 = frame_in_frame(f1, p2, r2), f3 = frame_in_frame(f2, p3, r3);
  const FrameMapping frames(sc.sys, {f1, f2, f3});
  std::mt19937 rng(9);
  Eigen::VectorXd q, u;
  test::random_state(sc.sys, rng, q, u);
  Eigen::VectorXd x;
  frames.apply(q, x);
  // Poses: each link's origin and orientation in its parent's frame.
  auto origin = [&](int k) { return Vec3{{x[7 * k], x[7 * k + 1], x[7 * k + 2]}}; };
  auto orientation = [&](int k) { return Quaternion{x[7 * k + 3], Vec3{{x[7 * k + 4], x[7 * k + 5], x[7 * k + 6]}}}; };
  const Vec3 o2 = origin(0) + rotate(orientation(0), p2), o3 = origin(1) + rotate(orientation(1), p3);
  for (int c = 0; c < 3; ++c) {
    EXPECT_NEAR(origin(1)[c], o2[c], 1e-14);
    EXPECT_NEAR(origin(2)[c], o3[c], 1e-14);
  }
  const Quaternion q2 = orientation(0) * r2, q3 = orientation(1) * r3;
  EXPECT_NEAR(std::abs(dot(orientation(1).v, q2.v) + orientation(1).s * q2.s), 1.0, 1e-14);
  EXPECT_NEAR(std::abs(dot(orientation(2).v, q3.v) + orientation(2).s * q3.s), 1.0, 1e-14);
  // Twists: J(f_k+1) = [I, -[d]; 0, I] J(f_k), d the world offset of the origins.
  CsrMatrix J;
  frames.jacobian(q, J);
  const Eigen::MatrixXd D = dense(J);
  for (int k = 0; k < 2; ++k) {
    const Vec3 d = origin(k + 1) - origin(k);
    Eigen::MatrixXd S = Eigen::MatrixXd::Identity(6, 6);
    S(0, 4) = d[2];
    S(0, 5) = -d[1];
    S(1, 3) = -d[2];
    S(1, 5) = d[0];
    S(2, 3) = d[1];
    S(2, 4) = -d[0];
    EXPECT_TRUE(matrices_agree(D.middleRows(6 * (k + 1), 6), S * D.middleRows(6 * k, 6), 1e-13, "shifted twist"));
  }
  // A point on the last frame: at its origin plus its rotated coordinates, J by finite differences.
  const PointMapping point(sc.sys, {frame_point(f3, tip)});
  Eigen::VectorXd y;
  point.apply(q, y);
  const Vec3 expect = origin(2) + rotate(orientation(2), tip);
  for (int c = 0; c < 3; ++c) EXPECT_NEAR(y[c], expect[c], 1e-14);
  CsrMatrix Jp;
  point.jacobian(q, Jp);
  EXPECT_TRUE(matrices_agree(dense(Jp), fd_mapping_jacobian(point, q), 1e-7, "point on a frame in frames"));
  const Vec3 arm = rotate(orientation(2), tip);
  Eigen::Matrix3d skew;
  skew << 0, -arm[2], arm[1], arm[2], 0, -arm[0], -arm[1], arm[0], 0;
  EXPECT_TRUE(matrices_agree(dense(Jp).leftCols(6), D.block(12, 0, 3, 6) - skew * D.block(15, 0, 3, 6), 1e-13,
                             "the point's J from the frame's twist"));
  EXPECT_SINEW_ERROR(frame_in_frame(f1, p2, Quaternion{2.0, Vec3{{0, 0, 0}}}), "frame_in_frame", "unit quaternion");
}

TEST(Mapping, SubsetSelectsComponents) {
  Scene sc;
  const SubsetMapping m(sc.sys, {sc.p[2]}, {sc.b1});
  EXPECT_EQ(m.output_size(), 10);
  EXPECT_EQ(m.output_velocity_size(), 9);
  std::mt19937 rng(2);
  Eigen::VectorXd q, u, x;
  test::random_state(sc.sys, rng, q, u);
  m.apply(q, x);
  EXPECT_EQ(x.head<3>(), q.segment<3>(sc.sys.particle_position_offset(sc.p[2])));
  EXPECT_EQ(x.tail<7>(), q.segment<7>(sc.sys.body_position_offset(sc.b1)));
  CsrMatrix J;
  m.jacobian(q, J);
  const Eigen::VectorXd v = dense(J) * u;
  EXPECT_EQ(v.head<3>(), u.segment<3>(sc.sys.particle_velocity_offset(sc.p[2])));
  EXPECT_EQ(v.tail<6>(), u.segment<6>(sc.sys.body_velocity_offset(sc.b1)));
  // The particle part of J is the derivative of the particle part of x.
  EXPECT_TRUE(matrices_agree(dense(J).topRows(3), fd_mapping_jacobian(m, q).topRows(3), 1e-8, "subset J"));
}

TEST(Mapping, BadReferencesAreNamed) {
  Scene sc;
  EXPECT_SINEW_ERROR(PointMapping(sc.sys, {rigid_point(sc.b0, Vec3{{0, 0, 0}}), rigid_point(7, Vec3{{0, 0, 0}})}),
                     "point 1", "term 0", "body index 7");
  EXPECT_SINEW_ERROR(PointMapping(sc.sys, {MappedPoint{}}), "point 0 has no terms");
  EXPECT_SINEW_ERROR(SubsetMapping(sc.sys, {0, 9}, {}), "entry 1 of the particles", "particle index 9");
  EXPECT_SINEW_ERROR(barycentric_point({0, 1}, {1.0}), "2 particles and 1 weights");
}

}  // namespace
}  // namespace sinew::model::model_mapping_test
