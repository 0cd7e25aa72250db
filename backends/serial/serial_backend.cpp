// The reference backend in the registry: core's serial backend (sinew/core/serial_backend.hpp).
#include "sinew/core/serial_backend.hpp"
#include "sinew/backends/serial.hpp"

namespace sinew {

void register_serial_backend(BackendRegistry& registry) {
  registry.add(
      "serial", [](const BackendOptions&) { return make_serial_backend(); },
      [] {
        return BackendInfo{"serial", true, true, make_serial_backend()->execution_space(), 1};
      });
}

}  // namespace sinew
