// Mixed stacks at rest (issue 21): an FEM block on a free rigid box on the floor, and a rigid box
// on an FEM slab on the floor. FEM vertices touch the rigid box's collider with impulses on both
// sides (contact_constraint.hpp); at rest each interface carries the weight above it: the normal
// impulses of one step sum to (mass above) g h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_mixed_stack_test {
namespace {

constexpr double kG = 9.81, kH = 0.01;
constexpr double kBoxMass = 2.0;

struct Stack {
  model::MechanicalSystem system;
  constraints::ContactConstraint lower{constraints::ContactOptions{}, "lower"};  // on the floor
  constraints::ContactConstraint upper{constraints::ContactOptions{}, "upper"};  // between the bodies
  double mass_above = 0.0, mass_total = 0.0;
};

double particle_mass(const model::MechanicalSystem& sys, Index first, Index count) {
  double m = 0.0;
  for (Index i = first; i < first + count; ++i) m += sys.particle(i).mass;
  return m;
}

Index add_box(Stack& s, const Vec3& half, double z) {
  const Index b = s.system.add_body(scene::box_inertia(kBoxMass, half), Vec3{{0, 0, z}}, quat_identity(), "box");
  return b;
}

// An FEM block (E = 1e5 Pa) resting on a free rigid box resting on the floor.
void block_on_box(Stack& s) {
  const Vec3 half{{0.15, 0.15, 0.05}};
  const Index box = add_box(s, half, 0.05);
  const scene::DeformableBody block =
      scene::add_deformable_body(s.system, scene::box_tet_mesh(Vec3{{-0.1, -0.1, 0.1}}, Vec3{{0.1, 0.1, 0.2}}, 2, 2, 1),
                                 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  s.lower.add_obstacle(floor.shape, floor.pose);
  s.lower.add_body_collider(box, scene::box_shape(half));
  s.upper.add_body_collider(box, scene::box_shape(half));
  s.upper.add_particles(block.first_particle, block.num_particles);
  s.mass_above = particle_mass(s.system, block.first_particle, block.num_particles);
  s.mass_total = s.mass_above + kBoxMass;
}

// A free rigid box resting on an FEM slab (E = 1e5 Pa) resting on the floor.
void box_on_slab(Stack& s) {
  const scene::DeformableBody slab =
      scene::add_deformable_body(s.system, scene::box_tet_mesh(Vec3{{-0.2, -0.2, 0}}, Vec3{{0.2, 0.2, 0.1}}, 4, 4, 1),
                                 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  const Vec3 half{{0.12, 0.12, 0.05}};
  const Index box = add_box(s, half, 0.15);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  s.lower.add_obstacle(floor.shape, floor.pose);
  s.lower.add_particles(slab.first_particle, slab.num_particles);
  s.upper.add_body_collider(box, scene::box_shape(half));
  s.upper.add_particles(slab.first_particle, slab.num_particles);
  s.mass_above = kBoxMass;
  s.mass_total = kBoxMass + particle_mass(s.system, slab.first_particle, slab.num_particles);
}

// Steps @p s to rest (3 s) and checks the normal impulses of the last step against the weights.
void check_at_rest(Stack& s, const char* what) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 300 steps of an FEM stack (a minute under sanitizers)";
  s.system.set_gravity(Vec3{{0, 0, -kG}});
  const contact_test::NewtonRun run = contact_test::run_newton_fb(s.system, {&s.lower, &s.upper}, 300, kH, what);
  ASSERT_TRUE(run.ok);
  const integrators::State& state = run.state;
  const integrators::State& before = run.before;
  model::SystemState st;
  s.system.evaluate_state(before.t, before.q, before.u, st);
  constraints::ConstraintRows lower_rows;
  s.lower.add_rows(s.system, st, lower_rows);
  const Eigen::VectorXd& r = run.stepper->last_impulses();
  double floor = 0.0, between = 0.0;
  for (Index k = 0; 3 * k < r.size(); ++k) (3 * k < lower_rows.rows() ? floor : between) += r[3 * k];
  const double floor_expected = s.mass_total * kG * kH, between_expected = s.mass_above * kG * kH;
  std::printf(
      "%s at rest: floor impulses %.12g (m g h %.12g, rel %.1e), between the bodies %.12g (%.12g, rel %.1e); "
      "|u| %.1e\n",
      what, floor, floor_expected, std::abs(floor / floor_expected - 1), between, between_expected,
      std::abs(between / between_expected - 1), state.u.cwiseAbs().maxCoeff());
  EXPECT_NEAR(floor / floor_expected, 1.0, 1e-6) << what;
  EXPECT_NEAR(between / between_expected, 1.0, 1e-6) << what;
  EXPECT_GT(lower_rows.blocks.size(), 3u);
  EXPECT_GT(r.size() - lower_rows.rows(), 8) << what << ": the upper body rests on several contacts";
}

TEST(MixedStack, AnFemBlockOnAFreeRigidBoxOnTheFloor) {
  Stack s;
  block_on_box(s);
  check_at_rest(s, "FEM block on rigid box");
}

TEST(MixedStack, ARigidBoxOnAnFemSlabOnTheFloor) {
  Stack s;
  box_on_slab(s);
  check_at_rest(s, "rigid box on FEM slab");
}

}  // namespace
}  // namespace sinew::physics_mixed_stack_test
