// Attachments eliminated by null-space reduction (ArtiSynth mechanics notes 0.17-0.21) combined
// with contact, joints and one-dimensional constraints in ContactStep (issue 21, part 3): the
// step on a model::ReducedSystem against the same scene on the full system with the attachments
// as hard rows written independently, against the isolated-constraint formula of sec. 0.20, and
// a driven (parametric, sec. 0.21) paddle pushing a box against the friction it must overcome.
#include <gtest/gtest.h>

#include <Eigen/Dense>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "expect_error.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_point.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/reduced_system.hpp"

namespace sinew::physics_attached_contact_test {
namespace {

using constraints::BlockKind;
using integrators::ContactStep;
using integrators::ContactStepOptions;
using integrators::State;
using integrators::StepFactor;

// The hard rows x_k - sum_j w_j x_j = 0 of a barycentric attachment, written here on their own:
// the full-system reference of the reduction.
class BarycentricRows final : public constraints::Constraint {
 public:
  BarycentricRows(Index k, std::vector<Index> masters, std::vector<double> weights)
      : k_(k), masters_(std::move(masters)), w_(std::move(weights)) {}
  std::string name() const override { return "barycentric rows"; }
  void check(const model::MechanicalSystem&) const override {}
  void add_rows(const model::MechanicalSystem&, const model::SystemState& s,
                constraints::ConstraintRows& out) const override {
    Vec3 phi = s.x[static_cast<std::size_t>(k_)];
    for (std::size_t j = 0; j < masters_.size(); ++j) phi = phi - w_[j] * s.x[static_cast<std::size_t>(masters_[j])];
    for (int c = 0; c < 3; ++c) {
      const Index row = out.add_block(BlockKind::kBilateral, 0.0, {phi[c]}, {0.0}, name());
      out.jacobian.emplace_back(row, s.particle_dof[static_cast<std::size_t>(k_)] + c, 1.0);
      for (std::size_t j = 0; j < masters_.size(); ++j)
        out.jacobian.emplace_back(row, s.particle_dof[static_cast<std::size_t>(masters_[j])] + c, -w_[j]);
    }
  }

 private:
  Index k_;
  std::vector<Index> masters_;
  std::vector<double> w_;
};

std::unique_ptr<ContactStep> newton_step(Backend& backend, StepFactor factor = StepFactor::kAuto) {
  ContactStepOptions options;
  options.factor = factor;
  return std::make_unique<ContactStep>(contact_test::make_contact_solver("newton_fb", backend, 1e-13), options);
}

// A triangle of three free particles carrying a fourth inside it (barycentric), thrown sideways
// onto a rough floor: the attached particle and one corner touch the floor.
struct TriangleScene {
  model::MechanicalSystem sys;
  Index p[4] = {};
  std::vector<double> w{0.2, 0.3, 0.5};
  std::unique_ptr<constraints::ContactConstraint> contact;

