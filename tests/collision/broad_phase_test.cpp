#include "sinew/collision/broad_phase.hpp"

#include <gtest/gtest.h>

#include <algorithm>

#include "collision_test_util.hpp"
#include "expect_error.hpp"
#include "sinew/collision/bvh.hpp"

namespace sinew::collision_broad_phase_test {
namespace {

std::vector<Aabb> random_boxes(test::Rng& rng, int n, double spread, double size) {
  std::vector<Aabb> boxes(n);
  for (Aabb& b : boxes) {
    const Vec3 lo = rng.vec(-spread, spread);
    b = Aabb{lo, v3::add(lo, v3::make(rng.uniform(0, size), rng.uniform(0, size), rng.uniform(0, size)))};
  }
  return boxes;
}

std::vector<CandidatePair> brute_self(const std::vector<Aabb>& b, double margin) {
  std::vector<CandidatePair> out;
  for (Index i = 0; i < Index(b.size()); ++i)
    for (Index j = i + 1; j < Index(b.size()); ++j)
      if (overlaps(b[i], b[j], margin)) out.push_back({i, j});
  return out;
}

std::vector<CandidatePair> brute_query(const std::vector<Aabb>& q, const std::vector<Aabb>& b, double margin) {
  std::vector<CandidatePair> out;
  for (Index i = 0; i < Index(q.size()); ++i)
    for (Index j = 0; j < Index(b.size()); ++j)
      if (overlaps(q[i], b[j], margin)) out.push_back({i, j});
  return out;
}

class BroadPhaseByName : public ::testing::TestWithParam<const char*> {};

TEST_P(BroadPhaseByName, SelfPairsMatchAllPairsOnRandomScenes) {
  test::Rng rng(41);
  size_t total = 0;
  for (int scene = 0; scene < 60; ++scene) {
    const int n = rng.integer(0, 600);
    const double margin = scene % 3 == 0 ? 0.0 : rng.uniform(0, 0.2);
    const auto boxes = random_boxes(rng, n, 2.0, rng.uniform(0.01, 0.6));
    auto bp = make_broad_phase(GetParam(), BroadPhaseOptions{rng.integer(1, 8), 2.0, 0.0});
    bp->build(boxes);
    const auto expected = brute_self(boxes, margin);
    EXPECT_EQ(bp->self_pairs(margin), expected) << "scene " << scene << " n " << n;
    total += expected.size();
  }
  EXPECT_GT(total, 5000u);  // the scenes really have overlaps
}

TEST_P(BroadPhaseByName, QueryPairsMatchAllPairs) {
  test::Rng rng(42);
  for (int scene = 0; scene < 40; ++scene) {
    const auto boxes = random_boxes(rng, rng.integer(1, 500), 2.0, 0.3);
    // Queries partly outside the primitives' bounds, some degenerate (points).
    auto queries = random_boxes(rng, rng.integer(0, 300), 3.0, scene % 2 ? 0.0 : 0.5);
    const double margin = rng.uniform(0, 0.3);
    auto bp = make_broad_phase(GetParam());
    bp->build(boxes);
    EXPECT_EQ(bp->query_pairs(queries, margin), brute_query(queries, boxes, margin)) << "scene " << scene;
  }
}

TEST_P(BroadPhaseByName, UpdateAfterMotionMatchesAllPairs) {
  test::Rng rng(43);
  auto boxes = random_boxes(rng, 800, 2.0, 0.3);
  auto bp = make_broad_phase(GetParam());
  bp->build(boxes);
  for (int step = 0; step < 10; ++step) {
    // Large random motions: the tree degrades and update() must still be exact.
    for (Aabb& b : boxes) {
      const Vec3 d = rng.vec(-0.5, 0.5);
      b = Aabb{v3::add(b.lo, d), v3::add(b.hi, d)};
    }
    bp->update(boxes);
    EXPECT_EQ(bp->self_pairs(0.05), brute_self(boxes, 0.05)) << "step " << step;
  }
}

TEST_P(BroadPhaseByName, AdjacentTrianglesAreExcluded) {
  const test::Cloth c = test::make_cloth(12, 9, 1.0, 0.8, 0.0);
  auto bp = make_broad_phase(GetParam());
  bp->build(triangle_boxes(c.x, c.tri));
  const auto pairs = bp->self_pairs(0.01, &c.tri);
  const auto all = brute_self(triangle_boxes(c.x, c.tri), 0.01);
  std::vector<CandidatePair> expected;
  for (const auto& p : all) {
    bool share = false;
    for (Index a : c.tri[p.first])
      for (Index b : c.tri[p.second]) share = share || a == b;
    if (!share) expected.push_back(p);
  }
  EXPECT_EQ(pairs, expected);
  EXPECT_LT(pairs.size(), all.size());
  for (const auto& p : pairs) {
    for (Index a : c.tri[p.first]) {
      EXPECT_EQ(std::count(c.tri[p.second].begin(), c.tri[p.second].end(), a), 0);
    }
  }
}

TEST_P(BroadPhaseByName, SameOutputWithOneAndTwoThreads) {
  test::Rng rng(44);
  const auto boxes = random_boxes(rng, 30000, 5.0, 0.2);
  const auto queries = random_boxes(rng, 5000, 5.0, 0.2);
  std::vector<CandidatePair> one, two, q1, q2;
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
#endif
    auto bp = make_broad_phase(GetParam());
    bp->build(boxes);
    one = bp->self_pairs(0.02);
    q1 = bp->query_pairs(queries, 0.02);
  }
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
#endif
    auto bp = make_broad_phase(GetParam());
    bp->build(boxes);
    two = bp->self_pairs(0.02);
    q2 = bp->query_pairs(queries, 0.02);
  }
  EXPECT_FALSE(one.empty());
  EXPECT_EQ(one, two);
  EXPECT_EQ(q1, q2);
  EXPECT_TRUE(std::is_sorted(one.begin(), one.end()));
}

