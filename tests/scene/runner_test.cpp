#include "sinew/scene/runner.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <sstream>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "quick_tests.hpp"
#include "sinew/render/image.hpp"
#include "sinew/render/png_snapshots.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene::scene_runner_test {
namespace {

namespace fs = std::filesystem;

fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("sinew_runner_" + name);
  fs::remove_all(dir);
  return dir;
}

std::string read_text(const fs::path& p) {
  std::ifstream in(p, std::ios::binary);
  return std::string((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
}

std::vector<std::string> lines_of(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

// A block of 6 tets and a sheet of 2 triangles whose vertices follow a nonlinear, chaotic map:
// any difference in a restored bit shows in the final state. Failures and NaNs on request.
class FakeSimulation : public Simulation {
 public:
  explicit FakeSimulation(std::string name = "fake") : name_(std::move(name)) {
    const TetMesh m = box_tet_mesh(Vec3{{0, 0, 0.5}}, Vec3{{1, 1, 1.5}}, 1, 1, 1);
    tets_ = m.tets;
    x_ = interleaved(m.vertices);
    x_.insert(x_.end(), {2, 0, 0.2, 3, 0, 0.2, 2, 1, 0.2, 3, 1, 0.2});
    v_.assign(x_.size(), 0.0);
  }
  long fail_at = -1;        // step() at this step count returns not ok
  long nan_scalar_at = -1;  // a NaN scalar at this step
  long nan_state_at = -1;   // a NaN position (reported ok) at this step

  std::string name() const override { return name_; }
  double time_step() const override { return 0.01; }
  long steps() const override { return steps_; }
  double time() const override { return t_; }
  SimulationSize size() const override {
    SimulationSize s;
    s.vertices = static_cast<Index>(x_.size() / 3);
    s.tets = tets_.size();
    s.triangles = 2;
    s.degrees_of_freedom = static_cast<Index>(x_.size());
    return s;
  }
  std::vector<std::string> scalar_names() const override { return {"kinetic_energy", "iterations", "frame_ms"}; }
  StepOutcome step() override {
    const long k = steps_ + 1;
    if (k == fail_at) return StepOutcome{false, "the fake diverged (residual 1e300)", {1e300, 99, 0.1}, ""};
    double ke = 0.0;
    for (std::size_t i = 0; i < x_.size(); ++i) {
      v_[i] += time_step() * (-std::sin(3.0 * x_[i]) - 0.1 * v_[i] + 0.3 * std::cos(x_[(i + 1) % x_.size()]));
      x_[i] += time_step() * v_[i];
      ke += 0.5 * v_[i] * v_[i];
    }
    if (k == nan_state_at) x_[0] = std::numeric_limits<double>::quiet_NaN();
    ++steps_;
    t_ += time_step();
    const double s0 = k == nan_scalar_at ? std::numeric_limits<double>::quiet_NaN() : ke;
    return StepOutcome{true, "", {s0, static_cast<double>(k % 3), 0.25}, ""};
  }
  std::vector<OutputMesh> output_meshes() const override {
    OutputMesh block{"block", {}}, sheet{"sheet", {}};
    block.frame.points.assign(x_.begin(), x_.begin() + 24);
    block.frame.tets = tets_;
    block.frame.point_fields.push_back({"velocity", 3, std::vector<double>(v_.begin(), v_.begin() + 24)});
    sheet.frame.points.assign(x_.begin() + 24, x_.end());
    sheet.frame.triangles = {{0, 1, 2}, {1, 3, 2}};
    return {block, sheet};
  }
  std::vector<Obstacle> obstacles() const override { return {half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}})}; }
  void save(std::ostream& out) const override {
    const std::size_t n = x_.size();
    out.write(reinterpret_cast<const char*>(&steps_), sizeof steps_);
    out.write(reinterpret_cast<const char*>(&t_), sizeof t_);
    out.write(reinterpret_cast<const char*>(&n), sizeof n);
    out.write(reinterpret_cast<const char*>(x_.data()), static_cast<std::streamsize>(n * sizeof(double)));
    out.write(reinterpret_cast<const char*>(v_.data()), static_cast<std::streamsize>(n * sizeof(double)));
  }
  void restore(std::istream& in) override {
    long steps = 0;
    double t = 0;
    std::size_t n = 0;
    in.read(reinterpret_cast<char*>(&steps), sizeof steps);
    in.read(reinterpret_cast<char*>(&t), sizeof t);
    in.read(reinterpret_cast<char*>(&n), sizeof n);
    if (!in || n != x_.size()) throw Error("fake: state of another size");
    std::vector<double> x(n), v(n);
    in.read(reinterpret_cast<char*>(x.data()), static_cast<std::streamsize>(n * sizeof(double)));
    in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(n * sizeof(double)));
    if (!in) throw Error("fake: truncated state");
    steps_ = steps;
    t_ = t;
    x_ = std::move(x);
    v_ = std::move(v);
  }
  std::string state_bits() const {
    std::ostringstream s;
    save(s);
    return s.str();
  }

 private:
  std::string name_;
  std::vector<std::array<Index, 4>> tets_;
  std::vector<double> x_, v_;  // (3 n) positions, velocities
  long steps_ = 0;
  double t_ = 0.0;
};

