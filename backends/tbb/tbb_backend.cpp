// CPU threads through oneTBB. Kernels run inside the backend's own task arena, so two backends
// with different thread counts coexist in one process without global settings.
#include <tbb/blocked_range.h>
#include <tbb/info.h>
#include <tbb/parallel_for.h>
#include <tbb/partitioner.h>
#include <tbb/task_arena.h>

#include <algorithm>
#include <memory>
#include <string>

#include "sinew/backends/tbb.hpp"
#include "sinew/core/host_memory.hpp"
#include "sinew/core/loop_backend.hpp"
#include "sinew/core/row_split.hpp"

namespace sinew {
namespace {

struct TbbExec : HostMemory {
  static constexpr bool kHostCode = true;  // host threads (Backend::for_each_range)
  std::shared_ptr<tbb::task_arena> arena;

  template <class F>
  void for_each(std::size_t n, const F& f) const {
    if (n == 0) return;
    arena->execute([&] {
      // Static partitioning: each thread streams one contiguous range (bandwidth-bound kernels).
      // Grain 1, because an index may be a whole reduction block rather than one entry.
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, n),
          [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
          },
          tbb::static_partitioner());
    });
  }
  // Row loops split into chunks of about equal work (non-zeros + 1 per row), several per thread,
  // so that rows of very different lengths (a sparse inverse factor's run from 1 to n) still
  // share the threads evenly. Chunk boundaries depend on the thread count, but every row is
  // computed whole by one thread, so the results do not.
  template <class F>
  void for_each_rows(std::size_t n, const Index* row_ptr, const F& f) const {
    if (n == 0) return;
    const std::size_t chunks = std::min<std::size_t>(n, 8 * static_cast<std::size_t>(concurrency()));
    auto boundary = [&](std::size_t c) { return balanced_row_boundary(n, row_ptr, chunks, c); };
    arena->execute([&] {
      tbb::parallel_for(
          tbb::blocked_range<std::size_t>(0, chunks),
          [&](const tbb::blocked_range<std::size_t>& r) {
            for (std::size_t c = r.begin(); c != r.end(); ++c)
              for (std::size_t i = boundary(c), end = boundary(c + 1); i < end; ++i) f(i);
          },
          tbb::static_partitioner());
    });
  }
  std::string execution_space() const {
    return "oneTBB task arena, " + std::to_string(concurrency()) + (concurrency() == 1 ? " thread" : " threads");
  }
  int concurrency() const { return arena->max_concurrency(); }
};

class TbbBackend final : public LoopBackend<TbbExec> {
 public:
  explicit TbbBackend(const BackendOptions& o)
      : LoopBackend("tbb", TbbExec{{}, std::make_shared<tbb::task_arena>(arena_threads(o))}) {}

 private:
  static int arena_threads(const BackendOptions& o) {
    const int automatic = tbb::task_arena::automatic;  // a copy: the constant has no definition to bind to
    return o.threads > 0 ? o.threads : automatic;
  }
};

}  // namespace

void register_tbb_backend(BackendRegistry& registry) {
  registry.add(
      "tbb",
      [](const BackendOptions& o) {
        if (o.threads < 0) throw Error("tbb backend: threads must be >= 0 (0 = all), got " + std::to_string(o.threads));
        return std::unique_ptr<Backend>(new TbbBackend(o));
      },
      [] {
        const int n = tbb::info::default_concurrency();
        return BackendInfo{"tbb", true, true,
                           "oneTBB task arena, " + std::to_string(n) + (n == 1 ? " thread" : " threads"), n};
      });
}

}  // namespace sinew
