// Broad phase of sinew::collision on triangle meshes: BVH build, refit and self query (pairs of
// triangles whose boxes are within a contact margin), the spatial hash, brute force (small sizes)
// and FCL's dynamic AABB tree (DynamicAABBTreeCollisionManager, one box object per inflated
// triangle box, so that it answers the same query) in the same run.
//
// Meshes: a noisy cloth grid of n triangles (n = 10^4 .. 10^6), margin = half an edge; and a
// deforming cloth of ~10^4 vertices (a travelling wave) refitted and queried every step, against
// rebuilding every step and against FCL's update().
//
// cloth/self_contacts adds the narrow phase (vertex-triangle and edge-edge contacts).
//
// obstacle/*: one obstacle_distance() query (what a local-global contact vertex costs per obstacle
// and step) against a sphere of radius 1: the analytic shape, closed UV-sphere meshes of 2 x 10^2 to
// 2 x 10^4 triangles by their exact signed distance (BVH descent), and those meshes' signed-distance
// grids (one trilinear cell lookup), at 4096 points within 5 cm of the surface. Counter ns_per_query.
//
//   collision_bench [--sizes=10000,100000,1000000] [--fcl_max=100000] [--brute_max=10000]
//                   [--cloth=100] [Google Benchmark flags, e.g. --benchmark_min_time=0.05]
// Counter "pairs" is the number of pairs found: equal across methods on the same mesh.
#include <benchmark/benchmark.h>

#include <cmath>
#include <cstring>
#include <memory>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/bvh.hpp"
#include "sinew/collision/narrow_phase.hpp"
#include "sinew/collision/obstacle.hpp"

#if SINEW_HAVE_FCL
#include <fcl/broadphase/broadphase_dynamic_AABB_tree.h>
#include <fcl/geometry/shape/box.h>
#include <fcl/narrowphase/collision_object.h>
#endif

