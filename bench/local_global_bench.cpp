// One local-global step (5 L-G iterations, the paper's Table 3 setting) of a cantilever bar of
// stable Neo-Hookean or ARAP tetrahedra, per backend and per global step kind:
//   sparse_inverse  q = S'^T (S' b), two SpMVs on the backend (the seed paper's Algorithm 2);
//   cholmod         CHOLMOD forward and backward substitutions on the host (Algorithm 1);
//   jacobi          one Jacobi sweep from the previous iterate (the incomplete baseline, Wang 2015).
// Counters: local, rhs, global and frame milliseconds per step (phases synchronized), the global
// step's bandwidth (bytes of S' or A_s per apply over its time), entries of S' and of the
// Cholesky factor it came from, and S' MiB (values and indices).
//
// Contact case (seed Sec. 5, Algorithm 4): a soft block (E = 1e5 Pa) resting on a frictional
// plane (mu = 0.5), every vertex a contact candidate, its whole bottom face in contact; counters
// named like the seed's Table 3 columns, milliseconds per step: schur_ms (collision excluded:
// W = H S'^T S' H^T by the chosen assembly of C and the Newton step's preparation), local_ms, global_ms
// (q_free = S'^T S' b), assem_ms (q_loc), cst_solve_ms (indicator-Newton steps: indicators + CR),
// corr_ms (q += A^-1 h H^T r), cst_global_ms (the four before), frame_ms (the step without
// collision, phases synchronized) and collision_ms; contacts, newton and cr per step, and the
// last local problem's natural-map error.
//
// Cloth case (seed Table 3's "Cloth Extension", scene::cloth_extension_scene()): a 1 m square
// cloth of SIDE x SIDE vertices (triangle membranes of the chosen model, E = 1e5 Pa, nu = 0.45)
// pulled apart by moving targets on two edges, per backend; the same counters as the bar.
//
// --schur picks how the contact case assembles C = P S'^T S' P^T behind W
// (LocalGlobalContactOptions::schur): auto, sparse, dense or a list, one benchmark each;
// --delassus whether W is stored or applied through its factors (LocalGlobalContactOptions::
// delassus): auto, explicit, operator or a list, one benchmark each (schur matters only when W
// is stored).
//
//   local_global_bench [--bars=11x4x4,26x8x8,58x12x12] [--blocks=8x8x4,16x16x8] [--cloths=101]
//                      [--model=arap|corotational|stable_neo_hookean] [--schur=auto]
//                      [--delassus=auto] [Google Benchmark flags]
// A bar NXxNYxNZ has NX NY NZ cubes of 6 tetrahedra (1056, 9984 and 50112 tetrahedra by default);
// a block NXxNYxNZ is 0.2 m wide with cubic cells (1536 and 12288 tetrahedra by default).
#include <benchmark/benchmark.h>

#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/sparse_inverse.hpp"
#include "sinew/scene/cloth_scenes.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace {

using namespace sinew;
using integrators::GlobalStepKind;
using integrators::LocalGlobalIntegrator;

struct BarSize {
  int nx, ny, nz;
};

MaterialModel g_model = MaterialModel::kStableNeoHookean;

// The bar [0, L] x [-a/2, a/2]^2 with L = 4a per 4 cells of length, clamped at x = 0 by pins.
integrators::LocalGlobalDescription bar(const BarSize& s) {
  const double cell = 0.25 / s.ny;  // cross-section 0.25 m whatever the resolution
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, -0.125, -0.125 * s.nz / s.ny}},
                                                  Vec3{{cell * s.nx, 0.125, 0.125 * s.nz / s.ny}}, s.nx, s.ny, s.nz);
  integrators::LocalGlobalDescription d;
  d.rest_positions = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) d.tets.insert(d.tets.end(), t.begin(), t.end());
  d.model = g_model;
  d.elastic = {1e6, 0.3};
  d.time_step = 0.01;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i)
    if (mesh.vertices[i][0] == 0.0) d.targets.push_back({static_cast<Index>(i), mesh.vertices[i], 0.0});
  return d;
}

