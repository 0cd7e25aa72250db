// The backend registry: names, honest errors for unknown, absent and unusable backends.
#include "sinew/backends/registry.hpp"

#include <gtest/gtest.h>

#include <cstdlib>

#include "expect_error.hpp"

namespace sinew::core_backend_registry_test {
namespace {

TEST(BackendRegistry, ListsTheFourBackendsInOrder) {
  const std::vector<std::string> names = builtin_backends().names();
  EXPECT_EQ(names, (std::vector<std::string>{"serial", "tbb", "kokkos", "cuda"}));
  const std::vector<BackendInfo> infos = builtin_backends().list();
  ASSERT_EQ(infos.size(), 4u);
  EXPECT_TRUE(infos[0].usable);
  EXPECT_EQ(infos[0].concurrency, 1);
  for (const BackendInfo& i : infos) {
    EXPECT_FALSE(i.where.empty()) << i.name;
    if (i.usable) {
      EXPECT_GE(i.concurrency, 1) << i.name;
    }
  }
}

TEST(BackendRegistry, MakesSerialByName) {
  auto b = make_backend("serial");
  ASSERT_NE(b, nullptr);
  EXPECT_EQ(b->name(), "serial");
  EXPECT_EQ(b->concurrency(), 1);
}

TEST(BackendRegistry, UnknownNameListsTheKnownOnes) {
  EXPECT_SINEW_ERROR(make_backend("opencl"), "unknown backend 'opencl'", "serial", "tbb", "kokkos", "cuda");
}

TEST(BackendRegistry, AbsentBackendNamesTheCMakeOption) {
  BackendRegistry r;
  r.add_absent("tbb", "reconfigure with -DSINEW_WITH_TBB=ON");
  EXPECT_SINEW_ERROR(r.make("tbb"), "'tbb'", "not available", "-DSINEW_WITH_TBB=ON");
  EXPECT_FALSE(r.list()[0].compiled);
  EXPECT_FALSE(r.list()[0].usable);
}

TEST(BackendRegistry, UnusableBackendSaysWhy) {
  BackendRegistry r;
  r.add(
      "gpu", [](const BackendOptions&) -> std::unique_ptr<Backend> { throw std::logic_error("must not be called"); },
      [] {
        return BackendInfo{"gpu", true, false, "no GPU present", 0};
      });
  EXPECT_SINEW_ERROR(r.make("gpu"), "'gpu'", "cannot run here", "no GPU present");
}

TEST(BackendRegistry, RejectsDuplicateNames) {
  BackendRegistry r;
  r.add_absent("x", "nothing");
  EXPECT_SINEW_ERROR(r.add_absent("x", "again"), "registered twice");
}

TEST(BackendRegistry, CudaIsReportedHonestly) {
  for (const BackendInfo& i : builtin_backends().list()) {
    if (i.name != "cuda" || i.usable) continue;
    // Compiled without a GPU, or not compiled: the reason names the GPU or the CMake option.
    EXPECT_TRUE(i.where.find("GPU") != std::string::npos || i.where.find("SINEW_WITH_CUDA") != std::string::npos)
        << i.where;
    EXPECT_SINEW_ERROR(make_backend("cuda"), "'cuda'");
  }
}

TEST(BackendRegistry, EnvironmentSelectsTheBackend) {
  ASSERT_EQ(setenv("SINEW_BACKEND", "tbb", 1), 0);
  EXPECT_EQ(backend_name_from_environment(), "tbb");
  ASSERT_EQ(setenv("SINEW_BACKEND", "", 1), 0);
  EXPECT_EQ(backend_name_from_environment("serial"), "serial");
  ASSERT_EQ(unsetenv("SINEW_BACKEND"), 0);
  EXPECT_EQ(backend_name_from_environment("kokkos"), "kokkos");
}

}  // namespace
}  // namespace sinew::core_backend_registry_test
