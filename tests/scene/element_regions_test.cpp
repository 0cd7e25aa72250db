// Element regions (issue 21): a mesh file's regions (Gmsh physical groups or volume entities,
// ASCII and binary; TetGen region attributes), bodies of several materials
// (add_deformable_body with a material per tetrahedron: masses, energies, stresses), and the
// "regions" key of scene files, multibody and local-global (with the local-global bodies' own
// materials).
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <map>
#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "local_global_scene_file.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "sinew/scene/mesh_io.hpp"
#include "sinew/scene/multibody_simulation.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::element_regions_test {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("sinew_regions_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

// Two tetrahedra sharing the face (1, 2, 3): tet 1 in volume 1 (physical group 7), tet 2 in
// volume 2 (no physical group).
const char* kTwoVolumes =
    "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n"
    "$Entities\n0 0 0 2\n1 0 0 0 1 1 1 1 7 0\n2 0 0 0 1 1 1 0 0\n$EndEntities\n"
    "$Nodes\n1 5 1 5\n3 1 0 5\n1\n2\n3\n4\n5\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n1 1 1\n$EndNodes\n"
    "$Elements\n2 2 1 2\n3 1 4 1\n1 1 2 3 4\n3 2 4 1\n2 2 3 4 5\n$EndElements\n";

// The same mesh in Gmsh's binary encoding (little-endian).
std::string two_volumes_binary() {
  std::string b = "$MeshFormat\n4.1 1 8\n";
  auto put = [&b](const auto& v) { b.append(reinterpret_cast<const char*>(&v), sizeof(v)); };
  auto i32 = [&](std::int32_t v) { put(v); };
  auto u64 = [&](std::uint64_t v) { put(v); };
  auto f64 = [&](double v) { put(v); };
  i32(1);
  b += "\n$EndMeshFormat\n$Entities\n";
  for (std::uint64_t n : {0, 0, 0, 2}) u64(n);
  for (std::int32_t tag : {1, 2}) {
    i32(tag);
    for (int k = 0; k < 6; ++k) f64(k < 3 ? 0.0 : 1.0);
    u64(tag == 1 ? 1 : 0);
    if (tag == 1) i32(7);
    u64(0);  // bounding surfaces
  }
  b += "\n$EndEntities\n$Nodes\n";
  for (std::uint64_t n : {1, 5, 1, 5}) u64(n);
  i32(3);
  i32(1);
  i32(0);
  u64(5);
  for (std::uint64_t t = 1; t <= 5; ++t) u64(t);
  for (double x : {0., 0., 0., 1., 0., 0., 0., 1., 0., 0., 0., 1., 1., 1., 1.}) f64(x);
  b += "\n$EndNodes\n$Elements\n";
  for (std::uint64_t n : {2, 2, 1, 2}) u64(n);
  const std::uint64_t tets[2][5] = {{1, 1, 2, 3, 4}, {2, 2, 3, 4, 5}};
  for (int e = 0; e < 2; ++e) {
    i32(3);
    i32(e + 1);
    i32(4);
    u64(1);
    for (std::uint64_t v : tets[e]) u64(v);
  }
  b += "\n$EndElements\n";
  return b;
}

TEST(ElementRegions, GmshGivesEachTetItsPhysicalGroupOrItsVolume) {
  const TetMesh ascii = parse_gmsh(kTwoVolumes, "two.msh");
  EXPECT_EQ(ascii.regions, (std::vector<int>{7, 2}));
  const TetMesh binary = parse_gmsh(two_volumes_binary(), "two_binary.msh");
  EXPECT_EQ(binary.regions, ascii.regions);
  EXPECT_EQ(binary.tets, ascii.tets);
  // The reference box (one volume, no physical group): every tet in volume 1, in both encodings.
  const fs::path data = SINEW_TEST_DATA;
  for (const char* f : {"gmsh_box_ascii.msh", "gmsh_box_binary.msh"}) {
    const TetMesh box = read_gmsh(data / f);
    EXPECT_EQ(box.regions, std::vector<int>(box.tets.size(), 1)) << f;
  }
  // A truncated $Entities is an error naming the file.
  std::string cut = kTwoVolumes;
  cut.replace(cut.find("1 0 0 0 1 1 1 1 7 0"), 19, "1 0 0 0 1 1");
  EXPECT_SINEW_ERROR(parse_gmsh(cut, "cut.msh"), "cut.msh:");
}

