// LocalGlobalIntegrator with frictional contact (seed Sec. 5, Algorithm 4): a block dropped on a
// half-space comes to rest on it with impulses equal to its weight, the stick/slip threshold
// mu* = tan(10 deg) on an incline is resolved to 0.001 with eq. (28)'s diag(W) preconditioner
// and only coarsely with the mass-inverse one (Sec. 7.5, Fig. 7), host backends agree bitwise,
// a moving plane drags a block, a far obstacle changes nothing, and bad input is named.
#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/collision/contact_frame.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/materials/tetrahedron.hpp"

namespace sinew::integrators::integrators_local_global_contact_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A box [0, Lx] x [0, Ly] x [z0, z0 + Lz] of nx x ny x nz cubes (scene::box_tet_mesh).
struct Block {
  std::vector<double> x;  // (3 n) rest positions
  std::vector<Index> tets;
  std::vector<Index> bottom;  // vertices of the face z = z0
  int nx, ny, nz;
  Index id(int i, int j, int k) const { return i + (nx + 1) * (j + (ny + 1) * k); }
};

Block make_block(int nx, int ny, int nz, double Lx, double Ly, double Lz, double z0) {
  test::FlatTetMesh m = test::flat_box_tet_mesh(Vec3{{0, 0, z0}}, Vec3{{Lx, Ly, z0 + Lz}}, nx, ny, nz);
  Block b{std::move(m.x), std::move(m.tets), {}, nx, ny, nz};
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) b.bottom.push_back(b.id(i, j, 0));
  return b;
}

LocalGlobalDescription describe(const Block& b, double E, double h) {
  LocalGlobalDescription d;
  d.rest_positions = b.x;
  d.tets = b.tets;
  d.model = MaterialModel::kArap;
  d.elastic = {E, 0.3};
  d.density = 1000.0;
  d.time_step = h;
  return d;
}

// Mass-weighted mean of a (3n) field, coordinate c.
double mean(const std::vector<double>& f, const std::vector<double>& masses, int c) {
  double sum = 0.0, total = 0.0;
  for (std::size_t v = 0; v < masses.size(); ++v) {
    sum += masses[v] * f[3 * v + c];
    total += masses[v];
  }
  return sum / total;
}

double total_mass(const LocalGlobalIntegrator& lg) {
  double m = 0.0;
  for (double mv : lg.masses()) m += mv;
  return m;
}

// A soft block (E = 1e5 Pa) dropped from 2 cm onto the plane z = 0 settles in ~0.3 s; at rest
// sum r_n = M g h to 1e-6 and the local problem's natural-map error is ~1e-16.
TEST(LocalGlobalContact, DroppedBlockComesToRestOnTheHalfSpace) {
  const Block block = make_block(4, 4, 4, 0.1, 0.1, 0.1, 0.02);
  LocalGlobalDescription d = describe(block, 1e5, 0.01);
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  const double weight_impulse = total_mass(lg) * 9.81 * 0.01;
  LocalGlobalReport report;
  double lowest = 1.0;
  for (int s = 0; s < 150; ++s) {
    report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
    const std::vector<double> x = lg.positions();
    for (std::size_t v = 0; v < x.size() / 3; ++v) lowest = std::min(lowest, x[3 * v + 2]);
    if (s == 0) {
      EXPECT_EQ(report.contacts, 0u) << "2 cm above the plane, falling 1 mm in the first step";
    }
  }
  EXPECT_GT(lowest, -1e-5) << "penetration beyond 1e-4 of the block size";
  ASSERT_EQ(report.contacts, 25u) << "the 5 x 5 bottom vertices";
  EXPECT_LE(report.newton_steps, 5) << "at rest the warm start solves each L-G iteration's problem in <= 1 step";
  EXPECT_LT(report.contact_error, 1e-10);
  double rn = 0.0, rn_min = 1.0;
  for (std::size_t j = 0; j < report.contacts; ++j) {
    rn += report.impulses[3 * j];
    rn_min = std::min(rn_min, report.impulses[3 * j]);
    EXPECT_EQ(report.normals[3 * j + 2], 1.0);
    if (j > 0) {
      EXPECT_LT(report.contact_vertex[j - 1], report.contact_vertex[j]) << "stable order";
    }
  }
  std::printf("at rest: sum r_n / (M g h) = %.9f, min r_n = %.3e N s, error %.2e\n", rn / weight_impulse, rn_min,
              report.contact_error);
  EXPECT_NEAR(rn / weight_impulse, 1.0, 1e-4) << "the plane carries the weight";
  EXPECT_GE(rn_min, -1e-12 * weight_impulse) << "r_n >= 0";
  EXPECT_LT(std::abs(mean(lg.velocities(), lg.masses(), 2)), 1e-6) << "at rest";
}

