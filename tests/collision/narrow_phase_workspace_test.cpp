// NarrowPhaseWorkspace: reused buffers give the same contacts as a fresh call, in the same order,
// and keep their storage (no reallocation) on repeated calls with unchanged topology.
#include "sinew/collision/narrow_phase_workspace.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "collision_test_util.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace sinew::collision_narrow_phase_workspace_test {
namespace {

// Every field of both sets, exactly: the workspace must not change a bit of the output.
void expect_same_contacts(const ContactSet& x, const ContactSet& y) {
  EXPECT_EQ(x.kind, y.kind);
  EXPECT_EQ(x.object_a, y.object_a);
  EXPECT_EQ(x.object_b, y.object_b);
  EXPECT_EQ(x.vertices, y.vertices);
  EXPECT_EQ(x.weights, y.weights);
  EXPECT_EQ(x.point_a, y.point_a);
  EXPECT_EQ(x.point_b, y.point_b);
  EXPECT_EQ(x.gap, y.gap);
  EXPECT_EQ(x.frame, y.frame);
}

// A cloth folded over itself (self-contact) and a second, wavy cloth just above its lower half.
struct Scene {
  test::Cloth a, b;
  explicit Scene(unsigned seed) {
    test::Rng rng(seed);
    a = test::make_cloth(40, 30, 1.0, 0.8, 0.0);
    b = test::make_cloth(35, 33, 0.9, 0.9, 0.0);
    for (Vec3& x : a.x) x[2] += 0.01 * std::sin(9 * x[0]) + rng.uniform(-0.003, 0.003);
    for (Vec3& x : b.x) x = v3::add(x, v3::make(0.05, -0.05, 0.012 + rng.uniform(-0.01, 0.01)));
  }
  void move(double t) {
    for (Vec3& x : b.x) x[2] += 0.004 * std::sin(7 * x[0] + t);
  }
};

// Storage of every buffer of the workspace, to check it is reused rather than reallocated.
std::vector<const void*> storage(const NarrowPhaseWorkspace& ws) {
  std::vector<const void*> s;
  for (const NarrowPhaseWorkspace::Query* q : {&ws.vertex_a_triangle_b, &ws.vertex_b_triangle_a, &ws.edge_edge}) {
    s.insert(s.end(),
             {q->broad.get(), q->boxes.data(), q->query_boxes.data(), q->query_vertices.data(), q->pairs.data()});
  }
  s.insert(s.end(), {ws.triangles_a.data(), ws.triangles_b.data(), ws.edges_a.data(), ws.edges_b.data(),
                     ws.chunk_contacts.data()});
  for (const auto& part : ws.chunk_contacts) s.push_back(part.data());
  return s;
}

TEST(NarrowPhaseWorkspace, RepeatedCallsReuseStorageAndGiveTheSameContacts) {
  Scene s(3);
  const MeshInstance ma{0, &s.a.x, &s.a.tri}, mb{1, &s.b.x, &s.b.tri, Index(s.a.x.size())};
  const auto np = make_narrow_phase();
  NarrowPhaseWorkspace ws;
  ContactSet first, again, fresh;
  np->mesh_mesh_contacts(ma, mb, 0.02, ws, first);
  np->mesh_mesh_contacts(ma, mb, 0.02, fresh);
  ASSERT_GT(first.size(), 1000);  // several chunks of 1024 candidates
  expect_same_contacts(first, fresh);
  EXPECT_GT(ws.vertex_a_triangle_b.pairs.size(), 0u);
  EXPECT_GT(ws.vertex_b_triangle_a.pairs.size(), 0u);
  EXPECT_GT(ws.edge_edge.pairs.size(), 0u);
  EXPECT_GT(ws.edges_b.size(), 0u);

  const std::vector<const void*> before = storage(ws);
  const size_t pair_capacity = ws.edge_edge.pairs.capacity();
  const void* out_storage = first.gap.data();
  first.clear();
  np->mesh_mesh_contacts(ma, mb, 0.02, ws, first);
  EXPECT_EQ(storage(ws), before);
  EXPECT_EQ(ws.edge_edge.pairs.capacity(), pair_capacity);
  EXPECT_EQ(first.gap.data(), out_storage);  // a cleared ContactSet keeps its storage too
  expect_same_contacts(first, fresh);

  // Moving meshes: the refitted broad phases find what a fresh narrow phase finds.
  for (int step = 1; step <= 4; ++step) {
    s.move(step);
    again.clear();
    fresh.clear();
    np->mesh_mesh_contacts(ma, mb, 0.02, ws, again);
    np->mesh_mesh_contacts(ma, mb, 0.02, fresh);
    ASSERT_GT(fresh.size(), 0);
    expect_same_contacts(again, fresh);
  }
}

TEST(NarrowPhaseWorkspace, SelfContactAndChangedTopologyAndOtherNarrowPhase) {
  Scene s(5);
  const MeshInstance ma{0, &s.a.x, &s.a.tri}, mb{1, &s.b.x, &s.b.tri, Index(s.a.x.size())};
  const MeshInstance ms{2, &s.b.x, &s.b.tri};
  // Fold b onto itself so that its self-contact is not empty.
  for (Vec3& x : s.b.x) {
    if (x[0] > 0.5) x = v3::make(1.0 - x[0], x[1], x[2] + 0.01);
  }
  const auto bvh = make_narrow_phase("table", NarrowPhaseOptions{"bvh", {}});
  const auto hash = make_narrow_phase("table", NarrowPhaseOptions{"hash", {}});
  NarrowPhaseWorkspace ws;
  // One workspace, alternately self-contact, a mesh pair, and another narrow phase: every result
  // equals that of a fresh call (the workspace rebuilds what no longer fits).
  for (int round = 0; round < 2; ++round) {
    for (const NarrowPhase* np : {bvh.get(), hash.get()}) {
      ContactSet with, without;
      np->mesh_mesh_contacts(ms, ms, 0.015, ws, with);
      np->mesh_mesh_contacts(ms, ms, 0.015, without);
      EXPECT_GT(without.size(), 100);
      expect_same_contacts(with, without);
      with.clear();
      without.clear();
      np->mesh_mesh_contacts(ma, mb, 0.02, ws, with);
      np->mesh_mesh_contacts(ma, mb, 0.02, without);
      EXPECT_GT(without.size(), 100);
      expect_same_contacts(with, without);
    }
  }
  // A smaller mesh in the same workspace (fewer primitives: a rebuild, not a refit).
  const test::Cloth small = test::make_cloth(6, 5, 0.3, 0.3, 0.005);
  const MeshInstance mc{3, &small.x, &small.tri, 10000};
  ContactSet with, without;
  bvh->mesh_mesh_contacts(ma, mc, 0.02, ws, with);
  bvh->mesh_mesh_contacts(ma, mc, 0.02, without);
  EXPECT_GT(without.size(), 10);
  expect_same_contacts(with, without);
}

}  // namespace
}  // namespace sinew::collision_narrow_phase_workspace_test
