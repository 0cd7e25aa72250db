#include "stream_triad.hpp"

#include <algorithm>
#include <chrono>
#include <thread>

namespace sinew::bench {

namespace {
// Runs f(begin, end) on `threads` contiguous chunks of [0, n), one std::thread each, so that
// each thread first-touches and later streams the same chunk.
template <class F>
void chunked(int threads, std::size_t n, F f) {
  std::vector<std::thread> pool;
  for (int t = 0; t < threads; ++t) pool.emplace_back([=] { f(n * t / threads, n * (t + 1) / threads); });
  for (std::thread& th : pool) th.join();
}
}  // namespace

StreamTriad::StreamTriad(std::size_t mib, int threads) : threads_(threads) {
  const std::size_t n = mib * (std::size_t{1} << 20) / sizeof(double);
  a_.resize(n);
  b_.resize(n);
  c_.resize(n);
  chunked(threads_, n, [this](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) {
      a_[i] = 0.0;
      b_[i] = 1.0;
      c_[i] = 2.0;
    }
  });
}

void StreamTriad::run() {
  double* __restrict a = a_.data();
  const double* __restrict b = b_.data();
  const double* __restrict c = c_.data();
  chunked(threads_, a_.size(), [=](std::size_t lo, std::size_t hi) {
    for (std::size_t i = lo; i < hi; ++i) a[i] = b[i] + 3.0 * c[i];
  });
}

double best_triad_gbs(std::size_t mib, int threads) {
  StreamTriad t(mib, threads);
  t.run();
  double best = 0.0;
  for (int k = 0; k < 5; ++k) {
    const auto a = std::chrono::steady_clock::now();
    t.run();
    const double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - a).count();
    best = std::max(best, t.bytes() * 1e-9 / s);
  }
  return best;
}

}  // namespace sinew::bench
