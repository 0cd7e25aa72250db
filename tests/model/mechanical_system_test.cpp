// MechanicalSystem: assembled stiffness and damping of a mixed scene against finite differences,
// energy consistency, the fictitious forces of tumbling bodies (momentum conservation), the mass
// matrix, pattern reuse and bad input.
#include <gtest/gtest.h>

#include <random>

#include "expect_error.hpp"
#include "mixed_scene.hpp"
#include "model_test_support.hpp"
#include "sinew/core/rigid_transform.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::model::model_mechanical_system_test {
namespace {

using test::dense;
using test::matrices_agree;

TEST(MechanicalSystem, MixedSceneStiffnessAndDampingMatchFiniteDifferences) {
  MechanicalSystem sys;
  test::build_mixed_scene(sys, /*nonlinear_law=*/true);
  std::mt19937 rng(7);
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd q, u;
    test::random_state(sys, rng, q, u);
    CsrMatrix K, D;
    sys.stiffness(0.0, q, u, false, K);
    sys.damping(0.0, q, u, D);
    EXPECT_TRUE(matrices_agree(dense(K), test::fd_stiffness(sys, 0.0, q, u), 1e-6, "K"));
    EXPECT_TRUE(matrices_agree(dense(D), test::fd_damping(sys, 0.0, q, u), 1e-6, "D"));
  }
}

// has_force_jacobians() is false exactly when K and D vanish: particles and bodies framed at their
// centres of mass under gravity (checked against finite differences at random states), and true
// once a body's frame is off its centre of mass (gravity then turns it) or a force field is added.
TEST(MechanicalSystem, ForceJacobiansAreReportedAbsentOnlyWhenZero) {
  MechanicalSystem sys;
  sys.set_gravity(Vec3{{0.3, -1.0, -9.81}});
  const Mat3 J{{0.02, 0.001, 0, 0.001, 0.03, 0, 0, 0, 0.04}};
  sys.add_particle(0.5, Vec3{{0, 0, 1}});
  sys.add_body(make_spatial_inertia(2.0, Vec3{{0, 0, 0}}, J), Vec3{{1, 0, 0}}, quat_identity());
  EXPECT_FALSE(sys.has_force_jacobians());
  std::mt19937 rng(5);
  for (int trial = 0; trial < 3; ++trial) {
    Eigen::VectorXd q, u;
    test::random_state(sys, rng, q, u);
    EXPECT_LT(test::fd_stiffness(sys, 0.0, q, u).cwiseAbs().maxCoeff(), 1e-7) << "trial " << trial;
    EXPECT_LT(test::fd_damping(sys, 0.0, q, u).cwiseAbs().maxCoeff(), 1e-7) << "trial " << trial;
  }
  MechanicalSystem offset;
  offset.set_gravity(Vec3{{0, 0, -9.81}});
  offset.add_body(make_spatial_inertia(2.0, Vec3{{0.1, 0, 0}}, J), Vec3{{1, 0, 0}}, quat_identity());
  EXPECT_TRUE(offset.has_force_jacobians());
  Eigen::VectorXd q, u;
  test::random_state(offset, rng, q, u);
  EXPECT_GT(test::fd_stiffness(offset, 0.0, q, u).cwiseAbs().maxCoeff(), 1e-3);  // gravity's torque turns
  MechanicalSystem mixed;
  test::build_mixed_scene(mixed, /*nonlinear_law=*/false);
  EXPECT_TRUE(mixed.has_force_jacobians());
}

TEST(MechanicalSystem, ProjectedStiffnessIsPositiveSemiDefinite) {
  MechanicalSystem sys;
  test::build_mixed_scene(sys, true);
  std::mt19937 rng(3);
  Eigen::VectorXd q, u;
  test::random_state(sys, rng, q, u);
  CsrMatrix K;
  sys.stiffness(0.0, q, u, true, K);
  const Eigen::MatrixXd Kd = dense(K);
  EXPECT_LT((Kd - Kd.transpose()).cwiseAbs().maxCoeff(), 1e-9 * Kd.cwiseAbs().maxCoeff());
  const Eigen::VectorXd lambda = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Kd).eigenvalues();
  EXPECT_GT(lambda.minCoeff(), -1e-9 * lambda.cwiseAbs().maxCoeff());
  EXPECT_GT(lambda.maxCoeff(), 1.0);
}

