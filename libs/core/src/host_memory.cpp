#include "sinew/core/host_memory.hpp"

#include <cstdlib>
#include <cstring>
#include <string>

namespace sinew {

void* HostMemory::allocate(std::size_t bytes) {
  constexpr std::size_t kAlign = 64;
  void* p = std::aligned_alloc(kAlign, (bytes + kAlign - 1) / kAlign * kAlign);
  if (!p) throw Error("host allocation of " + std::to_string(bytes) + " bytes failed (out of memory)");
  return p;
}

void HostMemory::deallocate(void* pointer) noexcept { std::free(pointer); }

void HostMemory::copy(void* dst, const void* src, std::size_t bytes, CopyKind) { std::memcpy(dst, src, bytes); }

}  // namespace sinew
