// Scene files (scene_file.hpp): the common keys, the local-global kind, and bad input, each an
// error naming the file and the JSON path.
#include "sinew/scene/scene_file.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>

#include "json_fields.hpp"
#include "local_global_scene_file.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/error.hpp"
#include "sinew/render/snapshot.hpp"
#include "sinew/scene/local_global_simulation.hpp"

namespace sinew::scene::scene_scene_file_test {
namespace {

namespace fs = std::filesystem;

// A small valid local-global scene: a block on the ground, its top face pulled up.
nlohmann::json valid_scene() {
  return nlohmann::json::parse(R"({
    "sinew_scene": 1, "name": "block", "kind": "local_global", "steps": 5,
    "outputs": {"every": 2, "png_every": 5, "camera": {"direction": [1, 0, 1], "perspective": false}},
    "time_step": 0.01, "density": 1000,
    "material": {"model": "stable_neo_hookean", "youngs_modulus": 1e5, "poisson_ratio": 0.3},
    "integrator": {"iterations": 3, "contact": {"cr_iterations": 8}},
    "bodies": [{"name": "block", "mesh": {"box": {"min": [0, 0, 0], "max": [0.1, 0.1, 0.1], "cells": [2, 2, 2]}}}],
    "targets": [{"body": "block", "selection": {"box": {"min": [-1, -1, 0.099], "max": [1, 1, 1]}},
                 "motion": {"type": "translate", "velocity": [0, 0, 0.1], "duration": 0.02}}],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1], "point": [0, 0, 0], "friction": 0.2}]
  })");
}

// The message of the sinew::Error that parsing @p j throws ("" when none is thrown).
std::string error_of(const nlohmann::json& j, const fs::path& dir = fs::temp_directory_path()) {
  try {
    parse_scene(j.dump(), "test.json", dir);
  } catch (const Error& e) {
    return e.what();
  }
  return "";
}

// Expects parsing @p j to fail with a message naming test.json, @p path and @p words.
void expect_error(const nlohmann::json& j, const std::string& path, const std::string& words,
                  const fs::path& dir = fs::temp_directory_path()) {
  const std::string m = error_of(j, dir);
  EXPECT_NE(m.find("test.json: " + path), std::string::npos) << "message: " << m << "\nexpected path: " << path;
  EXPECT_NE(m.find(words), std::string::npos) << "message: " << m << "\nexpected words: " << words;
}

TEST(SceneFile, ReadsAValidScene) {
  const SceneFile f = parse_scene(valid_scene().dump(), "block.json", fs::temp_directory_path());
  EXPECT_EQ(f.name, "block");
  EXPECT_EQ(f.kind, "local_global");
  EXPECT_EQ(f.backend, "");
  EXPECT_EQ(f.steps, 5);
  EXPECT_EQ(f.time_step, 0.01);
  EXPECT_EQ(f.outputs.every, 2);
  EXPECT_EQ(f.outputs.png_every, 5);
  EXPECT_FALSE(f.outputs.camera.perspective);
  EXPECT_EQ(f.outputs.camera.direction[0], 1.0);
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  EXPECT_EQ(sim->size().vertices, 27);
  EXPECT_EQ(sim->size().targets, 9u);
  EXPECT_EQ(sim->size().obstacles, 1u);
  for (int s = 0; s < 3; ++s) ASSERT_TRUE(sim->step().ok());
  // The targets moved up by 0.1 m/s for 0.02 s, then held: after 3 steps the top is 2 mm up.
  const std::vector<double> x = dynamic_cast<LocalGlobalSimulation&>(*sim).integrator().positions();
  EXPECT_NEAR(x[3 * 26 + 2], 0.102, 1e-4);
  const std::vector<OutputMesh> meshes = sim->output_meshes();
  ASSERT_EQ(meshes.size(), 1u);
  EXPECT_EQ(meshes[0].frame.tets.size(), 48u);
  ASSERT_EQ(meshes[0].frame.cell_fields.size(), 1u);
  EXPECT_EQ(meshes[0].frame.cell_fields[0].name, "stress");
  EXPECT_GT(
      *std::max_element(meshes[0].frame.cell_fields[0].values.begin(), meshes[0].frame.cell_fields[0].values.end()),
      0.0);
  ASSERT_EQ(sim->obstacles().size(), 1u);  // the ground
  EXPECT_EQ(sim->obstacles()[0].shape.type, ShapeType::kHalfSpace);
}

