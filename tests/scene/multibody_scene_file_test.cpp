// Bad input to the "multibody" kind of scene file: each error is a sinew::Error naming the file
// and the JSON path of the offending value, and what was expected.
#include <gtest/gtest.h>

#include <algorithm>
#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_multibody_scene_file_test {
namespace {

// A valid scene: a box on the floor and a ball joined to it, PGS contact.
nlohmann::json valid() {
  return nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 10, "time_step": 0.001,
    "bodies": [
      {"type": "rigid", "name": "box", "shape": {"type": "box", "half_extents": [0.1, 0.1, 0.1]}, "mass": 1.0,
       "position": [0, 0, 0.1]},
      {"type": "rigid", "name": "ball", "shape": {"type": "sphere", "radius": 0.05}, "density": 1000,
       "position": [0, 0, 0.3]},
      {"type": "deformable", "name": "cube", "mesh": {"box": {"min": [1, 0, 0], "max": [1.1, 0.1, 0.1], "cells": [1, 1, 1]}},
       "material": {"model": "corotational", "youngs_modulus": 1e6, "poisson_ratio": 0.3}, "density": 1000}
    ],
    "joints": [{"type": "ball", "a": {"body": "box", "origin": [0, 0, 0.15]}, "b": {"body": "ball", "origin": [0, 0, -0.05]}}],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
    "contact": {"mu": 0.5},
    "integrator": {"type": "contact_step", "solver": {"type": "pgs", "stop": {"tolerance": 1e-8}}}
  })");
}

SceneFile parse(const nlohmann::json& j) { return parse_scene(j.dump(), "bad.json", "."); }

TEST(MultibodySceneFile, ValidSceneRuns) {
  const SceneFile f = parse(valid());
  EXPECT_EQ(f.kind, "multibody");
  EXPECT_EQ(f.time_step, 0.001);
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  EXPECT_EQ(sim->size().rigid_bodies, 2u);
  EXPECT_EQ(sim->size().tets, 6u);
  EXPECT_EQ(sim->size().joints, 1u);
  for (int k = 0; k < 3; ++k) {
    const StepOutcome out = sim->step();
    ASSERT_TRUE(out.ok()) << out.message;
    EXPECT_EQ(out.scalars.size(), sim->scalar_names().size());
  }
}

// The theta-method's two stages from a scene file: "free_motion": {"scheme": "theta_midpoint"}.
TEST(MultibodySceneFile, AThetaFreeMotionRuns) {
  nlohmann::json j = valid();
  j["integrator"]["free_motion"] = {{"scheme", "theta_midpoint"}, {"newton", {{"max_iterations", 30}}}};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(sim->step().ok());
  // The trapezoidal rule and Bridson-Marino with the constraints (ArtiSynth notes 0.10).
  for (const char* scheme : {"trapezoidal", "bridson_marino"}) {
    j["integrator"]["free_motion"]["scheme"] = scheme;
    std::unique_ptr<Simulation> other = parse(j).make(*backend);
    for (int k = 0; k < 3; ++k) ASSERT_TRUE(other->step().ok()) << scheme;
  }
  j["integrator"]["free_motion"]["scheme"] = "theta_mid";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/free_motion/scheme", "theta_midpoint");
}

// The free motion's linear solver by name: the dense Cholesky of blocks up to 64 rows ("dense")
// factors the FEM cube's 24 coupled rows, which "block_diagonal" (blocks up to 12 rows) refuses
// by name, and steps as Eigen's sparse LDL^T does to round-off; an unknown name is refused with
// the choices.
TEST(MultibodySceneFile, TheFreeMotionsLinearSolverIsChosenByName) {
  nlohmann::json j = valid();
  auto backend = make_backend("serial");
  std::vector<Eigen::VectorXd> end;
  for (const char* solver : {"dense", "eigen_ldlt", "block_diagonal"}) {
    j["integrator"]["free_motion"] = {{"scheme", "theta_midpoint"}, {"newton", {{"linear_solver", solver}}}};
    std::unique_ptr<Simulation> sim = parse(j).make(*backend);
    StepOutcome out;
    for (int k = 0; k < 3 && (k == 0 || out.ok()); ++k) out = sim->step();
    if (std::string(solver) == "block_diagonal") {
      EXPECT_FALSE(out.ok());
      EXPECT_NE(out.message.find("not block diagonal with blocks of at most 12 rows"), std::string::npos)
          << out.message;
      continue;
    }
    ASSERT_TRUE(out.ok()) << solver << ": " << out.message;
    end.push_back(dynamic_cast<const MultibodySimulation&>(*sim).scene().scene.state.q);
  }
  EXPECT_LT((end[0] - end[1]).norm(), 1e-12);
  j["integrator"]["free_motion"]["newton"]["linear_solver"] = "lu";
  EXPECT_SINEW_ERROR(parse(j), "/integrator/free_motion/newton/linear_solver", "dense");
}