// A step whose contact solve ends unconverged is flagged (LocalGlobalReport::contact_converged,
// warning with the true error) but stands, and the check changes no bit: a block hitting a plane
// at 1 m/s with one L-G iteration of one seed step of one CR iteration ends its first contact
// steps with natural-map errors far above 1e-3; the same run with warn_error = inf has the same
// positions bit for bit and no flag, and the converged solve is never flagged.
TEST(LocalGlobalContact, AnUnconvergedContactSolveIsFlaggedAndChangesNoBit) {
  const Block block = make_block(3, 3, 3, 0.1, 0.1, 0.1, 0.005);
  LocalGlobalDescription d = describe(block, 1e5, 0.01);
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
  std::vector<double> v0(block.x.size(), 0.0);
  for (std::size_t i = 2; i < v0.size(); i += 3) v0[i] = -1.0;
  LocalGlobalOptions rough;
  rough.iterations = 1;
  rough.contact.solve = ContactSolve::kSeedSteps;
  rough.contact.cr_iterations = 1;
  LocalGlobalOptions unchecked = rough, converged;
  unchecked.contact.warn_error = std::numeric_limits<double>::infinity();
  converged.contact.solve = ContactSolve::kConverged;
  auto be = make_backend("serial");
  LocalGlobalIntegrator a(*be, d, rough), b(*be, d, unchecked), c(*be, d, converged);
  for (LocalGlobalIntegrator* lg : {&a, &b, &c}) lg->set_state(block.x, v0);
  int flagged = 0;
  double worst = 0.0;
  for (int step = 0; step < 10; ++step) {
    const LocalGlobalReport ra = a.step(), rb = b.step(), rc = c.step();
    ASSERT_TRUE(ra.ok() && rb.ok() && rc.ok());
    EXPECT_EQ(ra.contact_converged, !(ra.contact_error > rough.contact.warn_error)) << "step " << step;
    if (!ra.contact_converged) {
      ++flagged;
      EXPECT_NE(ra.warning.find("not converged"), std::string::npos) << ra.warning;
      EXPECT_NE(ra.warning.find(number_text(ra.contact_error, 3)), std::string::npos) << ra.warning;
    } else {
      EXPECT_TRUE(ra.warning.empty());
    }
    worst = std::max(worst, ra.contact_error);
    EXPECT_TRUE(rb.contact_converged && rb.warning.empty());
    EXPECT_EQ(ra.contact_error, rb.contact_error);
    EXPECT_EQ(a.positions(), b.positions()) << "step " << step << ": the check changed the step";
    EXPECT_TRUE(rc.contact_converged) << "step " << step << ": " << rc.warning;
    EXPECT_TRUE(rc.warning.empty());
    EXPECT_LE(rc.contact_error, 1e-6);
  }
  std::printf("rough contact solve: %d of 10 steps flagged, worst natural-map error %.2e\n", flagged, worst);
  EXPECT_GT(flagged, 0);
  EXPECT_GT(worst, 1e-2);
}

// An obstacle that no vertex reaches adds no contact, and the step is the one without obstacles
// bit for bit (the contact code only runs when there are contacts).
TEST(LocalGlobalContact, NoContactGivesBitwiseTheStepWithoutObstacles) {
  const Block block = make_block(3, 3, 3, 0.1, 0.1, 0.1, 0.02);
  LocalGlobalDescription plain = describe(block, 1e5, 0.01), far = plain;
  far.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, -10}}, Vec3{{0, 0, 1}}, 0.5));
  auto backend = make_backend("serial");
  LocalGlobalIntegrator a(*backend, plain), b(*backend, far);
  for (int s = 0; s < 20; ++s) {
    ASSERT_TRUE(a.step().ok());
    const LocalGlobalReport report = b.step();
    ASSERT_TRUE(report.ok());
    EXPECT_EQ(report.contacts, 0u);
  }
  const std::vector<double> xa = a.positions(), xb = b.positions();
  EXPECT_EQ(std::memcmp(xa.data(), xb.data(), xa.size() * sizeof(double)), 0);
}

