// The checked JSON reading behind scene files: every error names the file, the JSON path and
// what was expected.
#include "json_fields.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"

namespace sinew::scene::detail::scene_json_fields_test {
namespace {

JsonObject root(const nlohmann::json& j) { return JsonObject(j, "scene.json", ""); }

TEST(JsonFields, ReadsValuesWithDefaultsAndRanges) {
  const nlohmann::json j = parse_json(R"({"dt": 0.01, "steps": 20, "name": "slope", "on": true,
    "g": [0, 0, -9.81], "material": {"model": "arap", "youngs_modulus": 1e8}, "bodies": [{"mu": 0.5}]})",
                                      "scene.json");
  JsonObject o = root(j);
  EXPECT_EQ(o.real_above("dt", std::nullopt, 0.0), 0.01);
  EXPECT_EQ(o.integer("steps", std::nullopt, 1, 1000), 20);
  EXPECT_EQ(o.string("name", std::nullopt), "slope");
  EXPECT_TRUE(o.boolean("on", false));
  EXPECT_EQ(o.vec3("g", std::nullopt)[2], -9.81);
  EXPECT_EQ(o.real("absent", 3.0), 3.0);
  auto m = o.object("material");
  ASSERT_TRUE(m);
  EXPECT_EQ(m->choice("model", {"arap", "corotational"}, std::nullopt), "arap");
  EXPECT_EQ(m->real_above("youngs_modulus", std::nullopt, 0.0), 1e8);
  m->finish();
  auto bodies = o.objects("bodies");
  ASSERT_EQ(bodies.size(), 1u);
  EXPECT_EQ(bodies[0].path(), "/bodies/0");
  EXPECT_EQ(bodies[0].real("mu", std::nullopt, 0.0, 10.0), 0.5);
  o.finish();
}

TEST(JsonFields, ErrorsNameFilePathAndExpectation) {
  const nlohmann::json j = parse_json(R"({"dt": -1, "steps": 2.5, "model": "neo", "g": [0, 0],
    "material": {"youngs_modulus": 0, "poison_ratio": 0.3}, "bodies": [{"mu": "high"}], "nu": 0.5})",
                                      "scene.json");
  JsonObject o = root(j);
  EXPECT_SINEW_ERROR(o.real_above("dt", std::nullopt, 0.0), "scene.json: /dt: expected a number > 0, found -1");
  EXPECT_SINEW_ERROR(o.integer("steps", std::nullopt, 1, 10),
                     "/steps: expected an integer in [1, 10], found a number 2.5");
  EXPECT_SINEW_ERROR(o.choice("model", {"arap", "stable_neo_hookean"}, std::nullopt),
                     "/model: expected one of \"arap\", \"stable_neo_hookean\", found \"neo\"");
  EXPECT_SINEW_ERROR(o.vec3("g", std::nullopt), "/g: expected an array of 3 numbers");
  EXPECT_SINEW_ERROR(o.real("missing", std::nullopt), "/missing: missing; expected a number");
  EXPECT_SINEW_ERROR(o.real("nu", std::nullopt, -1.0, 0.5 - 1e-9), "/nu: expected a number in [-1,");
  auto m = o.object("material");
  EXPECT_SINEW_ERROR(m->real_above("youngs_modulus", std::nullopt, 0.0),
                     "/material/youngs_modulus: expected a number > 0");
  m->real("poisson_ratio", 0.3);
  EXPECT_SINEW_ERROR(m->finish(), "/material/poison_ratio: unknown key; did you mean \"poisson_ratio\"?");
  auto bodies = o.objects("bodies");
  EXPECT_SINEW_ERROR(bodies[0].real("mu", std::nullopt, 0.0, 10.0),
                     "/bodies/0/mu: expected a number in [0, 10], found a string");
}

TEST(JsonFields, SyntaxErrorsNameLineAndColumn) {
  EXPECT_SINEW_ERROR(parse_json("{\n  \"dt\": 0.01,\n  \"steps\": ,\n}", "bad.json"), "bad.json:3:", "invalid JSON");
  EXPECT_SINEW_ERROR(parse_json("", "empty.json"), "empty.json:1:1", "invalid JSON");
  EXPECT_SINEW_ERROR(JsonObject(parse_json("[1, 2]", "a.json"), "a.json", ""),
                     "a.json: /: expected an object, found an array");
  // A number beyond double's range is refused at its line, not thrown past the reader.
  EXPECT_SINEW_ERROR(parse_json("{\n  \"E\": 1e999\n}", "huge.json"), "huge.json:2:8", "number overflow", "1e999");
}

TEST(JsonFields, RawValuesTypeNamesAndUnsignedIntegers) {
  const nlohmann::json j =
      parse_json(R"({"any": [1, "a"], "seed": 18446744073709551615, "neg": -1, "half": 0.5, "big": 7})", "scene.json");
  JsonObject o = root(j);
  EXPECT_EQ(o.value("any"), nlohmann::json::parse(R"([1, "a"])"));
  EXPECT_EQ(JsonObject::type_name(o.value("any")), "an array");
  EXPECT_EQ(JsonObject::type_name(nlohmann::json()), "null");
  EXPECT_EQ(o.unsigned_integer("seed", std::nullopt, 0, ~std::uint64_t{0}), ~std::uint64_t{0});
  EXPECT_EQ(o.unsigned_integer("absent", 5, 0, 10), 5u);
  EXPECT_SINEW_ERROR(o.value("missing"), "scene.json: /missing: missing");
  EXPECT_SINEW_ERROR(o.unsigned_integer("neg", std::nullopt, 0, 10), "/neg: expected an integer in [0, 10], found -1");
  EXPECT_SINEW_ERROR(o.unsigned_integer("half", std::nullopt, 0, 10),
                     "/half: expected an integer in [0, 10], found a number 0.5");
  EXPECT_SINEW_ERROR(o.unsigned_integer("big", std::nullopt, 0, 6), "/big: expected an integer in [0, 6], found 7");
  o.finish();  // value() and unsigned_integer() mark their keys as read
}

}  // namespace
}  // namespace sinew::scene::detail::scene_json_fields_test
