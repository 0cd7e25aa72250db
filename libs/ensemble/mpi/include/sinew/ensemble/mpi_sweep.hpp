/// @file
/// @brief A sweep spread over MPI ranks with dynamic load balancing: rank 0 hands out the next
/// variant index to whichever rank asks, gathers every rank's result and writes the same
/// summary.csv as run_sweep() on one machine. No MPI type appears here, so programs that include
/// it need no MPI headers (only the link).
#pragma once

#include <optional>

#include "sinew/ensemble/sweep_runner.hpp"

namespace sinew::ensemble {

/// MPI_Init_thread (funneled: only the main thread calls MPI) on construction, MPI_Finalize on
/// destruction; one per process.
class MpiSession {
 public:
  /// Initializes MPI with the program's arguments.
  MpiSession(int& argc, char**& argv);
  ~MpiSession();
  MpiSession(const MpiSession&) = delete;             ///< one per process
  MpiSession& operator=(const MpiSession&) = delete;  ///< one per process
  /// This process's rank in MPI_COMM_WORLD.
  int rank() const { return rank_; }
  /// The number of ranks in MPI_COMM_WORLD.
  int size() const { return size_; }
  /// MPI_Abort on MPI_COMM_WORLD with @p code: for an error on one rank that the others wait on.
  [[noreturn]] void abort(int code) const;

 private:
  int rank_ = 0;
  int size_ = 1;
};

/// How run_sweep_mpi() shares the work.
struct MpiSweepOptions {
  /// Rank 0 also runs variants (on a second thread) besides handing them out; false: it only
  /// coordinates (polling for requests, sleeping between polls, so it takes almost no CPU).
  bool root_computes = true;
};

/// Runs every variant of @p sweep over the ranks of MPI_COMM_WORLD; every rank calls it with the
/// same sweep and options (options.jobs is ignored: one variant at a time per rank, a tbb variant
/// with options.threads threads, default 1). Variants already recorded under options.out_dir are
/// skipped as in run_sweep(). A variant that throws is recorded as failed on its rank and
/// reported to rank 0. Returns the result on rank 0 (after writing summary.csv and timings.csv),
/// nullopt on the others. @throws sinew::Error when the output folder cannot be written, or on
/// rank 0 when a rank's result message does not parse (a protocol error, not a variant's).
std::optional<SweepResult> run_sweep_mpi(const SweepFile& sweep, const SweepOptions& options,
                                         const MpiSweepOptions& mpi = {});

}  // namespace sinew::ensemble
