// Every multibody scene file of scenes/ is its C++ builder (contact_scenes.hpp, and the beam of
// `sinew demo cantilever`): the same sizes and the same state after a few steps on the serial
// backend (to 1e-12); and a run saved and restored continues bit for bit.
#include <gtest/gtest.h>

#include <cmath>
#include <cstring>
#include <sstream>
#include <string>

#include "expect_error.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/scene/contact_scenes.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/gripper_scene.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_multibody_scene_files_equal_builders_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

std::string scene_path(const std::string& file) { return std::string(SINEW_TEST_SOURCE) + "/../scenes/" + file; }

// The scene file's simulation on the serial backend.
std::unique_ptr<Simulation> from_file(const std::string& file, Backend& backend) {
  const SceneFile f = read_scene_file(scene_path(file));
  EXPECT_EQ(f.kind, "multibody");
  return f.make(backend);
}

const MultibodySimulation& multibody(const Simulation& s) {
  const auto* m = dynamic_cast<const MultibodySimulation*>(&s);
  if (!m) throw Error("not a MultibodySimulation");
  return *m;
}

// max |a - b| / max(1, |b|) over the entries.
double difference(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  if (a.size() != b.size()) return INFINITY;
  double d = 0.0;
  for (Eigen::Index i = 0; i < a.size(); ++i) d = std::max(d, std::abs(a[i] - b[i]) / std::max(1.0, std::abs(b[i])));
  return d;
}

// Steps the file's scene and the builder's scene @p steps times with the file's contact solver
// (non-smooth Newton with @p function, tolerance 1e-10) and compares sizes and states.
void expect_same_as_builder(const std::string& file, ContactScene built, int steps, Index contacts_at_end = -1,
                            integrators::StepFactor factor = integrators::StepFactor::kAuto,
                            constraints::NcpFunction function = constraints::NcpFunction::kMinMap) {
  SCOPED_TRACE(file);
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = from_file(file, *backend);
  const MultibodySimulation& m = multibody(*sim);
  const model::MechanicalSystem& a = *m.scene().scene.system;
  const model::MechanicalSystem& b = *built.system;
  EXPECT_EQ(sim->time_step(), built.time_step);
  EXPECT_EQ(a.num_bodies(), b.num_bodies());
  EXPECT_EQ(a.num_particles(), b.num_particles());
  EXPECT_EQ(a.num_positions(), b.num_positions());
  EXPECT_EQ(a.num_velocities(), b.num_velocities());
  EXPECT_EQ(a.fixed_velocity_dofs(), b.fixed_velocity_dofs());
  EXPECT_EQ(m.scene().scene.joints.size(), built.joints.size());
  EXPECT_LE(difference(m.state().q, built.state.q), 1e-12);
  EXPECT_LE(difference(m.state().u, built.state.u), 1e-12);

  constraints::NewtonOptions o;
  o.stop.tolerance = 1e-10;
  o.function = function;
  integrators::ContactStepOptions options;
  options.factor = factor;
  integrators::ContactStep step(std::make_unique<constraints::NewtonSolver>(*backend, o), options);
  integrators::ContactStepReport report;
  for (int k = 0; k < steps; ++k) {
    const StepOutcome out = sim->step();
    ASSERT_TRUE(out.ok()) << out.message;
    report = step.step(b, built.constraints(), built.state, built.time_step);
    ASSERT_TRUE(report.ok()) << report.message;
  }
  EXPECT_EQ(sim->steps(), steps);
  // The files write short decimals (0.04, -0.95) where the builders compute 0.8 * 0.05 = 0.04000000000000001:
  // 1e-17 apart at the start, within the contact solve's tolerance (1e-10 on impulses) after the steps.
  EXPECT_LE(difference(m.state().q, built.state.q), 1e-12);
  EXPECT_LE(difference(m.state().u, built.state.u), 1e-10);
  EXPECT_DOUBLE_EQ(sim->time(), built.state.t);
  if (contacts_at_end >= 0) {
    EXPECT_EQ(report.contacts, contacts_at_end);
  }
}

TEST(MultibodySceneFiles, BoxStackEqualsItsBuilder) {
  expect_same_as_builder("box_stack.json", box_stack_scene(10), 5, 40);
}

TEST(MultibodySceneFiles, InclineEqualsItsBuilder) {
  expect_same_as_builder("incline.json", incline_scene(10.0 * kPi / 180.0, 0.3), 10, 4);
}

