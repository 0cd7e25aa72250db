#include "sinew/core/backend_registry.hpp"

#include <utility>

namespace sinew {

void BackendRegistry::add(const std::string& name, Factory factory, Probe probe, std::string origin) {
  require(find(name) == nullptr, [&] { return "backend '" + name + "' registered twice"; });
  entries_.push_back(Entry{name, std::move(factory), std::move(probe), {}, std::move(origin)});
}

void BackendRegistry::add_absent(const std::string& name, const std::string& requirement) {
  require(find(name) == nullptr, [&] { return "backend '" + name + "' registered twice"; });
  entries_.push_back(Entry{name, {}, {}, requirement, {}});
}

const BackendRegistry::Entry* BackendRegistry::find(const std::string& name) const {
  for (const Entry& e : entries_)
    if (e.name == name) return &e;
  return nullptr;
}

std::unique_ptr<Backend> BackendRegistry::make(const std::string& name, const BackendOptions& options) const {
  const Entry* e = find(name);
  if (!e) {
    std::string known;
    for (const Entry& k : entries_) known += (known.empty() ? "" : ", ") + k.name;
    throw Error("unknown backend '" + name + "'; known backends: " + known);
  }
  if (!e->factory) throw Error("backend '" + name + "' is not available in this build: " + e->requirement);
  const BackendInfo info = e->probe();
  if (!info.usable) throw Error("backend '" + name + "' cannot run here: " + info.where);
  return e->factory(options);
}

std::vector<BackendInfo> BackendRegistry::list() const {
  std::vector<BackendInfo> out;
  for (const Entry& e : entries_) {
    if (e.probe) {
      out.push_back(e.probe());
      out.back().origin = e.origin;
    } else {
      out.push_back(BackendInfo{e.name, false, false, "not available: " + e.requirement, 0, "-"});
    }
  }
  return out;
}

std::vector<std::string> BackendRegistry::names() const {
  std::vector<std::string> out;
  for (const Entry& e : entries_) out.push_back(e.name);
  return out;
}

}  // namespace sinew