// The seed's stick/slip block (Sec. 7.5): E = 1e8 Pa, rho = 1000 kg/m^3, on a 10 degree incline,
// modelled by tilting gravity by 10 degrees about y over the plane z = 0 (the same mechanics: the
// slope direction is +x). Returns the mass-weighted mean velocity along the slope after @p steps.
// Solved by the seed's own Algorithm 4 (ContactSolve::kSeedSteps); the default converged solve is
// checked over every slope in local_global_slope_test.cpp.
struct InclineRun {
  double velocity = 0.0;      // mean slope velocity after the steps (m/s)
  double acceleration = 0.0;  // (velocity - velocity at steps / 2) / (steps / 2 h)
  double error = 0.0;         // natural-map error of the last local problem
  int newton = 0, cr = 0;     // per step, last step
};
InclineRun run_incline(double mu, ContactPreconditioner preconditioner, int iterations, int newton_steps, int steps,
                       int cr = 24, constraints::NcpFunction function = constraints::NcpFunction::kFischerBurmeister) {
  const Block block = make_block(5, 5, 2, 0.1, 0.1, 0.04, 0.0);
  LocalGlobalDescription d = describe(block, 1e8, 0.01);
  const double a = 10.0 * kPi / 180.0;
  d.gravity = Vec3{{9.81 * std::sin(a), 0.0, -9.81 * std::cos(a)}};
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, mu));
  d.contact_vertices = block.bottom;
  LocalGlobalOptions o;
  o.iterations = iterations;
  o.record_energy = false;
  o.contact.solve = ContactSolve::kSeedSteps;  // these tests reproduce the seed's Algorithm 4 (Sec. 7.5)
  o.contact.preconditioner = preconditioner;
  o.contact.newton_steps = newton_steps;
  o.contact.cr_iterations = cr;
  o.contact.function = function;
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d, o);
  InclineRun run;
  for (int s = 0; s < steps; ++s) {
    const LocalGlobalReport report = lg.step();
    EXPECT_TRUE(report.ok()) << report.message;
    run.error = report.contact_error;
    run.newton = report.newton_steps;
    run.cr = report.cr_iterations;
    if (s + 1 == steps / 2) run.acceleration = mean(lg.velocities(), lg.masses(), 0);
  }
  run.velocity = mean(lg.velocities(), lg.masses(), 0);
  run.acceleration = (run.velocity - run.acceleration) / ((steps - steps / 2) * 0.01);
  return run;
}

// The seed's Fig. 7 (Sec. 7.5) with its own iteration counts for the step (5 L-G iterations, ONE
// Newton step each, 24 CR iterations): the threshold mu* = tan(10 deg) = 0.17632698.
// Measured with diag(W) (eq. (28)), 100 steps = 1 s, mean slope velocity / acceleration over the
// second half second: mu* - 0.001 slides at a = 9.660970e-3 m/s^2 (g (sin a - mu cos a) =
// 9.660964e-3; v(1 s) = 1.38e-2 m/s, above a t because the first contact step, from r = 0, lets
// it slip), mu* + 0.001 sticks (velocity 2.9e-6 m/s: the creep of a friction solve left at
// natural-map error 1.5e-3 per step, 3000 times below the sliding velocity). Sliding from
// mu* - 0.1 to mu* - 0.001 matches g (sin a - mu cos a) to 1e-6 relative; 10 L-G iterations
// give the same. So the seed's 0.001 resolution needs nothing beyond Algorithm 4.
TEST(LocalGlobalContact, DelassusPreconditionerResolvesStickSlipToAThousandth) {
  const double mu_star = std::tan(10.0 * kPi / 180.0), a = 10.0 * kPi / 180.0;
  EXPECT_NEAR(mu_star, 0.17632698, 1e-8);
  const InclineRun slide = run_incline(mu_star - 0.001, ContactPreconditioner::kDelassusDiagonal, 5, 1, 100);
  const InclineRun stick = run_incline(mu_star + 0.001, ContactPreconditioner::kDelassusDiagonal, 5, 1, 100);
  const double expected = 9.81 * (std::sin(a) - (mu_star - 0.001) * std::cos(a));
  std::printf(
      "diag(W): mu* - 0.001 slides at %.6e m/s^2 (expected %.6e), v(1 s) = %.3e m/s; mu* + 0.001: v = %.3e "
      "m/s (error %.2e)\n",
      slide.acceleration, expected, slide.velocity, stick.velocity, stick.error);
  EXPECT_NEAR(slide.acceleration, expected, 0.01 * expected);
  EXPECT_GT(slide.velocity, 0.5 * expected * 1.0);
  EXPECT_LT(std::abs(stick.velocity), 0.01 * expected * 1.0) << "sticks: 1% of the sliding velocity at 1 s";
  EXPECT_EQ(stick.newton, 5);
  EXPECT_EQ(stick.cr, 5 * 24);
}

