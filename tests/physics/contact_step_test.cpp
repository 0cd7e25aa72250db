// ContactStep's contract (issue 6): without contacts it is the implicit Euler step; fixed bodies
// stay fixed under contact; its last contacts name the blocks solved; a contact solve that ends
// far from a solution fails the step and leaves the state untouched, saying why; misuse throws.
#include <gtest/gtest.h>

#include <cmath>

#include "contact_scenes.hpp"
#include "expect_error.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::physics_contact_step_test {
namespace {

TEST(ContactStep, WithoutContactsIsImplicitEuler) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = contact_test::incline_scene(0.2, 0.5);
  s.state.q[s.system->body_position_offset(0) + 2] += 1.0;  // 1 m above the plane: no contact
  integrators::State reference = s.state;
  integrators::ContactStep stepper(contact_test::make_contact_solver("pgs", *backend));
  integrators::ImplicitEuler euler;
  for (int k = 0; k < 20; ++k) {
    const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, 1e-3);
    ASSERT_TRUE(r.ok()) << r.message;
    EXPECT_EQ(r.rows, 0);
    EXPECT_TRUE(stepper.last_contacts().empty());
    ASSERT_TRUE(euler.step(*s.system, reference, 1e-3).ok());
  }
  EXPECT_EQ(s.state.q, reference.q);
  EXPECT_EQ(s.state.u, reference.u);
  EXPECT_EQ(s.state.t, reference.t);
}

// With a theta-method free motion (any preset) and no contact, the step is that theta-method step.
TEST(ContactStep, WithoutContactsAndAThetaIsThatThetaMethod) {
  for (integrators::ThetaPreset preset :
       {integrators::ThetaPreset::kSymplecticMidpoint, integrators::ThetaPreset::kSymplecticEuler,
        integrators::ThetaPreset::kExplicitEuler}) {
    auto backend = make_backend("serial");
    contact_test::ContactScene s = contact_test::incline_scene(0.2, 0.5);
    s.state.q[s.system->body_position_offset(0) + 2] += 1.0;
    s.state.u[s.system->body_velocity_offset(0) + 3] = 2.0;  // tumbling: the presets differ
    integrators::State reference = s.state;
    integrators::ContactStepOptions o;
    o.theta = integrators::ThetaOptions::preset(preset);
    integrators::ContactStep stepper(contact_test::make_contact_solver("pgs", *backend), o);
    integrators::ThetaMethod theta(*o.theta);
    for (int k = 0; k < 20; ++k) {
      ASSERT_TRUE(stepper.step(*s.system, {s.contact.get()}, s.state, 1e-3).ok());
      ASSERT_TRUE(theta.step(*s.system, reference, 1e-3).ok());
    }
    EXPECT_EQ(s.state.q, reference.q) << theta.name();
    EXPECT_EQ(s.state.u, reference.u) << theta.name();
  }
}

// The fixed bottom box stays fixed. Its floor contacts are empty blocks, dropped before the
// solve: the last contacts of the others are renumbered with them, and each box carries the
// weight of those above it.
TEST(ContactStep, FixedBodyStaysFixedUnderTheBoxesItCarries) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = contact_test::stack_scene();
  s.system->fix_body(0);
  s.init();
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_minmap", *backend));
  const double h = 1e-3;
  const Vec3 x0 = s.body_position(0);
  for (int k = 0; k < 50; ++k) {
    const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, h);
    ASSERT_TRUE(r.ok()) << r.message;
  }
  const Vec3 x = s.body_position(0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(x[i], x0[i]);
  EXPECT_NEAR(s.body_position(9)[2], 0.95, 1e-6);  // the top box still rests on the stack

  const constraints::GlobalProblem& problem = stepper.last_problem();
  const std::vector<constraints::ContactRecord>& records = stepper.last_contacts();
  ASSERT_EQ(records.size(), 36u) << "4 between each pair of boxes, none of the fixed box on the floor";
  ASSERT_EQ(problem.blocks.size(), records.size());
  const std::vector<Index> offsets = constraints::block_offsets(problem.blocks);
  std::vector<double> carried(contact_test::kBoxes, 0.0);  // normal impulses pushing box k up
  for (const constraints::ContactRecord& r : records) {
    ASSERT_TRUE(r.a.kind == constraints::ContactSide::Kind::kBody && r.b.kind == constraints::ContactSide::Kind::kBody);
    ASSERT_EQ(r.b.index, r.a.index + 1) << "box k - 1 (A) under box k (B)";
    EXPECT_NEAR(r.point_b[2], 0.1 * static_cast<double>(r.b.index), 1e-3) << "at the boxes' interface";
    EXPECT_NEAR(r.frame.normal[2], -1.0, 1e-9);
    carried[static_cast<std::size_t>(r.b.index)] += stepper.last_impulses()[offsets[static_cast<std::size_t>(r.block)]];
  }
  for (int k = 1; k < contact_test::kBoxes; ++k)
    EXPECT_NEAR(carried[static_cast<std::size_t>(k)], (contact_test::kBoxes - k) * 9.81 * h, 1e-9) << "box " << k;
}

