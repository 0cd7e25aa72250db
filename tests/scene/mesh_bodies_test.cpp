// Rigid bodies with triangle-mesh shapes (issue 21): the mass properties of a closed mesh against
// closed forms (boxes, an L-shaped prism by parts) and moved frames, the refusal of open and
// inward meshes, and mesh bodies in scene files (OBJ files, meshes written in the file) whose
// inertia, origin, contact surface and output follow from the mesh.
#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/mesh_inertia.hpp"
#include "sinew/scene/mesh_io.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::mesh_bodies_test {
namespace {

// The boundary of the box [lo, hi] split into cells (interior vertices kept, unreferenced).
TriangleMesh box_surface(const Vec3& lo, const Vec3& hi, int n) {
  return boundary_triangles(box_tet_mesh(lo, hi, n, n + 1, n));
}

// Inertia of a uniform box of volume V and edge lengths a, b, c per unit density, about its centre.
Mat3 box_inertia_per_density(double a, double b, double c) {
  const double v = a * b * c;
  return Mat3{{v * (b * b + c * c) / 12, 0, 0, 0, v * (a * a + c * c) / 12, 0, 0, 0, v * (a * a + b * b) / 12}};
}

double max_abs_diff(const Mat3& a, const Mat3& b) {
  double d = 0.0;
  for (int i = 0; i < 9; ++i) d = std::max(d, std::abs(a.m[i] - b.m[i]));
  return d;
}

TEST(MeshMassProperties, ABoxMeshHasTheBoxsVolumeCentroidAndInertia) {
  const Vec3 lo{{0.3, -0.2, 1.0}}, hi{{0.7, 0.4, 1.2}};
  const MeshMassProperties p = mesh_mass_properties(box_surface(lo, hi, 2), "box");
  EXPECT_NEAR(p.volume, 0.4 * 0.6 * 0.2, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(p.centroid[i], 0.5 * (lo[i] + hi[i]), 1e-14);
  EXPECT_LT(max_abs_diff(p.inertia, box_inertia_per_density(0.4, 0.6, 0.2)), 1e-16);
}

TEST(MeshMassProperties, AMovedMeshHasTheMovedCentroidAndRotatedInertia) {
  // An L-shaped prism (a 0.3 x 0.1 x 0.1 bar with a 0.1 x 0.2 x 0.1 leg on its end: two boxes, by
  // the parallel-axis theorem), then the same mesh turned and moved: c -> R c + t, I -> R I R^T.
  TriangleMesh l;
  l.vertices = {{{0, 0, 0}},       {{0.3, 0, 0}},     {{0.3, 0.1, 0}},   {{0.1, 0.1, 0}},
                {{0.1, 0.3, 0}},   {{0, 0.3, 0}},     {{0, 0, 0.1}},     {{0.3, 0, 0.1}},
                {{0.3, 0.1, 0.1}}, {{0.1, 0.1, 0.1}}, {{0.1, 0.3, 0.1}}, {{0, 0.3, 0.1}}};
  // Bottom and top as fans (the L's outline 0..5 is counter-clockwise seen from +z), then the sides.
  l.triangles = {{0, 3, 1}, {1, 3, 2}, {0, 5, 3}, {3, 5, 4}, {6, 7, 9}, {7, 8, 9}, {6, 9, 11}, {9, 10, 11}};
  for (Index k = 0; k < 6; ++k) {
    const Index a = k, b = (k + 1) % 6;
    l.triangles.push_back({a, b, b + 6});
    l.triangles.push_back({a, b + 6, a + 6});
  }
  const MeshMassProperties p = mesh_mass_properties(l, "L");
  const double v1 = 0.3 * 0.1 * 0.1, v2 = 0.1 * 0.2 * 0.1;
  const Vec3 c1{{0.15, 0.05, 0.05}}, c2{{0.05, 0.2, 0.05}};
  const Vec3 c = (1.0 / (v1 + v2)) * (v1 * c1 + v2 * c2);
  EXPECT_NEAR(p.volume, v1 + v2, 1e-15);
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(p.centroid[i], c[i], 1e-15);
  // Parallel axis: I = I_c + V (|d|^2 I - d d^T) for each part, d its centre from the centroid.
  Mat3 expected{};
  for (const auto& [v, ci, I] : {std::make_tuple(v1, c1, box_inertia_per_density(0.3, 0.1, 0.1)),
                                 std::make_tuple(v2, c2, box_inertia_per_density(0.1, 0.2, 0.1))}) {
    const Vec3 d = ci - c;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) expected(i, j) += I(i, j) + v * ((i == j ? dot(d, d) : 0.0) - d[i] * d[j]);
  }
  EXPECT_LT(max_abs_diff(p.inertia, expected), 1e-17);
  EXPECT_GT(std::abs(p.inertia(0, 1)), 1e-6) << "the L has a product of inertia";

  const Mat3 R = rotation_matrix(quat_from_axis_angle(Vec3{{0.48, 0.6, 0.64}}, 1.1));
  const Vec3 t{{2.0, -1.0, 0.5}};
  TriangleMesh moved = l;
  for (Vec3& x : moved.vertices) x = R * x + t;
  const MeshMassProperties q = mesh_mass_properties(moved, "moved L");
  EXPECT_NEAR(q.volume, p.volume, 1e-15);
  const Vec3 cm = R * p.centroid + t;
  for (int i = 0; i < 3; ++i) EXPECT_NEAR(q.centroid[i], cm[i], 1e-14);
  EXPECT_LT(max_abs_diff(q.inertia, R * p.inertia * transpose(R)), 1e-17);
  // The body's spatial inertia: mass m fills the volume.
  const SpatialInertia I = mesh_inertia(p, 7.0);
  EXPECT_EQ(I.mass, 7.0);
  EXPECT_NEAR(I.J(0, 1), 7.0 / p.volume * p.inertia(0, 1), 1e-15);
}

TEST(MeshMassProperties, OpenAndInwardMeshesAreRefused) {
  TriangleMesh box = box_surface(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 1);
  TriangleMesh open = box;
  open.triangles.pop_back();
  EXPECT_SINEW_ERROR(mesh_mass_properties(open, "lid"), "lid: edge", "has no triangle on its other side");
  TriangleMesh inward = box;
  for (auto& t : inward.triangles) std::swap(t[1], t[2]);
  EXPECT_SINEW_ERROR(mesh_mass_properties(inward, "inside out"), "inside out: the enclosed volume is -1",
                     "these face inward");
  TriangleMesh flipped = box;
  std::swap(flipped.triangles[0][1], flipped.triangles[0][2]);
  EXPECT_SINEW_ERROR(mesh_mass_properties(flipped, "flipped"), "is used in the same direction by triangles");
  EXPECT_SINEW_ERROR(mesh_mass_properties(TriangleMesh{}, "empty"), "empty: the mesh has no triangles");
}

// A scene with one rigid body of shape @p shape (2 kg) resting on the floor and a cube of FEM.
nlohmann::json mesh_scene(const nlohmann::json& shape) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 10, "time_step": 0.005,
    "bodies": [
      {"type": "rigid", "name": "part", "mass": 2.0, "position": [0, 0, 0.2]},
      {"type": "deformable", "name": "cube", "mesh": {"box": {"min": [-0.05, -0.05, 0.4], "max": [0.05, 0.05, 0.5],
       "cells": [1, 1, 1]}}, "material": {"model": "corotational", "youngs_modulus": 1e5}, "density": 500}
    ],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
    "contact": {"mu": 0.5},
    "integrator": {"type": "contact_step", "solver": {"type": "newton", "stop": {"tolerance": 1e-10}}}
  })");
  j["bodies"][0]["shape"] = shape;
  return j;
}