// The block [0, 0.2] x [0, 0.2 ny/nx] x [0, 0.2 nz/nx] resting on the plane z = 0 (mu = 0.5).
integrators::LocalGlobalDescription block_on_plane(const BarSize& s) {
  const double cell = 0.2 / s.nx;
  const scene::TetMesh mesh =
      scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{cell * s.nx, cell * s.ny, cell * s.nz}}, s.nx, s.ny, s.nz);
  integrators::LocalGlobalDescription d;
  d.rest_positions = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) d.tets.insert(d.tets.end(), t.begin(), t.end());
  d.model = g_model;
  d.elastic = {1e5, 0.3};
  d.time_step = 0.01;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  return d;
}

// The integrator of the benchmark running now, kept between Google Benchmark's calls of one
// benchmark (setup, including the sparse inverse, is not timed) and replaced for the next one.
struct Cached {
  std::string key;
  std::unique_ptr<Backend> backend;
  std::unique_ptr<LocalGlobalIntegrator> lg;
  double setup_seconds = 0.0;
};
Cached g_cached;
scene::ClothScene g_cloth;  // the cloth extension scene of the running cloth benchmark (its target motions)

// Which solid a benchmark steps.
enum class Case { kBar, kBlock, kCloth };

integrators::LocalGlobalDescription description(Case c, const BarSize& size) {
  switch (c) {
    case Case::kBar:
      return bar(size);
    case Case::kBlock:
      return block_on_plane(size);
    case Case::kCloth:
      g_cloth = scene::cloth_extension_scene(g_model, size.nx);
      return g_cloth.description;
  }
  return bar(size);
}

LocalGlobalIntegrator& integrator(const std::string& key, const std::string& backend_name, const BarSize& size,
                                  GlobalStepKind kind, Case c = Case::kBar,
                                  integrators::SchurAssembly schur = integrators::SchurAssembly::kAuto,
                                  integrators::DelassusForm delassus = integrators::DelassusForm::kAuto) {
  if (g_cached.key != key) {
    g_cached.lg.reset();
    g_cached.backend = make_backend(backend_name);
    integrators::LocalGlobalOptions options;
    options.iterations = 5;
    options.global_step = kind;
    options.record_energy = false;  // the step's own cost only
    options.time_phases = true;
    options.contact.schur = schur;
    options.contact.delassus = delassus;
    const auto t0 = std::chrono::steady_clock::now();
    g_cached.lg = std::make_unique<LocalGlobalIntegrator>(*g_cached.backend, description(c, size), options);
    g_cached.setup_seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    g_cached.key = key;
    for (int s = 0; s < 3; ++s) g_cached.lg->step();  // warm up: first touches, transpose patterns
  }
  return *g_cached.lg;
}

void run_step(benchmark::State& state, const std::string& key, const std::string& backend_name, BarSize size,
              GlobalStepKind kind, Case c = Case::kBar) {
  LocalGlobalIntegrator& lg = integrator(key, backend_name, size, kind, c);
  double local = 0, rhs = 0, global = 0, frame = 0;
  bool ok = true;
  for (auto _ : state) {
    if (c == Case::kCloth) scene::drive_targets(g_cloth, lg);  // host-side target update, part of the frame
    const auto t0 = std::chrono::steady_clock::now();
    const integrators::LocalGlobalReport r = lg.step();
    frame += std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    local += r.local_seconds;
    rhs += r.rhs_seconds;
    global += r.global_seconds;
    ok = ok && r.ok();
  }
  if (!ok) state.SkipWithError("a step reported non-finite values");
  const double n = static_cast<double>(state.iterations());
  state.counters["tets"] = static_cast<double>(lg.num_tets());
  if (lg.num_triangles() > 0) state.counters["triangles"] = static_cast<double>(lg.num_triangles());
  state.counters["vertices"] = lg.num_vertices();
  state.counters["local_ms"] = 1e3 * local / n;
  state.counters["rhs_ms"] = 1e3 * rhs / n;
  state.counters["global_ms"] = 1e3 * global / n;
  state.counters["frame_ms"] = 1e3 * frame / n;
  state.counters["setup_s"] = g_cached.setup_seconds;
  if (global > 0 && lg.global_bytes_per_apply() > 0)
    state.counters["global_GB/s"] = lg.global_bytes_per_apply() * lg.options().iterations * n / global * 1e-9;
  if (const SparseInverse* s = lg.sparse_inverse()) {
    state.counters["S_nnz"] = static_cast<double>(s->nnz());
    state.counters["L_nnz"] = static_cast<double>(s->factor_nnz());
    state.counters["S_MiB"] = static_cast<double>(s->bytes_with_indices()) / (1024.0 * 1024.0);
  }
}

