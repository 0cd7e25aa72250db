// Expansion of sweeps into numbered variants: grid and zip order, ranges, reproducible draws
// (golden values computed independently from the splitmix64 definition), substitution and the
// per-variant scene checks.
#include "sinew/ensemble/variants.hpp"

#include <gtest/gtest.h>

#include <nlohmann/json.hpp>
#include <string>

#include "expect_error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::ensemble::ensemble_variants_test {
namespace {

SweepFile parse(const std::string& body) {
  return parse_sweep("{\"base_scene\": \"slope.json\", " + body + "}", "t.json", SINEW_SCENES_DIR);
}

TEST(SplitMix64, MatchesTheReferenceSequence) {
  SplitMix64 g(0);  // the published splitmix64 outputs for seed 0
  EXPECT_EQ(g.next(), 0xe220a8397b1dcdafULL);
  EXPECT_EQ(g.next(), 0x6e789e6aa1b965f4ULL);
  EXPECT_EQ(g.next(), 0x06c45d188009454fULL);
}

TEST(RandomDraws, AreReproducibleGoldenValues) {
  const std::vector<double> u = random_draws(Distribution::kUniform, 0.1, 0.3, 3, 42);
  ASSERT_EQ(u.size(), 3u);
  EXPECT_EQ(u[0], 0.24831297575436465);
  EXPECT_EQ(u[1], 0.13198207857538402);
  EXPECT_EQ(u[2], 0.15572022605102773);
  EXPECT_EQ(random_draws(Distribution::kNormal, 1.0, 0.5, 5, 9), random_draws(Distribution::kNormal, 1.0, 0.5, 5, 9));
  EXPECT_NE(random_draws(Distribution::kUniform, 0, 1, 2, 1), random_draws(Distribution::kUniform, 0, 1, 2, 2));
  for (double x : random_draws(Distribution::kLogUniform, 1e-3, 1e3, 200, 5)) {
    EXPECT_GE(x, 1e-3 * (1 - 1e-12));
    EXPECT_LT(x, 1e3 * (1 + 1e-12));
  }
  // Normal draws: mean and spread of 4000 draws within 4 standard errors.
  const std::vector<double> n = random_draws(Distribution::kNormal, 2.0, 0.5, 4000, 3);
  double mean = 0, var = 0;
  for (double x : n) mean += x / n.size();
  for (double x : n) var += (x - mean) * (x - mean) / (n.size() - 1);
  EXPECT_NEAR(mean, 2.0, 4 * 0.5 / std::sqrt(4000.0));
  EXPECT_NEAR(std::sqrt(var), 0.5, 0.03);
}

TEST(RangeValues, LinearAndLogIncludeBothEnds) {
  EXPECT_EQ(range_values(0.0, 1.0, 5, false), (std::vector<double>{0.0, 0.25, 0.5, 0.75, 1.0}));
  const std::vector<double> g = range_values(1e-2, 1e2, 5, true);
  EXPECT_EQ(g.front(), 1e-2);
  EXPECT_EQ(g.back(), 1e2);
  EXPECT_NEAR(g[2], 1.0, 1e-14);
  EXPECT_EQ(range_values(3.0, 7.0, 1, false), (std::vector<double>{3.0}));
  EXPECT_EQ(number_text(0.1), "0.1");
  EXPECT_EQ(number_text(1.0 / 3.0), "0.3333333333333333");  // 16 digits suffice
  EXPECT_EQ(number_text(0.1 + 0.2), "0.30000000000000004");
}

TEST(Expand, GridVariesTheLastParameterFastest) {
  const SweepFile s = parse(R"("parameters": [{"pointer": "/density", "values": [1, 2]},
      {"pointer": "/obstacles/0/friction", "name": "mu", "values": [0.1, 0.2, 0.3]}])");
  ASSERT_EQ(variant_count(s), 6u);
  const std::vector<Variant> v = expand(s);
  ASSERT_EQ(v.size(), 6u);
  EXPECT_EQ(v[0].values, (std::vector<std::string>{"1", "0.1"}));
  EXPECT_EQ(v[1].values, (std::vector<std::string>{"1", "0.2"}));
  EXPECT_EQ(v[3].values, (std::vector<std::string>{"2", "0.1"}));
  EXPECT_EQ(v[5].values, (std::vector<std::string>{"2", "0.3"}));
  const nlohmann::json scene = nlohmann::json::parse(v[4].scene_text);
  EXPECT_EQ(scene["density"], 2);
  EXPECT_EQ(scene["obstacles"][0]["friction"].get<double>(), 0.2);
  EXPECT_EQ(scene["name"], "slope");  // everything else as in the base scene
  EXPECT_EQ(variant_folder(4), "variant_0004");
  EXPECT_EQ(variant_folder(12345), "variant_12345");
  EXPECT_SINEW_ERROR(make_variant(s, 6), "variant 6 does not exist");
}

TEST(Expand, ZipPairsTheValuesAndSetAppliesToAll) {
  const SweepFile s = parse(R"("combination": "zip", "set": {"/steps": 4, "/outputs": {"vtu": false}},
      "parameters": [{"pointer": "/density", "values": [1, 2, 3]},
                     {"pointer": "/time_step", "range": {"start": 0.01, "stop": 0.03, "count": 3}}])");
  ASSERT_EQ(variant_count(s), 3u);
  const Variant v = make_variant(s, 2);
  EXPECT_EQ(v.values, (std::vector<std::string>{"3", "0.03"}));
  const nlohmann::json scene = nlohmann::json::parse(v.scene_text);
  EXPECT_EQ(scene["steps"], 4);
  EXPECT_EQ(scene["outputs"], nlohmann::json::parse(R"({"vtu": false})"));
  EXPECT_EQ(scene["time_step"].get<double>(), 0.03);
}

TEST(ParseVariant, ChecksEachVariantAndNamesIt) {
  const SweepFile s =
      parse(R"("parameters": [{"pointer": "/obstacles/0/friction", "name": "mu", "values": [0.2, -1]}])");
  EXPECT_EQ(parse_variant(s, make_variant(s, 0)).name, "slope");
  EXPECT_SINEW_ERROR(parse_variant(s, make_variant(s, 1)), "t.json variant 1 (mu=-1)", "/obstacles/0/friction");
  const SweepFile typo = parse(R"("parameters": [{"pointer": "/densty", "values": [1]}])");  // a key the scene rejects
  EXPECT_SINEW_ERROR(parse_variant(typo, make_variant(typo, 0)), "t.json variant 0", "densty");
}

}  // namespace
}  // namespace sinew::ensemble::ensemble_variants_test
