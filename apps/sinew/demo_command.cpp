// `sinew demo [NAME]`: runs a built-in scene. "cantilever" (the default) has its own program below,
// with a chosen integrator, writing its results as CSV; every other reference scene of scenes/*.json
// is built into the program (embedded_scenes.hpp, generated at build time) and runs through the
// same code as `sinew run` (run_scene), so `sinew demo NAME` works from any folder and from an
// installed program. `sinew demo --list` prints the names with their descriptions.
//
// "cantilever" (the default): a soft cantilever beam (1 m x 0.1 m x 0.1 m, rho = 1000 kg/m^3,
// E = 1e7 Pa, nu = 0) of stable Neo-Hookean tetrahedra, clamped at x = 0 and released from
// straight at t = 0 under gravity. It swings down (first bending period ~0.6 s) and settles near
// its static sag (1000 steps of 5 ms: 5 s, most of the swing damped out by implicit Euler).
// nu = 0 as in tests/physics' cantilever study, so that study's measured mesh ratio applies. The Euler-Bernoulli sag of
// a linear beam, rho g A L^4 / (8 E I) = 0.147 m, is printed next to what a linear-tet mesh of this resolution reaches
// at rest: linear tets are too stiff in bending, and tests/physics' cantilever study measured the ratio of the two per
// resolution.
#include <chrono>
#include <cmath>
#include <cstdio>
#include <filesystem>
#include <string>
#include <vector>

#include "atomic_file.hpp"
#include "commands.hpp"
#include "embedded_scenes.hpp"
#include "options.hpp"
#include "run_support.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::app {
namespace {

constexpr double kLength = 1.0, kSide = 0.1, kDensity = 1000.0, kYoung = 1e7, kPoisson = 0.0, kGravity = 9.81;

// One row of results/cantilever.csv.
struct Row {
  int step;
  double t, kinetic, potential, tip_x, tip_z;
  int iterations;
  double residual;
  std::string status;
};

// "cantilever, box_stack, ...": the names `sinew demo` knows (the built-in cantilever first).
std::string demo_names() {
  std::string names = "cantilever";
  for (const EmbeddedScene& s : embedded_scenes())
    if (std::string(s.name) != "cantilever") names += std::string(", ") + s.name;
  return names;
}

// `sinew demo --list`: one line per demo, its name and description.
int list_demos() {
  std::printf("%-30s %s\n", "cantilever",
              "(default; its own program: --integrator --dt --steps --cells --model --out) a soft beam of "
              "Neo-Hookean tets clamped at one end, released under gravity; writes DIR/cantilever.csv");
  for (const EmbeddedScene& s : embedded_scenes())
    if (std::string(s.name) != "cantilever") std::printf("%-30s %s\n", s.name, s.description);
  return 0;
}

}  // namespace

