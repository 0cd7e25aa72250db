// Mesh and grid obstacles in the multibody contact (issue 24 point 4; contact_constraint.hpp,
// shape_obstacle_contacts.hpp): a box obstacle given as a closed triangle mesh, and as a
// signed-distance grid of that mesh, gives the analytic box's contacts and trajectory, for an FEM
// block (its vertices as contact points) and for rigid colliders (a box, a sphere) sliding on it;
// an open sheet holds bodies from above as a plane does, and one below from below; a blade (a
// sheet standing on its rim) holds a capsule across its edge, which falls through it without the
// edge rule.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include "contact_scenes.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_mesh_obstacle_test {
namespace {

constexpr double kG = 9.81, kH = 0.005;

// The surface of the box of half extents @p half about the origin: 12 triangles.
scene::TriangleMesh box_surface(const Vec3& half) {
  return scene::boundary_triangles(scene::box_tet_mesh(v3::neg(half), half, 1, 1, 1));
}

// A box of half extents (1, 1, 0.1) turned 0.1416 rad about z, its top face at z = 0: analytic, as
// a mesh, or as a grid of that mesh (5 cm cells).
Obstacle box_obstacle(const std::string& kind) {
  const Vec3 half{{1.0, 1.0, 0.1}};
  Pose pose = identity_pose();
  pose.translation = Vec3{{0.05, 0.05, -0.1}};
  pose.rotation = Mat3{{0.99, -0.141067359796659, 0, 0.141067359796659, 0.99, 0, 0, 0, 1}};
  if (kind == "analytic") {
    Obstacle o;
    o.shape = Shape{ShapeType::kBox, {half[0], half[1], half[2]}};
    o.pose = pose;
    return o;
  }
  const scene::TriangleMesh mesh = box_surface(half);
  SdfGridOptions grid;
  grid.cell_size = 0.05;
  return kind == "grid" ? grid_obstacle(mesh.vertices, mesh.triangles, grid, pose)
                        : mesh_obstacle(mesh.vertices, mesh.triangles, pose);
}

// The largest difference between the contacts of two constraints at their states: witness points,
// normals and gaps (-1 when their numbers differ).
double contact_difference(const model::MechanicalSystem& sys, const constraints::ContactConstraint& a,
                          const integrators::State& sa, const constraints::ContactConstraint& b,
                          const integrators::State& sb, Index& count) {
  model::SystemState ea, eb;
  sys.evaluate_state(sa.t, sa.q, sa.u, ea);
  sys.evaluate_state(sb.t, sb.q, sb.u, eb);
  constraints::ConstraintRows ra, rb;
  a.add_rows(sys, ea, ra);
  b.add_rows(sys, eb, rb);
  count = static_cast<Index>(ra.contacts.size());
  if (ra.contacts.size() != rb.contacts.size()) return -1.0;
  double worst = 0.0;
  for (std::size_t k = 0; k < ra.contacts.size(); ++k) {
    const constraints::ContactRecord &p = ra.contacts[k], &q = rb.contacts[k];
    worst = std::max({worst, norm(v3::sub(p.point_a, q.point_a)), norm(v3::sub(p.point_b, q.point_b)),
                      norm(v3::sub(p.frame.normal, q.frame.normal))});
  }
  for (std::size_t r = 0; r < ra.phi.size(); ++r) worst = std::max(worst, std::abs(ra.phi[r] - rb.phi[r]));
  return worst;
}

// @p steps steps of @p sys under contacts with the box obstacle of each kind (built by @p make,
// which adds the obstacle to it), in lockstep: checks at every step that the mesh's and the grid's
// contacts are the analytic box's (within 1e-9) and their positions within 1e-9 m.
template <class MakeContact>
void expect_kinds_agree(const model::MechanicalSystem& sys, const integrators::State& start, int steps,
                        MakeContact make, const char* what) {
  std::vector<std::unique_ptr<constraints::ContactConstraint>> contact;
  std::vector<contact_test::NewtonRun> runs(3);
  const char* kinds[3] = {"analytic", "mesh", "grid"};
  for (int k = 0; k < 3; ++k) {
    contact.push_back(std::make_unique<constraints::ContactConstraint>());
    make(*contact.back(), box_obstacle(kinds[k]));
    runs[k].backend = make_backend("serial");
    runs[k].stepper = std::make_unique<integrators::ContactStep>(
        contact_test::make_contact_solver("newton_fb", *runs[k].backend, 1e-13));
    runs[k].state = start;
  }
  double worst_contacts[3] = {0, 0, 0}, worst_q[3] = {0, 0, 0};
  Index most_contacts = 0;
  for (int step = 0; step < steps; ++step) {
    for (int k = 1; k < 3; ++k) {
      Index count = 0;
      const double d = contact_difference(sys, *contact[0], runs[0].state, *contact[k], runs[k].state, count);
      ASSERT_GE(d, 0.0) << what << ", " << kinds[k] << ": not the analytic box's number of contacts at step " << step;
      worst_contacts[k] = std::max(worst_contacts[k], d);
      most_contacts = std::max(most_contacts, count);
    }
    for (int k = 0; k < 3; ++k) {
      const integrators::ContactStepReport r = runs[k].stepper->step(sys, {contact[k].get()}, runs[k].state, kH);
      ASSERT_TRUE(r.ok()) << what << ", " << kinds[k] << " step " << step << ": " << r.message;
    }
    for (int k = 1; k < 3; ++k)
      worst_q[k] = std::max(worst_q[k], (runs[k].state.q - runs[0].state.q).lpNorm<Eigen::Infinity>());
  }
  EXPECT_GT(most_contacts, 0) << what << ": nothing touched the box";
  for (int k = 1; k < 3; ++k) {
    std::printf("%s on the box %s: up to %lld contacts, contacts differ by %.2e, positions by %.2e after %d steps\n",
                what, kinds[k], static_cast<long long>(most_contacts), worst_contacts[k], worst_q[k], steps);
    EXPECT_LT(worst_contacts[k], 1e-9) << what << ", " << kinds[k];
    EXPECT_LT(worst_q[k], 1e-9) << what << ", " << kinds[k];
  }
}

TEST(MultibodyMeshObstacle, ABoxMeshAndItsGridAreTheAnalyticBoxForAnFemBlock) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{-0.05, -0.05, 0.001}}, Vec3{{0.05, 0.05, 0.051}}, 2, 2, 1);
  const scene::DeformableBody block =
      scene::add_deformable_body(sys, mesh, 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  integrators::State start{0.0, sys.initial_positions(), sys.initial_velocities()};
  for (Index p = block.first_particle; p < block.first_particle + block.num_particles; ++p)
    start.u[sys.particle_velocity_offset(p)] = 0.5;  // sliding along x, friction mu = 0.5 slows it
  expect_kinds_agree(
      sys, start, 40,
      [&](constraints::ContactConstraint& c, const Obstacle& box) {
        c.add_obstacle(box);
        c.add_particles(block.first_particle, block.num_particles);
      },
      "FEM block");
}