// kTwoVolumes with names: volume group 7 is "liver"; a surface group's name is not a region's.
std::string named_two_volumes() {
  std::string text = kTwoVolumes;
  text.insert(text.find("$Entities"), "$PhysicalNames\n2\n2 3 \"capsule wall\"\n3 7 \"liver\"\n$EndPhysicalNames\n");
  return text;
}

TEST(ElementRegions, GmshPhysicalNamesNameTheRegions) {
  const TetMesh ascii = parse_gmsh(named_two_volumes(), "named.msh");
  EXPECT_EQ(ascii.regions, (std::vector<int>{7, 2}));
  EXPECT_EQ(ascii.region_names, (std::map<std::string, int>{{"liver", 7}}));
  // Binary files write $PhysicalNames as ASCII lines too.
  std::string binary = two_volumes_binary();
  binary.insert(binary.find("$Entities"), "$PhysicalNames\n1\n3 7 \"left lobe\"\n$EndPhysicalNames\n");
  EXPECT_EQ(parse_gmsh(binary, "named_binary.msh").region_names, (std::map<std::string, int>{{"left lobe", 7}}));
  EXPECT_TRUE(parse_gmsh(kTwoVolumes, "two.msh").region_names.empty());
  // Unquoted names, names given twice and bad numbers are named by line.
  std::string bad = named_two_volumes();
  bad.replace(bad.find("\"liver\""), 7, "liver");
  EXPECT_SINEW_ERROR(parse_gmsh(bad, "bad.msh"), "bad.msh:7", "a physical name must be quoted");
  bad = named_two_volumes();
  bad.replace(bad.find("2 3 \"capsule wall\""), 18, "3 2 \"liver\"");
  EXPECT_SINEW_ERROR(parse_gmsh(bad, "twice.msh"), "twice.msh:7", "the volume name \"liver\" is given twice");
  bad = named_two_volumes();
  bad.replace(bad.find("3 7 \"liver\""), 3, "x 7");
  EXPECT_SINEW_ERROR(parse_gmsh(bad, "nan.msh"), "nan.msh:7", "expected integers");
}

TEST(ElementRegions, TetGenReadsTheRegionAttribute) {
  const fs::path dir = scratch("tetgen");
  write_text(dir / "t.node", "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n");
  write_text(dir / "t.ele", "2 4 1\n1 1 2 3 4 3\n2 2 3 4 5 -2\n");
  const TetMesh m = read_tetgen(dir / "t");
  EXPECT_EQ(m.regions, (std::vector<int>{3, -2}));
  write_text(dir / "t.ele", "2 4 1\n1 1 2 3 4 3\n2 2 3 4 5 1.5\n");
  EXPECT_SINEW_ERROR(read_tetgen(dir / "t"), "t.ele:3", "region attribute must be an integer");
  write_text(dir / "t.ele", "2 4 0\n1 1 2 3 4\n2 2 3 4 5\n");
  EXPECT_TRUE(read_tetgen(dir / "t").regions.empty());
  fs::remove_all(dir);
}

// A block [0, 2] x [0, 1] x [0, 1] whose tets with x < 1 are material 0, the others material 1.
struct TwoMaterialBlock {
  TetMesh mesh = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{2, 1, 1}}, 4, 2, 2);
  std::vector<Index> tet_material;
  double volume[2] = {0, 0};
  TwoMaterialBlock() {
    for (const auto& t : mesh.tets) {
      double cx = 0.0;
      for (Index v : t) cx += 0.25 * mesh.vertices[static_cast<std::size_t>(v)][0];
      tet_material.push_back(cx < 1.0 ? 0 : 1);
    }
  }
};

