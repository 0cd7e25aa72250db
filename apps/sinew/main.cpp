// The sinew command-line program.
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "commands.hpp"
#include "sinew/core/error.hpp"

namespace {

void usage(std::FILE* out) {
  std::fputs(
      "usage: sinew COMMAND [options]\n"
      "\n"
      "commands:\n"
      "  backends                    list the compute backends, whether each can run here, and where\n"
      "  compare [--size N] [--backend B] [--repeat R] [--threads N] [--out DIR]\n"
      "                              time the kernels of every usable backend (or only B) on a\n"
      "                              generated N^3-vertex FEM-like matrix; writes DIR/compare.csv\n"
      "  contact solve FILE [--solver NAME] [--tolerance T] [--max-iterations N] [--out FILE.hdf5] [--backend B]\n"
      "                              solve a frictional contact problem file (FCLIB .hdf5 or Siconos .dat,\n"
      "                              local or global form; solver newton-fb (default), newton-minmap, pgs,\n"
      "                              newton-cr-fb, newton-cr-minmap; tolerance 1e-8 on the natural-map error\n"
      "                              relative to ||q||); prints iterations, error and time; --out writes\n"
      "                              the problem with its /solution as FCLIB; exit 1 when not converged\n"
      "  demo [cantilever] [--integrator NAME] [--dt S] [--steps N] [--cells N] [--model M] [--out DIR]\n"
      "                              run a built-in scene (cantilever: a soft beam of 60 N^3 tets\n"
      "                              under gravity) and write DIR/cantilever.csv (default: implicit_euler,\n"
      "                              dt 0.005, 400 steps, N = 2, stable_neo_hookean, results)\n"
      "  demo NAME [run options]     run a reference scene built into the program (scenes/NAME.json)\n"
      "                              as `sinew run` does, with the same options; demo --list names them\n"
      "  run SCENE [--backend B] [--steps N | --frames N] [--out DIR] [--overwrite] [--every N] [--png]\n"
      "          [--png-every N] [--checkpoint-every N] [--resume CHECKPOINT] [--strict] [--quiet]\n"
      "                              run a scene file (scenes/*.json) to step N (default: the scene's\n"
      "                              steps) with progress; writes DIR (default results/NAME): run.csv,\n"
      "                              vtu/BODY.pvd, png/step_STEP.png, checkpoints/step_STEP.sinewckpt\n"
      "                              (backend: --backend, else the scene's, else SINEW_BACKEND, else serial);\n"
      "                              a DIR holding an earlier run needs --overwrite (which removes that\n"
      "                              run's files only); --strict: exit 1 when a step was accepted with a\n"
      "                              warning (a contact solve above its accept limit)\n"
      "  info SCENE                  check a scene file and print its size, time step, steps and outputs\n"
      "  sweep SWEEP --out DIR [--jobs N] [--backend B] [--threads N] [--retry-failed] [--quiet]\n"
      "                              run every variant of a sweep file (docs/sweeps.md) on N cores;\n"
      "                              writes DIR/variant_NNNN/, DIR/summary.csv; skips finished variants\n"
      "  plot CSV [--x COLUMN] [--y COL1,COL2,...] [--logy] [--logx] [--title T] [--out FILE.png]\n"
      "          [--width W] [--height H]\n"
      "                              draw a PNG line chart of CSV columns (header row required; default\n"
      "                              x: the first column, y: every other numeric column, out: CSV.png)\n"
      "\n"
      "The backend may also be chosen with the SINEW_BACKEND environment variable.\n"
      "Exit codes: 0 success, 1 a numerical failure (reported; with --strict also a step accepted with\n"
      "a warning), 2 bad input or usage\n"
      "(sinew run: 130 when interrupted by Ctrl-C; it stops cleanly after the step).\n",
      out);
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string command = argv[1];
  const std::vector<std::string> args(argv + 2, argv + argc);
  try {
    if (command == "backends") return sinew::app::backends_command(args);
    if (command == "compare") return sinew::app::compare_command(args);
    if (command == "contact") return sinew::app::contact_command(args);
    if (command == "demo") return sinew::app::demo_command(args);
    if (command == "plot") return sinew::app::plot_command(args);
    if (command == "run") return sinew::app::run_command(args);
    if (command == "info") return sinew::app::info_command(args);
    if (command == "sweep") return sinew::app::sweep_command(args);
    if (command == "help" || command == "--help" || command == "-h") {
      usage(stdout);
      return 0;
    }
    std::fprintf(stderr, "sinew: unknown command '%s'\n\n", command.c_str());
    usage(stderr);
    return 2;
  } catch (const sinew::Error& e) {
    std::fprintf(stderr, "sinew %s: error: %s\n", command.c_str(), e.what());
    return 2;
  } catch (const std::exception& e) {  // a library's own exception that a reader failed to translate
    std::fprintf(stderr, "sinew %s: error: %s\n", command.c_str(), e.what());
    return 2;
  }
}
