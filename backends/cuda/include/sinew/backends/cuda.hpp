/// @file
/// @brief Registration of the CUDA backend ("cuda") in a BackendRegistry.
#pragma once

#include "sinew/core/backend_registry.hpp"

namespace sinew {

/// Adds the "cuda" backend (factory and usability probe) to @p registry. Its kernels and
/// allocations throw sinew::Error naming the CUDA, cuBLAS or cuSPARSE call that failed.
void register_cuda_backend(BackendRegistry& registry);

}  // namespace sinew