// "runge_kutta4" from a scene file: a ball thrown without contact follows its parabola exactly
// (RK4 integrates a constant acceleration without error), read from the body-state columns.
TEST(MultibodySceneFile, RungeKutta4StepsAFreeBody) {
  const nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 10, "time_step": 0.01,
    "bodies": [{"type": "rigid", "name": "ball", "shape": {"type": "sphere", "radius": 0.05}, "density": 1000,
                "position": [0, 0, 1], "velocity": [1, 0, 2]}],
    "integrator": {"type": "runge_kutta4"}
  })");
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  const std::vector<std::string> names = sim->scalar_names();
  StepOutcome out;
  for (int k = 0; k < 10; ++k) ASSERT_TRUE((out = sim->step()).ok()) << out.message;
  const auto column = [&](const char* name) {
    return out.scalars[static_cast<std::size_t>(std::find(names.begin(), names.end(), name) - names.begin())];
  };
  EXPECT_NEAR(column("ball.x"), 0.1, 1e-14);
  EXPECT_NEAR(column("ball.z"), 1.0 + 2.0 * 0.1 - 0.5 * 9.81 * 0.01, 1e-14);
}

// "collision_surface": the refined boundary or a mesh embedded in the tets stands for the body in
// contact; bad ones name their path.
TEST(MultibodySceneFile, ACollisionSurfaceIsEmbeddedOrRefused) {
  nlohmann::json j = valid();
  j["bodies"][2]["collision_surface"] = {{"refine", 1}};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(sim->step().ok());
  // A triangle inside the cube [1, 1.1] x [0, 0.1]^2 embeds; one corner outside does not.
  j["bodies"][2]["collision_surface"] = {
      {"mesh",
       {{"vertices", {{1.02, 0.02, 0.02}, {1.08, 0.02, 0.02}, {1.05, 0.08, 0.05}}}, {"triangles", {{0, 1, 2}}}}}};
  EXPECT_NO_THROW(parse(j));
  j["bodies"][2]["collision_surface"]["mesh"]["vertices"][2] = {1.05, 0.08, 0.5};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2", "collision_surface", "point 2", "lies in no tetrahedron");
  j["bodies"][2]["collision_surface"] = {{"refine", 1}, {"mesh", {{"file", "x.obj"}}}};
  EXPECT_SINEW_ERROR(parse(j), "/bodies/2/collision_surface", "exactly one of \"refine\" and \"mesh\"");
  j["bodies"][2]["collision_surface"] = {{"refine", 9}};
  EXPECT_SINEW_ERROR(parse(j), "/bodies/2/collision_surface/refine", "[0, 4]");
  // "self_contact": a solid's surface touches itself; a cloth is no contact surface.
  j = valid();
  j["bodies"][2]["self_contact"] = true;
  std::unique_ptr<Simulation> folded = parse(j).make(*backend);
  ASSERT_TRUE(folded->step().ok());
  j["bodies"].push_back(nlohmann::json::parse(R"({"type": "cloth", "name": "sheet", "self_contact": true,
      "mesh": {"rectangle": {"min": [2, 0], "max": [2.1, 0.1], "cells": [1, 1]}},
      "material": {"model": "corotational", "youngs_modulus": 100}, "particle_mass": 0.01})"));
  EXPECT_SINEW_ERROR(parse(j), "/bodies/3/self_contact", "self-contact needs tets");
}

// The compliant alpha/beta scheme with a compliant joint: "free_motion": {"scheme":
// "compliant_alpha_beta", "alpha", "beta"} reaches ContactStepOptions::alpha_beta.
TEST(MultibodySceneFile, TheCompliantAlphaBetaSchemeRuns) {
  nlohmann::json j = valid();
  j["joints"][0]["compliance"] = 1e-4;
  j["integrator"]["free_motion"] = {{"scheme", "compliant_alpha_beta"}, {"alpha", 0.5}, {"beta", 0.5}};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  for (int k = 0; k < 3; ++k) ASSERT_TRUE(sim->step().ok());
  j["integrator"]["free_motion"]["beta"] = 0.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/free_motion/beta", "(0, 1]");
  j["integrator"]["free_motion"]["beta"] = 0.5;
  j["integrator"]["free_motion"]["alpha"] = 1.5;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/free_motion/alpha", "[0, 1]");
}

