// Shared by `sinew sweep` and `sinew-mpi sweep`: their arguments, the progress line of a variant
// and the closing report. Everything that can be refused (options, sweep file, forced backend) is
// checked before the output folder is created.
#pragma once

#include <cstdio>
#include <string>
#include <vector>

#include "options.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/ensemble/sweep_runner.hpp"

namespace sinew::app {

/// A parsed sweep command line.
struct SweepArgs {
  ensemble::SweepFile sweep;       ///< the sweep file, read and checked
  ensemble::SweepOptions options;  ///< out_dir, jobs, backend, threads, retry_failed
  bool quiet = false;              ///< no per-variant progress lines
  bool coordinate_only = false;    ///< sinew-mpi: rank 0 only hands out work
};

/// Parses `SWEEP --out DIR [--jobs N] [--backend B] [--threads N] [--retry-failed] [--quiet]`
/// (and `--coordinate-only` when @p mpi). @throws sinew::Error for bad options or a bad sweep file.
inline SweepArgs parse_sweep_args(const std::vector<std::string>& args, bool mpi) {
  if (args.empty() || args.front().rfind("--", 0) == 0)
    throw Error("sweep: expects a sweep file: sinew sweep SWEEP.json --out DIR");
  SweepArgs a;
  std::vector<std::string> flags = {"quiet", "retry-failed"};
  if (mpi) flags.push_back("coordinate-only");
  const Options o("sweep", std::vector<std::string>(args.begin() + 1, args.end()),
                  {"out", "jobs", "backend", "threads"}, flags);
  a.quiet = o.has("quiet");
  a.options.retry_failed = o.has("retry-failed");
  a.coordinate_only = o.has("coordinate-only");
  if (!o.has("out")) throw Error("sweep: --out DIR is required");
  a.options.out_dir = o.str("out", "");
  a.options.jobs = o.integer("jobs", 0, 1, 4096);
  a.options.threads = o.integer("threads", 0, 1, 4096);
  a.options.backend = o.str("backend", "");
  if (!a.options.backend.empty()) make_backend(a.options.backend);  // an unknown backend: refused now
  a.sweep = ensemble::read_sweep_file(args.front());
  return a;
}

/// The progress line of one finished variant, the @p done-th of @p total to end (stderr).
inline void print_variant(const ensemble::VariantResult& r, std::size_t done, std::size_t total) {
  std::fprintf(stderr, "[%zu/%zu] %s %s%s (%.2f s)%s%s\n", done, total, ensemble::variant_folder(r.index).c_str(),
               r.ok() ? "ok" : "FAILED", r.reused ? " (earlier run)" : "", r.wall_seconds, r.ok() ? "" : ": ",
               r.error.c_str());
}

/// Prints the closing report and returns the exit code: 0 every variant ok, 1 some failed.
inline int report_sweep(const ensemble::SweepResult& r, const char* who) {
  std::printf("%s: %zu variants, %zu failed, %.2f s wall on %d %s; wrote %s and %s\n", who, r.variants.size(),
              r.failed(), r.wall_seconds, r.jobs, std::string(who) == "sinew-mpi" ? "ranks" : "jobs",
              r.summary.string().c_str(), r.timings.string().c_str());
  return r.failed() == 0 ? 0 : 1;
}

}  // namespace sinew::app