  TriangleScene() {
    sys.set_gravity(Vec3{{0, 0, -9.81}});
    const Vec3 v{{0.6, 0.2, 0.0}};
    const Vec3 x0{{-0.2, 0.0, 0.05}}, x1{{0.25, -0.1, 0.16}}, x2{{0.05, 0.3, 0.12}};
    p[0] = sys.add_particle(1.0, x0, "p0", v);
    p[1] = sys.add_particle(2.0, x1, "p1", v);
    p[2] = sys.add_particle(1.5, x2, "p2", v);
    p[3] = sys.add_particle(0.5, w[0] * x0 + w[1] * x1 + w[2] * x2, "attached", v);
    constraints::ContactOptions o;
    o.mu = 0.5;
    contact = std::make_unique<constraints::ContactConstraint>(o);
    const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
    contact->add_obstacle(floor.shape, floor.pose);
    contact->add_particles(p[0], 1);
    contact->add_particles(p[3], 1);
  }
};

// Eliminating the attachment (T: the attached particle's velocity is sum w_j v_j) and keeping it
// as hard rows solve the same problem: min |v - v*|_M over the attached motions. So with contact
// on the attached particle and on a master the two trajectories agree to the solver's tolerance.
// Implicit Euler, the symplectic midpoint theta-method and compliant alpha/beta.
integrators::ContactStepOptions scheme_options(int scheme) {
  integrators::ContactStepOptions o;
  if (scheme == 1) o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  if (scheme == 2) {
    integrators::CompliantAlphaBetaOptions ab;
    ab.alpha = 0.7;
    ab.beta = 0.8;
    o.alpha_beta = ab;
  }
  return o;
}

class ReducedContactSchemes : public ::testing::TestWithParam<int> {};

TEST_P(ReducedContactSchemes, BarycentricAttachmentWithContactEqualsTheHardRows) {
  TriangleScene sc;
  model::ReducedSystem red(sc.sys);
  red.attach_particle(sc.p[3], model::barycentric_point({sc.p[0], sc.p[1], sc.p[2]}, sc.w));
  red.finalize();
  const BarycentricRows rows(sc.p[3], {sc.p[0], sc.p[1], sc.p[2]}, sc.w);

  auto backend = make_backend("serial");
  const auto make = [&] {
    return std::make_unique<ContactStep>(contact_test::make_contact_solver("newton_fb", *backend, 1e-13),
                                         scheme_options(GetParam()));
  };
  auto full_step = make(), red_step = make();
  State full{0.0, sc.sys.initial_positions(), sc.sys.initial_velocities()};
  State reduced{0.0, full.q, Eigen::VectorXd::Zero(red.num_velocities())};
  for (Index i = 0; i < 3; ++i) reduced.u.segment<3>(red.particle_velocity_offset(i)) = full.u.segment<3>(3 * i);
  EXPECT_EQ(red.free_velocities(full.u), reduced.u);
  EXPECT_EQ(red.num_velocities(), 9);
  constexpr double h = 2e-3;
  double min_height = 1.0, max_diff = 0.0;
  int touching_steps = 0;
  const Index z3 = sc.sys.particle_position_offset(sc.p[3]) + 2;
  for (int k = 0; k < 250; ++k) {
    const auto rf = full_step->step(sc.sys, {sc.contact.get(), &rows}, full, h);
    const auto rr = red_step->step(red, {sc.contact.get()}, reduced, h);
    ASSERT_TRUE(rf.ok() && rr.ok()) << k << ": " << rf.message << rr.message;
    EXPECT_EQ(rr.rows + 3, rf.rows) << k;  // the reduced step has no attachment rows
    if (rr.contacts > 0 && red_step->last_impulses()[rr.rows - 3] > 0) ++touching_steps;
    Eigen::VectorXd u_full;
    red.full_velocities(reduced.t, reduced.q, reduced.u, u_full);
    max_diff =
        std::max({max_diff, (reduced.q - full.q).cwiseAbs().maxCoeff(), (u_full - full.u).cwiseAbs().maxCoeff()});
    min_height = std::min(min_height, reduced.q[z3]);
    // The impulses on the full velocities, reduced by T^T, are the reduced rows' H r.
    if (rr.rows > 0) {
      CsrMatrix T;
      red.reduction_matrix(reduced.t - h, full.q, T);
      const Eigen::VectorXd g = red_step->last_system_impulses();
      const Eigen::VectorXd Hr = to_eigen(red_step->last_problem().H) * red_step->last_impulses();
      ASSERT_EQ(g.size(), sc.sys.num_velocities());
      EXPECT_LT((to_eigen(T).transpose() * g - Hr).cwiseAbs().maxCoeff(), 1e-12) << k;
    }
  }
  std::printf("[ reduced ] attached particle on the floor in %d of 250 steps; reduced vs hard rows %.2e\n",
              touching_steps, max_diff);
  EXPECT_GT(touching_steps, 50) << "the attached particle must carry contact";
  EXPECT_GT(min_height, -1e-6) << "the attached particle does not sink";
  // The midpoint's contact sticks and slips in different steps than implicit Euler's, and each
  // transition amplifies the solvers' tolerances (1e-13 contact, 1e-10 Newton): 1.2e-9 measured.
  EXPECT_LT(max_diff, GetParam() == 1 ? 1e-8 : 1e-9);
}

INSTANTIATE_TEST_SUITE_P(Schemes, ReducedContactSchemes, ::testing::Values(0, 1, 2));

// A pendulum of two rigid bodies welded together (the second attached to the first, which a
// hinge holds to the world) carrying a particle at its tip (attached to the attached body:
// sec. 0.18) swings down onto the floor, where the tip's contact stops it. Reference: the same
// scene with the two attachments as a weld and a ball joint. The two discretize the rigid
// attachments differently (exact placement against rows linearized at the start of the step),
// so their trajectories agree to O(h): the largest gap along the swing must halve with the step.
struct PendulumRun {
  double gap = 0.0;                         // largest position difference, reduced vs rows, over the run
  double tip_min = 1.0;                     // lowest height of the tip (reduced)
  int touching = 0;                         // reduced steps with the tip in contact
  int baraff = 0;                           // reduced steps solved on Baraff's factor
  Eigen::VectorXd q;                        // the reduced run's final positions
  std::vector<Eigen::VectorXd> trajectory;  // the reduced run's positions, step by step
};

// The run with the reduced steps' stage 2 on @p factor.
PendulumRun run_pendulum(double h, StepFactor factor = StepFactor::kAuto) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 half{{0.1, 0.02, 0.02}};
  // b0 hinged at (0, 0, 0.3) about y, lying along +x; b1 beyond it; the tip particle beyond b1.
  const Index b0 = sys.add_body(scene::box_inertia(1.0, half), Vec3{{0.1, 0, 0.3}}, quat_identity(), "b0");
  const Index b1 = sys.add_body(scene::box_inertia(0.5, half), Vec3{{0.3, 0, 0.3}}, quat_identity(), "b1");
  const Index tip = sys.add_particle(0.2, Vec3{{0.42, 0, 0.3}}, "tip");
  constraints::ContactOptions o;
  o.mu = 0.6;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_particles(tip, 1);
  const constraints::HingeJoint hinge("hinge", constraints::world_side(Vec3{{0, 0, 0.3}}, Vec3{{0, 1, 0}}),
                                      constraints::body_side(b0, Vec3{{-0.1, 0, 0}}, Vec3{{0, 1, 0}}));
  const constraints::FixedJoint weld("weld", constraints::body_side(b0, Vec3{{0.2, 0, 0}}),
                                     constraints::body_side(b1, Vec3{{0, 0, 0}}));
  const constraints::BallJoint ball("tip", constraints::body_side(b1, Vec3{{0.12, 0, 0}}),
                                    constraints::particle_side(tip));
  model::ReducedSystem red(sys);
  red.attach_body(b1, b0);
  red.attach_particle_to_body(tip, b1);
  red.finalize();