TEST(MechanicalSystem, ConservativeForcesAreMinusTheEnergyGradient) {
  MechanicalSystem sys;
  test::build_mixed_scene(sys, /*nonlinear_law=*/false);
  ASSERT_TRUE(sys.has_potential());
  std::mt19937 rng(11);
  Eigen::VectorXd q, u, f;
  test::random_state(sys, rng, q, u);
  sys.forces(0.0, q, Eigen::VectorXd::Zero(sys.num_velocities()), ForcePart::kElastic, f);
  EXPECT_TRUE(matrices_agree(f, test::fd_potential_force(sys, 0.0, q), 1e-6, "f = -dV/dq"));
}

TEST(MechanicalSystem, NonlinearLawHasNoPotential) {
  MechanicalSystem sys;
  test::build_mixed_scene(sys, true);
  EXPECT_FALSE(sys.has_potential());
  EXPECT_SINEW_ERROR(sys.potential_energy(0.0, sys.initial_positions()), "not conservative");
}

// A free tumbling body with an offset centre of mass conserves its spatial momentum about the
// world origin: d/dt (Ad^-T M_w u) = 0 when M udot = G(u). Checks the fictitious forces and
// the world-twist convention together.
TEST(MechanicalSystem, FictitiousForcesConserveMomentumOfATumblingBody) {
  MechanicalSystem sys;
  sys.add_body(test::test_inertia(3.0, Vec3{{0.4, -0.3, 0.2}}), Vec3{{0.5, 1.0, -0.2}},
               quat_from_axis_angle(Vec3{{0.0, 0.6, 0.8}}, 1.1), "tumbler");
  Eigen::VectorXd q = sys.initial_positions(), u(6);
  u << 0.3, -0.5, 0.2, 2.0, -1.0, 3.0;
  const auto momentum_at = [&](const Eigen::VectorXd& qq, const Eigen::VectorXd& uu) {
    CsrMatrix M;
    sys.mass_matrix(0.0, qq, M);
    const Eigen::VectorXd h = dense(M) * uu;  // momentum about the body origin, world axes
    const Eigen::Vector3d x(qq[0], qq[1], qq[2]);
    Eigen::VectorXd hw(6);
    hw.head<3>() = h.head<3>();
    hw.tail<3>() = h.tail<3>() + x.cross(Eigen::Vector3d(h.head<3>()));  // about the world origin
    return hw;
  };
  CsrMatrix M;
  Eigen::VectorXd G, F;
  sys.mass_matrix(0.0, q, M);
  sys.forces(0.0, q, u, ForcePart::kGyroscopic, G);
  sys.forces(0.0, q, u, ForcePart::kElastic, F);
  EXPECT_LT(F.norm(), 1e-14);  // no gravity, no fields
  EXPECT_GT(G.norm(), 1.0);    // the check below is not vacuous
  const Eigen::VectorXd a = dense(M).ldlt().solve(G);
  const double h = 1e-5;
  Eigen::VectorXd qp, qm;
  sys.advance_positions(q, u, h, qp);
  sys.advance_positions(q, u, -h, qm);
  const Eigen::VectorXd dh = (momentum_at(qp, u + h * a) - momentum_at(qm, u - h * a)) / (2 * h);
  EXPECT_LT(dh.norm(), 1e-6 * momentum_at(q, u).norm()) << dh.transpose();
  // Without the fictitious forces (udot = 0) the momentum would not be conserved.
  const Eigen::VectorXd dh0 = (momentum_at(qp, u) - momentum_at(qm, u)) / (2 * h);
  EXPECT_GT(dh0.norm(), 1e-3);
}

