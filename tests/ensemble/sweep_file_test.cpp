// Reading sweep files: the schema, and every kind of bad input named by file, JSON path and what
// was expected.
#include "sinew/ensemble/sweep_file.hpp"

#include <gtest/gtest.h>

#include <string>

#include "expect_error.hpp"

namespace sinew::ensemble::ensemble_sweep_file_test {
namespace {

// A sweep of the reference slope scene with @p body spliced into the top-level object.
SweepFile parse(const std::string& body) {
  return parse_sweep("{\"base_scene\": \"slope.json\", " + body + "}", "t.json", SINEW_SCENES_DIR);
}

const char* kMu = R"("parameters": [{"pointer": "/obstacles/0/friction", "name": "mu", "values": [0.1, 0.2]}])";

TEST(SweepFile, ReadsListsRangesDrawsSetAndOutputs) {
  const SweepFile s = parse(R"("combination": "grid", "set": {"/steps": 3},
    "parameters": [
      {"pointer": "/obstacles/0/friction", "name": "mu", "values": [0.1, 0.25]},
      {"pointer": "/time_step", "range": {"start": 0.001, "stop": 0.1, "count": 3, "spacing": "log"}},
      {"pointer": "/density", "random": {"distribution": "uniform", "low": 500, "high": 1500, "count": 2, "seed": 7}}],
    "outputs": [{"scalar": "kinetic_energy", "reduce": "max"}, {"displacement": "block", "component": "x"}])");
  EXPECT_EQ(s.name, "");
  EXPECT_EQ(s.combination, Combination::kGrid);
  ASSERT_EQ(s.fixed.size(), 1u);
  EXPECT_EQ(s.fixed[0].first, "/steps");
  EXPECT_EQ(s.fixed[0].second, "3");
  ASSERT_EQ(s.parameters.size(), 3u);
  EXPECT_EQ(s.parameters[0].name, "mu");
  EXPECT_EQ(s.parameters[0].values, (std::vector<std::string>{"0.1", "0.25"}));
  EXPECT_EQ(s.parameters[1].name, "/time_step");  // the pointer when no name is given
  EXPECT_EQ(s.parameters[1].values, (std::vector<std::string>{"0.001", "0.01", "0.1"}));
  EXPECT_EQ(s.parameters[2].source, ValueSource::kRandom);
  EXPECT_EQ(s.parameters[2].values.size(), 2u);
  const SweepFile top_seed =  // seeds take all 64 bits
      parse(R"("parameters": [{"pointer": "/density",
        "random": {"low": 1, "high": 2, "count": 3, "seed": 18446744073709551615}}])");
  EXPECT_EQ(top_seed.parameters[0].values.size(), 3u);
  ASSERT_EQ(s.outputs.size(), 2u);
  EXPECT_EQ(s.outputs[0].name, "kinetic_energy_max");
  EXPECT_EQ(s.outputs[0].reduction, Reduction::kMax);
  EXPECT_EQ(s.outputs[1].kind, OutputSpec::Kind::kDisplacement);
  EXPECT_EQ(s.outputs[1].component, 0);
  EXPECT_EQ(s.outputs[1].name, "block_displacement_x");
  EXPECT_NE(s.base_text.find("\"slope\""), std::string::npos);
}

TEST(SweepFile, UnknownKeysAreErrors) {
  EXPECT_SINEW_ERROR(parse(std::string(kMu) + R"(, "combinaton": "zip")"),
                     "t.json: /combinaton: unknown key; did you mean \"combination\"?");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/density", "values": [1], "seed": 3}])"),
                     "t.json: /parameters/0/seed: unknown key");
  EXPECT_SINEW_ERROR(
      parse(R"("parameters": [{"pointer": "/density", "range": {"start": 1, "stop": 2, "count": 2, "step": 1}}])"),
      "/parameters/0/range/step: unknown key");
}

TEST(SweepFile, BadPointersAreErrors) {
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "obstacles/0/friction", "values": [1]}])"),
                     "/parameters/0/pointer", "starting with '/'");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/obstacles/3/friction", "values": [1]}])"),
                     "/parameters/0/pointer", "nothing at \"/obstacles/3\"");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/obstacles/7", "values": [1]}])"),
                     "expected an index below 1");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/time_step/x", "values": [1]}])"),
                     "\"/time_step\" is a number, not an object or array");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/a~2b", "values": [1]}])"), "not a valid JSON pointer");
  EXPECT_SINEW_ERROR(parse(R"("set": {"/nope/steps": 1}, )" + std::string(kMu)), "t.json: /set/",
                     "nothing at \"/nope\"");
}