// A kinematically driven body: "motion" (constraints::PrescribedMotion) moves the ball on its
// profile whatever its joint and gravity do.
TEST(MultibodySceneFile, ADrivenBodyFollowsItsMotion) {
  nlohmann::json j = valid();
  j.erase("joints");
  j["bodies"][1]["motion"] = {{"velocity", {0.1, 0, 0}}, {"changes", {{{"time", 0.0025}, {"velocity", {0, 0, 0.2}}}}}};
  j["integrator"]["solver"] = {{"type", "newton"}, {"function", "min_map"}, {"stop", {{"tolerance", 1e-12}}}};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  for (int k = 0; k < 5; ++k) ASSERT_TRUE(sim->step().ok());
  const auto& m = dynamic_cast<const MultibodySimulation&>(*sim);
  const Vec3 x = m.scene().scene.body_position(1);
  EXPECT_NEAR(x[0], 0.1 * 0.003, 1e-12);  // steps starting at 0, 1, 2 ms
  EXPECT_NEAR(x[2], 0.3 + 0.2 * 0.002, 1e-12);
  nlohmann::json bad = j;
  bad["bodies"][1]["motion"]["changes"].push_back({{"time", 0.001}});
  EXPECT_SINEW_ERROR(parse(bad), "/bodies/1/motion/changes/1/time", "after the previous change");
  bad = j;
  bad["bodies"][1]["fixed"] = true;
  EXPECT_SINEW_ERROR(parse(bad), "/bodies/1/motion", "fixed");
}

// Stage 2 on Baraff's factor: "factor": "baraff" (the box-ball joint primary, contacts auxiliary).
TEST(MultibodySceneFile, BaraffsFactorFromASceneFile) {
  nlohmann::json j = valid();
  j["integrator"]["factor"] = "baraff";
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  for (int k = 0; k < 3; ++k) {
    const StepOutcome out = sim->step();
    ASSERT_TRUE(out.ok()) << out.message;
  }
  j["integrator"]["factor"] = "dense";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/factor", "\"baraff\"");
}

TEST(MultibodySceneFile, UnknownKeysAreErrors) {
  nlohmann::json j = valid();
  j["bodies"][0]["mas"] = 2.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/mas", "unknown key");
  j = valid();
  j["integrator"]["solver"]["relax"] = 1.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/solver/relax", "unknown key");
  j = valid();
  j["contact"]["static_friction"] = 0.3;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/contact/static_friction", "unknown key");
  j = valid();
  j["bodies"][2]["material"]["youngs_modulos"] = 1.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/material/youngs_modulos", "did you mean \"youngs_modulus\"");
}

// Surface materials and their friction pairs, attachments, drive speed changes: what they build,
// and their errors.
TEST(MultibodySceneFile, MaterialsAttachmentsAndDriveChanges) {
  nlohmann::json j = valid();
  j["bodies"][0]["surface_material"] = "steel";
  j["bodies"][2]["surface_material"] = "rubber";
  j["obstacles"][0]["surface_material"] = "ice";
  j["contact"]["friction"] = {{{"between", {"rubber", "ice"}}, {"mu", 0.05}},
                              {{"between", {"steel", "ice"}}, {"mu", 0.1}}};
  j["attachments"] = {
      {{"body", "cube"}, {"to", "ball"}, {"nodes", {{"box", {{"min", {1, 0, 0.09}}, {"max", {2, 1, 1}}}}}}}};
  j["joints"][0]["type"] = "slider";
  j["joints"][0]["drive_changes"] = {{{"time", 0.0025}, {"speed", 0.1}}};
  j["integrator"]["solver"] = {{"type", "newton"}, {"function", "min_map"}, {"stop", {{"tolerance", 1e-10}}}};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  const auto& m = dynamic_cast<const MultibodySimulation&>(*sim);
  const constraints::ContactConstraint& c = *m.scene().scene.contact;
  // Materials by first use: default 0, steel 1, rubber 2 (the ball is default), ice 3.
  EXPECT_EQ(c.friction(2, 3), 0.05);
  EXPECT_EQ(c.friction(1, 3), 0.1);
  EXPECT_EQ(c.friction(0, 3), 0.5);
  EXPECT_EQ(sim->size().joints, 1u + 4u);  // the slider and the cube's top 4 nodes
  for (int k = 0; k < 3; ++k) {
    const StepOutcome out = sim->step();
    ASSERT_TRUE(out.ok()) << out.message;
  }

  nlohmann::json bad = j;
  bad["contact"]["friction"][0]["between"] = {"rubber", "glass"};
  EXPECT_SINEW_ERROR(parse(bad), "/contact/friction/0/between", "\"glass\"", "\"rubber\"");
  bad = j;
  bad["contact"]["friction"][0]["between"] = {"rubber"};
  EXPECT_SINEW_ERROR(parse(bad), "/contact/friction/0/between", "two surface material names");
  bad = j;
  bad["attachments"][0]["to"] = "cube";
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/0/to", "cannot be attached to itself");
  bad = j;
  bad["attachments"][0]["body"] = "bowl";
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/0/body", "no body named \"bowl\"");
  bad = j;
  bad["attachments"][0]["nodes"] = {{"box", {{"min", {5, 5, 5}}, {"max", {6, 6, 6}}}}};
  EXPECT_SINEW_ERROR(parse(bad), "/attachments/0/nodes");
  bad = j;
  bad["joints"][0]["drive_changes"].push_back({{"time", 0.001}, {"speed", 0.0}});
  EXPECT_SINEW_ERROR(parse(bad), "/joints/0/drive_changes/1/time", "after the previous change");
}

