// Subcommands of the sinew program; each takes the arguments after its name and returns the
// process exit code.
#pragma once

#include <string>
#include <vector>

namespace sinew::app {

/// `sinew backends`: lists every backend, whether it is compiled in and usable, and where it runs.
int backends_command(const std::vector<std::string>& args);
/// `sinew compare`: times the sparse and vector kernels of every usable backend on a generated
/// FEM-like matrix and prints a side-by-side table (also written as CSV).
int compare_command(const std::vector<std::string>& args);
/// `sinew demo [NAME]`: runs a built-in scene (default "cantilever": a soft beam under gravity,
/// with a chosen integrator, writing the per-step energies and tip motion as CSV; any other name:
/// a reference scene of scenes/ embedded in the program, run as `sinew run` does). `--list` names them.
int demo_command(const std::vector<std::string>& args);
/// `sinew run SCENE`: runs a scene file with progress, writing run.csv, VTU series, PNG snapshots
/// and checkpoints (scene::run_simulation); resumes from a checkpoint.
int run_command(const std::vector<std::string>& args);
/// `sinew info SCENE`: checks a scene file (building it on the serial backend) and prints its
/// name, kind, size, time step, duration, backend and outputs.
int info_command(const std::vector<std::string>& args);
/// `sinew sweep SWEEP --out DIR`: runs every variant of a sweep file on this machine's cores and
/// writes DIR/summary.csv (ensemble::run_sweep); resumable.
int sweep_command(const std::vector<std::string>& args);
/// `sinew contact solve FILE`: solves a contact problem file (FCLIB or Siconos .dat, local or
/// global) with a sinew solver, prints iterations, natural-map error and time, writes the
/// solution into an FCLIB file (--out).
int contact_command(const std::vector<std::string>& args);
/// `sinew plot CSV`: draws columns of a CSV file with a header row as a PNG line chart.
int plot_command(const std::vector<std::string>& args);

}  // namespace sinew::app