TEST(SweepFile, WrongTypesAndValuesAreErrors) {
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/density", "values": 3}])"), "/parameters/0/values",
                     "expected a non-empty array of values, got an integer");
  // A sweep of one parameter, /density, whose values come from @p source.
  auto density = [](const std::string& source) {
    return parse(R"("parameters": [{"pointer": "/density", )" + source + "}]");
  };
  EXPECT_SINEW_ERROR(density(R"("range": {"start": 1, "stop": 2, "count": "4"})"),
                     "t.json: /parameters/0/range/count: expected an integer in [1, 1000000], found a string \"4\"");
  EXPECT_SINEW_ERROR(density(R"("range": {"start": 1, "stop": 2, "count": 2, "spacing": "lin"})"),
                     "t.json: /parameters/0/range/spacing: expected one of \"linear\", \"log\", found \"lin\"");
  EXPECT_SINEW_ERROR(density(R"("range": {"start": 0, "stop": 2, "count": 3, "spacing": "log"})"),
                     "t.json: /parameters/0/range/spacing: \"log\" spacing needs start > 0");
  EXPECT_SINEW_ERROR(density(R"("random": {"low": 1, "high": 2, "count": 3, "seed": -1})"),
                     "t.json: /parameters/0/random/seed: expected an integer in [0, 18446744073709551615], found -1");
  EXPECT_SINEW_ERROR(density(R"("random": {"low": 2, "high": 1, "count": 3, "seed": 1})"),
                     "t.json: /parameters/0/random/high: expected a number > low");
  EXPECT_SINEW_ERROR(density(R"("random": {"distribution": "normal", "mean": 1, "stddev": -1, "count": 3, "seed": 1})"),
                     "t.json: /parameters/0/random/stddev: expected a number >= 0, found -1");
  EXPECT_SINEW_ERROR(parse(R"("parameters": [{"pointer": "/density", "values": [1], "range": {}}])"),
                     "exactly one of \"values\", \"range\" or \"random\"");
  EXPECT_SINEW_ERROR(parse(R"("parameters": 5)"), "t.json: /parameters: expected a non-empty array");
  EXPECT_SINEW_ERROR(parse(R"("combination": "zip", "parameters": [{"pointer": "/density", "values": [1, 2]},
                      {"pointer": "/time_step", "values": [0.1]}])"),
                     "\"zip\" needs every parameter to have the same number of values");
  EXPECT_SINEW_ERROR(
      parse(std::string(kMu) + R"(, "outputs": [{"scalar": "contacts", "reduce": "median"}])"),
      "t.json: /outputs/0/reduce: expected one of \"last\", \"min\", \"max\", \"mean\", found \"median\"");
  EXPECT_SINEW_ERROR(parse(std::string(kMu) + R"(, "outputs": [{"name": "mu", "scalar": "contacts"}])"),
                     "column name \"mu\" is used twice");
  EXPECT_SINEW_ERROR(parse_sweep("[1, 2]", "t.json", SINEW_SCENES_DIR), "t.json: /: expected an object");
  EXPECT_SINEW_ERROR(parse_sweep("{\"base_scene\": ", "t.json", SINEW_SCENES_DIR), "t.json:1:16: invalid JSON");
}

TEST(SweepFile, MissingBaseSceneIsAnError) {
  EXPECT_SINEW_ERROR(
      parse_sweep(std::string("{\"base_scene\": \"no_such_scene.json\", ") + kMu + "}", "t.json", SINEW_SCENES_DIR),
      "t.json: /base_scene", "no_such_scene.json", "cannot open");
  EXPECT_SINEW_ERROR(parse_sweep(kMu, "t.json", SINEW_SCENES_DIR), "t.json");
  EXPECT_SINEW_ERROR(parse_sweep(std::string("{") + kMu + "}", "t.json", SINEW_SCENES_DIR),
                     "t.json: /base_scene: missing");
  EXPECT_SINEW_ERROR(read_sweep_file("no_such_sweep.json"), "no_such_sweep.json", "cannot open");
}

}  // namespace
}  // namespace sinew::ensemble::ensemble_sweep_file_test
