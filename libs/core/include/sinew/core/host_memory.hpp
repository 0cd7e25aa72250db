/// @file
/// @brief Memory policy of the CPU backends: 64-byte aligned host allocations and memcpy copies.
#pragma once

#include <cstddef>

#include "sinew/core/backend.hpp"

namespace sinew {

/// Host memory for LoopBackend execution policies of CPU backends.
struct HostMemory {
  /// Allocates @p bytes aligned to 64 bytes (a cache line); throws sinew::Error when it fails.
  static void* allocate(std::size_t bytes);
  /// Frees memory from allocate().
  static void deallocate(void* pointer) noexcept;
  /// memcpy: host and "device" memory are the same here.
  static void copy(void* dst, const void* src, std::size_t bytes, CopyKind kind);
  /// Nothing to wait for: CPU loops return when done.
  static void synchronize() {}
};

}  // namespace sinew