RunOptions options(const fs::path& out, long steps) {
  RunOptions o;
  o.out_dir = out;
  o.steps = steps;
  o.csv_interval_seconds = 0.0;
  return o;
}

TEST(Runner, WritesCsvRowsVtuSeriesAndInitialFrame) {
  const fs::path out = scratch("outputs");
  FakeSimulation sim;
  RunOptions o = options(out, 10);
  o.outputs.every = 3;
  o.outputs.obj = true;
  const RunResult r = run_simulation(sim, o);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.first_step, 0);
  EXPECT_EQ(r.last_step, 10);
  EXPECT_EQ(r.frames, 5);  // steps 0, 3, 6, 9 and the last, 10
  const std::vector<std::string> lines = lines_of(read_text(out / "run.csv"));
  ASSERT_EQ(lines.size(), 11u);
  EXPECT_EQ(lines[0], "step,t,kinetic_energy,iterations,frame_ms");
  EXPECT_EQ(lines[1].substr(0, 7), "1,0.01,");
  EXPECT_EQ(lines[10].substr(0, 3), "10,");
  EXPECT_EQ(lines[10].substr(lines[10].size() - 7), ",1,0.25");
  for (const char* body : {"block", "sheet"}) {
    ASSERT_TRUE(fs::exists(out / "vtu" / (std::string(body) + ".pvd")));
    for (int step : {0, 3, 6, 9, 10}) {  // frames are numbered by step, as every output is
      char name[64];
      std::snprintf(name, sizeof name, "%s_%06d.vtu", body, step);
      EXPECT_TRUE(fs::exists(out / "vtu" / name)) << name;
    }
    EXPECT_FALSE(fs::exists(out / "vtu" / (std::string(body) + "_000001.vtu")));
    for (const char* step : {"000000", "000003", "000010"})
      EXPECT_TRUE(fs::exists(out / "obj" / (std::string(body) + "_" + step + ".obj")));
    EXPECT_FALSE(fs::exists(out / "obj" / (std::string(body) + "_000004.obj")));
  }
  EXPECT_EQ(r.series.size(), 2u);
  EXPECT_TRUE(r.checkpoints.empty());
  EXPECT_FALSE(fs::exists(out / "checkpoints"));
  if (std::system("python3 -c 'import xml.etree.ElementTree' > /dev/null 2>&1") != 0)
    GTEST_SKIP() << "python3 is not available to validate the XML";
  const std::string cmd = "python3 " SINEW_TEST_SOURCE "/scene/validate_vtk.py '" + (out / "vtu/block.pvd").string() +
                          "' '" + (out / "vtu/sheet.pvd").string() + "'";
  EXPECT_EQ(std::system(cmd.c_str()), 0);
}

