// ReducedSystem: attachments (particle-body, particle-particles, body-body, chains, to a driven
// body) against the hard-constrained KKT solve, the reduction against a dense reference, K and D
// of the reduced system against finite differences, driven coupling, cycles and bad input.
#include <gtest/gtest.h>

#include <cmath>
#include <random>

#include "expect_error.hpp"
#include "mixed_scene.hpp"
#include "model_test_support.hpp"
#include "sinew/model/mapping.hpp"
#include "sinew/model/reduced_system.hpp"

namespace sinew::model::model_reduced_system_test {
namespace {

using test::dense;
using test::matrices_agree;

const Vec3 kAxis{{0.0, 0.6, 0.8}};

// Driven body: x(t) = (0.5 sin t, 0.2 t, 0.1 cos 2t), rotation by 0.3 t^2 about kAxis times q0.
BodyMotion driven_motion(double t) {
  const Quaternion q0 = quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.5);
  return BodyMotion{Vec3{{0.5 * std::sin(t), 0.2 * t, 0.1 * std::cos(2 * t)}}, quat_exp((0.3 * t * t) * kAxis) * q0,
                    Vec3{{0.5 * std::cos(t), 0.2, -0.2 * std::sin(2 * t)}},    (0.6 * t) * kAxis,
                    Vec3{{-0.5 * std::sin(t), 0.0, -0.4 * std::cos(2 * t)}},   0.6 * kAxis};
}

struct ChainScene {
  MechanicalSystem sys;
  Index b0 = 0, b1 = 0, bd = 0, p[6] = {0, 0, 0, 0, 0, 0};

  explicit ChainScene(bool damping = true) {
    sys.set_gravity(Vec3{{0.0, 0.0, -9.81}});
    b0 = sys.add_body(test::test_inertia(2.0, Vec3{{0.2, -0.1, 0.1}}), Vec3{{0, 0, 0}},
                      quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.3), "b0");
    b1 = sys.add_body(test::test_inertia(1.0, Vec3{{-0.1, 0.2, 0.0}}), Vec3{{0.8, 0.1, 0.2}},
                      quat_from_axis_angle(Vec3{{0, 1, 0}}, 0.6), "b1");
    const BodyMotion m0 = driven_motion(0.0);
    bd = sys.add_body(test::test_inertia(1.5, Vec3{{0.1, 0.1, 0.1}}), m0.x, m0.q, "driven");
    const double X[6][3] = {{0.3, 0.4, -0.2}, {1.1, 0.5, 0.1},  {1.3, 1.0, 0.2},
                            {2.0, 1.5, 0.0},  {0.2, -0.5, 0.4}, {1.5, -1.0, 0.3}};
    for (int i = 0; i < 6; ++i) p[i] = sys.add_particle(0.3 + 0.1 * i, Vec3{{X[i][0], X[i][1], X[i][2]}});
    const double d = damping ? 1.0 : 0.0;
    auto springs = std::make_shared<AxialSpringField>();
    springs->add(particle_point(p[0]), particle_point(p[3]), LinearAxialSpring{40.0, 0.5 * d, 1.0});
    springs->add(particle_point(p[2]), particle_point(p[5]), LinearAxialSpring{30.0, 0.4 * d, 1.5});
    springs->add(particle_point(p[1]), world_point(Vec3{{1.0, 1.0, 1.0}}), LinearAxialSpring{25.0, 0.3 * d, 0.4});
    springs->add(particle_point(p[4]), particle_point(p[5]), LinearAxialSpring{35.0, 0.6 * d, 1.2});
    springs->add(body_point(b1, Vec3{{0.2, 0.0, 0.1}}), particle_point(p[3]), LinearAxialSpring{20.0, 0.2 * d, 1.0});
    sys.add_force_field(springs);
    auto frames = std::make_shared<FrameSpringField>();
    FrameSpring fs;
    fs.translational_stiffness = 30.0;
    fs.rotational_stiffness = 5.0;
    fs.translational_damping = 0.4 * d;
    fs.rotational_damping = 0.2 * d;
    fs.p1 = Vec3{{0.1, 0.2, 0.0}};
    fs.p2 = Vec3{{0.9, 0.3, 0.5}};
    frames->add(b1, FrameSpringField::kWorldFrame, fs);
    fs.p2 = Vec3{{0.0, 0.1, -0.1}};
    frames->add(b0, bd, fs);
    sys.add_force_field(frames);
    if (damping)
      sys.add_force_field(std::make_shared<RayleighDampingField>(sys, RayleighDamping{0.2, 0.0},
                                                                 std::vector<std::shared_ptr<const ForceField>>{}));
  }

