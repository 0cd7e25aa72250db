/// @file
/// @brief The backends compiled into this build, made by name at run time.
#pragma once

#include <memory>
#include <string>

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// The registry of this build: serial, tbb, kokkos and cuda, each compiled in or marked absent
/// with the CMake option that would provide it.
const BackendRegistry& builtin_backends();

/// Makes backend @p name ("serial", "tbb", "kokkos", "cuda"); throws sinew::Error saying which
/// backend, why it is unavailable, and the CMake option or hardware it needs.
std::unique_ptr<Backend> make_backend(const std::string& name, const BackendOptions& options = {});

/// The backend name chosen by the environment: $SINEW_BACKEND when set and non-empty,
/// otherwise @p fallback.
std::string backend_name_from_environment(const std::string& fallback = "serial");

}  // namespace sinew
