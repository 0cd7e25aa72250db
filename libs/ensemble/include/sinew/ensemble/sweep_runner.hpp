/// @file
/// @brief Running a sweep on one machine: variants run concurrently without oversubscribing the
/// cores, each in its own folder, each recorded whether it succeeds or fails, resumable.
///
/// Layout of the output folder DIR:
/// - `variant_NNNN/`: what scene::run_simulation writes for variant N (run.csv, VTU, ...), and
///   `result.json`, written atomically last: the variant's status, error, outputs and a fingerprint
///   of its scene text. A re-run skips every variant whose result.json matches its scene text.
/// - `summary.csv`: one row per variant in variant order: `variant,<parameters>,<outputs>,status,
///   error`. It holds no timing, so it is bit-identical whatever the job or rank count.
/// - `timings.csv`: `variant,wall_seconds,reused` (wall time of the variant's own run; reused = 1
///   when taken from an earlier run's result.json).
/// Both tables are written atomically, also when some variants failed.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "sinew/ensemble/sweep_file.hpp"
#include "sinew/ensemble/variants.hpp"

namespace sinew::ensemble {

/// What one variant gave.
struct VariantResult {
  std::size_t index = 0;   ///< the variant's number
  bool completed = false;  ///< the run reached its last step
  /// True when the run reached its last step.
  bool ok() const { return completed; }
  std::string error;              ///< why it failed (bad value, numerical failure, exception); "" when ok
  std::vector<double> outputs;    ///< (SweepFile::outputs.size()) values; NaN when failed
  double wall_seconds = 0.0;      ///< wall time of parse, construction and run (s)
  bool reused = false;            ///< read from an earlier run's result.json instead of run
  std::uint64_t fingerprint = 0;  ///< scene::fnv1a64() of the variant's scene text
};

/// How run_sweep() runs and what it writes.
struct SweepOptions {
  std::filesystem::path out_dir = "results/sweep";  ///< output folder DIR
  /// Cores to use; 0 = std::thread::hardware_concurrency(). A variant takes variant_cores() of them.
  int jobs = 0;
  /// Backend of every variant; "" = the variant's "backend" key, else $SINEW_BACKEND, else serial.
  std::string backend;
  /// Threads of a tbb variant's arena; 0 = all jobs (tbb variants then run one at a time).
  int threads = 0;
  /// Run again the variants whose earlier result is a failure (by default every recorded
  /// result, ok or failed, is reused: a bad value fails again the same way).
  bool retry_failed = false;
  /// Called (serialized, from the worker threads) after each variant ends or is reused.
  std::function<void(const VariantResult&)> on_done;
};

/// What run_sweep() did.
struct SweepResult {
  std::vector<VariantResult> variants;  ///< one per variant, in variant order
  std::filesystem::path summary;        ///< DIR/summary.csv
  std::filesystem::path timings;        ///< DIR/timings.csv
  int jobs = 0;                         ///< cores used
  double wall_seconds = 0.0;            ///< wall time of the whole sweep (s)
  /// Variants that failed.
  std::size_t failed() const;
};

/// The backend a variant runs on: @p forced when not empty, else the scene text's "backend" key,
/// else $SINEW_BACKEND, else "serial".
std::string variant_backend(const Variant& variant, const std::string& forced);

/// Cores a variant on @p backend takes out of @p jobs: serial 1; tbb @p threads (0: all jobs);
/// anything else (kokkos, cuda: process-wide thread pools or a device) all jobs. At most jobs.
int variant_cores(const std::string& backend, int threads, int jobs);

/// Runs @p variant into @p out_dir/variant_NNNN with scene::run_simulation on @p backend (a tbb
/// arena of @p threads threads when > 0) and writes its result.json. Never throws for the
/// variant's own trouble (bad value, numerical failure, any exception): it is in the result.
VariantResult run_variant(const SweepFile& sweep, const Variant& variant, const std::filesystem::path& out_dir,
                          const std::string& backend, int threads);

/// The result recorded for @p variant under @p out_dir by an earlier run, when its result.json
/// exists, reads back and its fingerprint matches the variant's scene text; otherwise nullopt.
std::optional<VariantResult> load_result(const SweepFile& sweep, const Variant& variant,
                                         const std::filesystem::path& out_dir);

/// @p result as result.json text (numbers as exact decimal strings, NaN included).
std::string result_text(const VariantResult& result);

/// Reads result_text() back. @throws sinew::Error naming @p where when it is not one.
VariantResult parse_result(const std::string& text, const std::string& where);

/// Writes DIR/summary.csv and DIR/timings.csv atomically from @p results (one per variant, any
/// order: they are sorted by index). @throws sinew::Error naming a file that cannot be written.
void write_summary(const SweepFile& sweep, const std::vector<Variant>& variants, std::vector<VariantResult> results,
                   const std::filesystem::path& out_dir);

/// Runs every variant of @p sweep (skipping those already recorded) on up to options.jobs cores
/// and writes the summary. Variants are started in index order; a variant waits until enough
/// cores are free. @throws sinew::Error only when the output folder cannot be written.
SweepResult run_sweep(const SweepFile& sweep, const SweepOptions& options);

namespace detail {

/// The bookkeeping that run_sweep() and run_sweep_mpi() share: the results gathered in
/// SweepResult::variants (those of an earlier run included) and the variants still to run.
class SweepProgress {
 public:
  /// Creates options.out_dir, sizes out.variants to @p variants and takes, through done(), every
  /// result load_result() finds there (a failed one only when options.retry_failed is off).
  SweepProgress(const SweepFile& sweep, const std::vector<Variant>& variants, const SweepOptions& options,
                SweepResult& out);
  /// Stores @p result in its slot of out.variants and calls options.on_done. Safe to call from
  /// several threads: the calls are serialized.
  void done(const VariantResult& result);
  /// The indices of the variants still to run (no reusable result), in index order.
  const std::vector<std::size_t>& todo() const { return todo_; }
  /// Once every variant is done: writes the summary (write_summary()) and sets out.summary,
  /// out.timings and out.wall_seconds (since @p start).
  void finish(std::chrono::steady_clock::time_point start);

 private:
  const SweepFile& sweep_;
  const std::vector<Variant>& variants_;
  const SweepOptions& options_;
  SweepResult& out_;
  std::mutex mutex_;
  std::vector<std::size_t> todo_;
};

}  // namespace detail

}  // namespace sinew::ensemble
