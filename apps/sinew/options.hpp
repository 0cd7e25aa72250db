// A minimal option reader for the sinew subcommands: "--key value" options and "--flag" switches.
// Every option must be known, every value well-formed, or a sinew::Error names the option and
// what was expected.
#pragma once

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::app {

/// Parsed "--key value" options and "--flag" switches of one subcommand.
class Options {
 public:
  /// Parses @p args, accepting the options in @p known (each followed by its value) and the
  /// switches in @p flags (no value), both without "--". A value may not itself start with "--":
  /// `--steps --out DIR` is "--steps needs a value", not an unknown argument 'DIR'.
  Options(const std::string& command, const std::vector<std::string>& args, const std::vector<std::string>& known,
          const std::vector<std::string>& flags = {})
      : command_(command) {
    auto listed = [](const std::vector<std::string>& names, const std::string& key) {
      return std::find(names.begin(), names.end(), key) != names.end();
    };
    for (std::size_t i = 0; i < args.size(); ++i) {
      const std::string& a = args[i];
      const std::string key = a.rfind("--", 0) == 0 ? a.substr(2) : "";
      if (listed(flags, key)) {
        flags_.insert(key);
        continue;
      }
      if (!listed(known, key)) throw Error(command_ + ": unknown argument '" + a + "'");
      if (i + 1 >= args.size()) throw Error(command_ + ": option --" + key + " needs a value");
      if (args[i + 1].rfind("--", 0) == 0)
        throw Error(command_ + ": option --" + key + " needs a value, found the option '" + args[i + 1] + "'");
      if (values_.count(key) != 0) throw Error(command_ + ": option --" + key + " is given twice");
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
      throw Error(command_ + ": --" + key + " expects a number in (" + number_text(lo) + ", " + number_text(hi) +
                  "], got '" + it->second + "'");
    return v;
  }
  /// True when --key was given (an option with its value, or a switch).
  bool has(const std::string& key) const { return values_.count(key) != 0 || flags_.count(key) != 0; }

 private:
  std::string command_;
  std::map<std::string, std::string> values_;
  std::set<std::string> flags_;
};

}  // namespace sinew::app
