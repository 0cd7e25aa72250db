// A plugin built against another sinew (tests/backends/plugin_loader_test.cpp): its ABI stamp is
// not this build's, so the loader must refuse it before calling anything in it.
#include <stdexcept>

#include "sinew/backends/plugin.hpp"

namespace {

void register_stale(sinew::BackendRegistry&) { throw std::logic_error("a stale plugin must not be registered"); }

}  // namespace

extern "C" __attribute__((visibility("default"))) const sinew::BackendPluginInfo* sinew_backend_plugin_v1() {
  static const sinew::BackendPluginInfo info{"sinew 0.0.1; GNU 1.0; core 0000000000000000", "stale", &register_stale};
  return &info;
}