void run_contact_step(benchmark::State& state, const std::string& key, const std::string& backend_name, BarSize size,
                      integrators::SchurAssembly schur, integrators::DelassusForm delassus) {
  LocalGlobalIntegrator& lg =
      integrator(key, backend_name, size, GlobalStepKind::kSparseInverse, Case::kBlock, schur, delassus);
  std::map<std::string, double> sum;
  bool ok = true;
  integrators::LocalGlobalReport r;
  for (auto _ : state) {
    r = lg.step();
    ok = ok && r.ok();
    sum["schur_ms"] += r.schur_seconds;
    sum["local_ms"] += r.local_seconds;
    sum["global_ms"] += r.global_seconds;
    sum["assem_ms"] += r.assembly_seconds;
    sum["cst_solve_ms"] += r.constraint_seconds;
    sum["corr_ms"] += r.correction_seconds;
    sum["cst_global_ms"] += r.global_seconds + r.assembly_seconds + r.constraint_seconds + r.correction_seconds;
    sum["frame_ms"] += r.frame_seconds;
    sum["collision_ms"] += r.collision_seconds;
    sum["rhs_ms"] += r.rhs_seconds;
  }
  if (!ok) state.SkipWithError("a step reported non-finite values");
  const double n = static_cast<double>(state.iterations());
  for (const auto& [name, seconds] : sum) state.counters[name] = 1e3 * seconds / n;
  state.counters["tets"] = static_cast<double>(lg.num_tets());
  state.counters["vertices"] = lg.num_vertices();
  state.counters["contacts"] = static_cast<double>(r.contacts);
  state.counters["newton"] = r.newton_steps;
  state.counters["cr"] = r.cr_iterations;
  state.counters["error"] = r.contact_error;
  state.counters["setup_s"] = g_cached.setup_seconds;
  if (const SparseInverse* s = lg.sparse_inverse())
    state.counters["S_MiB"] = static_cast<double>(s->bytes_with_indices()) / (1024.0 * 1024.0);
}

