// sinew-mpi: `sinew sweep` over MPI ranks (mpirun -np K sinew-mpi sweep SWEEP --out DIR). A
// program of its own so that the sinew program never links MPI. Exit codes as sinew sweep: 0 every
// variant ok, 1 some failed (rank 0's code; mpirun passes it on), 2 bad sweep file or option.
#include <algorithm>
#include <cstdio>
#include <exception>
#include <string>
#include <vector>

#include "sinew/ensemble/mpi_sweep.hpp"
#include "sweep_args.hpp"

int main(int argc, char** argv) {
  sinew::ensemble::MpiSession mpi(argc, argv);
  const std::vector<std::string> args(argv + std::min(argc, 2), argv + argc);
  if (argc < 2 || std::string(argv[1]) != "sweep") {
    if (mpi.rank() == 0)
      std::fputs(
          "usage: mpirun -np K sinew-mpi sweep SWEEP --out DIR [--backend B] [--threads N] [--retry-failed]\n"
          "                                [--coordinate-only] [--quiet]\n"
          "  runs the variants of a sweep file over K ranks (rank 0 hands them out one by one and,\n"
          "  unless --coordinate-only, runs some too); writes DIR/summary.csv as `sinew sweep` does\n",
          stderr);
    return 2;
  }
  sinew::app::SweepArgs a;
  try {
    a = sinew::app::parse_sweep_args(args, true);
  } catch (const std::exception& e) {
    // Every rank reads the same files, so a bad sweep file fails on every rank alike: each
    // returns 2 (rank 0 says why).
    if (mpi.rank() == 0) std::fprintf(stderr, "sinew-mpi sweep: error: %s\n", e.what());
    return 2;
  }
  try {
    const std::size_t total = sinew::ensemble::variant_count(a.sweep);
    if (!a.quiet && mpi.rank() == 0)
      a.options.on_done = [total, done = std::size_t{0}](const sinew::ensemble::VariantResult& r) mutable {
        sinew::app::print_variant(r, ++done, total);
      };
    sinew::ensemble::MpiSweepOptions mo;
    mo.root_computes = !a.coordinate_only;
    const auto r = sinew::ensemble::run_sweep_mpi(a.sweep, a.options, mo);
    return r ? sinew::app::report_sweep(*r, "sinew-mpi") : 0;
  } catch (const std::exception& e) {
    // Trouble outside any variant (the output folder cannot be written) on one rank: the others
    // would wait for it forever, so the whole job ends.
    std::fprintf(stderr, "sinew-mpi sweep (rank %d): error: %s\n", mpi.rank(), e.what());
    mpi.abort(2);
  }
}
