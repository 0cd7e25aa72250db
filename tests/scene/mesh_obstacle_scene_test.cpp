// Mesh obstacles in local-global and multibody scene files ("obstacles": [{"mesh": ...,
// "position", "rotation"}], "distance": "grid" for a signed-distance grid of the mesh, "open" for
// a sheet): a box written as a closed triangle mesh (inline or an .obj file), or as its grid, moves
// bodies exactly as the analytic box does, and an open mesh or a bad grid setting is refused
// naming the entry.
#include <gtest/gtest.h>

#include <filesystem>
#include <memory>
#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "sinew/core/serial_backend.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/mesh_io.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_mesh_obstacle_test {
namespace {

// A soft block falling 5 mm onto a 2 x 2 x 0.2 m box whose top is the plane z = 0.
nlohmann::json scene_with(const nlohmann::json& obstacle) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "local_global", "steps": 30, "time_step": 0.01, "density": 1000.0,
    "material": {"model": "arap", "youngs_modulus": 1e5, "poisson_ratio": 0.3},
    "bodies": [{"name": "block", "mesh": {"box": {"min": [0, 0, 0.005], "max": [0.1, 0.1, 0.055], "cells": [2, 2, 1]}},
                "contact": "surface"}]
  })");
  j["obstacles"] = nlohmann::json::array({obstacle});
  return j;
}

// The box's 8 corners and 12 outward triangles.
nlohmann::json box_mesh(double hx, double hy, double hz) {
  nlohmann::json v = nlohmann::json::array();
  for (int c = 0; c < 8; ++c) v.push_back({(c & 1) ? hx : -hx, (c & 2) ? hy : -hy, (c & 4) ? hz : -hz});
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  nlohmann::json t = nlohmann::json::array();
  for (const auto& q : quads) {
    t.push_back({q[0], q[1], q[2]});
    t.push_back({q[0], q[2], q[3]});
  }
  return {{"vertices", v}, {"triangles", t}};
}

std::vector<double> positions_after(const nlohmann::json& j) {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  std::unique_ptr<Simulation> sim = parse_scene(j.dump(), "mesh_obstacle.json", ".").make(*backend);
  for (int k = 0; k < 30; ++k) {
    const StepOutcome out = sim->step();
    EXPECT_TRUE(out.ok()) << out.message;
  }
  return dynamic_cast<LocalGlobalSimulation&>(*sim).integrator().positions();
}

TEST(MeshObstacleScene, ABoxMeshMovesTheBlockAsTheAnalyticBox) {
  const nlohmann::json analytic = {{"shape", "box"},           {"half_extents", {1.0, 1.0, 0.1}},
                                   {"position", {0, 0, -0.1}}, {"rotation", {{"axis", {0, 0, 1}}, {"degrees", 30.0}}},
                                   {"velocity", {0.05, 0, 0}}, {"friction", 0.5}};
  nlohmann::json mesh = analytic;
  mesh.erase("shape");
  mesh.erase("half_extents");
  mesh["mesh"] = box_mesh(1.0, 1.0, 0.1);
  nlohmann::json grid = mesh;
  grid["distance"] = "grid";
  grid["cell_size"] = 0.04;
  const std::vector<double> a = positions_after(scene_with(analytic));
  for (const nlohmann::json& other : {mesh, grid}) {
    const std::vector<double> b = positions_after(scene_with(other));
    ASSERT_EQ(a.size(), b.size());
    double worst = 0.0, moved = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
    for (std::size_t k = 0; k < a.size(); k += 3) moved = std::max(moved, a[k]);
    EXPECT_LT(worst, 1e-9) << other.value("distance", "exact");
    EXPECT_GT(moved, 0.1 + 0.005) << "the box dragged the block along x";
  }
}