TEST(MultibodySceneFile, WrongTypesAreErrors) {
  nlohmann::json j = valid();
  j["time_step"] = "fast";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/time_step", "expected a number");
  j = valid();
  j["bodies"][0]["position"] = {0, 0};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/position", "array of 3 numbers");
  j = valid();
  j["bodies"] = nlohmann::json::object();
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies", "array of objects");
}

// SAP from a scene file, its Newton matrix dense (the default at these 36 velocities) or
// sparse ("dense_max_velocities": 0): the same motion up to round-off.
TEST(MultibodySceneFile, SapFactorsDenseOrSparseAsTheFileSays) {
  auto backend = make_backend("serial");
  std::vector<Eigen::VectorXd> ends;
  for (int dense_max : {72, 0}) {
    nlohmann::json j = valid();
    j["integrator"]["solver"] = {{"type", "sap"}, {"dense_max_velocities", dense_max}};
    std::unique_ptr<Simulation> sim = parse(j).make(*backend);
    for (int k = 0; k < 5; ++k) {
      const StepOutcome out = sim->step();
      ASSERT_TRUE(out.ok()) << out.message;
    }
    ends.push_back(dynamic_cast<MultibodySimulation&>(*sim).state().q);
  }
  EXPECT_LT((ends[0] - ends[1]).norm(), 1e-10);
  nlohmann::json j = valid();
  j["integrator"]["solver"] = {{"type", "sap"}, {"dense_max_velocities", -1}};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/solver/dense_max_velocities");
}

TEST(MultibodySceneFile, OutOfRangeValuesAreErrors) {
  nlohmann::json j = valid();
  j["bodies"][0]["mass"] = -1.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/mass", "> 0");
  j = valid();
  j["bodies"][1]["density"] = 0.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/1/density", "> 0");
  j = valid();
  j["bodies"][0]["density"] = 10.0;  // both mass and density
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/mass", "exactly one");
  j = valid();
  j["bodies"][2]["material"]["youngs_modulus"] = 0.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/material/youngs_modulus", "> 0");
  j = valid();
  j["bodies"][2]["material"]["poisson_ratio"] = 0.5;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/material/poisson_ratio", "[-1, 0.5)");
  j = valid();
  j["time_step"] = 0.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/time_step", "> 0");
  j = valid();
  j["time_step"] = -1e-3;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/time_step", "> 0");
  j = valid();
  j["contact"]["mu"] = -0.1;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/contact/mu");
  j = valid();
  j["integrator"]["solver"]["relaxation"] = 2.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/solver/relaxation", "(0, 2)");
  j = valid();
  j["bodies"][0]["shape"]["half_extents"] = {0.1, -0.1, 0.1};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/shape/half_extents", "> 0");
}

