// Command-line flags of the benchmark programs, taken out of argv before Google Benchmark sees it.
#pragma once

#include <string>
#include <vector>

namespace sinew::bench {

/// Removes every --name=value from argv (adjusting argc) and returns the last value, or
/// @p fallback when the flag is absent.
std::string take_flag(int& argc, char** argv, const char* name, const std::string& fallback);

/// take_flag() for a comma-separated list of integers, e.g. --sizes=100,1000.
std::vector<int> take_int_list(int& argc, char** argv, const char* name, const std::string& fallback);

}  // namespace sinew::bench