TEST(MeshObstacleScene, GridSettingsAreCheckedAndNeedAGrid) {
  nlohmann::json o = {{"mesh", box_mesh(1.0, 1.0, 0.1)}, {"position", {0, 0, -0.1}}, {"distance", "grid"}};
  o["padding"] = 0;
  EXPECT_SINEW_ERROR(parse_scene(scene_with(o).dump(), "grid.json", "."), "grid.json", "/obstacles/0/padding");
  o.erase("padding");
  o["distance"] = "fast";
  EXPECT_SINEW_ERROR(parse_scene(scene_with(o).dump(), "grid.json", "."), "/obstacles/0/distance", "exact", "grid");
  o["distance"] = "exact";
  o["cell_size"] = 0.04;  // a grid setting without a grid
  EXPECT_SINEW_ERROR(parse_scene(scene_with(o).dump(), "grid.json", "."), "/obstacles/0", "cell_size");
}

TEST(MeshObstacleScene, AnOpenMeshIsRefusedNamingTheEntryUnlessItIsASheet) {
  nlohmann::json mesh = box_mesh(1.0, 1.0, 0.1);
  mesh["triangles"].erase(mesh["triangles"].size() - 1);
  nlohmann::json j = scene_with({{"mesh", mesh}, {"position", {0, 0, -0.1}}});
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mesh_obstacle.json", "."), "mesh_obstacle.json", "/obstacles/0/mesh",
                     "must be closed");
  j["obstacles"][0]["open"] = true;  // a two-sided sheet: any mesh
  EXPECT_NO_THROW(parse_scene(j.dump(), "mesh_obstacle.json", "."));
  j["obstacles"][0]["distance"] = "grid";
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mesh_obstacle.json", "."), "/obstacles/0/distance", "closed mesh");
}

// An open sheet from a scene file: a 2 x 2 m quad in the plane z = 0 holds the block as the plane does.
TEST(MeshObstacleScene, AnOpenSheetHoldsTheBlockAsAPlane) {
  const nlohmann::json plane = {
      {"shape", "half_space"}, {"point", {0, 0, 0}}, {"normal", {0, 0, 1}}, {"friction", 0.5}};
  const nlohmann::json sheet = {
      {"mesh", {{"vertices", {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}}, {"triangles", {{0, 1, 2}, {0, 2, 3}}}}},
      {"open", true},
      {"friction", 0.5}};
  const std::vector<double> a = positions_after(scene_with(plane)), b = positions_after(scene_with(sheet));
  ASSERT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  EXPECT_LT(worst, 1e-9);
}

// A multibody scene: a rigid box sliding and an FEM block falling 1 mm onto the obstacle, whose
// top is the plane z = 0, Newton contact.
nlohmann::json multibody_with(const nlohmann::json& obstacle) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 30, "time_step": 0.005,
    "bodies": [
      {"type": "rigid", "name": "box", "shape": {"type": "box", "half_extents": [0.05, 0.04, 0.03]}, "mass": 1.0,
       "position": [-0.3, 0.1, 0.0305], "rotation": {"axis": [0, 0, 1], "degrees": 17}, "velocity": [0.8, 0, 0]},
      {"type": "deformable", "name": "block", "mesh": {"box": {"min": [0.2, 0, 0.001], "max": [0.3, 0.1, 0.051], "cells": [2, 2, 1]}},
       "material": {"model": "corotational", "youngs_modulus": 1e5, "poisson_ratio": 0.3}, "density": 500}
    ],
    "contact": {"mu": 0.5},
    "integrator": {"type": "contact_step", "solver": {"type": "newton", "stop": {"tolerance": 1e-13}}}
  })");
  j["obstacles"] = nlohmann::json::array({obstacle});
  return j;
}

std::vector<double> multibody_positions_after(const nlohmann::json& j, const std::filesystem::path& dir = ".") {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  std::unique_ptr<Simulation> sim = parse_scene(j.dump(), (dir / "mesh_obstacle.json").string(), dir).make(*backend);
  for (int k = 0; k < 30; ++k) {
    const StepOutcome out = sim->step();
    EXPECT_TRUE(out.ok()) << out.message;
  }
  const Eigen::VectorXd& q = dynamic_cast<MultibodySimulation&>(*sim).state().q;
  return std::vector<double>(q.data(), q.data() + q.size());
}

