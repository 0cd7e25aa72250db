// The local scheduler: the summary does not depend on the job count, a failing variant is recorded
// while the others complete, and a re-run reuses the recorded results (seen by a marker planted in
// a result file, not by timing).
#include "sinew/ensemble/sweep_runner.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>

#include "expect_error.hpp"

namespace sinew::ensemble::ensemble_sweep_runner_test {
namespace {

namespace fs = std::filesystem;

std::string text_of(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

// 6 short variants of the slope (1 cell, 5 steps), variant 2 with a friction the scene refuses.
SweepFile small_sweep() {
  return parse_sweep(R"({"base_scene": "slope.json",
    "set": {"/steps": 5, "/bodies/0/mesh/box/cells": [1, 1, 1], "/outputs": {"vtu": false}},
    "parameters": [{"pointer": "/obstacles/0/friction", "name": "mu", "values": [0.1, 0.15, -0.5, 0.2, 0.25, 0.3]}],
    "outputs": [{"name": "x", "displacement": "block", "component": "x"},
                {"name": "ke_mean", "scalar": "kinetic_energy", "reduce": "mean"},
                {"name": "contacts_min", "scalar": "contacts", "reduce": "min"}]})",
                     "small.json", SINEW_SCENES_DIR);
}

fs::path fresh_dir(const std::string& name) {
  const fs::path d = fs::temp_directory_path() / ("sinew_ensemble_test_" + name);
  fs::remove_all(d);
  return d;
}

SweepResult run(const SweepFile& s, const fs::path& dir, int jobs, const std::string& backend = "serial") {
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = jobs;
  o.backend = backend;
  return run_sweep(s, o);
}

TEST(RunSweep, SummaryIsTheSameWhateverTheJobCount) {
  const SweepFile s = small_sweep();
  const SweepResult one = run(s, fresh_dir("jobs1"), 1);
  const SweepResult two = run(s, fresh_dir("jobs2"), 2);
  const SweepResult tbb = run(s, fresh_dir("jobs2_tbb"), 2, "tbb");  // one at a time, 2 threads each
  const std::string a = text_of(one.summary), b = text_of(two.summary), c = text_of(tbb.summary);
  EXPECT_FALSE(a.empty());
  EXPECT_EQ(a, b);
  EXPECT_EQ(two.jobs, 2);
  EXPECT_EQ(tbb.failed(), 1u);
  EXPECT_EQ(a.substr(0, a.find('\n')), "variant,mu,x,ke_mean,contacts_min,status,error");
}

TEST(RunSweep, AFailingVariantIsRecordedAndTheOthersComplete) {
  const fs::path dir = fresh_dir("failing");
  const SweepResult r = run(small_sweep(), dir, 2);
  ASSERT_EQ(r.variants.size(), 6u);
  EXPECT_EQ(r.failed(), 1u);
  EXPECT_FALSE(r.variants[2].ok());
  EXPECT_NE(r.variants[2].error.find("small.json variant 2 (mu=-0.5)"), std::string::npos) << r.variants[2].error;
  EXPECT_TRUE(std::isnan(r.variants[2].outputs[0]));
  for (std::size_t i : {0u, 1u, 3u, 4u, 5u}) {
    EXPECT_TRUE(r.variants[i].ok()) << i << ": " << r.variants[i].error;
    EXPECT_TRUE(fs::exists(dir / variant_folder(i) / "run.csv")) << i;
    EXPECT_GE(r.variants[i].outputs[2], 1.0) << "the block touches the slope";
  }
  // Stick/slip: the block slides at mu = 0.1 < tan(10 deg) and barely moves at mu = 0.3.
  EXPECT_GT(r.variants[0].outputs[0], 10 * std::abs(r.variants[5].outputs[0]));
  const std::string summary = text_of(r.summary);
  EXPECT_NE(summary.find("\n2,-0.5,nan,nan,nan,failed,\"small.json variant 2 (mu=-0.5)"), std::string::npos) << summary;
  EXPECT_NE(text_of(dir / "timings.csv").find("variant,wall_seconds,reused\n0,"), std::string::npos);
}

// A variant that fails numerically mid-run (the cantilever's Newton solve allowed one iteration to
// reach 1e-14) is recorded with the integrator's reason; the other variant of the same scene runs.
TEST(RunSweep, AVariantFailingNumericallyIsRecorded) {
  const SweepFile s = parse_sweep(R"({"base_scene": "cantilever.json",
    "set": {"/steps": 3, "/bodies/0/mesh/box/cells": [4, 1, 1], "/outputs": {"vtu": false}},
    "parameters": [{"pointer": "/integrator/newton", "name": "newton", "values": [{"max_iterations": 30},
        {"max_iterations": 1, "relative_tolerance": 1e-14, "absolute_tolerance": 0}]}],
    "outputs": [{"name": "ke", "scalar": "kinetic_energy"}]})",
                                  "newton.json", SINEW_SCENES_DIR);
  const SweepResult r = run(s, fresh_dir("numerical"), 2);
  ASSERT_EQ(r.variants.size(), 2u);
  EXPECT_TRUE(r.variants[0].ok()) << r.variants[0].error;
  EXPECT_GT(r.variants[0].outputs[0], 0.0) << "the beam starts to fall";
  EXPECT_FALSE(r.variants[1].ok());
  EXPECT_NE(r.variants[1].error.find("step 1 (from t = 0 s) failed: implicit_euler: Newton did not converge"),
            std::string::npos)
      << r.variants[1].error;
  EXPECT_TRUE(std::isnan(r.variants[1].outputs[0]));
  EXPECT_NE(text_of(r.summary).find("\n1,\"{\"\"absolute_tolerance\"\":0,"), std::string::npos) << text_of(r.summary);
}