TEST_P(BroadPhaseByName, BadInputIsAnError) {
  auto bp = make_broad_phase(GetParam());
  EXPECT_SINEW_ERROR(bp->self_pairs(0.1), "build() first");
  std::vector<Aabb> boxes{Aabb{v3::make(0, 0, 0), v3::make(1, 1, 1)}, Aabb{v3::make(0, 2, 0), v3::make(1, 1, 1)}};
  EXPECT_SINEW_ERROR(bp->build(boxes), "box 1", "lo <= hi", "axis 1");
  boxes[1] = Aabb{v3::make(0, 0, 0), v3::make(1, 1, 1)};
  bp->build(boxes);
  EXPECT_SINEW_ERROR(bp->update({boxes[0]}), "expected 2 boxes");
  EXPECT_SINEW_ERROR(bp->self_pairs(-1.0), "margin");
  const ElementVertices wrong(3, {0, 1, 2});
  EXPECT_SINEW_ERROR(bp->self_pairs(0.0, &wrong), "one entry per element (2)");
  EXPECT_SINEW_ERROR(bp->query_pairs(boxes, 0.0, &wrong, nullptr), "both");
}

TEST_P(BroadPhaseByName, IntoVariantsMatchTheReturningOnesAndReuseOut) {
  test::Rng rng(61);
  const test::Cloth c = test::make_cloth(12, 9, 1.0, 0.8, 0.0);
  auto bp = make_broad_phase(GetParam());
  bp->build(triangle_boxes(c.x, c.tri));
  std::vector<CandidatePair> out{{7, 7}};  // stale content must be replaced
  bp->self_pairs_into(0.01, &c.tri, out);
  EXPECT_EQ(out, bp->self_pairs(0.01, &c.tri));
  EXPECT_FALSE(out.empty());
  for (int step = 0; step < 3; ++step) {
    const auto boxes = random_boxes(rng, 400, 2.0, 0.3);
    const auto queries = random_boxes(rng, 3000, 2.0, 0.2);  // several chunks of queries
    auto moved = make_broad_phase(GetParam());
    moved->build(boxes);
    moved->self_pairs_into(0.02, nullptr, out);
    EXPECT_EQ(out, moved->self_pairs(0.02));
    moved->query_pairs_into(queries, 0.02, nullptr, nullptr, out);
    EXPECT_EQ(out, moved->query_pairs(queries, 0.02));
    EXPECT_EQ(out, brute_query(queries, boxes, 0.02));
  }
  const ElementVertices wrong(3, {0, 1, 2});
  EXPECT_SINEW_ERROR(bp->self_pairs_into(-1.0, nullptr, out), "self_pairs_into", "margin");
  EXPECT_SINEW_ERROR(bp->self_pairs_into(0.0, &wrong, out), "one entry per element");
  EXPECT_SINEW_ERROR(bp->query_pairs_into({}, 0.0, &wrong, nullptr, out), "both");
  auto unbuilt = make_broad_phase(GetParam());
  EXPECT_SINEW_ERROR(unbuilt->query_pairs_into({}, 0.0, nullptr, nullptr, out), "build() first");
}

