// Masses, force fields and chains on mapped points (mapped_points.hpp, mapped_fields.hpp): against
// the same quantities assembled by hand (a body grown by a point mass, w w^T m on particles, a
// spring on markers) and against finite differences of the mapped forces.
#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "expect_error.hpp"
#include "mixed_scene.hpp"
#include "model_test_support.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/mapped_fields.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::model::model_mapped_points_test {
namespace {

using test::dense;
using test::matrices_agree;

const Vec3 kGravity{{0.3, -0.2, -9.81}};

// A body and four particles (a tet's corners), posed and moving (random state).
struct World {
  MechanicalSystem sys;
  Index body = 0, p[4] = {0, 0, 0, 0};
  explicit World(const SpatialInertia& inertia = test::test_inertia(2.0, Vec3{{0.1, -0.05, 0.2}})) {
    sys.set_gravity(kGravity);
    body = sys.add_body(inertia, Vec3{{0.2, 0.1, 0.3}}, quat_from_axis_angle(Vec3{{0.6, 0.8, 0}}, 0.7));
    const double X[4][3] = {{1, 0, 0}, {2, 0, 0.1}, {1, 1, 0}, {1.2, 0.3, 1}};
    for (int i = 0; i < 4; ++i) p[i] = sys.add_particle(0.5 + 0.1 * i, Vec3{{X[i][0], X[i][1], X[i][2]}});
  }
};

// The spatial inertia of @p I (body coordinates) with a point mass @p m at @p p added, by hand:
// the new centre of mass and the parallel-axis theorem.
SpatialInertia with_point_mass(const SpatialInertia& I, double m, const Vec3& p) {
  const double M = I.mass + m;
  const Eigen::Vector3d c = (I.mass * to_eigen(I.com) + m * to_eigen(p)) / M;
  auto shift = [&](double mass, const Eigen::Vector3d& d) {
    return mass * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  };
  const Eigen::Matrix3d J = to_eigen(I.J) + shift(I.mass, to_eigen(I.com) - c) + shift(m, to_eigen(p) - c);
  return make_spatial_inertia(M, to_vec3(c), to_mat3(J));
}

TEST(MappedMass, AMassOnAMarkerIsTheBodyGrownByThatPointMass) {
  const Vec3 p{{0.4, -0.3, 0.25}};
  const double m = 0.7;
  World mapped, grown(with_point_mass(test::test_inertia(2.0, Vec3{{0.1, -0.05, 0.2}}), m, p));
  auto points = std::make_shared<MappedPoints>(mapped.sys, std::vector<MappedPoint>{rigid_point(mapped.body, p)});
  mapped.sys.add_force_field(std::make_shared<MappedMassField>(points, std::vector<double>{m}));
  std::mt19937 rng(3);
  Eigen::VectorXd q, u;
  test::random_state(mapped.sys, rng, q, u);
  CsrMatrix Ma, Mb;
  mapped.sys.mass_matrix(0.0, q, Ma);
  grown.sys.mass_matrix(0.0, q, Mb);
  EXPECT_TRUE(matrices_agree(dense(Mb), dense(Ma), 1e-13, "mass matrix"));
  for (ForcePart part : {ForcePart::kElastic, ForcePart::kGyroscopic}) {
    Eigen::VectorXd fa, fb;
    mapped.sys.forces(0.0, q, u, part, fa);
    grown.sys.forces(0.0, q, u, part, fb);
    EXPECT_TRUE(matrices_agree(fb, fa, 1e-12, part == ForcePart::kElastic ? "gravity" : "fictitious forces"));
  }
  // Gravity's lever on the marker: K against finite differences, and the potential.
  EXPECT_TRUE(matrices_agree(
      test::fd_stiffness(mapped.sys, 0.0, q, u),
      [&] {
        CsrMatrix K;
        mapped.sys.stiffness(0.0, q, u, false, K);
        return dense(K);
      }(),
      1e-6, "K"));
  EXPECT_NEAR(mapped.sys.potential_energy(0.0, q), grown.sys.potential_energy(0.0, q), 1e-12);
}

TEST(MappedMass, MassesOnBarycentricAndMultimappedPointsAddJTransposeMJ) {
  World w;
  CsrMatrix M0;
  std::mt19937 rng(4);
  Eigen::VectorXd q, u;
  test::random_state(w.sys, rng, q, u);
  w.sys.mass_matrix(0.0, q, M0);
  Eigen::VectorXd f0;
  w.sys.forces(0.0, q, u, ForcePart::kElastic, f0);
  const std::vector<double> bary{0.1, 0.2, 0.3, 0.4};
  const MappedPoint multi{{particle_point(w.p[1]), 0.5}, {body_point(w.body, Vec3{{0.1, 0.2, -0.3}}), 0.5}};
  auto points = std::make_shared<MappedPoints>(
      w.sys, std::vector<MappedPoint>{barycentric_point({w.p[0], w.p[1], w.p[2], w.p[3]}, bary), multi});
  const std::vector<double> m{0.8, 0.6};
  w.sys.add_force_field(std::make_shared<MappedMassField>(points, m));
  CsrMatrix M;
  w.sys.mass_matrix(0.0, q, M);
  // By hand: J^T diag(m) J with J from the mapping.
  SystemState s;
  w.sys.evaluate_state(0.0, q, u, s);
  CsrMatrix J;
  points->jacobian(s, J);
  Eigen::VectorXd m3(6);
  m3 << m[0], m[0], m[0], m[1], m[1], m[1];
  const Eigen::MatrixXd added = dense(J).transpose() * m3.asDiagonal() * dense(J);
  EXPECT_TRUE(matrices_agree(added, dense(M) - dense(M0), 1e-13, "J^T m J"));
  // The barycentric block is m w w^T on each coordinate.
  const Index d0 = w.sys.particle_velocity_offset(w.p[0]), d3 = w.sys.particle_velocity_offset(w.p[3]);
  EXPECT_NEAR(dense(M)(d0, d3) - dense(M0)(d0, d3), m[0] * bary[0] * bary[3], 1e-15);
  // Kinetic energy: 1/2 u^T M u grows by 1/2 sum m |v_i|^2 of the mapped points.
  SystemState ps;
  points->evaluate(s, ps);
  double T = 0.0;
  for (int i = 0; i < 2; ++i) T += 0.5 * m[i] * dot(ps.v[i], ps.v[i]);
  EXPECT_NEAR(0.5 * u.dot(dense(M) * u) - 0.5 * u.dot(dense(M0) * u), T, 1e-12 * (1 + T));
  // Gravity of the masses: J^T m g.
  Eigen::VectorXd f, mg(6);
  w.sys.forces(0.0, q, u, ForcePart::kElastic, f);
  for (int i = 0; i < 2; ++i) mg.segment<3>(3 * i) = m[i] * to_eigen(kGravity);
  EXPECT_TRUE(matrices_agree(dense(J).transpose() * mg, f - f0, 1e-13, "J^T m g"));
  // Jdot u (the fictitious force is -J^T m Jdot u) against differences of J(q (+) h u) u.
  const double h = 1e-6;
  Eigen::VectorXd qp, qm;
  w.sys.advance_positions(q, u, h, qp);
  w.sys.advance_positions(q, u, -h, qm);
  SystemState sp, sm;
  w.sys.evaluate_state(0.0, qp, u, sp);
  w.sys.evaluate_state(0.0, qm, u, sm);
  CsrMatrix Jp, Jm;
  points->jacobian(sp, Jp);
  points->jacobian(sm, Jm);
  const Eigen::VectorXd a = (dense(Jp) * u - dense(Jm) * u) / (2 * h);
  EXPECT_TRUE(matrices_agree(points->velocity_product(s), a, 1e-6, "Jdot u"));
}

// Two mapped points (a marker, a multimapped point) and a barycentric one, with springs (damped,
// one with a nonlinear law) and a Neo-Hookean tet on proxy particles.
struct MappedScene {
  World w;
  std::shared_ptr<MappedPoints> points;
  MappedScene() {
    const MappedPoint multi{{particle_point(w.p[1]), 0.6}, {body_point(w.body, Vec3{{0.1, 0.2, -0.3}}), 0.4}};
    points = std::make_shared<MappedPoints>(
        w.sys,
        std::vector<MappedPoint>{rigid_point(w.body, Vec3{{0.3, -0.2, 0.1}}), multi,
                                 barycentric_point({w.p[0], w.p[1], w.p[2], w.p[3]}, {0.25, 0.25, 0.25, 0.25}),
                                 barycentric_point({w.p[2], w.p[3]}, {0.5, 0.5})},
        "probe points");
  }
};

TEST(MappedForceField, StiffnessDampingAndForcesMatchFiniteDifferences) {
  MappedScene sc;
  auto springs = std::make_shared<AxialSpringField>();
  springs->add(particle_point(0), particle_point(1), LinearAxialSpring{40.0, 0.5, 0.3});
  springs->add(particle_point(1), particle_point(2), LinearAxialSpring{25.0, 0.2, 0.1});
  springs->add(particle_point(0), particle_point(3), [](double l, double ldot) {
    return AxialTension{30.0 * (l - 0.5) + 4.0 * (l - 0.5) * (l - 0.5) * (l - 0.5) + 0.3 * ldot * ldot,
                        30.0 + 12.0 * (l - 0.5) * (l - 0.5), 0.6 * ldot};
  });
  auto tet = std::make_shared<TetFemField>(MaterialModel::kStableNeoHookean, ElasticParameters{2000.0, 0.3});
  tet->add(sc.points->proxy(), {0, 2, 1, 3});
  sc.w.sys.add_force_field(std::make_shared<MappedForceField>(sc.points, springs));
  sc.w.sys.add_force_field(std::make_shared<MappedForceField>(sc.points, tet));
  std::mt19937 rng(5);
  Eigen::VectorXd q, u;
  test::random_state(sc.w.sys, rng, q, u);
  CsrMatrix K, D;
  sc.w.sys.stiffness(0.0, q, u, false, K);
  sc.w.sys.damping(0.0, q, u, D);
  EXPECT_TRUE(matrices_agree(test::fd_stiffness(sc.w.sys, 0.0, q, u), dense(K), 1e-6, "K"));
  EXPECT_TRUE(matrices_agree(test::fd_damping(sc.w.sys, 0.0, q, u), dense(D), 1e-6, "D"));
  // The projected stiffness is positive semi-definite.
  sc.w.sys.stiffness(0.0, q, u, true, K);
  const Eigen::MatrixXd Kp = dense(K);
  EXPECT_GE(Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(0.5 * (Kp + Kp.transpose())).eigenvalues().minCoeff(),
            -1e-9 * Kp.cwiseAbs().maxCoeff());
}

TEST(MappedForceField, ConservativeFieldsKeepTheirPotential) {
  MappedScene sc;
  auto tet = std::make_shared<TetFemField>(MaterialModel::kCorotational, ElasticParameters{5000.0, 0.25});
  tet->add(sc.points->proxy(), {0, 2, 1, 3});
  sc.w.sys.add_force_field(std::make_shared<MappedForceField>(sc.points, tet));
  sc.w.sys.add_force_field(std::make_shared<MappedMassField>(sc.points, std::vector<double>{0.1, 0.2, 0.3, 0.4}));
  ASSERT_TRUE(sc.w.sys.has_potential());
  std::mt19937 rng(6);
  Eigen::VectorXd q, u;
  test::random_state(sc.w.sys, rng, q, u);
  Eigen::VectorXd f;
  sc.w.sys.forces(0.0, q, Eigen::VectorXd::Zero(u.size()), ForcePart::kElastic, f);
  EXPECT_TRUE(matrices_agree(test::fd_potential_force(sc.w.sys, 0.0, q), f, 1e-6, "-dV/dq"));
}

TEST(MappedForceField, ASpringOnMappedMarkersIsTheSpringOnTheMarkers) {
  World a, b;
  const Vec3 pa{{0.3, -0.2, 0.1}};
  const LinearAxialSpring k{50.0, 0.7, 0.4};
  auto points = std::make_shared<MappedPoints>(
      a.sys, std::vector<MappedPoint>{rigid_point(a.body, pa), barycentric_point({a.p[2]}, {1.0})});
  auto on_proxy = std::make_shared<AxialSpringField>();
  on_proxy->add(particle_point(0), particle_point(1), k);
  a.sys.add_force_field(std::make_shared<MappedForceField>(points, on_proxy));
  auto direct = std::make_shared<AxialSpringField>();
  direct->add(body_point(b.body, pa), particle_point(b.p[2]), k);
  b.sys.add_force_field(direct);
  std::mt19937 rng(7);
  Eigen::VectorXd q, u;
  test::random_state(a.sys, rng, q, u);
  Eigen::VectorXd fa, fb;
  a.sys.forces(0.0, q, u, ForcePart::kElastic, fa);
  b.sys.forces(0.0, q, u, ForcePart::kElastic, fb);
  EXPECT_TRUE(matrices_agree(fb, fa, 1e-13, "forces"));
  CsrMatrix Ka, Kb, Da, Db;
  a.sys.stiffness(0.0, q, u, false, Ka);
  b.sys.stiffness(0.0, q, u, false, Kb);
  a.sys.damping(0.0, q, u, Da);
  b.sys.damping(0.0, q, u, Db);
  EXPECT_TRUE(matrices_agree(dense(Kb), dense(Ka), 1e-12, "K"));
  EXPECT_TRUE(matrices_agree(dense(Db), dense(Da), 1e-12, "D"));
}

TEST(MappedPoints, AChainComposesToOneMappingWhoseJacobianIsTheProduct) {
  World w;
  // Inner: the corners of a tet fixed in the body (rigid points), and a particle.
  const Vec3 c[3] = {{{0.0, 0.0, 0.0}}, {{0.5, 0.0, 0.1}}, {{0.0, 0.4, -0.2}}};
  auto inner = std::make_shared<MappedPoints>(
      w.sys, std::vector<MappedPoint>{rigid_point(w.body, c[0]), rigid_point(w.body, c[1]), rigid_point(w.body, c[2]),
                                      barycentric_point({w.p[3]}, {1.0})});
  // Outer: a barycentric point of the three markers, and one mixing a marker, the particle and
  // a world point (a multimapping over the inner state).
  const MappedPoint bary = barycentric_point({0, 1, 2}, {0.2, 0.3, 0.5});
  const MappedPoint mixed{{particle_point(1), 0.4}, {particle_point(3), 0.5}, {world_point(Vec3{{1, 1, 1}}), 0.1}};
  const MappedPoints chained(w.sys, {compose(bary, *inner), compose(mixed, *inner)}, "chained");
  std::mt19937 rng(8);
  Eigen::VectorXd q, u;
  test::random_state(w.sys, rng, q, u);
  SystemState s;
  w.sys.evaluate_state(0.0, q, u, s);
  // J_chain = J_outer J_inner, J_outer the (constant) weights over the inner points.
  CsrMatrix Jin, Jchain;
  inner->jacobian(s, Jin);
  chained.jacobian(s, Jchain);
  Eigen::MatrixXd Jout = Eigen::MatrixXd::Zero(6, 12);
  for (int k = 0; k < 3; ++k) Jout.block<3, 3>(0, 3 * k).diagonal().setConstant(bary[k].weight);
  Jout.block<3, 3>(3, 3).diagonal().setConstant(0.4);
  Jout.block<3, 3>(3, 9).diagonal().setConstant(0.5);
  EXPECT_TRUE(matrices_agree(Jout * dense(Jin), dense(Jchain), 1e-14, "J_outer J_inner"));
  // The barycentric point of markers is the marker at the weighted local point.
  const Vec3 local = 0.2 * c[0] + 0.3 * c[1] + 0.5 * c[2];
  const MappedPoints direct(w.sys, {rigid_point(w.body, local)});
  CsrMatrix Jd;
  direct.jacobian(s, Jd);
  EXPECT_TRUE(matrices_agree(dense(Jd), dense(Jchain).topRows(3), 1e-14, "rigid point"));
  SystemState pc, pd;
  chained.evaluate(s, pc);
  direct.evaluate(s, pd);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(pc.x[0][i], pd.x[0][i], 1e-14);
  EXPECT_SINEW_ERROR(compose(barycentric_point({0, 7}, {0.5, 0.5}), *inner), "particle 7", "4 points");
}

TEST(MappedPoints, BadPointsMassesAndSystemsAreRefused) {
  World w, other;
  EXPECT_SINEW_ERROR(MappedPoints(w.sys, {MappedPoint{}}, "surface"), "surface point 0", "no term");
  EXPECT_SINEW_ERROR(MappedPoints(w.sys, {rigid_point(5, Vec3{{0, 0, 0}})}, "surface"), "surface point 0");
  auto points = std::make_shared<MappedPoints>(w.sys, std::vector<MappedPoint>{rigid_point(0, Vec3{{0, 0, 0}})});
  EXPECT_SINEW_ERROR(MappedMassField(points, {-1.0}), "point 0", "> 0");
  EXPECT_SINEW_ERROR(MappedMassField(points, {1.0, 2.0}), "2 masses");
  EXPECT_SINEW_ERROR(other.sys.add_force_field(std::make_shared<MappedMassField>(points, std::vector<double>{1.0})),
                     "another MechanicalSystem");
  auto spring = std::make_shared<AxialSpringField>();
  spring->add(particle_point(0), particle_point(3), LinearAxialSpring{});
  EXPECT_SINEW_ERROR(MappedForceField(points, spring), "particle");
}

}  // namespace
}  // namespace sinew::model::model_mapped_points_test
