// The reference backend: every kernel is a plain loop on one thread.
#include <memory>

#include "sinew/backends/serial.hpp"
#include "sinew/core/host_memory.hpp"
#include "sinew/core/loop_backend.hpp"

namespace sinew {
namespace {

struct SerialExec : HostMemory {
  static constexpr bool kHostCode = true;  // plain host loops (Backend::for_each_range)
  template <class F>
  void for_each(std::size_t n, const F& f) const {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  std::string execution_space() const { return "host, one thread (reference)"; }
  int concurrency() const { return 1; }
};

class SerialBackend final : public LoopBackend<SerialExec> {
 public:
  SerialBackend() : LoopBackend("serial", SerialExec{}) {}
};

}  // namespace

void register_serial_backend(BackendRegistry& registry) {
  registry.add(
      "serial", [](const BackendOptions&) { return std::unique_ptr<Backend>(new SerialBackend()); },
      [] {
        return BackendInfo{"serial", true, true, SerialExec{}.execution_space(), 1};
      });
}

}  // namespace sinew
