// Stacks at rest on contact surfaces (issue 21; contact_constraint.hpp, add_surface()): a rigid
// mesh box on a rigid mesh box, an FEM block on an FEM slab, a rigid mesh box on an FEM slab, each
// on the floor. Their contact is only vertex on triangle and edge on edge between the two
// surfaces, with impulses on both sides; at rest each interface carries the weight above it: the
// floor's normal impulses of one step sum to (total mass) g h, and the contact impulses J^T r on
// the upper body (whose normals follow the deformed surfaces, so not their normal parts alone)
// have the vertical sum (mass above) g h.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <vector>

#include <Eigen/SparseCore>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_mesh_contact_test {
namespace {

constexpr double kG = 9.81, kH = 0.01;

struct Stack {
  model::MechanicalSystem system;
  constraints::ContactConstraint lower{constraints::ContactOptions{}, "lower"};  // on the floor
  constraints::ContactConstraint upper{constraints::ContactOptions{}, "upper"};  // between the surfaces
  double mass_above = 0.0, mass_total = 0.0;
  std::vector<Index> upper_z;  // the upper body's vertical velocity DOFs
};

double particle_mass(const model::MechanicalSystem& sys, Index first, Index count) {
  double m = 0.0;
  for (Index i = first; i < first + count; ++i) m += sys.particle(i).mass;
  return m;
}

// A box's surface in body coordinates: the boundary of one cell of tets.
scene::TriangleMesh box_mesh(const Vec3& half) {
  return scene::boundary_triangles(scene::box_tet_mesh(Vec3{{-half[0], -half[1], -half[2]}}, half, 1, 1, 1));
}

// A free rigid box of mass @p mass with a mesh surface, at @p centre turned by @p angle about z;
// its vertical DOF is the upper body's when @p upper.
scene::ContactSurface add_mesh_box(Stack& s, double mass, const Vec3& half, const Vec3& centre, double angle,
                                   bool upper) {
  const Index b =
      s.system.add_body(scene::box_inertia(mass, half), centre, quat_from_axis_angle(Vec3{{0, 0, 1}}, angle), "box");
  if (upper) s.upper_z = {s.system.body_velocity_offset(b) + 2};
  return scene::rigid_surface(s.system, b, box_mesh(half), "box " + std::to_string(b));
}

// An FEM slab (E = 1e5 Pa) on the floor, its surface.
scene::ContactSurface add_slab(Stack& s, Index& first, Index& count) {
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{-0.2, -0.2, 0}}, Vec3{{0.2, 0.2, 0.1}}, 4, 4, 1);
  const scene::DeformableBody slab =
      scene::add_deformable_body(s.system, mesh, 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  first = slab.first_particle;
  count = slab.num_particles;
  return scene::particle_surface(s.system, slab.first_particle, scene::boundary_triangles(mesh), "slab");
}

void add_floor(Stack& s) {
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  s.lower.add_obstacle(floor.shape, floor.pose);
}

// A rigid mesh box (1 kg) on a rigid mesh box (2 kg), turned 0.3 rad against it; the lower box's
// corners touch the floor.
void box_on_box(Stack& s) {
  add_floor(s);
  const scene::ContactSurface lower = add_mesh_box(s, 2.0, Vec3{{0.15, 0.15, 0.05}}, Vec3{{0, 0, 0.05}}, 0.0, false);
  const scene::ContactSurface upper =
      add_mesh_box(s, 1.0, Vec3{{0.1, 0.1, 0.05}}, Vec3{{0.01, -0.02, 0.15}}, 0.3, true);
  s.lower.add_points(lower.vertices);
  scene::add_surface(s.upper, lower);
  scene::add_surface(s.upper, upper);
  s.mass_above = 1.0;
  s.mass_total = 3.0;
}

// An FEM block on an FEM slab, offset so that their vertices do not line up.
void block_on_slab(Stack& s) {
  add_floor(s);
  Index first = 0, count = 0;
  const scene::ContactSurface slab = add_slab(s, first, count);
  s.lower.add_particles(first, count);
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{-0.087, -0.121, 0.1}}, Vec3{{0.113, 0.079, 0.2}}, 2, 2, 1);
  const scene::DeformableBody block =
      scene::add_deformable_body(s.system, mesh, 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  scene::add_surface(s.upper, slab);
  scene::add_surface(s.upper,
                     scene::particle_surface(s.system, block.first_particle, scene::boundary_triangles(mesh), "block"));
  s.mass_above = particle_mass(s.system, block.first_particle, block.num_particles);
  for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
    s.upper_z.push_back(s.system.particle_velocity_offset(i) + 2);
  s.mass_total = s.mass_above + particle_mass(s.system, first, count);
}

