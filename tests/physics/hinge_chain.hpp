// The multibody benchmark's hinge chain (bench/multibody_bench.cpp) for the physics and peer tests: rods
// of 0.1 m and 0.2 kg hinged about y, the first to the world at the origin, released horizontal
// along x, in maximal coordinates (bodies and HingeJoint rows) or in joint coordinates
// (KinematicTree), each body's frame at its rod's centre.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/constraints/joint_types.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::physics_test {

/// The rods' spatial inertia about their centres.
inline SpatialInertia hinge_chain_link() {
  return make_spatial_inertia(0.2, Vec3{{0, 0, 0}}, Mat3{{1e-5, 0, 0, 0, 1.7e-4, 0, 0, 0, 1.7e-4}});
}

/// The chain as bodies joined by hinge rows.
struct MaximalChain {
  model::MechanicalSystem system;
  std::vector<std::unique_ptr<constraints::Joint>> joints;
  std::vector<const constraints::Constraint*> constraints;
};

/// @p links rods as bodies and hinges.
inline std::unique_ptr<MaximalChain> make_maximal_chain(int links) {
  auto c = std::make_unique<MaximalChain>();
  c->system.set_gravity(Vec3{{0, 0, -9.81}});
  const Vec3 y{{0, 1, 0}}, half{{0.05, 0, 0}};
  for (int i = 0; i < links; ++i) {
    c->system.add_body(hinge_chain_link(), Vec3{{(i + 0.5) * 0.1, 0, 0}}, quat_identity());
    const constraints::JointSide parent =
        i == 0 ? constraints::world_side(Vec3{{0, 0, 0}}, y) : constraints::body_side(i - 1, half, y);
    c->joints.push_back(std::make_unique<constraints::HingeJoint>("hinge " + std::to_string(i), parent,
                                                                  constraints::body_side(i, -1.0 * half, y)));
    c->constraints.push_back(c->joints.back().get());
  }
  return c;
}

/// @p links rods in joint coordinates (q = 0: horizontal), each hinge with @p armature and
/// @p damping.
inline model::KinematicTree make_tree_chain(int links, double armature = 0.0, double damping = 0.0) {
  model::KinematicTree tree(Vec3{{0, 0, -9.81}});
  for (int i = 0; i < links; ++i) {
    model::TreeBody b;
    b.name = "rod " + std::to_string(i);
    b.parent = i - 1;
    b.axis = Vec3{{0, 1, 0}};
    b.joint_in_parent = Vec3{{i == 0 ? 0.0 : 0.05, 0, 0}};
    b.joint_in_body = Vec3{{-0.05, 0, 0}};
    b.inertia = hinge_chain_link();
    b.armature = armature;
    b.damping = damping;
    tree.add_body(b);
  }
  return tree;
}

}  // namespace sinew::physics_test