namespace {

using namespace sinew;

struct Mesh {
  std::vector<Vec3> x;
  std::vector<std::array<Index, 3>> tri;
  double edge = 1.0;
};

// A cloth grid of about n_triangles triangles on the unit square, z perturbed by 10% of an edge.
Mesh make_grid(int n_triangles, unsigned seed) {
  const int side = std::max(2, static_cast<int>(std::sqrt(n_triangles / 2.0)) + 1);
  Mesh m;
  m.edge = 1.0 / (side - 1);
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> noise(-0.1 * m.edge, 0.1 * m.edge);
  for (int j = 0; j < side; ++j)
    for (int i = 0; i < side; ++i) m.x.push_back(v3::make(i * m.edge, j * m.edge, noise(rng)));
  for (int j = 0; j + 1 < side; ++j)
    for (int i = 0; i + 1 < side; ++i) {
      const Index a = j * side + i, b = a + 1, d = a + side, e = d + 1;
      m.tri.push_back({a, b, e});
      m.tri.push_back({a, e, d});
    }
  return m;
}

// The cloth at time t: a travelling wave of amplitude 0.05.
void wave(const Mesh& rest, double t, std::vector<Vec3>& x) {
  x = rest.x;
  for (Vec3& p : x) p[2] = 0.05 * std::sin(6.0 * p[0] + t) * std::cos(4.0 * p[1] - 0.5 * t);
}

std::vector<CandidatePair> brute_self(const std::vector<Aabb>& b, double margin) {
  std::vector<CandidatePair> out;
  for (Index i = 0; i < Index(b.size()); ++i)
    for (Index j = i + 1; j < Index(b.size()); ++j)
      if (overlaps(b[i], b[j], margin)) out.push_back({i, j});
  return out;
}

void BM_build(benchmark::State& st, const char* name, int n) {
  const Mesh m = make_grid(n, 1);
  const auto boxes = triangle_boxes(m.x, m.tri);
  auto bp = make_broad_phase(name);
  for (auto _ : st) bp->build(boxes);
  st.counters["triangles"] = double(boxes.size());
}

void BM_refit(benchmark::State& st, int n) {
  const Mesh m = make_grid(n, 1);
  auto boxes = triangle_boxes(m.x, m.tri);
  Bvh bvh;
  bvh.build(boxes);
  for (auto _ : st) bvh.refit(boxes);
  st.counters["triangles"] = double(boxes.size());
}

void BM_self_query(benchmark::State& st, const char* name, int n) {
  const Mesh m = make_grid(n, 1);
  const auto boxes = triangle_boxes(m.x, m.tri);
  auto bp = make_broad_phase(name);
  bp->build(boxes);
  size_t pairs = 0;
  for (auto _ : st) pairs = bp->self_pairs(0.5 * m.edge).size();
  st.counters["pairs"] = double(pairs);
}

void BM_brute(benchmark::State& st, int n) {
  const Mesh m = make_grid(n, 1);
  const auto boxes = triangle_boxes(m.x, m.tri);
  size_t pairs = 0;
  for (auto _ : st) pairs = brute_self(boxes, 0.5 * m.edge).size();
  st.counters["pairs"] = double(pairs);
}

// Deforming cloth: per step new positions, then update (refit or rebuild) and self query with
// adjacency exclusion.
void BM_cloth(benchmark::State& st, const char* name, bool rebuild, int side) {
  const Mesh rest = make_grid(2 * (side - 1) * (side - 1), 2);
  std::vector<Vec3> x;
  wave(rest, 0.0, x);
  auto bp = make_broad_phase(name);
  bp->build(triangle_boxes(x, rest.tri));
  double t = 0.0;
  size_t pairs = 0;
  for (auto _ : st) {
    t += 0.01;
    wave(rest, t, x);
    const auto boxes = triangle_boxes(x, rest.tri);
    if (rebuild) {
      bp->build(boxes);
    } else {
      bp->update(boxes);
    }
    pairs = bp->self_pairs(0.5 * rest.edge, &rest.tri).size();
  }
  st.counters["pairs"] = double(pairs);
  st.counters["vertices"] = double(x.size());
}

// Whole mesh self-contact (broad phase + vertex-triangle and edge-edge narrow phase) of the
// deforming cloth: the contacts a solver would get every step. A smooth wave has no
// non-adjacent elements within half an edge, so this measures the cost of finding none. The
// workspace is reused across steps, as a solver does (refit, no allocation).
void BM_cloth_contacts(benchmark::State& st, int side) {
  const Mesh rest = make_grid(2 * (side - 1) * (side - 1), 2);
  std::vector<Vec3> x;
  auto np = make_narrow_phase();
  NarrowPhaseWorkspace ws;
  ContactSet cs;
  double t = 0.0;
  for (auto _ : st) {
    t += 0.01;
    wave(rest, t, x);
    cs.clear();
    np->mesh_mesh_contacts(MeshInstance{0, &x, &rest.tri}, MeshInstance{0, &x, &rest.tri}, 0.5 * rest.edge, ws, cs);
  }
  st.counters["contacts"] = double(cs.size());
}

#if SINEW_HAVE_FCL
// FCL answers the same query when each triangle is an axis-aligned box object equal to the
// triangle's box inflated by margin / 2 (two such boxes overlap iff the boxes are within margin).
struct FclScene {
  std::vector<std::unique_ptr<fcl::CollisionObjectd>> objects;
  std::vector<fcl::CollisionObjectd*> raw;
  void set(const std::vector<Aabb>& boxes, double margin) {
    const bool fresh = objects.empty();
    for (size_t i = 0; i < boxes.size(); ++i) {
      const Aabb b = inflate(boxes[i], 0.5 * margin);
      const Vec3 c = center(b);
      auto geom = std::make_shared<fcl::Boxd>(b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]);
      fcl::Transform3d tf = fcl::Transform3d::Identity();
      tf.translation() = fcl::Vector3d(c[0], c[1], c[2]);
      if (fresh) {
        objects.push_back(std::make_unique<fcl::CollisionObjectd>(geom, tf));
        raw.push_back(objects.back().get());
      } else {
        *objects[i] = fcl::CollisionObjectd(geom, tf);
      }
      objects[i]->computeAABB();
    }
  }
};

