// libFuzzer target of the Siconos .dat problem reader (constraints::parse_siconos_dat): any input
// must give a problem or a sinew::Error; a crash, a sanitizer report, an uncaught exception of
// another type, an allocation beyond the fuzzer's limit or a timeout is a bug. Sizes in the file
// are bounded by the numbers that follow them, so no input may allocate more than its own size
// allows.
#include <cstddef>
#include <cstdint>
#include <string_view>

#include "sinew/constraints/siconos_dat_file.hpp"
#include "sinew/core/error.hpp"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  try {
    sinew::constraints::parse_siconos_dat(std::string_view(reinterpret_cast<const char*>(data), size), "fuzz.dat");
  } catch (const sinew::Error&) {
    // Bad input, reported as such: the expected outcome for most inputs.
  }
  return 0;
}
