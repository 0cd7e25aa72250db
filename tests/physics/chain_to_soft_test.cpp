// Chain to soft (issue 21): 20 rigid links on ball joints hang from a fixed point; the last link
// holds the top face of an FEM block resting on the floor (a ball joint per node). Stage
// 2 of ContactStep on Baraff's O(n) factor (the joint forest primary, the block's floor contacts
// auxiliary) and on the sparse Delassus form give the same trajectory within 1e-9 over 500 steps.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_chain_to_soft_test {
namespace {

constexpr int kLinks = 20;
constexpr double kLength = 0.05, kH = 1e-3, kPi = 3.14159265358979323846;

struct ChainToSoft {
  model::MechanicalSystem system;
  std::vector<std::unique_ptr<constraints::Constraint>> joints;
  constraints::ContactConstraint floor{constraints::ContactOptions{}, "floor"};
  std::vector<const constraints::Constraint*> all() const {
    std::vector<const constraints::Constraint*> out{&floor};
    for (const auto& j : joints) out.push_back(j.get());
    return out;
  }
};

// The chain hangs taut at 20 degrees from the vertical from the pivot to the block's top centre.
void build(ChainToSoft& s) {
  s.system.set_gravity(Vec3{{0, 0, -9.81}});
  const scene::DeformableBody block = scene::add_deformable_body(
      s.system, scene::box_tet_mesh(Vec3{{-0.05, -0.05, 0}}, Vec3{{0.05, 0.05, 0.1}}, 2, 2, 2), 500.0,
      MaterialModel::kStableNeoHookean, ElasticParameters{1e6, 0.3});
  std::vector<Index> top;  // the top face's nodes
  for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
    if (std::abs(s.system.particle(i).position[2] - 0.1) < 1e-12) top.push_back(i);
  ASSERT_EQ(top.size(), 9u);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  s.floor.add_obstacle(floor.shape, floor.pose);
  s.floor.add_particles(block.first_particle, block.num_particles);
  const double a = 20.0 * kPi / 180.0;
  const Vec3 down{{-std::sin(a), 0, -std::cos(a)}};  // from the pivot along the chain
  const Vec3 attach{{0, 0, 0.1}};
  const Vec3 pivot = attach - (kLinks * kLength) * down;
  const double r = 0.005, m = 0.05;
  const SpatialInertia I =
      make_spatial_inertia(m, Vec3{{0, 0, 0}},
                           Mat3{{m * (3 * r * r + kLength * kLength) / 12, 0, 0, 0,
                                 m * (3 * r * r + kLength * kLength) / 12, 0, 0, 0, 0.5 * m * r * r}});
  // Each link's body z axis runs along the chain.
  const Quaternion q = quat_from_axis_angle(Vec3{{0, 1, 0}}, a);  // turns -z onto `down`
  const Vec3 half{{0, 0, 0.5 * kLength}};
  for (int i = 0; i < kLinks; ++i) {
    const Index b = s.system.add_body(I, pivot + ((i + 0.5) * kLength) * down, q, "link " + std::to_string(i));
    const constraints::JointSide parent =
        i == 0 ? constraints::world_side(pivot) : constraints::body_side(b - 1, Vec3{{0, 0, -0.5 * kLength}});
    s.joints.push_back(std::make_unique<constraints::BallJoint>("joint " + std::to_string(i), parent,
                                                                constraints::body_side(b, half)));
  }
  // The block's top face is held by the last link (where its nodes are in the link's frame).
  const Index last = kLinks - 1;
  const Vec3 end = pivot + (kLinks * kLength) * down;
  const Mat3 R = rotation_matrix(q);
  for (Index i : top) {
    const Vec3 d = s.system.particle(i).position - end;
    const Vec3 local = transpose_times(R, d);
    s.joints.push_back(std::make_unique<constraints::BallJoint>(
        "block node " + std::to_string(i), constraints::body_side(last, Vec3{{0, 0, -0.5 * kLength}} + local),
        constraints::particle_side(i)));
  }
}

TEST(ChainToSoft, BaraffsFactorAndTheSparseSolveGiveTheSameTrajectory) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: two 500-step runs";
  ChainToSoft a, b;
  build(a);
  build(b);
  auto backend = make_backend("serial");
  integrators::ContactStepOptions sparse_options, baraff_options;
  sparse_options.factor = integrators::StepFactor::kSparse;
  baraff_options.factor = integrators::StepFactor::kBaraff;
  integrators::ContactStep sparse(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), sparse_options);
  integrators::ContactStep baraff(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), baraff_options);
  integrators::State sa{0.0, a.system.initial_positions(), a.system.initial_velocities()}, sb = sa;
  double worst = 0.0;
  Index contacts = 0;
  for (int k = 0; k < 500; ++k) {
    const integrators::ContactStepReport ra = sparse.step(a.system, a.all(), sa, kH);
    const integrators::ContactStepReport rb = baraff.step(b.system, b.all(), sb, kH);
    ASSERT_TRUE(ra.ok()) << k << ": " << ra.message;
    ASSERT_TRUE(rb.ok()) << k << ": " << rb.message;
    ASSERT_TRUE(rb.baraff) << k;
    ASSERT_FALSE(ra.baraff) << k;
    contacts = std::max(contacts, rb.contacts);
    worst = std::max({worst, (sa.q - sb.q).cwiseAbs().maxCoeff(), (sa.u - sb.u).cwiseAbs().maxCoeff()});
  }
  // The chain moved and dragged the block.
  Vec3 x;
  Quaternion r;
  a.system.body_pose(sa.q, kLinks - 1, x, r);
  const double swing = norm(x - Vec3{{0, 0, 0.1 + 0.5 * kLength}});
  std::printf(
      "chain of %d links to an FEM block, 500 steps of 1 ms: Baraff vs sparse max |state difference| %.2e; "
      "up to %ld floor contacts; last link moved %.3f m\n",
      kLinks, worst, static_cast<long>(contacts), swing);
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT(contacts, 3);
  EXPECT_GT(swing, 0.01);
}

