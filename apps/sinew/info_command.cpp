// `sinew info SCENE`: reads and checks a scene file, builds its simulation on the serial backend
// (so that what only the integrator checks, such as an inverted element, is found too) and prints
// what it holds. Writes nothing. Exit code 2 with the message on bad input.
#include <cstdio>
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "run_support.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::app {
namespace {

std::string yes_no(bool b) { return b ? "yes" : "no"; }

std::string every_text(int every) { return every == 1 ? "every step" : "every " + std::to_string(every) + " steps"; }

}  // namespace

int info_command(const std::vector<std::string>& args) {
  if (args.empty() || args.front().rfind("--", 0) == 0)
    throw Error("info: expects a scene file: sinew info SCENE.json");
  const Options o("info", std::vector<std::string>(args.begin() + 1, args.end()), {});
  const scene::SceneFile scene = scene::read_scene_file(args.front());
  std::unique_ptr<Backend> serial = make_backend("serial");
  const std::unique_ptr<scene::Simulation> sim = scene.make(*serial);
  const scene::SimulationSize z = sim->size();
  const scene::OutputSettings& out = scene.outputs;

  std::printf("file:        %s\n", scene.path.string().c_str());
  std::printf("name:        %s\n", scene.name.c_str());
  if (!scene.description.empty()) std::printf("description: %s\n", scene.description.c_str());
  std::printf("kind:        %s\n", scene.kind.c_str());
  std::printf("size:        %s\n", size_text(z, true).c_str());
  std::printf("time step:   %g s\n", sim->time_step());
  std::printf("steps:       %ld (duration %g s)\n", scene.steps, static_cast<double>(scene.steps) * sim->time_step());
  const std::string env = backend_name_from_environment("");
  std::printf("backend:     %s\n", !scene.backend.empty() ? (scene.backend + " (from the scene file)").c_str()
                                   : !env.empty()         ? (env + " (from SINEW_BACKEND)").c_str()
                                                          : "serial (default; --backend or SINEW_BACKEND to change)");
  std::printf("outputs:     run.csv %s; VTU %s, %s; OBJ %s\n", yes_no(out.csv).c_str(), yes_no(out.vtu).c_str(),
              every_text(out.every).c_str(), yes_no(out.obj).c_str());
  if (out.png_every > 0)
    std::printf("             PNG %dx%d %s\n", out.png_width, out.png_height, every_text(out.png_every).c_str());
  else
    std::printf("             PNG no (sinew run --png)\n");
  std::string at;
  for (long k : out.checkpoint_at) at += (at.empty() ? "" : ", ") + std::to_string(k);
  if (out.checkpoint_every > 0 || !at.empty())
    std::printf("             checkpoints %s%s%s\n",
                out.checkpoint_every > 0 ? every_text(out.checkpoint_every).c_str() : "",
                out.checkpoint_every > 0 && !at.empty() ? ", " : "", at.empty() ? "" : ("at steps " + at).c_str());
  else
    std::printf("             checkpoints no (sinew run --checkpoint-every N)\n");
  std::string names;
  for (const std::string& n : sim->scalar_names()) names += (names.empty() ? "" : ", ") + n;
  std::printf("columns:     step, t, %s\n", names.c_str());
  std::printf("ok: the scene is valid\n");
  return 0;
}

}  // namespace sinew::app