bool count_pair(fcl::CollisionObjectd*, fcl::CollisionObjectd*, void* data) {
  ++*static_cast<size_t*>(data);
  return false;  // keep going: enumerate every overlapping pair
}

void BM_fcl_build(benchmark::State& st, int n) {
  const Mesh m = make_grid(n, 1);
  FclScene scene;
  scene.set(triangle_boxes(m.x, m.tri), 0.5 * m.edge);
  for (auto _ : st) {
    fcl::DynamicAABBTreeCollisionManagerd manager;
    manager.registerObjects(scene.raw);
    manager.setup();
    benchmark::DoNotOptimize(manager.size());
  }
}

void BM_fcl_self_query(benchmark::State& st, int n) {
  const Mesh m = make_grid(n, 1);
  FclScene scene;
  scene.set(triangle_boxes(m.x, m.tri), 0.5 * m.edge);
  fcl::DynamicAABBTreeCollisionManagerd manager;
  manager.registerObjects(scene.raw);
  manager.setup();
  size_t pairs = 0;
  for (auto _ : st) {
    pairs = 0;
    manager.collide(&pairs, count_pair);
  }
  st.counters["pairs"] = double(pairs);
}

void BM_fcl_cloth(benchmark::State& st, int side) {
  const Mesh rest = make_grid(2 * (side - 1) * (side - 1), 2);
  std::vector<Vec3> x;
  wave(rest, 0.0, x);
  FclScene scene;
  scene.set(triangle_boxes(x, rest.tri), 0.5 * rest.edge);
  fcl::DynamicAABBTreeCollisionManagerd manager;
  manager.registerObjects(scene.raw);
  manager.setup();
  double t = 0.0;
  size_t pairs = 0;
  for (auto _ : st) {
    t += 0.01;
    wave(rest, t, x);
    scene.set(triangle_boxes(x, rest.tri), 0.5 * rest.edge);
    manager.update();
    pairs = 0;
    manager.collide(&pairs, count_pair);  // FCL has no adjacency exclusion: more pairs
  }
  st.counters["pairs"] = double(pairs);
}
#endif

// A closed, outward UV sphere of radius 1: `rings` latitude bands, `segments` longitudes.
Mesh make_uv_sphere(int rings, int segments) {
  const double pi = std::acos(-1.0);
  Mesh m;
  m.x.push_back(v3::make(0, 0, 1));
  for (int r = 1; r < rings; ++r)
    for (int s = 0; s < segments; ++s) {
      const double th = pi * r / rings, ph = 2 * pi * s / segments;
      m.x.push_back(v3::make(std::sin(th) * std::cos(ph), std::sin(th) * std::sin(ph), std::cos(th)));
    }
  m.x.push_back(v3::make(0, 0, -1));
  const Index south = static_cast<Index>(m.x.size()) - 1;
  auto ring = [&](int r, int s) { return static_cast<Index>(1 + (r - 1) * segments + (s % segments)); };
  for (int s = 0; s < segments; ++s) {
    m.tri.push_back({0, ring(1, s), ring(1, s + 1)});
    m.tri.push_back({south, ring(rings - 1, s + 1), ring(rings - 1, s)});
    for (int r = 1; r + 1 < rings; ++r) {
      m.tri.push_back({ring(r, s), ring(r + 1, s), ring(r + 1, s + 1)});
      m.tri.push_back({ring(r, s), ring(r + 1, s + 1), ring(r, s + 1)});
    }
  }
  return m;
}

