// A user's own backend: every loop runs from the last index to the first. Built against an
// installed sinew as a plugin; programs that link sinew::backends make it by name ("reverse")
// without being relinked, and must get serial's answers (LoopBackend keeps the reduction order).
#include <memory>

#include "sinew/backends/plugin.hpp"
#include "sinew/core/host_memory.hpp"
#include "sinew/core/loop_backend.hpp"

namespace {

struct ReverseExec : sinew::HostMemory {
  static constexpr bool kHostCode = true;  // host loops: the batch kernels of the libraries run here too
  template <class F>
  void for_each(std::size_t n, const F& f) const {
    for (std::size_t i = n; i-- > 0;) f(i);
  }
  std::string execution_space() const { return "host, one thread, loops run backwards"; }
  int concurrency() const { return 1; }
};

class ReverseBackend final : public sinew::LoopBackend<ReverseExec> {
 public:
  ReverseBackend() : LoopBackend("reverse", ReverseExec{}) {}
};

void register_reverse(sinew::BackendRegistry& registry) {
  registry.add(
      "reverse", [](const sinew::BackendOptions&) { return std::unique_ptr<sinew::Backend>(new ReverseBackend()); },
      [] {
        return sinew::BackendInfo{"reverse", true, true, ReverseExec{}.execution_space(), 1};
      });
}

}  // namespace

SINEW_BACKEND_PLUGIN("reverse", register_reverse)
