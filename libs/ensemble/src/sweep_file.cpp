#include "sinew/ensemble/sweep_file.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <iterator>
#include <limits>
#include <optional>
#include <set>

#include "json_fields.hpp"  // the scene library's checked JSON reader (libs/scene/src)
#include "sinew/core/atomic_file.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::ensemble {
namespace {

using nlohmann::json;
using scene::detail::JsonObject;
using scene::detail::parse_json;

constexpr std::uint64_t kMaxCount = 1000000;  // values of one parameter, and variants of a sweep

// The text of @p path; an error names @p what (the key that names it), then the file's own message.
std::string read_text(const std::filesystem::path& path, const std::string& what) {
  try {
    return read_file(path, "a JSON file");
  } catch (const Error& e) {
    throw Error(what + ": " + e.what());
  }
}

// The compact JSON of a value, numbers through number_text() so that doubles read back exactly.
std::string value_text(const json& v) { return v.is_number_float() ? number_text(v.get<double>()) : v.dump(); }

// A finite number at @p key of @p r (required).
double finite(JsonObject& r, const std::string& key) {
  return r.real(key, std::nullopt, std::numeric_limits<double>::lowest(), std::numeric_limits<double>::max(),
                "a finite number");
}

// Checks that @p pointer is a syntactically valid JSON pointer whose parent exists in @p scene
// (the last token then names a key to set or add, or an existing array element).
void check_pointer(const json& scene, const std::string& pointer, const JsonObject& where, const std::string& key) {
  if (pointer.empty() || pointer[0] != '/')
    where.fail(
        key, "expected a JSON pointer into the scene starting with '/', e.g. \"/time_step\", got \"" + pointer + "\"");
  json::json_pointer p;
  try {
    p = json::json_pointer(pointer);
  } catch (const json::exception&) {
    where.fail(key, "\"" + pointer + "\" is not a valid JSON pointer (RFC 6901: '~' must be ~0 or ~1)");
  }
  const json::json_pointer parent = p.parent_pointer();
  if (!scene.contains(parent))
    where.fail(key, "\"" + pointer + "\": the base scene has nothing at \"" + parent.to_string() + "\"");
  const json& container = scene.at(parent);
  if (container.is_array()) {
    const std::string& last = p.back();
    char* end = nullptr;
    const unsigned long i = std::strtoul(last.c_str(), &end, 10);
    if (last.empty() || *end != '\0' || i >= container.size())
      where.fail(key, "\"" + pointer + "\": expected an index below " + std::to_string(container.size()) +
                          " into the array at \"" + parent.to_string() + "\"");
  } else if (!container.is_object()) {
    where.fail(key, "\"" + pointer + "\": \"" + parent.to_string() + "\" is " + JsonObject::type_name(container) +
                        ", not an object or array");
  }
}

Distribution distribution_of(JsonObject& r, const std::string& key) {
  const std::string d = r.choice(key, {"uniform", "normal", "log_uniform"}, "uniform");
  return d == "normal"        ? Distribution::kNormal
         : d == "log_uniform" ? Distribution::kLogUniform
                              : Distribution::kUniform;
}

Parameter read_parameter(JsonObject r, const json& scene) {
  Parameter p;
  p.pointer = r.string("pointer", std::nullopt);
  check_pointer(scene, p.pointer, r, "pointer");
  p.name = r.string("name", p.pointer);
  const bool list = r.has("values"), range = r.has("range"), random = r.has("random");
  if (int(list) + int(range) + int(random) != 1)
    r.fail("", "expected exactly one of \"values\", \"range\" or \"random\"");
  if (list) {
    const json& vs = r.value("values");
    if (!vs.is_array() || vs.empty())
      r.fail("values", "expected a non-empty array of values, got " + JsonObject::type_name(vs));
    if (vs.size() > kMaxCount) r.fail("values", "at most " + std::to_string(kMaxCount) + " values");
    p.source = ValueSource::kList;
    for (const json& x : vs) p.values.push_back(value_text(x));
  } else if (range) {
    JsonObject g = *r.object("range");
    const double start = finite(g, "start"), stop = finite(g, "stop");
    const auto count = static_cast<std::size_t>(g.integer("count", std::nullopt, 1, kMaxCount));
    const bool log = g.choice("spacing", {"linear", "log"}, "linear") == "log";
    if (log && !(start > 0.0 && stop > 0.0)) g.fail("spacing", "\"log\" spacing needs start > 0 and stop > 0");
    g.finish();
    p.source = ValueSource::kRange;
    for (double x : range_values(start, stop, count, log)) p.values.push_back(number_text(x));
  } else {
    JsonObject g = *r.object("random");
    const Distribution d = distribution_of(g, "distribution");
    double a = 0.0, b = 0.0;
    if (d == Distribution::kNormal) {
      a = finite(g, "mean");
      b = g.real("stddev", std::nullopt, 0.0, std::numeric_limits<double>::max(), "a number >= 0");
    } else {
      a = finite(g, "low");
      b = finite(g, "high");
      if (!(b > a)) g.fail("high", "expected a number > low");
      if (d == Distribution::kLogUniform && !(a > 0.0)) g.fail("low", "log_uniform needs low > 0");
    }
    const auto count = static_cast<std::size_t>(g.integer("count", std::nullopt, 1, kMaxCount));
    const std::uint64_t seed = g.unsigned_integer("seed", std::nullopt, 0, ~std::uint64_t{0});
    g.finish();
    p.source = ValueSource::kRandom;
    for (double x : random_draws(d, a, b, count, seed)) p.values.push_back(number_text(x));
  }
  r.finish();
  return p;
}

OutputSpec read_output(JsonObject r) {
  OutputSpec o;
  const bool scalar = r.has("scalar"), displacement = r.has("displacement");
  if (scalar == displacement) r.fail("", "expected exactly one of \"scalar\" or \"displacement\"");
  if (scalar) {
    o.kind = OutputSpec::Kind::kScalar;
    o.scalar = r.string("scalar", std::nullopt);
    const std::vector<std::string> reductions = {"last", "min", "max", "mean"};  // in Reduction's order
    const std::string red = r.choice("reduce", reductions, "last");
    o.reduction = static_cast<Reduction>(std::find(reductions.begin(), reductions.end(), red) - reductions.begin());
    o.name = r.string("name", o.scalar + "_" + red);
  } else {
    o.kind = OutputSpec::Kind::kDisplacement;
    o.body = r.string("displacement", std::nullopt);
    const std::vector<std::string> components = {"x", "y", "z", "norm"};  // OutputSpec::component 0..3
    const std::string c = r.choice("component", components, "norm");
    o.component = static_cast<int>(std::find(components.begin(), components.end(), c) - components.begin());
    o.name = r.string("name", o.body + "_displacement_" + c);
  }
  r.finish();
  return o;
}

}  // namespace