  // p0 on b0; b1 on b0; p1 on b1 (attached to an attached body); p2 between p1 and p3
  // (barycentric, attached to an attached particle); p4 on the driven body.
  void attach(ReducedSystem& r) const {
    r.attach_particle(p[2], barycentric_point({p[1], p[3]}, {0.6, 0.4}));
    r.attach_particle_to_body(p[1], b1);
    r.attach_body(b1, b0);
    r.attach_particle_to_body(p[0], b0);
    r.attach_particle_to_body(p[4], bd);
    r.drive_body(bd, driven_motion);
    r.finalize();
  }
};

// The hard constraints of the attachments, written independently of ReducedSystem: rows
// u_k - J_master u = 0 (J from PointMapping), body rows v_B - v_A - w_A x (x_B - x_A) = 0,
// w_B - w_A = 0, and driven rows u_d = v_d(t). rhs: the constraint accelerations (-Jdot u, or
// the driven acceleration).
void constraints(const ChainScene& sc, double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::MatrixXd& J,
                 Eigen::VectorXd& rhs) {
  const MechanicalSystem& sys = sc.sys;
  const Index n = sys.num_velocities();
  std::vector<Eigen::MatrixXd> rows;
  std::vector<Eigen::VectorXd> rh;
  const auto particle_rows = [&](Index i, const MappedPoint& mp) {
    const PointMapping m(sys, {mp});
    CsrMatrix Jm;
    m.jacobian(q, Jm);
    Eigen::MatrixXd R = -dense(Jm);
    R.block(0, sys.particle_velocity_offset(i), 3, 3) += Eigen::Matrix3d::Identity();
    Eigen::VectorXd a;
    m.jacobian_rate_times(q, u, a);
    rows.push_back(R);
    rh.push_back(a);  // d/dt(u_k - J u) = 0  =>  a_k - J a = Jdot u
  };
  // Attachment points in body coordinates from the initial state (as attach_particle_to_body).
  const auto local_of = [&](Index i, Index b) {
    const RigidBody& B = sys.body(b);
    return rotate(conjugate(B.orientation), sys.particle(i).position - B.position);
  };
  particle_rows(sc.p[0], rigid_point(sc.b0, local_of(sc.p[0], sc.b0)));
  particle_rows(sc.p[1], rigid_point(sc.b1, local_of(sc.p[1], sc.b1)));
  particle_rows(sc.p[2], barycentric_point({sc.p[1], sc.p[3]}, {0.6, 0.4}));
  particle_rows(sc.p[4], rigid_point(sc.bd, local_of(sc.p[4], sc.bd)));
  {  // b1 on b0
    const Index oa = sys.body_velocity_offset(sc.b0), ob = sys.body_velocity_offset(sc.b1);
    const Index pa = sys.body_position_offset(sc.b0), pb = sys.body_position_offset(sc.b1);
    const Eigen::Vector3d r = q.segment<3>(pb) - q.segment<3>(pa), w = u.segment<3>(oa + 3);
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(6, n);
    R.block(0, ob, 6, 6).setIdentity();
    R.block(0, oa, 6, 6) = -Eigen::MatrixXd::Identity(6, 6);
    Eigen::Matrix3d S;
    S << 0, -r[2], r[1], r[2], 0, -r[0], -r[1], r[0], 0;
    R.block(0, oa + 3, 3, 3) = S;  // -(w x r) = r x w = [r] w
    Eigen::VectorXd a = Eigen::VectorXd::Zero(6);
    a.head<3>() = w.cross(w.cross(r));
    rows.push_back(R);
    rh.push_back(a);
  }
  {  // driven body
    const BodyMotion m = driven_motion(t);
    Eigen::MatrixXd R = Eigen::MatrixXd::Zero(6, n);
    R.block(0, sys.body_velocity_offset(sc.bd), 6, 6).setIdentity();
    Eigen::VectorXd a(6);
    a << m.a[0], m.a[1], m.a[2], m.alpha[0], m.alpha[1], m.alpha[2];
    rows.push_back(R);
    rh.push_back(a);
  }
  Eigen::Index m = 0;
  for (const auto& R : rows) m += R.rows();
  J.resize(m, n);
  rhs.resize(m);
  m = 0;
  for (std::size_t k = 0; k < rows.size(); ++k) {
    J.middleRows(m, rows[k].rows()) = rows[k];
    rhs.segment(m, rows[k].rows()) = rh[k];
    m += rows[k].rows();
  }
}

