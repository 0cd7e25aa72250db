// Joints on a MechanicalSystem: Jacobians against central differences of phi on the
// configuration manifold, the relative motion each joint allows (its null space), compliance
// reproducing lambda = -(phi + d phidot)/c, limits (inactive, near, violated; dynamics with
// PGS), drives, and errors that name the joint.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "chain_stepper.hpp"
#include "expect_error.hpp"
#include "joint_test_support.hpp"
#include "sinew/constraints/joint_point.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/kkt_solver.hpp"

namespace sinew::constraints::constraints_joint_test {
namespace {

using testing::dense_jacobian;
using testing::jacobian_fd_error;
using testing::random_system;
using testing::rows_at;

const Vec3 kX{{1, 0, 0}}, kY{{0, 1, 0}}, kZ{{0, 0, 1}};

AxisJointOptions wide_limit(double lower, double upper) {
  AxisJointOptions o;
  o.limit.enabled = true;
  o.limit.lower = lower;
  o.limit.upper = upper;
  o.limit.margin = 100;  // both bounds' rows always present, so their Jacobians are checked too
  return o;
}

TEST(JointJacobian, EveryJointMatchesCentralDifferencesAtRandomStates) {
  std::mt19937 rng(7);
  double worst = 0;
  for (int trial = 0; trial < 4; ++trial) {
    auto sys = random_system(rng);
    const Eigen::VectorXd q = sys->initial_positions();
    // Sides with random origins and axes: the states violate every joint, so the check covers
    // the exact derivative of phi, not only its value at phi = 0.
    auto body = [&](Index b) {
      return body_side(b, testing::random_vec(rng, 0.5), testing::random_vec(rng), testing::random_vec(rng));
    };
    const JointSide world = world_side(testing::random_vec(rng), testing::random_vec(rng), testing::random_vec(rng));
    const JointSide particle = particle_side(0, testing::random_vec(rng), testing::random_vec(rng));
    DistanceOptions rope;
    rope.rope = true;
    rope.length = 0.5;
    rope.margin = 100;
    SurfaceOptions sphere;
    sphere.shape = SurfaceOptions::Shape::kSphere;
    sphere.radius = 0.3;
    struct Case {
      std::shared_ptr<Constraint> joint;
      int position_rows;
    };
    const std::vector<Case> cases = {
        {std::make_shared<BallJoint>("b-b", body(0), body(1)), 3},
        {std::make_shared<BallJoint>("w-b", world, body(1)), 3},
        {std::make_shared<BallJoint>("p-b", particle, body(0)), 3},
        {std::make_shared<HingeJoint>("b-b", body(0), body(1), wide_limit(-3, 3)), 7},
        {std::make_shared<HingeJoint>("w-b", world, body(1), wide_limit(-3, 3)), 7},
        {std::make_shared<HingeJoint>("b-p", body(1), particle), 5},
        {std::make_shared<SliderJoint>("b-b", body(0), body(1), wide_limit(-2, 2)), 7},
        {std::make_shared<SliderJoint>("w-b", world, body(0), wide_limit(-2, 2)), 7},
        {std::make_shared<SliderJoint>("p-b", particle, body(1)), 5},
        {std::make_shared<FixedJoint>("b-b", body(0), body(1)), 6},
        {std::make_shared<FixedJoint>("w-b", world, body(0)), 6},
        {std::make_shared<DistanceJoint>("b-b", body(0), body(1)), 1},
        {std::make_shared<DistanceJoint>("p-b", particle, body(1)), 1},
        {std::make_shared<DistanceJoint>("w-p", world, particle, rope), 1},
        {std::make_shared<DistanceJoint>("b-b", body(0), body(1), rope), 1},
        {std::make_shared<PointOnSurfaceJoint>("b-b", body(0), body(1)), 1},
        {std::make_shared<PointOnSurfaceJoint>("b-p", body(0), particle), 1},
        {std::make_shared<PointOnSurfaceJoint>("w-b", world, body(1)), 1},
        {std::make_shared<PointOnSurfaceJoint>("b-b", body(1), body(0), sphere), 1},
        {std::make_shared<PointOnSurfaceJoint>("p-b", particle, body(0), sphere), 1},
    };
    for (const Case& c : cases) {
      c.joint->check(*sys);
      const double err = jacobian_fd_error(*c.joint, *sys, q, c.position_rows);
      EXPECT_LT(err, 1e-7) << c.joint->name() << " (trial " << trial << ")";
      worst = std::max(worst, err);
    }
  }
  std::printf("largest relative FD error of the joint Jacobians: %.2e\n", worst);
  RecordProperty("max_relative_fd_error", std::to_string(worst));
}

// ----- null spaces -------------------------------------------------------------------------

// Two bodies whose joint frames are placed so that the joint holds exactly: frame B = frame A
// turned by theta about z_A and shifted by travel along z_A.
struct HeldPair {
  std::unique_ptr<model::MechanicalSystem> sys;
  Eigen::VectorXd q;
  JointFrame A;
};

HeldPair held_pair(std::mt19937& rng, const JointSide& a, const JointSide& b, double theta, double travel) {
  HeldPair h;
  h.sys = random_system(rng, false);
  h.q = h.sys->initial_positions();
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(h.sys->num_velocities());
  model::SystemState s;
  h.sys->set_body_pose(h.q, 1, Vec3{{0, 0, 0}}, quat_identity());
  h.sys->evaluate_state(0, h.q, u, s);
  h.A = evaluate_joint_frame(s, a);
  const JointFrame Fb = evaluate_joint_frame(s, b);  // body 1 at the identity: B's local frame
  const Mat3 RB = h.A.R * rotation_matrix(quat_from_axis_angle(kZ, theta));
  const Mat3 R1 = RB * transpose(Fb.R);
  const Vec3 x1 = h.A.p + travel * column(h.A.R, 2) - R1 * Fb.p;
  h.sys->set_body_pose(h.q, 1, x1, normalized(quat_from_rotation_matrix(R1)));
  return h;
}

// Twist vectors (12: body 0 then body 1) of rigid motions of both bodies together (6), plus the
// given relative motions of body 1: rotations about `axes` through p and translations `shifts`.
Eigen::MatrixXd allowed_motions(const model::MechanicalSystem& sys, const Eigen::VectorXd& q,
                                const std::vector<Eigen::Vector3d>& axes, const Eigen::Vector3d& p,
                                const std::vector<Eigen::Vector3d>& shifts) {
  model::SystemState s;
  sys.evaluate_state(0, q, Eigen::VectorXd::Zero(12), s);
  std::vector<Eigen::VectorXd> cols;
  for (int k = 0; k < 6; ++k) {
    Eigen::Vector3d V = Eigen::Vector3d::Zero(), W = Eigen::Vector3d::Zero();
    (k < 3 ? V : W)[k % 3] = 1.0;
    Eigen::VectorXd t(12);
    for (int b = 0; b < 2; ++b) t.segment<6>(6 * b) << V + W.cross(to_eigen(s.bodies[b].x)), W;
    cols.push_back(t);
  }
  for (const auto& w : axes) {
    Eigen::VectorXd t = Eigen::VectorXd::Zero(12);
    t.segment<6>(6) << w.cross(to_eigen(s.bodies[1].x) - p), w;
    cols.push_back(t);
  }
  for (const auto& d : shifts) {
    Eigen::VectorXd t = Eigen::VectorXd::Zero(12);
    t.segment<3>(6) = d;
    cols.push_back(t);
  }
  Eigen::MatrixXd V(12, static_cast<Eigen::Index>(cols.size()));
  for (std::size_t k = 0; k < cols.size(); ++k) V.col(static_cast<Eigen::Index>(k)) = cols[k];
  return V;
}

int numerical_rank(const Eigen::MatrixXd& A) {
  const Eigen::JacobiSVD<Eigen::MatrixXd> svd(A);
  const Eigen::VectorXd sv = svd.singularValues();
  int r = 0;
  for (Eigen::Index k = 0; k < sv.size(); ++k) r += sv[k] > 1e-9 * sv[0];
  return r;
}

TEST(JointNullSpace, EachJointAllowsExactlyItsRelativeMotion) {
  std::mt19937 rng(11);
  for (int trial = 0; trial < 3; ++trial) {
    const JointSide a = body_side(0, testing::random_vec(rng, 0.5), testing::random_vec(rng), testing::random_vec(rng));
    const JointSide b = body_side(1, testing::random_vec(rng, 0.5), testing::random_vec(rng), testing::random_vec(rng));
    std::uniform_real_distribution<double> angle(-3.0, 3.0), shift(-1.0, 1.0);
    const double theta = angle(rng), travel = shift(rng);
    struct Case {
      std::shared_ptr<Joint> joint;
      double theta, travel;
      int rank;
      int rel_rotations;  // 3: any rotation about p_A; 1: about z_A
      bool slides;        // translation along z_A
    };
    const std::vector<Case> cases = {
        {std::make_shared<BallJoint>("ball", a, b), theta, 0.0, 3, 3, false},
        {std::make_shared<HingeJoint>("hinge", a, b), theta, 0.0, 5, 1, false},
        {std::make_shared<SliderJoint>("slider", a, b), 0.0, travel, 5, 0, true},
        {std::make_shared<FixedJoint>("fixed", a, b), 0.0, 0.0, 6, 0, false},
    };
    for (const Case& c : cases) {
      const HeldPair h = held_pair(rng, a, b, c.theta, c.travel);
      const ConstraintRows rows = rows_at(*c.joint, *h.sys, h.q, Eigen::VectorXd::Zero(12));
      ASSERT_EQ(rows.rows(), c.rank) << c.joint->name();
      for (Index k = 0; k < rows.rows(); ++k)
        EXPECT_NEAR(rows.phi[static_cast<std::size_t>(k)], 0.0, 1e-12) << c.joint->name() << " row " << k;
      const Eigen::MatrixXd J = dense_jacobian(rows, 12);
      EXPECT_EQ(numerical_rank(J), c.rank) << c.joint->name() << ": rows must be independent";
      std::vector<Eigen::Vector3d> axes, shifts;
      const Eigen::Vector3d za = to_eigen(column(h.A.R, 2));
      if (c.rel_rotations == 3) axes = {Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY(), Eigen::Vector3d::UnitZ()};
      if (c.rel_rotations == 1) axes = {za};
      if (c.slides) shifts = {za};
      const Eigen::MatrixXd V = allowed_motions(*h.sys, h.q, axes, to_eigen(h.A.p), shifts);
      EXPECT_LT((J * V).cwiseAbs().maxCoeff(), 1e-12) << c.joint->name() << ": an allowed motion is constrained";
      // The allowed motions are independent and as many as the null space is wide: they are it.
      EXPECT_EQ(numerical_rank(V), 12 - c.rank) << c.joint->name();
      EXPECT_EQ(V.cols(), 12 - c.rank) << c.joint->name();
    }
  }
}

// ----- compliance ---------------------------------------------------------------------------

// Each block is labelled with its joint's name and role, and labelling shares the joint's name:
// the rows of two steps point at one string (no text copied per step).
TEST(JointLabels, RowsNameTheirJointAndRoleWithoutCopyingTheName) {
  std::mt19937 rng(5);
  auto sys = random_system(rng, false);
  const HingeJoint hinge("elbow", world_side(Vec3{{0.1, 0.2, 0.3}}, kY), body_side(0, Vec3{{0.2, 0, 0}}, kY),
                         wide_limit(-3, 3));
  hinge.check(*sys);
  const Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  const ConstraintRows first = rows_at(hinge, *sys, q, u), second = rows_at(hinge, *sys, q, u);
  std::vector<std::string> texts;
  for (const RowLabel& label : first.labels) texts.push_back(label.text());
  EXPECT_EQ(texts, (std::vector<std::string>{"hinge 'elbow' x", "hinge 'elbow' y", "hinge 'elbow' z",
                                             "hinge 'elbow' axis x", "hinge 'elbow' axis y",
                                             "hinge 'elbow' angle lower limit", "hinge 'elbow' angle upper limit"}));
  ASSERT_EQ(second.labels.size(), first.labels.size());
  for (std::size_t b = 0; b < first.labels.size(); ++b) EXPECT_EQ(first.labels[b].name, second.labels[b].name);
  EXPECT_EQ(RowLabel("free text").text(), "free text");
  EXPECT_EQ(RowLabel().text(), "");
}

TEST(JointCompliance, CompliantRowsReproduceTheCompliantForceLaw) {
  // One step of a violated, moving compliant hinge: r / h = lambda = -(phi_{n+1} + d phidot)/c
  // per row with phi_{n+1} = phi + h J v and phidot = J v (compliant-constraints seed).
  std::mt19937 rng(3);
  auto sys = random_system(rng, false);
  AxisJointOptions o;
  o.compliance = {1e-3, 0.02};
  const HingeJoint hinge("soft", world_side(Vec3{{0.1, 0.2, 0.3}}, kY), body_side(0, Vec3{{0.2, 0, 0}}, kY), o);
  hinge.check(*sys);
  const Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  const ConstraintRows rows = rows_at(hinge, *sys, q, u);
  ASSERT_EQ(rows.rows(), 5);
  CsrMatrix M;
  sys->mass_matrix(0, q, M);
  const double h = 0.01;
  const GlobalProblem g = assemble_step_problem(rows, M, u, h);
  KktSolver kkt;
  const GlobalSolution sol = kkt.solve_global(g);
  const Eigen::VectorXd Jv = dense_jacobian(rows, sys->num_velocities()) * sol.v;
  double worst = 0;
  for (Index k = 0; k < 5; ++k) {
    const double phi = rows.phi[static_cast<std::size_t>(k)];
    const double lambda = -(phi + h * Jv[k] + 0.02 * Jv[k]) / 1e-3;
    EXPECT_NEAR(sol.r[k] / h, lambda, 1e-9 * std::max(1.0, std::abs(lambda))) << "row " << k;
    worst = std::max(worst, std::abs(phi));
  }
  EXPECT_GT(worst, 1e-2) << "the state must violate the hinge for the check to mean anything";
}

TEST(JointCompliance, HangingParticleStretchesAJointByComplianceTimesWeight) {
  // A particle of mass m on a compliant ball joint to the world, in gravity: at rest the joint
  // force balances the weight, lambda = m g, so phi = -c lambda = -c m g along z.
  auto sys = std::make_unique<model::MechanicalSystem>();
  const double m = 2.0, g = 9.81, c = 1e-4, d = 0.05;
  sys->set_gravity(Vec3{{0, 0, -g}});
  sys->add_particle(m, Vec3{{0, 0, -1}});
  std::vector<std::shared_ptr<const Constraint>> joints = {
      std::make_shared<BallJoint>("spring", world_side(Vec3{{0, 0, -1}}), particle_side(0), JointCompliance{c, d})};
  testing::ChainStepper st(*sys, joints, 1e-3, testing::StepSolver::kSparseSchur);
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0;
  for (int k = 0; k < 1000; ++k) st.step(t, q, u);
  const double sag = q[2] + 1.0;
  std::printf("compliant ball joint: sag %.6e, c m g = %.6e\n", sag, c * m * g);
  EXPECT_NEAR(sag, -c * m * g, 1e-6 * c * m * g);
  EXPECT_NEAR(q[0], 0.0, 1e-15);
  EXPECT_LT(u.norm(), 1e-9) << "at rest";
}

// ----- limits -------------------------------------------------------------------------------

Eigen::VectorXd hinge_at(const model::MechanicalSystem& sys, double theta) {
  Eigen::VectorXd q = sys.initial_positions();
  sys.set_body_pose(q, 0, Vec3{{0, 0, 0}}, quat_from_axis_angle(kY, theta));
  return q;
}

TEST(JointLimit, HingeLimitRowsAppearWithinTheMarginWithTheDistanceToTheBound) {
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->add_body(make_spatial_inertia(1, Vec3{{0.5, 0, 0}}, Mat3{{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}}), Vec3{{0, 0, 0}},
                quat_identity());
  AxisJointOptions o;
  o.limit = {true, -0.5, 0.5, 0.05};
  const HingeJoint hinge("elbow", world_side(Vec3{{0, 0, 0}}, kY), body_side(0, Vec3{{0, 0, 0}}, kY), o);
  hinge.check(*sys);
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(6);
  struct Case {
    double theta;
    int rows;
    double phi;
    double sign;  // of the limit row's Jacobian along the hinge rotation
  };
  // Rotation about +y by theta turns x towards -z: the hinge angle atan2(y_A . x_B, x_A . x_B)
  // about z_A = y is theta.
  for (const Case& c : {Case{0.0, 5, 0, 0}, Case{0.46, 6, 0.04, -1}, Case{0.6, 6, -0.1, -1}, Case{-0.52, 6, -0.02, 1},
                        Case{-0.44, 5, 0, 0}}) {
    const Eigen::VectorXd q = hinge_at(*sys, c.theta);
    model::SystemState s;
    sys->evaluate_state(0, q, u, s);
    EXPECT_NEAR(hinge.angle(s), c.theta, 1e-12);
    const ConstraintRows rows = rows_at(hinge, *sys, q, u);
    ASSERT_EQ(rows.rows(), c.rows) << "theta = " << c.theta;
    if (c.rows == 6) {
      EXPECT_EQ(rows.blocks[5].kind, BlockKind::kUnilateral);
      EXPECT_NEAR(rows.phi[5], c.phi, 1e-12) << "phi is the distance to the bound";
      const Eigen::MatrixXd J = dense_jacobian(rows, 6);
      EXPECT_NEAR(J(5, 4), c.sign, 1e-12) << "the row pushes back into the range";
    }
  }
}

TEST(JointLimit, SliderTravelRowsAppearWithinTheMargin) {
  // Body 0 slides along world x from the world origin; travel limit [-1, 2], margin 0.05.
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->add_body(make_spatial_inertia(1, Vec3{{0, 0, 0}}, Mat3{{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}}), Vec3{{0, 0, 0}},
                quat_identity());
  AxisJointOptions o;
  o.limit = {true, -1.0, 2.0, 0.05};
  const SliderJoint rail("rail", world_side(Vec3{{0, 0, 0}}, kX, kY), body_side(0, Vec3{{0, 0, 0}}, kX, kY), o);
  rail.check(*sys);
  const Eigen::VectorXd u = Eigen::VectorXd::Zero(6);
  struct Case {
    double x;
    int rows;
    double phi, sign;
  };
  for (const Case& c : {Case{0.5, 5, 0, 0}, Case{1.97, 6, 0.03, -1}, Case{2.1, 6, -0.1, -1}, Case{-1.02, 6, -0.02, 1},
                        Case{-0.94, 5, 0, 0}}) {
    Eigen::VectorXd q = sys->initial_positions();
    sys->set_body_pose(q, 0, Vec3{{c.x, 0, 0}}, quat_identity());
    const ConstraintRows rows = rows_at(rail, *sys, q, u);
    ASSERT_EQ(rows.rows(), c.rows) << "x = " << c.x;
    if (c.rows == 6) {
      EXPECT_EQ(rows.blocks[5].kind, BlockKind::kUnilateral);
      EXPECT_NEAR(rows.phi[5], c.phi, 1e-12) << "phi is the distance to the bound";
      EXPECT_NEAR(dense_jacobian(rows, 6)(5, 0), c.sign, 1e-12) << "the row pushes back into the range";
    }
  }
}

TEST(JointLimit, PendulumStopsAtItsHingeLimit) {
  // A rod on a world hinge released horizontally swings down (theta grows about y towards
  // +pi/2) and must stop at the upper bound 0.6 rad: never beyond it, and resting on it.
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->set_gravity(Vec3{{0, 0, -9.81}});
  sys->add_body(make_spatial_inertia(1, Vec3{{0.5, 0, 0}}, Mat3{{0.001, 0, 0, 0, 0.08, 0, 0, 0, 0.08}}),
                Vec3{{0, 0, 0}}, quat_identity());
  AxisJointOptions o;
  o.limit = {true, -1.0, 0.6, 0.05};
  auto hinge =
      std::make_shared<HingeJoint>("elbow", world_side(Vec3{{0, 0, 0}}, kY), body_side(0, Vec3{{0, 0, 0}}, kY), o);
  testing::ChainStepper st(*sys, {hinge}, 1e-3, testing::StepSolver::kPgs);
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0, max_angle = 0, max_impulse = 0;
  model::SystemState s;
  for (int k = 0; k < 1500; ++k) {
    st.step(t, q, u);
    sys->evaluate_state(t, q, u, s);
    max_angle = std::max(max_angle, hinge->angle(s));
    if (st.rows().rows() == 6) max_impulse = std::max(max_impulse, st.last_impulse()[5]);
  }
  std::printf("hinge limit 0.6: largest angle %.9f, final angle %.9f, largest limit impulse %.3e\n", max_angle,
              hinge->angle(s), max_impulse);
  EXPECT_LT(max_angle, 0.6 + 1e-6) << "the limit is never crossed";
  EXPECT_GT(max_angle, 0.6 - 1e-6) << "it is reached";
  EXPECT_GT(max_impulse, 1e-3) << "the limit row pushed";
  EXPECT_NEAR(hinge->angle(s), 0.6, 1e-6) << "the rod rests on the bound";
}

TEST(JointLimit, RopeIsSlackUntilTautThenHolds) {
  // A particle 0.5 below the anchor of a 1 m rope falls freely (no row while the slack exceeds
  // the margin) and is then held at |x| <= L.
  auto sys = std::make_unique<model::MechanicalSystem>();
  const double g = 9.81;
  sys->set_gravity(Vec3{{0, 0, -g}});
  sys->add_particle(1.0, Vec3{{0, 0, -0.5}});
  DistanceOptions o;
  o.rope = true;
  o.length = 1.0;
  auto rope = std::make_shared<DistanceJoint>("rope", world_side(Vec3{{0, 0, 0}}), particle_side(0), o);
  testing::ChainStepper st(*sys, {rope}, 1e-3, testing::StepSolver::kPgs);
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0, longest = 0;
  int free_steps = 0;
  for (int k = 0; k < 800; ++k) {
    st.step(t, q, u);
    if (st.rows().rows() == 0) {
      ++free_steps;
      // Symplectic Euler free fall: z_n = z0 - g h^2 n (n + 1) / 2.
      EXPECT_NEAR(q[2], -0.5 - g * 1e-6 * (k + 1) * (k + 2) / 2, 1e-12);
    }
    longest = std::max(longest, std::abs(q[2]));
  }
  EXPECT_GT(free_steps, 250) << "the rope was slack during the fall (~0.29 s)";
  EXPECT_LT(longest, 1.0 + 1e-9) << "never longer than L";
  EXPECT_NEAR(q[2], -1.0, 1e-9) << "hanging taut";
}

// ----- drives -------------------------------------------------------------------------------

TEST(JointDrive, DrivenHingeAndSliderFollowTheirSpeed) {
  auto sys = std::make_unique<model::MechanicalSystem>();
  const SpatialInertia I = make_spatial_inertia(1, Vec3{{0.3, 0.1, 0}}, Mat3{{0.1, 0, 0, 0, 0.2, 0, 0, 0, 0.3}});
  sys->add_body(I, Vec3{{0, 0, 0}}, quat_identity());
  sys->add_body(I, Vec3{{1, 0, 0}}, quat_identity());
  AxisJointOptions spin, push;
  spin.drive.enabled = push.drive.enabled = true;
  spin.drive.speed = 2.0;
  push.drive.speed = -0.5;
  auto hinge =
      std::make_shared<HingeJoint>("motor", world_side(Vec3{{0, 0, 0}}, kZ), body_side(0, Vec3{{0, 0, 0}}, kZ), spin);
  auto slider = std::make_shared<SliderJoint>("piston", world_side(Vec3{{1, 0, 0}}, kX, kY),
                                              body_side(1, Vec3{{0, 0, 0}}, kX, kY), push);
  testing::ChainStepper st(*sys, {hinge, slider}, 1e-3, testing::StepSolver::kKkt);
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0;
  for (int k = 0; k < 500; ++k) st.step(t, q, u);
  model::SystemState s;
  sys->evaluate_state(t, q, u, s);
  EXPECT_NEAR(hinge->angle(s), 1.0, 1e-9) << "2 rad/s for 0.5 s";
  EXPECT_NEAR(slider->travel(s), -0.25, 1e-9) << "-0.5 m/s for 0.5 s";
  EXPECT_NEAR(u[5], 2.0, 1e-9);
  EXPECT_NEAR(u[6], -0.5, 1e-9);
}

// A piecewise-constant profile: 0.2 m/s until t = 0.2, 0 until 0.3, then -0.1 m/s; the travel
// integrates it (steps take the speed of their start time).
TEST(JointDrive, ASpeedProfileIsFollowedPieceByPiece) {
  auto sys = std::make_unique<model::MechanicalSystem>();
  sys->add_body(make_spatial_inertia(1, Vec3{{0, 0, 0}}, Mat3{{0.1, 0, 0, 0, 0.1, 0, 0, 0, 0.1}}), Vec3{{0, 0, 0}},
                quat_identity());
  AxisJointOptions o;
  o.drive.enabled = true;
  o.drive.speed = 0.2;
  o.drive.changes = {{0.2, 0.0}, {0.3, -0.1}};
  EXPECT_EQ(o.drive.speed_at(0.1999), 0.2);
  EXPECT_EQ(o.drive.speed_at(0.2), 0.0);
  EXPECT_EQ(o.drive.speed_at(1.0), -0.1);
  auto slider = std::make_shared<SliderJoint>("lift", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}), o);
  testing::ChainStepper st(*sys, {slider}, 1.0 / 1024, testing::StepSolver::kKkt);  // exact step times
  Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  double t = 0;
  model::SystemState s;
  auto travel_at = [&](double until) {
    while (t < until - 1e-12) st.step(t, q, u);
    sys->evaluate_state(t, q, u, s);
    return slider->travel(s);
  };
  const double dt = 1.0 / 1024;
  EXPECT_NEAR(travel_at(205 * dt), 0.2 * 205 * dt, 1e-9);  // the step starting at 204.8/1024 < 0.2 still moves
  EXPECT_NEAR(travel_at(308 * dt), 0.2 * 205 * dt, 1e-9);
  EXPECT_NEAR(travel_at(408 * dt), 0.2 * 205 * dt - 0.1 * 100 * dt, 1e-9);
  AxisJointOptions bad = o;
  bad.drive.changes = {{0.3, 0.0}, {0.2, 1.0}};
  EXPECT_SINEW_ERROR(SliderJoint("lift", world_side(Vec3{{0, 0, 0}}), body_side(0, Vec3{{0, 0, 0}}), bad).check(*sys),
                     "slider 'lift'", "drive change 1", "increasing");
}