TEST(ElementRegions, ABodyOfTwoMaterialsHasTheirMassesEnergiesAndStresses) {
  TwoMaterialBlock b;
  const RegionMaterial soft{1000.0, MaterialModel::kLinear, {1e5, 0.0}};
  const RegionMaterial hard{3000.0, MaterialModel::kLinear, {4e5, 0.0}};
  model::MechanicalSystem sys;
  const DeformableBody body = add_deformable_body(sys, b.mesh, {soft, hard}, b.tet_material);
  ASSERT_EQ(body.fields.size(), 2u);
  EXPECT_EQ(body.field, body.fields[0]);
  EXPECT_EQ(body.fields[0]->size() + body.fields[1]->size(), static_cast<Index>(b.mesh.tets.size()));
  double mass = 0.0;
  for (Index i = 0; i < body.num_particles; ++i) mass += sys.particle(body.first_particle + i).mass;
  EXPECT_NEAR(mass, 1000.0 * 1.0 + 3000.0 * 1.0, 1e-9);  // each half has volume 1
  // Stretch along x by eps: the linear energy of each half is E eps^2 V / 2 (nu = 0), so the body's
  // is (1e5 + 4e5) eps^2 / 2 and equals the two one-material bodies' halves.
  const double eps = 1e-3;
  Eigen::VectorXd q = sys.initial_positions();
  for (Index i = 0; i < body.num_particles; ++i) q[sys.particle_position_offset(body.first_particle + i)] *= 1 + eps;
  EXPECT_NEAR(sys.potential_energy(0.0, q), (1e5 + 4e5) * eps * eps / 2, 1e-12);
  // The stress output uses each tet's material: sigma_xx = E eps.
  MultibodyScene ms;
  ms.scene.name = "two";
  const DeformableBody drawn = add_deformable_body(*ms.scene.system, b.mesh, {soft, hard}, b.tet_material);
  ms.scene.init();
  for (Index i = 0; i < drawn.num_particles; ++i)
    ms.scene.state.q[ms.scene.system->particle_position_offset(i)] *= 1 + eps;
  std::vector<Index> regions(b.tet_material);
  ms.fem_bodies.push_back({"two", 0, drawn.num_particles, b.mesh.tets, soft.model, soft.parameters, {hard}, regions});
  MultibodySimulation sim(std::move(ms), integrators::make_integrator("implicit_euler"));
  std::size_t checked = 0;
  for (const OutputMesh& m : sim.output_meshes()) {
    for (const VtuField& f : m.frame.cell_fields) {
      if (f.name != "stress") continue;
      for (std::size_t e = 0; e < f.values.size(); ++e, ++checked)
        EXPECT_NEAR(f.values[e], (b.tet_material[e] == 0 ? 1e5 : 4e5) * eps, 1e-3 * 4e5 * eps) << "tet " << e;
    }
  }
  EXPECT_EQ(checked, b.mesh.tets.size());
  // Misuse is named.
  EXPECT_SINEW_ERROR(add_deformable_body(sys, b.mesh, {soft}, b.tet_material), "has material 1",
                     "expected 0 <= material < 1");
  EXPECT_SINEW_ERROR(add_deformable_body(sys, b.mesh, {soft, hard}, {0, 1}), "2 tetrahedron materials for");
}

