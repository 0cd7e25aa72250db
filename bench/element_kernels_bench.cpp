// Element kernels: energy + gradient + (PSD-projected) Hessian of every tetrahedron of a
// deformed block, per constitutive model and per backend, in one run. Reports elements/s and the
// bytes of per-element output written per second. Inputs and outputs stay on the backend (no
// transfers timed). The serial backend is the plain reference.
//
//   element_kernels_bench [--cells=8,24] [--exact] [Google Benchmark flags]
#include <benchmark/benchmark.h>

#include <cstdio>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/materials/material.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace {

using namespace sinew;

// The unit cube as n^3 cells of 6 tets, every vertex displaced by up to 30% of the spacing: a
// strongly, but not uniformly, deformed state, so the projected Hessians do real work.
struct Block {
  std::vector<double> x;
  std::vector<Index> tets;
  std::vector<TetRest> rests;
};

Block make_block(int n) {
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, n, n, n);
  Block b;
  const std::vector<double> X = scene::interleaved(mesh.vertices);
  for (const auto& t : mesh.tets) {
    double Xe[12];
    for (int a = 0; a < 4; ++a)
      for (int d = 0; d < 3; ++d) Xe[3 * a + d] = X[3 * static_cast<std::size_t>(t[a]) + d];
    b.rests.push_back(make_tet_rest(Xe));
    b.tets.insert(b.tets.end(), t.begin(), t.end());
  }
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-0.3 / n, 0.3 / n);
  b.x = X;
  for (double& v : b.x) v += u(rng);
  return b;
}

std::vector<std::unique_ptr<Block>> g_blocks;
std::map<std::string, std::unique_ptr<Backend>> g_backends;

Backend& backend(const std::string& name) {
  auto& b = g_backends[name];
  if (!b) b = make_backend(name);
  return *b;
}

void register_benchmarks(bool project) {
  const MaterialModel models[] = {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                                  MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean};
  for (const auto& block : g_blocks) {
    const Block* b = block.get();
    const std::string tets = "/tets:" + std::to_string(b->rests.size());
    for (MaterialModel model : models)
      for (const BackendInfo& info : builtin_backends().list()) {
        if (!info.usable) continue;
        const std::string name =
            std::string("tet_energy_gradient_hessian/") + material_model_name(model) + "/" + info.name + tets;
        benchmark::RegisterBenchmark(
            name.c_str(),
            [b, model, project, bname = info.name](benchmark::State& s) {
              Backend& be = backend(bname);
              const auto material = make_tet_material(model, {1e6, 0.45});
              const DeviceTetMesh mesh(be, b->tets, b->rests, static_cast<Index>(b->x.size() / 3));
              const DeviceArray<double> x = be.upload(b->x);
              DeviceTetValues out;
              material->evaluate_elements(mesh, x, project, out);  // allocates the outputs
              for (auto _ : s) {
                material->evaluate_elements(mesh, x, project, out);
                be.synchronize();
              }
              const double n = static_cast<double>(b->rests.size());
              s.counters["elements"] = benchmark::Counter(n, benchmark::Counter::kIsIterationInvariantRate);
              s.counters["out_GB"] =
                  benchmark::Counter(n * 157 * sizeof(double) * 1e-9, benchmark::Counter::kIsIterationInvariantRate);
            })
            ->Unit(benchmark::kMillisecond)
            ->UseRealTime();
      }
  }
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> cells = sinew::bench::take_int_list(argc, argv, "cells", "8,24");
  const bool exact = sinew::bench::take_flag(argc, argv, "exact", "0") != "0";
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  for (int n : cells) g_blocks.push_back(std::make_unique<Block>(make_block(n)));
  register_benchmarks(!exact);
  benchmark::RunSpecifiedBenchmarks();
  g_backends.clear();
  benchmark::Shutdown();
  return 0;
}
