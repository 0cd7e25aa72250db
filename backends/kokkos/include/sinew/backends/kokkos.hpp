/// @file
/// @brief Registration of the Kokkos backend ("kokkos") in a BackendRegistry.
#pragma once

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// Adds the "kokkos" backend (factory and usability probe) to @p registry.
void register_kokkos_backend(BackendRegistry& registry);

}  // namespace sinew
