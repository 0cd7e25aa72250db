// Kokkos on Kokkos::DefaultExecutionSpace: serial with Debian's Kokkos (Serial space only),
// parallel with the OpenMP Kokkos that scripts/kokkos.sh builds from Debian's source, or a user's
// Kokkos built for OpenMP, Threads or CUDA; the same source either way.
#include <Kokkos_Core.hpp>

#include <algorithm>
#include <cstdlib>
#include <memory>
#include <mutex>
#include <string>
#include <type_traits>

#include "sinew/backends/kokkos.hpp"
#include "sinew/core/loop_backend.hpp"
#include "sinew/core/row_split.hpp"

namespace sinew {
namespace {

using Space = Kokkos::DefaultExecutionSpace;
using MemSpace = Space::memory_space;

// Kokkos may be initialised once per process. sinew initialises it on first use unless the
// application already has (then its settings hold), with the execution space's whole default thread
// pool (OpenMP: OMP_NUM_THREADS, else every hardware thread), and finalises at exit only what it
// initialised itself. Each backend then runs on the number of threads it was made with
// (BackendOptions::threads) by splitting its loops into that many ranges, so backends of different
// thread counts share the one pool.
void ensure_kokkos_initialized() {
  static std::once_flag once;
  std::call_once(once, [] {
    if (Kokkos::is_initialized()) return;
    Kokkos::InitArguments args;
    args.num_threads = -1;
    args.disable_warnings = true;
    Kokkos::initialize(args);
    std::atexit([] { Kokkos::finalize(); });
  });
}

// Threads of the default execution space's pool (1 for Serial).
int pool_threads() { return std::max(1, Space().concurrency()); }

struct KokkosExec {
  // Host-code range kernels only where Kokkos runs on the host (OpenMP, Threads or Serial).
  static constexpr bool kHostCode = std::is_same_v<MemSpace, Kokkos::HostSpace>;
  int threads = 1;  ///< host spaces: the ranges a loop is split into, at most the pool's threads

  template <class F>
  void for_each(std::size_t n, const F& f) const {
    if (n == 0) return;
    if constexpr (kHostCode) {
      // One contiguous range per thread, statically scheduled (as the tbb backend's static
      // partitioner): bandwidth-bound kernels stream their range, and an index may be a whole
      // reduction block.
      const std::size_t ranges = std::min<std::size_t>(n, static_cast<std::size_t>(threads));
      run_ranges(ranges, [&](std::size_t r) {
        for (std::size_t i = n * r / ranges, end = n * (r + 1) / ranges; i < end; ++i) f(i);
      });
    } else {
      // The loop::* functors have SINEW_HD call operators, so they run in any execution space.
      Kokkos::parallel_for("sinew::for_each", Kokkos::RangePolicy<Space, Kokkos::IndexType<std::size_t>>(0, n), f);
    }
  }
  // Host spaces: row loops split into ranges of about equal work (non-zeros + 1 per row), one per
  // thread, so that rows of very different lengths (a sparse inverse factor's, from 1 to n entries)
  // share the threads evenly. Every row is computed whole by one thread, so the results do not depend
  // on the split.
  template <class F, bool Host = kHostCode, std::enable_if_t<Host, int> = 0>
  void for_each_rows(std::size_t n, const Index* row_ptr, const F& f) const {
    if (n == 0) return;
    const std::size_t ranges = std::min<std::size_t>(n, static_cast<std::size_t>(threads));
    auto boundary = [&](std::size_t r) { return balanced_row_boundary(n, row_ptr, ranges, r); };
    run_ranges(ranges, [&](std::size_t r) {
      for (std::size_t i = boundary(r), end = boundary(r + 1); i < end; ++i) f(i);
    });
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
  int concurrency() const { return kHostCode ? threads : Space().concurrency(); }

 private:
  // Calls body(r) for r < ranges, range r on one thread of the pool; inline for a single range
  // (no fork-join for one thread's work).
  template <class Body>
  static void run_ranges(std::size_t ranges, const Body& body) {
    if (ranges == 1) return body(0);
    Kokkos::parallel_for(
        "sinew::ranges",
        Kokkos::RangePolicy<Space, Kokkos::Schedule<Kokkos::Static>, Kokkos::IndexType<std::size_t>>(0, ranges)
            .set_chunk_size(1),
        body);
  }
};

// The threads a backend made with @p requested threads runs on (0: the whole pool).
int backend_threads(int requested) {
  if (requested < 0) throw Error("kokkos backend: threads must be >= 0 (0 = all), got " + std::to_string(requested));
  if (!KokkosExec::kHostCode) return 1;  // unused: device spaces schedule their own threads
  return requested == 0 ? pool_threads() : std::min(requested, pool_threads());
}

class KokkosBackend final : public LoopBackend<KokkosExec> {
 public:
  explicit KokkosBackend(int threads) : LoopBackend("kokkos", KokkosExec{threads}) {}
};

}  // namespace

void register_kokkos_backend(BackendRegistry& registry) {
  registry.add(
      "kokkos",
      [](const BackendOptions& o) {
        ensure_kokkos_initialized();
        return std::unique_ptr<Backend>(new KokkosBackend(backend_threads(o.threads)));
      },
      [] {
        ensure_kokkos_initialized();
        const KokkosExec e{backend_threads(0)};
        return BackendInfo{"kokkos", true, true, e.execution_space(), e.concurrency()};
      });
}

}  // namespace sinew