TEST(MultibodySceneFiles, DropEqualsItsBuilder) { expect_same_as_builder("drop.json", drop_scene(), 220, 4); }

TEST(MultibodySceneFiles, FemInclineEqualsItsBuilder) {
  expect_same_as_builder("fem_incline.json", fem_incline_scene(10.0 * kPi / 180.0, 0.3), 10, 4);
}

TEST(MultibodySceneFiles, ChainOverBoxEqualsItsBuilder) {
  // The drape is chaotic: the files' 1e-17 differences reach 1e-9 and change the contacts after
  // 20 steps on Baraff's factor, so this scene file (and this check) names the sparse form.
  expect_same_as_builder("chain_over_box.json", chain_over_box_scene(20), 20, 16, integrators::StepFactor::kSparse);
}

TEST(MultibodySceneFiles, ClothOnCornerEqualsItsBuilder) {
  expect_same_as_builder("cloth_on_corner.json", cloth_on_corner_scene(20), 40, 100);
}

// The soft gripper: attachments, driven sliders with speed changes, friction per material pair.
// 80 steps: the pads close on the box (65 steps) and start lifting it.
TEST(MultibodySceneFiles, SoftGripperEqualsItsBuilder) {
  if (test::quick_tests())
    GTEST_SKIP() << "SINEW_QUICK_TESTS: 80 steps of the gripper twice (a minute under sanitizers)";
  expect_same_as_builder("soft_gripper.json", soft_gripper_scene().scene, 80, 26, integrators::StepFactor::kAuto,
                         constraints::NcpFunction::kFischerBurmeister);
}

// The same scene file on tbb gives serial's bits.
TEST(MultibodySceneFiles, SoftGripperIsBitwiseTheSameOnTbb) {
  if (test::quick_tests())
    GTEST_SKIP() << "SINEW_QUICK_TESTS: 80 steps of the gripper twice (a minute under sanitizers)";
  auto serial = make_backend("serial"), tbb = make_backend("tbb");
  std::unique_ptr<Simulation> a = from_file("soft_gripper.json", *serial), b = from_file("soft_gripper.json", *tbb);
  for (int k = 0; k < 80; ++k) {
    ASSERT_TRUE(a->step().ok());
    ASSERT_TRUE(b->step().ok());
  }
  EXPECT_TRUE(std::memcmp(multibody(*a).state().q.data(), multibody(*b).state().q.data(),
                          sizeof(double) * static_cast<std::size_t>(multibody(*a).state().q.size())) == 0);
  EXPECT_EQ(multibody(*a).state().u, multibody(*b).state().u);
}

// The beam of apps/sinew/demo_command.cpp (defaults: 2 cells across, stable Neo-Hookean,
// implicit Euler, dt = 5 ms).
TEST(MultibodySceneFiles, CantileverEqualsTheDemo) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = from_file("cantilever.json", *backend);
  const MultibodySimulation& m = multibody(*sim);
  model::MechanicalSystem system;
  const TetMesh mesh = box_tet_mesh(Vec3{{0, -0.05, -0.05}}, Vec3{{1.0, 0.05, 0.05}}, 20, 2, 2);
  add_deformable_body(system, mesh, 1000.0, MaterialModel::kStableNeoHookean, {1e7, 0.0});
  system.set_gravity(Vec3{{0, 0, -9.81}});
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (mesh.vertices[i][0] == 0.0) system.fix_particle(static_cast<Index>(i));
  integrators::State state{0.0, system.initial_positions(), system.initial_velocities()};
  EXPECT_EQ(sim->time_step(), 0.005);
  EXPECT_EQ(sim->size().tets, mesh.tets.size());
  EXPECT_EQ(sim->size().targets, 9u);  // the 3 x 3 vertices of the clamped end
  EXPECT_EQ(m.scene().scene.system->fixed_velocity_dofs(), system.fixed_velocity_dofs());
  auto integrator = integrators::make_integrator("implicit_euler");
  for (int k = 0; k < 5; ++k) {
    ASSERT_TRUE(sim->step().ok());
    ASSERT_TRUE(integrator->step(system, state, 0.005).ok());
  }
  EXPECT_LE(difference(m.state().q, state.q), 1e-12);
  EXPECT_LE(difference(m.state().u, state.u), 1e-12);
  EXPECT_GT(m.state().u.norm(), 0.0);  // the beam moves
}