TEST(Runner, CsvIsWholeAtEveryFrameAndProgressIsCalledPerStep) {
  const fs::path out = scratch("progress");
  FakeSimulation sim;
  RunOptions o = options(out, 12);
  o.outputs.every = 4;
  o.outputs.vtu = false;
  std::vector<long> seen;
  const RunResult r = run_simulation(sim, o, [&](const RunProgress& p) {
    seen.push_back(p.step);
    EXPECT_EQ(p.steps, 12);
    EXPECT_NEAR(p.time, 0.01 * static_cast<double>(p.step), 1e-12);
    EXPECT_GE(p.eta_seconds, 0.0);
    EXPECT_EQ(p.outcome->scalars.size(), p.names->size());
    if (p.step % 4 == 0) {  // an output frame: run.csv holds exactly the rows so far
      const std::vector<std::string> lines = lines_of(read_text(out / "run.csv"));
      EXPECT_EQ(lines.size(), static_cast<std::size_t>(p.step) + 1);
      EXPECT_EQ(lines.back().substr(0, std::to_string(p.step).size() + 1), std::to_string(p.step) + ",");
      EXPECT_FALSE(fs::exists(out / "run.csv.tmp"));
    }
    return true;
  });
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(seen.size(), 12u);
  for (long k = 1; k <= 12; ++k) EXPECT_EQ(seen[static_cast<std::size_t>(k - 1)], k);
  EXPECT_FALSE(fs::exists(out / "vtu"));
}

TEST(Runner, CallbackReturningFalseStopsCleanlyWithACheckpoint) {
  const fs::path out = scratch("stop");
  FakeSimulation sim;
  RunOptions o = options(out, 100);
  o.outputs.every = 10;
  o.outputs.checkpoint_every = 50;
  int calls = 0;
  const RunResult r = run_simulation(sim, o, [&](const RunProgress& p) {
    ++calls;
    return p.step < 7;
  });
  EXPECT_EQ(r.status, RunResult::Status::kStopped);
  EXPECT_EQ(calls, 7);
  EXPECT_EQ(sim.steps(), 7);
  EXPECT_EQ(r.last_step, 7);
  EXPECT_EQ(lines_of(read_text(out / "run.csv")).size(), 8u);
  ASSERT_EQ(r.checkpoints.size(), 1u);
  EXPECT_EQ(r.checkpoints[0], out / "checkpoints" / "step_000007.sinewckpt");
  EXPECT_TRUE(fs::exists(out / "vtu" / "block_000007.vtu"));  // frames 0 and the stop step, 7
  EXPECT_FALSE(fs::exists(out / "vtu" / "block_000001.vtu"));
}

TEST(Runner, FailingStepStopsTheRunAndIsReported) {
  const fs::path out = scratch("fail");
  FakeSimulation sim;
  sim.fail_at = 6;
  RunOptions o = options(out, 20);
  o.outputs.every = 4;
  o.outputs.checkpoint_every = 2;
  RunResult r;
  EXPECT_NO_THROW(r = run_simulation(sim, o));
  EXPECT_EQ(r.status, RunResult::Status::kFailed);
  EXPECT_NE(r.message.find("step 6"), std::string::npos) << r.message;
  EXPECT_NE(r.message.find("the fake diverged"), std::string::npos) << r.message;
  EXPECT_EQ(r.last_step, 5);
  const std::vector<std::string> lines = lines_of(read_text(out / "run.csv"));
  ASSERT_EQ(lines.size(), 7u);  // header, steps 1..5, the failed step 6
  EXPECT_EQ(lines[6].substr(0, 6), "6,0.06");
  EXPECT_EQ(lines[6].substr(lines[6].size() - 14), ",1e+300,99,0.1");
  EXPECT_TRUE(fs::exists(out / "vtu" / "block_000005.vtu"));  // frames 0, 4 and the last good state, 5
  EXPECT_EQ(r.checkpoints.size(), 2u);                        // steps 2 and 4, none of the failure
}

