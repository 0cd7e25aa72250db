// Checked reading of JSON scene files (nlohmann-json): each value is read through a JsonObject
// that knows the file and the JSON path (RFC 6901 pointer, e.g. /bodies/0/material/poisson_ratio),
// so a wrong type, an out-of-range value or a missing key is an error naming both and what was
// expected; finish() rejects the keys nobody read (typos are errors, not silently ignored).
// Private to the scene library.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <cstdint>
#include <limits>
#include <nlohmann/json.hpp>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"

namespace sinew::scene::detail {

/// Parses @p text as JSON; a syntax error names the file, line and column.
nlohmann::json parse_json(const std::string& text, const std::string& file);

/// A JSON object being read key by key, with where it came from.
class JsonObject {
 public:
  /// Wraps @p value (which must be an object) found at @p path in @p file.
  JsonObject(const nlohmann::json& value, std::string file, std::string path);

  /// True when @p key is present (it is then marked as read).
  bool has(const std::string& key);
  /// A number in [lo, hi]; @p fallback when absent (no fallback: the key is required).
  double real(const std::string& key, std::optional<double> fallback, double lo = -std::numeric_limits<double>::max(),
              double hi = std::numeric_limits<double>::max(), const char* expected = nullptr);
  /// A number > lo (strict bound, e.g. Young's modulus > 0); @p fallback when absent.
  double real_above(const std::string& key, std::optional<double> fallback, double lo,
                    double hi = std::numeric_limits<double>::max());
  /// An integer in [lo, hi]; @p fallback when absent.
  long long integer(const std::string& key, std::optional<long long> fallback, long long lo, long long hi);
  /// A boolean; @p fallback when absent.
  bool boolean(const std::string& key, std::optional<bool> fallback);
  /// A string; @p fallback when absent.
  std::string string(const std::string& key, std::optional<std::string> fallback);
  /// A string that must be one of @p choices; @p fallback when absent.
  std::string choice(const std::string& key, const std::vector<std::string>& choices,
                     std::optional<std::string> fallback);
  /// An array of 3 finite numbers; @p fallback when absent.
  std::array<double, 3> vec3(const std::string& key, std::optional<std::array<double, 3>> fallback);
  /// The object at @p key (required unless @p optional, then nullopt when absent).
  std::optional<JsonObject> object(const std::string& key, bool optional = false);
  /// The array at @p key, each element an object (empty when absent and @p optional).
  std::vector<JsonObject> objects(const std::string& key, bool optional = false);
  /// The array of numbers at @p key (empty when absent and @p optional), each finite.
  std::vector<double> reals(const std::string& key, bool optional = false);
  /// A non-negative integer in [lo, hi] up to 2^64 - 1 (e.g. a random seed); @p fallback when absent.
  std::uint64_t unsigned_integer(const std::string& key, std::optional<std::uint64_t> fallback, std::uint64_t lo,
                                 std::uint64_t hi);
  /// The value at @p key whatever its type, for the caller to check (required: absent is an error).
  const nlohmann::json& value(const std::string& key);
  /// A JSON value's type as the messages say it: "an integer", "a string", ..., "null".
  static std::string type_name(const nlohmann::json& v);

  /// Throws naming the first key that was never read, with the keys this object accepts.
  void finish() const;
  /// Throws sinew::Error "FILE: PATH/KEY: message".
  [[noreturn]] void fail(const std::string& key, const std::string& message) const;
  /// The JSON path of this object.
  const std::string& path() const { return path_; }
  /// The file name used in messages.
  const std::string& file() const { return file_; }

 private:
  const nlohmann::json& get(const std::string& key);
  std::string where(const std::string& key) const;

  const nlohmann::json* value_;
  std::string file_, path_;
  std::set<std::string> read_;     // keys present and read
  std::set<std::string> queried_;  // every key asked for: what this object accepts
};

}  // namespace sinew::scene::detail
