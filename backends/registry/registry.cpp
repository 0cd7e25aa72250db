#include "sinew/backends/registry.hpp"

#include <cstdlib>

#include "plugin_loader.hpp"
#include "sinew/backends/serial.hpp"
#if SINEW_HAVE_TBB
#include "sinew/backends/tbb.hpp"
#endif
#if SINEW_HAVE_KOKKOS
#include "sinew/backends/kokkos.hpp"
#endif
#if SINEW_HAVE_CUDA
#include "sinew/backends/cuda.hpp"
#endif

namespace sinew {
namespace {

// The optional backends, in the order every registry lists them, and how to build each.
const std::vector<detail::KnownBackend>& optional_backends() {
  static const std::vector<detail::KnownBackend> known{
      {"tbb", "-DSINEW_WITH_TBB=ON", "oneTBB: apt-get install libtbb-dev"},
      {"kokkos", "-DSINEW_WITH_KOKKOS=ON", "Kokkos: apt-get install libtrilinos-kokkos-dev"},
      {"cuda", "-DSINEW_WITH_CUDA=ON", "the CUDA toolkit, nvcc; runs on an sm_90 GPU"}};
  return known;
}

// A static build: the optional backends compiled into this library, or absent.
void register_linked_backends(BackendRegistry& r) {
  for (const detail::KnownBackend& k : optional_backends()) {
#if SINEW_HAVE_TBB
    if (k.name == "tbb") {
      register_tbb_backend(r);
      continue;
    }
#endif
#if SINEW_HAVE_KOKKOS
    if (k.name == "kokkos") {
      register_kokkos_backend(r);
      continue;
    }
#endif
#if SINEW_HAVE_CUDA
    if (k.name == "cuda") {
      register_cuda_backend(r);
      continue;
    }
#endif
    r.add_absent(k.name, "reconfigure with " + k.cmake_option + " (needs " + k.needs + ")");
  }
}

}  // namespace

bool backends_are_plugins() { return SINEW_BACKEND_PLUGINS != 0; }

std::vector<std::string> backend_plugin_directories() {
  std::vector<std::string> dirs;
  if (!backends_are_plugins()) return dirs;
  const char* env = std::getenv("SINEW_BACKEND_PATH");
  for (std::string rest = env ? env : ""; !rest.empty();) {
    const std::size_t colon = rest.find(':');
    const std::string dir = rest.substr(0, colon);
    if (!dir.empty()) dirs.push_back(dir);
    rest = colon == std::string::npos ? std::string() : rest.substr(colon + 1);
  }
  const std::string installed = detail::installed_plugin_directory();
  if (!installed.empty()) dirs.push_back(installed);
  return dirs;
}

BackendRegistry make_backend_registry(const std::vector<std::string>& plugin_directories) {
  BackendRegistry r;
  register_serial_backend(r);
  if (backends_are_plugins()) {
    detail::register_backend_plugins(r, optional_backends(), plugin_directories);
  } else {
    require(plugin_directories.empty(),
            "make_backend_registry: this sinew is a static build, which links its "
            "backends in and loads no plugins; build with BUILD_SHARED_LIBS=ON for plugins");
    register_linked_backends(r);
  }
  return r;
}

const BackendRegistry& builtin_backends() {
  static const BackendRegistry registry = make_backend_registry(backend_plugin_directories());
  return registry;
}

std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options) {
  return builtin_backends().make(name, options);
}

std::string backend_name_from_environment(const std::string& fallback) {
  const char* env = std::getenv("SINEW_BACKEND");
  return env && *env ? std::string(env) : fallback;
}

}  // namespace sinew