// ----- errors -------------------------------------------------------------------------------

TEST(JointErrors, BadInputNamesTheJoint) {
  std::mt19937 rng(5);
  auto sys = random_system(rng);
  const JointSide w = world_side(Vec3{{0, 0, 0}});
  EXPECT_SINEW_ERROR(BallJoint("knee", w, body_side(7, Vec3{{0, 0, 0}})).check(*sys), "ball joint 'knee'", "side B");
  EXPECT_SINEW_ERROR(BallJoint("knee", particle_side(3), w).check(*sys), "ball joint 'knee'", "side A");
  EXPECT_SINEW_ERROR(HingeJoint("elbow", w, body_side(0, Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}})).check(*sys),
                     "hinge 'elbow'", "axis must be nonzero");
  EXPECT_SINEW_ERROR(HingeJoint("elbow", body_side(0, Vec3{{0, 0, 0}}, kZ, kZ), w).check(*sys), "hinge 'elbow'",
                     "not parallel");
  AxisJointOptions negative;
  negative.compliance.compliance = -1e-6;
  EXPECT_SINEW_ERROR(SliderJoint("rail", w, body_side(0, Vec3{{0, 0, 0}}), negative).check(*sys), "slider 'rail'",
                     "compliance must be finite and >= 0");
  EXPECT_SINEW_ERROR(FixedJoint("weld", w, body_side(1, Vec3{{0, 0, 0}}), JointCompliance{0, -1}).check(*sys),
                     "fixed joint 'weld'", "damping");
  AxisJointOptions bad_limit;
  bad_limit.limit = {true, 0.5, -0.5, 0.05};
  EXPECT_SINEW_ERROR(HingeJoint("elbow", w, body_side(0, Vec3{{0, 0, 0}}), bad_limit).check(*sys), "hinge 'elbow'",
                     "lower < upper");
  bad_limit.limit = {true, -4, 0.5, 0.05};
  EXPECT_SINEW_ERROR(HingeJoint("elbow", w, body_side(0, Vec3{{0, 0, 0}}), bad_limit).check(*sys), "hinge 'elbow'",
                     "[-pi, pi]");
  DistanceOptions zero;
  zero.length = 0;
  EXPECT_SINEW_ERROR(DistanceJoint("rod", w, particle_side(0), zero).check(*sys), "distance joint 'rod'",
                     "length must be finite and > 0");
  SurfaceOptions flat;
  flat.shape = SurfaceOptions::Shape::kSphere;
  flat.radius = -1;
  EXPECT_SINEW_ERROR(PointOnSurfaceJoint("ball", w, particle_side(0), flat).check(*sys), "point-on-sphere 'ball'",
                     "radius");
  EXPECT_SINEW_ERROR(BallJoint("void", w, world_side(Vec3{{1, 0, 0}})).check(*sys), "ball joint 'void'",
                     "both sides are the world");
  // Coincident points give a distance row no direction.
  const Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  model::SystemState s;
  sys->evaluate_state(0, q, u, s);
  const DistanceJoint rod("rod", world_side(s.x[0]), particle_side(0));
  ConstraintRows rows;
  EXPECT_SINEW_ERROR(rod.add_rows(*sys, s, rows), "distance joint 'rod'", "coincide");
}

}  // namespace
}  // namespace sinew::constraints::constraints_joint_test