// The same threshold with the min-map NCP function and Table 3's 10 CR iterations. Measured
// (100 steps, 5 L-G iterations): mu* - 0.001 slides at 9.660970e-3 m/s^2; mu* + 0.001 sticks at
// 3.6e-6 m/s (FB with 10 CR: 6.4e-6 m/s; with 10 L-G iterations min-map 6.5e-9 m/s).
TEST(LocalGlobalContact, MinMapResolvesStickSlipWithTenCrIterations) {
  const double mu_star = std::tan(10.0 * kPi / 180.0), a = 10.0 * kPi / 180.0;
  const auto minmap = constraints::NcpFunction::kMinMap;
  const auto diag = ContactPreconditioner::kDelassusDiagonal;
  const InclineRun slide = run_incline(mu_star - 0.001, diag, 5, 1, 100, 10, minmap);
  const InclineRun stick = run_incline(mu_star + 0.001, diag, 5, 1, 100, 10, minmap);
  const double expected = 9.81 * (std::sin(a) - (mu_star - 0.001) * std::cos(a));
  EXPECT_NEAR(slide.acceleration, expected, 0.01 * expected);
  EXPECT_LT(std::abs(stick.velocity), 0.01 * expected) << "sticks: 1% of the sliding velocity at 1 s";
  EXPECT_EQ(stick.cr, 5 * 10);
}

// The mass-inverse preconditioner rho = diag(H M^-1 H^T) (Macklin et al. 2019) on the same block
// and iteration counts. Measured (100 and 200 steps): it slides correctly at mu* - 0.1 and
// mu* - 0.07 (a = g (sin a - mu cos a) to 1e-6), but STICKS at mu* - 0.05, mu* - 0.03 and
// mu* - 0.001 (velocity < 2e-5 m/s where the block should reach 0.48, 0.29, 0.0097 m/s at 1 s):
// its resolution is ~0.06, the seed's "only 0.1" of Fig. 7(b). The stiff block (E = 1e8 Pa)
// makes 1 / m_v far larger than the true diag(H A^-1 H^T), so the friction indicators classify
// the contacts as sticking (Sec. 7.5's explanation).
TEST(LocalGlobalContact, MassInversePreconditionerResolvesStickSlipOnlyCoarsely) {
  const double mu_star = std::tan(10.0 * kPi / 180.0), a = 10.0 * kPi / 180.0;
  const InclineRun wrong = run_incline(mu_star - 0.05, ContactPreconditioner::kMassInverse, 5, 1, 100);
  const InclineRun right = run_incline(mu_star - 0.1, ContactPreconditioner::kMassInverse, 5, 1, 100);
  const InclineRun reference = run_incline(mu_star - 0.05, ContactPreconditioner::kDelassusDiagonal, 5, 1, 100);
  const double expected = 9.81 * (std::sin(a) - (mu_star - 0.05) * std::cos(a));
  std::printf("mass inverse: mu* - 0.05 v = %.3e m/s (diag(W): %.3e, a = %.6e, expected %.6e); mu* - 0.1 a = %.6e\n",
              wrong.velocity, reference.velocity, reference.acceleration, expected, right.acceleration);
  EXPECT_LT(std::abs(wrong.velocity), 1e-3) << "wrongly sticks 0.05 below mu*";
  EXPECT_NEAR(reference.acceleration, expected, 0.01 * expected) << "where diag(W) slides as it should";
  const double expected_right = 9.81 * (std::sin(a) - (mu_star - 0.1) * std::cos(a));
  EXPECT_NEAR(right.acceleration, expected_right, 0.01 * expected_right) << "0.1 below mu* it slides";
}