TEST(SceneFile, MissingFileAndSyntaxErrors) {
  try {
    read_scene_file("/nonexistent/dir/scene.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/nonexistent/dir/scene.json"), std::string::npos) << e.what();
  }
  try {
    parse_scene("{\n  \"sinew_scene\": 1,\n  \"kind\" \"local_global\"\n}", "test.json", ".");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("test.json:3:"), std::string::npos) << e.what();
  }
}

TEST(SceneFile, NamesThatWouldLeaveTheOutputFolderAreRefused) {
  // The scene's name is the default output folder results/<name>, a body's name its files'.
  for (const char* name : {"../../escaped_scene", "", "..", "a/b", "/tmp/x", "a\\b", "sp ace", "dot.ted"}) {
    nlohmann::json j = valid_scene();
    j["name"] = name;
    expect_error(j, "/name", "letters, digits");
    j = valid_scene();
    j["bodies"][0]["name"] = name;
    expect_error(j, "/bodies/0/name", "letters, digits");
  }
  nlohmann::json j = valid_scene();
  j["name"] = std::string(129, 'a');
  expect_error(j, "/name", "1 to 128");
  j["name"] = std::string(128, 'a');
  EXPECT_NO_THROW(parse_scene(j.dump(), "test.json", "."));
  // Without a name the file's stem stands in, and must follow the rule too.
  j.erase("name");
  EXPECT_EQ(parse_scene(j.dump(), "dir/my_scene.json", ".").name, "my_scene");
  try {
    parse_scene(j.dump(), "dir/my scene.json", ".");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("/name: absent, and the file's stem \"my scene\""), std::string::npos)
        << e.what();
  }
}

TEST(SceneFile, ADuplicateKeyIsAnErrorNamingItAndBothLines) {
  const std::string text =
      "{\n  \"sinew_scene\": 1,\n  \"steps\": 5,\n  \"outputs\": {\"every\": 1,\n    \"every\": 2},\n"
      "  \"steps\": 7\n}\n";
  try {
    parse_scene(text, "dup.json", ".");
    FAIL() << "no error";
  } catch (const Error& e) {
    // The first duplicate in reading order: "every" in /outputs, lines 4 and 5.
    EXPECT_NE(std::string(e.what()).find("dup.json:5: /outputs: key \"every\" appears twice in one object (first at "
                                         "line 4)"),
              std::string::npos)
        << e.what();
  }
  // The same key in different objects, inside strings, or escaped differently but equal.
  EXPECT_NO_THROW(
      detail::parse_json("{\"a\": {\"k\": 1}, \"b\": {\"k\": 2}, \"c\": [{\"k\": 1}, {\"k\": 2}]}", "ok.json"));
  EXPECT_NO_THROW(detail::parse_json("{\"a\": \"\\\"a\\\": 1, \\\"a\\\"\"}", "ok.json"));
  try {
    detail::parse_json("{\"list\": [1, {\"x\": 1, \"\\u0078\": 2}]}", "esc.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("esc.json:1: /list/1: key \"x\" appears twice"), std::string::npos)
        << e.what();
  }
}

TEST(SceneFile, ANulByteIsAnErrorNamingItsPlace) {
  // nlohmann stops reading at a NUL, so "{}" NUL "}" would parse as {} and the rest vanish.
  const std::string text = std::string("{\n  \"a\": 1}") + '\0' + "}\n";
  try {
    detail::parse_json(text, "nul.json");
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("nul.json:2:10: a NUL byte (byte 12)"), std::string::npos) << e.what();
  }
  EXPECT_THROW(parse_scene(std::string("{}") + '\0' + "}", "nul.json", "."), Error);
}

TEST(SceneFile, CommonKeyErrors) {
  nlohmann::json j = valid_scene();
  j["densty"] = 1000;
  expect_error(j, "/densty", "density");  // unknown key, with the key it resembles
  j = valid_scene();
  j["sinew_scene"] = 2;
  expect_error(j, "/sinew_scene", "version 1");
  j = valid_scene();
  j["kind"] = "rigid";
  expect_error(j, "/kind", "local_global");
  j = valid_scene();
  j["backend"] = "opencl";
  expect_error(j, "/backend", "serial");
  j = valid_scene();
  j["steps"] = 0;
  expect_error(j, "/steps", "integer");
  j = valid_scene();
  j["outputs"]["pngevery"] = 3;
  expect_error(j, "/outputs/pngevery", "png_every");
  j = valid_scene();
  j["outputs"]["checkpoint_at"] = {10, 1e300};
  expect_error(j, "/outputs/checkpoint_at/1", "step number");
  j = valid_scene();
  j["outputs"]["camera"]["direction"] = {0, 0, 0};
  expect_error(j, "/outputs/camera/direction", "non-zero");
}

