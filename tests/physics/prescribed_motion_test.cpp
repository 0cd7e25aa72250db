// Kinematically driven rigid bodies (constraints::PrescribedMotion, issue 21): the body follows
// its piecewise-constant twist exactly whatever pushes on it, and the rows' reaction is the force
// that drives it: a paddle pushing a box across the floor at constant speed needs mu times the
// floor's normal force, with analytic shapes or as triangle meshes (a moving mesh obstacle).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"
#include "expect_error.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/constraints/prescribed_motion.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_prescribed_motion_test {
namespace {

constexpr double kH = 1e-3;

TEST(PrescribedMotion, ABodyFollowsItsTwistProfileExactly) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Index b = sys.add_body(scene::box_inertia(1.0, Vec3{{0.1, 0.05, 0.02}}), Vec3{{0, 0, 1}}, quat_identity());
  constraints::TwistProfile profile;
  profile.velocity = Vec3{{0.1, 0, 0}};
  profile.angular_velocity = Vec3{{0, 0, 1.0}};
  profile.changes = {{0.0505, Vec3{{0, 0, -0.2}}, Vec3{{0, 0, 0}}}};  // between steps 50 and 51
  const constraints::PrescribedMotion drive("driven box", b, profile);
  auto backend = make_backend("serial");
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_fb", *backend, 1e-13));
  integrators::State s{0.0, sys.initial_positions(), sys.initial_velocities()};
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(stepper.step(sys, {&drive}, s, kH).ok()) << k;
  Vec3 x;
  Quaternion q;
  sys.body_pose(s.q, b, x, q);
  EXPECT_NEAR(x[0], 0.1 * 0.051, 1e-12);
  EXPECT_NEAR(x[1], 0.0, 1e-12);
  EXPECT_NEAR(x[2], 1.0 - 0.2 * 0.049, 1e-12);
  // Turned about z by 1 rad/s for 51 steps.
  EXPECT_NEAR(2.0 * std::atan2(q.v[2], q.s), 0.051, 1e-12);
  EXPECT_NEAR(s.u[sys.body_velocity_offset(b) + 2], -0.2, 1e-12);
}

TEST(PrescribedMotion, APaddlePushingABoxNeedsTheBoxsFriction) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 box_half{{0.05, 0.05, 0.05}};
  const Shape pusher{ShapeType::kSphere, {0.02, 0, 0}};  // a round pusher: one contact on the box's face
  const Index box = sys.add_body(scene::box_inertia(1.0, box_half), Vec3{{0, 0, 0.05}}, quat_identity(), "box");
  const Index paddle = sys.add_body(scene::box_inertia(0.5, Vec3{{0.02, 0.02, 0.02}}), Vec3{{-0.075, 0, 0.05}},
                                    quat_identity(), "paddle");
  constraints::ContactOptions o;
  o.mu = 0.3;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_body_collider(box, scene::box_shape(box_half));
  contact.add_body_collider(paddle, pusher);
  constraints::TwistProfile push;
  push.velocity = Vec3{{0.2, 0, 0}};
  const constraints::PrescribedMotion drive("paddle", paddle, push);
  const contact_test::NewtonRun run = contact_test::run_newton_fb(sys, {&contact, &drive}, 300, kH, "paddle");
  ASSERT_TRUE(run.ok);
  const integrators::State& s = run.state;
  // The drive's x row is the sixth from the end; its impulse over h is the force pushing the paddle.
  // Before it, the contact blocks: the box's floor contacts, then the pusher's (collider pairs
  // come after colliders against obstacles). The box slides: the drive's force is mu times the
  // floor's normal force (which the pusher's own friction may add to: statically indeterminate).
  const Eigen::VectorXd& r = run.stepper->last_impulses();
  const double force = r[r.size() - 6] / kH;
  const Index contact_blocks = (r.size() - 6) / 3;
  double floor_normal = 0.0;
  for (Index k = 0; k + 1 < contact_blocks; ++k) floor_normal += r[3 * k] / kH;
  Vec3 xb, xp;
  Quaternion q;
  sys.body_pose(s.q, box, xb, q);
  sys.body_pose(s.q, paddle, xp, q);
  std::printf(
      "paddle pushing a 1 kg box (mu 0.3) at 0.2 m/s: drive force %.6f N, mu x floor normal force %.6f N "
      "(m g %.4f N), box speed %.6f m/s\n",
      force, 0.3 * floor_normal, 9.81, s.u[sys.body_velocity_offset(box)]);
  EXPECT_NEAR(force / (0.3 * floor_normal), 1.0, 1e-6);
  // The contacts carry the box's weight: the floor's normal force, plus whatever the pusher's
  // friction holds (the split is statically indeterminate; Baraff's factor and the Delassus form
  // find different ones).
  const Eigen::VectorXd on_box = run.stepper->last_system_impulses() / kH;
  EXPECT_NEAR(on_box[sys.body_velocity_offset(box) + 2], 9.81, 1e-6);
  EXPECT_LE(floor_normal, 9.81 * (1 + 1e-9));
  EXPECT_NEAR(xp[0], -0.075 + 0.2 * 0.3, 1e-12);  // the paddle does not feel the box
  EXPECT_NEAR(s.u[sys.body_velocity_offset(box)], 0.2, 1e-6);
  EXPECT_GT(xb[0], 0.03);  // the box was pushed
}

