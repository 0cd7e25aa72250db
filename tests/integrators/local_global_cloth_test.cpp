// LocalGlobalIntegrator with triangle membranes (cloth): the fixed point of each model is the
// converged Newton solution of the same implicit Euler step (materials' membrane models through
// model::MembraneField; with tets too, of TetFemField + MembraneField), ARAP energies decrease
// monotonically, a cloth hanging from two corners stays finite and stretches less when stiffer,
// host backends agree bitwise, and bad triangles are named.
#include <gtest/gtest.h>

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

namespace sinew::integrators::integrators_local_global_cloth_test {
namespace {

// A square cloth [0, L]^2 of n x n cells, 2 triangles each, in the plane z = 0 (vertical = true:
// the plane y = 0, hanging along -z from its top edge z = 0). Vertex (i, j) is i + (n + 1) j.
struct Cloth {
  std::vector<double> x;  // (3 (n+1)^2) rest positions
  std::vector<Index> triangles;
  int n;
  double L;
  Index id(int i, int j) const { return i + (n + 1) * j; }
};

Cloth make_cloth(int n, double L, bool vertical = false) {
  Cloth c{{}, {}, n, L};
  for (int j = 0; j <= n; ++j)
    for (int i = 0; i <= n; ++i) {
      const double u = L * i / n, v = L * j / n;
      if (vertical) {
        c.x.insert(c.x.end(), {u, 0.0, -v});
      } else {
        c.x.insert(c.x.end(), {u, v, 0.0});
      }
    }
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i) {
      // Alternate the diagonal so that the mesh has no preferred direction.
      const Index a = c.id(i, j), b = c.id(i + 1, j), d = c.id(i, j + 1), e = c.id(i + 1, j + 1);
      if ((i + j) % 2 == 0) {
        c.triangles.insert(c.triangles.end(), {a, b, e, a, e, d});
      } else {
        c.triangles.insert(c.triangles.end(), {a, b, d, b, e, d});
      }
    }
  return c;
}

LocalGlobalDescription describe(const Cloth& c, MaterialModel model, double E, double nu, double h) {
  LocalGlobalDescription d;
  d.rest_positions = c.x;
  d.triangles = c.triangles;
  d.model = model;
  d.elastic = {E, nu};
  d.time_step = h;
  d.thickness = 1e-3;
  return d;
}

// A stretched, wrinkled, moving start: 15% along x, 5% shrink along y, a bump out of plane and a
// velocity field of flapping and shear, so that the step has membrane work in every mode.
void deformed_start(const Cloth& c, std::vector<double>& x, std::vector<double>& v) {
  x = c.x;
  v.assign(c.x.size(), 0.0);
  for (std::size_t i = 0; i < c.x.size() / 3; ++i) {
    const double X = c.x[3 * i] / c.L, Y = c.x[3 * i + 1] / c.L;
    x[3 * i] = 1.15 * c.x[3 * i] + 0.02 * c.L * Y * Y;
    x[3 * i + 1] = 0.95 * c.x[3 * i + 1];
    x[3 * i + 2] = 0.05 * c.L * std::sin(3.0 * X) * Y;
    v[3 * i + 2] = 0.5 * X * X - 0.3 * Y;
    v[3 * i] = 0.2 * Y;
  }
}

double max_abs_diff(const std::vector<double>& a, const std::vector<double>& b) {
  double m = 0.0;
  for (std::size_t i = 0; i < a.size(); ++i) m = std::max(m, std::abs(a[i] - b[i]));
  return m;
}

// Ground truth: one ImplicitEuler step (Newton on the incremental potential to 1e-13) of the same
// particles, lumped masses and gravity with model::MembraneField, whose energy is A Psi(F) per
// triangle: Psi is linear in (mu, lambda) at fixed nu (for stable Neo-Hookean too: alpha depends
// on mu/lambda only), so A t Psi_E = A Psi_{E t} and the field gets Young's modulus E t.
std::vector<double> newton_step(const LocalGlobalIntegrator& lg, const Cloth& c, MaterialModel model,
                                const ElasticParameters& elastic, double thickness, const std::vector<double>& x0,
                                const std::vector<double>& v0, double h) {
  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, -9.81}});
  for (Index i = 0; i < lg.num_vertices(); ++i)  // rest positions: MembraneField takes its rest shape from them
    system.add_particle(lg.masses()[i], Vec3{{c.x[3 * i], c.x[3 * i + 1], c.x[3 * i + 2]}});
  auto field = std::make_shared<model::MembraneField>(
      model, ElasticParameters{elastic.youngs_modulus * thickness, elastic.poisson_ratio});
  for (std::size_t e = 0; e < c.triangles.size() / 3; ++e)
    field->add(system, {c.triangles[3 * e], c.triangles[3 * e + 1], c.triangles[3 * e + 2]});
  system.add_force_field(field);
  ImplicitEulerOptions options;
  options.newton.relative_tolerance = 1e-13;
  options.newton.max_iterations = 200;
  ImplicitEuler euler(options);
  State s{0.0, Eigen::Map<const Eigen::VectorXd>(x0.data(), static_cast<Eigen::Index>(x0.size())),
          Eigen::Map<const Eigen::VectorXd>(v0.data(), static_cast<Eigen::Index>(v0.size()))};
  const StepReport r = euler.step(system, s, h);
  EXPECT_TRUE(r.ok()) << r.message;
  return std::vector<double>(s.q.data(), s.q.data() + s.q.size());
}

