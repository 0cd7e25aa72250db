// Kokkos on Kokkos::DefaultExecutionSpace: serial with Debian's Kokkos (Serial space only),
// parallel with a user's Kokkos built for OpenMP, Threads or CUDA; the same source either way.
#include <Kokkos_Core.hpp>

#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "sinew/backends/kokkos.hpp"
#include "sinew/core/loop_backend.hpp"

namespace sinew {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using MemSpace = Space::memory_space;

// Kokkos may be initialised once per process. sinew initialises it on first use unless the
// application already has, and finalises at exit only what it initialised itself.
void ensure_kokkos_initialized(int threads) {
  static std::once_flag once;
  std::call_once(once, [threads] {
    if (Kokkos::is_initialized()) return;
    Kokkos::InitArguments args;
    args.num_threads = threads > 0 ? threads : -1;
    args.disable_warnings = true;
    Kokkos::initialize(args);
    std::atexit([] { Kokkos::finalize(); });
  });
}

struct KokkosExec {
  // Host-code range kernels only where Kokkos runs on the host (Debian: Serial).
  static constexpr bool kHostCode = std::is_same_v<MemSpace, Kokkos::HostSpace>;
  template <class F>
  void for_each(std::size_t n, const F& f) const {
    if (n == 0) return;
    // The loop::* functors have SINEW_HD call operators, so they run in any execution space.
    Kokkos::parallel_for("sinew::for_each", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::size_t>>(0, n), f);
  }
  void* allocate(std::size_t bytes) const {
    try {
      return Kokkos::kokkos_malloc<MemSpace>("sinew::DeviceArray", bytes);
    } catch (const std::exception& e) {
      throw Error("kokkos allocation of " + std::to_string(bytes) + " bytes failed: " + e.what());
    }
  }
  void deallocate(void* p) const noexcept { Kokkos::kokkos_free<MemSpace>(p); }
  void copy(void* dst, const void* src, std::size_t bytes, CopyKind kind) const {
    using Unmanaged = Kokkos::MemoryTraits<Kokkos::Unmanaged>;
    using HostView = Kokkos::View<char*, Kokkos::HostSpace, Unmanaged>;
    using DevView = Kokkos::View<char*, MemSpace, Unmanaged>;
    char* d = static_cast<char*>(dst);
    char* s = const_cast<char*>(static_cast<const char*>(src));
    switch (kind) {
      case CopyKind::kHostToDevice:
        Kokkos::deep_copy(DevView(d, bytes), HostView(s, bytes));
        break;
      case CopyKind::kDeviceToHost:
        Kokkos::deep_copy(HostView(d, bytes), DevView(s, bytes));
        break;
      case CopyKind::kDeviceToDevice:
        Kokkos::deep_copy(DevView(d, bytes), DevView(s, bytes));
        break;
    }
  }
  void synchronize() const { Kokkos::fence(); }
  std::string execution_space() const {
    return std::string("Kokkos ") + Space::name() + " execution space, " + std::to_string(concurrency()) +
           (concurrency() == 1 ? " thread" : " threads");
  }
  int concurrency() const { return Space().concurrency(); }
};

class KokkosBackend final : public LoopBackend<KokkosExec> {
 public:
  KokkosBackend() : LoopBackend("kokkos", KokkosExec{}) {}
};

}  // namespace

void register_kokkos_backend(BackendRegistry& registry) {
  registry.add(
      "kokkos",
      [](const BackendOptions& o) {
        ensure_kokkos_initialized(o.threads);
        return std::unique_ptr<Backend>(new KokkosBackend());
      },
      [] {
        ensure_kokkos_initialized(0);
        const KokkosExec e;
        return BackendInfo{"kokkos", true, true, e.execution_space(), e.concurrency()};
      });
}

}  // namespace sinew
