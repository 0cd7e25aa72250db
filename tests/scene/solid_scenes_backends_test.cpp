// Backend agreement on the seed's contact scenes (solid_scenes.hpp): the stick/slip slope, the
// squeezing ball and the cable finger, 100 frames each at small sizes, give bit-identical
// trajectories on serial, tbb and kokkos. Every reduction of the step (dots, SpMV rows, the
// transposed SpMV's gather, the SpGEMM's rows, the CR and Newton steps) runs in a fixed order on
// every host backend, and collision, W's frame expansion and the cable rows run on the host, so
// bitwise equality (not a tolerance) is the contract. CUDA is left out: its local step and
// reductions are other kernels (see local_global_contact.hpp), compared elsewhere at a tolerance.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::scene::scene_solid_scenes_backends_test {
namespace {

// (frames x 3n) positions after every frame; @p contacts receives the largest contact count.
std::vector<std::vector<double>> trajectory(const SolidScene& s, Backend& backend, int frames, std::size_t& contacts) {
  integrators::LocalGlobalIntegrator lg(backend, s.description, s.options);
  std::vector<std::vector<double>> out;
  contacts = 0;
  for (int f = 0; f < frames; ++f) {
    const integrators::LocalGlobalReport r = step_scene(s, lg);
    EXPECT_TRUE(r.ok()) << r.message;
    contacts = std::max(contacts, r.contacts);
    out.push_back(lg.positions());
  }
  return out;
}

void expect_bitwise_across_backends(const SolidScene& s, int frames) {
  auto serial = make_backend("serial");
  std::size_t contacts = 0;
  const auto reference = trajectory(s, *serial, frames, contacts);
  EXPECT_GT(contacts, 0u) << s.name << ": the comparison covers the contact path";
  int compared = 0;
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable || info.name == "serial" || info.name == "cuda") continue;
    BackendOptions o;
    o.threads = 2;
    auto backend = make_backend(info.name, o);
    if (!backend->runs_host_code()) continue;
    std::size_t c = 0;
    const auto x = trajectory(s, *backend, frames, c);
    ASSERT_EQ(x.size(), reference.size());
    int first_difference = -1;
    for (int f = 0; f < frames && first_difference < 0; ++f)
      if (x[f].size() != reference[f].size() ||
          std::memcmp(x[f].data(), reference[f].data(), x[f].size() * sizeof(double)) != 0)
        first_difference = f;
    EXPECT_EQ(first_difference, -1) << s.name << " on " << info.name << " differs from serial from frame "
                                    << first_difference;
    EXPECT_EQ(c, contacts);
    ++compared;
    std::printf("%s: %s bitwise equal to serial over %d frames (max %zu contacts)\n", s.name.c_str(), info.name.c_str(),
                frames, contacts);
  }
  EXPECT_GE(compared, 1) << "tbb is always built here";
}

TEST(SolidScenesBackends, SlopeIsBitwiseIdenticalOnHostBackends) {
  expect_bitwise_across_backends(slope_scene(3, 0.1), 100);
}

TEST(SolidScenesBackends, SqueezingBallIsBitwiseIdenticalOnHostBackends) {
  expect_bitwise_across_backends(squeezing_ball_scene(4), 100);
}

TEST(SolidScenesBackends, CableFingerIsBitwiseIdenticalOnHostBackends) {
  expect_bitwise_across_backends(cable_finger_scene(3), 100);
}

}  // namespace
}  // namespace sinew::scene::scene_solid_scenes_backends_test
