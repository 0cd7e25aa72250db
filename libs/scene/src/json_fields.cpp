#include "json_fields.hpp"

#include <algorithm>
#include <map>
#include <sstream>

#include "sinew/core/number_text.hpp"

namespace sinew::scene::detail {
namespace {

// A JSON value's type as a reader would say it.
std::string type_name(const nlohmann::json& v) {
  if (v.is_null()) return "null";
  if (v.is_boolean()) return "a boolean";
  if (v.is_number_integer() || v.is_number_unsigned()) return "an integer";
  if (v.is_number()) return "a number";
  if (v.is_string()) return "a string";
  if (v.is_array()) return "an array";
  return "an object";
}

// A short rendering of @p v for messages (long values cut).
std::string shown(const nlohmann::json& v) {
  std::string s = v.dump();
  if (s.size() > 40) s = s.substr(0, 37) + "...";
  return s;
}

// RFC 6901 escaping of one reference token.
std::string pointer_token(const std::string& key) {
  std::string out;
  for (char c : key) out += c == '~' ? "~0" : c == '/' ? "~1" : std::string(1, c);
  return out;
}

// Throws when an object of @p text (valid JSON) holds one key twice: JSON parsers keep one of
// them silently, so a scene would run with a value its author did not mean.
void reject_duplicate_keys(const std::string& text, const std::string& file) {
  struct Container {
    bool object = false;
    bool expect_key = false;                  // objects: the next string is a key
    std::size_t index = 0;                    // arrays: the element being read
    std::map<std::string, std::size_t> keys;  // objects: key -> its line
    std::string path;                         // JSON pointer of the container
    std::string last_key;                     // objects: the key being read
  };
  std::vector<Container> stack;
  std::size_t line = 1;
  auto child_path = [&]() {
    if (stack.empty()) return std::string();
    const Container& c = stack.back();
    return c.path + "/" + (c.object ? pointer_token(c.last_key) : std::to_string(c.index));
  };
  for (std::size_t i = 0; i < text.size(); ++i) {
    const char c = text[i];
    if (c == '\n') {
      ++line;
    } else if (c == '{' || c == '[') {
      Container k;
      k.object = c == '{';
      k.expect_key = k.object;
      k.path = child_path();
      stack.push_back(std::move(k));
    } else if (c == '}' || c == ']') {
      if (stack.empty()) return;  // past the value nlohmann read (parse_json refuses what could lead here)
      stack.pop_back();
    } else if (c == ',' && !stack.empty()) {
      stack.back().expect_key = stack.back().object;
      ++stack.back().index;
    } else if (c == '"') {
      const std::size_t start = i;
      for (++i; i < text.size() && text[i] != '"'; ++i)
        if (text[i] == '\\') ++i;
      if (stack.empty() || !stack.back().expect_key) continue;
      Container& k = stack.back();
      k.expect_key = false;
      const std::string raw = text.substr(start, i + 1 - start);
      // Keys with escapes are compared as JSON decodes them ("\u0061" is "a").
      k.last_key = raw.find('\\') == std::string::npos ? raw.substr(1, raw.size() - 2)
                                                       : nlohmann::json::parse(raw).get<std::string>();
      const auto [at, inserted] = k.keys.emplace(k.last_key, line);
      if (!inserted)
        throw Error(file + ":" + std::to_string(line) + ": " + (k.path.empty() ? "/" : k.path) + ": key \"" +
                    k.last_key + "\" appears twice in one object (first at line " + std::to_string(at->second) +
                    "); JSON would keep only one of the values: remove the other");
    }
  }
}

}  // namespace

nlohmann::json parse_json(const std::string& text, const std::string& file) {
  // nlohmann's lexer takes a NUL byte for the end of input and ignores what follows it, so a
  // file cut or corrupted there would be read as its first part: refuse it, with its place.
  if (const std::size_t nul = text.find('\0'); nul != std::string::npos) {
    const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + nul, '\n'));
    const std::size_t line_start = text.rfind('\n', nul) == std::string::npos ? 0 : text.rfind('\n', nul) + 1;
    throw Error(file + ":" + std::to_string(line) + ":" + std::to_string(nul - line_start + 1) + ": a NUL byte (byte " +
                std::to_string(nul + 1) + "): a scene file is UTF-8 text");
  }
  try {
    nlohmann::json json = nlohmann::json::parse(text);
    reject_duplicate_keys(text, file);
    return json;
  } catch (const nlohmann::json::parse_error& e) {
    // e.byte is 1-based, one past the offending character; turn it into line and column.
    const std::size_t at = e.byte == 0 ? 0 : std::min<std::size_t>(e.byte - 1, text.size());
    std::size_t line = 1, column = 1;
    for (std::size_t i = 0; i < at; ++i) {
      if (text[i] == '\n') {
        ++line;
        column = 1;
      } else {
        ++column;
      }
    }
    std::string what = e.what();
    const std::size_t colon = what.find("parse error");
    if (colon != std::string::npos) what = what.substr(colon);
    throw Error(file + ":" + std::to_string(line) + ":" + std::to_string(column) + ": invalid JSON: " + what);
  } catch (const nlohmann::json::exception& e) {
    // A number out of double's range (1e999) is an out_of_range error without a position: find
    // the literal the message quotes ("number overflow parsing '1e999'") to name its line.
    std::string what = e.what();
    const std::size_t bracket = what.find("] ");
    if (bracket != std::string::npos) what = what.substr(bracket + 2);
    std::string where;
    const std::size_t open = what.find('\''), close = what.rfind('\'');
    if (open != std::string::npos && close > open + 1) {
      const std::size_t at = text.find(what.substr(open + 1, close - open - 1));
      if (at != std::string::npos) {
        const std::size_t line = 1 + static_cast<std::size_t>(std::count(text.begin(), text.begin() + at, '\n'));
        const std::size_t line_start = text.rfind('\n', at);
        const std::size_t column = at - (line_start == std::string::npos ? 0 : line_start + 1) + 1;
        where = ":" + std::to_string(line) + ":" + std::to_string(column);
      }
    }
    throw Error(file + where + ": invalid JSON: " + what + " (numbers must be finite doubles)");
  }
}