// A joint that starts 2 cm apart (the ball 2 cm above its anchor): the step advances with a
// warning naming the joint and the error, which the joint_error column carries; a limit above
// the error silences it; a limit must be > 0.
TEST(MultibodySceneFile, AJointComingApartWarns) {
  nlohmann::json j = valid();
  j["bodies"][1]["position"] = {0, 0, 0.32};
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse(j).make(*backend);
  const std::vector<std::string> names = sim->scalar_names();
  const auto column = static_cast<std::size_t>(std::find(names.begin(), names.end(), "joint_error") - names.begin());
  ASSERT_LT(column, names.size());
  StepOutcome out = sim->step();
  ASSERT_TRUE(out.ok()) << out.message;
  EXPECT_NEAR(out.scalars[column], 0.02, 1e-12);
  EXPECT_NE(out.warning.find("joint error 0.02 (ball"), std::string::npos) << out.warning;
  EXPECT_NE(out.warning.find("above the joint-error limit 0.01"), std::string::npos) << out.warning;

  j["integrator"]["joint_error_limit"] = 0.05;
  sim = parse(j).make(*backend);
  out = sim->step();
  ASSERT_TRUE(out.ok()) << out.message;
  EXPECT_NEAR(out.scalars[column], 0.02, 1e-12);
  EXPECT_EQ(out.warning, "");

  j["integrator"]["joint_error_limit"] = 0.0;
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/joint_error_limit", "> 0");
}

TEST(MultibodySceneFile, UnknownNamesAreErrors) {
  nlohmann::json j = valid();
  j["integrator"]["solver"]["type"] = "gauss_seidel";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/solver/type", "\"pgs\"", "\"newton\"");
  j = valid();
  j["integrator"] = {{"type", "runge_kutta"}};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator/type", "\"contact_step\"", "\"implicit_euler\"");
  j = valid();
  j["joints"][0]["b"]["body"] = "sphere";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/joints/0/b/body", "no rigid body named \"sphere\"", "\"ball\"");
  j = valid();
  j["bodies"][1]["name"] = "box";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/1/name", "already exists");
  j = valid();
  j["bodies"][2]["material"]["model"] = "rubber";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/material/model", "stable_neo_hookean");
  j = valid();
  j["bodies"][0]["type"] = "soft";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/0/type", "\"rigid\"", "\"cloth\"");
}

TEST(MultibodySceneFile, InconsistentScenesAreErrors) {
  nlohmann::json j = valid();
  j["integrator"] = {{"type", "implicit_euler"}};  // an Integrator steps no contact or joints
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator", "contact_step");
  j = valid();
  j.erase("integrator");
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/integrator", "missing");
  j = valid();
  j["bodies"][2]["mesh"] = {{"rectangle", {{"min", {0, 0}}, {"max", {1, 1}}, {"cells", {2, 2}}}}};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/mesh", "solid mesh");
  j = valid();
  j["joints"][0]["a"]["body"] = "world";
  j["joints"][0]["b"]["body"] = "world";
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/joints/0/b", "rigid body on at least one side");
  j = valid();
  j["bodies"][2]["fixed"] = {{"indices", {0, 99}}};
  EXPECT_SINEW_ERROR(parse(j), "bad.json", "/bodies/2/fixed");
}

// The example of docs/scene_files.md ("Multibody scenes"): a box on a ball joint to the world
// swings down; the joint keeps its anchor in place.
TEST(MultibodySceneFile, DocumentedExampleRuns) {
  const SceneFile f = parse_scene(R"({
  "sinew_scene": 1,
  "name": "pendulum",
  "kind": "multibody",
  "steps": 500,
  "time_step": 0.001,
  "bodies": [
    {"type": "rigid", "name": "bob", "shape": {"type": "box", "half_extents": [0.05, 0.05, 0.05]},
     "density": 1000, "position": [0.3, 0, 0.35]}
  ],
  "joints": [
    {"type": "ball", "a": {"body": "world", "origin": [0, 0, 0.35]}, "b": {"body": "bob", "origin": [-0.3, 0, 0]}}
  ],
  "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
  "contact": {"mu": 0.5},
  "integrator": {"type": "contact_step", "solver": {"type": "newton", "function": "min_map", "stop": {"tolerance": 1e-10}},
                 "fallback_solver": {"type": "pgs", "stop": {"tolerance": 1e-8, "max_iterations": 100000}}}
})",
                                  "pendulum.json", ".");
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  for (int k = 0; k < 100; ++k) ASSERT_TRUE(sim->step().ok());
  const auto& m = dynamic_cast<const MultibodySimulation&>(*sim);
  Vec3 x;
  Quaternion r;
  m.scene().scene.system->body_pose(m.state().q, 0, x, r);
  const Vec3 anchor = rotate(r, Vec3{{-0.3, 0, 0}});
  EXPECT_NEAR(x[0] + anchor[0], 0.0, 1e-4);  // velocity-level rows: O(h^2) drift per step, corrected
  EXPECT_NEAR(x[2] + anchor[2], 0.35, 1e-4);
  EXPECT_LT(x[2], 0.34);  // it swung down
}

}  // namespace
}  // namespace sinew::scene::scene_multibody_scene_file_test
