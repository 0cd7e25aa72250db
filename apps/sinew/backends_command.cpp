#include <cstdio>

#include "commands.hpp"
#include "options.hpp"
#include "sinew/backends/registry.hpp"

namespace sinew::app {

int backends_command(const std::vector<std::string>& args) {
  const Options opts("backends", args, {});
  std::printf("%-8s %-9s %-7s %-8s %s\n", "backend", "compiled", "usable", "threads", "runs on / why not");
  for (const BackendInfo& b : builtin_backends().list()) {
    const std::string threads = b.usable ? std::to_string(b.concurrency) : "-";
    std::printf("%-8s %-9s %-7s %-8s %s\n", b.name.c_str(), b.compiled ? "yes" : "no", b.usable ? "yes" : "no",
                threads.c_str(), b.where.c_str());
  }
  if (backends_are_plugins()) {
    std::printf("\nplugins (searched in this order; SINEW_BACKEND_PATH adds folders before the installed one):\n");
    for (const std::string& dir : backend_plugin_directories()) std::printf("  %s\n", dir.c_str());
    for (const BackendInfo& b : builtin_backends().list())
      if (b.origin != "built in" && b.origin != "-") std::printf("  %-8s from %s\n", b.name.c_str(), b.origin.c_str());
  }
  std::printf("\ndefault backend: %s (set SINEW_BACKEND or pass --backend to choose)\n",
              backend_name_from_environment().c_str());
  return 0;
}

}  // namespace sinew::app
