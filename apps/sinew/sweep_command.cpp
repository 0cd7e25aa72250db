// `sinew sweep SWEEP --out DIR`: runs every variant of a sweep file on this machine
// (ensemble::run_sweep) and writes DIR/summary.csv. Exit codes: 0 every variant ok, 1 some
// variant failed (the summary is still written), 2 a bad sweep file or option.
#include "commands.hpp"
#include "sweep_args.hpp"

namespace sinew::app {

int sweep_command(const std::vector<std::string>& args) {
  SweepArgs a = parse_sweep_args(args, false);
  const std::size_t total = ensemble::variant_count(a.sweep);
  if (!a.quiet) {
    a.options.on_done = [total, done = std::size_t{0}](const ensemble::VariantResult& r) mutable {
      print_variant(r, ++done, total);
    };
    std::printf("sweep %s: %zu variants of %s -> %s\n", a.sweep.name.c_str(), total,
                a.sweep.base_scene.lexically_normal().string().c_str(), a.options.out_dir.string().c_str());
    std::fflush(stdout);
  }
  return report_sweep(ensemble::run_sweep(a.sweep, a.options), "sinew sweep");
}

}  // namespace sinew::app