TEST(ReducedSystem, AccelerationsMatchTheConstrainedKktSolve) {
  ChainScene sc;
  ReducedSystem red(sc.sys);
  sc.attach(red);
  EXPECT_EQ(red.num_velocities(), 6 + 3 + 3);  // b0, p3, p5
  std::mt19937 rng(17);
  for (double t : {0.0, 0.7, 1.9}) {
    Eigen::VectorXd q = sc.sys.initial_positions();
    red.advance_positions(q, test::random_vector(rng, red.num_velocities(), 0.2), 1.0, q);
    red.sync_positions(t, q);
    const Eigen::VectorXd u = test::random_vector(rng, red.num_velocities(), 1.5);
    Eigen::VectorXd u_full;
    red.full_velocities(t, q, u, u_full);
    // The full state satisfies the constraints, so the KKT reference is consistent.
    Eigen::MatrixXd J;
    Eigen::VectorXd rhs;
    constraints(sc, t, q, u_full, J, rhs);
    Eigen::VectorXd drive_v = J.bottomRows(6) * u_full;
    const BodyMotion m = driven_motion(t);
    EXPECT_NEAR(drive_v[3], m.w[0], 1e-14);
    EXPECT_LT((J.topRows(J.rows() - 6) * u_full).norm(), 1e-12);
    // KKT: [M J^T; J 0] [a; lambda] = [F; rhs].
    CsrMatrix Mf;
    Eigen::VectorXd F;
    sc.sys.mass_matrix(t, q, Mf);
    sc.sys.forces(t, q, u_full, ForcePart::kAll, F);
    const Index n = sc.sys.num_velocities(), k = static_cast<Index>(J.rows());
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + k, n + k);
    A.topLeftCorner(n, n) = dense(Mf);
    A.topRightCorner(n, k) = J.transpose();
    A.bottomLeftCorner(k, n) = J;
    Eigen::VectorXd b(n + k);
    b << F, rhs;
    const Eigen::VectorXd a_kkt = A.fullPivLu().solve(b).head(n);
    // Reduced: M' udot = f'(kAll), then udot_full = T udot + c.
    CsrMatrix Mr, T;
    Eigen::VectorXd fr, c;
    red.mass_matrix(t, q, Mr);
    red.forces(t, q, u, ForcePart::kAll, fr);
    red.reduction_matrix(t, q, T);
    red.known_accelerations(t, q, u, c);
    const Eigen::VectorXd a_red = dense(T) * dense(Mr).ldlt().solve(fr) + c;
    EXPECT_TRUE(matrices_agree(a_kkt, a_red, 1e-10, "accelerations"));
    // Dense reference of the reduction: J T = 0 with identity rows for the free components,
    // J c = rhs, M' = T^T M T and f' = T^T (F - M c).
    EXPECT_LT((J * dense(T)).cwiseAbs().maxCoeff(), 1e-12);
    EXPECT_LT((J * c - rhs).cwiseAbs().maxCoeff(), 1e-10 * rhs.cwiseAbs().maxCoeff());
    const Eigen::MatrixXd Td = dense(T);
    EXPECT_TRUE(matrices_agree(Td.transpose() * dense(Mf) * Td, dense(Mr), 1e-13, "M'"));
    EXPECT_TRUE(matrices_agree(Td.transpose() * (F - dense(Mf) * c), fr, 1e-12, "f'"));
  }
}