JsonObject::JsonObject(const nlohmann::json& value, std::string file, std::string path)
    : value_(&value), file_(std::move(file)), path_(std::move(path)) {
  if (!value.is_object())
    throw Error(file_ + ": " + (path_.empty() ? "/" : path_) + ": expected an object, found " + type_name(value) + " " +
                shown(value));
}

std::string JsonObject::where(const std::string& key) const { return path_ + "/" + key; }

void JsonObject::fail(const std::string& key, const std::string& message) const {
  throw Error(file_ + ": " + where(key) + ": " + message);
}

bool JsonObject::has(const std::string& key) {
  queried_.insert(key);
  if (!value_->contains(key)) return false;
  read_.insert(key);
  return true;
}

const nlohmann::json& JsonObject::get(const std::string& key) {
  read_.insert(key);
  return value_->at(key);
}

double JsonObject::real(const std::string& key, std::optional<double> fallback, double lo, double hi,
                        const char* expected) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected a number");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  const std::string range =
      expected ? std::string(expected) : "a number in [" + number_text(lo) + ", " + number_text(hi) + "]";
  if (!v.is_number()) fail(key, "expected " + range + ", found " + type_name(v) + " " + shown(v));
  const double x = v.get<double>();
  if (!std::isfinite(x) || x < lo || x > hi) fail(key, "expected " + range + ", found " + shown(v));
  return x;
}

double JsonObject::real_above(const std::string& key, std::optional<double> fallback, double lo, double hi) {
  const std::string expected =
      "a number > " + number_text(lo) + (hi < std::numeric_limits<double>::max() ? " and <= " + number_text(hi) : "");
  const double x = real(key, fallback, lo, hi, expected.c_str());
  if (!(x > lo)) fail(key, "expected " + expected + ", found " + number_text(x));
  return x;
}

long long JsonObject::integer(const std::string& key, std::optional<long long> fallback, long long lo, long long hi) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected an integer");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!v.is_number_integer() && !v.is_number_unsigned())
    fail(key, "expected " + range + ", found " + type_name(v) + " " + shown(v));
  if (v.is_number_unsigned() && v.get<unsigned long long>() > static_cast<unsigned long long>(hi))
    fail(key, "expected " + range + ", found " + shown(v));
  const long long x = v.get<long long>();
  if (x < lo || x > hi) fail(key, "expected " + range + ", found " + shown(v));
  return x;
}

bool JsonObject::boolean(const std::string& key, std::optional<bool> fallback) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected true or false");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_boolean()) fail(key, "expected true or false, found " + type_name(v) + " " + shown(v));
  return v.get<bool>();
}

std::string JsonObject::string(const std::string& key, std::optional<std::string> fallback) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected a string");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_string()) fail(key, "expected a string, found " + type_name(v) + " " + shown(v));
  return v.get<std::string>();
}

std::string JsonObject::choice(const std::string& key, const std::vector<std::string>& choices,
                               std::optional<std::string> fallback) {
  std::string list;
  for (const std::string& c : choices) list += (list.empty() ? "\"" : ", \"") + c + "\"";
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected one of " + list);
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_string()) fail(key, "expected one of " + list + ", found " + type_name(v) + " " + shown(v));
  const std::string s = v.get<std::string>();
  if (std::find(choices.begin(), choices.end(), s) == choices.end())
    fail(key, "expected one of " + list + ", found \"" + s + "\"");
  return s;
}