// A block resting on a box that moves sideways at 0.1 m/s (mu = 0.5): static friction (up to
// mu g = 4.9 m/s^2) drags it along within a few steps; the box's pose advances with its motion.
TEST(LocalGlobalContact, MovingBoxDragsARestingBlock) {
  const Block block = make_block(3, 3, 2, 0.1, 0.1, 0.05, 0.0);
  LocalGlobalDescription d = describe(block, 1e6, 0.01);
  Obstacle box;
  box.shape = Shape{ShapeType::kBox, {1.0, 1.0, 0.1}};
  box.pose.translation = Vec3{{0.05, 0.05, -0.1}};
  box.motion.linear = Vec3{{0.1, 0.0, 0.0}};
  box.friction = 0.5;
  d.obstacles.push_back(box);
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  LocalGlobalReport report;
  for (int s = 0; s < 50; ++s) {
    report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
  }
  const std::vector<double> v = lg.velocities();
  const double vx = mean(v, lg.masses(), 0), vz = mean(v, lg.masses(), 2);
  std::printf("moving box: block velocity (%.6f, %.2e) m/s after 0.5 s, %zu contacts, error %.2e\n", vx, vz,
              report.contacts, report.contact_error);
  EXPECT_NEAR(vx, 0.1, 1e-3) << "sticks to the box";
  EXPECT_LT(std::abs(vz), 1e-3);
  EXPECT_EQ(report.contacts, 16u);
  EXPECT_NEAR(lg.obstacles()[0].pose.translation[0], 0.05 + 50 * 0.01 * 0.1, 1e-12) << "the box moved";
  // set_obstacle stops it; the block then decelerates by friction.
  lg.set_obstacle(0, lg.obstacles()[0].pose, Motion{{{0, 0, 0}}, {{0, 0, 0}}});
  for (int s = 0; s < 30; ++s) ASSERT_TRUE(lg.step().ok());
  EXPECT_LT(std::abs(mean(lg.velocities(), lg.masses(), 0)), 1e-3) << "stopped with the box";
}

// The box of half extents @p h as a closed triangle mesh (8 corners, 12 triangles, outward).
Obstacle box_mesh_obstacle(const Vec3& h, const Pose& pose, double friction, const SdfGridOptions* grid = nullptr) {
  std::vector<Vec3> x;
  for (int c = 0; c < 8; ++c)
    x.push_back(Vec3{{(c & 1) ? h[0] : -h[0], (c & 2) ? h[1] : -h[1], (c & 4) ? h[2] : -h[2]}});
  // Each face's quad (a, b, c, d) counter-clockwise seen from outside.
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  std::vector<std::array<Index, 3>> tri;
  for (const auto& q : quads) {
    tri.push_back({q[0], q[1], q[2]});
    tri.push_back({q[0], q[2], q[3]});
  }
  return grid ? grid_obstacle(x, tri, *grid, pose, friction) : mesh_obstacle(x, tri, pose, friction);
}

// A block on a rotated box moving at 0.1 m/s, the box analytic, as a mesh of 12 triangles and as a
// signed-distance grid of that mesh (5 cm cells): the same contacts and trajectory. The grid is
// exact here, up to round-off: the vertices stay over the top face's interior, where the box's
// signed distance is linear (the height above the face), and trilinear interpolation reproduces
// linear functions.
TEST(LocalGlobalContact, ABoxMeshObstacleIsTheAnalyticBox) {
  const Block block = make_block(3, 3, 2, 0.1, 0.1, 0.05, 0.005);
  std::vector<std::vector<double>> ends;
  std::vector<std::size_t> contacts;
  SdfGridOptions grid;
  grid.cell_size = 0.05;
  for (const char* kind : {"analytic", "mesh", "grid"}) {
    LocalGlobalDescription d = describe(block, 1e6, 0.01);
    Pose pose = identity_pose();
    pose.translation = Vec3{{0.05, 0.05, -0.1}};
    pose.rotation = Mat3{{0.99, -0.141067359796659, 0, 0.141067359796659, 0.99, 0, 0, 0, 1}};  // turned about z
    Obstacle box;
    if (kind == std::string("analytic")) {
      box.shape = Shape{ShapeType::kBox, {1.0, 1.0, 0.1}};
      box.pose = pose;
      box.friction = 0.5;
    } else {
      box = box_mesh_obstacle(Vec3{{1.0, 1.0, 0.1}}, pose, 0.5, kind == std::string("grid") ? &grid : nullptr);
    }
    box.motion.linear = Vec3{{0.1, 0.0, 0.0}};
    d.obstacles.push_back(box);
    auto backend = make_backend("serial");
    LocalGlobalIntegrator lg(*backend, d);
    LocalGlobalReport report;
    for (int s = 0; s < 40; ++s) {
      report = lg.step();
      ASSERT_TRUE(report.ok()) << report.message;
    }
    contacts.push_back(report.contacts);
    ends.push_back(lg.positions());
  }
  EXPECT_GT(contacts[0], 0u);
  for (std::size_t k : {1u, 2u}) {
    EXPECT_EQ(contacts[0], contacts[k]);
    double worst = 0.0;
    for (std::size_t i = 0; i < ends[0].size(); ++i) worst = std::max(worst, std::abs(ends[0][i] - ends[k][i]));
    std::printf("box %s against the analytic box: %zu contacts, positions differ by %.2e m after 40 steps\n",
                k == 1 ? "mesh" : "grid", contacts[k], worst);
    EXPECT_LT(worst, 1e-9);
  }
}