// obstacle_distance() of @p o at 4096 points within 5 cm of the unit sphere.
void BM_obstacle(benchmark::State& st, const Obstacle& o) {
  std::mt19937_64 rng(7);
  std::normal_distribution<double> dir(0.0, 1.0);
  std::uniform_real_distribution<double> shell(0.95, 1.05);
  std::vector<Vec3> points(4096);
  for (Vec3& p : points)
    p = v3::scale(shell(rng), v3::normalized_or(v3::make(dir(rng), dir(rng), dir(rng)), v3::make(0, 0, 1)));
  double sum = 0.0;
  for (auto _ : st) {
    for (const Vec3& p : points) sum += obstacle_distance(p, o).distance;
    benchmark::DoNotOptimize(sum);
  }
  // time / (queries x 1e-9): nanoseconds per query
  st.counters["ns_per_query"] = benchmark::Counter(1e-9 * static_cast<double>(st.iterations() * points.size()),
                                                   benchmark::Counter::kIsRate | benchmark::Counter::kInvert);
}

void register_obstacles() {
  Obstacle sphere;
  sphere.shape = Shape{ShapeType::kSphere, {1.0, 0.0, 0.0}};
  benchmark::RegisterBenchmark("obstacle/analytic_sphere", BM_obstacle, sphere);
  for (int rings : {10, 32, 100}) {
    const Mesh m = make_uv_sphere(rings, 2 * rings);
    const std::string n = "/" + std::to_string(m.tri.size());
    benchmark::RegisterBenchmark(("obstacle/mesh_exact" + n).c_str(), BM_obstacle,
                                 mesh_obstacle(m.x, m.tri, identity_pose()));
    SdfGridOptions grid;
    grid.cell_size = 1.0 / 32;
    benchmark::RegisterBenchmark(("obstacle/mesh_grid" + n).c_str(), BM_obstacle,
                                 grid_obstacle(m.x, m.tri, grid, identity_pose()));
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> sizes = sinew::bench::take_int_list(argc, argv, "sizes", "10000,100000,1000000");
  const int fcl_max = std::stoi(sinew::bench::take_flag(argc, argv, "fcl_max", "100000"));
  const int brute_max = std::stoi(sinew::bench::take_flag(argc, argv, "brute_max", "10000"));
  const int cloth = std::stoi(sinew::bench::take_flag(argc, argv, "cloth", "100"));
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (int n : sizes) {
    const std::string s = "/" + std::to_string(n);
    benchmark::RegisterBenchmark(("bvh/build" + s).c_str(), BM_build, "bvh", n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("bvh/refit" + s).c_str(), BM_refit, n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("bvh/self_query" + s).c_str(), BM_self_query, "bvh", n)
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("hash/build" + s).c_str(), BM_build, "hash", n)->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark(("hash/self_query" + s).c_str(), BM_self_query, "hash", n)
        ->Unit(benchmark::kMillisecond);
    if (n <= brute_max) {
      benchmark::RegisterBenchmark(("brute/self_query" + s).c_str(), BM_brute, n)->Unit(benchmark::kMillisecond);
    }
#if SINEW_HAVE_FCL
    if (n <= fcl_max) {
      benchmark::RegisterBenchmark(("fcl/build" + s).c_str(), BM_fcl_build, n)->Unit(benchmark::kMillisecond);
      benchmark::RegisterBenchmark(("fcl/self_query" + s).c_str(), BM_fcl_self_query, n)->Unit(benchmark::kMillisecond);
    }
#endif
  }
  const std::string c = "/" + std::to_string(cloth * cloth);
  benchmark::RegisterBenchmark(("cloth/bvh_refit" + c).c_str(), BM_cloth, "bvh", false, cloth)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("cloth/bvh_rebuild" + c).c_str(), BM_cloth, "bvh", true, cloth)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("cloth/hash" + c).c_str(), BM_cloth, "hash", false, cloth)
      ->Unit(benchmark::kMillisecond);
  benchmark::RegisterBenchmark(("cloth/self_contacts" + c).c_str(), BM_cloth_contacts, cloth)
      ->Unit(benchmark::kMillisecond);
#if SINEW_HAVE_FCL
  benchmark::RegisterBenchmark(("cloth/fcl_update" + c).c_str(), BM_fcl_cloth, cloth)->Unit(benchmark::kMillisecond);
#endif
  register_obstacles();
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