std::array<double, 3> JsonObject::vec3(const std::string& key, std::optional<std::array<double, 3>> fallback) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected an array of 3 numbers");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_array() || v.size() != 3)
    fail(key, "expected an array of 3 numbers, found " + type_name(v) + " " + shown(v));
  std::array<double, 3> x{};
  for (std::size_t i = 0; i < 3; ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
      fail(key + "/" + std::to_string(i), "expected a finite number, found " + shown(v[i]));
    x[i] = v[i].get<double>();
  }
  return x;
}

std::optional<JsonObject> JsonObject::object(const std::string& key, bool optional) {
  if (!has(key)) {
    if (!optional) fail(key, "missing; expected an object");
    return std::nullopt;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_object()) fail(key, "expected an object, found " + type_name(v) + " " + shown(v));
  return JsonObject(v, file_, where(key));
}

std::vector<JsonObject> JsonObject::objects(const std::string& key, bool optional) {
  std::vector<JsonObject> out;
  if (!has(key)) {
    if (!optional) fail(key, "missing; expected an array of objects");
    return out;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_array()) fail(key, "expected an array of objects, found " + type_name(v) + " " + shown(v));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_object())
      fail(key + "/" + std::to_string(i), "expected an object, found " + type_name(v[i]) + " " + shown(v[i]));
    out.emplace_back(v[i], file_, where(key) + "/" + std::to_string(i));
  }
  return out;
}

std::vector<double> JsonObject::reals(const std::string& key, bool optional) {
  std::vector<double> out;
  if (!has(key)) {
    if (!optional) fail(key, "missing; expected an array of numbers");
    return out;
  }
  const nlohmann::json& v = get(key);
  if (!v.is_array()) fail(key, "expected an array of numbers, found " + type_name(v) + " " + shown(v));
  for (std::size_t i = 0; i < v.size(); ++i) {
    if (!v[i].is_number() || !std::isfinite(v[i].get<double>()))
      fail(key + "/" + std::to_string(i), "expected a finite number, found " + shown(v[i]));
    out.push_back(v[i].get<double>());
  }
  return out;
}

std::uint64_t JsonObject::unsigned_integer(const std::string& key, std::optional<std::uint64_t> fallback,
                                           std::uint64_t lo, std::uint64_t hi) {
  if (!has(key)) {
    if (!fallback) fail(key, "missing; expected an integer");
    return *fallback;
  }
  const nlohmann::json& v = get(key);
  const std::string range = "an integer in [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
  if (!v.is_number_integer()) fail(key, "expected " + range + ", found " + type_name(v) + " " + shown(v));
  if (!v.is_number_unsigned() && v.get<long long>() < 0) fail(key, "expected " + range + ", found " + shown(v));
  const std::uint64_t x = v.get<std::uint64_t>();
  if (x < lo || x > hi) fail(key, "expected " + range + ", found " + shown(v));
  return x;
}

const nlohmann::json& JsonObject::value(const std::string& key) {
  if (!has(key)) fail(key, "missing");
  return get(key);
}

// The type_name() above, public for other readers (sinew::ensemble's sweep files).
std::string JsonObject::type_name(const nlohmann::json& v) { return detail::type_name(v); }

// Levenshtein distance, to suggest the key a typo meant.
std::size_t edit_distance(const std::string& a, const std::string& b) {
  std::vector<std::size_t> row(b.size() + 1);
  for (std::size_t j = 0; j <= b.size(); ++j) row[j] = j;
  for (std::size_t i = 1; i <= a.size(); ++i) {
    std::size_t diagonal = row[0];
    row[0] = i;
    for (std::size_t j = 1; j <= b.size(); ++j) {
      const std::size_t up = row[j];
      row[j] = std::min({row[j] + 1, row[j - 1] + 1, diagonal + (a[i - 1] == b[j - 1] ? 0 : 1)});
      diagonal = up;
    }
  }
  return row[b.size()];
}

void JsonObject::finish() const {
  for (auto it = value_->begin(); it != value_->end(); ++it) {
    if (read_.count(it.key())) continue;
    std::string known, closest;
    std::size_t best = 4;  // suggest only near misses
    for (const std::string& k : queried_) {
      known += (known.empty() ? "" : ", ") + k;
      const std::size_t d = edit_distance(it.key(), k);
      if (d < best) {
        best = d;
        closest = k;
      }
    }
    fail(it.key(), "unknown key" + (closest.empty() ? std::string() : "; did you mean \"" + closest + "\"?") +
                       (known.empty() ? std::string() : " (expected one of: " + known + ")"));
  }
}

}  // namespace sinew::scene::detail
