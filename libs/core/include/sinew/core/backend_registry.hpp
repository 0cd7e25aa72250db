/// @file
/// @brief BackendRegistry: backends made by name, with an honest report of what each needs.
#pragma once

#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/backend.hpp"

namespace sinew {

/// What `sinew backends` reports about one backend.
struct BackendInfo {
  std::string name;                 ///< registry name
  bool compiled = false;            ///< built into this program, or loaded from a plugin
  bool usable = false;              ///< can run on this machine now
  std::string where;                ///< execution space or device when usable; why not otherwise
  int concurrency = 0;              ///< threads (CPU) or multiprocessors (GPU) when usable
  std::string origin = "built in";  ///< "built in", or the plugin file the backend comes from
};

/// A table of backend factories by name. Entries are either compiled in (a factory and a probe)
/// or known but absent (with the CMake option or hardware that would provide them), so asking
/// for one always gets an answer that says which, why and what it needs.
class BackendRegistry {
 public:
  /// Makes a backend; throws sinew::Error when it cannot run here.
  using Factory = std::function<std::unique_ptr<Backend>(const BackendOptions&)>;
  /// Reports whether the backend can run here, without making it.
  using Probe = std::function<BackendInfo()>;

  /// Registers an available backend; @p origin is what list() reports as BackendInfo::origin
  /// ("built in", or the plugin file it is loaded from).
  void add(const std::string& name, Factory factory, Probe probe, std::string origin = "built in");
  /// Registers a backend that was not compiled in; @p requirement says how to get it.
  void add_absent(const std::string& name, const std::string& requirement);

  /// Makes backend @p name; throws sinew::Error naming the backend, why it is unavailable and
  /// the CMake option, plugin or hardware it needs, or listing the known names for an unknown one.
  std::unique_ptr<Backend> make(const std::string& name, const BackendOptions& options = {}) const;
  /// Reports every registered backend, in registration order.
  std::vector<BackendInfo> list() const;
  /// Names of every registered backend, in registration order.
  std::vector<std::string> names() const;

 private:
  struct Entry {
    std::string name;
    Factory factory;  // empty for an absent backend
    Probe probe;      // empty for an absent backend
    std::string requirement;
    std::string origin;
  };
  const Entry* find(const std::string& name) const;
  std::vector<Entry> entries_;
};

}  // namespace sinew
