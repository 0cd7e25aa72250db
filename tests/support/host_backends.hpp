// Determinism across host backends: a computation run on serial and on every other usable host
// backend (2 threads) must give the same bits.
#pragma once

#include <gtest/gtest.h>

#include <cstdio>
#include <cstring>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"

namespace sinew::test {

/// Runs @p run(Backend&) -> std::vector<double> on serial and on each other usable backend that
/// runs host code, expects every result bitwise equal to serial's (printing "LABEL: NAME bitwise
/// equal to serial"), and returns how many backends were compared.
template <class Run>
int expect_host_backends_bitwise_equal(Run run, const std::string& label) {
  auto serial = make_backend("serial");
  const std::vector<double> reference = run(*serial);
  int compared = 0;
  for (const BackendInfo& info : builtin_backends().list()) {
    if (!info.usable || info.name == "serial" || info.name == "cuda") continue;
    BackendOptions o;
    o.threads = 2;
    auto backend = make_backend(info.name, o);
    if (!backend->runs_host_code()) continue;
    const std::vector<double> x = run(*backend);
    EXPECT_EQ(x.size(), reference.size()) << info.name;
    if (x.size() != reference.size()) continue;
    EXPECT_EQ(std::memcmp(x.data(), reference.data(), x.size() * sizeof(double)), 0) << label << ": " << info.name;
    ++compared;
    std::printf("%s: %s bitwise equal to serial\n", label.c_str(), info.name.c_str());
  }
  return compared;
}

}  // namespace sinew::test