std::uint64_t SplitMix64::next() {
  std::uint64_t z = (state_ += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

double SplitMix64::uniform01() { return static_cast<double>(next() >> 11) * 0x1.0p-53; }

std::vector<double> random_draws(Distribution distribution, double a, double b, std::size_t count, std::uint64_t seed) {
  SplitMix64 g(seed);
  std::vector<double> out;
  out.reserve(count);
  constexpr double two_pi = 6.283185307179586;
  for (std::size_t i = 0; i < count; ++i) {
    switch (distribution) {
      case Distribution::kUniform:
        out.push_back(a + (b - a) * g.uniform01());
        break;
      case Distribution::kLogUniform:
        out.push_back(std::exp(std::log(a) + (std::log(b) - std::log(a)) * g.uniform01()));
        break;
      case Distribution::kNormal: {
        // Box-Muller, one value per pair of draws; 1 - u is in (0, 1], so the log is finite.
        const double u1 = 1.0 - g.uniform01(), u2 = g.uniform01();
        out.push_back(a + b * std::sqrt(-2.0 * std::log(u1)) * std::cos(two_pi * u2));
        break;
      }
    }
  }
  return out;
}

std::vector<double> range_values(double start, double stop, std::size_t count, bool log) {
  std::vector<double> out(count);
  for (std::size_t i = 0; i < count; ++i) {
    const double t = count == 1 ? 0.0 : static_cast<double>(i) / static_cast<double>(count - 1);
    out[i] = log ? start * std::pow(stop / start, t) : start + t * (stop - start);
  }
  if (count > 1) out.back() = stop;  // the end point exactly, whatever the rounding above
  return out;
}

SweepFile read_sweep_file(const std::filesystem::path& path) {
  const std::string text = read_text(path, path.string());
  SweepFile s = parse_sweep(text, path.string(), path.parent_path());
  s.path = path;
  if (s.name.empty()) s.name = path.stem().string();
  return s;
}

SweepFile parse_sweep(std::string_view text, const std::string& name, const std::filesystem::path& base_dir) {
  const json doc = parse_json(std::string(text), name);
  JsonObject r(doc, name, "");
  SweepFile s;
  s.path = name;
  if (r.has("sinew_sweep") && r.value("sinew_sweep") != 1) r.fail("sinew_sweep", "expected 1 (the format version)");
  s.name = r.string("name", "");
  s.description = r.string("description", "");
  const std::string base = r.string("base_scene", std::nullopt);
  s.base_scene = std::filesystem::path(base).is_absolute() ? std::filesystem::path(base) : base_dir / base;
  s.base_text = read_text(s.base_scene, name + ": /base_scene");
  json scene = parse_json(s.base_text, s.base_scene.string());
  if (!scene.is_object()) r.fail("base_scene", s.base_scene.string() + " is not a JSON object");

  s.combination = r.choice("combination", {"grid", "zip"}, "grid") == "zip" ? Combination::kZip : Combination::kGrid;

  if (r.has("set")) {
    const json& fixed = r.value("set");
    JsonObject set(fixed, name, "/set");
    for (auto it = fixed.begin(); it != fixed.end(); ++it) {
      set.has(it.key());
      check_pointer(scene, it.key(), set, it.key());
      scene[json::json_pointer(it.key())] = it.value();  // later pointers may point inside it
      s.fixed.emplace_back(it.key(), value_text(it.value()));
    }
  }

  const json& params = r.value("parameters");
  if (!params.is_array() || params.empty())
    r.fail("parameters", "expected a non-empty array of parameters, got " + JsonObject::type_name(params));
  std::set<std::string> names, pointers;
  for (std::size_t i = 0; i < params.size(); ++i) {
    Parameter p = read_parameter(JsonObject(params[i], name, "/parameters/" + std::to_string(i)), scene);
    if (!names.insert(p.name).second || !pointers.insert(p.pointer).second)
      r.fail("parameters/" + std::to_string(i), "parameter \"" + p.name + "\" (" + p.pointer + ") is given twice");
    s.parameters.push_back(std::move(p));
  }
  std::uint64_t total = 1;
  for (const Parameter& p : s.parameters) {
    if (s.combination == Combination::kZip && p.values.size() != s.parameters[0].values.size())
      r.fail("parameters", "\"zip\" needs every parameter to have the same number of values (\"" +
                               s.parameters[0].name + "\" has " + std::to_string(s.parameters[0].values.size()) +
                               ", \"" + p.name + "\" has " + std::to_string(p.values.size()) + ")");
    total = s.combination == Combination::kZip ? p.values.size() : total * p.values.size();
    if (total > kMaxCount) r.fail("parameters", "more than " + std::to_string(kMaxCount) + " variants");
  }

  if (r.has("outputs")) {
    const json& outs = r.value("outputs");
    if (!outs.is_array()) r.fail("outputs", "expected an array of outputs, got " + JsonObject::type_name(outs));
    for (std::size_t i = 0; i < outs.size(); ++i) {
      OutputSpec o = read_output(JsonObject(outs[i], name, "/outputs/" + std::to_string(i)));
      if (!names.insert(o.name).second)
        r.fail("outputs/" + std::to_string(i), "column name \"" + o.name + "\" is used twice");
      s.outputs.push_back(std::move(o));
    }
  }
  r.finish();
  return s;
}

}  // namespace sinew::ensemble
