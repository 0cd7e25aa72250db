#include "sinew/ensemble/variants.hpp"

#include <cstdio>
#include <nlohmann/json.hpp>

#include "json_fields.hpp"  // the scene library's checked JSON reader (libs/scene/src)
#include "sinew/core/error.hpp"

namespace sinew::ensemble {
namespace {

using nlohmann::json;

// Sets @p value_text (compact JSON; "nan"/"inf" never occur in sweep values) at @p pointer.
void substitute(json& scene, const std::string& pointer, const std::string& value_text, const std::string& where) {
  try {
    scene[json::json_pointer(pointer)] = json::parse(value_text);
  } catch (const json::exception& e) {
    throw Error(where + ": cannot set " + pointer + ": " + e.what());
  }
}

}  // namespace

std::size_t variant_count(const SweepFile& sweep) {
  if (sweep.parameters.empty()) return 0;
  if (sweep.combination == Combination::kZip) return sweep.parameters.front().values.size();
  std::size_t n = 1;
  for (const Parameter& p : sweep.parameters) n *= p.values.size();
  return n;
}

Variant make_variant(const SweepFile& sweep, std::size_t index) {
  const std::size_t n = variant_count(sweep);
  if (index >= n)
    throw Error(sweep.path.string() + ": variant " + std::to_string(index) + " does not exist (the sweep has " +
                std::to_string(n) + ")");
  Variant v;
  v.index = index;
  v.values.resize(sweep.parameters.size());
  if (sweep.combination == Combination::kZip) {
    for (std::size_t k = 0; k < sweep.parameters.size(); ++k) v.values[k] = sweep.parameters[k].values[index];
  } else {
    std::size_t rest = index;  // mixed-radix digits, the last parameter fastest
    for (std::size_t k = sweep.parameters.size(); k-- > 0;) {
      const std::size_t m = sweep.parameters[k].values.size();
      v.values[k] = sweep.parameters[k].values[rest % m];
      rest /= m;
    }
  }
  json scene = sinew::scene::detail::parse_json(sweep.base_text, sweep.base_scene.string());
  const std::string where = sweep.path.filename().string() + " variant " + std::to_string(index);
  for (const auto& [pointer, value] : sweep.fixed) substitute(scene, pointer, value, where);
  for (std::size_t k = 0; k < sweep.parameters.size(); ++k)
    substitute(scene, sweep.parameters[k].pointer, v.values[k], where);
  v.scene_text = scene.dump(2) + "\n";
  return v;
}

std::vector<Variant> expand(const SweepFile& sweep) {
  std::vector<Variant> out;
  const std::size_t n = variant_count(sweep);
  out.reserve(n);
  for (std::size_t i = 0; i < n; ++i) out.push_back(make_variant(sweep, i));
  return out;
}

scene::SceneFile parse_variant(const SweepFile& sweep, const Variant& variant) {
  // The name in messages: the sweep file (not its full path, so messages are the same wherever the
  // sweep runs), the variant's number and its values.
  std::string name = sweep.path.filename().string() + " variant " + std::to_string(variant.index) + " (";
  for (std::size_t k = 0; k < sweep.parameters.size(); ++k)
    name += (k ? ", " : "") + sweep.parameters[k].name + "=" + variant.values[k];
  name += ")";
  return scene::parse_scene(variant.scene_text, name, sweep.base_scene.parent_path());
}

std::string variant_folder(std::size_t index) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "variant_%04zu", index);
  return buf;
}

}  // namespace sinew::ensemble
