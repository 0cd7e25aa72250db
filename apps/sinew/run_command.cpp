// `sinew run SCENE`: runs a scene file with scene::run_simulation (runner.hpp), showing progress
// and writing run.csv, VTU series, PNG snapshots and checkpoints under the output folder.
//
// Bad input (scene file, options, backend, resume checkpoint) is refused before the output folder
// is created: read_scene_file, make_backend, SceneFile::make and run_simulation's own checks all
// run first. Exit codes: 0 done, 1 a step failed numerically or (--strict) was accepted with a
// warning, 2 bad input, 130 interrupted.
#include <unistd.h>

#include <csignal>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <memory>
#include <string>
#include <vector>

#include "commands.hpp"
#include "options.hpp"
#include "run_support.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/atomic_file.hpp"
#include "sinew/render/png_snapshots.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::app {
namespace {

volatile std::sig_atomic_t g_interrupted = 0;  // set by SIGINT / SIGTERM: stop cleanly after the step

extern "C" void on_interrupt(int) { g_interrupted = 1; }

// "1h02m", "3m05s", "12.3s".
std::string duration_text(double s) {
  char buf[32];
  if (!(s >= 0.0) || s > 3.6e7) return "?";
  if (s < 60.0)
    std::snprintf(buf, sizeof buf, "%.1fs", s);
  else if (s < 3600.0)
    std::snprintf(buf, sizeof buf, "%dm%02ds", static_cast<int>(s) / 60, static_cast<int>(s) % 60);
  else
    std::snprintf(buf, sizeof buf, "%dh%02dm", static_cast<int>(s) / 3600, static_cast<int>(s) / 60 % 60);
  return buf;
}

// The progress line: step/steps, simulated time, wall time, ETA and the step's iteration and
// contact counts (the scalar columns named "contacts" or ending in "iterations").
std::string progress_line(const scene::RunProgress& p) {
  char buf[160];
  std::snprintf(buf, sizeof buf, "step %ld/%ld  t %.4g s  wall %s  eta %s", p.step, p.steps, p.time,
                duration_text(p.wall_seconds).c_str(), duration_text(p.eta_seconds).c_str());
  std::string line = buf;
  const std::vector<std::string>& names = *p.names;
  for (std::size_t i = 0; i < names.size() && i < p.outcome->scalars.size(); ++i) {
    const std::string& n = names[i];
    const bool iterations = n.size() >= 10 && n.compare(n.size() - 10, 10, "iterations") == 0;
    if (!iterations && n != "contacts") continue;
    std::snprintf(buf, sizeof buf, "  %s %g", n.c_str(), p.outcome->scalars[i]);
    line += buf;
  }
  return line;
}

}  // namespace