TEST(MultibodyMeshObstacle, ABoxMeshAndItsGridAreTheAnalyticBoxForRigidColliders) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const Vec3 half{{0.05, 0.04, 0.03}};
  const Index box = sys.add_body(scene::box_inertia(1.0, half), Vec3{{-0.3, 0.1, 0.0305}},
                                 quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.3), "box");
  const double r = 0.05, I = 0.4 * r * r;
  const Index ball = sys.add_body(make_spatial_inertia(1.0, Vec3{{0, 0, 0}}, Mat3{{I, 0, 0, 0, I, 0, 0, 0, I}}),
                                  Vec3{{0.3, -0.1, 0.0502}}, quat_identity(), "ball");
  integrators::State start{0.0, sys.initial_positions(), sys.initial_velocities()};
  start.u[sys.body_velocity_offset(box)] = 0.8;       // sliding along x
  start.u[sys.body_velocity_offset(ball) + 1] = 0.5;  // sliding, then rolling along y
  expect_kinds_agree(
      sys, start, 40,
      [&](constraints::ContactConstraint& c, const Obstacle& obstacle) {
        c.add_obstacle(obstacle);
        c.add_body_collider(box, Shape{ShapeType::kBox, {half[0], half[1], half[2]}});
        c.add_body_collider(ball, Shape{ShapeType::kSphere, {r, 0, 0}});
      },
      "rigid box and ball");
}