TEST(ReducedSystem, StiffnessAndDampingMatchFiniteDifferences) {
  ChainScene sc;
  ReducedSystem red(sc.sys);
  sc.attach(red);
  std::mt19937 rng(23);
  for (double t : {0.3, 1.2}) {
    Eigen::VectorXd q = sc.sys.initial_positions();
    red.advance_positions(q, test::random_vector(rng, red.num_velocities(), 0.2), 1.0, q);
    const Eigen::VectorXd u = test::random_vector(rng, red.num_velocities(), 1.5);
    CsrMatrix K, D;
    red.stiffness(t, q, u, false, K);
    red.damping(t, q, u, D);
    EXPECT_TRUE(matrices_agree(dense(K), test::fd_stiffness(red, t, q, u), 1e-6, "reduced K"));
    EXPECT_TRUE(matrices_agree(dense(D), test::fd_damping(red, t, q, u), 1e-6, "reduced D"));
    CsrMatrix Kp;
    red.stiffness(t, q, u, true, Kp);
    const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(dense(Kp)).eigenvalues();
    EXPECT_GT(lambda.minCoeff(), -1e-9 * lambda.cwiseAbs().maxCoeff());
  }
}

TEST(ReducedSystem, ConservativeReducedForcesAreMinusTheEnergyGradient) {
  ChainScene sc(/*damping=*/false);
  ReducedSystem red(sc.sys);
  red.attach_particle(sc.p[2], barycentric_point({sc.p[1], sc.p[3]}, {0.6, 0.4}));
  red.attach_particle_to_body(sc.p[1], sc.b1);
  red.attach_body(sc.b1, sc.b0);
  red.attach_particle_to_body(sc.p[0], sc.b0);
  red.finalize();
  ASSERT_TRUE(red.has_potential());
  std::mt19937 rng(29);
  Eigen::VectorXd q = sc.sys.initial_positions(), f;
  red.advance_positions(q, test::random_vector(rng, red.num_velocities(), 0.3), 1.0, q);
  red.forces(0.0, q, Eigen::VectorXd::Zero(red.num_velocities()), ForcePart::kElastic, f);
  EXPECT_TRUE(matrices_agree(f, test::fd_potential_force(red, 0.0, q), 1e-6, "f' = -dV/dq"));
}

TEST(ReducedSystem, AttachedPositionsFollowTheirMasters) {
  ChainScene sc;
  ReducedSystem red(sc.sys);
  sc.attach(red);
  Eigen::VectorXd q = sc.sys.initial_positions(), q1;
  Eigen::VectorXd u = Eigen::VectorXd::Zero(red.num_velocities());
  u.segment<3>(red.body_velocity_offset(sc.b0) + 3) << 0.0, 0.0, 1.0;  // spin b0 about z by pi/2
  red.advance_positions(q, u, M_PI / 2, q1);
  // p0 is carried around the z axis through b0's origin (0, 0, 0): (x, y) -> (-y, x).
  const Index o = sc.sys.particle_position_offset(sc.p[0]);
  EXPECT_NEAR(q1[o], -q[o + 1], 1e-12);
  EXPECT_NEAR(q1[o + 1], q[o], 1e-12);
  EXPECT_NEAR(q1[o + 2], q[o + 2], 1e-12);
  // p2 stays the barycentric combination of p1 and p3.
  const Index o1 = sc.sys.particle_position_offset(sc.p[1]), o2 = sc.sys.particle_position_offset(sc.p[2]),
              o3 = sc.sys.particle_position_offset(sc.p[3]);
  EXPECT_LT((q1.segment<3>(o2) - 0.6 * q1.segment<3>(o1) - 0.4 * q1.segment<3>(o3)).norm(), 1e-12);
  // The driven body follows its trajectory after sync_positions().
  red.sync_positions(2.0, q1);
  const BodyMotion m = driven_motion(2.0);
  EXPECT_NEAR(q1[sc.sys.body_position_offset(sc.bd)], m.x[0], 1e-15);
}