// An open sheet (a 2 x 2 m quad as 2 triangles facing up, MeshSides::kTwoSided) touched from either
// side: a block falling onto it from above, and one "falling" up onto it from below (gravity
// reversed), move as against the half-space on their side, and the one below stays below although
// the sheet's distance calls it "inside" (behind the faces).
TEST(LocalGlobalContact, AnOpenSheetHoldsBlocksOnEitherSide) {
  const std::vector<Vec3> quad = {Vec3{{-1, -1, 0}}, Vec3{{1, -1, 0}}, Vec3{{1, 1, 0}}, Vec3{{-1, 1, 0}}};
  const std::vector<std::array<Index, 3>> tri = {{0, 1, 2}, {0, 2, 3}};
  for (double side : {1.0, -1.0}) {
    const Block block = make_block(3, 3, 2, 0.1, 0.1, 0.05, side > 0 ? 0.005 : -0.055);
    std::vector<std::vector<double>> ends;
    for (bool sheet : {false, true}) {
      LocalGlobalDescription d = describe(block, 1e6, 0.01);
      d.gravity = Vec3{{0.0, 0.0, -9.81 * side}};
      d.obstacles.push_back(sheet ? mesh_obstacle(quad, tri, identity_pose(), 0.5, MeshSides::kTwoSided)
                                  : half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, side}}, 0.5));
      auto backend = make_backend("serial");
      LocalGlobalIntegrator lg(*backend, d);
      for (int s = 0; s < 40; ++s) ASSERT_TRUE(lg.step().ok());
      ends.push_back(lg.positions());
    }
    double worst = 0.0, beyond = -1.0;
    for (std::size_t i = 0; i < ends[0].size(); ++i) worst = std::max(worst, std::abs(ends[0][i] - ends[1][i]));
    for (std::size_t i = 2; i < ends[1].size(); i += 3) beyond = std::max(beyond, -side * ends[1][i]);
    std::printf("sheet against the half-space %s: positions differ by %.2e m after 40 steps\n",
                side > 0 ? "above" : "below", worst);
    EXPECT_LT(worst, 1e-9);
    EXPECT_LT(beyond, 1e-4) << "a vertex crossed the sheet";
    EXPECT_GT(beyond, -1e-3) << "the block reached the sheet";
  }
}

// A mesh or grid obstacle that was not built is named.
TEST(LocalGlobalContact, AnUnbuiltMeshObstacleIsNamed) {
  const Block block = make_block(2, 2, 2, 0.1, 0.1, 0.1, 0.02);
  LocalGlobalDescription d = describe(block, 1e5, 0.01);
  Obstacle o;
  o.mesh = std::make_shared<MeshSignedDistance>();
  d.obstacles.push_back(o);
  auto backend = make_backend("serial");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "obstacles[0].mesh must be built");
  d.obstacles[0].mesh = nullptr;
  d.obstacles[0].grid = std::make_shared<SignedDistanceGrid>();
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "obstacles[0].grid must be built");
}

// A block resting on top of a big horizontal cylinder (radius 1 m, axis along y) that rotates
// about its axis at 0.1 rad/s: the surface velocity omega x (x - c) = 0.1 m/s along x at the top
// enters u's tangent rows, and friction (mu = 0.5) makes the block turn with the roller as one
// rigid body: its centre, 1.025 m from the axis (half the 5 cm height above the top), moves at
// omega 1.025 cos(omega t) = 0.102418 m/s along x at t = 0.4 s (measured 0.102460).
TEST(LocalGlobalContact, RotatingCylinderCarriesABlock) {
  const Block block = make_block(4, 4, 2, 0.1, 0.1, 0.05, 0.0);
  LocalGlobalDescription d = describe(block, 1e5, 0.01);
  Obstacle roller;
  roller.shape = Shape{ShapeType::kCylinder, {1.0, 1.0, 0.0}};
  roller.pose.rotation = Mat3{{1, 0, 0, 0, 0, 1, 0, -1, 0}};  // local z (the axis) -> world y
  roller.pose.translation = Vec3{{0.05, 0.05, -1.0}};
  roller.motion.angular = Vec3{{0.0, 0.1, 0.0}};
  roller.friction = 0.5;
  d.obstacles.push_back(roller);
  d.contact_vertices = block.bottom;
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  LocalGlobalReport report;
  for (int s = 0; s < 40; ++s) {
    report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
  }
  const double vx = mean(lg.velocities(), lg.masses(), 0);
  double lowest_gap = 1.0;  // distance of the bottom vertices to the cylinder surface
  const std::vector<double> x = lg.positions();
  for (Index v : block.bottom) {
    const double dx = x[3 * v] - 0.05, dz = x[3 * v + 2] + 1.0;
    lowest_gap = std::min(lowest_gap, std::sqrt(dx * dx + dz * dz) - 1.0);
  }
  std::printf("rotating cylinder: block vx %.6f m/s, %zu contacts, lowest gap %.2e m, error %.2e\n", vx,
              report.contacts, lowest_gap, report.contact_error);
  EXPECT_NEAR(vx, 0.1 * 1.025 * std::cos(0.1 * 0.4), 5e-4) << "turns with the roller";
  EXPECT_GT(lowest_gap, -1e-5);
  EXPECT_GT(report.contacts, 0u);
  EXPECT_NEAR(lg.obstacles()[0].pose.rotation(0, 0), std::cos(40 * 0.01 * 0.1), 1e-12) << "the roller turned";
}