std::vector<BarSize> parse_bars(const std::string& text) {
  std::vector<BarSize> out;
  std::stringstream ss(text);
  std::string item;
  while (std::getline(ss, item, ',')) {
    BarSize b{};
    if (std::sscanf(item.c_str(), "%dx%dx%d", &b.nx, &b.ny, &b.nz) != 3 || b.nx < 1 || b.ny < 1 || b.nz < 1) {
      std::fprintf(stderr, "local_global_bench: --bars expects NXxNYxNZ,... with positive counts, got '%s'\n",
                   item.c_str());
      std::exit(2);
    }
    out.push_back(b);
  }
  return out;
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<BarSize> bars = parse_bars(bench::take_flag(argc, argv, "bars", "11x4x4,26x8x8,58x12x12"));
  const std::vector<BarSize> blocks = parse_bars(bench::take_flag(argc, argv, "blocks", "8x8x4,16x16x8"));
  const std::string cloth_sides = bench::take_flag(argc, argv, "cloths", "101");
  std::vector<std::string> schurs;
  {
    std::stringstream list(bench::take_flag(argc, argv, "schur", "auto"));
    for (std::string item; std::getline(list, item, ',');) {
      if (item != "auto" && item != "sparse" && item != "dense") {
        std::fprintf(stderr, "local_global_bench: --schur expects auto, sparse or dense (comma-separated), got '%s'\n",
                     item.c_str());
        return 2;
      }
      schurs.push_back(item);
    }
  }
  std::vector<std::string> forms;
  {
    std::stringstream list(bench::take_flag(argc, argv, "delassus", "auto"));
    for (std::string item; std::getline(list, item, ',');) {
      if (item != "auto" && item != "explicit" && item != "operator") {
        std::fprintf(stderr,
                     "local_global_bench: --delassus expects auto, explicit or operator (comma-separated), got '%s'\n",
                     item.c_str());
        return 2;
      }
      forms.push_back(item);
    }
  }
  g_model = parse_material_model(bench::take_flag(argc, argv, "model", "stable_neo_hookean"));
  for (const BarSize& size : bars)
    for (GlobalStepKind kind : {GlobalStepKind::kSparseInverse, GlobalStepKind::kCholmod, GlobalStepKind::kJacobi})
      for (const BackendInfo& info : builtin_backends().list()) {
        if (!info.usable) continue;
        const std::string name = std::string("local_global/") + material_model_name(g_model) + "/" +
                                 std::to_string(size.nx) + "x" + std::to_string(size.ny) + "x" +
                                 std::to_string(size.nz) + "/" + integrators::global_step_name(kind) + "/" + info.name;
        benchmark::RegisterBenchmark(name.c_str(), [name, backend = info.name, size, kind](benchmark::State& s) {
          run_step(s, name, backend, size, kind);
        })->Unit(benchmark::kMillisecond);
      }
  for (const BarSize& size : blocks)
    for (const std::string& assembly : schurs)
      for (const std::string& form : forms)
        for (const BackendInfo& info : builtin_backends().list()) {
          if (!info.usable || info.name == "cuda") continue;  // contact's collision and W expansion are host code
          const integrators::SchurAssembly schur = assembly == "sparse"  ? integrators::SchurAssembly::kSparse
                                                   : assembly == "dense" ? integrators::SchurAssembly::kDense
                                                                         : integrators::SchurAssembly::kAuto;
          const integrators::DelassusForm delassus = form == "explicit"   ? integrators::DelassusForm::kExplicit
                                                     : form == "operator" ? integrators::DelassusForm::kOperator
                                                                          : integrators::DelassusForm::kAuto;
          const std::string name = std::string("local_global_contact/") + material_model_name(g_model) + "/" +
                                   std::to_string(size.nx) + "x" + std::to_string(size.ny) + "x" +
                                   std::to_string(size.nz) + "/schur_" + assembly + "/w_" + form + "/" + info.name;
          benchmark::RegisterBenchmark(name.c_str(), [name, backend = info.name, size, schur,
                                                      delassus](benchmark::State& s) {
            run_contact_step(s, name, backend, size, schur, delassus);
          })->Unit(benchmark::kMillisecond);
        }
  std::stringstream sides(cloth_sides);
  for (std::string item; std::getline(sides, item, ',');) {
    const int side = std::atoi(item.c_str());
    if (side < 2) {
      std::fprintf(stderr, "local_global_bench: --cloths expects vertices per side >= 2, got '%s'\n", item.c_str());
      return 2;
    }
    for (const BackendInfo& info : builtin_backends().list()) {
      if (!info.usable) continue;
      const std::string name = std::string("local_global_cloth/") + material_model_name(g_model) + "/" +
                               std::to_string(side) + "x" + std::to_string(side) + "/" + info.name;
      benchmark::RegisterBenchmark(name.c_str(), [name, backend = info.name, side](benchmark::State& s) {
        run_step(s, name, backend, BarSize{side, side, 1}, GlobalStepKind::kSparseInverse, Case::kCloth);
      })->Unit(benchmark::kMillisecond);
    }
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  // Free backend memory before the backends' runtimes (Kokkos) shut down; the integrator first,
  // as it holds arrays of its backend.
  g_cached.lg.reset();
  g_cached.backend.reset();
  benchmark::Shutdown();
  return 0;
}
