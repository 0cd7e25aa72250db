// Counts heap allocations of NarrowPhase::mesh_mesh_contacts() with a workspace, through a
// replaced global operator new. Skipped under AddressSanitizer, which replaces it itself.
#include <gtest/gtest.h>

#include "sanitizers.hpp"

#ifndef SINEW_TEST_ASAN

#include <atomic>
#include <cmath>
#include <cstdlib>
#include <new>

#include "collision_test_util.hpp"
#include "sinew/collision/narrow_phase.hpp"

namespace {
// Counting is switched on only around the measured calls; every thread's allocations count.
std::atomic<bool> g_counting{false};
std::atomic<long> g_allocations{0};
}  // namespace

// The replaceable forms that the others (array, nothrow, sized delete) forward to by default.
void* operator new(std::size_t n) {
  if (g_counting.load(std::memory_order_relaxed)) g_allocations.fetch_add(1, std::memory_order_relaxed);
  if (void* p = std::malloc(n == 0 ? 1 : n)) return p;
  throw std::bad_alloc();
}
void operator delete(void* p) noexcept { std::free(p); }
void operator delete(void* p, std::size_t) noexcept { std::free(p); }

namespace sinew::collision_narrow_phase_allocation_test {
namespace {

// Allocations made by f().
template <class F>
long count_allocations(F&& f) {
  g_allocations = 0;
  g_counting = true;
  f();
  g_counting = false;
  return g_allocations.load();
}

TEST(NarrowPhaseAllocation, NoAllocationAfterTheFirstCallWithUnchangedTopology) {
  test::Cloth a = test::make_cloth(50, 40, 1.0, 0.8, 0.0);
  test::Cloth b = test::make_cloth(45, 43, 0.9, 0.9, 0.0);
  for (Vec3& x : a.x) x[2] += 0.01 * std::sin(9 * x[0]);
  for (Vec3& x : b.x) x = v3::add(x, v3::make(0.05, -0.05, 0.012));
  const std::vector<Vec3> b0 = b.x;
  std::vector<Vec3> b1 = b.x;
  for (Vec3& x : b1) x[2] += 0.004 * std::sin(7 * x[0]) + 0.002 * x[1];
  const MeshInstance ma{0, &a.x, &a.tri}, mb{1, &b.x, &b.tri, Index(a.x.size())}, ms{0, &a.x, &a.tri};
  // rebuild_ratio 1: any degradation rebuilds the tree, so the rebuild path is measured too.
  for (double ratio : {2.0, 1.0}) {
    NarrowPhaseOptions params;
    params.broad.rebuild_ratio = ratio;
    const auto np = make_narrow_phase("table", params);
    NarrowPhaseWorkspace pair_ws, self_ws;
    ContactSet out;
    auto step = [&](const std::vector<Vec3>& xb) {
      b.x = xb;  // same size: copies into the existing storage
      out.clear();
      np->mesh_mesh_contacts(ma, mb, 0.02, pair_ws, out);
      np->mesh_mesh_contacts(ms, ms, 0.02, self_ws, out);
    };
    // Warm-up over both configurations grows every buffer to its largest size.
    step(b0);
    step(b1);
    const Index n_contacts = out.size();
    EXPECT_GT(n_contacts, 1000);
    EXPECT_EQ(count_allocations([&] { step(b0); }), 0) << "rebuild_ratio " << ratio;
    EXPECT_EQ(count_allocations([&] { step(b1); }), 0) << "rebuild_ratio " << ratio;
    EXPECT_EQ(out.size(), n_contacts);
    // The counter does count: the overload without a workspace allocates.
    EXPECT_GT(count_allocations([&] { np->mesh_mesh_contacts(ma, mb, 0.02, out); }), 0);
  }
}

}  // namespace
}  // namespace sinew::collision_narrow_phase_allocation_test

#else

TEST(NarrowPhaseAllocation, DISABLED_SkippedUnderAddressSanitizer) {}

#endif
