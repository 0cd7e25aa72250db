// The kokkos backend runs on the execution spaces its Kokkos was built with (SINEW_TEST_KOKKOS_DEVICES,
// Kokkos_DEVICES at configure time): with OpenMP (scripts/kokkos.sh's Kokkos) in parallel on the
// threads BackendOptions asks for, with Debian's Serial-only Kokkos on one.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <mutex>
#include <set>
#include <string>
#include <thread>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"

namespace sinew::kokkos_backend_test {
namespace {

const std::string kDevices = SINEW_TEST_KOKKOS_DEVICES;  // e.g. "OPENMP;SERIAL"; "" without kokkos
const bool kOpenMp = kDevices.find("OPENMP") != std::string::npos;

// The threads OpenMP gives Kokkos' pool: OMP_NUM_THREADS when set, else every hardware thread.
int expected_pool() {
  if (const char* env = std::getenv("OMP_NUM_THREADS"); env && std::atoi(env) > 0) return std::atoi(env);
  return static_cast<int>(std::thread::hardware_concurrency());
}

// The distinct threads that ran a range kernel's calls.
class ThreadSet final : public RangeKernel {
 public:
  void operator()(std::size_t, std::size_t) const override {
    const std::lock_guard<std::mutex> lock(mutex_);
    ids_.insert(std::this_thread::get_id());
  }
  std::size_t size() const { return ids_.size(); }

 private:
  mutable std::mutex mutex_;
  mutable std::set<std::thread::id> ids_;
};

class KokkosBackend : public ::testing::Test {
 protected:
  void SetUp() override {
    if (kDevices.empty()) GTEST_SKIP() << "built without the kokkos backend";
  }
};

TEST_F(KokkosBackend, ReportsTheSpaceAndThreadsItWasBuiltWith) {
  BackendInfo info;
  for (const BackendInfo& i : builtin_backends().list())
    if (i.name == "kokkos") info = i;
  ASSERT_TRUE(info.usable) << info.where;
  if (kOpenMp) {
    EXPECT_NE(info.where.find("OpenMP execution space"), std::string::npos) << info.where;
    EXPECT_EQ(info.concurrency, expected_pool()) << info.where;
    EXPECT_NE(info.where.find(std::to_string(expected_pool()) + " thread"), std::string::npos) << info.where;
  } else {
    EXPECT_NE(info.where.find("Serial execution space, 1 thread"), std::string::npos) << info.where;
    EXPECT_EQ(info.concurrency, 1);
  }
}

TEST_F(KokkosBackend, RunsOnTheThreadsItIsMadeWith) {
  const int pool = kOpenMp ? expected_pool() : 1;
  for (int threads : {1, 2, 0}) {
    BackendOptions o;
    o.threads = threads;
    auto b = make_backend("kokkos", o);
    const int expected = threads == 0 ? pool : std::min(threads, pool);
    EXPECT_EQ(b->concurrency(), expected) << threads << " threads asked";
    ThreadSet seen;
    b->for_each_range(1000, seen);  // split into ranges, one thread each (statically scheduled)
    EXPECT_EQ(seen.size(), static_cast<std::size_t>(expected)) << threads << " threads asked";
  }
  BackendOptions bad;
  bad.threads = -1;
  EXPECT_SINEW_ERROR(make_backend("kokkos", bad), "kokkos backend", "threads must be >= 0", "-1");
}

}  // namespace
}  // namespace sinew::kokkos_backend_test
