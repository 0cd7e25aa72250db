// A minimal "--key value" option reader for the sinew subcommands: every option must be known,
// every value well-formed, or a sinew::Error names the option and what was expected.
#pragma once

#include <map>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"

namespace sinew::app {

/// Parsed "--key value" options of one subcommand.
class Options {
 public:
  /// Parses @p args, accepting only the option names in @p known (without "--").
  Options(const std::string& command, const std::vector<std::string>& args, const std::vector<std::string>& known)
      : command_(command) {
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      std::string key = a.rfind("--", 0) == 0 ? a.substr(2) : "";
      bool ok = false;
      for (const std::string& k : known) ok = ok || k == key;
      if (!ok) throw Error(command_ + ": unknown argument '" + a + "'");
      if (i + 1 >= args.size()) throw Error(command_ + ": option --" + key + " needs a value");
      values_[key] = args[++i];
    }
  }
  /// The string value of --key, or @p fallback.
  std::string str(const std::string& key, const std::string& fallback) const {
    auto it = values_.find(key);
    return it == values_.end() ? fallback : it->second;
  }
  /// The integer value of --key in [lo, hi], or @p fallback.
  int integer(const std::string& key, int fallback, int lo, int hi) const {
    auto it = values_.find(key);
    if (it == values_.end()) return fallback;
    std::size_t used = 0;
    int v = 0;
    try {
      v = std::stoi(it->second, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != it->second.size() || v < lo || v > hi)
      throw Error(command_ + ": --" + key + " expects an integer in [" + std::to_string(lo) + ", " +
                  std::to_string(hi) + "], got '" + it->second + "'");
    return v;
  }
  /// The real value of --key in (lo, hi], finite, or @p fallback.
  double real(const std::string& key, double fallback, double lo, double hi) const {
    auto it = values_.find(key);
    if (it == values_.end()) return fallback;
    std::size_t used = 0;
    double v = 0.0;
    try {
      v = std::stod(it->second, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != it->second.size() || !(v > lo && v <= hi))
      throw Error(command_ + ": --" + key + " expects a number in (" + std::to_string(lo) + ", " + std::to_string(hi) +
                  "], got '" + it->second + "'");
    return v;
  }
  /// True when --key was given.
  bool has(const std::string& key) const { return values_.count(key) != 0; }

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
};

}  // namespace sinew::app