TEST(MeshBodiesInSceneFiles, AnObjShapeGivesTheBodyItsMeshsInertiaAndSurface) {
  // The box [0, 0.4] x [0, 0.2] x [0, 0.1], scaled by 0.5 in the scene: its centroid is the body
  // origin, its inertia the box's.
  const std::filesystem::path dir = std::filesystem::temp_directory_path() / "sinew_mesh_bodies_test";
  std::filesystem::create_directories(dir);
  const TriangleMesh part = box_surface(Vec3{{0, 0, 0}}, Vec3{{0.4, 0.2, 0.1}}, 1);
  write_obj(part, dir / "part.obj");
  const nlohmann::json shape = {{"type", "mesh"}, {"mesh", {{"file", "part.obj"}, {"scale", 0.5}}}};
  const SceneFile f = parse_scene(mesh_scene(shape).dump(), (dir / "part.json").string(), dir);
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = f.make(*backend);
  const MultibodySimulation& m = dynamic_cast<const MultibodySimulation&>(*sim);
  const model::MechanicalSystem& sys = *m.scene().scene.system;
  const SpatialInertia& I = sys.body(0).inertia;
  EXPECT_EQ(I.mass, 2.0);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(I.com[i], 0.0);
  EXPECT_LT(max_abs_diff(I.J, (2.0 / (0.2 * 0.1 * 0.05)) * box_inertia_per_density(0.2, 0.1, 0.05)), 1e-15);
  // Output draws the mesh at the body's pose: its triangles around the origin (0, 0, 0.2).
  bool drawn = false;
  for (const OutputMesh& out : sim->output_meshes())
    if (out.name == "part") {
      drawn = true;
      EXPECT_EQ(out.frame.triangles.size(), part.triangles.size());
      double lowest = 1e300;
      for (std::size_t i = 2; i < out.frame.points.size(); i += 3) lowest = std::min(lowest, out.frame.points[i]);
      EXPECT_NEAR(lowest, 0.2 - 0.025, 1e-15);
    }
  EXPECT_TRUE(drawn);
  // It falls onto the floor through its vertices (contact points against the half-space).
  for (int k = 0; k < 60; ++k) ASSERT_TRUE(sim->step().ok());
  EXPECT_NEAR(m.scene().scene.body_position(0)[2], 0.025, 1e-3);
  std::filesystem::remove_all(dir);
}

