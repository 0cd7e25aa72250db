// The soft gripper (issue 21) per stepper and contact solver: the scene (gripper_scene.hpp) is
// stepped once to the middle of its lift with the FB Newton solver (its rich-contact state: the
// box held by both fingers, 22 contacts, 60 joint rows), then each benchmark steps --steps steps
// from that state with one free-motion scheme and one solver.
//
// Stage 2 runs on the sparse Delassus form or on Baraff's O(n) factor of the joint forest
// (.../baraff; not with SAP, which solves the global form).
//
// Counters: ms_per_step, iterations (contact solver, mean per step), contacts and rows (last
// step), failed (steps that were not ok: 0 for a usable pair).
//
//   gripper_bench [--steps=20] [Google Benchmark flags, e.g. --benchmark_format=json]
#include <benchmark/benchmark.h>

#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <utility>

#include "bench_flags.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/scene/gripper_scene.hpp"

namespace {

using namespace sinew;

int g_steps = 20;

std::unique_ptr<constraints::ConstraintSolver> make_solver(const std::string& name, Backend& backend) {
  if (name == "pgs") {
    constraints::PgsOptions o;
    o.stop.tolerance = 1e-8;
    o.stop.max_iterations = 2000;
    return std::make_unique<constraints::PgsSolver>(o);
  }
  if (name == "sap") return nullptr;  // ContactStep's global solver
  constraints::NewtonOptions o;
  o.stop.tolerance = 1e-10;
  o.function =
      name == "newton_minmap" ? constraints::NcpFunction::kMinMap : constraints::NcpFunction::kFischerBurmeister;
  return std::make_unique<constraints::NewtonSolver>(backend, o);
}

integrators::ContactStepOptions step_options(const std::string& scheme, bool baraff = false) {
  integrators::ContactStepOptions o;
  if (baraff) o.factor = integrators::StepFactor::kBaraff;
  if (scheme == "theta_midpoint")
    o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  return o;
}

// The scene at its rich-contact step (computed once per scheme).
const scene::GripperScene& rich_gripper(const std::string& scheme) {
  static std::map<std::string, std::unique_ptr<scene::GripperScene>> cache;
  auto& g = cache[scheme];
  if (!g) {
    g = std::make_unique<scene::GripperScene>(scene::soft_gripper_scene());
    auto backend = make_backend("serial");
    integrators::ContactStep stepper(make_solver("newton_fb", *backend), step_options(scheme));
    for (int k = 0; k < g->scene.rich_contact_steps; ++k)
      if (!stepper.step(*g->scene.system, g->scene.constraints(), g->scene.state, g->scene.time_step).ok())
        throw Error("gripper_bench: the reference run failed at step " + std::to_string(k));
  }
  return *g;
}

void BM_Gripper(benchmark::State& state, const std::string& scheme, const std::string& solver, bool baraff) {
  const scene::GripperScene& g = rich_gripper(scheme);
  auto backend = make_backend("serial");
  long iterations = 0, steps = 0, failed = 0;
  double seconds = 0.0;
  Index contacts = 0, rows = 0;
  for (auto _ : state) {
    state.PauseTiming();
    integrators::State s = g.scene.state;
    integrators::ContactStep stepper(make_solver(solver, *backend), step_options(scheme, baraff));
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < g_steps; ++k) {
      const integrators::ContactStepReport r =
          stepper.step(*g.scene.system, g.scene.constraints(), s, g.scene.time_step);
      iterations += r.contact.iterations;
      contacts = r.contacts;
      rows = r.rows;
      ++steps;
      if (!r.ok()) {
        ++failed;
        break;
      }
    }
    seconds += std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
  }
  state.counters["ms_per_step"] = 1e3 * seconds / static_cast<double>(steps);
  state.counters["iterations"] = static_cast<double>(iterations) / static_cast<double>(steps);
  state.counters["contacts"] = static_cast<double>(contacts);
  state.counters["rows"] = static_cast<double>(rows);
  state.counters["failed"] = static_cast<double>(failed);
}

}  // namespace

int main(int argc, char** argv) {
  g_steps = std::stoi(sinew::bench::take_flag(argc, argv, "steps", "20"));
  for (const char* scheme : {"implicit_euler", "theta_midpoint"})
    for (const char* solver : {"newton_fb", "newton_minmap", "pgs", "sap"})
      for (bool baraff : {false, true}) {
        if (baraff && std::string(solver) == "sap") continue;  // SAP solves the global form
        const std::string name = std::string("gripper/") + scheme + "/" + solver + (baraff ? "/baraff" : "/sparse");
        benchmark::RegisterBenchmark(name.c_str(), [scheme, solver, baraff](benchmark::State& st) {
          BM_Gripper(st, scheme, solver, baraff);
        })->Unit(benchmark::kMillisecond);
      }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
