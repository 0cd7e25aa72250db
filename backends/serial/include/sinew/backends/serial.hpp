/// @file
/// @brief Registration of the Serial backend ("serial") in a BackendRegistry.
#pragma once

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// Adds the "serial" backend (factory and usability probe) to @p registry.
void register_serial_backend(BackendRegistry& registry);

}  // namespace sinew
