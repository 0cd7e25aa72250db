// LocalGlobalIntegrator (seed paper Algorithms 1-2): its fixed point is the converged Newton
// solution of the same implicit Euler step, ARAP energies decrease monotonically, the sparse
// inverse and CHOLMOD global steps agree, Jacobi converges more slowly, host backends agree
// bitwise, a twisted bar twists linearly, and bad input is named.
#include <gtest/gtest.h>

#include <Eigen/Core>
#include <algorithm>
#include <array>
#include <cmath>
#include <cstdio>
#include <cstring>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "flat_tet_mesh.hpp"
#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::integrators::integrators_local_global_test {
namespace {

constexpr double kPi = 3.14159265358979323846;

// A bar [0, L] x [-a/2, a/2]^2 of nx x ny x nz cubes (scene::box_tet_mesh), with its grid indexing.
struct Bar {
  std::vector<double> x;  // (3 n) rest positions
  std::vector<Index> tets;
  int nx, ny, nz;
  double L, a;
  Index id(int i, int j, int k) const { return i + (nx + 1) * (j + (ny + 1) * k); }
};

Bar make_bar(int nx, int ny, int nz, double L, double a) {
  test::FlatTetMesh m = test::flat_box_tet_mesh(Vec3{{0, -a / 2, -a / 2}}, Vec3{{L, a / 2, a / 2}}, nx, ny, nz);
  return Bar{std::move(m.x), std::move(m.tets), nx, ny, nz, L, a};
}

LocalGlobalDescription describe(const Bar& bar, MaterialModel model, double E, double nu, double h) {
  LocalGlobalDescription d;
  d.rest_positions = bar.x;
  d.tets = bar.tets;
  d.model = model;
  d.elastic = {E, nu};
  d.time_step = h;
  return d;
}

// A deformed, moving start: stretched 20% along the bar, twisted 30 degrees over its length,
// with a velocity field of bending and spin, so that a step has work to do.
void deformed_start(const Bar& bar, std::vector<double>& x, std::vector<double>& v) {
  x = bar.x;
  v.assign(bar.x.size(), 0.0);
  for (std::size_t i = 0; i < bar.x.size() / 3; ++i) {
    const double X = bar.x[3 * i], Y = bar.x[3 * i + 1], Z = bar.x[3 * i + 2];
    const double th = (kPi / 6) * X / bar.L;
    x[3 * i] = 1.2 * X;
    x[3 * i + 1] = std::cos(th) * Y - std::sin(th) * Z;
    x[3 * i + 2] = std::sin(th) * Y + std::cos(th) * Z;
    v[3 * i + 2] = 0.5 * X * X;
    v[3 * i + 1] = -0.8 * Z;
  }
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// The bar's tets as a model::TetFemField of @p model on @p system (rest shape = the bar's).
void add_bar_field(model::MechanicalSystem& system, const Bar& bar, MaterialModel model,
                   const ElasticParameters& elastic) {
  auto field = std::make_shared<model::TetFemField>(model, elastic);
  for (std::size_t e = 0; e < bar.tets.size() / 4; ++e) {
    double X[12];
    std::array<Index, 4> nodes{};
    for (int a = 0; a < 4; ++a) {
      nodes[a] = bar.tets[4 * e + a];
      for (int d = 0; d < 3; ++d) X[3 * a + d] = bar.x[3 * nodes[a] + d];
    }
    field->add(nodes, make_tet_rest(X));
  }
  system.add_force_field(field);
}

// Ground truth: one ImplicitEuler step (Newton on the incremental potential, converged to 1e-13)
// of the same particles, lumped masses, gravity and material (model::TetFemField).
std::vector<double> newton_step(const LocalGlobalIntegrator& lg, const Bar& bar, MaterialModel model,
                                const ElasticParameters& elastic, const std::vector<double>& x0,
                                const std::vector<double>& v0, double h) {
  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, -9.81}});
  for (Index i = 0; i < lg.num_vertices(); ++i)
    system.add_particle(lg.masses()[i], Vec3{{x0[3 * i], x0[3 * i + 1], x0[3 * i + 2]}}, "",
                        Vec3{{v0[3 * i], v0[3 * i + 1], v0[3 * i + 2]}});
  add_bar_field(system, bar, model, elastic);
  ImplicitEulerOptions options;
  options.newton.relative_tolerance = 1e-13;
  options.newton.max_iterations = 100;
  ImplicitEuler euler(options);
  State s{0.0, system.initial_positions(), system.initial_velocities()};
  const StepReport r = euler.step(system, s, h);
  EXPECT_TRUE(r.ok()) << r.message;
  std::vector<double> q(s.q.data(), s.q.data() + s.q.size());
  return q;
}

