// Every local-global scene file in scenes/ equals the C++ builder it was written from: the same
// description and options at the file's size, and (at a small size, the file's mesh sizes
// overridden) the same positions after a few steps on the serial backend.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <fstream>
#include <functional>
#include <nlohmann/json.hpp>
#include <sstream>
#include <string>
#include <tuple>
#include <vector>

#include "local_global_scene_file.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/scene/cloth_scenes.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::scene::scene_scene_files_equal_builders_test {
namespace {

using integrators::LocalGlobalDescription;
using integrators::LocalGlobalIntegrator;

const std::string kScenes = SINEW_TEST_SOURCE "/../scenes";

std::string file_text(const std::string& path) {
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

detail::LocalGlobalParts parts_of(const std::string& text, const std::string& name, SceneFile& file) {
  detail::LocalGlobalParts parts;
  detail::parse_scene_with(text, name, file, [&](detail::JsonObject& root, SceneFile& f) {
    parts = detail::read_local_global_parts(root, kScenes, f);
  });
  return parts;
}

// The same scene, the targets compared as sets (the builders interleave groups a file lists apart).
void expect_same(const SolidScene& a, const SolidScene& b, const std::string& what) {
  SCOPED_TRACE(what);
  const LocalGlobalDescription &x = a.description, &y = b.description;
  EXPECT_EQ(x.rest_positions, y.rest_positions);
  EXPECT_EQ(x.tets, y.tets);
  EXPECT_EQ(x.triangles, y.triangles);
  EXPECT_EQ(x.thickness, y.thickness);
  EXPECT_EQ(x.masses, y.masses);
  EXPECT_EQ(x.density, y.density);
  EXPECT_EQ(x.model, y.model);
  EXPECT_EQ(x.elastic.youngs_modulus, y.elastic.youngs_modulus);
  EXPECT_EQ(x.elastic.poisson_ratio, y.elastic.poisson_ratio);
  ASSERT_EQ(x.materials.size(), y.materials.size());
  for (std::size_t k = 0; k < x.materials.size(); ++k) {
    const auto &m = x.materials[k], &n = y.materials[k];
    EXPECT_EQ(m.model, n.model) << "material " << k;
    EXPECT_EQ(m.elastic.youngs_modulus, n.elastic.youngs_modulus) << "material " << k;
    EXPECT_EQ(m.elastic.poisson_ratio, n.elastic.poisson_ratio) << "material " << k;
    EXPECT_EQ(m.density, n.density) << "material " << k;
    EXPECT_EQ(m.thickness, n.thickness) << "material " << k;
  }
  EXPECT_EQ(x.tet_material, y.tet_material);
  EXPECT_EQ(x.triangle_material, y.triangle_material);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(x.gravity[i], y.gravity[i]);
  EXPECT_EQ(x.time_step, y.time_step);
  auto sorted = [](std::vector<integrators::PositionalTarget> t) {
    std::vector<std::tuple<Index, double, double, double, double>> out;
    for (const auto& p : t) out.emplace_back(p.vertex, p.target[0], p.target[1], p.target[2], p.weight);
    std::sort(out.begin(), out.end());
    return out;
  };
  EXPECT_EQ(sorted(x.targets), sorted(y.targets));
  EXPECT_EQ(x.targets.size(), y.targets.size());
  ASSERT_EQ(x.obstacles.size(), y.obstacles.size());
  for (std::size_t k = 0; k < x.obstacles.size(); ++k) {
    const auto &o = x.obstacles[k], &p = y.obstacles[k];
    EXPECT_EQ(o.shape.type, p.shape.type) << "obstacle " << k;
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(o.shape.size[i], p.shape.size[i]) << "obstacle " << k;
      EXPECT_EQ(o.pose.translation[i], p.pose.translation[i]) << "obstacle " << k;
      EXPECT_EQ(o.motion.linear[i], p.motion.linear[i]) << "obstacle " << k;
      EXPECT_EQ(o.motion.angular[i], p.motion.angular[i]) << "obstacle " << k;
    }
    for (int i = 0; i < 9; ++i) EXPECT_EQ(o.pose.rotation.m[i], p.pose.rotation.m[i]) << "obstacle " << k;
    EXPECT_EQ(o.friction, p.friction) << "obstacle " << k;
  }
  EXPECT_EQ(x.contact_vertices, y.contact_vertices);
  EXPECT_EQ(x.contact_margin, y.contact_margin);
  EXPECT_EQ(x.contact_thickness, y.contact_thickness);
  EXPECT_EQ(x.body_contact, y.body_contact);
  EXPECT_EQ(x.body_friction, y.body_friction);
  EXPECT_EQ(x.self_contact, y.self_contact);
  EXPECT_EQ(x.self_friction, y.self_friction);
  EXPECT_EQ(x.bending, y.bending);
  EXPECT_EQ(x.bending_stiffness, y.bending_stiffness);
  ASSERT_EQ(x.cables.size(), y.cables.size());
  for (std::size_t k = 0; k < x.cables.size(); ++k) {
    EXPECT_EQ(x.cables[k].vertices, y.cables[k].vertices);
    EXPECT_EQ(x.cables[k].rest_length, y.cables[k].rest_length);
    EXPECT_EQ(x.cables[k].pull, y.cables[k].pull);
  }
  const auto &o = a.options, &p = b.options;
  EXPECT_EQ(o.iterations, p.iterations);
  EXPECT_EQ(o.global_step, p.global_step);
  EXPECT_EQ(o.jacobi_iterations, p.jacobi_iterations);
  EXPECT_EQ(o.jacobi_relaxation, p.jacobi_relaxation);
  EXPECT_EQ(o.neo_hookean_weight, p.neo_hookean_weight);
  EXPECT_EQ(o.neo_hookean_weight_floor, p.neo_hookean_weight_floor);
  EXPECT_EQ(o.contact.warn_error, p.contact.warn_error);
  EXPECT_EQ(o.record_energy, p.record_energy);
  EXPECT_EQ(o.contact.solve, p.contact.solve);
  EXPECT_EQ(o.contact.function, p.contact.function);
  EXPECT_EQ(o.contact.tolerance, p.contact.tolerance);
  EXPECT_EQ(o.contact.max_newton_steps, p.contact.max_newton_steps);
  EXPECT_EQ(o.contact.cr_iterations, p.contact.cr_iterations);
  EXPECT_EQ(o.contact.newton_steps, p.contact.newton_steps);
  EXPECT_EQ(o.contact.preconditioner, p.contact.preconditioner);
  EXPECT_EQ(o.contact.warm_start, p.contact.warm_start);
  EXPECT_EQ(a.first_body_vertices, b.first_body_vertices);
  EXPECT_EQ(static_cast<bool>(a.drive), static_cast<bool>(b.drive));
}

// One scene file and its builder at a size.
struct Case {
  std::string file;
  std::function<SolidScene(int)> build;  // the builder at a size
  int size = 0;                          // the builder's default size
  int small = 0;                         // the size the steps are compared at
  // Rewrites the file's JSON for the small builder scene (mesh sizes, size-dependent heights).
  std::function<void(nlohmann::json&, const SolidScene&)> shrink;
};

void set_cells(nlohmann::json& j, std::size_t body, std::vector<int> cells) {
  nlohmann::json& mesh = j["bodies"][body]["mesh"];
  if (mesh.contains("box")) mesh["box"]["cells"] = cells;
  if (mesh.contains("rectangle")) mesh["rectangle"]["cells"] = cells;
  if (mesh.contains("ball")) mesh["ball"]["n"] = cells[0];
}

SolidScene cloth(const ClothScene& c) { return solid_scene_from_cloth(c); }

std::vector<Case> cases() {
  auto box = [](int nx, int n) { return std::vector<int>{nx, n, n}; };
  auto cloth_shrink = [](int side, bool lift) {
    return [side, lift](nlohmann::json& j, const SolidScene& s) {
      set_cells(j, 0, {side - 1, side - 1});
      if (lift) {
        j["contact_thickness"] = s.description.contact_thickness;
        j["bodies"][0]["mesh"]["rectangle"]["z"] = s.description.rest_positions[2];
      }
    };
  };
  std::vector<Case> out;
  out.push_back({"twisting_bar", [](int n) { return twisting_bar_scene(n); }, 10, 2,
                 [&](nlohmann::json& j, const SolidScene&) { set_cells(j, 0, box(9, 2)); }});
  out.push_back({"slope", [](int n) { return slope_scene(n, 0.1); }, 4, 2,
                 [](nlohmann::json& j, const SolidScene&) {
                   set_cells(j, 0, {2, 2, 2});
                 }});
  out.push_back({"squeezing_ball", [](int n) { return squeezing_ball_scene(n); }, 18, 3,
                 [](nlohmann::json& j, const SolidScene&) { set_cells(j, 0, {3}); }});
  out.push_back({"pulled_wooper", [](int n) { return pulled_through_gap_scene(n, 1e7); }, 12, 3,
                 [](nlohmann::json& j, const SolidScene&) {
                   set_cells(j, 0, {6, 3, 3});
                 }});
  out.push_back({"pulled_gingerbread", [](int n) { return pulled_through_gap_scene(n, 1e6); }, 16, 3,
                 [](nlohmann::json& j, const SolidScene&) {
                   set_cells(j, 0, {6, 3, 3});
                 }});
  out.push_back({"cable_finger", [](int n) { return cable_finger_scene(n); }, 21, 3,
                 [](nlohmann::json& j, const SolidScene&) { set_cells(j, 1, {3}); }});
  const std::pair<const char*, MaterialModel> models[] = {
      {"cloth_extension_arap", MaterialModel::kArap},
      {"cloth_extension_corotational", MaterialModel::kCorotational},
      {"cloth_extension_neo_hookean", MaterialModel::kStableNeoHookean}};
  for (const auto& [name, model] : models)
    out.push_back({name, [model = model](int side) { return cloth(cloth_extension_scene(model, side)); }, 101, 6,
                   cloth_shrink(6, false)});
  out.push_back(
      {"cloth_on_knives", [](int side) { return cloth(cloth_on_knives_scene(side)); }, 71, 6, cloth_shrink(6, true)});
  out.push_back({"cloth_sharp_corner", [](int side) { return cloth(cloth_sharp_corner_scene(side)); }, 71, 6,
                 cloth_shrink(6, true)});
  out.push_back({"cloth_fold", [](int side) { return cloth(cloth_fold_scene(side)); }, 17, 6, cloth_shrink(6, false)});
  return out;
}

TEST(SceneFilesEqualBuilders, EveryLocalGlobalSceneFileIsCovered) {
  std::vector<std::string> files, covered;
  for (const auto& e : std::filesystem::directory_iterator(kScenes)) {
    if (e.path().extension() != ".json") continue;
    if (nlohmann::json::parse(file_text(e.path().string())).value("kind", "") == "local_global")
      files.push_back(e.path().stem().string());
  }
  for (const Case& c : cases()) covered.push_back(c.file);
  std::sort(files.begin(), files.end());
  std::sort(covered.begin(), covered.end());
  EXPECT_EQ(files, covered);
}

TEST(SceneFilesEqualBuilders, DescriptionsAtTheFilesSizes) {
  for (const Case& c : cases()) {
    const std::string path = kScenes + "/" + c.file + ".json";
    SceneFile file;
    const detail::LocalGlobalParts parts = parts_of(file_text(path), path, file);
    const SolidScene built = c.build(c.size);
    expect_same(parts.scene, built, c.file);
    EXPECT_EQ(file.steps, built.frames) << c.file;
    EXPECT_EQ(file.time_step, built.description.time_step) << c.file;
    EXPECT_EQ(file.kind, "local_global");
    EXPECT_GE(file.outputs.png_every, 1) << c.file;
    EXPECT_FALSE(file.description.empty()) << c.file;
  }
}

TEST(SceneFilesEqualBuilders, SameStepsAtASmallSize) {
  auto backend = make_backend("serial");
  constexpr int kSteps = 4;
  for (const Case& c : cases()) {
    SCOPED_TRACE(c.file);
    const SolidScene built = c.build(c.small);
    nlohmann::json j = nlohmann::json::parse(file_text(kScenes + "/" + c.file + ".json"));
    c.shrink(j, built);
    SceneFile file;
    const detail::LocalGlobalParts parts = parts_of(j.dump(), c.file + " (small)", file);
    expect_same(parts.scene, built, c.file + " small");
    LocalGlobalIntegrator a(*backend, parts.scene.description, parts.scene.options);
    LocalGlobalIntegrator b(*backend, built.description, built.options);
    double worst = 0.0;
    for (int s = 0; s < kSteps; ++s) {
      ASSERT_TRUE(step_scene(parts.scene, a).ok());
      ASSERT_TRUE(step_scene(built, b).ok());
    }
    const std::vector<double> x = a.positions(), y = b.positions();
    ASSERT_EQ(x.size(), y.size());
    for (std::size_t i = 0; i < x.size(); ++i) worst = std::max(worst, std::abs(x[i] - y[i]));
    // The file's motions evaluate the builders' formulas in the same order: bit for bit.
    EXPECT_EQ(worst, 0.0);
    // The scene moved (the comparison is not of two scenes at rest).
    double moved = 0.0;
    for (std::size_t i = 0; i < x.size(); ++i)
      moved = std::max(moved, std::abs(x[i] - built.description.rest_positions[i]));
    EXPECT_GT(moved, 1e-6);
  }
}

// SceneFile::make builds a LocalGlobalSimulation that steps as the builder's scene does.
TEST(SceneFilesEqualBuilders, MakeBuildsTheSimulation) {
  auto backend = make_backend("serial");
  nlohmann::json j = nlohmann::json::parse(file_text(kScenes + "/cable_finger.json"));
  set_cells(j, 1, {3});
  const SceneFile file = parse_scene(j.dump(), "cable_finger.json", kScenes);
  std::unique_ptr<Simulation> sim = file.make(*backend);
  const SolidScene built = cable_finger_scene(3);
  LocalGlobalIntegrator b(*backend, built.description, built.options);
  for (int s = 0; s < 3; ++s) {
    const StepOutcome o = sim->step();
    ASSERT_TRUE(o.ok()) << o.message;
    EXPECT_EQ(o.scalars.size(), sim->scalar_names().size());
    step_scene(built, b);
  }
  const auto& lg = dynamic_cast<LocalGlobalSimulation&>(*sim).integrator();
  const std::vector<double> x = lg.positions(), y = b.positions();
  for (std::size_t i = 0; i < x.size(); ++i) EXPECT_NEAR(x[i], y[i], 1e-12);
  const std::vector<OutputMesh> meshes = sim->output_meshes();
  ASSERT_EQ(meshes.size(), 2u);
  EXPECT_EQ(meshes[0].name, "finger");
  EXPECT_EQ(meshes[1].name, "ball");
  EXPECT_EQ(meshes[0].frame.points.size(), 3u * 99u);
  EXPECT_TRUE(sim->obstacles().empty());  // the sphere follows the ball, which is drawn
  EXPECT_EQ(sim->size().cables, 1u);
}

}  // namespace
}  // namespace sinew::scene::scene_scene_files_equal_builders_test
