// A cloth on a soft body (issue 21, particles against anything): from a scene file, a square
// cloth dropped onto an FEM block's coarse top face (nodes 5 cm apart, the cloth's 2 cm) rests on
// its triangles, its particles touching the block's surface (ContactConstraint::add_points with
// touch_surfaces) besides the floor: none sinks into the top face, and the block carries the
// part of the cloth above it.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <nlohmann/json.hpp>
#include <string>

#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::physics_cloth_on_body_test {
namespace {

TEST(ClothOnBody, AClothRestsOnAnFemBlocksFaceBetweenItsNodes) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 200 steps of a cloth on an FEM block";
  const nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "name": "cloth_on_block", "kind": "multibody", "steps": 200, "time_step": 0.005,
    "gravity": [0, 0, -9.81],
    "bodies": [
      {"type": "deformable", "name": "block",
       "mesh": {"box": {"min": [-0.05, -0.05, 0], "max": [0.05, 0.05, 0.05], "cells": [2, 2, 1]}},
       "material": {"model": "stable_neo_hookean", "youngs_modulus": 1e5, "poisson_ratio": 0.3}, "density": 500},
      {"type": "cloth", "name": "cloth",
       "mesh": {"rectangle": {"min": [-0.04, -0.04], "max": [0.04, 0.04], "z": 0.053, "cells": [4, 4]}},
       "material": {"model": "corotational", "youngs_modulus": 100.0, "poisson_ratio": 0.3}, "particle_mass": 1e-3}
    ],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
    "contact": {"mu": 0.5},
    "integrator": {"type": "contact_step", "solver": {"type": "newton", "function": "fischer_burmeister"}}
  })");
  auto backend = make_backend("serial");
  std::unique_ptr<scene::Simulation> sim = scene::parse_scene(j.dump(), "cloth_on_block.json", ".").make(*backend);
  const auto& m = dynamic_cast<const scene::MultibodySimulation&>(*sim);
  const scene::ContactScene& s = m.scene().scene;
  const scene::FemBodyView& block = m.scene().fem_bodies.at(0);
  const scene::ClothView& cloth = m.scene().cloths.at(0);
  double lowest = 1.0;
  for (int k = 0; k < 200; ++k) {
    const scene::StepOutcome r = sim->step();
    ASSERT_TRUE(r.ok()) << "step " << k << ": " << r.message;
    // The block's top (its highest node, it sags a little under the cloth) against the cloth.
    double top = -1.0;
    for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
      top = std::max(top, s.system->particle_position(s.state.q, i)[2]);
    for (Index i = cloth.first_particle; i < cloth.first_particle + cloth.num_particles; ++i)
      lowest = std::min(lowest, s.system->particle_position(s.state.q, i)[2] - top);
  }
  double speed = 0.0;
  for (Index i = cloth.first_particle; i < cloth.first_particle + cloth.num_particles; ++i)
    speed = std::max(speed, std::abs(m.velocities()[s.system->particle_velocity_offset(i) + 2]));
  std::printf("cloth on an FEM block: lowest cloth particle %.2e m from the block's top over the run; |v_z| %.1e m/s\n",
              lowest, speed);
  EXPECT_GT(lowest, -2e-4) << "the cloth does not sink into the block's face";
  EXPECT_LT(speed, 1e-3) << "it comes to rest on it";
}

}  // namespace
}  // namespace sinew::physics_cloth_on_body_test
