// Scene files under random damage: every reference scene of scenes/ with one value replaced (by
// a number out of range, a wrong type, null, an empty array or object), one key deleted, or its
// text cut short must either still read or be refused with a sinew::Error naming the file. Any
// other exception or a crash (the sanitizer build runs this too) is a reader bug. A structured
// complement of the libFuzzer run on the mesh readers (fuzz/): the scene reader builds meshes and
// systems, too much to compile into the standalone fuzzer.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <nlohmann/json.hpp>
#include <random>
#include <sstream>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/scene/scene_file.hpp"

namespace sinew::scene::scene_scene_file_mutation_test {
namespace {

namespace fs = std::filesystem;

const fs::path kScenes = fs::path(SINEW_TEST_SOURCE) / ".." / "scenes";

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  std::stringstream s;
  s << in.rdbuf();
  return s.str();
}

// Every JSON pointer of @p j (objects, arrays and leaves), in document order.
void pointers(const nlohmann::json& j, const nlohmann::json::json_pointer& at,
              std::vector<nlohmann::json::json_pointer>& out) {
  out.push_back(at);
  if (j.is_object()) {
    for (auto it = j.begin(); it != j.end(); ++it) pointers(it.value(), at / it.key(), out);
  } else if (j.is_array()) {
    for (std::size_t i = 0; i < j.size(); ++i) pointers(j[i], at / i, out);
  }
}

// What a damaged value becomes: out-of-range numbers of both signs, zero, a fraction, an integer
// past 32 bits, and every wrong type.
std::vector<nlohmann::json> replacements() {
  return {0,
          -1,
          0.5,
          1e300,
          -1e300,
          1e-300,
          3000000000LL,
          "text",
          "nan",
          nullptr,
          true,
          nlohmann::json::array(),
          nlohmann::json::object(),
          nlohmann::json::array({1, 2})};
}

// Reads @p text as a scene file: true when it reads, false when it is refused with a sinew::Error
// naming the file; any other outcome is a test failure that says what the damage was.
bool reads(const std::string& text, const std::string& what) {
  try {
    parse_scene(text, "mutated.json", kScenes);
    return true;
  } catch (const Error& e) {
    const std::string m = e.what();
    EXPECT_NE(m.find("mutated.json"), std::string::npos) << what << ": the error does not name the file: " << m;
  } catch (const std::exception& e) {
    ADD_FAILURE() << what << ": an exception other than sinew::Error: " << e.what();
  }
  return false;
}

TEST(SceneFileMutation, DamagedReferenceScenesAreReadOrRefusedWithTheFileNamed) {
  std::vector<fs::path> files;
  for (const auto& entry : fs::directory_iterator(kScenes))
    if (entry.path().extension() == ".json") files.push_back(entry.path());
  std::sort(files.begin(), files.end());
  ASSERT_GE(files.size(), 18u);
  const std::vector<nlohmann::json> values = replacements();
  // SINEW_MUTATION_SEED / SINEW_MUTATION_ROUNDS (environment) run other or more damage; ctest
  // runs one fixed round (24 per file).
  const char* seed = std::getenv("SINEW_MUTATION_SEED");
  const char* rounds_text = std::getenv("SINEW_MUTATION_ROUNDS");
  std::mt19937_64 rng(seed ? std::stoull(seed) : 20261121);
  const int rounds = rounds_text ? std::max(1, std::stoi(rounds_text)) : 1;
  int refused = 0, read = 0;
  for (const fs::path& file : files) {
    SCOPED_TRACE(file.filename().string());
    const std::string text = read_text(file);
    const nlohmann::json original = nlohmann::json::parse(text);
    std::vector<nlohmann::json::json_pointer> at;
    pointers(original, nlohmann::json::json_pointer(), at);
    // 16 replaced values and 4 deleted keys at random places, 4 cuts of the text.
    for (int n = 0; n < 24 * rounds; ++n) {
      const int k = n % 24;
      nlohmann::json j = original;
      std::string what, damaged;
      if (k < 20) {
        const auto& p = at[1 + rng() % (at.size() - 1)];  // not the root
        if (k < 16) {
          const nlohmann::json& v = values[rng() % values.size()];
          j[p] = v;
          what = "set " + p.to_string() + " = " + v.dump();
        } else {
          nlohmann::json& parent = j[p.parent_pointer()];
          if (parent.is_object())
            parent.erase(p.back());
          else
            parent.erase(std::stoul(p.back()));
          what = "erase " + p.to_string();
        }
        damaged = j.dump();
      } else {
        const std::size_t cut = rng() % text.size();
        damaged = text.substr(0, cut);
        what = "cut at byte " + std::to_string(cut);
      }
      (reads(damaged, what) ? read : refused) += 1;
    }
  }
  // The damage is real: most of it is refused (a changed description or camera still reads).
  EXPECT_GT(refused, read);
}

}  // namespace
}  // namespace sinew::scene::scene_scene_file_mutation_test