TEST(Runner, NonFiniteScalarsAndStatesAreNotHidden) {
  {
    FakeSimulation sim;
    sim.nan_scalar_at = 3;
    const RunResult r = run_simulation(sim, options(scratch("nan_scalar"), 5));
    EXPECT_TRUE(r.ok());
    EXPECT_EQ(r.non_finite_steps, 1);
    EXPECT_EQ(r.first_non_finite, "step 3, column kinetic_energy");
    const std::vector<std::string> lines = lines_of(read_text(r.csv));
    EXPECT_EQ(lines[3].substr(0, 12), "3,0.03,nan,0");
  }
  {
    FakeSimulation sim;
    sim.nan_state_at = 4;
    RunOptions o = options(scratch("nan_state"), 10);
    o.outputs.every = 2;
    const RunResult r = run_simulation(sim, o);
    EXPECT_EQ(r.status, RunResult::Status::kFailed);
    EXPECT_NE(r.message.find("non-finite"), std::string::npos) << r.message;
    EXPECT_NE(r.message.find("block"), std::string::npos) << r.message;
    EXPECT_EQ(r.last_step, 4);
    EXPECT_EQ(lines_of(read_text(r.csv)).size(), 5u);
  }
}

TEST(Runner, CheckpointRoundTripIsBitExact) {
  const fs::path dir = scratch("ckpt");
  FakeSimulation a;
  for (int k = 0; k < 9; ++k) ASSERT_TRUE(a.step().ok());
  save_checkpoint(dir / "a.sinewckpt", a, 42);
  const CheckpointHeader h = read_checkpoint_header(dir / "a.sinewckpt");
  EXPECT_EQ(h.scene_name, "fake");
  EXPECT_EQ(h.steps, 9);
  EXPECT_EQ(h.scene_hash, 42u);
  EXPECT_EQ(h.time, a.time());
  FakeSimulation b;
  load_checkpoint(dir / "a.sinewckpt", b, 42);
  EXPECT_EQ(b.state_bits(), a.state_bits());
  EXPECT_EQ(b.steps(), 9);
}

TEST(Runner, ResumedRunEndsInTheSameBitsAsAnUninterruptedOne) {
  FakeSimulation whole;
  const fs::path whole_out = scratch("whole");
  RunOptions o = options(whole_out, 40);
  o.outputs.every = 10;
  ASSERT_TRUE(run_simulation(whole, o).ok());

  const fs::path out = scratch("split");
  FakeSimulation first;
  RunOptions o1 = options(out, 17);
  o1.outputs.checkpoint_at = {11};
  const RunResult r1 = run_simulation(first, o1);
  ASSERT_TRUE(r1.ok());
  ASSERT_EQ(r1.checkpoints.size(), 2u);  // at 11 and at the end, 17
  FakeSimulation second;
  RunOptions o2 = options(out, 40);
  o2.outputs.every = 10;
  o2.resume = out / "checkpoints" / "step_000011.sinewckpt";
  o2.outputs.checkpoint_every = 40;
  const RunResult r2 = run_simulation(second, o2);
  ASSERT_TRUE(r2.ok()) << r2.message;
  EXPECT_EQ(r2.first_step, 11);
  EXPECT_EQ(second.steps(), 40);
  EXPECT_EQ(second.state_bits(), whole.state_bits());
  // The resumed run continues the first run's VTU series from step 11: the first run's frames
  // 12..17 and its checkpoint at 17 are gone (superseded), its frames up to 11 kept.
  const std::vector<PvdEntry> frames = read_pvd(out / "vtu" / "block.pvd");
  ASSERT_EQ(frames.size(), 15u);  // steps 0..11 (the first run's every step), then 20, 30, 40
  EXPECT_EQ(frames[11].file, "block_000011.vtu");
  EXPECT_EQ(frames[12].file, "block_000020.vtu");
  EXPECT_EQ(frames[14].file, "block_000040.vtu");
  for (const PvdEntry& f : frames) EXPECT_TRUE(fs::exists(out / "vtu" / f.file)) << f.file;
  EXPECT_FALSE(fs::exists(out / "vtu" / "block_000017.vtu"));
  EXPECT_FALSE(fs::exists(out / "checkpoints" / "step_000017.sinewckpt"));
  EXPECT_TRUE(fs::exists(out / "checkpoints" / "step_000011.sinewckpt"));
  // The resumed CSV continues the first run's rows 1..11: the same table as the uninterrupted run.
  EXPECT_EQ(read_text(out / "run.csv"), read_text(whole_out / "run.csv"));
  // The checkpoint of the last step is the same file, byte for byte, whichever way it was reached.
  save_checkpoint(out / "whole.sinewckpt", whole);
  EXPECT_EQ(read_text(out / "checkpoints" / "step_000040.sinewckpt"), read_text(out / "whole.sinewckpt"));
}

