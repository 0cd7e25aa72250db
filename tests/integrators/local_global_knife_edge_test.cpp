// Knife edges without thickness in the local-global step (LocalGlobalDescription::
// obstacle_features, obstacle_features.hpp): a blade, an open sheet standing on its rim between
// two rows of a soft block's vertices, pressed 2 mm into the block's top and held there. With the
// obstacle's sharp vertices and edges touching the block's surface triangles and edges, the
// surface stays under the blade's edge (to 1e-6 m, no contact thickness); with only the block's
// vertices touching the obstacle, the blade passes between them into the block. A checkpoint
// keeps the feature contacts' warm start: the resumed run is the same bit for bit.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <sstream>
#include <vector>

#include "flat_tet_mesh.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_knife_edge_test {
namespace {

constexpr double kTop = 0.05;             // the block's top, z
constexpr double kBladeY = 0.0375;        // the blade's plane, between the vertex rows y = 0.025 and 0.05
constexpr double kX0 = 0.03, kX1 = 0.07;  // the blade's ends, inside the top face's triangles

struct Pressed {
  double penetration;  // the most the blade's edge lies below the block's top surface (m)
  std::size_t feature_contacts;
  bool resumed_bitwise;  // a run restored from a checkpoint at step 30 ends with the same bits
};

// The height of the block's deformed top surface at (x, y): the top triangles (rest z = kTop),
// found by their projection on the xy plane; -inf where none holds the point.
double surface_height(const std::vector<double>& rest, const std::vector<double>& q, const TetSurfaces& s, double x,
                      double y) {
  for (const auto& t : s.triangles) {
    auto top = [&](Index v) { return std::abs(rest[3 * v + 2] - kTop) < 1e-12; };
    if (!(top(t[0]) && top(t[1]) && top(t[2]))) continue;
    auto p = [&](int k, int c) { return q[3 * t[k] + c]; };
    const double d = (p(1, 0) - p(0, 0)) * (p(2, 1) - p(0, 1)) - (p(2, 0) - p(0, 0)) * (p(1, 1) - p(0, 1));
    const double b1 = ((x - p(0, 0)) * (p(2, 1) - p(0, 1)) - (p(2, 0) - p(0, 0)) * (y - p(0, 1))) / d;
    const double b2 = ((p(1, 0) - p(0, 0)) * (y - p(0, 1)) - (x - p(0, 0)) * (p(1, 1) - p(0, 1))) / d;
    if (b1 < -1e-12 || b2 < -1e-12 || b1 + b2 > 1.0 + 1e-12) continue;
    return (1.0 - b1 - b2) * p(0, 2) + b1 * p(1, 2) + b2 * p(2, 2);
  }
  return -HUGE_VAL;
}

// A soft block (0.1 x 0.1 x 0.05 m, 4 x 4 x 2 cubes, E = 1e5 Pa) on the floor; the blade (a
// 4 cm x 5 cm sheet in the plane y = kBladeY, its edge 2 mm above the top) moves down 4 mm in
// 0.2 s, then stays 0.2 s while the block settles.
Pressed press(bool features) {
  const test::FlatTetMesh m = test::flat_box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.1, 0.1, kTop}}, 4, 4, 2);
  LocalGlobalDescription d;
  d.rest_positions = m.x;
  d.tets = m.tets;
  d.model = MaterialModel::kArap;
  d.elastic = {1e5, 0.3};
  d.density = 1000.0;
  d.time_step = 0.005;
  d.obstacle_features = features;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  const double edge = kTop + 0.002;
  const std::vector<Vec3> blade = {Vec3{{kX0, kBladeY, edge}}, Vec3{{kX1, kBladeY, edge}},
                                   Vec3{{kX1, kBladeY, edge + 0.05}}, Vec3{{kX0, kBladeY, edge + 0.05}}};
  Obstacle knife = mesh_obstacle(blade, {{0, 1, 2}, {0, 2, 3}}, identity_pose(), 0.0, MeshSides::kTwoSided);
  knife.motion.linear = Vec3{{0, 0, -0.02}};
  d.obstacles.push_back(knife);
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d), resumed(*backend, d);
  Pressed out{0.0, 0, false};
  for (int s = 0; s < 80; ++s) {
    if (s == 30) {
      std::stringstream saved;
      lg.save(saved);
      resumed.restore(saved);
    }
    if (s == 40) {  // 4 mm down: stop
      lg.set_obstacle(1, lg.obstacles()[1].pose, Motion{});
      resumed.set_obstacle(1, resumed.obstacles()[1].pose, Motion{});
    }
    if (s >= 30) {
      EXPECT_TRUE(resumed.step().ok());
    }
    const LocalGlobalReport r = lg.step();
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) break;
    out.feature_contacts = static_cast<std::size_t>(
        std::count(r.contact_triangle.begin(), r.contact_triangle.begin() + static_cast<long>(r.contacts), -3));
  }
  const double blade_z = lg.obstacles()[1].pose.translation[2] + edge;
  const std::vector<double> q = lg.positions(), q_resumed = resumed.positions();
  out.resumed_bitwise = std::memcmp(q.data(), q_resumed.data(), q.size() * sizeof(double)) == 0;
  const TetSurfaces surfaces = tet_surfaces(m.tets, static_cast<Index>(m.x.size() / 3));
  for (int k = 0; k <= 40; ++k) {
    const double x = kX0 + (kX1 - kX0) * k / 40.0;
    out.penetration = std::max(out.penetration, surface_height(m.x, q, surfaces, x, kBladeY) - blade_z);
  }
  std::printf("blade pressed 2 mm into a block, %s: its edge %.3e m below the surface, %zu feature contacts\n",
              features ? "obstacle features on" : "vertices only", out.penetration, out.feature_contacts);
  return out;
}

TEST(LocalGlobalKnifeEdge, ABladeIsHeldByTheSurfaceAndPassesBetweenVerticesWithoutIt) {
  const Pressed held = press(true), through = press(false);
  EXPECT_GT(held.feature_contacts, 0u);
  EXPECT_LT(held.penetration, 1e-6);
  EXPECT_EQ(through.feature_contacts, 0u);
  EXPECT_GT(through.penetration, 1e-3);  // most of the 2 mm
  EXPECT_TRUE(held.resumed_bitwise);
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_knife_edge_test