// Notes sec. 0.19: a particle attached to a body adds the inertia of a point mass at its place,
// so body + attached particle must behave exactly as one body with the combined inertia (mass,
// centre of mass, parallel-axis J): same mass matrix, fictitious and gravity forces.
TEST(ReducedSystem, AttachedParticleActsAsACompositeBody) {
  const SpatialInertia Ib = test::test_inertia(2.0, Vec3{{0.1, -0.2, 0.3}});
  const double mp = 0.7;
  const Vec3 p{{0.5, 0.4, -0.3}};  // particle in body coordinates
  const Quaternion r = quat_from_axis_angle(Vec3{{0.3, 0.4, 0.5}} * (1.0 / std::sqrt(0.5)), 0.8);
  const Vec3 x{{0.2, -0.1, 0.4}};
  const double m = Ib.mass + mp;
  const Vec3 c = (1.0 / m) * (Ib.mass * Ib.com + mp * p);
  const auto parallel = [](double mass, const Vec3& d) {
    const Mat3 D = outer_product(d, d);
    return mass * (dot(d, d) * identity3() - D);
  };
  const Mat3 J = Ib.J + parallel(Ib.mass, Ib.com - c) + parallel(mp, p - c);
  MechanicalSystem composite;
  composite.set_gravity(Vec3{{0.3, -0.2, -9.81}});
  composite.add_body(make_spatial_inertia(m, c, J), x, r);
  MechanicalSystem sys;
  sys.set_gravity(composite.gravity());
  const Index b = sys.add_body(Ib, x, r);
  const Index i = sys.add_particle(mp, x + rotate(r, p));
  ReducedSystem red(sys);
  red.attach_particle_to_body(i, b);
  red.finalize();
  Eigen::VectorXd u(6);
  u << 0.4, -0.3, 0.2, 1.5, -2.0, 0.7;
  CsrMatrix M1, M2;
  composite.mass_matrix(0.0, composite.initial_positions(), M1);
  red.mass_matrix(0.0, sys.initial_positions(), M2);
  EXPECT_TRUE(matrices_agree(dense(M1), dense(M2), 1e-14, "composite M"));
  for (ForcePart part : {ForcePart::kGyroscopic, ForcePart::kElastic}) {
    Eigen::VectorXd f1, f2;
    composite.forces(0.0, composite.initial_positions(), u, part, f1);
    red.forces(0.0, sys.initial_positions(), u, part, f2);
    EXPECT_TRUE(matrices_agree(f1, f2, 1e-13, part == ForcePart::kGyroscopic ? "composite G" : "composite F"));
  }
}

TEST(ReducedSystem, DrivenParticleCouplesThroughForces) {
  MechanicalSystem sys;
  const Index d = sys.add_particle(1.0, Vec3{{0, 0, 0}}, "driver");
  const Index f = sys.add_particle(2.0, Vec3{{2, 0, 0}}, "follower");
  auto springs = std::make_shared<AxialSpringField>();
  springs->add(particle_point(d), particle_point(f), LinearAxialSpring{10.0, 0.0, 1.0});
  sys.add_force_field(springs);
  ReducedSystem red(sys);
  red.drive_particle(d, [](double t) {
    return PointMotion{Vec3{{std::sin(t), 0, 0}}, Vec3{{std::cos(t), 0, 0}}, Vec3{{-std::sin(t), 0, 0}}};
  });
  red.finalize();
  ASSERT_EQ(red.num_velocities(), 3);
  for (double t : {0.0, 1.0, 2.5}) {
    Eigen::VectorXd fr;
    red.forces(t, sys.initial_positions(), Eigen::VectorXd::Zero(3), ForcePart::kAll, fr);
    const double l = 2.0 - std::sin(t);
    EXPECT_NEAR(fr[0], -10.0 * (l - 1.0), 1e-12) << "t = " << t;
    EXPECT_NEAR(fr[1], 0.0, 1e-15);
  }
  EXPECT_FALSE(red.has_potential());
}

TEST(ReducedSystem, AttachmentCyclesAreErrorsNamingTheComponents) {
  MechanicalSystem sys;
  for (int i = 0; i < 4; ++i) sys.add_particle(1.0, Vec3{{1.0 * i, 0, 0}}, "p" + std::to_string(i));
  const Index b0 = sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}}, quat_identity(), "left");
  const Index b1 = sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{1, 0, 0}}, quat_identity(), "right");
  ReducedSystem red(sys);
  red.attach_particle(0, barycentric_point({1, 3}, {0.5, 0.5}));
  red.attach_particle(1, barycentric_point({2}, {1.0}));
  red.attach_particle(2, barycentric_point({0}, {1.0}));
  EXPECT_SINEW_ERROR(red.finalize(), "cycle", "particle 0 'p0'", "particle 1 'p1'", "particle 2 'p2'");
  ReducedSystem bodies(sys);
  bodies.attach_body(b1, b0);
  bodies.attach_body(b0, b1);
  EXPECT_SINEW_ERROR(bodies.finalize(), "cycle", "body 0 'left'", "body 1 'right'");
  // An acyclic chain is accepted whatever the order the attachments were made in.
  ReducedSystem chain(sys);
  chain.attach_particle(0, barycentric_point({1}, {1.0}));
  chain.attach_particle(1, barycentric_point({2}, {1.0}));
  chain.attach_particle(2, rigid_point(b0, Vec3{{2, 0, 0}}));
  EXPECT_NO_THROW(chain.finalize());
  EXPECT_EQ(chain.num_velocities(), 3 + 12);
}