int run_scene(const std::string& command, const scene::SceneFile& scene, std::uint64_t scene_hash,
              const std::string& source, const std::vector<std::string>& args) {
  const Options o(command, args,
                  {"backend", "steps", "frames", "out", "png-every", "every", "checkpoint-every", "resume"},
                  {"png", "quiet", "overwrite", "strict"});
  const bool png = o.has("png"), quiet = o.has("quiet");
  // --frames is another name for --steps (one frame is one time step), the word of viewers and users.
  if (o.has("steps") && o.has("frames")) throw Error(command + ": give --steps or --frames (the same thing), not both");
  const std::string steps_key = o.has("frames") ? "frames" : "steps";

  // Everything that can be refused, before any output exists.
  scene::RunOptions run;
  run.outputs = scene.outputs;
  run.steps = o.has(steps_key) ? o.integer(steps_key, 0, 1, 1000000000) : scene.steps;
  run.outputs.every = o.integer("every", run.outputs.every, 1, 1000000000);
  run.outputs.png_every = o.integer("png-every", run.outputs.png_every, 0, 1000000000);
  if (png && run.outputs.png_every == 0) run.outputs.png_every = run.outputs.every;
  run.outputs.checkpoint_every = o.integer("checkpoint-every", run.outputs.checkpoint_every, 0, 1000000000);
  if (run.outputs.png_every > 0) run.snapshots = render::png_snapshots(run.outputs);
  if (o.has("resume")) run.resume = std::filesystem::path(o.str("resume", ""));
  // scene.name is checked (scene::is_safe_file_name): the default folder stays under results/.
  run.out_dir = o.str("out", (std::filesystem::path("results") / scene.name).string());
  run.overwrite = o.has("overwrite");
  run.scene_hash = scene_hash;
  const std::string backend_name =
      o.str("backend", scene.backend.empty() ? backend_name_from_environment("serial") : scene.backend);
  std::unique_ptr<Backend> backend = make_backend(backend_name);
  std::unique_ptr<scene::Simulation> sim = scene.make(*backend);

  const scene::SimulationSize size = sim->size();
  if (!quiet)
    std::printf("scene %s (%s): %s; h %g s, steps to %ld; backend %s -> %s\n", scene.name.c_str(), scene.kind.c_str(),
                size_text(size).c_str(), sim->time_step(), run.steps, backend_name.c_str(),
                run.out_dir.string().c_str());
  std::fflush(stdout);

  const bool terminal = isatty(fileno(stderr)) != 0;
  double last_print = -1e300;
  std::size_t last_width = 0;
  g_interrupted = 0;
  std::signal(SIGINT, on_interrupt);
  std::signal(SIGTERM, on_interrupt);
  const scene::RunResult r = scene::run_simulation(*sim, run, [&](const scene::RunProgress& p) {
    // A terminal gets one line rewritten (at most 10 times a second), a log a line every 2 s;
    // both the last step.
    const double period = terminal ? 0.1 : 2.0;
    if (!quiet && (p.wall_seconds - last_print >= period || p.step == p.steps)) {
      last_print = p.wall_seconds;
      const std::string line = progress_line(p);
      if (terminal) {
        const std::size_t width = line.size();
        std::fprintf(stderr, "\r%s%s", line.c_str(),
                     std::string(width < last_width ? last_width - width : 0, ' ').c_str());
        last_width = width;
      } else {
        std::fprintf(stderr, "%s\n", line.c_str());
      }
      std::fflush(stderr);
    }
    return g_interrupted == 0;
  });
  std::signal(SIGINT, SIG_DFL);
  std::signal(SIGTERM, SIG_DFL);
  if (!quiet && terminal && last_width > 0) std::fputc('\n', stderr);

  if (!quiet) print_summary(r, run.out_dir, sim->steps());
  if (r.non_finite_steps > 0)
    std::fprintf(stderr, "sinew %s: warning: %ld step%s reported non-finite scalars (first: %s); see run.csv\n",
                 command.c_str(), r.non_finite_steps, r.non_finite_steps == 1 ? "" : "s", r.first_non_finite.c_str());
  if (r.warned_steps > 0)
    std::fprintf(stderr, "sinew %s: warning: %ld step%s accepted with a warning (first: %s); see run.csv\n",
                 command.c_str(), r.warned_steps, r.warned_steps == 1 ? " was" : "s were", r.first_warning.c_str());
  if (r.status == scene::RunResult::Status::kFailed) {
    std::fprintf(stderr, "sinew %s: %s: %s\n", command.c_str(), source.c_str(), r.message.c_str());
    return 1;
  }
  if (r.status == scene::RunResult::Status::kStopped) {
    if (r.checkpoints.empty())
      std::fprintf(stderr, "sinew %s: interrupted at step %ld; no checkpoint written (--checkpoint-every N)\n",
                   command.c_str(), r.last_step);
    else
      std::fprintf(stderr,
                   "sinew %s: interrupted at step %ld; go on with: sinew %s %s --resume %s --steps %ld --out %s\n",
                   command.c_str(), r.last_step, command.c_str(), source.c_str(), r.checkpoints.back().string().c_str(),
                   run.steps, run.out_dir.string().c_str());
    return 130;
  }
  if (o.has("strict") && r.warned_steps > 0) {
    std::fprintf(stderr, "sinew %s: --strict: exit 1 because of the warned steps above\n", command.c_str());
    return 1;
  }
  return 0;
}

int run_command(const std::vector<std::string>& args) {
  if (args.empty() || args.front().rfind("--", 0) == 0) throw Error("run: expects a scene file: sinew run SCENE.json");
  const std::filesystem::path scene_path = args.front();
  const scene::SceneFile scene = scene::read_scene_file(scene_path);
  return run_scene("run", scene, scene::fnv1a64(read_file(scene_path, "a scene file")), scene_path.string(),
                   std::vector<std::string>(args.begin() + 1, args.end()));
}

}  // namespace sinew::app
