// Issue 21's reference scenes from their scene files (scenes/), each with its independent check:
// the mixed stack at rest carries the block's weight, the rolling ball keeps its energy with the
// midpoint rule (and implicit Euler does not), the chain to soft gives the same trajectory on
// Baraff's factor and on the sparse Delassus form.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <fstream>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>
#include <utility>

#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::physics_reference_scenes_test {
namespace {

nlohmann::json scene_json(const std::string& file) {
  std::ifstream in(std::string(SINEW_SCENES_DIR) + "/" + file);
  return nlohmann::json::parse(in);
}

std::unique_ptr<scene::Simulation> make(const nlohmann::json& j, const std::string& file, Backend& backend) {
  return scene::parse_scene(j.dump(), file, SINEW_SCENES_DIR).make(backend);
}

const scene::MultibodySimulation& multibody(const scene::Simulation& s) {
  return dynamic_cast<const scene::MultibodySimulation&>(s);
}

// Steps @p sim to its scene's step count (asserting every step).
void run(scene::Simulation& sim, long steps) {
  for (long k = 0; k < steps; ++k) {
    const scene::StepOutcome out = sim.step();
    ASSERT_TRUE(out.ok()) << sim.name() << ", step " << k << ": " << out.message;
  }
}

std::size_t column(const scene::Simulation& sim, const std::string& name) {
  const std::vector<std::string> names = sim.scalar_names();
  return static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin());
}

TEST(ReferenceScenes, MixedStackCarriesTheBlocksWeightAtRest) {
  auto backend = make_backend("serial");
  const nlohmann::json j = scene_json("mixed_stack.json");
  std::unique_ptr<scene::Simulation> sim = make(j, "mixed_stack.json", *backend);
  run(*sim, j["steps"].get<long>());
  const scene::MultibodySimulation& m = multibody(*sim);
  // The block's vertices only touch the box: their contact forces sum to its weight.
  double force = 0.0, mass = 0.0;
  for (const scene::OutputMesh& mesh : sim->output_meshes())
    if (mesh.name == "block")
      for (const scene::VtuField& f : mesh.frame.point_fields)
        if (f.name == "contact_force")
          for (std::size_t i = 2; i < f.values.size(); i += 3) force += f.values[i];
  const scene::FemBodyView& block = m.scene().fem_bodies.at(0);
  for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
    mass += m.scene().scene.system->particle(i).mass;
  std::printf(
      "mixed stack (scenes/mixed_stack.json) at rest: contact force on the block %.10f N, its weight %.10f N; "
      "|u| %.1e\n",
      force, mass * 9.81, m.state().u.cwiseAbs().maxCoeff());
  EXPECT_NEAR(force / (mass * 9.81), 1.0, 1e-6);
  EXPECT_LT(m.state().u.cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_NEAR(m.scene().scene.body_position(0)[2], 0.05, 1e-4);  // the box stays on the floor
}

// The net vertical contact force on FEM body @p name (its vertices' "contact_force", N).
double contact_force_z(const scene::Simulation& sim, const std::string& name) {
  double force = 0.0;
  for (const scene::OutputMesh& mesh : sim.output_meshes())
    if (mesh.name == name)
      for (const scene::VtuField& f : mesh.frame.point_fields)
        if (f.name == "contact_force")
          for (std::size_t i = 2; i < f.values.size(); i += 3) force += f.values[i];
  return force;
}

TEST(ReferenceScenes, MeshStackCarriesItsWeightsThroughContactSurfaces) {
  // A rigid mesh crate on the floor, an FEM block on it, a rigid mesh prism on the block: at rest
  // the block's net contact force (the crate's push up less the prism's down) is its weight, and
  // nothing has sunk: the crate lies on the floor, the prism on the block.
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 300 steps of an FEM stack (a minute under sanitizers)";
  auto backend = make_backend("serial");
  const nlohmann::json j = scene_json("mesh_stack.json");
  std::unique_ptr<scene::Simulation> sim = make(j, "mesh_stack.json", *backend);
  run(*sim, j["steps"].get<long>());
  const scene::MultibodySimulation& m = multibody(*sim);
  const scene::FemBodyView& block = m.scene().fem_bodies.at(0);
  double mass = 0.0;
  for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
    mass += m.scene().scene.system->particle(i).mass;
  // The centre of the block's top face (vertex (1, 1, 1) of its 3 x 3 x 2 grid), under the prism,
  // touches the prism's bottom face: its distance from that plane (through the centroid's
  // projection, h / 3 below it) is 0 up to the solver's tolerance.
  const model::MechanicalSystem& sys = *m.scene().scene.system;
  const Index centre = sys.particle_position_offset(block.first_particle + 13);
  const Eigen::Vector3d v = m.state().q.segment<3>(centre);
  const Mat3 R = rotation_matrix(m.scene().scene.body_orientation(1));
  const Vec3 x = m.scene().scene.body_position(1);
  const Eigen::Vector3d n(R(0, 2), R(1, 2), R(2, 2)), bottom = Eigen::Vector3d(x[0], x[1], x[2]) - 0.08 / 3 * n;
  const double gap = n.dot(v - bottom);
  const double force = contact_force_z(*sim, "block");
  const double crate = m.scene().scene.body_position(0)[2];
  std::printf(
      "mesh stack (scenes/mesh_stack.json) at rest: net contact force on the block %.10f N, its weight %.10f N; "
      "crate at z %.6f, the block's top centre %.1e m from the prism's bottom face (tilted %.1e rad); |u| %.1e\n",
      force, mass * 9.81, crate, gap, std::acos(std::min(1.0, n.z())), m.state().u.cwiseAbs().maxCoeff());
  EXPECT_NEAR(force / (mass * 9.81), 1.0, 1e-6);
  EXPECT_LT(m.state().u.cwiseAbs().maxCoeff(), 1e-8);
  EXPECT_NEAR(crate, 0.05, 1e-4);
  EXPECT_LT(std::abs(gap), 1e-9);
}

// Issue 21's scenes from their files give the same bits on serial and tbb (40 steps each; the
// soft gripper's equality is tests/scene/multibody_scene_files_equal_builders_test.cpp's).
TEST(ReferenceScenes, EachIsBitwiseTheSameOnTbb) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 400 FEM steps";
  auto serial = make_backend("serial"), tbb = make_backend("tbb");
  for (const char* file :
       {"mixed_stack.json", "rolling_ball.json", "chain_to_soft.json", "mesh_stack.json", "mapped_surface.json"}) {
    const nlohmann::json j = scene_json(file);
    std::unique_ptr<scene::Simulation> a = make(j, file, *serial), b = make(j, file, *tbb);
    run(*a, 40);
    run(*b, 40);
    EXPECT_TRUE(multibody(*a).state().q == multibody(*b).state().q) << file;
    EXPECT_TRUE(multibody(*a).state().u == multibody(*b).state().u) << file;
  }
}