TEST(ReducedSystem, BadAttachmentsAreNamed) {
  MechanicalSystem sys;
  sys.add_particle(1.0, Vec3{{0, 0, 0}}, "a");
  sys.add_particle(1.0, Vec3{{1, 0, 0}}, "b");
  sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}}, quat_identity(), "base");
  ReducedSystem red(sys);
  EXPECT_SINEW_ERROR(red.attach_particle(5, barycentric_point({0}, {1.0})), "particle index 5");
  EXPECT_SINEW_ERROR(red.attach_particle(0, barycentric_point({0}, {1.0})), "particle 0 'a'", "its own master");
  EXPECT_SINEW_ERROR(red.attach_particle(0, rigid_point(3, Vec3{{0, 0, 0}})), "master 0", "body index 3");
  EXPECT_SINEW_ERROR(red.attach_body(0, 0), "body 0 'base'", "itself");
  red.attach_particle_to_body(0, 0);
  EXPECT_SINEW_ERROR(red.attach_particle_to_body(0, 0), "particle 0 'a'", "already attached");
  red.drive_particle(1, [](double) { return PointMotion{}; });
  EXPECT_SINEW_ERROR(red.attach_particle(1, rigid_point(0, Vec3{{0, 0, 0}})), "particle 1 'b'", "driven");
  Eigen::VectorXd f;
  EXPECT_SINEW_ERROR(red.forces(0.0, sys.initial_positions(), Eigen::VectorXd::Zero(6), ForcePart::kAll, f),
                     "finalize()");
  red.finalize();
  EXPECT_SINEW_ERROR(red.forces(0.0, sys.initial_positions(), Eigen::VectorXd::Zero(3), ForcePart::kAll, f),
                     "u has 3 entries", "expected 6");
}

}  // namespace
}  // namespace sinew::model::model_reduced_system_test