// The analytic box, its mesh written in the scene and in an .obj file, and its grid: the same
// trajectories of a rigid box and an FEM block.
TEST(MeshObstacleScene, ABoxMeshMovesMultibodyBodiesAsTheAnalyticBox) {
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sinew_multibody_mesh_obstacle_test";
  std::filesystem::create_directories(dir);
  const nlohmann::json inline_mesh = box_mesh(1.0, 1.0, 0.1);
  TriangleMesh obj;
  for (const auto& v : inline_mesh["vertices"]) obj.vertices.push_back(Vec3{{v[0], v[1], v[2]}});
  for (const auto& t : inline_mesh["triangles"]) obj.triangles.push_back({t[0], t[1], t[2]});
  write_obj(obj, dir / "box.obj");
  const nlohmann::json analytic = {{"shape", "box"},
                                   {"half_extents", {1.0, 1.0, 0.1}},
                                   {"position", {0.05, 0.05, -0.1}},
                                   {"rotation", {{"axis", {0, 0, 1}}, {"degrees", 8.0}}}};
  nlohmann::json mesh = analytic;
  mesh.erase("shape");
  mesh.erase("half_extents");
  mesh["mesh"] = inline_mesh;
  nlohmann::json file = mesh;
  file["mesh"] = {{"file", "box.obj"}};
  nlohmann::json grid = mesh;
  grid["distance"] = "grid";
  grid["cell_size"] = 0.05;
  const std::vector<double> a = multibody_positions_after(multibody_with(analytic));
  for (const nlohmann::json& other : {mesh, file, grid}) {
    const std::vector<double> b = multibody_positions_after(multibody_with(other), dir);
    ASSERT_EQ(a.size(), b.size());
    double worst = 0.0;
    for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
    EXPECT_LT(worst, 1e-9) << other.dump();
  }
  EXPECT_GT(a[0], -0.3 + 0.05) << "the box slid along x";
}

// Multibody mesh obstacles take the local-global ones' keys and errors; an open sheet holds the
// bodies as the plane does.
TEST(MeshObstacleScene, MultibodyMeshObstaclesAreCheckedLikeTheLocalGlobalOnes) {
  nlohmann::json open = box_mesh(1.0, 1.0, 0.1);
  open["triangles"].erase(open["triangles"].size() - 1);
  nlohmann::json j = multibody_with({{"mesh", open}, {"position", {0, 0, -0.1}}});
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "mb.json", "/obstacles/0/mesh", "must be closed");
  j["obstacles"][0]["open"] = true;
  j["obstacles"][0]["distance"] = "grid";
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "/obstacles/0/distance", "closed mesh");
  j["obstacles"][0] = {{"mesh", box_mesh(1.0, 1.0, 0.1)}, {"distance", "grid"}, {"padding", 0}};
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "/obstacles/0/padding");
  j["obstacles"][0] = {{"mesh", box_mesh(1.0, 1.0, 0.1)}, {"cell_size", 0.04}};  // without a grid
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "/obstacles/0", "cell_size");
  j["obstacles"][0] = {{"mesh", {{"file", "missing.obj"}}}};
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "/obstacles/0/mesh", "missing.obj");
  j["obstacles"][0] = {{"mesh", box_mesh(1.0, 1.0, 0.1)}, {"shape", "box"}};
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "mb.json", "."), "/obstacles/0", "shape");

  const nlohmann::json plane = {{"shape", "half_space"}, {"point", {0, 0, 0}}, {"normal", {0, 0, 1}}};
  const nlohmann::json sheet = {
      {"mesh", {{"vertices", {{-1, -1, 0}, {1, -1, 0}, {1, 1, 0}, {-1, 1, 0}}}, {"triangles", {{0, 1, 2}, {0, 2, 3}}}}},
      {"open", true}};
  const std::vector<double> a = multibody_positions_after(multibody_with(plane)),
                            b = multibody_positions_after(multibody_with(sheet));
  ASSERT_EQ(a.size(), b.size());
  double worst = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) worst = std::max(worst, std::abs(a[k] - b[k]));
  EXPECT_LT(worst, 1e-9);
}

}  // namespace
}  // namespace sinew::scene::scene_mesh_obstacle_test