TEST(ElementRegions, SceneFilesGiveRegionsTheirOwnMaterial) {
  const fs::path dir = scratch("scene");
  write_text(dir / "two.msh", kTwoVolumes);
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 2, "time_step": 0.001,
    "bodies": [{"type": "deformable", "name": "two", "mesh": {"file": "two.msh"},
                "material": {"model": "corotational", "youngs_modulus": 1e5}, "density": 1000,
                "regions": [{"region": 2, "material": {"model": "stable_neo_hookean", "youngs_modulus": 1e6},
                             "density": 4000}]}],
    "integrator": {"type": "implicit_euler"}
  })");
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse_scene(j.dump(), (dir / "two.json").string(), dir).make(*backend);
  const MultibodySimulation& m = dynamic_cast<const MultibodySimulation&>(*sim);
  double mass = 0.0;
  const model::MechanicalSystem& sys = *m.scene().scene.system;
  for (Index i = 0; i < sys.num_particles(); ++i) mass += sys.particle(i).mass;
  EXPECT_NEAR(mass, 1000.0 / 6.0 + 4000.0 / 3.0, 1e-12);  // tets of volume 1/6 (region 7) and 1/3 (region 2)
  ASSERT_TRUE(sim->step().ok());
  // A region the mesh does not have, listed twice, or on a procedural mesh: named by path.
  j["bodies"][0]["regions"][0]["region"] = 5;
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "two.json", dir), "/bodies/0/regions/0/region",
                     "no tetrahedron of the mesh is in region 5; its regions: 2, 7");
  // By the name of its physical group: "liver" is group 7.
  write_text(dir / "named.msh", named_two_volumes());
  j["bodies"][0]["mesh"]["file"] = "named.msh";
  j["bodies"][0]["regions"][0]["region"] = "liver";
  sim = parse_scene(j.dump(), (dir / "two.json").string(), dir).make(*backend);
  mass = 0.0;
  for (Index i = 0; i < dynamic_cast<const MultibodySimulation&>(*sim).scene().scene.system->num_particles(); ++i)
    mass += dynamic_cast<const MultibodySimulation&>(*sim).scene().scene.system->particle(i).mass;
  EXPECT_NEAR(mass, 4000.0 / 6.0 + 1000.0 / 3.0, 1e-12);
  j["bodies"][0]["regions"][0]["region"] = "spleen";
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "two.json", dir), "/bodies/0/regions/0/region",
                     "the mesh names no region \"spleen\"; its names: \"liver\" (7)");
  j["bodies"][0]["mesh"]["file"] = "two.msh";
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "two.json", dir), "it names none");
  j["bodies"][0]["regions"][0]["region"] = 2;
  j["bodies"][0]["regions"].push_back(j["bodies"][0]["regions"][0]);
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "two.json", dir), "/bodies/0/regions/1/region", "listed twice");
  j["bodies"][0]["regions"].erase(1);
  j["bodies"][0]["mesh"] = {{"box", {{"min", {0, 0, 0}}, {"max", {1, 1, 1}}, {"cells", {1, 1, 1}}}}};
  EXPECT_SINEW_ERROR(parse_scene(j.dump(), "two.json", dir), "the mesh has no regions");
  fs::remove_all(dir);
}

// The description a local-global scene file reads into.
integrators::LocalGlobalDescription local_global_description(const nlohmann::json& j, const fs::path& dir) {
  SceneFile f;
  detail::LocalGlobalParts parts;
  detail::parse_scene_with(j.dump(), (dir / "scene.json").string(), f, [&](detail::JsonObject& root, SceneFile& out) {
    parts = detail::read_local_global_parts(root, dir, out);
  });
  return parts.scene.description;
}

// The total lumped mass of a local-global scene file's integrator.
double local_global_mass(const nlohmann::json& j, const fs::path& dir) {
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = parse_scene(j.dump(), (dir / "scene.json").string(), dir).make(*backend);
  EXPECT_TRUE(sim->step().ok());
  double mass = 0.0;
  for (double m : dynamic_cast<const LocalGlobalSimulation&>(*sim).integrator().masses()) mass += m;
  return mass;
}

