// A KinematicTree in contact (model::TreeBodies and ContactStep's mapped step): the contact rows of
// the tree's bodies, written for the MechanicalSystem of its bodies, act on the joint coordinates
// through the bodies' Jacobians. Checked on closed forms: a box on a vertical slider lands and
// rests on the floor carrying its weight; a hinged rod released horizontally swings down and rests
// with its far corner on the floor, at the angle of that geometry, pressed by the force that
// balances gravity's torque about the hinge; and a hinge chain falling onto a floor agrees with
// the same chain in bodies and hinge rows (maximal coordinates) as the step shrinks.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "expect_error.hpp"
#include "hinge_chain.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/model/tree_bodies.hpp"

namespace sinew::physics_tree_contact_test {
namespace {

using integrators::ContactStep;
using integrators::ContactStepReport;
using integrators::State;

constexpr double kG = 9.81;

// The contact solvers the tree is stepped with: SAP on the global form (null), the non-smooth
// Newton (min-map) on the local form.
std::unique_ptr<constraints::ConstraintSolver> solver_named(const std::string& name, Backend& backend) {
  if (name == "sap") return nullptr;
  return contact_test::make_contact_solver(name, backend, 1e-12);
}

// One tree body (a root joint) with a box of half extents @p half on it, over the floor z = 0,
// stepped by ContactStep with the test's solver.
struct OneBodyOnFloor {
  model::KinematicTree tree{Vec3{{0, 0, -kG}}};
  std::unique_ptr<model::TreeBodies> bodies;
  constraints::ContactConstraint contact;
  OneBodyOnFloor(const model::TreeBody& body, const Vec3& half, const constraints::ContactOptions& options)
      : contact(options) {
    tree.add_body(body);
    bodies = std::make_unique<model::TreeBodies>(tree);
    const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
    contact.add_obstacle(floor.shape, floor.pose);
    contact.add_body_collider(0, scene::box_shape(half));
  }
  // @p steps steps of @p h from (q, u) = (0, @p u0) into @p s; false (with a test failure) when
  // a step fails. @p report is the last step's.
  bool run(ContactStep& step, double u0, int steps, double h, State& s, ContactStepReport& report) {
    s = State{0.0, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Constant(1, u0)};
    for (int k = 0; k < steps; ++k) {
      step.step(tree, *bodies, {&contact}, s, h, report);
      if (!report.ok()) {
        ADD_FAILURE() << "step " << k << ": " << report.message;
        return false;
      }
    }
    return true;
  }
};

// A box body of mass @p m and half size @p half on a slider along @p axis from @p joint.
model::TreeBody slider_box(double m, double half, const Vec3& axis, const Vec3& joint) {
  model::TreeBody body;
  body.name = "box";
  body.joint = model::TreeJointKind::kSlider;
  body.axis = axis;
  body.joint_in_parent = joint;
  body.inertia = scene::box_inertia(m, Vec3{{half, half, half}});
  return body;
}

class TreeContact : public ::testing::TestWithParam<std::string> {
 protected:
  std::unique_ptr<Backend> backend_ = make_backend("serial");
};

// A 1 kg box of half size 0.1 m on a vertical slider, its centre 0.3 m above the floor at q = 0:
// it falls 0.2 m and rests with its bottom face on the floor (q = -0.2), the floor carrying
// m g.
TEST_P(TreeContact, ABoxOnASliderRestsOnTheFloorCarryingItsWeight) {
  const double m = 1.0, half = 0.1, h = 1e-3;
  OneBodyOnFloor world(slider_box(m, half, Vec3{{0, 0, 1}}, Vec3{{0, 0, 0.3}}), Vec3{{half, half, half}}, {});
  ContactStep step(solver_named(GetParam(), *backend_));
  State s;
  ContactStepReport r;
  ASSERT_TRUE(world.run(step, 0.0, 1000, h, s, r));
  EXPECT_EQ(r.contacts, 4);
  EXPECT_NEAR(s.q[0], -0.2, 1e-5) << "the bottom face on the floor";
  EXPECT_NEAR(s.u[0], 0.0, 1e-6);
  // The floor's impulse on the box per step is its weight's: m g h upwards.
  const Eigen::VectorXd impulses = step.last_system_impulses();
  ASSERT_EQ(impulses.size(), 6);
  EXPECT_NEAR(impulses[2] / (m * kG * h), 1.0, 1e-6);
  // The slider blocks both tangents: their rows move nothing and carry no friction.
  EXPECT_NEAR(impulses[0], 0.0, 1e-12);
  EXPECT_NEAR(impulses[1], 0.0, 1e-12);
}

// The same box on a horizontal slider, its bottom face 1 mm into the floor and sliding at 1 m/s:
// the joint holds it, so the contacts act on nothing (no coordinate moves their normals) and the
// box slides on, without friction, at its speed.
TEST_P(TreeContact, ContactsNoCoordinateCanMoveActOnNothing) {
  const double half = 0.1, h = 1e-3;
  OneBodyOnFloor world(slider_box(1.0, half, Vec3{{1, 0, 0}}, Vec3{{0, 0, half - 1e-3}}), Vec3{{half, half, half}}, {});
  ContactStep step(solver_named(GetParam(), *backend_));
  State s;
  ContactStepReport r;
  ASSERT_TRUE(world.run(step, 1.0, 100, h, s, r));
  EXPECT_EQ(r.contacts, 4);
  EXPECT_NEAR(s.u[0], 1.0, 1e-12);
  EXPECT_NEAR(s.q[0], 0.1, 1e-12);
}

// A rod (a 0.2 kg box 0.1 m long, 0.02 m thick) hinged about y at one end, 0.05 m above a
// frictionless floor, released horizontal. It swings down until the bottom corner of its far end
// touches the floor: L sin(q) + r cos(q) = H. At rest the floor's force N on that corner
// balances gravity's torque about the hinge: N (L cos q - r sin q) = m g (L / 2) cos q.
TEST_P(TreeContact, AHingedRodRestsWithItsEndOnTheFloor) {
  const double m = 0.2, L = 0.1, r = 0.01, H = 0.05, h = 1e-3;
  model::TreeBody rod;
  rod.name = "rod";
  rod.axis = Vec3{{0, 1, 0}};  // q > 0 turns +x down towards -z
  rod.joint_in_parent = Vec3{{0, 0, H}};
  rod.joint_in_body = Vec3{{-L / 2, 0, 0}};
  rod.inertia = scene::box_inertia(m, Vec3{{L / 2, r, r}});
  constraints::ContactOptions frictionless;
  frictionless.mu = 0.0;
  OneBodyOnFloor world(rod, Vec3{{L / 2, r, r}}, frictionless);
  ContactStep step(solver_named(GetParam(), *backend_));
  State s;
  ContactStepReport report;
  ASSERT_TRUE(world.run(step, 0.0, 1500, h, s, report));
  const double rest = std::asin(H / std::hypot(L, r)) - std::atan2(r, L);
  std::printf("rod at rest: q = %.6f rad (closed form %.6f), u = %.2e rad/s\n", s.q[0], rest, s.u[0]);
  EXPECT_NEAR(s.q[0], rest, 1e-5);
  EXPECT_NEAR(s.u[0], 0.0, 1e-6);
  EXPECT_EQ(report.contacts, 2) << "the two bottom corners of the far end";
  const Eigen::VectorXd impulses = step.last_system_impulses();
  const double N = m * kG * (L / 2) * std::cos(rest) / (L * std::cos(rest) - r * std::sin(rest));
  EXPECT_NEAR(impulses[2] / (N * h), 1.0, 1e-4) << "the floor's force on the rod";
  EXPECT_NEAR(impulses[0], 0.0, 1e-12) << "no friction";
}

INSTANTIATE_TEST_SUITE_P(Solvers, TreeContact, ::testing::Values("sap", "newton_minmap"));

// A box on every rod, neighbours excluded: they meet at their shared hinge, which holds them.
void add_rod_colliders(constraints::ContactConstraint& contact, Index links, const Vec3& half) {
  for (Index b = 0; b < links; ++b) {
    contact.add_body_collider(b, scene::box_shape(half));
    if (b > 0) contact.exclude_bodies(b - 1, b);
  }
}

// Every rod's free end of a 4-rod hinge chain, pinned 0.25 m above a rough floor and released
// horizontal, after 0.6 s (it has hit the floor and slid): in joint coordinates with contact
// through TreeBodies, and in maximal coordinates (bodies with hinge rows), both by implicit Euler
// with the same contact solver. They discretize the same motion, so they meet as the step shrinks.
double chain_gap(double h, int& contact_steps) {
  constexpr int kLinks = 4;
  constexpr double kDuration = 0.6, kPivot = 0.25;
  const Vec3 half{{0.05, 0.01, 0.01}};
  auto backend = make_backend("serial");
  const int steps = static_cast<int>(std::lround(kDuration / h));
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, -kPivot}}, Vec3{{0, 0, 1}});

  const model::KinematicTree tree = physics_test::make_tree_chain(kLinks);
  model::TreeBodies bodies(tree);
  constraints::ContactConstraint tree_contact;
  tree_contact.add_obstacle(floor.shape, floor.pose);
  add_rod_colliders(tree_contact, kLinks, half);
  ContactStep tree_step(solver_named("newton_minmap", *backend));
  State ts{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};

  const std::unique_ptr<physics_test::MaximalChain> chain = physics_test::make_maximal_chain(kLinks);
  constraints::ContactConstraint chain_contact;
  chain_contact.add_obstacle(floor.shape, floor.pose);
  add_rod_colliders(chain_contact, kLinks, half);
  std::vector<const constraints::Constraint*> chain_constraints = chain->constraints;
  chain_constraints.push_back(&chain_contact);
  ContactStep chain_step(solver_named("newton_minmap", *backend));
  State cs{0.0, chain->system.initial_positions(), chain->system.initial_velocities()};

  for (int k = 0; k < steps; ++k) {
    const ContactStepReport a = tree_step.step(tree, bodies, {&tree_contact}, ts, h);
    const ContactStepReport b = chain_step.step(chain->system, chain_constraints, cs, h);
    contact_steps += a.contacts > 0 ? 1 : 0;
    if (!a.ok() || !b.ok()) {
      ADD_FAILURE() << "step " << k << ": " << a.message << b.message;
      return 1.0;
    }
  }
  double gap = 0.0;
  for (Index b = 0; b < kLinks; ++b) {
    Vec3 x;
    Quaternion q;
    chain->system.body_pose(cs.q, b, x, q);
    gap = std::max(gap, norm(tree.body_point(ts.q, b, Vec3{{0.05, 0, 0}}) - (x + rotate(q, Vec3{{0.05, 0, 0}}))));
  }
  return gap;
}