TEST(SceneFile, LocalGlobalRangeErrors) {
  nlohmann::json j = valid_scene();
  j["time_step"] = "fast";
  expect_error(j, "/time_step", "found a string");  // wrong type
  j["time_step"] = 0.0;
  expect_error(j, "/time_step", "> 0");
  j = valid_scene();
  j["density"] = -1;
  expect_error(j, "/density", "> 0");
  j = valid_scene();
  j["material"]["youngs_modulus"] = 0;
  expect_error(j, "/material/youngs_modulus", "> 0");
  j = valid_scene();
  j["material"]["poisson_ratio"] = 0.5;
  expect_error(j, "/material/poisson_ratio", "(-1, 0.5)");
  j = valid_scene();
  j["material"]["model"] = "linear";
  expect_error(j, "/material/model", "arap");
  j = valid_scene();
  j["integrator"]["iterations"] = 0;
  expect_error(j, "/integrator/iterations", "integer");
  j = valid_scene();
  j["integrator"]["contact"]["warmstart"] = true;
  expect_error(j, "/integrator/contact/warmstart", "warm_start");
  j = valid_scene();
  j["obstacles"][0]["friction"] = -0.1;
  expect_error(j, "/obstacles/0/friction", "[0,");
  j = valid_scene();
  j["bodies"][0]["mesh"]["box"]["cells"] = {1000, 1000, 1000};
  expect_error(j, "/bodies/0/mesh/box/cells", "1e7");
  j["bodies"][0]["mesh"]["box"]["cells"] = {2, 2};
  expect_error(j, "/bodies/0/mesh/box/cells", "3 integers");
  j = valid_scene();
  j["bodies"][0]["mesh"] = {{"sphere", {{"radius", 1}}}};
  expect_error(j, "/bodies/0/mesh", "\"box\"");
  j = valid_scene();
  j["integrator"]["global_step"] = "jacobi";
  expect_error(j, "/integrator", "sparse_inverse");
  j = valid_scene();
  j["obstacles"][0]["shape"] = "cone";
  expect_error(j, "/obstacles/0/shape", "cylinder");
  j = valid_scene();
  j["targets"][0]["body"] = "blok";
  expect_error(j, "/targets/0/body", "\"block\"");
  j = valid_scene();
  j["targets"][0]["motion"]["type"] = "spin";
  expect_error(j, "/targets/0/motion/type", "rotate");
}

// The contact solve's keys reach LocalGlobalContactOptions (absent: the options' defaults); bad
// values name the key and what was expected.
TEST(SceneFile, ReadsTheContactSolveKeys) {
  auto backend = make_backend("serial");
  const auto options = [&](const nlohmann::json& j) {
    const std::unique_ptr<Simulation> sim =
        parse_scene(j.dump(), "test.json", fs::temp_directory_path()).make(*backend);
    return dynamic_cast<LocalGlobalSimulation&>(*sim).integrator().options().contact;
  };
  const integrators::LocalGlobalContactOptions defaults;
  nlohmann::json j = valid_scene();
  integrators::LocalGlobalContactOptions o = options(j);
  EXPECT_EQ(o.solve, defaults.solve);
  EXPECT_EQ(o.function, defaults.function);
  EXPECT_EQ(o.tolerance, defaults.tolerance);
  EXPECT_EQ(o.max_newton_steps, defaults.max_newton_steps);
  EXPECT_TRUE(o.reuse_delassus);
  j["integrator"]["contact"] = {{"solve", "seed_steps"},
                                {"function", "fischer_burmeister"},
                                {"tolerance", 1e-10},
                                {"max_newton_steps", 7},
                                {"reuse_delassus", false}};
  o = options(j);
  EXPECT_FALSE(o.reuse_delassus);
  EXPECT_EQ(o.solve, integrators::ContactSolve::kSeedSteps);
  EXPECT_EQ(o.function, constraints::NcpFunction::kFischerBurmeister);
  EXPECT_EQ(o.tolerance, 1e-10);
  EXPECT_EQ(o.max_newton_steps, 7);
  j["integrator"]["contact"] = {{"solve", "converged"}};
  EXPECT_EQ(options(j).solve, integrators::ContactSolve::kConverged);
  j["integrator"]["contact"] = {{"solve", "exact"}};
  expect_error(j, "/integrator/contact/solve", "seed_steps");
  j["integrator"]["contact"] = {{"tolerance", -1}};
  expect_error(j, "/integrator/contact/tolerance", "0");
  j["integrator"]["contact"] = {{"max_newton_steps", 0}};
  expect_error(j, "/integrator/contact/max_newton_steps", "integer");
  j["integrator"]["contact"] = {{"reuse_delassus", 1}};
  expect_error(j, "/integrator/contact/reuse_delassus", "true or false");
}

