// Determinism across host backends: a computation run on serial and on every other usable host
// backend, at several thread counts, must give the same bits.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <initializer_list>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"

namespace sinew::test {

/// True when a backend besides serial that runs host code (tbb, kokkos) is compiled in, so that
/// a comparison against serial has something to compare.
inline bool other_host_backends_built() {
  for (const BackendInfo& info : builtin_backends().list())
    if (info.compiled && info.name != "serial" && info.name != "cuda") return true;
  return false;
}

/// Runs @p run(Backend&) -> std::vector<double> on serial and on each other usable backend that
/// runs host code at each of @p thread_counts, expects every result bitwise equal to serial's
/// (printing "LABEL: NAME bitwise equal to serial"), and returns how many runs were compared.
/// Fails the test when it compared nothing although such a backend is built (a comparison that
/// cannot fail); returns 0 without failing in a serial-only build (the caller may skip).
template <class Run>
int expect_host_backends_bitwise_equal(Run run, const std::string& label,
                                       std::initializer_list<int> thread_counts = {2}) {
  auto serial = make_backend("serial");
  const std::vector<double> reference = run(*serial);
  int compared = 0;
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable || info.name == "serial" || info.name == "cuda") continue;
    for (int threads : thread_counts) {
      BackendOptions o;
      o.threads = threads;
      auto backend = make_backend(info.name, o);
      if (!backend->runs_host_code()) break;
      const std::vector<double> x = run(*backend);
      const std::string what = label + ": " + info.name + " with " + std::to_string(threads) + " threads";
      EXPECT_EQ(x.size(), reference.size()) << what;
      if (x.size() != reference.size()) continue;
      EXPECT_EQ(std::memcmp(x.data(), reference.data(), x.size() * sizeof(double)), 0) << what;
      ++compared;
      std::printf("%s bitwise equal to serial\n", what.c_str());
    }
  }
  if (compared == 0 && other_host_backends_built())
    ADD_FAILURE() << label << ": compared nothing with serial, although a host backend besides serial is built";
  return compared;
}

}  // namespace sinew::test
