// Host-side parallel loop of the linalg library (private): oneTBB when available, a plain loop
// otherwise. Callers give each index its own output, so results do not depend on the thread count.
#pragma once

#include <cstddef>

#if SINEW_HAVE_TBB
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#endif

namespace sinew::detail {

/// Calls f(i) for every i < n, possibly concurrently; in a plain loop unless @p parallel, so
/// that light loops over small systems (a rigid multibody step) never wake worker threads, which
/// then spin waiting for more work.
template <class F>
void host_parallel_for(std::size_t n, const F& f, bool parallel = true) {
#if SINEW_HAVE_TBB
  if (!parallel) {
    for (std::size_t i = 0; i < n; ++i) f(i);
    return;
  }
  tbb::parallel_for(tbb::blocked_range<std::size_t>(0, n), [&](const tbb::blocked_range<std::size_t>& r) {
    for (std::size_t i = r.begin(); i != r.end(); ++i) f(i);
  });
#else
  (void)parallel;
  for (std::size_t i = 0; i < n; ++i) f(i);
#endif
}

}  // namespace sinew::detail
