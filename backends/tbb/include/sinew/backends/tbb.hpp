/// @file
/// @brief Registration of the TBB backend ("tbb") in a BackendRegistry.
#pragma once

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// Adds the "tbb" backend (factory and usability probe) to @p registry. Its factory throws
/// sinew::Error when BackendOptions::threads < 0 (0 = all hardware threads).
void register_tbb_backend(BackendRegistry& registry);

}  // namespace sinew
