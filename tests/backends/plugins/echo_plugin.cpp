// A user's own backend as a plugin (tests/backends/plugin_loader_test.cpp): the serial backend
// under the name "echo", built as libsinew_backend_echo.so against this sinew.
#include <memory>

#include "sinew/backends/plugin.hpp"
#include "sinew/backends/serial.hpp"

namespace {

void register_echo(sinew::BackendRegistry& registry) {
  auto serial = std::make_shared<sinew::BackendRegistry>();
  sinew::register_serial_backend(*serial);
  registry.add(
      "echo", [serial](const sinew::BackendOptions& options) { return serial->make("serial", options); },
      [] {
        return sinew::BackendInfo{"echo", true, true, "the serial backend under another name (a test plugin)", 1};
      });
}

}  // namespace

SINEW_BACKEND_PLUGIN("echo", register_echo)