class LocalGlobalClothFixedPoint : public ::testing::TestWithParam<MaterialModel> {};

TEST_P(LocalGlobalClothFixedPoint, EqualsTheConvergedNewtonStepOfTheSameImplicitEulerProblem) {
  const MaterialModel model = GetParam();
  const Cloth cloth = make_cloth(6, 0.3);
  const double h = 0.01;
  const ElasticParameters elastic{1e5, 0.45};  // the seed's cloth (Table 3)
  auto backend = make_backend("serial");
  LocalGlobalOptions options;
  // Co-rotational converges the slowest: its area constraint (weight 2 lambda V, lambda = 9 mu at
  // nu = 0.45) is stiff against ARAP's 2 mu V, and local-global converges linearly (measured:
  // 1.1e-5 m after 600 iterations, 3e-14 m after 6000).
  options.iterations = model == MaterialModel::kCorotational ? 4000 : model == MaterialModel::kArap ? 600 : 1500;
  const LocalGlobalDescription d = describe(cloth, model, elastic.youngs_modulus, elastic.poisson_ratio, h);
  LocalGlobalIntegrator lg(*backend, d, options);
  EXPECT_EQ(lg.num_triangles(), 72u);
  EXPECT_EQ(lg.num_tets(), 0u);
  std::vector<double> x0, v0;
  deformed_start(cloth, x0, v0);
  lg.set_state(x0, v0);
  const LocalGlobalReport r = lg.step();
  ASSERT_TRUE(r.ok()) << r.message;
  const std::vector<double> newton = newton_step(lg, cloth, model, elastic, d.thickness, x0, v0, h);
  const double motion = max_abs_diff(newton, x0);
  const double error = max_abs_diff(lg.positions(), newton);
  int k_1e6 = -1;
  const double e_star = r.energies.back();
  for (std::size_t k = 0; k < r.energies.size() && k_1e6 < 0; ++k)
    if (r.energies[k] - e_star <= 1e-6 * (r.energies[0] - e_star)) k_1e6 = static_cast<int>(k);
  std::printf(
      "cloth %s: |x_LG - x_Newton|_inf = %.3e m (step moves %.3e m) after %d iterations; energy error 1e-6 "
      "at %d\n",
      material_model_name(model), error, motion, r.iterations, k_1e6);
  ASSERT_GT(motion, 1e-3) << "the step must move the cloth";
  EXPECT_LT(error, 1e-8 * cloth.L);
}

INSTANTIATE_TEST_SUITE_P(Models, LocalGlobalClothFixedPoint,
                         ::testing::Values(MaterialModel::kArap, MaterialModel::kCorotational,
                                           MaterialModel::kStableNeoHookean),
                         [](const auto& info) { return std::string(material_model_name(info.param)); });

