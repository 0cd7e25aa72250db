// LocalGlobalIntegrator::save() / restore(): N steps uninterrupted and k steps, save, a fresh
// integrator, restore, N - k steps give the same bits (positions and velocities) on serial and on
// tbb, for scenes with contact against static and rotating obstacles, driven targets, a pulled
// cable and an obstacle placed by the driver; restoring only positions and velocities (no warm
// start) does not; truncated or mismatched data throws and leaves the state as it was.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>
#include <cstring>
#include <functional>
#include <memory>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/scene/solid_scenes.hpp"

namespace sinew::integrators::integrators_local_global_checkpoint_test {
namespace {

bool bitwise_equal(const std::vector<double>& a, const std::vector<double>& b) {
  return a.size() == b.size() && std::memcmp(a.data(), b.data(), a.size() * sizeof(double)) == 0;
}

// The backends to check: serial and tbb when built.
std::vector<std::string> backends() {
  std::vector<std::string> names{"serial"};
  for (const BackendInfo& info : builtin_backends().list())
    if (info.usable && info.name == "tbb") names.push_back("tbb");
  return names;
}

std::unique_ptr<Backend> backend_named(const std::string& name) {
  BackendOptions o;
  o.threads = 2;
  return make_backend(name, o);
}

struct RunResult {
  std::vector<double> x, v;
  std::size_t contacts_after_k = 0;  // contacts of step k + 1 (the first after the restore)
  std::size_t most_contacts = 0;
};

// N steps of @p scene, interrupted after k by save, a fresh integrator (on a fresh backend) and
// restore when @p checkpoint; with @p state_only the fresh integrator gets only set_state().
// @p setup acts on the first integrator before its first step (what only a checkpoint carries on).
RunResult run(const scene::SolidScene& scene, const std::string& backend_name, int N, int k, bool checkpoint,
              bool state_only = false, const std::function<void(LocalGlobalIntegrator&)>& setup = {}) {
  auto backend = backend_named(backend_name);
  std::unique_ptr<Backend> backend2;  // the fresh integrator's (declared first: destroyed after it)
  auto lg = std::make_unique<LocalGlobalIntegrator>(*backend, scene.description, scene.options);
  if (setup) setup(*lg);
  RunResult out;
  for (int s = 0; s < N; ++s) {
    if (checkpoint && s == k) {
      std::stringstream stream;
      lg->save(stream);
      backend2 = backend_named(backend_name);
      auto fresh = std::make_unique<LocalGlobalIntegrator>(*backend2, scene.description, scene.options);
      if (state_only) {
        fresh->set_state(lg->positions(), lg->velocities());
      } else {
        fresh->restore(stream);
        EXPECT_EQ(fresh->steps(), k);
      }
      lg = std::move(fresh);
    }
    const LocalGlobalReport report = scene::step_scene(scene, *lg);
    EXPECT_TRUE(report.ok()) << report.message;
    if (s == k) out.contacts_after_k = report.contacts;
    out.most_contacts = std::max(out.most_contacts, report.contacts);
  }
  out.x = lg->positions();
  out.v = lg->velocities();
  return out;
}

void expect_resumes_bitwise(const scene::SolidScene& scene, int N, int k,
                            const std::function<void(LocalGlobalIntegrator&)>& setup = {}) {
  for (const std::string& name : backends()) {
    const RunResult straight = run(scene, name, N, k, false, false, setup);
    const RunResult resumed = run(scene, name, N, k, true, false, setup);
    std::printf("%s on %s: %d steps, restored after %d, %zu contacts after the restore (most %zu)\n",
                scene.name.c_str(), name.c_str(), N, k, resumed.contacts_after_k, resumed.most_contacts);
    EXPECT_GT(resumed.contacts_after_k, 0u) << scene.name << ": the warm start must matter at the restore";
    EXPECT_TRUE(bitwise_equal(straight.x, resumed.x)) << scene.name << " positions on " << name;
    EXPECT_TRUE(bitwise_equal(straight.v, resumed.v)) << scene.name << " velocities on " << name;
  }
}

// A 2^3-cube block on the 10 degree slope (static plane, friction, sliding): contacts from step 0.
TEST(LocalGlobalCheckpoint, SlopeResumesBitForBit) { expect_resumes_bitwise(scene::slope_scene(2, 0.1), 12, 5); }

// Targets moved once by set_target() (not by a driver) and an obstacle given a motion by
// set_obstacle() before the first step: only the checkpoint carries them to the fresh integrator.
TEST(LocalGlobalCheckpoint, SetTargetAndSetObstacleResumeBitForBit) {
  scene::SolidScene scene = scene::slope_scene(2, 0.1);
  scene.description.targets.push_back({0, Vec3{{0.0, 0.0, 0.0}}, 0.0});
  scene.description.targets.push_back({0, Vec3{{0.0, 0.0, 0.0}}, 3.0});  // two on one vertex: a weighted mean
  expect_resumes_bitwise(scene, 12, 5, [](LocalGlobalIntegrator& lg) {
    lg.set_target(0, Vec3{{0.01, 0.003, 0.002}});
    lg.set_target(1, Vec3{{0.007, 0.001, 0.0}});
    Pose pose = lg.obstacles()[0].pose;
    pose.translation[2] = -1e-4;
    lg.set_obstacle(0, pose, Motion{{{0.01, 0.0, 0.0}}, {{0.0, 0.0, 0.2}}});
  });
}

// The ball between two rolling cylinders: obstacles whose poses advance each step (rotation by
// exp(h omega)), frictional contacts whose warm start is re-expressed in new frames.
TEST(LocalGlobalCheckpoint, SqueezingBallResumesBitForBit) {
  expect_resumes_bitwise(scene::squeezing_ball_scene(3), 30, 22);
}

// The cable finger: targets, a cable pulled by the driver (its previous impulse warm-starts the
// row), a sphere obstacle placed by the driver, and the ball resting on the plane.
TEST(LocalGlobalCheckpoint, CableFingerResumesBitForBit) {
  expect_resumes_bitwise(scene::cable_finger_scene(3), 14, 9);
}

// The check can fail: positions and velocities alone (set_state, no warm start) do not continue
// the slope's sliding block bit for bit (steps() and the warm start are missing).
TEST(LocalGlobalCheckpoint, PositionsAndVelocitiesAloneDoNotResumeBitwise) {
  const scene::SolidScene scene = scene::slope_scene(2, 0.1);
  const RunResult straight = run(scene, "serial", 12, 5, false);
  const RunResult state_only = run(scene, "serial", 12, 5, true, true);
  EXPECT_FALSE(bitwise_equal(straight.x, state_only.x));
}

// Truncated data, bad magic and a checkpoint of another mesh throw sinew::Error and leave the
// state (positions, velocities, steps, obstacle poses) as it was.
TEST(LocalGlobalCheckpoint, BadDataThrowsAndLeavesTheStateUnchanged) {
  const scene::SolidScene scene = scene::squeezing_ball_scene(3);
  auto backend = backend_named("serial");
  LocalGlobalIntegrator source(*backend, scene.description, scene.options);
  for (int s = 0; s < 22; ++s) ASSERT_TRUE(scene::step_scene(scene, source).ok());
  std::stringstream stream;
  source.save(stream);
  const std::string bytes = stream.str();

  LocalGlobalIntegrator target(*backend, scene.description, scene.options);
  for (int s = 0; s < 3; ++s) ASSERT_TRUE(scene::step_scene(scene, target).ok());
  const std::vector<double> x0 = target.positions(), v0 = target.velocities();
  const double angle0 = target.obstacles()[0].pose.rotation(0, 0);
  auto unchanged = [&](const std::string& what) {
    EXPECT_TRUE(bitwise_equal(target.positions(), x0)) << what;
    EXPECT_TRUE(bitwise_equal(target.velocities(), v0)) << what;
    EXPECT_EQ(target.steps(), 3) << what;
    EXPECT_EQ(target.obstacles()[0].pose.rotation(0, 0), angle0) << what;
  };
  // Cut at the header, inside the positions, inside the obstacles and before the last byte.
  for (std::size_t cut : {std::size_t{0}, std::size_t{10}, bytes.size() / 2, bytes.size() - 40, bytes.size() - 1}) {
    std::istringstream truncated(bytes.substr(0, cut));
    EXPECT_SINEW_ERROR(target.restore(truncated), "truncated data");
    unchanged("cut at " + std::to_string(cut));
  }
  std::string bad = bytes;
  bad[0] = 'X';
  std::istringstream bad_magic(bad);
  EXPECT_SINEW_ERROR(target.restore(bad_magic), "bad magic");
  unchanged("bad magic");

  const scene::SolidScene other = scene::squeezing_ball_scene(4);
  LocalGlobalIntegrator bigger(*backend, other.description, other.options);
  std::stringstream other_stream;
  bigger.save(other_stream);
  EXPECT_SINEW_ERROR(target.restore(other_stream), "vertices");
  unchanged("another mesh");

  std::istringstream good(bytes);  // and the full data restores
  target.restore(good);
  EXPECT_TRUE(bitwise_equal(target.positions(), source.positions()));
  EXPECT_EQ(target.steps(), 22);
  EXPECT_EQ(target.obstacles()[0].pose.rotation(0, 0), source.obstacles()[0].pose.rotation(0, 0));
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_checkpoint_test