TEST(Runner, BadCheckpointsAreRefusedNamingTheFileAndLeaveTheStateAlone) {
  const fs::path dir = scratch("bad_ckpt");
  FakeSimulation a;
  for (int k = 0; k < 3; ++k) a.step();
  const fs::path good = dir / "good.sinewckpt";
  save_checkpoint(good, a, 7);
  const std::string bytes = read_text(good);
  auto write = [&](const std::string& name, const std::string& content) {
    std::ofstream(dir / name, std::ios::binary) << content;
    return dir / name;
  };
  FakeSimulation b;
  const std::string before = b.state_bits();
  const fs::path truncated = write("truncated.sinewckpt", bytes.substr(0, bytes.size() - 5));
  EXPECT_SINEW_ERROR(load_checkpoint(truncated, b), truncated.c_str(), "truncated");
  const fs::path header_only = write("header.sinewckpt", bytes.substr(0, 20));
  EXPECT_SINEW_ERROR(load_checkpoint(header_only, b), header_only.c_str(), "truncated");
  std::string flipped = bytes;
  flipped[flipped.size() - 3] ^= 0x10;
  const fs::path garbled = write("garbled.sinewckpt", flipped);
  EXPECT_SINEW_ERROR(load_checkpoint(garbled, b), garbled.c_str(), "garbled");
  const fs::path text = write("text.sinewckpt", "{\"not\": \"a checkpoint\"}");
  EXPECT_SINEW_ERROR(load_checkpoint(text, b), text.c_str(), "not a sinew checkpoint");
  const fs::path empty = write("empty.sinewckpt", "");
  EXPECT_SINEW_ERROR(load_checkpoint(empty, b), empty.c_str());
  EXPECT_SINEW_ERROR(load_checkpoint(dir / "missing.sinewckpt", b), "missing.sinewckpt");
  FakeSimulation other("other_scene");
  EXPECT_SINEW_ERROR(load_checkpoint(good, other), good.c_str(), "other_scene");
  EXPECT_SINEW_ERROR(load_checkpoint(good, b, 8), good.c_str(), "different scene file");
  std::string version = bytes;
  version[8] = 9;
  const fs::path future = write("future.sinewckpt", version);
  EXPECT_SINEW_ERROR(load_checkpoint(future, b), future.c_str(), "version 9");
  EXPECT_EQ(b.state_bits(), before);
  EXPECT_NO_THROW(load_checkpoint(good, b, 7));
  EXPECT_EQ(b.state_bits(), a.state_bits());
}

