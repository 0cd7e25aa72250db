// Every body's state in run.csv (body_state.hpp): a rigid body's pose and twist, a deformable
// body's centre of mass and kinetic energy, each rigid body its own VTU series.
#include "sinew/scene/body_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "sinew/backends/registry.hpp"
#include "sinew/scene/runner.hpp"
#include "sinew/scene/scene_file.hpp"
#include "sinew/scene/vtk_writer.hpp"

namespace sinew::scene::scene_body_state_test {
namespace {

namespace fs = std::filesystem;

std::string scene_path(const std::string& file) { return std::string(SINEW_TEST_SOURCE) + "/../scenes/" + file; }

// run.csv as a header and rows of numbers.
struct Csv {
  std::vector<std::string> names;
  std::vector<std::vector<double>> rows;
  std::size_t column(const std::string& name) const {
    for (std::size_t i = 0; i < names.size(); ++i)
      if (names[i] == name) return i;
    ADD_FAILURE() << "no column " << name;
    return 0;
  }
};

Csv read_csv(const fs::path& path) {
  std::ifstream in(path);
  Csv csv;
  std::string line;
  std::getline(in, line);
  std::stringstream header(line);
  for (std::string cell; std::getline(header, cell, ',');) csv.names.push_back(cell);
  while (std::getline(in, line)) {
    std::stringstream row(line);
    csv.rows.emplace_back();
    for (std::string cell; std::getline(row, cell, ',');) csv.rows.back().push_back(std::strtod(cell.c_str(), nullptr));
  }
  return csv;
}

// The points of a VTU frame sinew wrote (the one Float64 array of 3 components under <Points>).
std::vector<double> vtu_points(const fs::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  const std::string s = text.str();
  const std::size_t points = s.find("<Points>");
  const std::size_t from = s.find('>', s.find("<DataArray", points)) + 1, to = s.find("</DataArray>", from);
  std::stringstream values(s.substr(from, to - from));
  std::vector<double> out;
  for (double v; values >> v;) out.push_back(v);
  return out;
}

TEST(BodyState, DroppedCubeRunCsvHoldsItsPoseEveryStepMatchingItsVtuAndTheClosedForm) {
  const SceneFile file = read_scene_file(scene_path("drop.json"));
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = file.make(*backend);
  const fs::path out = fs::temp_directory_path() / "sinew_body_state_drop";
  fs::remove_all(out);
  RunOptions o;
  o.out_dir = out;
  o.steps = file.steps;  // 600 steps of 1 ms: at rest from t ~ 0.4 s
  o.outputs.every = 1;
  const RunResult r = run_simulation(*sim, o);
  ASSERT_TRUE(r.ok()) << r.message;

  const Csv csv = read_csv(out / "run.csv");
  ASSERT_EQ(csv.rows.size(), 600u);
  const std::vector<std::string> columns = rigid_body_columns("cube");
  std::vector<std::size_t> at;
  for (const std::string& c : columns) at.push_back(csv.column(c));
  // The cube's own series, named after it; one frame a step (steps 0..600).
  const std::vector<PvdEntry> frames = read_pvd(out / "vtu" / "cube.pvd");
  ASSERT_EQ(frames.size(), 601u);
  for (const auto& row : csv.rows) {
    const long step = std::lround(row[0]);
    // The position is the mean of the box's 8 drawn corners; the quaternion is a unit one.
    const std::vector<double> p = vtu_points(out / "vtu" / frames[static_cast<std::size_t>(step)].file);
    ASSERT_EQ(p.size(), 24u);
    for (int k = 0; k < 3; ++k) {
      double mean = 0.0;
      for (int v = 0; v < 8; ++v) mean += p[3 * v + k] / 8.0;
      EXPECT_NEAR(row[at[k]], mean, 1e-12) << "step " << step << " axis " << k;
    }
    const double qn = std::sqrt(row[at[3]] * row[at[3]] + row[at[4]] * row[at[4]] + row[at[5]] * row[at[5]] +
                                row[at[6]] * row[at[6]]);
    EXPECT_NEAR(qn, 1.0, 1e-12) << "step " << step;
  }
  // Closed form (tests/physics/contact_drop_test.cpp): the inelastic impact with Coulomb friction
  // leaves vx = 2 - mu sqrt(2 g H); the slide adds vx^2 / (2 mu g): rest at x = 0.5077 m.
  const double g = 9.81, H = 0.2, mu = 0.5, v0 = 2.0;
  const double vx = v0 - mu * std::sqrt(2 * g * H);
  const double x_rest = v0 * std::sqrt(2 * H / g) + vx * vx / (2 * mu * g);
  EXPECT_NEAR(x_rest, 0.5077, 1e-4);
  const std::vector<double>& last = csv.rows.back();
  EXPECT_NEAR(last[at[0]], x_rest, 3e-3 * x_rest);
  EXPECT_NEAR(last[at[2]], 0.1, 1e-6);  // resting on its face
  for (std::size_t k = 7; k < 13; ++k) EXPECT_NEAR(last[at[k]], 0.0, 1e-6) << columns[k];
  // Before landing (t < 0.2 s) it flies: vx = 2 m/s exactly, vz = -g t.
  const std::vector<double>& flying = csv.rows[99];  // step 100, t = 0.1 s
  EXPECT_NEAR(flying[at[7]], 2.0, 1e-12);
  EXPECT_NEAR(flying[at[9]], -g * 0.1, 1e-9);
}

TEST(BodyState, DeformableBodiesReportTheirCentreOfMassAndKineticEnergy) {
  // Two point masses: com = (m1 x1 + m2 x2) / (m1 + m2), KE = sum m v^2 / 2.
  const double x[6] = {0, 0, 0, 3, 0, 0}, v[6] = {1, 0, 0, 0, 2, 0}, m[2] = {1, 2};
  std::vector<double> out;
  append_deformable_body_state(x, v, m, 2, out);
  EXPECT_EQ(out, (std::vector<double>{2.0, 0.0, 0.0, 0.5 * 1 + 0.5 * 2 * 4}));
  EXPECT_EQ(deformable_body_columns("ball"),
            (std::vector<std::string>{"ball.com_x", "ball.com_y", "ball.com_z", "ball.kinetic_energy"}));

  // In a local-global scene the bodies' kinetic energies sum to the scene's.
  const SceneFile file = read_scene_file(scene_path("pulled_wooper.json"));
  auto backend = make_backend("serial");
  std::unique_ptr<Simulation> sim = file.make(*backend);
  const std::vector<std::string> names = sim->scalar_names();
  StepOutcome s;
  for (int k = 0; k < 3; ++k) ASSERT_TRUE((s = sim->step()).ok()) << s.message;
  double sum = 0.0;
  int bodies = 0;
  for (std::size_t i = 0; i < names.size(); ++i)
    if (names[i].size() > 15 && names[i].compare(names[i].size() - 15, 15, ".kinetic_energy") == 0) {
      sum += s.scalars[i];
      ++bodies;
    }
  EXPECT_GE(bodies, 1);
  EXPECT_GT(s.scalars[0], 0.0);
  EXPECT_NEAR(sum, s.scalars[0], 1e-12 * s.scalars[0]);  // "kinetic_energy" is the first column
}

}  // namespace
}  // namespace sinew::scene::scene_body_state_test
