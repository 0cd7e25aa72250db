// The random tree of the model tests of KinematicTree and of TreeBodies.
#pragma once

#include <random>
#include <string>

#include "sinew/model/kinematic_tree.hpp"

namespace sinew::test {

// A branching tree of hinges and sliders with random axes, offsets and inertias (bodies 1 and 3
// hang from 0, 2 from 1, 4 from 3, 5 from the world; 3 and 5 are sliders).
inline model::KinematicTree random_tree(std::mt19937& rng) {
  std::uniform_real_distribution<double> U(-1.0, 1.0);
  auto vec = [&] { return Vec3{{U(rng), U(rng), U(rng)}}; };
  model::KinematicTree tree(Vec3{{0.4, -0.3, -9.81}});
  const Index parents[6] = {-1, 0, 1, 0, 3, -1};
  for (int k = 0; k < 6; ++k) {
    model::TreeBody b;
    b.name = "link " + std::to_string(k);
    b.parent = parents[k];
    b.joint = (k == 3 || k == 5) ? model::TreeJointKind::kSlider : model::TreeJointKind::kHinge;
    b.axis = vec();
    b.joint_in_parent = 0.3 * vec();
    b.joint_in_body = 0.3 * vec();
    const Vec3 d = vec();
    const Mat3 J{{0.02 + 0.01 * d[0] * d[0], 0.003 * d[1], 0.002 * d[2], 0.003 * d[1], 0.03, -0.004 * d[0],
                  0.002 * d[2], -0.004 * d[0], 0.025}};
    b.inertia = make_spatial_inertia(0.5 + 0.25 * (U(rng) + 1.0), 0.1 * vec(), J);
    tree.add_body(b);
  }
  return tree;
}

}  // namespace sinew::test