TEST(Runner, BadOptionsAreRefusedBeforeAnyOutput) {
  const fs::path out = scratch("bad_options");
  FakeSimulation sim;
  RunOptions o = options(out, 5);
  o.outputs.every = 0;
  EXPECT_SINEW_ERROR(run_simulation(sim, o), "every");
  o = options(out, 0);
  EXPECT_SINEW_ERROR(run_simulation(sim, o), "step 0");
  o = options(out, 5);
  o.resume = out.parent_path() / "sinew_runner_no_such.sinewckpt";
  EXPECT_SINEW_ERROR(run_simulation(sim, o), "sinew_runner_no_such.sinewckpt");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(sim.steps(), 0);
}

TEST(Runner, SnapshotsFromOneFixedCamera) {
  if (!render::png_supported()) GTEST_SKIP() << "built without libpng";
  const fs::path out = scratch("png");
  FakeSimulation sim;
  RunOptions o = options(out, 30);
  o.outputs.vtu = false;
  o.outputs.png_every = 15;
  o.outputs.png_width = 160;
  o.outputs.png_height = 100;
  o.snapshots = render::png_snapshots(o.outputs);
  const RunResult r = run_simulation(sim, o);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r.snapshots, 3);
  for (const char* f : {"step_000000.png", "step_000015.png", "step_000030.png"})
    ASSERT_TRUE(fs::exists(out / "png" / f)) << f;
  const render::Image first = render::read_png((out / "png" / "step_000000.png").string());
  const render::Image last = render::read_png((out / "png" / "step_000030.png").string());
  EXPECT_EQ(first.width(), 160);
  EXPECT_NE(first, last);  // the bodies moved
  // The ground patch (fixed in the world at the first snapshot) is framed alike in both: the corner
  // pixels (background or ground) agree.
  EXPECT_EQ(first.at(0, 99), last.at(0, 99));
  EXPECT_EQ(first.at(159, 99), last.at(159, 99));
}

// Every file under @p dir (relative paths), sorted.
std::vector<std::string> files_under(const fs::path& dir) {
  std::vector<std::string> out;
  for (const auto& e : fs::recursive_directory_iterator(dir))
    if (e.is_regular_file()) out.push_back(fs::relative(e.path(), dir).generic_string());
  std::sort(out.begin(), out.end());
  return out;
}

TEST(Runner, AnEarlierRunIsRefusedUnlessOverwriteWhichRemovesOnlyItsOwnFiles) {
  const fs::path out = scratch("rerun");
  {
    FakeSimulation sim;
    RunOptions o = options(out, 30);
    o.outputs.checkpoint_every = 10;
    ASSERT_TRUE(run_simulation(sim, o).ok());
  }
  EXPECT_TRUE(fs::exists(out / "vtu" / "block_000030.vtu"));
  // The user's own files, some of them named like sinew's.
  std::ofstream(out / "notes.txt") << "mine";
  std::ofstream(out / "vtu" / "block_000099.vtu") << "mine too";
  std::ofstream(out / "vtu" / "mine.vtu") << "and mine";
  const std::vector<std::string> before = files_under(out);

  FakeSimulation again;
  RunOptions o = options(out, 5);
  const std::string folder = out.string();
  EXPECT_SINEW_ERROR(run_simulation(again, o), folder.c_str(), "earlier run", "--overwrite");
  EXPECT_EQ(files_under(out), before);  // nothing written, nothing removed
  EXPECT_EQ(again.steps(), 0);

  o.overwrite = true;
  ASSERT_TRUE(run_simulation(again, o).ok());
  // The earlier run's 31 frames per body and 3 checkpoints are gone (no stale step 30), the new
  // run's 6 frames there, and every file that was not the earlier run's is untouched.
  EXPECT_FALSE(fs::exists(out / "vtu" / "block_000030.vtu"));
  EXPECT_FALSE(fs::exists(out / "checkpoints"));
  EXPECT_TRUE(fs::exists(out / "vtu" / "block_000005.vtu"));
  EXPECT_EQ(read_text(out / "notes.txt"), "mine");
  EXPECT_EQ(read_text(out / "vtu" / "block_000099.vtu"), "mine too");
  EXPECT_EQ(read_text(out / "vtu" / "mine.vtu"), "and mine");
  EXPECT_EQ(read_pvd(out / "vtu" / "block.pvd").size(), 6u);
  EXPECT_EQ(lines_of(read_text(out / "run.csv")).size(), 6u);
  // The manifest lists exactly this run's files: run.csv, 2 series and 2 x 6 frames.
  const std::vector<std::string> manifest = lines_of(read_text(out / "sinew_run.txt"));
  EXPECT_EQ(manifest.size(), 1u + 1u + 2u + 12u);
  EXPECT_NE(read_text(out / "sinew_run.txt").find("\n5 vtu/block_000005.vtu\n"), std::string::npos);
}