// Tets and triangles in one solid: a 3 x 3 x 1 block of Kuhn tetrahedra whose top face is also
// covered by a membrane (a coated block), Neo-Hookean; the fixed point is the Newton step of
// TetFemField + MembraneField together, so both element kinds add into the same A and b.
TEST(LocalGlobalCloth, TetsAndTrianglesTogetherGiveTheNewtonStepOfBothEnergies) {
  constexpr int n = 3;
  const double a = 0.1;
  auto id = [](int i, int j, int k) { return static_cast<Index>(i + (n + 1) * (j + (n + 1) * k)); };
  test::FlatTetMesh block = test::flat_box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{a * n, a * n, a}}, n, n, 1);
  const std::vector<double> X = block.x;
  const std::vector<Index> tets = block.tets;
  std::vector<Index> triangles;
  for (int j = 0; j < n; ++j)
    for (int i = 0; i < n; ++i)
      triangles.insert(triangles.end(), {id(i, j, 1), id(i + 1, j, 1), id(i + 1, j + 1, 1), id(i, j, 1),
                                         id(i + 1, j + 1, 1), id(i, j + 1, 1)});
  LocalGlobalDescription d;
  d.rest_positions = X;
  d.tets = tets;
  d.triangles = triangles;
  d.thickness = 0.01;
  d.model = MaterialModel::kStableNeoHookean;
  d.elastic = {1e5, 0.4};
  auto backend = make_backend("serial");
  LocalGlobalOptions options;
  options.iterations = 2000;
  LocalGlobalIntegrator lg(*backend, d, options);
  EXPECT_EQ(lg.num_tets(), 54u);
  EXPECT_EQ(lg.num_triangles(), 18u);
  std::vector<double> x0 = X, v0(X.size(), 0.0);
  for (std::size_t i = 0; i < X.size() / 3; ++i) {
    x0[3 * i] = 1.1 * X[3 * i] + 0.05 * X[3 * i + 2];  // stretch and shear
    v0[3 * i + 2] = 2.0 * X[3 * i] * X[3 * i + 1];
  }
  lg.set_state(x0, v0);
  const LocalGlobalReport r = lg.step();
  ASSERT_TRUE(r.ok()) << r.message;

  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, -9.81}});
  for (Index i = 0; i < lg.num_vertices(); ++i)
    system.add_particle(lg.masses()[i], Vec3{{X[3 * i], X[3 * i + 1], X[3 * i + 2]}});
  auto solid = std::make_shared<model::TetFemField>(d.model, d.elastic);
  for (std::size_t e = 0; e < tets.size() / 4; ++e) {
    double T[12];
    std::array<Index, 4> nodes{};
    for (int v = 0; v < 4; ++v) {
      nodes[v] = tets[4 * e + v];
      for (int c = 0; c < 3; ++c) T[3 * v + c] = X[3 * nodes[v] + c];
    }
    solid->add(nodes, make_tet_rest(T));
  }
  auto skin = std::make_shared<model::MembraneField>(
      d.model, ElasticParameters{d.elastic.youngs_modulus * d.thickness, d.elastic.poisson_ratio});
  for (std::size_t e = 0; e < triangles.size() / 3; ++e)
    skin->add(system, {triangles[3 * e], triangles[3 * e + 1], triangles[3 * e + 2]});
  system.add_force_field(solid);
  system.add_force_field(skin);
  ImplicitEulerOptions io;
  io.newton.relative_tolerance = 1e-13;
  io.newton.max_iterations = 200;
  ImplicitEuler euler(io);
  State s{0.0, Eigen::Map<const Eigen::VectorXd>(x0.data(), static_cast<Eigen::Index>(x0.size())),
          Eigen::Map<const Eigen::VectorXd>(v0.data(), static_cast<Eigen::Index>(v0.size()))};
  ASSERT_TRUE(euler.step(system, s, d.time_step).ok());
  const std::vector<double> newton(s.q.data(), s.q.data() + s.q.size());
  const double error = max_abs_diff(lg.positions(), newton), motion = max_abs_diff(newton, x0);
  std::printf("tets + triangles: |x_LG - x_Newton|_inf = %.3e m (step moves %.3e m)\n", error, motion);
  ASSERT_GT(motion, 1e-3);
  EXPECT_LT(error, 1e-8 * n * a);
}

TEST(LocalGlobalCloth, ArapIncrementalPotentialDecreasesMonotonically) {
  const Cloth cloth = make_cloth(8, 0.4);
  auto backend = make_backend("serial");
  LocalGlobalOptions options;
  options.iterations = 60;
  LocalGlobalDescription d = describe(cloth, MaterialModel::kArap, 1e5, 0.45, 0.01);
  d.targets.push_back({cloth.id(0, 0), Vec3{{0, 0, 0}}, 0.0});  // a pinned corner: pins are in E too
  LocalGlobalIntegrator lg(*backend, d, options);
  std::vector<double> x0, v0;
  deformed_start(cloth, x0, v0);
  lg.set_state(x0, v0);
  for (int step = 0; step < 3; ++step) {
    const LocalGlobalReport r = lg.step();
    ASSERT_TRUE(r.ok()) << r.message;
    ASSERT_EQ(r.energies.size(), 61u);
    EXPECT_LT(r.energies.back(), r.energies.front()) << "the iterations make progress";
    for (std::size_t k = 1; k < r.energies.size(); ++k)
      EXPECT_LE(r.energies[k], r.energies[k - 1] + 1e-12 * std::abs(r.energies[k - 1]))
          << "step " << step << " iteration " << k;
  }
}