int demo_command(const std::vector<std::string>& args) {
  if (args.size() == 1 && args.front() == "--list") return list_demos();
  std::vector<std::string> rest = args;
  std::string name = "cantilever";
  if (!rest.empty() && rest.front().rfind("--", 0) != 0) {
    name = rest.front();
    rest.erase(rest.begin());
  }
  if (name != "cantilever") {
    for (const EmbeddedScene& s : embedded_scenes()) {
      if (name != s.name) continue;
      // Mesh files named by a scene would be read relative to the current folder; the reference
      // scenes name none (their meshes are procedural).
      const scene::SceneFile scene = scene::parse_scene(s.text, name + ".json", std::filesystem::current_path());
      return run_scene("demo", scene, scene::fnv1a64(s.text), name, rest);
    }
    throw Error("demo: unknown scene '" + name + "', expected one of: " + demo_names() + " (sinew demo --list)");
  }
  const Options o("demo", rest, {"integrator", "dt", "steps", "cells", "model", "out"});
  const std::string integrator_name = o.str("integrator", "implicit_euler");
  const double dt = o.real("dt", 0.005, 0.0, 1.0);
  const int steps = o.integer("steps", 1000, 1, 10000000);
  const int cells = o.integer("cells", 2, 1, 64);
  const MaterialModel material = parse_material_model(o.str("model", "stable_neo_hookean"));
  const std::filesystem::path out = std::filesystem::path(o.str("out", "results")) / (name + ".csv");
  auto integrator = integrators::make_integrator(integrator_name);  // unknown names fail before any work

  model::MechanicalSystem system;
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, -kSide / 2, -kSide / 2}},
                                                  Vec3{{kLength, kSide / 2, kSide / 2}}, 10 * cells, cells, cells);
  scene::add_deformable_body(system, mesh, kDensity, material, {kYoung, kPoisson});
  system.set_gravity(Vec3{{0, 0, -kGravity}});
  std::vector<Index> tip;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    if (mesh.vertices[i][0] == 0.0) system.fix_particle(static_cast<Index>(i));
    if (mesh.vertices[i][0] == kLength) tip.push_back(static_cast<Index>(i));
  }
  const double euler_bernoulli = 1.5 * kDensity * kGravity * std::pow(kLength, 4) / (kYoung * kSide * kSide);
  // Static sag of 10c x c x c linear-tet meshes relative to Euler-Bernoulli, c = 1, 2, 4, 8
  // (tests/physics/cantilever_test.cpp, linear elasticity; small strains, so Neo-Hookean agrees).
  const double mesh_ratio[] = {0.0, 0.247, 0.555, 0.0, 0.831, 0.0, 0.0, 0.0, 0.956};
  const double expected_ratio = cells <= 8 ? mesh_ratio[cells] : 0.0;
  std::printf("scene: cantilever, %zu tets (%s), %d velocity DOFs; integrator %s, dt %g s, %d steps\n",
              mesh.tets.size(), material_model_name(material), static_cast<int>(system.num_velocities()),
              integrator->name().c_str(), dt, steps);

  integrators::State state{0.0, system.initial_positions(), system.initial_velocities()};
  auto tip_position = [&](int d) {
    double sum = 0.0;
    for (Index i : tip) sum += state.q[system.particle_position_offset(i) + d];
    return sum / static_cast<double>(tip.size());
  };
  auto row = [&](int step, const integrators::StepReport* r) {
    return Row{step,
               state.t,
               system.kinetic_energy(state.t, state.q, state.u),
               system.potential_energy(state.t, state.q),
               tip_position(0),
               tip_position(2),
               r ? r->iterations : 0,
               r ? r->residual_norm : 0.0,
               r ? integrators::to_string(r->status) : "initial"};
  };
  std::vector<Row> rows{row(0, nullptr)};
  const auto start = std::chrono::steady_clock::now();
  int failed_step = 0;
  std::string failure;
  for (int k = 1; k <= steps; ++k) {
    const integrators::StepReport r = integrator->step(system, state, dt);
    if (!r.ok()) {
      failed_step = k;
      failure = r.message;
      rows.push_back(row(k, &r));
      break;
    }
    rows.push_back(row(k, &r));
  }
  const double seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();

  write_atomically("demo", out, [&](std::ostream& f) {
    f.precision(17);
    f << "step,t,kinetic_energy,potential_energy,total_energy,tip_x,tip_z,newton_iterations,residual,status\n";
    for (const Row& r : rows)
      f << r.step << ',' << r.t << ',' << r.kinetic << ',' << r.potential << ',' << r.kinetic + r.potential << ','
        << r.tip_x << ',' << r.tip_z << ',' << r.iterations << ',' << r.residual << ',' << r.status << '\n';
  });
  int iterations = 0;
  for (const Row& r : rows) iterations += r.iterations;
  const Row& last = rows.back();
  std::printf("t = %.3f s: tip sag %.4f m, energy %.6g J\n", last.t, -last.tip_z, last.kinetic + last.potential);
  if (expected_ratio > 0.0)
    std::printf("static sag: Euler-Bernoulli %.4f m; this %dx%dx%d mesh's measured ratio %.3f gives %.4f m at rest\n",
                euler_bernoulli, 10 * cells, cells, cells, expected_ratio, expected_ratio * euler_bernoulli);
  else
    std::printf("static sag: Euler-Bernoulli %.4f m (a linear-tet mesh reaches less: too stiff in bending)\n",
                euler_bernoulli);
  std::printf("%zu steps in %.2f s (%.2f ms/step), %.2f Newton iterations per step\n", rows.size() - 1, seconds,
              1e3 * seconds / static_cast<double>(rows.size() - 1),
              static_cast<double>(iterations) / static_cast<double>(rows.size() - 1));
  std::printf("wrote %s\n", out.string().c_str());
  if (failed_step > 0) {
    std::fprintf(stderr, "sinew demo: step %d failed: %s\n", failed_step, failure.c_str());
    return 1;
  }
  return 0;
}

}  // namespace sinew::app
