// libFuzzer target of the scene-file reader (scene::parse_scene): any input must give a SceneFile
// or a sinew::Error; a crash, a sanitizer report, an uncaught exception of another type or a
// timeout is a bug. The input is the JSON text itself; mesh files it names are looked up in
// tests/apps/data (the folder of the seed scenes that name some).
//
// Each input must stay cheap, or the fuzzer spends its time building meshes instead of exploring
// the reader: inputs that the reader would accept but that ask for big procedural meshes (more
// than kMaxCells cells in one "cells" array, a "ball" resolution "n" above kMaxBallN) are skipped
// before parsing. Their limits (1000 per side, 1e7 cells, n <= 200) are checked by the reader and
// its unit tests; the fuzzer only needs small meshes to reach the code after them. Inputs naming
// a mesh "file" by an absolute path or through ".." are skipped too (the fuzzer must not read
// /dev/zero or the machine's files).
#include <cstddef>
#include <cstdint>
#include <string>
#include <string_view>

#include <nlohmann/json.hpp>

#include "sinew/core/error.hpp"
#include "sinew/scene/scene_file.hpp"

namespace {

constexpr double kMaxCells = 4096.0;  // cells of one "box" or "rectangle" (the reader allows 1e7)
constexpr double kMaxBallN = 12.0;    // "ball" resolution (the reader allows 200: 8e6 tets)

// Whether @p j asks for a mesh too big for a fuzz input or names a file outside the data folder.
bool too_costly(const nlohmann::json& j) {
  if (j.is_array()) {
    for (const nlohmann::json& e : j)
      if (too_costly(e)) return true;
    return false;
  }
  if (!j.is_object()) return false;
  for (auto it = j.begin(); it != j.end(); ++it) {
    const nlohmann::json& v = it.value();
    if (it.key() == "cells" && v.is_array()) {
      double cells = 1.0;
      for (const nlohmann::json& c : v)
        if (c.is_number()) cells *= c.get<double>();
      if (!(cells <= kMaxCells)) return true;
    }
    if (it.key() == "n" && v.is_number() && !(v.get<double>() <= kMaxBallN)) return true;
    if (it.key() == "file" && v.is_string()) {
      const std::string& f = v.get_ref<const std::string&>();
      if (f.empty() || f[0] == '/' || f.find("..") != std::string::npos) return true;
    }
    if (too_costly(v)) return true;
  }
  return false;
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::string_view text(reinterpret_cast<const char*>(data), size);
  // Text nlohmann cannot parse goes to the reader unchanged (its syntax errors are fuzzed too).
  const nlohmann::json j = nlohmann::json::parse(text, nullptr, /*allow_exceptions=*/false);
  if (!j.is_discarded() && too_costly(j)) return 0;
  try {
    sinew::scene::parse_scene(text, "fuzz.json", SINEW_FUZZ_DATA);
  } catch (const sinew::Error&) {
    // Bad input, reported as such: the expected outcome for most inputs.
  }
  return 0;
}