// A 0.5 m cloth hanging in the plane y = 0 from its two top corners for 2 s (the seed's h, 5
// L-G iterations): every position finite, the bottom edge below its rest height by the sag, and
// the sag smaller for a 10x stiffer cloth.
double hanging_sag(MaterialModel model, double E) {
  const Cloth cloth = make_cloth(10, 0.5, true);
  LocalGlobalDescription d = describe(cloth, model, E, 0.45, 0.01);
  for (Index v : {cloth.id(0, 0), cloth.id(cloth.n, 0)})
    d.targets.push_back({v, Vec3{{cloth.x[3 * v], cloth.x[3 * v + 1], cloth.x[3 * v + 2]}}, 0.0});
  auto backend = make_backend("tbb");
  LocalGlobalOptions options;
  options.record_energy = false;
  LocalGlobalIntegrator lg(*backend, d, options);
  for (int s = 0; s < 200; ++s) {
    const LocalGlobalReport r = lg.step();
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) return NAN;
  }
  const std::vector<double> x = lg.positions();
  for (double value : x) EXPECT_TRUE(std::isfinite(value));
  const Index bottom_middle = cloth.id(cloth.n / 2, cloth.n);
  const double sag = cloth.x[3 * bottom_middle + 2] - x[3 * bottom_middle + 2];
  double pin_error = 0.0;
  for (const PositionalTarget& t : d.targets)
    for (int k = 0; k < 3; ++k) pin_error = std::max(pin_error, std::abs(x[3 * t.vertex + k] - t.target[k]));
  std::printf("hanging cloth (%s, E = %.0e Pa): bottom middle sags %.4f m, pins within %.2e m\n",
              material_model_name(model), E, sag, pin_error);
  EXPECT_LT(pin_error, 1e-3) << "the corners stay pinned";
  return sag;
}

TEST(LocalGlobalCloth, HangingClothStaysFiniteAndStretchesLessWhenStiffer) {
  for (MaterialModel model : {MaterialModel::kArap, MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    const double soft = hanging_sag(model, 1e5), stiff = hanging_sag(model, 1e6);
    EXPECT_GT(soft, 0.0) << "the cloth hangs down";
    EXPECT_GT(stiff, 0.0);
    EXPECT_LT(stiff, soft) << "the stiffer cloth stretches less";
  }
}

TEST(LocalGlobalCloth, HostBackendsGiveBitwiseIdenticalPositions) {
  const Cloth cloth = make_cloth(8, 0.4);
  for (MaterialModel model : {MaterialModel::kArap, MaterialModel::kCorotational, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    LocalGlobalDescription d = describe(cloth, model, 1e5, 0.45, 0.01);
    d.targets.push_back({cloth.id(0, 0), Vec3{{0, 0, 0}}, 0.0});
    d.targets.push_back({cloth.id(cloth.n, cloth.n), Vec3{{0.4, 0.4, 0}}, 0.0});
    auto run = [&](Backend& backend) {
      LocalGlobalIntegrator lg(backend, d);
      for (int s = 0; s < 20; ++s) {
        lg.set_target(1, Vec3{{0.4 + 0.002 * s, 0.4, 0.0}});
        EXPECT_TRUE(lg.step().ok());
      }
      return lg.positions();
    };
    test::expect_host_backends_bitwise_equal(run, std::string("cloth ") + material_model_name(model));
  }
}

TEST(LocalGlobalCloth, BadTrianglesThrowNamingTheTriangle) {
  const Cloth cloth = make_cloth(2, 0.2);
  auto backend = make_backend("serial");
  auto with = [&](auto edit) {
    LocalGlobalDescription d = describe(cloth, MaterialModel::kArap, 1e5, 0.45, 0.01);
    edit(d);
    return d;
  };
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangles[7] = 99; })), "triangles[7]",
                     "triangle 2", "99");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangles[0] = -1; })), "triangle 0");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.triangles[10] = d.triangles[9];  // triangle 3 repeats a vertex: zero area
                     })),
                     "triangle 3");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.rest_positions.insert(d.rest_positions.end(), {0.0, 0.0, 1.0, 0.1, 0.0, 1.0, 0.2, 0.0, 1.0});
                       const Index n = static_cast<Index>(d.rest_positions.size() / 3);
                       d.triangles.insert(d.triangles.end(), {n - 3, n - 2, n - 1});  // collinear
                     })),
                     "triangle 8", "area");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangles.pop_back(); })), "triangles",
                     "3 vertex indices");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.thickness = 0.0; })), "thickness");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) { d.triangles.clear(); })), "tets");
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, with([](auto& d) {
                       d.rest_positions.insert(d.rest_positions.end(), {5.0, 5.0, 5.0});  // an unused vertex
                     })),
                     "vertex 9", "no mass");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_cloth_test