// Local-global bodies of their own materials: each body's tets and triangles get its material
// (keys not given are the scene's), masses come from each body's density and thickness; a scene
// whose bodies give none keeps the single material (no index: the bits of before).
TEST(ElementRegions, LocalGlobalBodiesHaveTheirOwnMaterials) {
  const fs::path dir = scratch("lg_bodies");
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "local_global", "steps": 2, "time_step": 0.01, "density": 1000, "thickness": 0.001,
    "material": {"model": "corotational", "youngs_modulus": 2e5, "poisson_ratio": 0.35},
    "bodies": [
      {"name": "soft", "mesh": {"box": {"min": [0, 0, 0], "max": [1, 1, 1], "cells": [2, 1, 1]}}},
      {"name": "firm", "mesh": {"box": {"min": [3, 0, 0], "max": [4, 1, 2], "cells": [1, 1, 2]}},
       "material": {"model": "stable_neo_hookean", "youngs_modulus": 3e6}, "density": 2500},
      {"name": "sheet", "mesh": {"rectangle": {"min": [0, 3], "max": [2, 4], "cells": [2, 2]}},
       "thickness": 0.004, "density": 300}]
  })");
  const integrators::LocalGlobalDescription d = local_global_description(j, dir);
  ASSERT_EQ(d.materials.size(), 3u);
  EXPECT_EQ(d.materials[0].model, MaterialModel::kCorotational);  // the scene's
  EXPECT_EQ(d.materials[0].elastic.youngs_modulus, 2e5);
  EXPECT_EQ(d.materials[0].density, 1000.0);
  EXPECT_EQ(d.materials[1].model, MaterialModel::kStableNeoHookean);
  EXPECT_EQ(d.materials[1].elastic.youngs_modulus, 3e6);
  EXPECT_EQ(d.materials[1].elastic.poisson_ratio, 0.35);  // not given: the scene's
  EXPECT_EQ(d.materials[1].density, 2500.0);
  EXPECT_EQ(d.materials[2].model, MaterialModel::kCorotational);
  EXPECT_EQ(d.materials[2].thickness, 0.004);
  const std::size_t soft_tets = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 2, 1, 1).tets.size();
  ASSERT_EQ(d.tet_material.size(), d.tets.size() / 4);
  for (std::size_t e = 0; e < d.tet_material.size(); ++e) EXPECT_EQ(d.tet_material[e], e < soft_tets ? 0 : 1);
  EXPECT_EQ(d.triangle_material, std::vector<Index>(d.triangles.size() / 3, 2));
  EXPECT_NEAR(local_global_mass(j, dir), 1000.0 * 1 + 2500.0 * 2 + 300.0 * 2 * 0.004, 1e-9);  // 6002.4 kg
  // No body of its own material: one material, as before.
  for (auto& b : j["bodies"]) {
    b.erase("material");
    b.erase("density");
    b.erase("thickness");
  }
  const integrators::LocalGlobalDescription one = local_global_description(j, dir);
  EXPECT_TRUE(one.materials.empty() && one.tet_material.empty() && one.triangle_material.empty());
  EXPECT_EQ(one.model, MaterialModel::kCorotational);
  EXPECT_NEAR(local_global_mass(j, dir), 1000.0 * 3 + 1000.0 * 2 * 0.001, 1e-9);
  fs::remove_all(dir);
}

