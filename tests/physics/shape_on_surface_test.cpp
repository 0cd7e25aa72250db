// A rigid sphere, capsule, box and cylinder (standing, lying) resting on a coarse FEM slab between its nodes (issue
// 21's rigid-deformable contact on faces and edges, shape_surface_contacts.hpp): each comes to rest on the slab's top
// face, not on its nodes (20 cm apart, wider than the shapes), with the slab's contacts carrying its weight (the normal
// impulses of a step sum to m g h). Without the slab's surface, only its nodes touch the shape, and it falls through to
// the floor.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/scene/contact_scenes.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_shape_on_surface_test {
namespace {

constexpr double kG = 9.81, kH = 0.01, kMass = 0.2, kTop = 0.05;

struct Rest {
  double height = 0.0;        // of the shape's lowest point
  double surface = 0.0;       // of the slab's top face under it
  double slab_impulse = 0.0;  // normal impulses of the slab's contacts with the shape, last step
  std::size_t slab_contacts = 0;
};

// The shape's lowest point (local frame; the shapes are placed upright or lying along x).
double lowest_offset(const Shape& shape, const Quaternion& q) {
  if (shape.type == ShapeType::kBox) return shape.size[2];
  // A cylinder standing (axis z) rests on a cap, lying on its side.
  if (shape.type == ShapeType::kCylinder && std::abs(rotation_matrix(q)(2, 2)) > 0.5) return shape.size[1];
  return shape.size[0];
}

// @p shape (a body of kMass, turned by @p q) dropped from 2 mm above a 40 x 40 x 5 cm slab of
// 2 x 2 x 1 cells on the floor, at (0.07, -0.05): inside a top triangle, 7 cm or more from any
// node. With @p surface the slab's boundary is a contact surface besides its nodes.
Rest rest_on_slab(const Shape& shape, const Quaternion& q, bool surface, const std::string& what) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const auto mesh = scene::box_tet_mesh(Vec3{{-0.2, -0.2, 0}}, Vec3{{0.2, 0.2, kTop}}, 2, 2, 1);
  const scene::DeformableBody slab =
      scene::add_deformable_body(sys, mesh, 500.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e5, 0.3});
  const double drop = kTop + lowest_offset(shape, q) + 0.002;
  const Index body = sys.add_body(make_spatial_inertia(kMass, Vec3{{0, 0, 0}}, 1e-4 * identity3()),
                                  Vec3{{0.07, -0.05, drop}}, q, "shape");
  constraints::ContactConstraint lower({}, "floor"), upper({}, "slab");
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  lower.add_obstacle(floor.shape, floor.pose);
  lower.add_particles(slab.first_particle, slab.num_particles);
  lower.add_body_collider(body, shape);
  upper.add_body_collider(body, shape);
  upper.add_particles(slab.first_particle, slab.num_particles);
  if (surface)
    scene::add_surface(upper,
                       scene::particle_surface(sys, slab.first_particle, scene::boundary_triangles(mesh), "slab"));
  const contact_test::NewtonRun run = contact_test::run_newton_fb(sys, {&lower, &upper}, 200, kH, what);
  Rest out;
  if (!run.ok) return out;
  model::SystemState st;
  sys.evaluate_state(run.state.t, run.state.q, run.state.u, st);
  out.height = st.bodies[static_cast<std::size_t>(body)].x[2] - lowest_offset(shape, q);
  // The top face's height under the shape: the top triangle's plane through its deformed nodes.
  const Vec3 c = st.bodies[static_cast<std::size_t>(body)].x;
  for (const auto& t : scene::boundary_triangles(mesh).triangles) {
    const Vec3 a = st.x[static_cast<std::size_t>(slab.first_particle + t[0])];
    const Vec3 b = st.x[static_cast<std::size_t>(slab.first_particle + t[1])];
    const Vec3 d = st.x[static_cast<std::size_t>(slab.first_particle + t[2])];
    const Vec3 n = cross(b - a, d - a);
    if (n[2] <= 0.5 * norm(n)) continue;  // the top faces only
    // Barycentric weights of (c_x, c_y) in the triangle's projection.
    const double det = (b[0] - a[0]) * (d[1] - a[1]) - (d[0] - a[0]) * (b[1] - a[1]);
    const double u = ((c[0] - a[0]) * (d[1] - a[1]) - (d[0] - a[0]) * (c[1] - a[1])) / det;
    const double v = ((b[0] - a[0]) * (c[1] - a[1]) - (c[0] - a[0]) * (b[1] - a[1])) / det;
    if (u >= 0 && v >= 0 && u + v <= 1) out.surface = a[2] + u * (b[2] - a[2]) + v * (d[2] - a[2]);
  }
  // The slab's normal impulses on the last step (the contacts at its start).
  model::SystemState before;
  sys.evaluate_state(run.before.t, run.before.q, run.before.u, before);
  constraints::ConstraintRows lower_rows, upper_rows;
  lower.add_rows(sys, before, lower_rows);
  upper.add_rows(sys, before, upper_rows);
  const Eigen::VectorXd& r = run.stepper->last_impulses();
  for (Index k = lower_rows.rows(); k < r.size(); k += 3) out.slab_impulse += r[k];
  out.slab_contacts = upper_rows.blocks.size();
  return out;
}

TEST(ShapeOnSurface, SpheresCapsulesBoxesAndCylindersRestOnAnFemFaceBetweenItsNodes) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 2000 steps of an FEM slab";
  const double kPi = 3.14159265358979323846;
  const struct {
    const char* name;
    Shape shape;
    Quaternion q;
  } cases[] = {
      {"sphere", Shape{ShapeType::kSphere, {0.03, 0, 0}}, quat_identity()},
      {"capsule", Shape{ShapeType::kCapsule, {0.02, 0.03, 0}}, quat_from_axis_angle(Vec3{{0, 1, 0}}, kPi / 2)},
      {"box", Shape{ShapeType::kBox, {0.03, 0.02, 0.01}}, quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.4)},
      {"standing cylinder", Shape{ShapeType::kCylinder, {0.03, 0.02, 0}}, quat_identity()},
      {"lying cylinder", Shape{ShapeType::kCylinder, {0.02, 0.03, 0}}, quat_from_axis_angle(Vec3{{1, 0, 0}}, kPi / 2)},
  };
  for (const auto& c : cases) {
    const Rest on = rest_on_slab(c.shape, c.q, true, c.name);
    const Rest through = rest_on_slab(c.shape, c.q, false, std::string(c.name) + " on nodes only");
    const double weight = kMass * kG * kH;
    std::printf(
        "%s on the FEM slab's face: lowest point %.6f m, face under it %.6f m (gap %.1e), %zu contacts, impulses "
        "%.9g (m g h %.9g, rel %.1e); on its nodes only: lowest point %.4f m\n",
        c.name, on.height, on.surface, on.height - on.surface, on.slab_contacts, on.slab_impulse, weight,
        std::abs(on.slab_impulse / weight - 1), through.height);
    EXPECT_NEAR(on.height, on.surface, 1e-5) << c.name << ": rests on the face";
    EXPECT_GT(on.surface, kTop - 2e-3) << c.name << ": the slab hardly sags";
    EXPECT_NEAR(on.slab_impulse / weight, 1.0, 1e-6) << c.name;
    EXPECT_LT(through.height, 1e-3) << c.name << ": without the surface it falls through to the floor";
  }
}

}  // namespace
}  // namespace sinew::physics_shape_on_surface_test
