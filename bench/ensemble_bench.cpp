// Throughput of the local sweep scheduler (ensemble::run_sweep) and its overhead per variant.
//
//  * sweep/slope/jobs:J  --variants short stick/slip slope variants (a block of --cells^3 cubes,
//                        --steps steps, friction spread over [0.1, 0.25], serial backend, only
//                        run.csv written) on J jobs. Counter variants_per_min: the throughput;
//                        jobs beyond the machine's cores only add contention.
//  * sweep/rejected      variants whose value the scene reader refuses at once: what remains is
//                        the scheduler's own cost per variant (expansion, threads, backend-free
//                        parse, result.json and the summary). Counter ms_per_variant.
//  * sweep/trivial       variants of one step of a one-cube block: the overhead plus building the
//                        smallest simulation and writing its run.csv. Counter ms_per_variant.
//
// Each iteration runs the whole sweep into a fresh folder (no reuse of earlier results).
//
//   ensemble_bench [--jobs=1,2,4] [--variants=16] [--cells=2] [--steps=20]
//                  [Google Benchmark flags, e.g. --benchmark_min_time=0.2]
#include <benchmark/benchmark.h>

#include <chrono>
#include <filesystem>
#include <string>
#include <vector>

#include "bench_flags.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/ensemble/sweep_runner.hpp"

namespace {

namespace fs = std::filesystem;
using namespace sinew::ensemble;

int g_variants = 16, g_cells = 2, g_steps = 20;

// A sweep of @p n friction values over [lo, hi] on the slope with @p cells^3 cubes and @p steps.
SweepFile slope_sweep(int n, double lo, double hi, int cells, int steps) {
  const std::string c = std::to_string(cells);
  const std::string text = R"({"base_scene": "slope.json", "set": {"/steps": )" + std::to_string(steps) +
                           R"(, "/bodies/0/mesh/box/cells": [)" + c + "," + c + "," + c +
                           R"(], "/outputs": {"vtu": false, "every": 1000000}},
      "parameters": [{"pointer": "/obstacles/0/friction", "name": "mu",
                      "range": {"start": )" +
                           sinew::number_text(lo) + R"(, "stop": )" + sinew::number_text(hi) + R"(, "count": )" +
                           std::to_string(n) +
                           R"(}}],
      "outputs": [{"displacement": "block", "component": "x"}]})";
  return parse_sweep(text, "bench_sweep.json", SINEW_SCENES_DIR);
}

void run(benchmark::State& state, const SweepFile& sweep, int jobs, const char* tag) {
  const fs::path dir = fs::temp_directory_path() / (std::string("sinew_ensemble_bench_") + tag);
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = jobs;
  o.backend = "serial";
  const auto n = static_cast<double>(variant_count(sweep));
  double seconds = 0.0;  // wall time of the sweeps alone (folder removal excluded)
  for (auto _ : state) {
    state.PauseTiming();
    fs::remove_all(dir);
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    const SweepResult r = run_sweep(sweep, o);
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    benchmark::DoNotOptimize(r.variants.data());
  }
  fs::remove_all(dir);
  const double variants = n * static_cast<double>(state.iterations());
  state.counters["variants_per_min"] = 60.0 * variants / seconds;
  state.counters["ms_per_variant"] = 1e3 * seconds / variants;
}

void BM_Slope(benchmark::State& state) {
  const int jobs = static_cast<int>(state.range(0));
  run(state, slope_sweep(g_variants, 0.1, 0.25, g_cells, g_steps), jobs, "slope");
}

void BM_Rejected(benchmark::State& state) {
  run(state, slope_sweep(g_variants, -2.0, -1.0, 1, 1), static_cast<int>(state.range(0)), "rejected");
}

void BM_Trivial(benchmark::State& state) {
  run(state, slope_sweep(g_variants, 0.1, 0.2, 1, 1), static_cast<int>(state.range(0)), "trivial");
}

}  // namespace

int main(int argc, char** argv) {
  const std::vector<int> jobs = sinew::bench::take_int_list(argc, argv, "jobs", "1,2,4");
  g_variants = std::stoi(sinew::bench::take_flag(argc, argv, "variants", "16"));
  g_cells = std::stoi(sinew::bench::take_flag(argc, argv, "cells", "2"));
  g_steps = std::stoi(sinew::bench::take_flag(argc, argv, "steps", "20"));
  for (int j : jobs) {
    benchmark::RegisterBenchmark("sweep/slope", BM_Slope)
        ->Arg(j)
        ->ArgName("jobs")
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("sweep/rejected", BM_Rejected)
        ->Arg(j)
        ->ArgName("jobs")
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
    benchmark::RegisterBenchmark("sweep/trivial", BM_Trivial)
        ->Arg(j)
        ->ArgName("jobs")
        ->UseRealTime()
        ->Unit(benchmark::kMillisecond);
  }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