// The vertical contact forces on the FEM body @p name's vertices below and above height @p z (N).
std::pair<double, double> contact_force_split(const scene::Simulation& sim, const std::string& name, double z) {
  std::pair<double, double> f{0.0, 0.0};
  for (const scene::OutputMesh& mesh : sim.output_meshes())
    if (mesh.name == name)
      for (const scene::VtuField& field : mesh.frame.point_fields)
        if (field.name == "contact_force")
          for (std::size_t i = 2; i < field.values.size(); i += 3)
            (mesh.frame.points[i] < z ? f.first : f.second) += field.values[i];
  return f;
}

TEST(ReferenceScenes, MappedSurfaceToolForceAgreesWithTheFemSurfaceNodes) {
  // The tool presses the block's top face (z = 0.1), the floor its bottom (z = 0): the forces on
  // the vertices above and below mid-height are the tool's and the floor's, through the mapping of
  // the refined surface or on the surface nodes. At rest they balance the weight. The refined
  // surface lies on the same faces (a point of a boundary face stays on it under the tet's linear
  // map), and the capsule's ends touch the same faces of both: without friction the tool's force
  // is the same either way (within 1e-5, 50 steps after the press); with the file's
  // friction (mu = 0.5) it is 1% apart, as the refined surface's edge midpoints, on the same
  // straight edges as the nodes, take a share of the load and so of the friction whose history the
  // final state keeps.
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 900 steps of an FEM block";
  auto backend = make_backend("serial");
  for (const double mu : {0.5, 0.0}) {
    nlohmann::json j = scene_json("mapped_surface.json");
    j["contact"]["mu"] = mu;
    // Frictionless: to the end of the press (100 steps) and 50 steps on.
    const long steps = mu > 0 ? j["steps"].get<long>() : 150;
    double tool[2] = {0, 0};
    for (int mapped = 1; mapped >= 0; --mapped) {
      if (!mapped) j["bodies"][0].erase("collision_surface");
      std::unique_ptr<scene::Simulation> sim = make(j, "mapped_surface.json", *backend);
      run(*sim, steps);
      const scene::MultibodySimulation& m = multibody(*sim);
      double mass = 0.0;
      const scene::FemBodyView& block = m.scene().fem_bodies.at(0);
      for (Index i = block.first_particle; i < block.first_particle + block.num_particles; ++i)
        mass += m.scene().scene.system->particle(i).mass;
      const auto [floor, top] = contact_force_split(*sim, "block", 0.05);
      tool[mapped] = top;
      std::printf(
          "mapped surface (scenes/mapped_surface.json), mu %.1f, %ld steps, contact on %s: tool force %.4f N, floor "
          "%.4f N, weight %.4f N (balance %.1e)\n",
          mu, steps, mapped ? "the refined surface mapped into the tets" : "the FEM surface nodes", top, floor,
          mass * 9.81, std::abs(floor + top - mass * 9.81) / (mass * 9.81));
      if (mu > 0) {
        EXPECT_NEAR((floor + top) / (mass * 9.81), 1.0, 1e-6);  // at rest
      }
      EXPECT_LT(top, -0.5);  // the tool presses down
    }
    EXPECT_NEAR(tool[1] / tool[0], 1.0, mu > 0 ? 2e-2 : 1e-5) << "mu " << mu;
  }
}

