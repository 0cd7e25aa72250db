// Internal: deterministic chunked parallel loop (oneTBB when available, serial otherwise).
#pragma once

#include <vector>

#include "sinew/core/config.hpp"

#if SINEW_HAVE_TBB
#include <tbb/blocked_range.h>
#include <tbb/parallel_for.h>
#endif

namespace sinew::detail {

// Calls f(chunk, begin, end) for the fixed chunks [chunk * size, min(n, (chunk + 1) * size)).
// The chunking depends only on n and size, never on the thread count, so results stored per
// chunk and concatenated in chunk order are the same whatever the number of threads.
template <class F>
void for_each_chunk(Index n, Index size, F&& f) {
  const Index n_chunks = (n + size - 1) / size;
#if SINEW_HAVE_TBB
  tbb::parallel_for(tbb::blocked_range<Index>(0, n_chunks), [&](const tbb::blocked_range<Index>& r) {
    for (Index c = r.begin(); c != r.end(); ++c) f(c, c * size, c * size + size < n ? c * size + size : n);
  });
#else
  for (Index c = 0; c < n_chunks; ++c) f(c, c * size, c * size + size < n ? c * size + size : n);
#endif
}

// Concatenates per-chunk results in chunk order.
template <class T>
std::vector<T> concatenate(std::vector<std::vector<T>>& parts) {
  size_t total = 0;
  for (const auto& p : parts) total += p.size();
  std::vector<T> out;
  out.reserve(total);
  for (auto& p : parts) out.insert(out.end(), p.begin(), p.end());
  return out;
}

}  // namespace sinew::detail