// Baraff's split is kept while the step problem's structure is unchanged and remade when the
// floor contacts change: a step that keeps it gives the bits of a step made from scratch (a new
// ContactStep each step; no warm start in either, which a new step could not have).
TEST(ChainToSoft, AKeptBaraffSplitGivesTheBitsOfANewOne) {
  ChainToSoft a;
  build(a);
  auto backend = make_backend("serial");
  integrators::ContactStepOptions o;
  o.factor = integrators::StepFactor::kBaraff;
  o.warm_start = false;
  integrators::ContactStep kept(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), o);
  integrators::State sk{0.0, a.system.initial_positions(), a.system.initial_velocities()}, sn = sk;
  int kept_steps = 0, remade_steps = 0;
  const int steps = test::quick_tests() ? 150 : 200;  // the floor contacts first change at step 147
  for (int k = 0; k < steps; ++k) {
    const integrators::ContactStepReport rk = kept.step(a.system, a.all(), sk, kH);
    integrators::ContactStep fresh(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), o);
    const integrators::ContactStepReport rn = fresh.step(a.system, a.all(), sn, kH);
    ASSERT_TRUE(rk.ok() && rk.baraff) << k << ": " << rk.message;
    ASSERT_TRUE(rn.ok() && rn.baraff) << k << ": " << rn.message;
    EXPECT_FALSE(rn.baraff_split_kept) << k;
    ++(rk.baraff_split_kept ? kept_steps : remade_steps);
    ASSERT_TRUE(sk.q == sn.q && sk.u == sn.u)
        << "step " << k << ": max |q difference| " << (sk.q - sn.q).cwiseAbs().maxCoeff();
  }
  std::printf("chain to soft, %d steps: Baraff's split kept in %d, remade in %d\n", steps, kept_steps, remade_steps);
  EXPECT_GT(kept_steps, steps / 2);
  EXPECT_GT(remade_steps, 1);  // the first step and the contact changes
}