// A rigid mesh box (2 kg) on an FEM slab, turned 0.4 rad.
void box_on_slab(Stack& s) {
  add_floor(s);
  Index first = 0, count = 0;
  const scene::ContactSurface slab = add_slab(s, first, count);
  s.lower.add_particles(first, count);
  scene::add_surface(s.upper, slab);
  scene::add_surface(s.upper, add_mesh_box(s, 2.0, Vec3{{0.12, 0.1, 0.05}}, Vec3{{0.02, 0.01, 0.15}}, 0.4, true));
  s.mass_above = 2.0;
  s.mass_total = 2.0 + particle_mass(s.system, first, count);
}

// Steps @p s to rest (3 s) and checks the normal impulses of the last step against the weights.
void check_at_rest(Stack& s, const char* what) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 300 steps of a stack (a minute under sanitizers)";
  s.system.set_gravity(Vec3{{0, 0, -kG}});
  const contact_test::NewtonRun run = contact_test::run_newton_fb(s.system, {&s.lower, &s.upper}, 300, kH, what);
  ASSERT_TRUE(run.ok);
  const integrators::State& state = run.state;
  const integrators::State& before = run.before;
  model::SystemState st;
  s.system.evaluate_state(before.t, before.q, before.u, st);
  constraints::ConstraintRows lower_rows, upper_rows;
  s.lower.add_rows(s.system, st, lower_rows);
  s.upper.add_rows(s.system, st, upper_rows);
  const Eigen::VectorXd& r = run.stepper->last_impulses();
  ASSERT_EQ(r.size(), lower_rows.rows() + upper_rows.rows());
  double floor = 0.0, between = 0.0;
  for (Index k = 0; k < lower_rows.rows(); k += 3) floor += r[k];
  Eigen::SparseMatrix<double> J(upper_rows.rows(), s.system.num_velocities());
  J.setFromTriplets(upper_rows.jacobian.begin(), upper_rows.jacobian.end());
  const Eigen::VectorXd F = J.transpose() * r.tail(upper_rows.rows());
  for (Index dof : s.upper_z) between += F[dof];
  const double floor_expected = s.mass_total * kG * kH, between_expected = s.mass_above * kG * kH;
  std::printf(
      "%s at rest: floor impulses %.12g (m g h %.12g, rel %.1e), between the surfaces %.12g (%.12g, rel %.1e) over "
      "%lld contacts; |u| %.1e\n",
      what, floor, floor_expected, std::abs(floor / floor_expected - 1), between, between_expected,
      std::abs(between / between_expected - 1), static_cast<long long>((r.size() - lower_rows.rows()) / 3),
      state.u.cwiseAbs().maxCoeff());
  EXPECT_NEAR(floor / floor_expected, 1.0, 1e-6) << what;
  EXPECT_NEAR(between / between_expected, 1.0, 1e-6) << what;
  EXPECT_GE(r.size() - lower_rows.rows(), 4 * 3) << what << ": the upper body rests on several contacts";
  EXPECT_LT(state.u.cwiseAbs().maxCoeff(), 1e-3) << what << ": at rest";
}

TEST(MeshContact, ARigidMeshBoxOnARigidMeshBoxOnTheFloor) {
  Stack s;
  box_on_box(s);
  check_at_rest(s, "rigid mesh box on rigid mesh box");
}

TEST(MeshContact, AnFemBlockOnAnFemSlabOnTheFloor) {
  Stack s;
  block_on_slab(s);
  check_at_rest(s, "FEM block on FEM slab");
}

TEST(MeshContact, ARigidMeshBoxOnAnFemSlabOnTheFloor) {
  Stack s;
  box_on_slab(s);
  check_at_rest(s, "rigid mesh box on FEM slab");
}

}  // namespace
}  // namespace sinew::physics_mesh_contact_test
