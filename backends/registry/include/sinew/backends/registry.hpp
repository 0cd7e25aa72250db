/// @file
/// @brief The backends of this installation, made by name at run time.
///
/// A static build links every backend it was configured with into this library. A shared build
/// (BUILD_SHARED_LIBS=ON) links serial only and loads the others, and any backend of the user's
/// own, from plugins (libsinew_backend_NAME.so, see sinew/backends/plugin.hpp) found in
/// backend_plugin_directories() the first time each is probed or made: backends installed after
/// a program was linked are usable without relinking it.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// The registry of this installation, made once on first use: serial, tbb, kokkos and cuda
/// (linked in, loaded from a plugin, or marked absent with how to get them), then any other
/// plugin found, by name.
const BackendRegistry& builtin_backends();

/// A registry like builtin_backends() whose plugins are searched in @p plugin_directories
/// (in order; the first plugin of a name wins). Throws sinew::Error when @p plugin_directories is
/// not empty in a static build, which loads no plugins.
BackendRegistry make_backend_registry(const std::vector<std::string>& plugin_directories);

/// Whether this is a shared build whose optional backends are plugins loaded at run time.
bool backends_are_plugins();

/// The folders builtin_backends() searches for plugins, in order: each entry of
/// $SINEW_BACKEND_PATH (':'-separated), then LIBDIR/sinew/backends beside the installed
/// libsinew_backends.so. Empty in a static build.
std::vector<std::string> backend_plugin_directories();

/// Makes backend @p name ("serial", "tbb", "kokkos", "cuda" or a plugin's name); throws
/// sinew::Error saying which backend, why it is unavailable, and the CMake option, plugin or
/// hardware it needs.
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options = {});

/// The backend name chosen by the environment: $SINEW_BACKEND when set and non-empty,
/// otherwise @p fallback.
std::string backend_name_from_environment(const std::string& fallback = "serial");

}  // namespace sinew
