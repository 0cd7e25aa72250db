// Element kernels: energy + gradient + (PSD-projected) Hessian of every tetrahedron of a
// deformed block, per constitutive model and per backend, in one run. Reports elements/s and the
// bytes of per-element output written per second. The serial backend is the plain reference; a
// backend that cannot run these kernels (cuda, until its device path lands) is listed, not run.
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

namespace {

using namespace sinew;

// A cube of n^3 cells, 6 positively oriented tets per cell (Kuhn split), rest spacing 1/n, with
// every vertex displaced by up to 30% of the spacing: a strongly, but not uniformly, deformed
// state, so the projected Hessians do real eigen-decompositions.
struct Block {
  std::vector<double> x;
  std::vector<Index> tets;
  std::vector<TetRest> rests;
};

Block make_block(int n) {
  Block b;
  const int m = n + 1;
  const double h = 1.0 / n;
  auto id = [&](int i, int j, int k) { return static_cast<Index>(i + m * (j + m * k)); };
  std::vector<double> X;
  for (int k = 0; k < m; ++k)
    for (int j = 0; j < m; ++j)
      for (int i = 0; i < m; ++i) X.insert(X.end(), {h * i, h * j, h * k});
  const int perms[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < n; ++k)
    for (int j = 0; j < n; ++j)
      for (int i = 0; i < n; ++i)
        for (const auto& p : perms) {
          int c[3] = {i, j, k};
          Index v[4] = {id(i, j, k), 0, 0, 0};
          for (int s = 0; s < 3; ++s) {
            ++c[p[s]];
            v[s + 1] = id(c[0], c[1], c[2]);
          }
          double Xe[12];
          auto gather = [&] {
            for (int a = 0; a < 4; ++a)
              for (int d = 0; d < 3; ++d) Xe[3 * a + d] = X[3 * static_cast<std::size_t>(v[a]) + d];
          };
          gather();
          if (tet_rest(Xe).volume < 0) std::swap(v[2], v[3]);
          gather();
          b.rests.push_back(make_tet_rest(Xe));
          b.tets.insert(b.tets.end(), v, v + 4);
        }
  std::mt19937_64 rng(1);
  std::uniform_real_distribution<double> u(-0.3 * h, 0.3 * h);
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
  for (const BackendInfo& info : builtin_backends().list())
    if (info.usable && !backend(info.name).runs_host_code())
      std::printf("element kernels: backend %s skipped (runs no host-code batch kernels yet)\n", info.name.c_str());
  const MaterialModel models[] = {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                                  MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean};
  for (const auto& block : g_blocks) {
    const Block* b = block.get();
    const std::string tets = "/tets:" + std::to_string(b->rests.size());
    for (MaterialModel model : models)
      for (const BackendInfo& info : builtin_backends().list()) {
        if (!info.usable) continue;
        if (!backend(info.name).runs_host_code()) continue;
        const std::string name =
            std::string("tet_energy_gradient_hessian/") + material_model_name(model) + "/" + info.name + tets;
        benchmark::RegisterBenchmark(
            name.c_str(),
            [b, model, project, bname = info.name](benchmark::State& s) {
              Backend& be = backend(bname);
              const auto material = make_tet_material(model, {1e6, 0.45});
              TetElementValues out;
              for (auto _ : s) {
                material->evaluate_elements(be, b->x, b->tets, b->rests, project, out);
                benchmark::DoNotOptimize(out.hessian.data());
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