  auto backend = make_backend("serial");
  auto red_step = newton_step(*backend, factor), rows_step = newton_step(*backend);
  State reduced{0.0, sys.initial_positions(), Eigen::VectorXd::Zero(red.num_velocities())};
  State rows{0.0, sys.initial_positions(), sys.initial_velocities()};
  PendulumRun run;
  const int steps = static_cast<int>(std::lround(0.4 / h));
  const Index z = sys.particle_position_offset(tip) + 2;
  for (int k = 0; k < steps; ++k) {
    const auto rr = red_step->step(red, {&contact, &hinge}, reduced, h);
    const auto rj = rows_step->step(sys, {&contact, &hinge, &weld, &ball}, rows, h);
    if (!rr.ok() || !rj.ok()) {
      ADD_FAILURE() << "step " << k << ": " << rr.message << rj.message;
      break;
    }
    if (rr.contacts > 0) ++run.touching;
    if (rr.baraff) ++run.baraff;
    run.trajectory.push_back(reduced.q);
    run.tip_min = std::min(run.tip_min, reduced.q[z]);
    run.gap = std::max(run.gap, (reduced.q - rows.q).cwiseAbs().maxCoeff());
  }
  run.q = reduced.q;
  return run;
}

TEST(ReducedContact, AttachedToAttachedWithAHingeAndContactConvergesToTheJointRows) {
  const PendulumRun coarse = run_pendulum(2e-3), fine = run_pendulum(1e-3);
  for (const PendulumRun* run : {&coarse, &fine}) {
    EXPECT_GT(run->touching, 20) << "the tip must come to rest on the floor";
    EXPECT_GT(run->tip_min, -1e-4) << "the tip does not sink through the floor";
    // At rest the tip lies on the floor: the pendulum turned by asin(0.3 / 0.42) about the hinge.
    const double angle = std::asin(0.3 / 0.42);
    EXPECT_NEAR(run->q[0], 0.1 * std::cos(angle), 1e-4);
    EXPECT_NEAR(run->q[2], 0.3 - 0.1 * std::sin(angle), 1e-4);
  }
  std::printf("[ reduced ] pendulum: largest gap reduced vs joint rows over 0.4 s: %.3e (h = 2 ms), %.3e (h = 1 ms)\n",
              coarse.gap, fine.gap);
  EXPECT_LT(coarse.gap, 2e-4);
  EXPECT_GT(coarse.gap, 1e-8) << "the two discretizations differ";
  EXPECT_LT(fine.gap, 0.65 * coarse.gap) << "and converge to one motion";
}

// The reduced pendulum's joint graph (the hinge; the weld and the tip are eliminated) is a
// forest: its stage 2 on Baraff's factor, the contact auxiliary, gives the sparse solve's
// trajectory.
TEST(ReducedContact, BaraffsFactorOnAReducedSystemGivesTheSparseTrajectory) {
  const PendulumRun baraff = run_pendulum(2e-3, StepFactor::kBaraff), sparse = run_pendulum(2e-3, StepFactor::kSparse);
  ASSERT_EQ(baraff.trajectory.size(), sparse.trajectory.size());
  EXPECT_EQ(baraff.baraff, static_cast<int>(baraff.trajectory.size())) << "every step on Baraff's factor";
  EXPECT_EQ(sparse.baraff, 0);
  EXPECT_GT(baraff.touching, 20);
  double gap = 0.0;
  for (std::size_t k = 0; k < baraff.trajectory.size(); ++k)
    gap = std::max(gap, (baraff.trajectory[k] - sparse.trajectory[k]).cwiseAbs().maxCoeff());
  std::printf("[ reduced ] pendulum on Baraff's factor against the sparse solve: largest gap %.3e over %zu steps\n",
              gap, baraff.trajectory.size());
  EXPECT_LT(gap, 1e-9);
}

// Sec. 0.20: one row G on attached points, G' = G T is a row vector g_j per master component, and
// the constraint solved in isolation moves each master by M_j^-1 g_j^T (sum_k g_k M_k^-1
// g_k^T)^-1 (gamma - sum_k g_k v_k0). Two translating bodies carry particles joined by a rod; the
// step on the reduced system gives that formula, computed here from g_k written by hand.
TEST(ReducedContact, AOneDimensionalConstraintOnAttachedPointsIsEq020) {
  model::MechanicalSystem sys;  // no gravity: the free motion is v0 (no rotation, no forces)
  const Index b0 = sys.add_body(scene::box_inertia(2.0, Vec3{{0.1, 0.05, 0.03}}), Vec3{{0, 0, 0}}, quat_identity(),
                                "b0", Vec3{{-0.3, 0.4, 0.1}});
  const Index b1 = sys.add_body(scene::box_inertia(1.0, Vec3{{0.04, 0.08, 0.02}}), Vec3{{1, 0.2, 0.1}}, quat_identity(),
                                "b1", Vec3{{0.5, -0.2, 0.3}});
  const Vec3 xa{{0.1, 0.05, -0.02}}, xb{{0.9, 0.25, 0.15}};
  const Index pa = sys.add_particle(0.3, xa, "a", Vec3{{-0.3, 0.4, 0.1}});
  const Index pb = sys.add_particle(0.7, xb, "b", Vec3{{0.5, -0.2, 0.3}});
  constraints::DistanceOptions rod;
  rod.length = norm(xb - xa);
  const constraints::DistanceJoint joint("rod", constraints::particle_side(pa), constraints::particle_side(pb), rod);
  model::ReducedSystem red(sys);
  red.attach_particle_to_body(pa, b0);
  red.attach_particle_to_body(pb, b1);
  red.finalize();
  ASSERT_EQ(red.num_velocities(), 12);

  State s{0.0, sys.initial_positions(), Eigen::VectorXd::Zero(12)};
  s.u.segment<3>(red.body_velocity_offset(b0)) = Eigen::Vector3d(-0.3, 0.4, 0.1);
  s.u.segment<3>(red.body_velocity_offset(b1)) = Eigen::Vector3d(0.5, -0.2, 0.3);
  const Eigen::VectorXd u0 = s.u;
  ContactStep step(std::make_unique<constraints::KktSolver>());
  const auto report = step.step(red, {&joint}, s, 1e-3);
  ASSERT_TRUE(report.ok()) << report.message;
  ASSERT_EQ(report.rows, 1);

  // g_k: n . (v_k + w_k x r_k) = [n, r_k x n] . (v_k, w_k), with the sign of the row's side.
  const Vec3 d = xb - xa;
  const Vec3 n = (1.0 / norm(d)) * d;
  const auto g_of = [&](const Vec3& r, double sign) {
    const Vec3 rn = cross(r, n);
    Eigen::Matrix<double, 1, 6> g;
    g << n[0], n[1], n[2], rn[0], rn[1], rn[2];
    return Eigen::Matrix<double, 1, 6>(sign * g);
  };
  const Eigen::Matrix<double, 1, 6> g0 = g_of(xa - Vec3{{0, 0, 0}}, -1.0), g1 = g_of(xb - Vec3{{1, 0.2, 0.1}}, 1.0);
  CsrMatrix Mr;
  red.mass_matrix(0.0, sys.initial_positions(), Mr);
  const Eigen::MatrixXd M = to_eigen(Mr).toDense();
  const Index o0 = red.body_velocity_offset(b0), o1 = red.body_velocity_offset(b1);
  const Eigen::Matrix<double, 6, 6> M0 = M.block<6, 6>(o0, o0), M1 = M.block<6, 6>(o1, o1);
  EXPECT_LT((M.block<6, 6>(o0, o1).cwiseAbs().maxCoeff()), 1e-15) << "one master each: block-diagonal M'";
  const double gMg = (g0 * M0.inverse() * g0.transpose())(0, 0) + (g1 * M1.inverse() * g1.transpose())(0, 0);
  const double gamma = 0.0;  // the rod is at its length: the row's velocity must be zero
  const double lambda = (gamma - (g0 * u0.segment<6>(o0))(0, 0) - (g1 * u0.segment<6>(o1))(0, 0)) / gMg;
  Eigen::VectorXd expected = u0;
  expected.segment<6>(o0) += M0.inverse() * g0.transpose() * lambda;
  expected.segment<6>(o1) += M1.inverse() * g1.transpose() * lambda;
  EXPECT_LT((s.u - expected).cwiseAbs().maxCoeff(), 1e-12 * expected.cwiseAbs().maxCoeff())
      << "step:\n"
      << s.u.transpose() << "\neq. 0.20:\n"
      << expected.transpose();
  EXPECT_GT(std::abs(lambda), 0.1) << "the rod must act";
}

// Sec. 0.21: a paddle whose motion is prescribed (a parametric component, no velocity of its
// own) pushes a box across a rough floor at its speed. The push is frictionless, so at steady
// sliding the paddle's normal impulse per step is the floor's friction mu m g h.
TEST(ReducedContact, ADrivenPaddlePushesABoxAtItsSpeed) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 box_half{{0.05, 0.05, 0.05}};
  const double m = 1.0, mu = 0.3, speed = 0.2;
  const Index box = sys.add_body(scene::box_inertia(m, box_half), Vec3{{0, 0, 0.05}}, quat_identity(), "box");
  const Index paddle = sys.add_body(scene::box_inertia(0.5, Vec3{{0.02, 0.02, 0.02}}), Vec3{{-0.075, 0, 0.05}},
                                    quat_identity(), "paddle");
  constraints::ContactOptions o;
  o.mu = mu;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_body_collider(box, scene::box_shape(box_half));
  contact.add_body_collider(paddle, Shape{ShapeType::kSphere, {0.02, 0, 0}}, /*material=*/1);
  contact.set_friction(0, 1, 0.0);
  model::ReducedSystem red(sys);
  red.drive_body(paddle, [=](double t) {
    return model::BodyMotion{Vec3{{-0.075 + speed * t, 0, 0.05}},
                             quat_identity(),
                             Vec3{{speed, 0, 0}},
                             Vec3{{0, 0, 0}},
                             Vec3{{0, 0, 0}},
                             Vec3{{0, 0, 0}}};
  });
  red.finalize();
  ASSERT_EQ(red.num_velocities(), 6) << "the paddle has no velocity of its own";

