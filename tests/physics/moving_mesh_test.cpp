// A moving mesh obstacle (issue 21): a rigid body with a triangle-mesh shape (an OBJ file) and a
// prescribed motion, from a scene file, pushes a soft FEM block across a rough floor. Their
// contact is surface on surface (the paddle's mesh against the block's boundary), frictionless,
// so the block, once pushed, slides at the paddle's speed and stays in front of it: checked with
// the drive as velocity rows ("rows") and as a parametric component ("reduce").
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::physics_moving_mesh_test {
namespace {

namespace fs = std::filesystem;

constexpr double kSpeed = 0.1;

// A closed box [lo, hi] as an OBJ file (counter-clockwise seen from outside).
void write_box_obj(const fs::path& path, const Vec3& lo, const Vec3& hi) {
  std::ofstream out(path);
  for (int i = 0; i < 8; ++i)
    out << "v " << ((i & 1) ? hi[0] : lo[0]) << " " << ((i & 2) ? hi[1] : lo[1]) << " " << ((i & 4) ? hi[2] : lo[2])
        << "\n";
  for (const char* f :
       {"1 3 4", "1 4 2", "5 6 8", "5 8 7", "1 2 6", "1 6 5", "3 7 8", "3 8 4", "1 5 7", "1 7 3", "2 4 8", "2 8 6"})
    out << "f " << f << "\n";
}

nlohmann::json pushed_block(const std::string& method) {
  return nlohmann::json::parse(R"({
    "sinew_scene": 1, "name": "pushed_block", "kind": "multibody", "steps": 200, "time_step": 0.005,
    "gravity": [0, 0, -9.81],
    "bodies": [
      {"type": "deformable", "name": "block",
       "mesh": {"box": {"min": [0, -0.04, 0], "max": [0.08, 0.04, 0.06], "cells": [2, 2, 1]}},
       "material": {"model": "stable_neo_hookean", "youngs_modulus": 2e5, "poisson_ratio": 0.3},
       "density": 500, "surface_material": "block"},
      {"type": "rigid", "name": "paddle", "shape": {"type": "mesh", "mesh": {"file": "paddle.obj"}},
       "mass": 1.0, "position": [-0.0205, 0, 0.04], "surface_material": "paddle",
       "motion": {"velocity": [0.1, 0, 0], "method": ")" +
                               method + R"("}}
    ],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
    "contact": {"mu": 0.3, "friction": [{"between": ["paddle", "block"], "mu": 0.0}]},
    "integrator": {"type": "contact_step", "solver": {"type": "newton", "function": "fischer_burmeister"}}
  })");
}

TEST(MovingMesh, ADrivenMeshPaddlePushesAnFemBlockAtItsSpeed) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 400 steps of an FEM block";
  const fs::path dir = fs::temp_directory_path() / "sinew_moving_mesh";
  fs::create_directories(dir);
  // 4 x 12 x 4 cm, centred on its body origin; its front face 5 mm behind the block's back face.
  write_box_obj(dir / "paddle.obj", Vec3{{-0.02, -0.06, -0.02}}, Vec3{{0.02, 0.06, 0.02}});
  auto backend = make_backend("serial");
  for (const std::string method : {"rows", "reduce"}) {
    std::unique_ptr<scene::Simulation> sim =
        scene::parse_scene(pushed_block(method).dump(), (dir / "pushed.json").string(), dir).make(*backend);
    const auto& m = dynamic_cast<const scene::MultibodySimulation&>(*sim);
    const scene::ContactScene& s = m.scene().scene;
    const scene::FemBodyView& block = m.scene().fem_bodies.at(0);
    double closest = 1.0, speed = 0.0;
    for (int k = 0; k < 200; ++k) {
      const scene::StepOutcome r = sim->step();
      ASSERT_TRUE(r.ok()) << method << " step " << k << ": " << r.message;
      // The block's back face against the paddle's front face (x = -0.0005 + v t).
      const double front = -0.0005 + kSpeed * s.state.t;
      double back = 1.0, vx = 0.0;
      for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i) {
        back = std::min(back, s.system->particle_position(s.state.q, i)[0]);
        vx += m.velocities()[s.system->particle_velocity_offset(i)] / static_cast<double>(block.num_particles);
      }
      closest = std::min(closest, back - front);
      speed = vx;
    }
    std::printf(
        "moving mesh (%s): block's back face at least %.2e m in front of the paddle; block speed %.6f m/s "
        "(paddle %.1f)\n",
        method.c_str(), closest, speed, kSpeed);
    EXPECT_GT(closest, -3e-4) << method << ": the block stays in front of the paddle (1.7e-4 m measured)";
    EXPECT_NEAR(speed, kSpeed, 2e-3) << method << ": pushed at the paddle's speed";
  }
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sinew::physics_moving_mesh_test
