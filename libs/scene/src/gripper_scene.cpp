// The soft gripper (gripper_scene.hpp).
#include "sinew/scene/gripper_scene.hpp"

#include <cmath>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sinew/constraints/joint_types.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {
namespace {

// Surface materials of the contact constraint.
constexpr Index kTable = 0, kBox = 1, kFinger = 2;

// Geometry (m): the box is an 8 cm cube on the table (z = 0); each finger is a 2 x 6 x 11 cm pad,
// 5 mm from the box's side, 1 cm above the table, its outer face held by its jaw, a 1 cm plate
// as tall as the pad; the palm lies on the jaws' tops.
constexpr double kBoxHalf = 0.04, kGap = 0.005, kFingerWidth = 0.02, kFingerHalfDepth = 0.03, kFingerBottom = 0.01,
                 kFingerTop = 0.12, kJawHalfWidth = 0.005, kPalmHalfHeight = 0.01;
constexpr double kJawZ = 0.5 * (kFingerBottom + kFingerTop), kJawHalfHeight = 0.5 * (kFingerTop - kFingerBottom);

}  // namespace

GripperScene soft_gripper_scene(const GripperOptions& o) {
  for (double v :
       {o.box_mass, o.youngs_modulus, o.squeeze, o.close_speed, o.lift_height, o.lift_speed, o.hold_time, o.time_step})
    require(std::isfinite(v) && v > 0.0, "soft_gripper_scene: every size, speed and time must be finite and > 0");
  require(std::isfinite(o.grip_friction) && o.grip_friction >= 0 && std::isfinite(o.table_friction) &&
              o.table_friction >= 0,
          "soft_gripper_scene: frictions must be finite and >= 0");
  GripperScene g;
  ContactScene& s = g.scene;
  s.name = "soft_gripper";
  s.time_step = o.time_step;
  model::MechanicalSystem& sys = *s.system;
  sys.set_gravity(Vec3{{0, 0, -kGravity}});
  s.contact = std::make_unique<constraints::ContactConstraint>(constraints::ContactOptions{}, "gripper contact");
  constraints::ContactConstraint& contact = *s.contact;
  contact.set_mu(o.table_friction);
  contact.set_friction(kFinger, kBox, o.grip_friction);
  const Obstacle table = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(table.shape, table.pose, kTable);

  const Vec3 box_half{{kBoxHalf, kBoxHalf, kBoxHalf}};
  g.box = sys.add_body(box_inertia(o.box_mass, box_half), Vec3{{0, 0, kBoxHalf}}, quat_identity(), "box");
  contact.add_body_collider(g.box, box_shape(box_half), kBox);

  // The schedule, in whole steps: close until each pad has travelled its gap and the squeeze,
  // lift, hold. Drive speeds change half a step before a step starts, so that the steps' start
  // times (sums of h) fall on the intended side of every change.
  const double h = o.time_step;
  const long close_steps = static_cast<long>(std::ceil((kGap + o.squeeze) / o.close_speed / h - 1e-9));
  const long lift_steps = static_cast<long>(std::ceil(o.lift_height / o.lift_speed / h - 1e-9));
  const long hold_steps = static_cast<long>(std::ceil(o.hold_time / h - 1e-9));
  g.close_end = (static_cast<double>(close_steps) - 0.5) * h;
  g.lift_end = (static_cast<double>(close_steps + lift_steps) - 0.5) * h;
  g.steps = static_cast<int>(close_steps + lift_steps + hold_steps);
  g.hold_end = g.steps * h;

  const double palm_z = kFingerTop + kPalmHalfHeight;
  const Vec3 palm_half{{0.1, kFingerHalfDepth, kPalmHalfHeight}};
  g.palm = sys.add_body(box_inertia(1.0, palm_half), Vec3{{0, 0, palm_z}}, quat_identity(), "palm");
  constraints::AxisJointOptions lift;
  lift.drive.enabled = true;
  lift.drive.changes = {{g.close_end, o.lift_speed}, {g.lift_end, 0.0}};
  const Vec3 z{{0, 0, 1}}, x{{1, 0, 0}};
  s.joints.push_back(
      std::make_unique<constraints::SliderJoint>("lift", constraints::world_side(Vec3{{0, 0, palm_z}}, z),
                                                 constraints::body_side(g.palm, Vec3{{0, 0, 0}}, z), lift));

  const ElasticParameters finger_material{o.youngs_modulus, 0.3};
  std::vector<std::pair<Index, Index>> held;                          // (node, jaw) eliminated when reduce_attachments
  std::vector<std::unique_ptr<constraints::Constraint>> attachments;  // after the slides, as a scene file has them
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? -1.0 : 1.0;  // -x finger closes towards +x
    const double inner = sign * (kBoxHalf + kGap), outer = sign * (kBoxHalf + kGap + kFingerWidth);
    const double jaw_x = outer + sign * kJawHalfWidth;
    const Vec3 jaw_half{{kJawHalfWidth, kFingerHalfDepth, kJawHalfHeight}};
    const Index jaw = sys.add_body(box_inertia(0.1, jaw_half), Vec3{{jaw_x, 0, kJawZ}}, quat_identity(),
                                   side == 0 ? "left jaw" : "right jaw");
    g.jaws[static_cast<std::size_t>(side)] = jaw;
    constraints::AxisJointOptions close;
    close.drive.enabled = true;
    close.drive.speed = -sign * o.close_speed;
    close.drive.changes = {{g.close_end, 0.0}};
    s.joints.push_back(std::make_unique<constraints::SliderJoint>(
        side == 0 ? "left slide" : "right slide",
        constraints::body_side(g.palm, Vec3{{jaw_x, 0, kJawZ - palm_z}}, x, z),
        constraints::body_side(jaw, Vec3{{0, 0, 0}}, x, z), close));

    const Vec3 lo{{std::min(inner, outer), -kFingerHalfDepth, kFingerBottom}};
    const Vec3 hi{{std::max(inner, outer), kFingerHalfDepth, kFingerTop}};
    const TetMesh pad = box_tet_mesh(lo, hi, 1, 2, 4);
    const DeformableBody finger =
        add_deformable_body(sys, pad, 1000.0, MaterialModel::kStableNeoHookean, finger_material);
    g.fingers[static_cast<std::size_t>(side)] = finger;
    s.deformables.push_back(finger);
    // Its nodes touch the box, and its faces and edges the box's corners and edges.
    contact.add_particles(finger.first_particle, finger.num_particles, kFinger);
    add_surface(contact, particle_surface(sys, finger.first_particle, boundary_triangles(pad), "pad"), kFinger);
    // The outer face is held by the jaw: a ball joint per node, or eliminated into it.
    for (Index i = finger.first_particle; i < finger.first_particle + finger.num_particles; ++i) {
      const Vec3 p = sys.particle(i).position;
      if (std::abs(p[0] - outer) > 1e-12) continue;
      if (o.reduce_attachments) {
        held.emplace_back(i, jaw);
        continue;
      }
      attachments.push_back(std::make_unique<constraints::BallJoint>(
          std::string(side == 0 ? "left" : "right") + " pad node " + std::to_string(i - finger.first_particle),
          constraints::body_side(jaw, Vec3{{p[0] - jaw_x, p[1], p[2] - kJawZ}}), constraints::particle_side(i)));
    }
  }
  for (auto& a : attachments) s.joints.push_back(std::move(a));
  s.rich_contact_steps = static_cast<int>(std::lround(0.5 * (g.close_end + g.lift_end) / o.time_step));
  s.init();
  if (o.reduce_attachments) {
    g.reduced = std::make_unique<model::ReducedSystem>(sys);
    for (const auto& [node, jaw] : held) g.reduced->attach_particle_to_body(node, jaw);
    g.reduced->finalize();
    s.state.u = g.reduced->free_velocities(s.state.u);
  }
  return g;
}

}  // namespace sinew::scene