// Local-global regions: Gmsh physical groups by tag or name and TetGen region attributes map to
// materials; the other tets keep the body's. Bad keys are named by path.
TEST(ElementRegions, LocalGlobalScenesGiveRegionsTheirOwnMaterial) {
  const fs::path dir = scratch("lg_regions");
  write_text(dir / "two.msh", kTwoVolumes);
  write_text(dir / "named.msh", named_two_volumes());
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "local_global", "steps": 2, "time_step": 0.01,
    "bodies": [{"name": "two", "mesh": {"file": "two.msh"}, "density": 1000,
                "material": {"model": "arap", "youngs_modulus": 1e5},
                "regions": [{"region": 2, "material": {"model": "stable_neo_hookean", "youngs_modulus": 1e6},
                             "density": 4000}]}]
  })");
  integrators::LocalGlobalDescription d = local_global_description(j, dir);
  ASSERT_EQ(d.materials.size(), 2u);
  EXPECT_EQ(d.tet_material, (std::vector<Index>{0, 1}));  // tet 1 in group 7, tet 2 in volume 2
  EXPECT_EQ(d.materials[1].model, MaterialModel::kStableNeoHookean);
  EXPECT_EQ(d.materials[1].elastic.youngs_modulus, 1e6);
  EXPECT_EQ(d.materials[1].elastic.poisson_ratio, 0.3);  // the body's
  EXPECT_NEAR(local_global_mass(j, dir), 1000.0 / 6.0 + 4000.0 / 3.0, 1e-12);
  // By the name of its physical group: "liver" is group 7.
  j["bodies"][0]["mesh"]["file"] = "named.msh";
  j["bodies"][0]["regions"][0]["region"] = "liver";
  d = local_global_description(j, dir);
  EXPECT_EQ(d.tet_material, (std::vector<Index>{1, 0}));
  EXPECT_NEAR(local_global_mass(j, dir), 4000.0 / 6.0 + 1000.0 / 3.0, 1e-12);
  // TetGen region attributes 3 and -2, both listed: each tet its region's material.
  write_text(dir / "t.node", "5 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n5 1 1 1\n");
  write_text(dir / "t.ele", "2 4 1\n1 1 2 3 4 3\n2 2 3 4 5 -2\n");
  j["bodies"][0]["mesh"]["file"] = "t.node";
  j["bodies"][0]["regions"] = nlohmann::json::parse(R"([
    {"region": -2, "material": {"youngs_modulus": 5e5}, "density": 500},
    {"region": 3, "material": {"model": "corotational"}, "density": 3000}])");
  d = local_global_description(j, dir);
  EXPECT_EQ(d.tet_material, (std::vector<Index>{2, 1}));
  EXPECT_EQ(d.materials[1].model, MaterialModel::kArap);
  EXPECT_EQ(d.materials[1].elastic.youngs_modulus, 5e5);
  EXPECT_EQ(d.materials[2].model, MaterialModel::kCorotational);
  EXPECT_EQ(d.materials[2].elastic.youngs_modulus, 1e5);
  EXPECT_NEAR(local_global_mass(j, dir), 3000.0 / 6.0 + 500.0 / 3.0, 1e-12);

  auto expect_error = [&](const nlohmann::json& bad, const char* path, const char* what) {
    EXPECT_SINEW_ERROR(local_global_description(bad, dir), path, what);
  };
  nlohmann::json bad = j;
  bad["bodies"][0]["regions"][0].erase("material");
  expect_error(bad, "/bodies/0/regions/0/material", "expected the region's material");
  bad = j;
  bad["bodies"][0]["regions"][1]["region"] = 4;
  expect_error(bad, "/bodies/0/regions/1/region", "no tetrahedron of the mesh is in region 4; its regions: -2, 3");
  bad = j;
  bad["bodies"][0]["regions"][1]["region"] = -2;
  expect_error(bad, "/bodies/0/regions/1/region", "listed twice");
  bad = j;
  bad["bodies"][0]["regions"][0]["region"] = "liver";
  expect_error(bad, "/bodies/0/regions/0/region", "the mesh names no region \"liver\"");
  bad = j;
  bad["bodies"][0]["regions"][0]["material"]["model"] = "linear";
  expect_error(bad, "/bodies/0/regions/0/material/model", "stable_neo_hookean");
  bad = j;
  bad["bodies"][0]["regions"][0]["density"] = 0;
  expect_error(bad, "/bodies/0/regions/0/density", "> 0");
  bad = j;
  bad["bodies"][0]["regions"][0]["stiffness"] = 1;
  expect_error(bad, "/bodies/0/regions/0", "stiffness");
  bad = j;
  bad["bodies"][0]["thickness"] = 0.01;
  expect_error(bad, "/bodies/0/thickness", "a solid has no thickness");
  bad = j;
  bad["bodies"][0]["material"]["poisson_ratio"] = 0.5;
  expect_error(bad, "/bodies/0/material/poisson_ratio", "(-1, 0.5)");
  bad = j;
  bad["bodies"][0]["mesh"] = {{"rectangle", {{"min", {0, 0}}, {"max", {1, 1}}, {"cells", {1, 1}}}}};
  expect_error(bad, "/bodies/0/regions", "a membrane has one material");
  bad = j;
  bad["bodies"][0]["mesh"] = {{"box", {{"min", {0, 0, 0}}, {"max", {1, 1, 1}}, {"cells", {1, 1, 1}}}}};
  expect_error(bad, "/bodies/0/regions/0/region", "the mesh has no regions");
  fs::remove_all(dir);
}

}  // namespace
}  // namespace sinew::scene::element_regions_test