TEST(PrescribedMotion, AMovingMeshPaddlePushesAMeshBoxWithTheBoxsFriction) {
  // The same push with both bodies as triangle meshes (contact surfaces, contact_surface.hpp): the
  // paddle a tetrahedron whose tip touches the middle of the box's face (a moving mesh obstacle),
  // the box's corners on the floor. The drive's force is again mu times the floor's normal force.
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 box_half{{0.05, 0.05, 0.05}};
  const Index box = sys.add_body(scene::box_inertia(1.0, box_half), Vec3{{0, 0, 0.05}}, quat_identity(), "box");
  const Index paddle = sys.add_body(scene::box_inertia(0.5, Vec3{{0.02, 0.02, 0.02}}), Vec3{{-0.075, 0, 0.05}},
                                    quat_identity(), "paddle");
  scene::TriangleMesh tip;  // apex (0.0245, 0, 0), 0.5 mm from the box's face; base at x = -0.02
  tip.vertices = {{{0.0245, 0, 0}}, {{-0.02, 0.02, -0.02}}, {{-0.02, 0.02, 0.02}}, {{-0.02, -0.03, 0}}};
  tip.triangles = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  const scene::ContactSurface box_surface = scene::rigid_surface(
      sys, box, scene::boundary_triangles(scene::box_tet_mesh(Vec3{{-0.05, -0.05, -0.05}}, box_half, 1, 1, 1)), "box");
  constraints::ContactOptions o;
  o.mu = 0.3;
  constraints::ContactConstraint contact(o);
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_points(box_surface.vertices);
  scene::add_surface(contact, box_surface);
  scene::add_surface(contact, scene::rigid_surface(sys, paddle, tip, "paddle"));
  constraints::TwistProfile push;
  push.velocity = Vec3{{0.2, 0, 0}};
  const constraints::PrescribedMotion drive("paddle", paddle, push);
  const contact_test::NewtonRun run = contact_test::run_newton_fb(sys, {&contact, &drive}, 300, kH, "paddle");
  ASSERT_TRUE(run.ok);
  const integrators::State& s = run.state;
  // Blocks: the box's four lower corners on the floor (contact points), then the paddle's apex on
  // the box's face (surfaces), then the drive's six rows.
  const Eigen::VectorXd& r = run.stepper->last_impulses();
  ASSERT_EQ(r.size(), 3 * 5 + 6);
  const double force = r[r.size() - 6] / kH;
  double floor_normal = 0.0;
  for (Index k = 0; k < 4; ++k) floor_normal += r[3 * k] / kH;
  Vec3 xb;
  Quaternion q;
  sys.body_pose(s.q, box, xb, q);
  std::printf("mesh paddle pushing a 1 kg mesh box (mu 0.3) at 0.2 m/s: drive force %.6f N, mu x floor normal %.6f N\n",
              force, 0.3 * floor_normal);
  EXPECT_NEAR(force / (0.3 * floor_normal), 1.0, 1e-6);
  // The contacts carry the box's weight (the apex's friction may press down or hold up: the split
  // with the floor is statically indeterminate).
  const Eigen::VectorXd on_box = run.stepper->last_system_impulses() / kH;
  EXPECT_NEAR(on_box[sys.body_velocity_offset(box) + 2], 9.81, 1e-6);
  EXPECT_NEAR(s.u[sys.body_velocity_offset(box)], 0.2, 1e-6);
  EXPECT_GT(xb[0], 0.03);
}

TEST(PrescribedMotion, BadProfilesAreRefused) {
  model::MechanicalSystem sys;
  sys.add_body(scene::box_inertia(1.0, Vec3{{0.1, 0.1, 0.1}}), Vec3{{0, 0, 0}}, quat_identity());
  constraints::TwistProfile p;
  p.changes = {{0.2, {}, {}}, {0.1, {}, {}}};
  EXPECT_SINEW_ERROR(constraints::PrescribedMotion("lift", 0, p).check(sys), "lift", "change 1", "increasing");
  EXPECT_SINEW_ERROR(constraints::PrescribedMotion("lift", 3, {}).check(sys), "lift");
}

}  // namespace
}  // namespace sinew::physics_prescribed_motion_test