namespace sinew::model::model_reduced_system_test {
namespace {

// dq/dt for full velocities: particles and body origins move with v, quaternions with
// dq/dt = (0, w) q / 2 (world angular velocity), every coordinate as a plain number.
Eigen::VectorXd position_rate(const MechanicalSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  Eigen::VectorXd qd = Eigen::VectorXd::Zero(q.size());
  for (Index i = 0; i < sys.num_particles(); ++i)
    qd.segment<3>(sys.particle_position_offset(i)) = u.segment<3>(sys.particle_velocity_offset(i));
  for (Index b = 0; b < sys.num_bodies(); ++b) {
    const Index p = sys.body_position_offset(b), v = sys.body_velocity_offset(b);
    qd.segment<3>(p) = u.segment<3>(v);
    const Quaternion quat{q[p + 3], Vec3{{q[p + 4], q[p + 5], q[p + 6]}}};
    const Quaternion rate = quat_derivative_world(quat, Vec3{{u[v + 3], u[v + 4], u[v + 5]}});
    qd[p + 3] = rate.s;
    for (int k = 0; k < 3; ++k) qd[p + 4 + k] = rate.v[k];
  }
  return qd;
}

void normalize_quaternions(const MechanicalSystem& sys, Eigen::VectorXd& q) {
  for (Index b = 0; b < sys.num_bodies(); ++b) q.segment<4>(sys.body_position_offset(b) + 3).normalize();
}

// One classical RK4 step of (q, u) with the given acceleration, quaternions renormalized after.
template <class Rates>
void rk4(const MechanicalSystem& sys, double t, double h, Eigen::VectorXd& q, Eigen::VectorXd& u, Rates rates) {
  Eigen::VectorXd k1q, k1u, k2q, k2u, k3q, k3u, k4q, k4u;
  rates(t, q, u, k1q, k1u);
  rates(t + h / 2, q + h / 2 * k1q, u + h / 2 * k1u, k2q, k2u);
  rates(t + h / 2, q + h / 2 * k2q, u + h / 2 * k2u, k3q, k3u);
  rates(t + h, q + h * k3q, u + h * k3u, k4q, k4u);
  q += h / 6 * (k1q + 2 * k2q + 2 * k3q + k4q);
  u += h / 6 * (k1u + 2 * k2u + 2 * k3u + k4u);
  normalize_quaternions(sys, q);
}

// The same motion: the reduced system (attachments eliminated) and the full system under the
// hard attachment constraints (KKT at acceleration level), both integrated by RK4 for 1 s from
// the same state, end at the same positions.
TEST(ReducedSystem, TrajectoryEqualsTheHardConstrainedKktTrajectory) {
  ChainScene sc;
  ReducedSystem red(sc.sys);
  sc.attach(red);
  const MechanicalSystem& sys = sc.sys;
  Eigen::VectorXd q_red = sys.initial_positions();
  red.sync_positions(0.0, q_red);
  Eigen::VectorXd u_red = Eigen::VectorXd::Zero(red.num_velocities());
  u_red[3] = 0.8;  // b0 spinning, particle p3 moving
  u_red[7] = -0.5;
  Eigen::VectorXd q_kkt = q_red, u_kkt;
  red.full_velocities(0.0, q_red, u_red, u_kkt);

  const auto reduced_rates = [&](double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& qd,
                                 Eigen::VectorXd& ud) {
    Eigen::VectorXd qn = q;  // RK4 stages are off the unit sphere by O(h^2): evaluate on it
    normalize_quaternions(sys, qn);
    CsrMatrix Mr;
    Eigen::VectorXd fr, u_full;
    red.mass_matrix(t, qn, Mr);
    red.forces(t, qn, u, ForcePart::kAll, fr);
    ud = dense(Mr).ldlt().solve(fr);
    red.full_velocities(t, qn, u, u_full);
    qd = position_rate(sys, q, u_full);
  };
  const auto kkt_rates = [&](double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& qd,
                             Eigen::VectorXd& ud) {
    Eigen::VectorXd qn = q;  // RK4 stages are off the unit sphere by O(h^2): evaluate on it
    normalize_quaternions(sys, qn);
    Eigen::MatrixXd J;
    Eigen::VectorXd rhs, F;
    constraints(sc, t, qn, u, J, rhs);
    CsrMatrix M;
    sys.mass_matrix(t, qn, M);
    sys.forces(t, qn, u, ForcePart::kAll, F);
    const Index n = sys.num_velocities(), k = static_cast<Index>(J.rows());
    Eigen::MatrixXd A = Eigen::MatrixXd::Zero(n + k, n + k);
    A.topLeftCorner(n, n) = dense(M);
    A.topRightCorner(n, k) = J.transpose();
    A.bottomLeftCorner(k, n) = J;
    Eigen::VectorXd b(n + k);
    b << F, rhs;
    ud = A.fullPivLu().solve(b).head(n);
    qd = position_rate(sys, q, u);
  };
  const double h = 2e-3;
  for (int step = 0; step < 500; ++step) {
    const double t = step * h;
    rk4(sys, t, h, q_red, u_red, reduced_rates);
    red.sync_positions(t + h, q_red);
    rk4(sys, t, h, q_kkt, u_kkt, kkt_rates);
  }
  Eigen::VectorXd u_full;
  red.full_velocities(1.0, q_red, u_red, u_full);
  const double travel = (q_red - sys.initial_positions()).cwiseAbs().maxCoeff();
  EXPECT_GT(travel, 0.1) << "the scene must actually move";
  EXPECT_LT((q_red - q_kkt).cwiseAbs().maxCoeff(), 1e-8 * travel) << "positions after 1 s";
  EXPECT_LT((u_full - u_kkt).cwiseAbs().maxCoeff(), 1e-7) << "velocities after 1 s";
}

}  // namespace
}  // namespace sinew::model::model_reduced_system_test
