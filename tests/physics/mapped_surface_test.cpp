// A mapped collision surface (issue 21): an FEM block on the floor whose contact surface is its
// boundary refined once (4 triangles per face) and mapped barycentrically into its tets
// (embed_points, MappedPoints), pressed 4 mm by a rigid capsule tool driven down by a slider.
// The tool's contact rows go through the mapping (G = G_x J). At rest the block is in equilibrium
// (floor + tool impulses on it = its weight, 1e-6), and the tool's force agrees with the same scene
// with contact on the FEM surface nodes themselves.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/model/mapped_points.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/embedded_surface.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_mapped_surface_test {
namespace {

constexpr double kG = 9.81, kH = 0.005, kPi = 3.14159265358979323846;

struct Pressed {
  double tool_force = 0.0;   // vertical force of the tool on the block (N, downwards < 0)
  double balance = 0.0;      // |floor + tool impulses on the block - m g h| / (m g h)
  Index tool_contacts = 0;   // contact blocks of the tool at the end
  Index surface_points = 0;  // contact points of the block
};

// Vertical impulse on the particles [first, first + count) of the rows of @p c at @p s with the
// impulses r[offset, offset + rows).
double vertical_impulse(const constraints::Constraint& c, const model::MechanicalSystem& sys,
                        const model::SystemState& s, const Eigen::VectorXd& r, Index& offset, Index first, Index count,
                        Index* blocks = nullptr) {
  constraints::ConstraintRows rows;
  c.add_rows(sys, s, rows);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(sys.num_velocities());
  for (const auto& t : rows.jacobian) f[t.col()] += t.value() * r[offset + t.row()];
  offset += rows.rows();
  if (blocks) *blocks = static_cast<Index>(rows.blocks.size());
  double z = 0.0;
  for (Index i = first; i < first + count; ++i) z += f[sys.particle_velocity_offset(i) + 2];
  return z;
}

Pressed press(bool mapped) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{-0.1, -0.1, 0}}, Vec3{{0.1, 0.1, 0.1}}, 4, 4, 2);
  const scene::DeformableBody block =
      scene::add_deformable_body(sys, mesh, 1000.0, MaterialModel::kStableNeoHookean, ElasticParameters{5e4, 0.3});
  // The tool: a capsule (radius 2 cm) lying along y, 1 mm above the top face, driven down at
  // 1 cm/s for 100 steps (5 mm), then held.
  constexpr double kRadius = 0.02, kHalfLength = 0.06;
  const double tool_z = 0.1 + kRadius + 0.001;
  const Index tool =
      sys.add_body(make_spatial_inertia(0.2, Vec3{{0, 0, 0}}, Mat3{{1e-4, 0, 0, 0, 1e-4, 0, 0, 0, 4e-5}}),
                   Vec3{{0, 0, tool_z}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.5 * kPi), "tool");
  constraints::AxisJointOptions drive;
  drive.drive.enabled = true;
  drive.drive.speed = -0.01;
  drive.drive.changes = {{99.5 * kH, 0.0}};
  const constraints::SliderJoint slider("press", constraints::world_side(Vec3{{0, 0, tool_z}}),
                                        constraints::body_side(tool, Vec3{{0, 0, 0}}, Vec3{{0, 1, 0}}, Vec3{{1, 0, 0}}),
                                        drive);
  constraints::ContactConstraint floor_contact(constraints::ContactOptions{}, "floor");
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  floor_contact.add_obstacle(floor.shape, floor.pose);
  floor_contact.add_particles(block.first_particle, block.num_particles);
  constraints::ContactConstraint tool_contact(constraints::ContactOptions{}, "tool");
  tool_contact.add_body_collider(tool, Shape{ShapeType::kCapsule, {kRadius, kHalfLength, 0}});
  Pressed out;
  if (mapped) {
    const scene::TriangleMesh fine = scene::refine_triangles(scene::boundary_triangles(mesh));
    auto points = std::make_shared<model::MappedPoints>(
        sys, scene::embed_points(mesh, block.first_particle, fine.vertices), "fine surface");
    tool_contact.add_points(points);
    out.surface_points = points->size();
  } else {
    tool_contact.add_particles(block.first_particle, block.num_particles);
    out.surface_points = block.num_particles;
  }
  auto backend = make_backend("serial");
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_fb", *backend, 1e-12));
  integrators::State state{0.0, sys.initial_positions(), sys.initial_velocities()}, before = state;
  const std::vector<const constraints::Constraint*> constraints{&floor_contact, &tool_contact, &slider};
  for (int k = 0; k < 500; ++k) {
    before = state;
    const integrators::ContactStepReport r = stepper.step(sys, constraints, state, kH);
    EXPECT_TRUE(r.ok()) << (mapped ? "mapped" : "nodes") << ", step " << k << ": " << r.message;
    if (!r.ok()) return out;
  }
  model::SystemState s;
  sys.evaluate_state(before.t, before.q, before.u, s);
  const Eigen::VectorXd& r = stepper.last_impulses();
  Index offset = 0;
  const double floor_z = vertical_impulse(floor_contact, sys, s, r, offset, block.first_particle, block.num_particles);
  const double tool_z_impulse =
      vertical_impulse(tool_contact, sys, s, r, offset, block.first_particle, block.num_particles, &out.tool_contacts);
  double mass = 0.0;
  for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
    mass += sys.particle(i).mass;
  out.tool_force = tool_z_impulse / kH;
  out.balance = std::abs(floor_z + tool_z_impulse - mass * kG * kH) / (mass * kG * kH);
  std::printf(
      "block pressed 4 mm by a capsule, contact on %s (%ld points): tool force %.4f N on %ld contacts; "
      "floor + tool impulses vs weight: rel %.1e\n",
      mapped ? "a refined surface mapped into the tets" : "the FEM surface nodes",
      static_cast<long>(out.surface_points), out.tool_force, static_cast<long>(out.tool_contacts), out.balance);
  return out;
}

TEST(MappedSurface, AToolPressingAMappedSurfaceAgreesWithTheFemSurface) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 1000 steps of an FEM block";
  const Pressed mapped = press(true), nodes = press(false);
  for (const Pressed& p : {mapped, nodes}) {
    EXPECT_LT(p.balance, 1e-6);
    EXPECT_LT(p.tool_force, -0.5);  // the tool presses down
  }
  EXPECT_GT(mapped.tool_contacts, nodes.tool_contacts);  // the finer surface carries more contacts
  EXPECT_NEAR(mapped.tool_force / nodes.tool_force, 1.0, 0.05);
}

}  // namespace
}  // namespace sinew::physics_mapped_surface_test
