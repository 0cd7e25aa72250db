// Backend plugins of a shared build: found by name in the plugin folders (SINEW_BACKEND_PATH
// first, then the installed one), opened on first use, and refused with a message naming the file
// when they are not plugins, were built against another sinew or are misnamed.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>

#include "expect_error.hpp"
#include "sinew/backends/plugin.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/core/build_stamp.hpp"

namespace sinew::backends_plugin_loader_test {
namespace {

namespace fs = std::filesystem;

const std::string kPlugins = SINEW_TEST_PLUGINS;  // tests/plugins/<name>/ of the build tree

BackendInfo info_of(const BackendRegistry& r, const std::string& name) {
  for (const BackendInfo& info : r.list())
    if (info.name == name) return info;
  ADD_FAILURE() << "no backend " << name;
  return {};
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

// A fresh folder for plugin files of one test, removed afterwards.
class PluginFolder {
 public:
  explicit PluginFolder(const std::string& tag)
      : path_(fs::temp_directory_path() / ("sinew_plugins_" + tag + "_" + std::to_string(getpid()))) {
    fs::remove_all(path_);
    fs::create_directories(path_);
  }
  ~PluginFolder() { fs::remove_all(path_); }
  std::string path() const { return path_.string(); }
  // Copies the echo plugin in under backend name @p name.
  std::string add_echo_as(const std::string& name) const {
    const fs::path to = path_ / ("libsinew_backend_" + name + ".so");
    fs::copy_file(fs::path(kPlugins) / "echo" / "libsinew_backend_echo.so", to);
    return to.string();
  }

 private:
  fs::path path_;
};

class BackendPlugins : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!backends_are_plugins()) GTEST_SKIP() << "a static build links its backends in and loads no plugins";
  }
};

TEST(BackendPluginsStatic, StaticBuildRefusesPluginFolders) {
  if (backends_are_plugins()) GTEST_SKIP() << "a shared build loads plugins";
  EXPECT_TRUE(backend_plugin_directories().empty());
  EXPECT_SINEW_ERROR(make_backend_registry({kPlugins}), "static build", "BUILD_SHARED_LIBS=ON");
}

TEST_F(BackendPlugins, OptionalBackendsComeFromTheInstalledFolder) {
  const std::vector<std::string> dirs = backend_plugin_directories();
  ASSERT_FALSE(dirs.empty());
  EXPECT_TRUE(contains(dirs.back(), "sinew/backends")) << dirs.back();
  int plugins = 0;
  for (const BackendInfo& info : builtin_backends().list()) {
    if (info.name == "serial") {
      EXPECT_EQ(info.origin, "built in");
    } else if (info.compiled) {
      ++plugins;
      EXPECT_EQ(info.origin, (fs::path(dirs.back()) / ("libsinew_backend_" + info.name + ".so")).string());
      EXPECT_TRUE(fs::exists(info.origin)) << info.origin;
    }
  }
#if SINEW_TEST_WITH_TBB
  EXPECT_GE(plugins, 1);
  EXPECT_TRUE(info_of(builtin_backends(), "tbb").usable);
  EXPECT_EQ(make_backend("tbb", BackendOptions{2})->name(), "tbb");  // loaded now, by name
#endif
}

TEST_F(BackendPlugins, EnvironmentFoldersComeFirst) {
  ASSERT_EQ(setenv("SINEW_BACKEND_PATH", "/opt/a::/opt/b:", 1), 0);
  const std::vector<std::string> dirs = backend_plugin_directories();
  ASSERT_EQ(unsetenv("SINEW_BACKEND_PATH"), 0);
  ASSERT_EQ(dirs.size(), 3u);
  EXPECT_EQ(dirs[0], "/opt/a");
  EXPECT_EQ(dirs[1], "/opt/b");
  EXPECT_EQ(dirs[2], backend_plugin_directories().back());
}

TEST_F(BackendPlugins, UsersOwnBackendIsMadeByName) {
  const std::string folder = kPlugins + "/echo";
  const BackendRegistry r = make_backend_registry({folder});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"serial", "tbb", "kokkos", "cuda", "echo"}));
  const BackendInfo echo = info_of(r, "echo");
  EXPECT_TRUE(echo.usable);
  EXPECT_EQ(echo.origin, folder + "/libsinew_backend_echo.so");
  const std::unique_ptr<Backend> b = r.make("echo");
  EXPECT_EQ(b->name(), "serial");
  EXPECT_EQ(b->concurrency(), 1);
  // No tbb plugin in that folder: absent, with the folder searched and the option that builds it.
  EXPECT_FALSE(info_of(r, "tbb").compiled);
  const std::string searched = "no plugin libsinew_backend_tbb.so in " + folder;
  EXPECT_SINEW_ERROR(r.make("tbb"), "'tbb'", searched.c_str(), "-DSINEW_WITH_TBB=ON", "SINEW_BACKEND_PATH");
}

TEST_F(BackendPlugins, FirstFolderWins) {
  const PluginFolder first("first");
  const std::string copy = first.add_echo_as("echo");
  const BackendRegistry r = make_backend_registry({first.path(), kPlugins + "/echo"});
  EXPECT_EQ(info_of(r, "echo").origin, copy);
  EXPECT_TRUE(info_of(r, "echo").usable);
}

TEST_F(BackendPlugins, PluginBuiltAgainstAnotherSinewIsRefused) {
  const BackendRegistry r = make_backend_registry({kPlugins + "/stale"});
  const BackendInfo stale = info_of(r, "stale");
  EXPECT_FALSE(stale.usable);
  for (const std::string& part : {std::string("libsinew_backend_stale.so"), std::string("sinew 0.0.1; GNU 1.0"),
                                  std::string(SINEW_ABI_STAMP), std::string("rebuild it")})
    EXPECT_TRUE(contains(stale.where, part)) << stale.where << " lacks " << part;
  EXPECT_SINEW_ERROR(r.make("stale"), "'stale'", "another sinew", SINEW_ABI_STAMP);
}

TEST_F(BackendPlugins, LibraryWithoutEntryPointIsRefused) {
  const BackendRegistry r = make_backend_registry({kPlugins + "/empty"});
  EXPECT_SINEW_ERROR(r.make("empty"), "libsinew_backend_empty.so", "is not a sinew backend plugin",
                     kBackendPluginEntryPoint, "SINEW_BACKEND_PLUGIN");
}

TEST_F(BackendPlugins, FileThatIsNoLibraryIsRefused) {
  const PluginFolder folder("junk");
  const std::string junk = folder.path() + "/libsinew_backend_junk.so";
  std::ofstream(junk) << "not an ELF file\n";
  const BackendRegistry r = make_backend_registry({folder.path()});
  EXPECT_SINEW_ERROR(r.make("junk"), "'junk'", junk.c_str(), "could not be loaded");
}

TEST_F(BackendPlugins, MisnamedPluginIsRefused) {
  const PluginFolder folder("misnamed");
  folder.add_echo_as("other");
  const BackendRegistry r = make_backend_registry({folder.path()});
  EXPECT_SINEW_ERROR(r.make("other"), "declares backend 'echo'", "libsinew_backend_other.so");
}

TEST_F(BackendPlugins, PluginCannotReplaceABuiltInBackend) {
  const PluginFolder folder("serial");
  folder.add_echo_as("serial");
  const BackendRegistry r = make_backend_registry({folder.path()});
  EXPECT_EQ(r.names(), (std::vector<std::string>{"serial", "tbb", "kokkos", "cuda"}));
  EXPECT_EQ(info_of(r, "serial").origin, "built in");
}

}  // namespace
}  // namespace sinew::backends_plugin_loader_test
