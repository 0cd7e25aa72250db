// The serial reference backend (serial_backend.hpp): core's LoopBackend over a plain loop.
#include "sinew/core/serial_backend.hpp"

#include <string>

#include "sinew/core/host_memory.hpp"
#include "sinew/core/loop_backend.hpp"

namespace sinew {
namespace {

struct SerialLoop : HostMemory {
  static constexpr bool kHostCode = true;  // plain host loops (Backend::for_each_range)
  template <class F>
  void for_each(std::size_t n, const F& f) const {
    for (std::size_t i = 0; i < n; ++i) f(i);
  }
  std::string execution_space() const { return "host, one thread (reference)"; }
  int concurrency() const { return 1; }
};

class SerialBackend final : public LoopBackend<SerialLoop> {
 public:
  SerialBackend() : LoopBackend("serial", SerialLoop{}) {}
};

}  // namespace

std::unique_ptr<Backend> make_serial_backend() { return std::make_unique<SerialBackend>(); }

}  // namespace sinew