  auto backend = make_backend("serial");
  auto stepper = newton_step(*backend);
  constexpr double h = 1e-3;
  State s{0.0, sys.initial_positions(), Eigen::VectorXd::Zero(6)};
  for (int k = 0; k < 300; ++k) {
    const auto r = stepper->step(red, {&contact}, s, h);
    ASSERT_TRUE(r.ok()) << k << ": " << r.message;
  }
  Vec3 xb, xp;
  Quaternion q;
  sys.body_pose(s.q, box, xb, q);
  sys.body_pose(s.q, paddle, xp, q);
  EXPECT_NEAR(xp[0], -0.075 + speed * 0.3, 1e-12) << "the paddle is on its trajectory";
  EXPECT_NEAR(s.u[red.body_velocity_offset(box)], speed, 1e-6) << "the box moves at the paddle's speed";
  EXPECT_NEAR(xb[0] - xp[0], 0.07, 1e-4) << "in contact with the paddle's sphere";
  // The paddle's contact is the last block (collider pairs come after the floor's contacts).
  const Eigen::VectorXd& r = stepper->last_impulses();
  const double push = r[r.size() - 3] / h;
  std::printf("[ reduced ] driven paddle: push %.6f N, mu m g = %.6f N\n", push, mu * m * 9.81);
  EXPECT_NEAR(push, mu * m * 9.81, 1e-6 * mu * m * 9.81);
}

// A reduced step takes the reduced velocities; the full ones are a size error naming the sizes.
TEST(ReducedContact, AFullVelocityVectorIsASizeError) {
  TriangleScene sc;
  model::ReducedSystem red(sc.sys);
  red.attach_particle(sc.p[3], model::barycentric_point({sc.p[0], sc.p[1], sc.p[2]}, sc.w));
  red.finalize();
  auto backend = make_backend("serial");
  auto step = newton_step(*backend);
  State s{0.0, sc.sys.initial_positions(), sc.sys.initial_velocities()};
  EXPECT_SINEW_ERROR(step->step(red, {sc.contact.get()}, s, 1e-3), "12");
  EXPECT_SINEW_ERROR(red.free_velocities(Eigen::VectorXd::Zero(9)), "free_velocities", "9 entries, expected 12");
}

}  // namespace
}  // namespace sinew::physics_attached_contact_test
