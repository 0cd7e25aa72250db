#include "bench_flags.hpp"

#include <cstring>
#include <sstream>

namespace sinew::bench {

std::string take_flag(int& argc, char** argv, const char* name, const std::string& fallback) {
  const std::string key = std::string("--") + name + "=";
  std::string value = fallback;
  int out = 1;
  for (int i = 1; i < argc; ++i) {
    if (std::strncmp(argv[i], key.c_str(), key.size()) == 0) {
      value = argv[i] + key.size();
    } else {
      argv[out++] = argv[i];
    }
  }
  argc = out;
  return value;
}

std::vector<int> take_int_list(int& argc, char** argv, const char* name, const std::string& fallback) {
  std::vector<int> values;
  std::stringstream ss(take_flag(argc, argv, name, fallback));
  for (std::string item; std::getline(ss, item, ',');) values.push_back(std::stoi(item));
  return values;
}

}  // namespace sinew::bench