// Max |E - E0| over the run relative to the kinetic energy at the end.
double rolling_energy_drift(const std::string& scheme) {
  auto backend = make_backend("serial");
  nlohmann::json j = scene_json("rolling_ball.json");
  j["integrator"]["free_motion"]["scheme"] = scheme;
  std::unique_ptr<scene::Simulation> sim = make(j, "rolling_ball.json", *backend);
  const std::size_t total = column(*sim, "total_energy"), kinetic = column(*sim, "kinetic_energy");
  // At rest at the start: the energy is the ball's potential, m g z (1 kg).
  const double e0 = 9.81 * j["bodies"][0]["position"][2].get<double>();
  double drift = 0.0, last_kinetic = 0.0;
  for (long k = 0; k < j["steps"].get<long>(); ++k) {
    const scene::StepOutcome out = sim->step();
    EXPECT_TRUE(out.ok()) << out.message;
    if (!out.ok()) return 1e300;
    drift = std::max(drift, std::abs(out.scalars[total] - e0));
    last_kinetic = out.scalars[kinetic];
  }
  // Rolling: the contact point of the ball is at rest, v = omega r.
  const scene::MultibodySimulation& m = multibody(*sim);
  const Eigen::VectorXd& u = m.state().u;
  const double a = 20.0 * 3.14159265358979323846 / 180.0;
  const Eigen::Vector3d n(-std::sin(a), 0, std::cos(a)), v = u.head<3>(), w = u.segment<3>(3);
  const double slip = (v + w.cross(-0.1 * n)).norm() / v.norm();
  std::printf("rolling ball (scenes/rolling_ball.json), %s: energy drift %.2e of the kinetic energy, slip %.1e\n",
              scheme.c_str(), drift / last_kinetic, slip);
  EXPECT_LT(slip, 1e-6);
  return drift / last_kinetic;
}

TEST(ReferenceScenes, TheRollingBallKeepsItsEnergyWithTheMidpointRule) {
  const double midpoint = rolling_energy_drift("theta_midpoint"), euler = rolling_energy_drift("implicit_euler");
  EXPECT_LT(midpoint, 1e-3);
  EXPECT_GT(euler, 10 * midpoint);
}

TEST(ReferenceScenes, ChainToSoftIsTheSameOnBaraffsFactorAndTheSparseForm) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: two 500-step runs";
  auto backend = make_backend("serial");
  nlohmann::json j = scene_json("chain_to_soft.json");
  ASSERT_EQ(j["integrator"]["factor"], "baraff");
  std::unique_ptr<scene::Simulation> baraff = make(j, "chain_to_soft.json", *backend);
  j["integrator"]["factor"] = "sparse";
  std::unique_ptr<scene::Simulation> sparse = make(j, "chain_to_soft.json", *backend);
  double worst = 0.0;
  for (long k = 0; k < j["steps"].get<long>(); ++k) {
    ASSERT_TRUE(baraff->step().ok()) << k;  // factor baraff fails a step where it cannot be used
    ASSERT_TRUE(sparse->step().ok()) << k;
    const integrators::State &a = multibody(*baraff).state(), &b = multibody(*sparse).state();
    worst = std::max({worst, (a.q - b.q).cwiseAbs().maxCoeff(), (a.u - b.u).cwiseAbs().maxCoeff()});
  }
  std::printf("chain to soft (scenes/chain_to_soft.json), 500 steps: Baraff vs sparse max |state difference| %.2e\n",
              worst);
  EXPECT_LT(worst, 1e-9);
  EXPECT_GT((multibody(*baraff).state().q - multibody(*baraff).scene().scene.system->initial_positions())
                .cwiseAbs()
                .maxCoeff(),
            0.01);  // it moved
}

}  // namespace
}  // namespace sinew::physics_reference_scenes_test