bool bitwise_equal(const Eigen::VectorXd& a, const Eigen::VectorXd& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), sizeof(double) * a.size()) == 0;
}

// Save after 5 steps, step 5 more; a fresh simulation restored from the save and stepped 5 times
// ends in the same state, bit for bit (warm starts included).
void expect_resume_bitwise(const std::string& file, int before, int after) {
  SCOPED_TRACE(file);
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> a = from_file(file, *backend);
  for (int k = 0; k < before; ++k) ASSERT_TRUE(a->step().ok());
  std::stringstream saved;
  a->save(saved);
  std::vector<StepOutcome> outcomes;
  for (int k = 0; k < after; ++k) outcomes.push_back(a->step());
  std::unique_ptr<Simulation> b = from_file(file, *backend);
  b->restore(saved);
  EXPECT_EQ(b->steps(), before);
  const std::vector<std::string> names = b->scalar_names();
  for (int k = 0; k < after; ++k) {
    const StepOutcome out = b->step();
    ASSERT_TRUE(out.ok());
    // Every scalar but the wall times ("*_ms"), the bodies' states included.
    for (std::size_t i = 0; i < out.scalars.size(); ++i) {
      if (names[i].size() < 3 || names[i].compare(names[i].size() - 3, 3, "_ms") != 0) {
        EXPECT_EQ(out.scalars[i], outcomes[k].scalars[i]) << names[i];
      }
    }
  }
  EXPECT_TRUE(bitwise_equal(multibody(*a).state().q, multibody(*b).state().q));
  EXPECT_TRUE(bitwise_equal(multibody(*a).state().u, multibody(*b).state().u));
  EXPECT_EQ(a->time(), b->time());
  EXPECT_EQ(a->steps(), b->steps());
}

TEST(MultibodySceneFiles, SaveRestoreStepEqualsUninterruptedBitwise) {
  expect_resume_bitwise("box_stack.json", 5, 5);
  expect_resume_bitwise("chain_over_box.json", 10, 5);
  expect_resume_bitwise("cantilever.json", 3, 3);
}

TEST(MultibodySceneFiles, RestoreRejectsAnotherScene) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> a = from_file("box_stack.json", *backend);
  std::stringstream saved;
  a->save(saved);
  std::unique_ptr<Simulation> b = from_file("drop.json", *backend);
  EXPECT_SINEW_ERROR(b->restore(saved), "entries, this scene");
  std::stringstream truncated(saved.str().substr(0, 40));
  EXPECT_SINEW_ERROR(a->restore(truncated), "truncated");
}

TEST(MultibodySceneFiles, OutputMeshesHaveTheirFields) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> fem = from_file("fem_incline.json", *backend);
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(fem->step().ok());
  const std::vector<OutputMesh> meshes = fem->output_meshes();
  ASSERT_EQ(meshes.size(), 1u);
  EXPECT_EQ(meshes[0].name, "block");
  EXPECT_EQ(meshes[0].frame.tets.size(), 6u);
  ASSERT_EQ(meshes[0].frame.point_fields.size(), 2u);
  EXPECT_EQ(meshes[0].frame.point_fields[1].name, "contact_force");
  double support = 0.0;  // the plane carries the block's weight: sum of the normal forces ~ m g cos(a)
  for (std::size_t i = 0; i < meshes[0].frame.point_fields[1].values.size(); i += 3)
    support += meshes[0].frame.point_fields[1].values[i + 2];
  EXPECT_NEAR(support, 1.0 * 9.81, 0.5);
  ASSERT_EQ(meshes[0].frame.cell_fields.size(), 1u);
  EXPECT_EQ(meshes[0].frame.cell_fields[0].name, "stress");
  EXPECT_EQ(meshes[0].frame.cell_fields[0].values.size(), 6u);
  EXPECT_FALSE(fem->obstacles().empty());  // the incline

  std::unique_ptr<Simulation> chain = from_file("chain_over_box.json", *backend);
  const std::vector<OutputMesh> rigid = chain->output_meshes();
  ASSERT_EQ(rigid.size(), 20u);  // one mesh (one VTU series) per rigid body, named after it
  for (const OutputMesh& m : rigid) EXPECT_EQ(m.frame.triangles.size(), 12u) << m.name;
  EXPECT_EQ(chain->size().rigid_bodies, 20u);
  EXPECT_EQ(chain->size().joints, 19u);
}

}  // namespace
}  // namespace sinew::scene::scene_multibody_scene_files_equal_builders_test