TEST(Runner, OutputsWithoutAManifestOrAForeignManifestAreRefused) {
  const fs::path out = scratch("foreign");
  fs::create_directories(out);
  std::ofstream(out / "run.csv") << "step,t\n";  // someone else's, or an older sinew's
  FakeSimulation sim;
  RunOptions o = options(out, 3);
  o.overwrite = true;
  const std::string folder = out.string();
  EXPECT_SINEW_ERROR(run_simulation(sim, o), folder.c_str(), "sinew_run.txt", "another --out");
  EXPECT_EQ(read_text(out / "run.csv"), "step,t\n");
  fs::remove(out / "run.csv");
  for (const char* listed : {"../escaped.csv", "/etc/passwd", "vtu/../../x.vtu", "notes.txt", "vtu/a b.vtu"}) {
    std::ofstream(out / "sinew_run.txt") << "# sinew run manifest 1\n-1 run.csv\n3 " << listed << "\n";
    EXPECT_SINEW_ERROR(run_simulation(sim, o), "sinew_run.txt:3", "not a file sinew writes");
  }
  EXPECT_EQ(sim.steps(), 0);
}

TEST(Runner, AFrameASnapshotAndACheckpointOfOneStepShareItsNumber) {
  if (!render::png_supported()) GTEST_SKIP() << "built without libpng";
  const fs::path out = scratch("numbering");
  FakeSimulation sim;
  RunOptions o = options(out, 10);
  o.outputs.every = 5;
  o.outputs.png_every = 5;
  o.outputs.png_width = 40;
  o.outputs.png_height = 30;
  o.outputs.checkpoint_every = 5;
  o.outputs.obj = true;
  o.snapshots = render::png_snapshots(o.outputs);
  ASSERT_TRUE(run_simulation(sim, o).ok());
  for (const char* step : {"000005", "000010"}) {
    const std::string s = step;
    EXPECT_TRUE(fs::exists(out / "vtu" / ("block_" + s + ".vtu"))) << s;
    EXPECT_TRUE(fs::exists(out / "obj" / ("block_" + s + ".obj"))) << s;
    EXPECT_TRUE(fs::exists(out / "png" / ("step_" + s + ".png"))) << s;
    EXPECT_TRUE(fs::exists(out / "checkpoints" / ("step_" + s + ".sinewckpt"))) << s;
  }
}

TEST(Runner, PngSizesThisMachineCannotServeAreRefusedBeforeAnyOutput) {
  if (!render::png_supported()) GTEST_SKIP() << "built without libpng";
  const fs::path out = scratch("png_memory");
  FakeSimulation sim;
  RunOptions o = options(out, 2);
  o.outputs.png_every = 1;
  o.outputs.png_width = 4096;
  o.outputs.png_height = 4096;
  // A 100 MB machine: 4096^2 needs ~0.2 GB.
  EXPECT_SINEW_ERROR(render::png_snapshots(o.outputs, std::size_t{100} << 20), "4096 x 4096", "png_width");
  o.outputs.png_width = o.outputs.png_height = 16385;
  EXPECT_SINEW_ERROR(render::png_snapshots(o.outputs), "16385", "1..16384");
  o.snapshots = [](const std::vector<TriangleMesh>&, const std::vector<Obstacle>&, const fs::path&) {};
  EXPECT_SINEW_ERROR(run_simulation(sim, o), "16385", "1..16384");
  EXPECT_FALSE(fs::exists(out));
}