TEST(TreeContactChain, JointAndMaximalCoordinatesMeetAsTheStepsShrink) {
  int coarse_contacts = 0, fine_contacts = 0;
  const double coarse = chain_gap(1e-3, coarse_contacts), fine = chain_gap(0.25e-3, fine_contacts);
  std::printf(
      "largest distance of a rod's end, tree against bodies with hinge rows: %.3g m at 1 ms, %.3g m at "
      "0.25 ms (%d and %d steps in contact)\n",
      coarse, fine, coarse_contacts, fine_contacts);
  EXPECT_GT(coarse_contacts, 100);
  EXPECT_LT(fine, coarse / 2.5);  // first order: 4x at a quarter of the step, less over the impacts
  EXPECT_LT(fine, 1e-3);
}

// A tree that gains a body after its TreeBodies were made, and coordinates of the wrong size.
TEST(TreeBodiesMisuse, StaleBodiesAndWrongSizesAreErrors) {
  model::KinematicTree tree = physics_test::make_tree_chain(2);
  model::TreeBodies bodies(tree);
  Eigen::VectorXd q_full;
  EXPECT_SINEW_ERROR(bodies.full_positions(0.0, Eigen::VectorXd::Zero(3), q_full), "q has 3 entries, expected 2");
  model::TreeBody extra;
  extra.parent = 1;
  extra.inertia = physics_test::hinge_chain_link();
  tree.add_body(extra);
  EXPECT_SINEW_ERROR(bodies.full_positions(0.0, Eigen::VectorXd::Zero(3), q_full),
                     "make them after the last add_body()");
}

}  // namespace
}  // namespace sinew::physics_tree_contact_test