class LocalGlobalFixedPoint : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(LocalGlobalFixedPoint, EqualsTheConvergedNewtonStepOfTheSameImplicitEulerProblem) {
  const MaterialModel model = GetParam();
  const Bar bar = make_bar(6, 2, 2, 0.6, 0.2);
  const double h = 0.01;
  const ElasticParameters elastic{1e6, 0.3};
  auto backend = make_backend("serial");
  LocalGlobalOptions options;
  options.iterations = model == MaterialModel::kStableNeoHookean ? 1500 : 600;
  LocalGlobalIntegrator lg(*backend, describe(bar, model, elastic.youngs_modulus, elastic.poisson_ratio, h), options);
  std::vector<double> x0, v0;
  deformed_start(bar, x0, v0);
  lg.set_state(x0, v0);
  const LocalGlobalReport r = lg.step();
  ASSERT_TRUE(r.ok()) << r.message;
  const std::vector<double> newton = newton_step(lg, bar, model, elastic, x0, v0, h);
  const double motion = max_abs_diff(newton, x0);
  const double error = max_abs_diff(lg.positions(), newton);
  int k_1e6 = -1;
  const double e_star = r.energies.back();
  for (std::size_t k = 0; k < r.energies.size() && k_1e6 < 0; ++k)
    if (r.energies[k] - e_star <= 1e-6 * (r.energies[0] - e_star)) k_1e6 = static_cast<int>(k);
  std::printf("%s: |x_LG - x_Newton|_inf = %.3e m (step moves %.3e m) after %d iterations; energy error 1e-6 at %d\n",
              material_model_name(model), error, motion, r.iterations, k_1e6);
  ASSERT_GT(motion, 1e-3) << "the step must move the bar";
  EXPECT_LT(error, 1e-8 * std::max(1.0, motion / bar.L) * bar.L);
}

INSTANTIATE_TEST_SUITE_P(Models, LocalGlobalFixedPoint,
                         ::testing::Values(MaterialModel::kArap, MaterialModel::kCorotational,
                                           MaterialModel::kStableNeoHookean),
                         [](const auto& info) { return std::string(material_model_name(info.param)); });

TEST(LocalGlobal, ArapIncrementalPotentialDecreasesMonotonically) {
  const Bar bar = make_bar(8, 2, 2, 0.8, 0.2);
  auto backend = make_backend("serial");
  LocalGlobalOptions options;
  options.iterations = 60;
  LocalGlobalDescription d = describe(bar, MaterialModel::kArap, 1e7, 0.3, 0.01);
  d.targets.push_back({0, Vec3{{0, -0.1, -0.1}}, 0.0});  // one pinned corner: pins are in E too
  LocalGlobalIntegrator lg(*backend, d, options);
  std::vector<double> x0, v0;
  deformed_start(bar, x0, v0);
  lg.set_state(x0, v0);
  for (int step = 0; step < 3; ++step) {
    const LocalGlobalReport r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    ASSERT_EQ(r.energies.size(), 61u);
    EXPECT_LT(r.energies.back(), 0.5 * r.energies.front()) << "the iterations make progress";
    for (std::size_t k = 1; k < r.energies.size(); ++k)
      EXPECT_LE(r.energies[k], r.energies[k - 1] + 1e-12 * std::abs(r.energies[k - 1]))
          << "step " << step << " iteration " << k;
  }
}

// Kinetic plus elastic energy (model::TetFemField) of positions @p x and velocities @p v.
double total_energy(const LocalGlobalIntegrator& lg, const Bar& bar, const ElasticParameters& elastic,
                    const std::vector<double>& x, const std::vector<double>& v) {
  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, 0}});
  double kinetic = 0.0;
  for (Index i = 0; i < lg.num_vertices(); ++i) {
    system.add_particle(lg.masses()[i], Vec3{{bar.x[3 * i], bar.x[3 * i + 1], bar.x[3 * i + 2]}});
    for (int c = 0; c < 3; ++c) kinetic += 0.5 * lg.masses()[i] * v[3 * i + c] * v[3 * i + c];
  }
  add_bar_field(system, bar, MaterialModel::kStableNeoHookean, elastic);
  return kinetic + system.potential_energy(0.0, Eigen::Map<const Eigen::VectorXd>(x.data(), x.size()));
}