TEST(MeshBodiesInSceneFiles, BadMeshesNameTheirPath) {
  const nlohmann::json tri = {{0, 2, 1}, {0, 1, 3}, {0, 3, 2}, {1, 2, 3}};
  const nlohmann::json vertices = {{0, 0, 0}, {0.1, 0, 0}, {0, 0.1, 0}, {0, 0, 0.1}};
  nlohmann::json shape = {{"type", "mesh"}, {"mesh", {{"vertices", vertices}, {"triangles", tri}}}};
  EXPECT_NO_THROW(parse_scene(mesh_scene(shape).dump(), "mesh.json", "."));  // a closed tetrahedron
  nlohmann::json open = shape;
  open["mesh"]["triangles"].erase(3);
  EXPECT_SINEW_ERROR(parse_scene(mesh_scene(open).dump(), "mesh.json", "."), "mesh.json", "/bodies/0/shape",
                     "its mesh: edge", "has no triangle on its other side");
  nlohmann::json bad_index = shape;
  bad_index["mesh"]["triangles"][2] = {0, 3, 4};
  EXPECT_SINEW_ERROR(parse_scene(mesh_scene(bad_index).dump(), "mesh.json", "."), "/bodies/0/shape/mesh/triangles",
                     "entry 2: expected 3 vertex indices in [0, 4)");
  nlohmann::json bad_point = shape;
  bad_point["mesh"]["vertices"][1] = {0.1, 0};
  EXPECT_SINEW_ERROR(parse_scene(mesh_scene(bad_point).dump(), "mesh.json", "."), "/bodies/0/shape/mesh/vertices",
                     "entry 1: expected a point [x, y, z]");
  nlohmann::json missing = shape;
  missing["mesh"] = {{"file", "nowhere.obj"}};
  EXPECT_SINEW_ERROR(parse_scene(mesh_scene(missing).dump(), "mesh.json", "."), "/bodies/0/shape/mesh/file",
                     "does not exist");
  nlohmann::json solid = shape;
  solid["mesh"] = {{"box", {{"min", {0, 0, 0}}, {"max", {1, 1, 1}}, {"cells", {1, 1, 1}}}}};
  EXPECT_SINEW_ERROR(parse_scene(mesh_scene(solid).dump(), "mesh.json", "."), "/bodies/0/shape/mesh",
                     "expected a membrane mesh");
}

}  // namespace
}  // namespace sinew::scene::mesh_bodies_test
