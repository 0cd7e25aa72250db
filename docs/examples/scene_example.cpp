// Read a scene file and run it with run_simulation: the scene builds the model, the contact
// and the integrator; the run loop writes run.csv and VTK frames and reports every step to a
// callback. The scene is a box on a 10 degree incline with friction 0.3 > tan 10 deg, so it
// must stick: the example checks that it stays (nearly) at rest while touching the plane.
#include <algorithm>
#include <cstdio>
#include <filesystem>

#include "sinew/backends/registry.hpp"
#include "sinew/core/error.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"

int main(int argc, char** argv) {
  const std::filesystem::path path = argc > 1 ? argv[1] : "scenes/incline.json";
  try {
    // Everything that needs no backend is checked here: a bad key or value names the JSON path.
    const sinew::scene::SceneFile scene = sinew::scene::read_scene_file(path);
    std::printf("%s (%s): %s\n", scene.name.c_str(), scene.kind.c_str(), scene.description.c_str());

    // The scene's own backend if it names one, else $SINEW_BACKEND, else serial.
    auto backend =
        sinew::make_backend(scene.backend.empty() ? sinew::backend_name_from_environment("serial") : scene.backend);
    std::unique_ptr<sinew::scene::Simulation> sim = scene.make(*backend);

    sinew::scene::RunOptions options;
    options.out_dir =
        argc > 2 ? std::filesystem::path(argv[2]) : std::filesystem::temp_directory_path() / "sinew_scene_example";
    options.overwrite = true;  // replace this example's earlier run there (only the files it listed)
    options.steps = 200;       // a few steps instead of the scene's own count
    options.outputs = scene.outputs;
    options.outputs.every = 50;  // a VTK frame every 50 steps

    // The callback sees each step's scalars by name; returning false would stop the run cleanly.
    double max_kinetic = 0.0, min_contacts = 1e9;
    auto progress = [&](const sinew::scene::RunProgress& p) {
      const std::vector<std::string>& names = *p.names;
      for (std::size_t i = 0; i < names.size(); ++i) {
        if (names[i] == "kinetic_energy") max_kinetic = std::max(max_kinetic, p.outcome->scalars[i]);
        if (names[i] == "contacts") min_contacts = std::min(min_contacts, p.outcome->scalars[i]);
      }
      return true;
    };
    const sinew::scene::RunResult result = sinew::scene::run_simulation(*sim, options, progress);

    std::printf("%s after %ld steps (t = %.3f s, %.2f s wall): %ld frames, CSV %s\n",
                result.ok() ? "completed" : result.message.c_str(), result.last_step, sim->time(), result.wall_seconds,
                result.frames, result.csv.string().c_str());
    std::printf("max kinetic energy %.2e J, fewest contacts %g\n", max_kinetic, min_contacts);
    return (result.ok() && result.last_step == 200 && max_kinetic < 1e-6 && min_contacts >= 1) ? 0 : 1;
  } catch (const sinew::Error& e) {  // a bad scene file, or a backend that cannot run here
    std::fprintf(stderr, "%s\n", e.what());
    return 1;
  }
}