// A block thrown at 0.5 m/s into the corner of a floor (z = 0) and a wall (x = 0): the vertices
// of its lower left edge touch both obstacles, two contacts each (W's expansion couples a vertex's
// two frames through the same entry of A_s^-1); it stops at the wall without entering either.
// (With contact_margin = 0 instead of the automatic half edge, the wall face's vertices, pushed by
// the block behind them rather than by their own inertia, were caught a step late: 0.55 mm in.)
TEST(LocalGlobalContact, CornerVerticesTouchTwoObstacles) {
  const Block block = make_block(3, 3, 3, 0.1, 0.1, 0.1, 0.0);
  LocalGlobalDescription d = describe(block, 1e5, 0.01);
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.2));
  d.obstacles.push_back(half_space_obstacle(Vec3{{-0.01, 0, 0}}, Vec3{{1, 0, 0}}, 0.2));
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d);
  std::vector<double> v(d.rest_positions.size(), 0.0);
  for (std::size_t i = 0; i < v.size(); i += 3) v[i] = -0.5;
  lg.set_state(d.rest_positions, v);
  double lowest_x = 1.0, lowest_z = 1.0;
  LocalGlobalReport report;
  std::vector<double> start;  // the positions at the start of the last step
  for (int s = 0; s < 60; ++s) {
    start = lg.positions();
    report = lg.step();
    ASSERT_TRUE(report.ok()) << report.message;
    const std::vector<double> x = lg.positions();
    for (std::size_t i = 0; i < x.size(); i += 3) {
      lowest_x = std::min(lowest_x, x[i]);
      lowest_z = std::min(lowest_z, x[i + 2]);
    }
  }
  int doubles = 0;
  for (std::size_t j = 1; j < report.contacts; ++j) doubles += report.contact_vertex[j] == report.contact_vertex[j - 1];
  const double vx = mean(lg.velocities(), lg.masses(), 0);
  std::printf("corner: %zu contacts, %d vertices with two, lowest x %.3e, lowest z %.3e, vx %.2e, error %.2e\n",
              report.contacts, doubles, lowest_x, lowest_z, vx, report.contact_error);
  EXPECT_EQ(doubles, 4) << "the 4 vertices of the lower left edge";
  // The reported frames: unit t1 orthogonal to n, the same frame the contact used (contact_frame(n)).
  ASSERT_EQ(report.tangents.size(), 3 * report.contacts);
  for (std::size_t j = 0; j < report.contacts; ++j) {
    const Vec3 n{{report.normals[3 * j], report.normals[3 * j + 1], report.normals[3 * j + 2]}};
    const Vec3 t1{{report.tangents[3 * j], report.tangents[3 * j + 1], report.tangents[3 * j + 2]}};
    EXPECT_NEAR(norm(t1), 1.0, 1e-15) << j;
    EXPECT_NEAR(dot(n, t1), 0.0, 1e-15) << j;
    const ContactFrame f = contact_frame(n);
    for (int i = 0; i < 3; ++i) EXPECT_EQ(t1[i], f.tangent1[i]) << j;
  }
  // Each contact's obstacle, and its witness points at the start of the step: the vertex, and its
  // closest point on that obstacle's plane, along the obstacle's normal.
  ASSERT_EQ(report.contact_obstacle.size(), report.contacts);
  ASSERT_EQ(report.contact_points_a.size(), 3 * report.contacts);
  ASSERT_EQ(report.contact_points_b.size(), 3 * report.contacts);
  int on_wall = 0;
  for (std::size_t j = 0; j < report.contacts; ++j) {
    const Index o = report.contact_obstacle[j];
    ASSERT_TRUE(o == 0 || o == 1) << j;
    on_wall += o;
    const int axis = o == 0 ? 2 : 0;  // the floor's normal is +z, the wall's +x
    EXPECT_EQ(report.normals[3 * j + static_cast<std::size_t>(axis)], 1.0) << j;
    const std::size_t v = 3 * static_cast<std::size_t>(report.contact_vertex[j]);
    for (int i = 0; i < 3; ++i) {
      EXPECT_EQ(report.contact_points_a[3 * j + i], start[v + i]) << "the vertex, contact " << j;
      if (i != axis) {
        EXPECT_EQ(report.contact_points_b[3 * j + i], start[v + i]) << "along the normal, contact " << j;
      }
    }
    EXPECT_NEAR(report.contact_points_b[3 * j + axis], o == 0 ? 0.0 : -0.01, 1e-15) << "on the plane, contact " << j;
  }
  EXPECT_GE(on_wall, 4);
  EXPECT_GT(lowest_x, -0.01 - 1e-5);
  EXPECT_GT(lowest_z, -1e-5);
  EXPECT_LT(std::abs(vx), 1e-3) << "stopped at the wall";
}