// The ADMM weight's floor of k/4 (LocalGlobalOptions::neo_hookean_weight): on a stiff, finely
// meshed Neo-Hookean bar, sqrt(k m) alone is ~1/70 of the element stiffness k, and at the
// real-time 5 iterations a step the free bar gained energy step after step: 135 J of stretch grew
// to a peak of 898 J within 60 steps (the pulled wooper, E = 1e7 Pa, likewise left the gap with 5x
// its translational kinetic energy, alternating +-10% a frame). With the floor it loses it all.
TEST(LocalGlobal, StiffFineNeoHookeanBarDoesNotGainEnergy) {
  const Bar bar = make_bar(12, 6, 6, 0.2, 0.1);
  const ElasticParameters elastic{1e7, 0.3};
  auto backend = make_backend("serial");
  LocalGlobalDescription d =
      describe(bar, MaterialModel::kStableNeoHookean, elastic.youngs_modulus, elastic.poisson_ratio, 0.01);
  d.gravity = Vec3{{0, 0, 0}};
  std::vector<double> x0 = bar.x, v0(bar.x.size(), 0.0);  // stretched 10% along x, moving at 0.5 m/s
  for (std::size_t i = 0; i < x0.size(); i += 3) {
    x0[i] *= 1.1;
    v0[i] = 0.5;
  }
  LocalGlobalIntegrator lg(*backend, d);  // 5 iterations a step
  lg.set_state(x0, v0);
  const double e0 = total_energy(lg, bar, elastic, x0, v0);
  double highest = e0, last = e0;
  for (int step = 0; step < 60; ++step) {
    ASSERT_TRUE(lg.step().ok());
    last = total_energy(lg, bar, elastic, lg.positions(), lg.velocities());
    highest = std::max(highest, last);
  }
  std::printf(
      "stiff fine Neo-Hookean bar, 5 iterations a step: energy %.4e J at the start, %.4e J after 60 steps, "
      "highest %.4e J\n",
      e0, last, highest);
  EXPECT_LE(highest, e0 * (1.0 + 1e-9)) << "implicit Euler dissipates; the L-G steps must not add energy";
  EXPECT_LT(last, 0.1 * e0) << "and damps the stretch vibration (omega h ~ 16)";
}