TEST(Runner, SnapshotsAreDrawnByTheWriterItIsGivenAndNeedOne) {
  const fs::path out = scratch("png_writer");
  FakeSimulation sim;
  RunOptions o = options(out, 10);
  o.outputs.png_every = 4;
  EXPECT_SINEW_ERROR(run_simulation(sim, o), "png_every = 4", "RunOptions::snapshots", "render::png_snapshots");
  EXPECT_FALSE(fs::exists(out));
  EXPECT_EQ(sim.steps(), 0);
  // The writer sees every body's surface (the block's 12 boundary triangles, the sheet's 2), the
  // simulation's obstacles and the file it is to write, at steps 0, 4, 8 and the last.
  std::vector<std::string> files;
  o.snapshots = [&](const std::vector<TriangleMesh>& bodies, const std::vector<Obstacle>& obstacles,
                    const fs::path& png) {
    EXPECT_EQ(bodies.size(), 2u);
    if (bodies.size() == 2) {
      EXPECT_EQ(bodies[0].triangles.size(), 12u);
      EXPECT_EQ(bodies[0].vertices.size(), 8u);
      EXPECT_EQ(bodies[1].triangles.size(), 2u);
    }
    EXPECT_EQ(obstacles.size(), sim.obstacles().size());
    files.push_back(fs::relative(png, out).generic_string());
  };
  const RunResult r = run_simulation(sim, o);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.snapshots, 4);
  EXPECT_EQ(files, (std::vector<std::string>{"png/step_000000.png", "png/step_000004.png", "png/step_000008.png",
                                             "png/step_000010.png"}));
  // Each one is in the manifest (the writer's file is the run's: --overwrite removes it).
  EXPECT_NE(read_text(out / "sinew_run.txt").find("\n8 png/step_000008.png\n"), std::string::npos);
}

// The largest documented snapshot, 16384 x 16384, is served: drawn band by band it needs about
// 1 GB (the whole supersampled buffers would be 21 GB: std::bad_alloc after the first outputs).
TEST(Runner, TheLargestDocumentedPngSizeIsServed) {
  if (!render::png_supported()) GTEST_SKIP() << "built without libpng";
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: about a minute per snapshot under sanitizers' speed";
  const fs::path out = scratch("png_16384");
  FakeSimulation sim;
  RunOptions o = options(out, 1);
  o.outputs.vtu = false;
  o.outputs.png_every = 1;
  o.outputs.png_width = o.outputs.png_height = 16384;
  o.snapshots = render::png_snapshots(o.outputs);
  const RunResult r = run_simulation(sim, o);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.snapshots, 2);  // the initial state and step 1
  // The PNG header gives the size (reading the 805 MB of pixels back would double the memory).
  std::ifstream png(out / "png" / "step_000001.png", std::ios::binary);
  unsigned char header[24] = {};
  png.read(reinterpret_cast<char*>(header), sizeof header);
  auto big_endian = [&](int at) {
    return (std::uint32_t{header[at]} << 24) | (std::uint32_t{header[at + 1]} << 16) |
           (std::uint32_t{header[at + 2]} << 8) | header[at + 3];
  };
  EXPECT_EQ(big_endian(16), 16384u);
  EXPECT_EQ(big_endian(20), 16384u);
  rusage usage{};
  getrusage(RUSAGE_SELF, &usage);
  EXPECT_LT(usage.ru_maxrss, 2L << 20) << "peak resident KiB: the image is drawn in bands";  // 2 GiB
  fs::remove_all(out);
}

}  // namespace
}  // namespace sinew::scene::scene_runner_test
