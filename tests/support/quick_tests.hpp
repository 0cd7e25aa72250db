// SINEW_QUICK_TESTS: set by the sanitizer stage of scripts/test.sh, where every test runs ~10-50x
// slower. Long physics runs (a stack held for 300 steps, a finger pressing for 100 frames) then
// stop early: the sanitizers look for memory and undefined-behaviour errors, which show in the
// first steps, while the Release stage checks the physics over the whole run.
#pragma once

#include <cstdlib>
#include <cstring>

namespace sinew::test {

/// True when SINEW_QUICK_TESTS is set to anything but "0": long runs should be shortened.
inline bool quick_tests() {
  const char* env = std::getenv("SINEW_QUICK_TESTS");
  return env != nullptr && std::strcmp(env, "0") != 0;
}

}  // namespace sinew::test
