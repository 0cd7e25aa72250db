/// @file
/// @brief What a backend plugin exports: a shared-library build of sinew loads the tbb, kokkos
/// and cuda backends, and any backend of a user's own, from libsinew_backend_NAME.so files
/// found at run time (see sinew::backend_plugin_directories()).
///
/// A plugin is a MODULE library that links sinew::core and defines one registration function,
/// exported with SINEW_BACKEND_PLUGIN:
/// @code
///   void register_mine(sinew::BackendRegistry& r) { r.add("mine", make_mine, probe_mine); }
///   SINEW_BACKEND_PLUGIN("mine", register_mine)
/// @endcode
/// Built as libsinew_backend_mine.so and put in a plugin folder, it is made by
/// sinew::make_backend("mine") in any program linking sinew::backends, without relinking.
#pragma once

#include "sinew/core/backend_registry.hpp"
#include "sinew/core/build_stamp.hpp"

namespace sinew {

/// The description a plugin returns from its entry point.
struct BackendPluginInfo {
  /// SINEW_ABI_STAMP of the sinew the plugin was compiled against; the loader refuses a plugin
  /// whose stamp differs from its own (another version, compiler or Backend interface).
  const char* abi_stamp;
  /// The backend's registry name; it must match the file name libsinew_backend_NAME.so.
  const char* name;
  /// Adds the backend (factory and probe) under @p name to the registry it is given.
  void (*register_backend)(BackendRegistry& registry);
};

/// The name of the entry point every plugin exports (extern "C", no arguments, returns a
/// pointer to a static BackendPluginInfo); versioned so that a changed layout is not misread.
inline constexpr const char* kBackendPluginEntryPoint = "sinew_backend_plugin_v1";

}  // namespace sinew

/// Defines the entry point of a backend plugin: @p NAME (a string literal) is the backend's
/// registry name, @p REGISTER a function `void(sinew::BackendRegistry&)` that adds it.
#define SINEW_BACKEND_PLUGIN(NAME, REGISTER)                                                                      \
  extern "C" __attribute__((visibility("default"))) const ::sinew::BackendPluginInfo* sinew_backend_plugin_v1() { \
    static const ::sinew::BackendPluginInfo info{SINEW_ABI_STAMP, NAME, &REGISTER};                               \
    return &info;                                                                                                 \
  }
