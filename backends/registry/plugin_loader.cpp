#include "plugin_loader.hpp"

#include <dlfcn.h>

#include <algorithm>
#include <cstring>
#include <filesystem>
#include <map>
#include <memory>
#include <mutex>
#include <regex>

#include "sinew/backends/plugin.hpp"
#include "sinew/core/error.hpp"

namespace sinew::detail {
namespace {

namespace fs = std::filesystem;

// One plugin file, opened on the first probe or make and kept open for the life of the process:
// the backends it makes have their code and vtables in it.
class Plugin {
 public:
  Plugin(std::string name, std::string path) : name_(std::move(name)), path_(std::move(path)) {}

  BackendInfo probe() const {
    load();
    if (!error_.empty()) return BackendInfo{name_, false, false, error_, 0};
    for (BackendInfo info : registry_.list())
      if (info.name == name_) return info;
    return BackendInfo{name_, false, false, "plugin " + path_ + " registered no backend '" + name_ + "'", 0};
  }

  std::unique_ptr<Backend> make(const BackendOptions& options) const {
    load();
    if (!error_.empty()) throw Error("backend '" + name_ + "': " + error_);
    return registry_.make(name_, options);
  }

 private:
  void load() const {
    std::call_once(loaded_, [this] { error_ = open(); });
  }

  // Opens the file and registers its backend in registry_; returns what went wrong, or "".
  std::string open() const {
    void* handle = dlopen(path_.c_str(), RTLD_NOW | RTLD_LOCAL);
    if (!handle) return "plugin " + path_ + " could not be loaded: " + dlerror();
    const std::string problem = register_from(handle);
    if (!problem.empty()) dlclose(handle);
    return problem;
  }

  std::string register_from(void* handle) const {
    void* symbol = dlsym(handle, kBackendPluginEntryPoint);
    if (!symbol) {
      return "file " + path_ + " is not a sinew backend plugin (it exports no " + kBackendPluginEntryPoint +
             "; define one with SINEW_BACKEND_PLUGIN from sinew/backends/plugin.hpp)";
    }
    const BackendPluginInfo* (*entry)() = nullptr;
    std::memcpy(&entry, &symbol, sizeof entry);  // dlsym's object pointer to the function it names
    const BackendPluginInfo* info = entry();
    if (!info || !info->abi_stamp || !info->name || !info->register_backend)
      return "plugin " + path_ + " returned an incomplete BackendPluginInfo";
    if (std::strcmp(info->abi_stamp, SINEW_ABI_STAMP) != 0) {
      return "plugin " + path_ + " was built against another sinew (its stamp: \"" + info->abi_stamp +
             "\"; this sinew: \"" SINEW_ABI_STAMP "\"): rebuild it against this installation";
    }
    if (name_ != info->name) {
      return "plugin " + path_ + " declares backend '" + info->name + "', but its file name says '" + name_ +
             "' (a plugin of backend X must be named libsinew_backend_X.so)";
    }
    try {
      info->register_backend(registry_);
    } catch (const std::exception& e) {
      return "plugin " + path_ + " failed to register its backend: " + e.what();
    }
    return {};
  }

  std::string name_;
  std::string path_;
  mutable std::once_flag loaded_;
  mutable std::string error_;
  mutable BackendRegistry registry_;  // what the plugin registered: its factory and probe
};

// name -> file of the first plugin of that name in @p directories (searched in order).
std::map<std::string, std::string> find_plugins(const std::vector<std::string>& directories) {
  static const std::regex plugin_file("libsinew_backend_([A-Za-z0-9_]+)\\.so");
  std::map<std::string, std::string> found;
  for (const std::string& dir : directories) {
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) continue;
    for (const fs::directory_entry& entry : fs::directory_iterator(dir, ec)) {
      std::smatch m;
      const std::string file = entry.path().filename().string();
      if (std::regex_match(file, m, plugin_file) && !found.count(m[1].str()))
        found.emplace(m[1].str(), entry.path().lexically_normal().string());
    }
  }
  return found;
}

void add_plugin(BackendRegistry& registry, const std::string& name, const std::string& path) {
  auto plugin = std::make_shared<const Plugin>(name, path);
  registry.add(
      name, [plugin](const BackendOptions& options) { return plugin->make(options); },
      [plugin] { return plugin->probe(); }, path);
}

}  // namespace

std::string installed_plugin_directory() {
  static const char anchor = 0;  // an address inside this library, to ask the loader where it is
  Dl_info info{};
  if (dladdr(&anchor, &info) == 0 || !info.dli_fname) return {};
  return (fs::absolute(info.dli_fname).parent_path() / "sinew" / "backends").lexically_normal().string();
}

void register_backend_plugins(BackendRegistry& registry, const std::vector<KnownBackend>& known,
                              const std::vector<std::string>& directories) {
  std::map<std::string, std::string> found = find_plugins(directories);
  std::string searched;
  for (const std::string& dir : directories) searched += (searched.empty() ? "" : ", ") + dir;
  for (const KnownBackend& k : known) {
    const auto it = found.find(k.name);
    if (it == found.end()) {
      registry.add_absent(k.name, "no plugin libsinew_backend_" + k.name + ".so in " +
                                      (searched.empty() ? std::string("any plugin folder") : searched) +
                                      "; build it with " + k.cmake_option + " -DBUILD_SHARED_LIBS=ON (needs " +
                                      k.needs + ") and install it, or add the folder holding it to SINEW_BACKEND_PATH");
    } else {
      add_plugin(registry, it->first, it->second);
      found.erase(it);
    }
  }
  const std::vector<std::string> taken = registry.names();  // a plugin cannot replace a built-in backend
  for (const auto& [name, path] : found)                    // a user's own backends
    if (std::find(taken.begin(), taken.end(), name) == taken.end()) add_plugin(registry, name, path);
}

}  // namespace sinew::detail