// A chain hung in a V between two world points closes a loop through the world: the second world
// joint is a loop closure, auxiliary to Baraff's forest; both factors give the same step.
TEST(ChainToSoft, ALoopClosureIsAnAuxiliaryConstraint) {
  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, -9.81}});
  std::vector<std::unique_ptr<constraints::Constraint>> joints;
  const SpatialInertia I = make_spatial_inertia(0.1, Vec3{{0, 0, 0}}, Mat3{{1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 1e-5}});
  const double a = 0.25 * kPi;
  Vec3 end{{0, 0, 1}};
  for (int i = 0; i < 10; ++i) {
    const double angle = i < 5 ? a : -a;  // down-right, then up-right
    const Vec3 along{{std::sin(angle), 0, -std::cos(angle)}};
    const Quaternion q = quat_from_axis_angle(Vec3{{0, 1, 0}}, angle);  // body -z along the link
    const Index b = system.add_body(I, end + (0.5 * kLength) * along, q);
    const constraints::JointSide parent =
        i == 0 ? constraints::world_side(end) : constraints::body_side(b - 1, Vec3{{0, 0, -0.5 * kLength}});
    joints.push_back(std::make_unique<constraints::BallJoint>("joint " + std::to_string(i), parent,
                                                              constraints::body_side(b, Vec3{{0, 0, 0.5 * kLength}})));
    end = end + kLength * along;
  }
  joints.push_back(std::make_unique<constraints::BallJoint>(
      "closure", constraints::body_side(9, Vec3{{0, 0, -0.5 * kLength}}), constraints::world_side(end)));
  std::vector<const constraints::Constraint*> all;
  for (const auto& j : joints) all.push_back(j.get());
  auto backend = make_backend("serial");
  integrators::ContactStepOptions o;
  o.factor = integrators::StepFactor::kBaraff;
  integrators::ContactStep sparse(contact_test::make_contact_solver("newton_fb", *backend, 1e-13));
  integrators::ContactStep baraff(contact_test::make_contact_solver("newton_fb", *backend, 1e-13), o);
  // A V chain is chaotic (differences of 1e-11 double every few steps), so each step starts both
  // solves from the same state: the steps must agree.
  integrators::State sa{0.0, system.initial_positions(), system.initial_velocities()};
  double worst = 0.0;
  for (int k = 0; k < 200; ++k) {
    integrators::State sb = sa;
    const integrators::ContactStepReport r = baraff.step(system, all, sb, kH);
    ASSERT_TRUE(r.ok() && r.baraff) << k << ": " << r.message;
    ASSERT_TRUE(sparse.step(system, all, sa, kH).ok()) << k;
    worst = std::max({worst, (sa.q - sb.q).cwiseAbs().maxCoeff(), (sa.u - sb.u).cwiseAbs().maxCoeff()});
  }
  std::printf("V chain closed through the world, 200 steps: Baraff vs sparse step, max |state difference| %.2e\n",
              worst);
  // Both solves meet the joints to 1e-11 or better; near the start the Delassus form's Newton ends
  // with joint residuals of 1e-11 (W is ill-conditioned there), which moves v by ~1e-9.
  EXPECT_LT(worst, 1e-8);
  EXPECT_GT((sa.q - system.initial_positions()).cwiseAbs().maxCoeff(), 1e-3);  // it moved
}

// Baraff's factor cannot take a compliant auxiliary row or a step without a local solver: the
// step says why (kBaraff), or falls back on the sparse form (kAuto).
TEST(ChainToSoft, BaraffSaysWhenItCannotBeUsedAndAutoFallsBack) {
  ChainToSoft s;
  build(s);
  integrators::ContactStepOptions o;
  o.factor = integrators::StepFactor::kBaraff;
  integrators::ContactStep sap(nullptr, o);
  integrators::State st{0.0, s.system.initial_positions(), s.system.initial_velocities()};
  const integrators::ContactStepReport r = sap.step(s.system, s.all(), st, kH);
  EXPECT_FALSE(r.ok());
  EXPECT_NE(r.message.find("Baraff"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("SAP"), std::string::npos) << r.message;
  o.factor = integrators::StepFactor::kAuto;
  integrators::ContactStep sap_auto(nullptr, o);
  const integrators::ContactStepReport ra = sap_auto.step(s.system, s.all(), st, kH);
  EXPECT_TRUE(ra.ok()) << ra.message;
  EXPECT_FALSE(ra.baraff);
}

}  // namespace
}  // namespace sinew::physics_chain_to_soft_test
