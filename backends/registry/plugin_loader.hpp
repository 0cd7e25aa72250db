// Backend plugins of a shared-library build: finding libsinew_backend_<name>.so files in the
// plugin folders and registering each under its name, loaded on first use (registry.cpp).
#pragma once

#include <string>
#include <vector>

#include "sinew/core/backend_registry.hpp"

namespace sinew::detail {

/// A backend this build knows of, and the CMake option that builds its plugin.
struct KnownBackend {
  std::string name;          ///< registry name
  std::string cmake_option;  ///< e.g. "-DSINEW_WITH_TBB=ON"
  std::string needs;         ///< what that option needs, e.g. "oneTBB: apt-get install libtbb-dev"
};

/// The default plugin folder: <folder of the loaded registry library>/sinew/backends.
std::string installed_plugin_directory();

/// Registers, in @p registry, each of @p known (in order) from the first of @p directories that
/// holds its plugin, or as absent with a message naming the folders and the CMake option; then
/// every other plugin found there, by name. Nothing is opened until a backend is probed or made.
void register_backend_plugins(BackendRegistry& registry, const std::vector<KnownBackend>& known,
                              const std::vector<std::string>& directories);

}  // namespace sinew::detail