TEST(ContactStep, AContactSolveFarFromASolutionFailsTheStepAndKeepsTheState) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = contact_test::stack_scene();
  constraints::PgsOptions o;
  o.stop.max_iterations = 1;  // one sweep from a cold start on a stack of ten: far from the answer
  integrators::ContactStepOptions options;
  options.accept_error = 1e-6;
  integrators::ContactStep stepper(std::make_unique<constraints::PgsSolver>(o), options);
  const integrators::State before = s.state;
  const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, 1e-3);
  EXPECT_FALSE(r.ok());
  EXPECT_FALSE(r.contact.converged());
  EXPECT_GT(r.natural_map_error, 1e-6);
  EXPECT_NE(r.message.find("not converged"), std::string::npos) << r.message;
  EXPECT_EQ(s.state.q, before.q);
  EXPECT_EQ(s.state.u, before.u);
  EXPECT_EQ(s.state.t, before.t);
}

// SAP's step never forms W: the natural-map error it reports (from M's factor) is the one of the
// local form built from the step's problem, and v is M^-1 (H r + f).
TEST(ContactStep, SapReportsTheNaturalMapErrorOfTheLocalForm) {
  contact_test::ContactScene s = contact_test::stack_scene();
  integrators::ContactStep stepper(nullptr);
  for (int k = 0; k < 30; ++k) {
    const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, 1e-3);
    ASSERT_TRUE(r.ok()) << r.message;
    ASSERT_GT(r.rows, 0);
    EigenLdltSolver mass;
    const constraints::DelassusProblem local = constraints::to_delassus(stepper.last_problem(), mass);
    const double expected = constraints::natural_map_error(local, stepper.last_impulses()).relative;
    EXPECT_NEAR(r.natural_map_error, expected, 1e-9 * expected) << "step " << k;
    EXPECT_GT(r.natural_map_error, 0.0) << "SAP's convex model is not Signorini-Coulomb";
    const Eigen::VectorXd v = constraints::global_velocity(stepper.last_problem(), mass, stepper.last_impulses());
    EXPECT_LT((v - stepper.last_velocities()).norm(), 1e-10 * (1.0 + v.norm())) << "step " << k;
  }
}

TEST(ContactStep, ChecksItsInput) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = contact_test::stack_scene();
  integrators::ContactStep stepper(nullptr);
  EXPECT_THROW(stepper.step(*s.system, {s.contact.get()}, s.state, 0.0), Error);
  EXPECT_THROW(stepper.step(*s.system, {nullptr}, s.state, 1e-3), Error);
  integrators::State wrong = s.state;
  wrong.u.resize(3);
  EXPECT_THROW(stepper.step(*s.system, {s.contact.get()}, wrong, 1e-3), Error);
  integrators::ContactStepOptions bad;
  bad.accept_error = -1;
  EXPECT_THROW(integrators::ContactStep(nullptr, bad), Error);
  integrators::ContactStepOptions bad_theta;
  bad_theta.theta = integrators::ThetaOptions{};
  bad_theta.theta->theta_q = 1.5;
  EXPECT_SINEW_ERROR(integrators::ContactStep(nullptr, bad_theta), "theta_q");
}

}  // namespace
}  // namespace sinew::physics_contact_step_test
