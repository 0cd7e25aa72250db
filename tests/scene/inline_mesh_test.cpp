// Meshes written in a scene file ("vertices" with "tets" or "triangles"): a solid given inline is
// the procedural box it copies, bit for bit, and bad inline meshes are refused naming the entry.
#include <gtest/gtest.h>
#include <nlohmann/json.hpp>

#include <memory>
#include <sstream>
#include <string>

#include "expect_error.hpp"
#include "sinew/core/serial_backend.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_inline_mesh_test {
namespace {

nlohmann::json scene_with(const nlohmann::json& mesh) {
  nlohmann::json j = nlohmann::json::parse(R"({
    "sinew_scene": 1, "kind": "multibody", "steps": 10, "time_step": 0.001,
    "bodies": [{"type": "deformable", "name": "cube",
                "material": {"model": "corotational", "youngs_modulus": 1e5, "poisson_ratio": 0.3}, "density": 1000}],
    "obstacles": [{"shape": "half_space", "normal": [0, 0, 1]}],
    "contact": {"mu": 0.5},
    "integrator": {"type": "contact_step", "solver": {"type": "pgs", "stop": {"tolerance": 1e-8}}}
  })");
  j["bodies"][0]["mesh"] = mesh;
  return j;
}

std::string state_after_steps(const nlohmann::json& j, int steps) {
  const std::unique_ptr<Backend> backend = make_serial_backend();
  std::unique_ptr<Simulation> sim = parse_scene(j.dump(), "inline.json", ".").make(*backend);
  for (int k = 0; k < steps; ++k) EXPECT_TRUE(sim->step().ok());
  std::ostringstream out;
  sim->save(out);
  return out.str();
}

TEST(InlineMesh, TetsWrittenInTheFileAreTheBoxTheyCopy) {
  const Vec3 lo{{0.0, 0.0, 0.01}}, hi{{0.1, 0.1, 0.11}};
  const TetMesh box = box_tet_mesh(lo, hi, 2, 2, 2);
  nlohmann::json vertices = nlohmann::json::array(), tets = nlohmann::json::array();
  for (const Vec3& v : box.vertices) vertices.push_back({v[0], v[1], v[2]});
  for (const auto& t : box.tets) tets.push_back({t[0], t[1], t[2], t[3]});
  const nlohmann::json procedural = {
      {"box", {{"min", {lo[0], lo[1], lo[2]}}, {"max", {hi[0], hi[1], hi[2]}}, {"cells", {2, 2, 2}}}}};
  const nlohmann::json written = {{"vertices", vertices}, {"tets", tets}};
  EXPECT_EQ(state_after_steps(scene_with(written), 20), state_after_steps(scene_with(procedural), 20));
}

TEST(InlineMesh, BadInlineMeshesAreRefused) {
  const nlohmann::json v = {{0, 0, 0}, {1, 0, 0}, {0, 1, 0}, {0, 0, 1}};
  EXPECT_SINEW_ERROR(parse_scene(scene_with({{"vertices", v}, {"tets", {{0, 1, 2, 4}}}}).dump(), "bad.json", "."),
                     "bad.json", "/tets", "entry 0: expected 4 vertex indices in [0, 4)");
  EXPECT_SINEW_ERROR(parse_scene(scene_with({{"vertices", v}, {"tets", {{0, 2, 1, 3}}}}).dump(), "bad.json", "."),
                     "bad.json");  // negatively oriented
  EXPECT_SINEW_ERROR(
      parse_scene(scene_with({{"vertices", v}, {"tets", {{0, 1, 2, 3}}}, {"triangles", {{0, 1, 2}}}}).dump(),
                  "bad.json", "."),
      "\"tets\" or \"triangles\", not both");
  EXPECT_SINEW_ERROR(parse_scene(scene_with({{"vertices", v}}).dump(), "bad.json", "."), "/vertices",
                     "expected a solid mesh");  // no cells: read as a membrane, which a solid body refuses
}

}  // namespace
}  // namespace sinew::scene::scene_inline_mesh_test
