// Shared by `sinew run` and `sinew info`: reading a file's text, a scene's size in words, and the
// summary of a run's outputs.
#pragma once

#include <cstdint>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"
#include "sinew/scene/simulation.hpp"

namespace sinew::app {

/// "1 rigid body", "2 rigid bodies": @p n with the noun in the number it takes.
inline std::string count_text(std::size_t n, const char* one, const char* many) {
  return std::to_string(n) + " " + (n == 1 ? one : many);
}

/// "N vertices, N tets, ..." listing the counts of @p s (the non-zero ones unless @p all), then
/// the DOFs.
inline std::string size_text(const scene::SimulationSize& s, bool all = false) {
  std::string out;
  auto add = [&](std::size_t n, const char* one, const char* many) {
    if (n == 0 && !all) return;
    if (!out.empty()) out += ", ";
    out += count_text(n, one, many);
  };
  add(static_cast<std::size_t>(s.vertices), "vertex", "vertices");
  add(s.tets, "tet", "tets");
  add(s.triangles, "triangle", "triangles");
  add(s.rigid_bodies, "rigid body", "rigid bodies");
  add(s.obstacles, "obstacle", "obstacles");
  add(s.targets, "target", "targets");
  add(s.cables, "cable", "cables");
  add(s.joints, "joint", "joints");
  if (!out.empty()) out += "; ";
  return out + count_text(static_cast<std::size_t>(s.degrees_of_freedom), "DOF", "DOFs");
}

/// Runs @p scene (read and checked) as `sinew COMMAND` does with the options @p args (--backend,
/// --steps, --out, --every, --png, --png-every, --checkpoint-every, --resume, --quiet): progress,
/// outputs, Ctrl-C. @p scene_hash fingerprints its text for checkpoints; @p source names it in
/// messages (the file, or the demo's name). Returns the exit code (0, 1 failed step, 130
/// interrupted). @throws sinew::Error for bad options, backend or checkpoint, before any output.
int run_scene(const std::string& command, const scene::SceneFile& scene, std::uint64_t scene_hash,
              const std::string& source, const std::vector<std::string>& args);

/// Prints how the run ended and the files it wrote under @p out.
inline void print_summary(const scene::RunResult& r, const std::filesystem::path& out, long steps_now) {
  const long done = r.last_step - r.first_step;
  std::printf("%s: steps %ld -> %ld in %.2f s (%.3g ms/step)\n",
              r.status == scene::RunResult::Status::kCompleted ? "done"
              : r.status == scene::RunResult::Status::kStopped ? "stopped"
                                                               : "failed",
              r.first_step, steps_now, r.wall_seconds,
              done > 0 ? 1e3 * r.wall_seconds / static_cast<double>(done) : 0.0);
  std::printf("wrote %s/\n", out.string().c_str());
  if (!r.csv.empty()) std::printf("  %s (per-step scalars)\n", r.csv.string().c_str());
  for (const std::filesystem::path& p : r.series)
    std::printf("  %s (%ld VTU frames, open in ParaView)\n", p.string().c_str(), r.frames);
  if (std::filesystem::exists(out / "obj"))
    std::printf("  %s/<body>_<step>.obj (surfaces)\n", (out / "obj").string().c_str());
  if (r.snapshots > 0) std::printf("  %s/frame_*.png (%ld snapshots)\n", (out / "png").string().c_str(), r.snapshots);
  if (!r.checkpoints.empty())
    std::printf("  %s (%zu checkpoint%s, the last: %s)\n", (out / "checkpoints").string().c_str(), r.checkpoints.size(),
                r.checkpoints.size() == 1 ? "" : "s", r.checkpoints.back().filename().string().c_str());
}

}  // namespace sinew::app