// A sweep's outputs name a body's state like any run.csv column: the dropped cube's final x
// (the rigid body's "cube.x") against the closed form of its slide, for two friction coefficients.
TEST(RunSweep, OutputsNameABodysStateColumn) {
  const SweepFile s = parse_sweep(R"({"base_scene": "drop.json", "set": {"/steps": 900, "/outputs": {"vtu": false}},
    "parameters": [{"pointer": "/contact/mu", "name": "mu", "values": [0.3, 0.8]}],
    "outputs": [{"name": "x_rest", "scalar": "cube.x", "reduce": "last"},
                {"name": "z_min", "scalar": "cube.z", "reduce": "min"}]})",
                                  "drop_mu.json", SINEW_SCENES_DIR);
  const SweepResult r = run(s, fresh_dir("body_state"), 2);
  ASSERT_EQ(r.failed(), 0u);
  const double g = 9.81, H = 0.2, v0 = 2.0;
  for (std::size_t i = 0; i < 2; ++i) {
    const double mu = i == 0 ? 0.3 : 0.8;
    const double vx = v0 - mu * std::sqrt(2 * g * H);
    const double x_rest = v0 * std::sqrt(2 * H / g) + vx * vx / (2 * mu * g);
    EXPECT_NEAR(r.variants[i].outputs[0], x_rest, 5e-3 * x_rest) << "mu " << mu;
    EXPECT_NEAR(r.variants[i].outputs[1], 0.1, 1e-4) << "mu " << mu;  // it lands on its face, half size 0.1 m
  }
}

TEST(RunSweep, ARerunReusesRecordedVariants) {
  const fs::path dir = fresh_dir("resume");
  const SweepFile s = small_sweep();
  const SweepResult first = run(s, dir, 2);
  // Plant a marker in variant 1's result (same fingerprint, another output value) and remove
  // variant 4's result: the re-run must keep the marker and run variant 4 again.
  VariantResult planted = first.variants[1];
  planted.outputs[0] = 12345.0;
  std::ofstream(dir / variant_folder(1) / "result.json") << result_text(planted);
  fs::remove(dir / variant_folder(4) / "result.json");
  const SweepResult second = run(s, dir, 2);
  EXPECT_TRUE(second.variants[1].reused);
  EXPECT_EQ(second.variants[1].outputs[0], 12345.0);
  EXPECT_FALSE(second.variants[4].reused);
  EXPECT_TRUE(fs::exists(dir / variant_folder(4) / "result.json"));
  EXPECT_EQ(second.variants[4].outputs, first.variants[4].outputs);
  EXPECT_TRUE(second.variants[2].reused);  // a recorded failure is kept unless retry_failed
  EXPECT_NE(text_of(second.summary).find("\n1,0.15,12345,"), std::string::npos);
  // A result of another scene text (the fingerprint differs) is not reused.
  planted.fingerprint ^= 1;
  std::ofstream(dir / variant_folder(1) / "result.json") << result_text(planted);
  SweepOptions o;
  o.out_dir = dir;
  o.jobs = 1;
  o.retry_failed = true;
  const SweepResult third = run_sweep(s, o);
  EXPECT_FALSE(third.variants[1].reused);
  EXPECT_EQ(third.variants[1].outputs, first.variants[1].outputs);
  EXPECT_FALSE(third.variants[2].reused);
  EXPECT_EQ(text_of(third.summary), text_of(first.summary));
}

TEST(RunSweep, ResultFilesRoundTrip) {
  VariantResult r;
  r.index = 7;
  r.completed = false;
  r.error = "bad \"value\"";
  r.outputs = {0.1, std::numeric_limits<double>::quiet_NaN(), -std::numeric_limits<double>::infinity()};
  r.fingerprint = 0xfedcba9876543210ULL;
  r.wall_seconds = 1.5;
  const VariantResult b = parse_result(result_text(r), "r.json");
  EXPECT_EQ(b.index, 7u);
  EXPECT_FALSE(b.ok());
  EXPECT_EQ(b.error, r.error);
  EXPECT_EQ(b.fingerprint, r.fingerprint);
  EXPECT_EQ(b.outputs[0], 0.1);
  EXPECT_TRUE(std::isnan(b.outputs[1]));
  EXPECT_EQ(b.outputs[2], r.outputs[2]);
  EXPECT_SINEW_ERROR(parse_result("{\"variant\": 1}", "r.json"), "r.json", "missing");
}

TEST(VariantCores, CountsEachVariantsOwnParallelism) {
  EXPECT_EQ(variant_cores("serial", 0, 4), 1);
  EXPECT_EQ(variant_cores("tbb", 0, 4), 4);
  EXPECT_EQ(variant_cores("tbb", 2, 4), 2);
  EXPECT_EQ(variant_cores("tbb", 8, 4), 4);
  EXPECT_EQ(variant_cores("kokkos", 1, 3), 3);
  Variant v;
  v.scene_text = R"({"backend": "tbb"})";
  EXPECT_EQ(variant_backend(v, ""), "tbb");
  EXPECT_EQ(variant_backend(v, "serial"), "serial");
}

}  // namespace
}  // namespace sinew::ensemble::ensemble_sweep_runner_test