TEST(MechanicalSystem, MassMatrixAndKineticEnergyOfABodyWithOffsetCentreOfMass) {
  MechanicalSystem sys;
  const SpatialInertia I = test::test_inertia(2.0, Vec3{{0.3, 0.1, -0.2}});
  const Quaternion r = quat_from_axis_angle(Vec3{{0.0, 0.0, 1.0}}, 0.9);
  sys.add_body(I, Vec3{{1, 2, 3}}, r);
  const Index p = sys.add_particle(0.5, Vec3{{0, 0, 0}});
  EXPECT_EQ(p, 0);
  Eigen::VectorXd q = sys.initial_positions(), u(9);
  u << 0.1, 0.2, 0.3, 1.0, -2.0, 0.5, 0.4, 0.5, 0.6;
  // T = 1/2 m |v_com|^2 + 1/2 w^T J_w w with v_com = v + w x (R c) (world), plus the particle.
  const Mat3 R = rotation_matrix(r);
  const Eigen::Vector3d v = u.head<3>(), w = u.segment<3>(3);
  const Vec3 rc = R * I.com;
  const Eigen::Vector3d vc = v + w.cross(Eigen::Vector3d(rc[0], rc[1], rc[2]));
  Eigen::Matrix3d Jb, Re;
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) {
      Jb(i, j) = I.J(i, j);
      Re(i, j) = R(i, j);
    }
  const double T = 0.5 * I.mass * vc.squaredNorm() + 0.5 * w.dot(Re * Jb * Re.transpose() * w) +
                   0.5 * 0.5 * u.tail<3>().squaredNorm();
  EXPECT_NEAR(sys.kinetic_energy(0.0, q, u), T, 1e-12 * T);
  CsrMatrix M;
  sys.mass_matrix(0.0, q, M);
  const Eigen::MatrixXd Md = dense(M);
  EXPECT_LT((Md - Md.transpose()).cwiseAbs().maxCoeff(), 1e-15);
  EXPECT_GT(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(Md).eigenvalues().minCoeff(), 0.0);
}

TEST(MechanicalSystem, AdvancePositionsRotatesExactlyAndKeepsUnitQuaternions) {
  MechanicalSystem sys;
  sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}}, quat_identity());
  Eigen::VectorXd q = sys.initial_positions(), u(6);
  u << 1, 0, 0, 0, 0, 0.5;  // w about z
  for (int k = 0; k < 1000; ++k) sys.advance_positions(q, u, 0.01, q);
  EXPECT_NEAR(q[0], 10.0, 1e-12);
  EXPECT_NEAR(std::sqrt(q.tail<4>().squaredNorm()), 1.0, 1e-14);
  EXPECT_NEAR(q[3], std::cos(0.25 * 10.0 * 0.5 * 2.0), 1e-12);  // angle 5 rad about z: q_s = cos(2.5)
  EXPECT_NEAR(q[6], std::sin(2.5), 1e-12);
}

TEST(MechanicalSystem, StiffnessPatternIsReusedAcrossEvaluations) {
  MechanicalSystem sys;
  test::build_mixed_scene(sys, true);
  std::mt19937 rng(5);
  Eigen::VectorXd q1, u1, q2, u2;
  test::random_state(sys, rng, q1, u1);
  test::random_state(sys, rng, q2, u2);
  CsrMatrix K1, K2;
  sys.stiffness(0.0, q1, u1, false, K1);
  sys.stiffness(0.0, q2, u2, false, K2);
  EXPECT_EQ(K1.row_ptr, K2.row_ptr);
  EXPECT_EQ(K1.col_idx, K2.col_idx);
  EXPECT_NE(K1.values, K2.values);
  EXPECT_NO_THROW(K1.validate());
}