// Serial and every other host backend give the same bits after 20 steps of a block thrown
// sideways onto a frictional plane (contacts appear, slide and stick).
TEST(LocalGlobalContact, HostBackendsGiveBitwiseIdenticalPositions) {
  const Block block = make_block(3, 3, 3, 0.1, 0.1, 0.1, 0.005);
  LocalGlobalDescription d = describe(block, 1e6, 0.01);
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.3));
  auto run = [&](Backend& backend) {
    LocalGlobalIntegrator lg(backend, d);
    std::vector<double> v(d.rest_positions.size(), 0.0);
    for (std::size_t i = 0; i < v.size(); i += 3) {
      v[i] = 0.5;
      v[i + 2] = -0.5;
    }
    lg.set_state(d.rest_positions, v);
    std::size_t contacts = 0;
    for (int s = 0; s < 20; ++s) {
      const LocalGlobalReport report = lg.step();
      EXPECT_TRUE(report.ok()) << report.message;
      contacts = std::max(contacts, report.contacts);
    }
    EXPECT_EQ(contacts, 16u);
    return lg.positions();
  };
  test::expect_host_backends_bitwise_equal(run, "contact");
}

TEST(LocalGlobalContact, BadInputIsNamed) {
  const Block block = make_block(2, 2, 2, 0.1, 0.1, 0.1, 0.0);
  auto backend = make_backend("serial");
  auto with = [&](auto change) {
    LocalGlobalDescription d = describe(block, 1e5, 0.01);
    d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));
    change(d);
    return d;
  };
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.obstacles[0].friction = -0.1; })),
                     "obstacles[0].friction");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.obstacles[0].pose.translation[1] = NAN; })),
                     "obstacles[0].pose");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.obstacles[0].pose.rotation.m[0] = 2.0; })),
                     "obstacles[0].pose.rotation");
  EXPECT_SINEW_ERROR(
      LocalGlobalIntegrator(*backend, with([](auto& d) { d.obstacles[0].motion.angular[2] = INFINITY; })),
      "obstacles[0].motion");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.obstacles[0].shape = Shape{ShapeType::kSphere, {0.0, 0.0, 0.0}};
                     })),
                     "obstacles[0].shape.size");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.contact_vertices = {0, 27};
                     })),
                     "contact_vertices[1]");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.contact_margin = INFINITY; })),
                     "contact_margin");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.contact_thickness = NAN; })),
                     "contact_thickness");
  EXPECT_SINEW_ERROR(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}}, 0.5), "normal");
  EXPECT_SINEW_ERROR(half_space_obstacle(Vec3{{0, NAN, 0}}, Vec3{{0, 0, 1}}, 0.5), "point");
  LocalGlobalOptions cholmod;
  cholmod.global_step = GlobalStepKind::kCholmod;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto&) {}), cholmod), "kSparseInverse");
  LocalGlobalOptions zero_steps;
  zero_steps.contact.newton_steps = 0;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto&) {}), zero_steps), "contact.newton_steps");
  LocalGlobalIntegrator lg(*backend, with([](auto&) {}));
  EXPECT_SINEW_ERROR(lg.set_obstacle(1, identity_pose(), Motion{}), "out of range");
  Pose bad = identity_pose();
  bad.rotation(0, 1) = 0.5;
  EXPECT_SINEW_ERROR(lg.set_obstacle(0, bad, Motion{{{0, 0, 0}}, {{0, 0, 0}}}), "rotation");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_contact_test
