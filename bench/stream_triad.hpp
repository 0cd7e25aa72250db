// STREAM triad a = b + s c on host threads: the machine's sustainable memory bandwidth, measured
// in the same run as the kernels so that each GB/s figure can be read as a fraction of it.
#pragma once

#include <cstddef>
#include <vector>

namespace sinew::bench {

/// Three arrays of a given size, first-touched by the threads that will stream them.
class StreamTriad {
 public:
  /// Arrays of @p mib MiB each, streamed by @p threads threads in contiguous chunks.
  StreamTriad(std::size_t mib, int threads);
  /// One triad pass a = b + 3 c.
  void run();
  /// Bytes one pass moves by the STREAM convention (24 per entry: two reads, one write).
  double bytes() const { return 24.0 * static_cast<double>(a_.size()); }

 private:
  int threads_;
  std::vector<double> a_, b_, c_;
};

/// Best-of-5 triad GB/s on @p threads threads and arrays of @p mib MiB (after one untimed pass).
double best_triad_gbs(std::size_t mib, int threads);

}  // namespace sinew::bench