TEST(MechanicalSystem, BadInputIsReportedByName) {
  MechanicalSystem sys;
  EXPECT_SINEW_ERROR(sys.add_particle(-1.0, Vec3{{0, 0, 0}}, "tip"), "particle 0 'tip'", "mass", "-1");
  EXPECT_SINEW_ERROR(sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}},
                                  Quaternion{1.0, Vec3{{0.1, 0, 0}}}, "arm"),
                     "body 0 'arm'", "unit quaternion");
  SpatialInertia bad = test::test_inertia(1.0, Vec3{{0, 0, 0}});
  bad.mass = 0.0;
  EXPECT_SINEW_ERROR(sys.add_body(bad, Vec3{{0, 0, 0}}, quat_identity(), "hand"), "body 0 'hand'", "mass");
  sys.add_particle(1.0, Vec3{{0, 0, 0}});
  auto springs = std::make_shared<AxialSpringField>();
  springs->add(particle_point(0), particle_point(3), LinearAxialSpring{1.0, 0.0, 1.0});
  EXPECT_SINEW_ERROR(sys.add_force_field(springs), "axial spring 0, end b", "particle index 3", "1 particles");
  auto frames = std::make_shared<FrameSpringField>();
  frames->add(2, FrameSpringField::kWorldFrame, FrameSpring{});
  EXPECT_SINEW_ERROR(sys.add_force_field(frames), "frame spring 0", "body index 2");
  EXPECT_SINEW_ERROR(springs->add(particle_point(0), particle_point(0), LinearAxialSpring{-2.0, 0.0, 1.0}),
                     "stiffness");
  TetFemField tets(MaterialModel::kLinear, ElasticParameters{});
  EXPECT_SINEW_ERROR(tets.add(sys, {0, 5, 0, 0}), "tetrahedron 0", "node 1", "out of range");
  Eigen::VectorXd f;
  EXPECT_SINEW_ERROR(sys.forces(0.0, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(3), ForcePart::kAll, f),
                     "q has 2 entries");
  // A body whose quaternion drifted off the unit sphere in q is named.
  MechanicalSystem one;
  one.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}}, quat_identity(), "drifter");
  Eigen::VectorXd q = one.initial_positions();
  q[3] = 2.0;
  EXPECT_SINEW_ERROR(one.forces(0.0, q, Eigen::VectorXd::Zero(6), ForcePart::kAll, f), "body 0 'drifter'",
                     "non-unit quaternion");
  EXPECT_SINEW_ERROR(one.set_body_pose(q, 0, Vec3{{0, 0, 0}}, Quaternion{0.5, Vec3{{0, 0, 0}}}), "body 0 'drifter'",
                     "unit quaternion");
  one.set_body_pose(q, 0, Vec3{{1, 2, 3}}, quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.5));
  Vec3 x;
  Quaternion r;
  one.body_pose(q, 0, x, r);
  EXPECT_EQ(x[2], 3.0);
  EXPECT_NEAR(r.s, std::cos(0.25), 1e-15);
  EXPECT_SINEW_ERROR(one.body_pose(q, 1, x, r), "body index 1");
}

TEST(MechanicalSystem, FixedComponentsListTheirVelocityDofs) {
  MechanicalSystem sys;
  sys.add_particle(1.0, Vec3{{0, 0, 0}});
  sys.add_body(test::test_inertia(1.0, Vec3{{0, 0, 0}}), Vec3{{0, 0, 0}}, quat_identity());
  sys.add_particle(1.0, Vec3{{1, 0, 0}});
  sys.fix_particle(1);  // the second particle: velocities 9-11, after the body's 3-8
  sys.fix_body(0);
  sys.fix_particle(1);  // twice: still listed once
  const std::vector<Index> expect{3, 4, 5, 6, 7, 8, 9, 10, 11};
  EXPECT_EQ(sys.fixed_velocity_dofs(), expect);
  EXPECT_SINEW_ERROR(sys.fix_body(1), "MechanicalSystem::fix_body", "body index 1");
}

// Every volumetric and membrane model: K matches finite differences on a deformed element.
TEST(MechanicalSystem, EveryTetAndMembraneModelMatchesFiniteDifferences) {
  for (MaterialModel model : {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                              MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean}) {
    MechanicalSystem sys;
    for (const auto& x : {Vec3{{0, 0, 0}}, Vec3{{1, 0, 0}}, Vec3{{0, 1, 0}}, Vec3{{0, 0, 1}}}) sys.add_particle(1.0, x);
    auto tets = std::make_shared<TetFemField>(model, ElasticParameters{1e3, 0.3});
    tets->add(sys, {0, 1, 2, 3});
    sys.add_force_field(tets);
    auto tris = std::make_shared<MembraneField>(model, ElasticParameters{1e3, 0.3});
    tris->add(sys, {0, 1, 2});
    sys.add_force_field(tris);
    std::mt19937 rng(static_cast<unsigned>(model) + 1);
    Eigen::VectorXd q, u;
    test::random_state(sys, rng, q, u);
    CsrMatrix K;
    sys.stiffness(0.0, q, u, false, K);
    EXPECT_TRUE(matrices_agree(dense(K), test::fd_stiffness(sys, 0.0, q, u), 1e-6, material_model_name(model)));
    Eigen::VectorXd f;
    sys.forces(0.0, q, u, ForcePart::kAll, f);
    EXPECT_TRUE(matrices_agree(f, test::fd_potential_force(sys, 0.0, q), 1e-6, material_model_name(model)));
  }
}

}  // namespace
}  // namespace sinew::model::model_mechanical_system_test
