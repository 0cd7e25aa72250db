// The soft gripper (issue 21) per stepper, contact solver and attachment method: the scene
// (gripper_scene.hpp) is stepped once to the middle of its lift by implicit Euler with the FB
// Newton solver (its rich-contact state: the box held by both fingers, 22 contacts, 60 joint rows
// of the pads' attachments), then each benchmark steps --steps steps from that state with one
// scheme (implicit Euler, midpoint, trapezoidal, Bridson-Marino) and one solver.
//
// Stage 2 runs on the sparse Delassus form with the attachments as ball-joint rows
// (.../sparse), on Baraff's O(n) factor of the joint forest (.../baraff; not with SAP, which
// solves the global form), or on the reduced system with the attachments eliminated
// (.../reduced, ArtiSynth notes 0.17). Bridson-Marino fails there (failed = 1): its elastic
// forces are explicit, too stiff for h = 5 ms.
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
  o.factor = baraff ? integrators::StepFactor::kBaraff : integrators::StepFactor::kSparse;
  if (scheme == "theta_midpoint")
    o.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  if (scheme == "trapezoidal") o.trapezoidal = integrators::TrapezoidalOptions{};
  if (scheme == "bridson_marino") o.bridson_marino = integrators::BridsonMarinoOptions{};
  return o;
}

integrators::ContactStepReport step(integrators::ContactStep& stepper, const scene::GripperScene& g,
                                    integrators::State& s) {
  if (g.reduced) return stepper.step(*g.reduced, g.scene.constraints(), s, g.scene.time_step);
  return stepper.step(*g.scene.system, g.scene.constraints(), s, g.scene.time_step);
}

// The scene at its rich-contact step, reached by implicit Euler (once per attachment method):
// every scheme then steps from the same state.
const scene::GripperScene& rich_gripper(bool reduced) {
  static std::map<bool, std::unique_ptr<scene::GripperScene>> cache;
  auto& g = cache[reduced];
  if (!g) {
    scene::GripperOptions options;
    options.reduce_attachments = reduced;
    g = std::make_unique<scene::GripperScene>(scene::soft_gripper_scene(options));
    auto backend = make_backend("serial");
    integrators::ContactStep stepper(make_solver("newton_fb", *backend), step_options("implicit_euler"));
    for (int k = 0; k < g->scene.rich_contact_steps; ++k)
      if (!step(stepper, *g, g->scene.state).ok())
        throw Error("gripper_bench: the reference run failed at step " + std::to_string(k));
  }
  return *g;
}

// Stage 2's form: the sparse Delassus form with the attachments as rows, the same on the
// reduced system (attachments eliminated), or Baraff's factor with the attachments as rows.
enum class Form { kSparse, kBaraff, kReduced };

void BM_Gripper(benchmark::State& state, const std::string& scheme, const std::string& solver, Form form) {
  const scene::GripperScene& g = rich_gripper(form == Form::kReduced);
  auto backend = make_backend("serial");
  long iterations = 0, steps = 0, failed = 0;
  double seconds = 0.0;
  Index contacts = 0, rows = 0;
  for (auto _ : state) {
    state.PauseTiming();
    integrators::State s = g.scene.state;
    integrators::ContactStep stepper(make_solver(solver, *backend), step_options(scheme, form == Form::kBaraff));
    state.ResumeTiming();
    const auto start = std::chrono::steady_clock::now();
    for (int k = 0; k < g_steps; ++k) {
      const integrators::ContactStepReport r = step(stepper, g, s);
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
  const std::pair<Form, const char*> forms[] = {
      {Form::kSparse, "sparse"}, {Form::kBaraff, "baraff"}, {Form::kReduced, "reduced"}};
  for (const char* scheme : {"implicit_euler", "theta_midpoint", "trapezoidal", "bridson_marino"})
    for (const char* solver : {"newton_fb", "newton_minmap", "pgs", "sap"})
      for (const auto& [form, form_name] : forms) {
        if (form == Form::kBaraff && std::string(solver) == "sap") continue;  // SAP solves the global form
        const std::string name = std::string("gripper/") + scheme + "/" + solver + "/" + form_name;
        benchmark::RegisterBenchmark(name.c_str(), [scheme, solver, form = form](benchmark::State& st) {
          BM_Gripper(st, scheme, solver, form);
        })->Unit(benchmark::kMillisecond);
      }
  benchmark::Initialize(&argc, argv);
  if (benchmark::ReportUnrecognizedArguments(argc, argv)) return 1;
  benchmark::RunSpecifiedBenchmarks();
  benchmark::Shutdown();
  return 0;
}