// A quad sheet of 2 triangles at z = 0 facing up (MeshSides::kTwoSided) against the half-space
// z <= 0 (from above) or z >= 0 (from below, gravity reversed): a rigid box and an FEM block fall
// onto it and slide alike, and the one below stays below although the sheet's distance calls it
// "behind" its faces.
TEST(MultibodyMeshObstacle, AnOpenSheetHoldsBodiesOnEitherSideAsAPlane) {
  const std::vector<Vec3> quad = {Vec3{{-1, -1, 0}}, Vec3{{1, -1, 0}}, Vec3{{1, 1, 0}}, Vec3{{-1, 1, 0}}};
  const std::vector<std::array<Index, 3>> tri = {{0, 1, 2}, {0, 2, 3}};
  for (double side : {1.0, -1.0}) {
    model::MechanicalSystem sys;
    sys.set_gravity(Vec3{{0, 0, -side * kG}});
    const Vec3 half{{0.05, 0.04, 0.03}};
    const Index box = sys.add_body(scene::box_inertia(1.0, half), Vec3{{-0.3, 0.1, side * 0.0305}},
                                   quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.3), "box");
    const double z0 = side > 0 ? 0.001 : -0.051;
    const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0.2, -0.05, z0}}, Vec3{{0.3, 0.05, z0 + 0.05}}, 2, 2, 1);
    const scene::DeformableBody block =
        scene::add_deformable_body(sys, mesh, 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
    integrators::State start{0.0, sys.initial_positions(), sys.initial_velocities()};
    start.u[sys.body_velocity_offset(box)] = 0.8;
    for (Index p = block.first_particle; p < block.first_particle + block.num_particles; ++p)
      start.u[sys.particle_velocity_offset(p) + 1] = 0.5;
    std::vector<integrators::State> ends;
    for (bool sheet : {false, true}) {
      constraints::ContactConstraint c;
      c.add_obstacle(sheet ? mesh_obstacle(quad, tri, identity_pose(), 0.0, MeshSides::kTwoSided)
                           : half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, side}}));
      c.add_body_collider(box, Shape{ShapeType::kBox, {half[0], half[1], half[2]}});
      c.add_particles(block.first_particle, block.num_particles);
      auto backend = make_backend("serial");
      integrators::ContactStep stepper(contact_test::make_contact_solver("newton_fb", *backend, 1e-13));
      integrators::State s = start;
      for (int k = 0; k < 60; ++k) {
        const integrators::ContactStepReport r = stepper.step(sys, {&c}, s, kH);
        ASSERT_TRUE(r.ok()) << r.message;
      }
      ends.push_back(s);
    }
    const double differ = (ends[1].q - ends[0].q).lpNorm<Eigen::Infinity>();
    const double box_z = ends[1].q[sys.body_position_offset(box) + 2];
    std::printf(
        "bodies %s an open sheet: positions differ from the plane's by %.2e m after 60 steps, box at z = %.4f\n",
        side > 0 ? "above" : "below", differ, box_z);
    EXPECT_LT(differ, 1e-9);
    EXPECT_NEAR(box_z, side * half[2], 1e-4);  // resting on its side of the sheet
  }
}

// A blade: a sheet standing on its rim (the plane y = 0, z in [-0.2, 0], x in [-0.5, 0.5]) and a
// capsule (radius 2 cm, 0.2 m long) falling across its top edge along y. Only the edge can hold it:
// the sheet's vertices and the capsule's ends are far from each other, and the capsule's ends
// are beside the blade, so its ends' distance to the sheet is their distance to the rim, 0.1 m.
// With the edge rule it comes to rest on the edge (its axis at the radius above it); with no edge
// sharp (sharp_edge_angle = pi) it falls through.
TEST(MultibodyMeshObstacle, ABladeHoldsACapsuleAcrossItsEdge) {
  const std::vector<Vec3> blade = {Vec3{{-0.5, 0, -0.2}}, Vec3{{0.5, 0, -0.2}}, Vec3{{0.5, 0, 0}}, Vec3{{-0.5, 0, 0}}};
  const std::vector<std::array<Index, 3>> tri = {{0, 1, 2}, {0, 2, 3}};
  const double r = 0.02, half_length = 0.1;
  for (bool edges : {true, false}) {
    model::MechanicalSystem sys;
    sys.set_gravity(Vec3{{0, 0, -kG}});
    const double I = 0.1;  // well above the capsule's: it stays level
    // The capsule's axis along y (its local z turned onto y).
    const Index capsule = sys.add_body(make_spatial_inertia(1.0, Vec3{{0, 0, 0}}, Mat3{{I, 0, 0, 0, I, 0, 0, 0, I}}),
                                       Vec3{{0.01, 0.0, r + 0.002}},
                                       quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.5 * contact_test::kPi), "capsule");
    constraints::ContactOptions options;
    if (!edges) options.sharp_edge_angle = contact_test::kPi;
    constraints::ContactConstraint c(options);
    c.add_obstacle(mesh_obstacle(blade, tri, identity_pose(), 0.0, MeshSides::kTwoSided));
    c.add_body_collider(capsule, Shape{ShapeType::kCapsule, {r, half_length, 0}});
    const contact_test::NewtonRun run = contact_test::run_newton_fb(sys, {&c}, 60, kH, "capsule on a blade");
    const double z = run.state.q[sys.body_position_offset(capsule) + 2];
    std::printf("capsule across a blade, %s: its axis at z = %.6f m after 60 steps (radius %.2f m)\n",
                edges ? "edge contacts" : "no sharp edges", z, r);
    if (edges)
      EXPECT_NEAR(z, r, 1e-6);
    else
      EXPECT_LT(z, -0.1);  // through the blade
  }
}

}  // namespace
}  // namespace sinew::physics_mesh_obstacle_test