// body_contact, body_friction and obstacle_features reach LocalGlobalDescription; bad values name
// the key and what was expected.
TEST(SceneFile, ReadsBodyContactKeys) {
  nlohmann::json j = valid_scene();
  j["body_contact"] = false;
  j["body_friction"] = 0.25;
  j["obstacle_features"] = false;
  SceneFile f;
  detail::LocalGlobalParts parts;
  detail::parse_scene_with(j.dump(), "test.json", f, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  EXPECT_FALSE(parts.scene.description.body_contact);
  EXPECT_EQ(parts.scene.description.body_friction, 0.25);
  EXPECT_FALSE(parts.scene.description.obstacle_features);
  SceneFile g;
  detail::parse_scene_with(valid_scene().dump(), "test.json", g, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  const integrators::LocalGlobalDescription defaults;
  EXPECT_EQ(parts.scene.description.body_contact, defaults.body_contact);
  EXPECT_EQ(parts.scene.description.body_friction, defaults.body_friction);
  EXPECT_EQ(parts.scene.description.obstacle_features, defaults.obstacle_features);

  j = valid_scene();
  j["body_contact"] = 1;
  expect_error(j, "/body_contact", "true or false");
  j = valid_scene();
  j["obstacle_features"] = "yes";
  expect_error(j, "/obstacle_features", "true or false");
  j = valid_scene();
  j["body_friction"] = -0.5;
  expect_error(j, "/body_friction", "a number >= 0");
  j["body_friction"] = "high";
  expect_error(j, "/body_friction", "found a string");
  j = valid_scene();
  j["body_frction"] = 0.5;
  expect_error(j, "/body_frction", "body_friction");  // unknown key, with the key it resembles
}

// self_contact and self_friction reach LocalGlobalDescription (off and 0.3 by default); bad values
// name the key and what was expected.
TEST(SceneFile, ReadsSelfContactKeys) {
  nlohmann::json j = valid_scene();
  j["self_contact"] = true;
  j["self_friction"] = 0.15;
  SceneFile f;
  detail::LocalGlobalParts parts;
  detail::parse_scene_with(j.dump(), "test.json", f, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  EXPECT_TRUE(parts.scene.description.self_contact);
  EXPECT_EQ(parts.scene.description.self_friction, 0.15);
  SceneFile g;
  detail::parse_scene_with(valid_scene().dump(), "test.json", g, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  EXPECT_FALSE(parts.scene.description.self_contact);
  EXPECT_EQ(parts.scene.description.self_friction, 0.3);
  j = valid_scene();
  j["self_contact"] = "on";
  expect_error(j, "/self_contact", "true or false");
  j = valid_scene();
  j["self_friction"] = -1;
  expect_error(j, "/self_friction", "a number >= 0");
}

// bending and bending_stiffness reach LocalGlobalDescription; bad values name the key.
TEST(SceneFile, ReadsBendingKeys) {
  nlohmann::json j = valid_scene();
  j["bending"] = "laplace_beltrami";
  j["bending_stiffness"] = 0.5;
  SceneFile f;
  detail::LocalGlobalParts parts;
  detail::parse_scene_with(j.dump(), "test.json", f, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  EXPECT_EQ(parts.scene.description.bending, integrators::BendingModel::kLaplaceBeltrami);
  EXPECT_EQ(parts.scene.description.bending_stiffness, 0.5);
  j["bending"] = "quadratic";
  detail::parse_scene_with(j.dump(), "test.json", f, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, fs::temp_directory_path(), out);
  });
  EXPECT_EQ(parts.scene.description.bending, integrators::BendingModel::kQuadratic);
  j["bending"] = "cubic";
  expect_error(j, "/bending", "laplace_beltrami");
  j = valid_scene();
  j["bending_stiffness"] = -1.0;
  expect_error(j, "/bending_stiffness", "0");
}

TEST(SceneFile, SelectionErrors) {
  nlohmann::json j = valid_scene();
  j["targets"][0]["selection"] = {{"box", {{"min", {2, 2, 2}}, {"max", {3, 3, 3}}}}};
  expect_error(j, "/targets/0/selection", "empty");
  j["targets"][0]["selection"] = {{"indices", {0, 27}}};
  expect_error(j, "/targets/0/selection/indices/1", "[0, 27)");  // vertex index out of range
  j["targets"][0]["selection"] = {{"everything", true}};
  expect_error(j, "/targets/0/selection", "\"all\"");
  j = valid_scene();
  j["cables"] = {{{"body", "block"}, {"route", {{"indices", {0}}}}}};
  expect_error(j, "/cables/0/route", "at least 2");
  j["cables"] = {{{"body", "block"}, {"route", {{"indices", {0, 1}}}}, {"pull", {{"distance", 1.0}}}}};
  expect_error(j, "/cables/0/pull", "rest length");
}

// save() then restore() into a fresh simulation continues bit for bit (targets are functions of
// the step index; the integrator saves the rest).
TEST(SceneFile, SaveRestoreContinuesBitForBit) {
  const SceneFile f = parse_scene(valid_scene().dump(), "block.json", fs::temp_directory_path());
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> a = f.make(*backend), b = f.make(*backend);
  for (int s = 0; s < 2; ++s) ASSERT_TRUE(a->step().ok());
  std::stringstream checkpoint;
  a->save(checkpoint);
  b->restore(checkpoint);
  EXPECT_EQ(b->steps(), 2);
  for (int s = 0; s < 3; ++s) {
    ASSERT_TRUE(a->step().ok());
    ASSERT_TRUE(b->step().ok());
  }
  const auto& x = dynamic_cast<LocalGlobalSimulation&>(*a).integrator();
  const auto& y = dynamic_cast<LocalGlobalSimulation&>(*b).integrator();
  EXPECT_EQ(x.positions(), y.positions());
  EXPECT_EQ(x.velocities(), y.velocities());
  std::stringstream truncated(checkpoint.str().substr(0, 10));
  EXPECT_THROW(b->restore(truncated), Error);
}

// Every obstacle shape renders as a closed triangle mesh at its pose; per-step scalars are finite.
TEST(SceneFile, ObstaclesRenderAndScalarsAreFinite) {
  nlohmann::json j = valid_scene();
  j.erase("targets");
  j["obstacles"].push_back({{"shape", "sphere"}, {"radius", 0.05}, {"position", {0.3, 0, 0}}});
  j["obstacles"].push_back({{"shape", "box"}, {"half_extents", {0.05, 0.05, 0.05}}, {"position", {-0.3, 0, 0}}});
  j["obstacles"].push_back({{"shape", "cylinder"},
                            {"radius", 0.05},
                            {"half_length", 0.1},
                            {"position", {0, 0.3, 0}},
                            {"rotation", {{"axis", {1, 0, 0}}, {"degrees", 90}}}});
  j["obstacles"].push_back({{"shape", "capsule"}, {"radius", 0.05}, {"half_length", 0.1}, {"position", {0, -0.3, 0}}});
  const SceneFile f = parse_scene(j.dump(), "test.json", fs::temp_directory_path());
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  StepOutcome o;
  for (int s = 0; s < 10; ++s) {
    o = sim->step();
    ASSERT_TRUE(o.ok()) << o.message;
  }
  const std::vector<std::string> names = sim->scalar_names();
  ASSERT_EQ(o.scalars.size(), names.size());
  for (std::size_t i = 0; i < names.size(); ++i) EXPECT_TRUE(std::isfinite(o.scalars[i])) << names[i];
  const std::vector<render::RenderMesh> extras = render::obstacle_meshes(sim->obstacles(), render::GroundPatch{});
  ASSERT_EQ(extras.size(), 6u);  // ground (two colours) and four shapes
  const Vec3 centres[4] = {{{0.3, 0, 0}}, {{-0.3, 0, 0}}, {{0, 0.3, 0}}, {{0, -0.3, 0}}};
  for (int k = 0; k < 4; ++k) {
    const render::RenderMesh& m = extras[2 + static_cast<std::size_t>(k)];
    ASSERT_FALSE(m.triangles.empty());
    Vec3 c{{0, 0, 0}};
    for (const Vec3& v : m.vertices)
      for (int i = 0; i < 3; ++i) c[i] += v[i] / static_cast<double>(m.vertices.size());
    for (int i = 0; i < 3; ++i) EXPECT_NEAR(c[i], centres[k][i], 0.02) << "shape " << k;
  }
  // The block rests on the ground: its contact forces carry its weight, 1 kg g, within 10%.
  const std::vector<OutputMesh> meshes = sim->output_meshes();
  const VtuField& force = meshes[0].frame.point_fields[1];
  EXPECT_EQ(force.name, "contact_force");
  double up = 0.0;
  for (std::size_t v = 0; v < force.values.size() / 3; ++v) up += force.values[3 * v + 2];
  EXPECT_NEAR(up, 9.81, 0.981);
}

// Every local_global example of docs/scene_files.md reads and builds.
TEST(SceneFile, DocumentedExamplesRead) {
  std::ifstream in(SINEW_TEST_SOURCE "/../docs/scene_files.md");
  ASSERT_TRUE(in.good());
  std::stringstream text;
  text << in.rdbuf();
  const std::string doc = text.str();
  int examples = 0;
  auto backend = make_backend("serial");
  for (std::size_t at = doc.find("```json\n"); at != std::string::npos; at = doc.find("```json\n", at + 1)) {
    const std::size_t begin = at + 8, end = doc.find("```", begin);
    ASSERT_NE(end, std::string::npos);
    const std::string json = doc.substr(begin, end - begin);
    if (json.find("\"local_global\"") == std::string::npos) continue;
    const SceneFile f = parse_scene(json, "docs/scene_files.md example", fs::temp_directory_path());
    std::unique_ptr<Simulation> sim = f.make(*backend);
    EXPECT_TRUE(sim->step().ok());
    ++examples;
  }
  EXPECT_GE(examples, 1);
}

// A membrane body: its VTK frame has triangles and the largest principal stretch per triangle.
TEST(SceneFile, ClothStretchField) {
  const nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "local_global", "steps": 5, "gravity": [0, 0, 0],
    "material": {"model": "arap", "youngs_modulus": 1e5, "poisson_ratio": 0.3},
    "bodies": [{"name": "cloth", "mesh": {"rectangle": {"min": [0, 0], "max": [1, 1], "cells": [4, 4]}}}],
    "targets": [
      {"selection": {"box": {"min": [-0.1, -1, -1], "max": [0.1, 2, 1]}},
       "motion": {"type": "translate", "velocity": [-1, 0, 0]}},
      {"selection": {"box": {"min": [0.9, -1, -1], "max": [1.1, 2, 1]}},
       "motion": {"type": "translate", "velocity": [1, 0, 0]}}]
  })");
  const SceneFile f = parse_scene(j.dump(), "cloth.json", fs::temp_directory_path());
  EXPECT_EQ(f.name, "cloth");
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  for (int s = 0; s < 5; ++s) ASSERT_TRUE(sim->step().ok());
  const std::vector<OutputMesh> meshes = sim->output_meshes();
  ASSERT_EQ(meshes.size(), 1u);
  EXPECT_EQ(meshes[0].frame.triangles.size(), 32u);
  ASSERT_EQ(meshes[0].frame.cell_fields.size(), 1u);
  const VtuField& stretch = meshes[0].frame.cell_fields[0];
  EXPECT_EQ(stretch.name, "max_principal_stretch");
  ASSERT_EQ(stretch.values.size(), 32u);
  // The edges moved apart by 0.1 m in all: the cloth is stretched by ~10% along x.
  const double most = *std::max_element(stretch.values.begin(), stretch.values.end());
  EXPECT_GT(most, 1.05);
  EXPECT_LT(most, 1.2);
}

// Mesh files next to the scene: missing, an index out of range, an inverted tet, a NaN.
class SceneFileMeshes : public ::testing::Test {
 protected:
  void SetUp() override {
    // One folder per test: ctest runs the tests of this fixture in parallel processes.
    dir_ = fs::temp_directory_path() /
           ("sinew_scene_file_test_" + std::string(::testing::UnitTest::GetInstance()->current_test_info()->name()));
    fs::create_directories(dir_);
  }
  void TearDown() override { fs::remove_all(dir_); }
  void write(const std::string& name, const std::string& text) { std::ofstream(dir_ / name) << text; }
  nlohmann::json scene_with(const std::string& file) {
    nlohmann::json j = valid_scene();
    j["bodies"][0]["mesh"] = {{"file", file}};
    j.erase("targets");
    return j;
  }
  const std::string node_ = "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 1\n";
  fs::path dir_;
};

TEST_F(SceneFileMeshes, ReadsATetGenMesh) {
  write("tet.node", node_);
  write("tet.ele", "1 4 0\n0 0 1 2 3\n");
  nlohmann::json j = scene_with("tet.node");
  j["bodies"][0]["mesh"]["scale"] = 0.1;
  const SceneFile f = parse_scene(j.dump(), "test.json", dir_);
  auto backend = make_backend("serial");
  EXPECT_EQ(f.make(*backend)->size().tets, 1u);
}

TEST_F(SceneFileMeshes, MissingFile) {
  expect_error(scene_with("nothere.msh"), "/bodies/0/mesh/file", "nothere.msh", dir_);
  expect_error(scene_with("mesh.stl"), "/bodies/0/mesh/file", ".msh", dir_);
}

TEST_F(SceneFileMeshes, IndexOutOfRange) {
  write("tet.node", node_);
  write("tet.ele", "1 4 0\n0 0 1 2 7\n");
  expect_error(scene_with("tet.node"), "/bodies/0/mesh/file", "tet.ele", dir_);
}

TEST_F(SceneFileMeshes, InvertedElement) {
  write("tet.node", node_);
  write("tet.ele", "1 4 0\n0 0 2 1 3\n");
  const std::string m = error_of(scene_with("tet.node"), dir_);
  EXPECT_NE(m.find("test.json: /bodies/0/mesh/file"), std::string::npos) << m;
  EXPECT_TRUE(m.find("inverted") != std::string::npos || m.find("volume") != std::string::npos) << m;
}

TEST_F(SceneFileMeshes, VertexWithoutElementIsNamedAsItsFileNumbersIt) {
  // OBJ numbers vertices from 1: the fourth is "vertex 4 of .../tri.obj".
  write("tri.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nv 5 5 5\nf 1 2 3\n");
  std::string m = error_of(scene_with("tri.obj"), dir_);
  EXPECT_NE(m.find("test.json: /bodies/0/mesh"), std::string::npos) << m;
  EXPECT_NE(m.find("vertex 4 of " + (dir_ / "tri.obj").string() + " belongs to no triangle"), std::string::npos) << m;
  // TetGen numbers from the .node file's first index (1 here): point 5, on line 6 of the .node.
  write("tet.node", "# 1-based\n5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 2 2 2\n");
  write("tet.ele", "1 4 0\n1 1 2 3 4\n");
  m = error_of(scene_with("tet.node"), dir_);
  EXPECT_NE(m.find((dir_ / "tet.node").string() + ":7: point 5 belongs to no tetrahedron"), std::string::npos) << m;
}

TEST_F(SceneFileMeshes, AFolderWhereAFileIsExpectedIsNamed) {
  fs::create_directories(dir_ / "mesh.obj");
  std::string m = error_of(scene_with("mesh.obj"), dir_);
  EXPECT_NE(m.find((dir_ / "mesh.obj").string() + ": is a folder, expected an OBJ file"), std::string::npos) << m;
  try {
    read_scene_file(dir_);
    FAIL() << "no error";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find(dir_.string() + ": is a folder, expected a scene file"), std::string::npos)
        << e.what();
  }
}

TEST_F(SceneFileMeshes, NanCoordinate) {
  write("tet.node", "4 3 0 0\n0 0 0 0\n1 1 0 0\n2 0 1 0\n3 0 0 nan\n");
  write("tet.ele", "1 4 0\n0 0 1 2 3\n");
  const std::string m = error_of(scene_with("tet.node"), dir_);
  EXPECT_NE(m.find("test.json: /bodies/0/mesh/file"), std::string::npos) << m;
  EXPECT_NE(m.find("tet.node"), std::string::npos) << m;
}

}  // namespace
}  // namespace sinew::scene::scene_scene_file_test