TEST(LocalGlobal, SparseInverseAndCholmodGiveTheSameIterates) {
  const Bar bar = make_bar(8, 3, 3, 0.8, 0.3);
  auto backend = make_backend("serial");
  for (MaterialModel model : {MaterialModel::kArap, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    LocalGlobalDescription d = describe(bar, model, 1e6, 0.35, 0.01);
    for (Index k = 0; k <= 3; ++k)
      for (Index j = 0; j <= 3; ++j) d.targets.push_back({bar.id(0, j, k), Vec3{{0, 0, 0}}, 0.0});
    for (auto& t : d.targets)
      for (int c = 0; c < 3; ++c) t.target[c] = bar.x[3 * t.vertex + c];
    LocalGlobalOptions si, ch;
    si.iterations = ch.iterations = 10;
    ch.global_step = GlobalStepKind::kCholmod;
    LocalGlobalIntegrator a(*backend, d, si), b(*backend, d, ch);
    for (int step = 0; step < 3; ++step) {
      const LocalGlobalReport ra = a.step(), rb = b.step();
      ASSERT_TRUE(ra.ok() && rb.ok());
      // Positions to 1e-12 of the bar's size; energies to 1e-10 relative, since the inertia term
      // 1/(2h^2) |x - q~|_M^2 is a difference of nearly equal positions that amplifies round-off.
      EXPECT_LT(max_abs_diff(a.positions(), b.positions()), 1e-12 * bar.L) << "step " << step;
      for (std::size_t k = 0; k < ra.energies.size(); ++k)
        EXPECT_NEAR(ra.energies[k], rb.energies[k], 1e-10 * std::abs(ra.energies[k])) << "iterate " << k;
    }
    const std::vector<double> xa = a.positions(), xb = b.positions();
    EXPECT_GT(max_abs_diff(xa, bar.x), 1e-4) << "the bar sagged";
  }
}

// Iterations until E(q^k) - E* <= tol (E(q^0) - E*), E* from 400 sparse-inverse iterations.
int iterations_to(const std::vector<double>& energies, double e_star, double tol) {
  for (std::size_t k = 0; k < energies.size(); ++k)
    if (energies[k] - e_star <= tol * (energies[0] - e_star)) return static_cast<int>(k);
  return -1;
}

TEST(LocalGlobal, JacobiGlobalStepNeedsManyMoreIterations) {
  const Bar bar = make_bar(10, 2, 2, 1.0, 0.2);
  auto backend = make_backend("serial");
  std::vector<double> x0, v0;
  deformed_start(bar, x0, v0);
  for (double E : {1e5, 1e7}) {
    const LocalGlobalDescription d = describe(bar, MaterialModel::kArap, E, 0.3, 0.01);
    LocalGlobalOptions reference, si, jacobi;
    reference.iterations = 400;
    si.iterations = 200;
    jacobi.iterations = 2000;
    jacobi.global_step = GlobalStepKind::kJacobi;
    LocalGlobalIntegrator ref(*backend, d, reference), a(*backend, d, si), b(*backend, d, jacobi);
    for (LocalGlobalIntegrator* lg : {&ref, &a, &b}) lg->set_state(x0, v0);
    const double e_star = ref.step().energies.back();
    const LocalGlobalReport ra = a.step(), rb = b.step();
    ASSERT_TRUE(ra.ok() && rb.ok());
    std::printf(
        "E = %.0e Pa: iterations to relative energy error 1e-2 / 1e-4 / 1e-6: sparse inverse %d / %d / %d, "
        "Jacobi (1 sweep) %d / %d / %d\n",
        E, iterations_to(ra.energies, e_star, 1e-2), iterations_to(ra.energies, e_star, 1e-4),
        iterations_to(ra.energies, e_star, 1e-6), iterations_to(rb.energies, e_star, 1e-2),
        iterations_to(rb.energies, e_star, 1e-4), iterations_to(rb.energies, e_star, 1e-6));
    const int k_si = iterations_to(ra.energies, e_star, 1e-4), k_j = iterations_to(rb.energies, e_star, 1e-4);
    ASSERT_GT(k_si, 0);
    EXPECT_TRUE(k_j < 0 || k_j > 3 * k_si) << "Jacobi " << k_j << " vs sparse inverse " << k_si;
  }
}

TEST(LocalGlobal, HostBackendsGiveBitwiseIdenticalPositions) {
  const Bar bar = make_bar(6, 3, 3, 0.6, 0.3);
  for (MaterialModel model : {MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    LocalGlobalDescription d = describe(bar, model, 1e6, 0.3, 0.01);
    d.targets.push_back({bar.id(0, 0, 0), Vec3{{0, -0.15, -0.15}}, 0.0});
    d.targets.push_back({bar.id(0, 3, 3), Vec3{{0, 0.15, 0.15}}, 0.0});
    auto run = [&](Backend& backend) {
      LocalGlobalIntegrator lg(backend, d);
      for (int s = 0; s < 20; ++s) {
        lg.set_target(1, Vec3{{0.01 * s, 0.15, 0.15}});
        EXPECT_TRUE(lg.step().ok());
      }
      return lg.positions();
    };
    test::expect_host_backends_bitwise_equal(run, std::string(material_model_name(model)));
  }
}

// Twist angle (rad) of the cross-section at x = X about the bar's axis: the mean rotation of its
// vertices in the (y, z) plane from their rest positions.
double twist_at(const Bar& bar, const std::vector<double>& x, int i) {
  double sum = 0.0;
  int count = 0;
  for (int k = 0; k <= bar.nz; ++k)
    for (int j = 0; j <= bar.ny; ++j) {
      const Index v = bar.id(i, j, k);
      const double Y = bar.x[3 * v + 1], Z = bar.x[3 * v + 2];
      if (Y * Y + Z * Z < 1e-12) continue;  // the axis itself has no angle
      sum += std::remainder(std::atan2(x[3 * v + 2], x[3 * v + 1]) - std::atan2(Z, Y), 2 * kPi);
      ++count;
    }
  return sum / count;
}

TEST(LocalGlobal, TwistedBarTwistsLinearlyAndStaysFinite) {
  const Bar bar = make_bar(12, 2, 2, 1.0, 0.2);
  LocalGlobalDescription d = describe(bar, MaterialModel::kCorotational, 1e5, 0.3, 0.02);
  d.gravity = Vec3{{0, 0, 0}};
  for (int end : {0, bar.nx})
    for (int k = 0; k <= bar.nz; ++k)
      for (int j = 0; j <= bar.ny; ++j) {
        const Index v = bar.id(end, j, k);
        d.targets.push_back({v, Vec3{{bar.x[3 * v], bar.x[3 * v + 1], bar.x[3 * v + 2]}}, 0.0});
      }
  auto backend = make_backend("tbb");
  LocalGlobalIntegrator lg(*backend, d);
  const double end_angle = kPi / 2;  // 90 degrees, ramped over 50 steps, then held
  for (int s = 1; s <= 400; ++s) {
    const double th = end_angle * std::min(1.0, s / 50.0);
    for (std::size_t t = 0; t < d.targets.size(); ++t) {
      const Index v = d.targets[t].vertex;
      if (bar.x[3 * v] == 0.0) continue;  // the x = 0 end stays
      const double Y = bar.x[3 * v + 1], Z = bar.x[3 * v + 2];
      lg.set_target(t, Vec3{{bar.x[3 * v], std::cos(th) * Y - std::sin(th) * Z, std::sin(th) * Y + std::cos(th) * Z}});
    }
    const LocalGlobalReport r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
  }
  const std::vector<double> x = lg.positions();
  double vmax = 0.0;
  for (double v : lg.velocities()) vmax = std::max(vmax, std::abs(v));
  const double end = twist_at(bar, x, bar.nx), mid = twist_at(bar, x, bar.nx / 2),
               quarter = twist_at(bar, x, bar.nx / 4);
  std::printf("twisted bar: end %.4f rad, mid %.4f rad (ratio %.4f), quarter %.4f rad (ratio %.4f), |v|max %.2e m/s\n",
              end, mid, mid / end, quarter, quarter / end, vmax);
  EXPECT_NEAR(end, end_angle, 0.01);
  EXPECT_NEAR(mid / end, 0.5, 0.03) << "uniform torsion: the angle grows linearly along the bar";
  EXPECT_NEAR(quarter / end, 0.25, 0.03);
  EXPECT_LT(vmax, 0.05) << "at rest by the end";
}

TEST(LocalGlobal, NonFiniteStateIsReportedNotThrown) {
  const Bar bar = make_bar(2, 1, 1, 0.2, 0.1);
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, describe(bar, MaterialModel::kArap, 1e6, 0.3, 0.01));
  const std::vector<double> x0 = lg.positions();
  std::vector<double> v(x0.size(), 0.0);
  v[0] = 1e308;  // h v overflows in the first arithmetic
  lg.set_state(x0, v);
  const LocalGlobalReport r = lg.step();
  EXPECT_FALSE(r.ok());
  EXPECT_EQ(r.status, LocalGlobalStatus::kNonFinite);
  EXPECT_NE(r.message.find("non-finite"), std::string::npos) << r.message;
  EXPECT_EQ(lg.positions(), x0) << "the state is left as it was";
  EXPECT_EQ(lg.steps(), 0);
}

TEST(LocalGlobal, BadInputThrowsNamingTheParameter) {
  const Bar bar = make_bar(2, 1, 1, 0.2, 0.1);
  auto backend = make_backend("serial");
  auto with = [&](auto edit) {
    LocalGlobalDescription d = describe(bar, MaterialModel::kArap, 1e6, 0.3, 0.01);
    edit(d);
    return d;
  };
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.elastic.youngs_modulus = 0; })),
                     "youngs_modulus");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.elastic.poisson_ratio = 0.5; })),
                     "poisson_ratio");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.time_step = 0; })), "time_step");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.time_step = -0.01; })), "time_step");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.targets.push_back({999, Vec3{{0, 0, 0}}, 0.0});
                     })),
                     "targets[0].vertex", "999");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.targets.push_back({0, Vec3{{0, 0, 0}}, -1.0});
                     })),
                     "targets[0].weight");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       const Index a = d.tets[0];  // collapse tetrahedron 1 onto one vertex
                       for (int k = 4; k < 8; ++k) d.tets[k] = a;
                     })),
                     "tetrahedron 1");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.rest_positions.insert(d.rest_positions.end(),
                                               {0.05, 0.0, 0.0, 0.06, 0.0, 0.0, 0.07, 0.0, 0.0, 0.08, 0.0, 0.0});
                       const Index n = static_cast<Index>(d.rest_positions.size() / 3);
                       d.tets.insert(d.tets.end(), {n - 4, n - 3, n - 2, n - 1});  // collinear: zero volume
                     })),
                     "tetrahedron");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.tets.back() = -1; })), "tets[");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.model = MaterialModel::kLinear; })), "model",
                     "linear");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.masses.assign(3, 1.0); })), "masses");
  LocalGlobalOptions o;
  o.iterations = 0;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto&) {}), o), "iterations");
  o = LocalGlobalOptions{};
  o.neo_hookean_weight_floor = -1.0;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto&) {}), o), "neo_hookean_weight_floor");
  o = LocalGlobalOptions{};
  o.contact.warn_error = std::nan("");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto&) {}), o), "warn_error");
  LocalGlobalIntegrator lg(*backend, with([](auto& d) { d.targets.push_back({0, Vec3{{0, 0, 0}}, 0.0}); }));
  EXPECT_SINEW_ERROR(lg.set_target(1, Vec3{{0, 0, 0}}), "set_target", "1");
  EXPECT_SINEW_ERROR(lg.set_state({1.0}, {1.0}), "set_state");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_test