INSTANTIATE_TEST_SUITE_P(Collision, BroadPhaseByName, ::testing::Values("bvh", "hash"));

TEST(BroadPhase, FactoryAndHelpersCheckTheirInput) {
  EXPECT_SINEW_ERROR(make_broad_phase("octree"), "unknown broad phase 'octree'", "\"bvh\"", "\"hash\"");
  EXPECT_SINEW_ERROR(make_broad_phase("bvh", BroadPhaseOptions{0, 2.0, 0.0}), "leaf_size");
  EXPECT_SINEW_ERROR(make_broad_phase("hash", BroadPhaseOptions{4, 2.0, -1.0}), "cell_size");
  const std::vector<Vec3> x{v3::make(0, 0, 0), v3::make(1, 0, 0), v3::make(0, 1, 0)};
  EXPECT_SINEW_ERROR(triangle_boxes(x, {{0, 1, 2}, {0, 1, 3}}), "triangle 1", "vertex index 3", "[0, 3)");
  EXPECT_SINEW_ERROR(edge_boxes(x, {{0, -1}}), "edge 0", "vertex index -1");
  const auto edges = mesh_edges({{0, 1, 2}, {2, 1, 3}}, 4);
  EXPECT_EQ(edges.size(), 5u);
  EXPECT_TRUE(std::is_sorted(edges.begin(), edges.end()));
}

TEST(Bvh, SameTreeWithOneAndTwoThreads) {
  test::Rng rng(46);
  const auto boxes = random_boxes(rng, 50000, 5.0, 0.1);
  Bvh one, two;
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 1);
#endif
    one.build(boxes);
  }
  {
#ifdef SINEW_TEST_HAVE_TBB
    tbb::global_control limit(tbb::global_control::max_allowed_parallelism, 2);
#endif
    two.build(boxes);
  }
  EXPECT_EQ(one.order(), two.order());
  ASSERT_EQ(one.nodes().size(), two.nodes().size());
  for (size_t i = 0; i < one.nodes().size(); ++i) {
    EXPECT_EQ(one.nodes()[i].left, two.nodes()[i].left);
    EXPECT_EQ(one.nodes()[i].count, two.nodes()[i].count);
    EXPECT_EQ(surface_area(one.nodes()[i].box), surface_area(two.nodes()[i].box));
  }
}

TEST(Bvh, TreeInvariantsAndRefitQuality) {
  test::Rng rng(45);
  auto boxes = random_boxes(rng, 5000, 3.0, 0.1);
  Bvh bvh;
  bvh.build(boxes);
  EXPECT_NEAR(bvh.quality_ratio(), 1.0, 1e-15);
  std::vector<Index> order = bvh.order();
  std::sort(order.begin(), order.end());
  for (Index i = 0; i < Index(order.size()); ++i) {
    ASSERT_EQ(order[i], i);
  }
  for (const Bvh::Node& nd : bvh.nodes()) {
    for (Index k = nd.first; k < nd.first + nd.count; ++k) {
      EXPECT_EQ(surface_area(merge(nd.box, boxes[bvh.order()[k]])), surface_area(nd.box));  // contained
    }
  }
  // Children partition the parent's primitives.
  for (const Bvh::Node& nd : bvh.nodes()) {
    if (nd.left < 0) continue;
    const Bvh::Node &l = bvh.nodes()[nd.left], &r = bvh.nodes()[nd.right];
    EXPECT_EQ(l.first, nd.first);
    EXPECT_EQ(r.first, nd.first + l.count);
    EXPECT_EQ(l.count + r.count, nd.count);
    EXPECT_EQ(surface_area(merge(nd.box, merge(l.box, r.box))), surface_area(nd.box));
  }
  // A small deformation keeps the quality near 1; scrambling the boxes degrades it.
  for (Aabb& b : boxes) b = inflate(b, 0.001);
  bvh.refit(boxes);
  EXPECT_LT(bvh.quality_ratio(), 1.1);
  std::shuffle(boxes.begin(), boxes.end(), rng.gen);
  bvh.refit(boxes);
  EXPECT_GT(bvh.quality_ratio(), 3.0);
  std::vector<Index> hits;
  bvh.query(boxes[17], 0.0, hits);
  EXPECT_NE(std::find(hits.begin(), hits.end(), 17), hits.end());
  EXPECT_SINEW_ERROR(bvh.refit({}), "expected 5000 boxes");
  EXPECT_SINEW_ERROR(bvh.build(boxes, BvhOptions{0}), "leaf_size");
}

}  // namespace
}  // namespace sinew::collision_broad_phase_test
