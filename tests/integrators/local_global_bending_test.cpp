// LocalGlobalIntegrator's bending (BendingModel, libs/integrators/src/local_global/bending.hpp):
// zero energy and force at rest and under rigid motions, the isometric cylinder's energy
// D/2 area / R^2 under refinement, gradients against finite differences, the beam stiffness each
// form gives a strip, a cantilevered strip's tip deflection converging under refinement to Euler-
// Bernoulli's with that stiffness, bitwise agreement of the host
// backends, the reported energy including bending, and the checks naming the field.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <string>
#include <vector>

#include <Eigen/Dense>

#include "expect_error.hpp"
#include "host_backends.hpp"
#include "local_global/bending.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::integrators_local_global_bending_test {
namespace {

// A flat strip [x0, x0 + nx hx] x [0, ny hy] in z = 0, two triangles per cell with alternating
// diagonals. Vertex (i, j) is i + (nx + 1) j.
struct Strip {
  std::vector<double> x;
  std::vector<Index> triangles;
  int nx, ny;
  Index id(int i, int j) const { return i + (nx + 1) * j; }
};

Strip make_strip(int nx, int ny, double x0, double length, double width) {
  Strip s{{}, {}, nx, ny};
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) s.x.insert(s.x.end(), {x0 + length * i / nx, width * j / ny, 0.0});
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      const Index a = s.id(i, j), b = s.id(i + 1, j), d = s.id(i, j + 1), e = s.id(i + 1, j + 1);
      if ((i + j) % 2 == 0) {
        s.triangles.insert(s.triangles.end(), {a, b, e, a, e, d});
      } else {
        s.triangles.insert(s.triangles.end(), {a, b, d, b, e, d});
      }
    }
  return s;
}

LocalGlobalDescription cloth(const Strip& s, BendingModel model) {
  LocalGlobalDescription d;
  d.rest_positions = s.x;
  d.triangles = s.triangles;
  d.bending = model;
  return d;
}

// x wrapped isometrically onto the cylinder of radius R about the axis parallel to y through (0, 0, R).
std::vector<double> on_cylinder(const std::vector<double>& x, double R) {
  std::vector<double> y = x;
  for (std::size_t v = 0; 3 * v < x.size(); ++v) {
    const double u = x[3 * v];
    y[3 * v] = R * std::sin(u / R);
    y[3 * v + 2] = R * (1.0 - std::cos(u / R)) + x[3 * v + 2];
  }
  return y;
}

// A rigid motion: rotation by angle a about the unit axis (1, 2, 2)/3, then a translation.
std::vector<double> rigidly_moved(const std::vector<double>& x, double a) {
  const double k[3] = {1.0 / 3.0, 2.0 / 3.0, 2.0 / 3.0}, c = std::cos(a), s = std::sin(a);
  std::vector<double> y = x;
  for (std::size_t v = 0; 3 * v < x.size(); ++v) {
    const double* p = &x[3 * v];
    const double kp = k[0] * p[0] + k[1] * p[1] + k[2] * p[2];
    const double cr[3] = {k[1] * p[2] - k[2] * p[1], k[2] * p[0] - k[0] * p[2], k[0] * p[1] - k[1] * p[0]};
    for (int i = 0; i < 3; ++i) y[3 * v + i] = p[i] * c + cr[i] * s + k[i] * kp * (1.0 - c) + 0.1 * (i + 1);
  }
  return y;
}

// E_b(x) and its gradient as the integrator computes them (the rows of @p d on a serial backend).
double bending_energy(const LocalGlobalDescription& d, const std::vector<double>& x,
                      std::vector<double>* gradient = nullptr) {
  auto backend = make_backend("serial");
  detail::BendingElements b;
  b.build(d, static_cast<Index>(d.rest_positions.size() / 3), "");
  b.upload(*backend);
  const DeviceArray<double> X = backend->upload(x);
  DeviceArray<double> g = backend->allocate<double>(x.size());
  const double e = b.energy_and_gradient(*backend, X, g);
  if (gradient) *gradient = backend->download(g);
  return e;
}

double max_abs(const std::vector<double>& v) {
  double m = 0.0;
  for (double a : v) m = std::max(m, std::fabs(a));
  return m;
}

double plate_stiffness(const LocalGlobalDescription& d) {
  const double E = d.elastic.youngs_modulus, nu = d.elastic.poisson_ratio, t = d.thickness;
  return E * t * t * t / (12.0 * (1.0 - nu * nu));
}

// A deterministic perturbation of every coordinate, of size @p scale.
std::vector<double> jittered(std::vector<double> x, double scale) {
  unsigned state = 12345u;
  for (double& v : x) {
    state = state * 1664525u + 1013904223u;
    v += scale * (static_cast<double>(state >> 8) / 16777216.0 - 0.5);
  }
  return x;
}

// Both forms: no energy and no force at the flat rest state and after rigid motions of it; the
// Laplace-Beltrami form also for a curved rest shape (a cylinder patch keeps its curvature).
TEST(LocalGlobalBending, RestStateAndRigidMotionsCostNothing) {
  const Strip s = make_strip(6, 5, 0.0, 0.06, 0.05);
  for (BendingModel model : {BendingModel::kQuadratic, BendingModel::kLaplaceBeltrami}) {
    LocalGlobalDescription d = cloth(s, model);
    // The scales of a unit bend: E_b and its gradient on a cylinder of radius 0.1 m.
    std::vector<double> g;
    const double unit = bending_energy(d, on_cylinder(s.x, 0.1), &g), unit_force = max_abs(g);
    ASSERT_GT(unit, 0.0);
    for (const std::vector<double>& x : {s.x, rigidly_moved(s.x, 0.7)}) {
      EXPECT_LT(bending_energy(d, x, &g), 1e-20 * unit) << bending_model_name(model);
      EXPECT_LT(max_abs(g), 1e-10 * unit_force) << bending_model_name(model);
    }
    if (model == BendingModel::kLaplaceBeltrami) {
      d.rest_positions = on_cylinder(s.x, 0.1);
      EXPECT_LT(bending_energy(d, rigidly_moved(d.rest_positions, 0.7), &g), 1e-20 * unit);
      EXPECT_LT(max_abs(g), 1e-8 * unit_force);
      EXPECT_GT(bending_energy(d, s.x), 0.5 * unit);  // flattening the curved rest shape costs
    }
  }
}

// The gradient the integrator uses (G_b^T W (G_b x - p(x))) against central differences of E_b,
// at a bent, jittered configuration; for Laplace-Beltrami with a curved rest shape, so that the
// projection p(x) moves with x.
TEST(LocalGlobalBending, GradientMatchesFiniteDifferences) {
  const Strip s = make_strip(5, 4, 0.0, 0.05, 0.04);
  for (BendingModel model : {BendingModel::kQuadratic, BendingModel::kLaplaceBeltrami}) {
    LocalGlobalDescription d = cloth(s, model);
    if (model == BendingModel::kLaplaceBeltrami) d.rest_positions = on_cylinder(s.x, 0.15);
    const std::vector<double> x = jittered(on_cylinder(s.x, 0.05), 2e-3);
    std::vector<double> g;
    bending_energy(d, x, &g);
    const double eps = 1e-7, scale = max_abs(g);
    double worst = 0.0;
    for (std::size_t k = 0; k < x.size(); ++k) {
      std::vector<double> xp = x, xm = x;
      xp[k] += eps;
      xm[k] -= eps;
      const double fd = (bending_energy(d, xp) - bending_energy(d, xm)) / (2.0 * eps);
      worst = std::max(worst, std::fabs(fd - g[k]));
    }
    std::printf("%s: max |gradient - central difference| = %.3e of max |gradient| %.3e\n", bending_model_name(model),
                worst, scale);
    EXPECT_LT(worst, 1e-6 * scale) << bending_model_name(model);
  }
}

// E_b of a square patch wrapped isometrically onto a cylinder of radius R against the plate's
// D/2 area / R^2 (the isometric bending energy D/2 int (kappa1 + kappa2)^2 dA), under refinement.
TEST(LocalGlobalBending, CylinderEnergyConvergesUnderRefinement) {
  const double L = 0.1, R = 0.1;
  for (BendingModel model : {BendingModel::kQuadratic, BendingModel::kLaplaceBeltrami}) {
    std::vector<double> ratios;
    for (int n : {8, 16, 32, 64}) {
      const Strip s = make_strip(n, n, 0.0, L, L);
      const LocalGlobalDescription d = cloth(s, model);
      const double exact = 0.5 * plate_stiffness(d) * L * L / (R * R);
      ratios.push_back(bending_energy(d, on_cylinder(s.x, R)) / exact);
      std::printf("%s n=%d: E_b / (D/2 area / R^2) = %.5f\n", bending_model_name(model), n, ratios.back());
    }
    for (std::size_t k = 2; k < ratios.size(); ++k)  // differences shrink: converging
      EXPECT_LT(std::fabs(ratios[k] - ratios[k - 1]), 0.6 * std::fabs(ratios[k - 1] - ratios[k - 2]));
    // The hinge form's known mesh dependence (BendingModel::kQuadratic): 3 on right triangles.
    const double limit = model == BendingModel::kQuadratic ? 3.0 : 1.0;
    EXPECT_NEAR(ratios.back(), limit, 0.03 * limit) << bending_model_name(model);
  }
}

// A strip of length L = 0.2 m and width w = 0.02 m, clamped at x in [-hx, 0] (two columns of
// targets: zero slope at x = 0) under gravity, stepped quasi-statically (h = 1 s, velocities
// zeroed after each step) until its tip stops moving. Returns the tip's mean deflection.
double cantilever_tip(BendingModel model, int ny, double stiffness) {
  const double L = 0.2, w = 0.02;
  const int nx = 10 * ny;
  const double hx = L / nx;
  const Strip s = make_strip(nx + 1, ny, -hx, L + hx, w);
  LocalGlobalDescription d = cloth(s, model);
  // A membrane stiff enough not to stretch (E t = 1e5 N/m), soft enough for projective dynamics'
  // iterations, whose rotations converge slowly when the membrane is far stiffer than bending.
  d.elastic = {1e8, 0.0};
  d.thickness = 1e-3;
  d.bending_stiffness = stiffness;
  d.time_step = 1.0;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i < 2; ++i) {
      const Index v = s.id(i, j);
      d.targets.push_back({v, {{s.x[3 * v], s.x[3 * v + 1], s.x[3 * v + 2]}}, 0.0});
    }
  LocalGlobalOptions o;
  o.iterations = 20;
  o.record_energy = false;
  auto backend = make_backend("serial");
  LocalGlobalIntegrator lg(*backend, d, o);
  auto tip = [&]() {
    const std::vector<double> x = lg.positions();
    double z = 0.0;
    for (int j = 0; j <= ny; ++j) z += x[3 * s.id(nx + 1, j) + 2];
    return -z / (ny + 1);
  };
  const std::vector<double> zero(s.x.size(), 0.0);
  double last = 0.0, now = 0.0;
  int step = 0;
  for (; step < 3000; ++step) {
    EXPECT_TRUE(lg.step().ok());
    lg.set_state(lg.positions(), zero);  // quasi-static: no momentum between steps
    now = tip();
    if (std::fabs(now - last) < 1e-9 * std::fabs(now)) break;
    last = now;
  }
  std::printf("  %s ny=%d: %d steps, tip deflection %.6g m\n", bending_model_name(model), ny, step + 1, now);
  EXPECT_LT(step, 3000) << "not at equilibrium";
  return now;
}

// The energy per area a bending form gives a uniform curvature on the strip's triangulation (square
// cells, alternating diagonals), as a quadratic form v^T Q v in v = (kxx, kyy, kxy, psi_1, psi_2,
// psi_3): the flat patch bent to z = (kxx x^2 + kyy y^2 + 2 kxy x y) / 2 + h^2 psi_c, where
// psi_c shifts the vertices of class c = (i mod 2) + 2 (j mod 2) of the grid's 2 x 2 period
// (class 0 fixed: a constant shift costs nothing). psi lets the mesh relax at its own period,
// as it does in a simulation, so min over psi is the mesh's homogenized stiffness; h^2 makes it
// independent of the cell size. Measured per k on n x n patches of side 0.1 m with the boundary's
// share removed by Richardson from n = 32 and 64 (E / area = Q (1 - c / n)).
Eigen::Matrix<double, 6, 6> curvature_form(BendingModel model) {
  const double L = 0.1;
  auto density = [&](int n, const Eigen::Matrix<double, 6, 1>& v) {
    Strip s = make_strip(n, n, 0.0, L, L);
    LocalGlobalDescription d = cloth(s, model);
    d.bending_stiffness = 1.0;
    const double h = L / n, shift[4] = {0.0, v[3], v[4], v[5]};
    for (int j = 0; j <= n; ++j)
      for (int i = 0; i <= n; ++i) {
        const Index k = s.id(i, j);
        const double x = s.x[3 * k] - 0.5 * L, y = s.x[3 * k + 1] - 0.5 * L;
        s.x[3 * k + 2] = 0.5 * (v[0] * x * x + v[1] * y * y + 2.0 * v[2] * x * y) + h * h * shift[i % 2 + 2 * (j % 2)];
      }
    return bending_energy(d, s.x) / (L * L);
  };
  auto e = [&](const Eigen::Matrix<double, 6, 1>& v) { return 2.0 * density(64, v) - density(32, v); };
  Eigen::Matrix<double, 6, 6> Q;
  for (int a = 0; a < 6; ++a) Q(a, a) = e(Eigen::Matrix<double, 6, 1>::Unit(a));
  for (int a = 0; a < 6; ++a)
    for (int b = a + 1; b < 6; ++b)  // polarization
      Q(a, b) = Q(b, a) =
          0.5 * (e(Eigen::Matrix<double, 6, 1>::Unit(a) + Eigen::Matrix<double, 6, 1>::Unit(b)) - Q(a, a) - Q(b, b));
  return Q;
}

// The beam stiffness per k a free-edged strip of this mesh has when bent along x: E_b / area =
// k/2 D_beam kxx^2 with kyy, kxy and psi at their least-energy values, the Schur complement of
// Q's first entry (a pseudo-inverse: the mean-curvature form has free directions).
double beam_stiffness_per_k(BendingModel model) {
  const Eigen::Matrix<double, 6, 6> Q = curvature_form(model);
  const Eigen::Matrix<double, 5, 5> rest = Q.bottomRightCorner<5, 5>();
  const Eigen::Matrix<double, 5, 1> coupling = Q.col(0).tail<5>();
  const double schur = Q(0, 0) - coupling.dot(rest.completeOrthogonalDecomposition().pseudoInverse() * coupling);
  std::printf("%s: Q(kxx) = %.4f, Q(kxx, kyy = -kxx) = %.4f, D_beam / k = 2 min Q = %.4f\n", bending_model_name(model),
              Q(0, 0), Q(0, 0) + Q(1, 1) - 2.0 * Q(0, 1), 2.0 * schur);
  return 2.0 * schur;
}

// The Laplace-Beltrami form is the mean-curvature energy k/2 int (kappa1 + kappa2)^2 dA: bending
// the strip anticlastically (kyy = -kxx) costs nothing, so a strip of it has no beam stiffness,
// a cantilevered strip of it is held only by the membrane strain of that curving (fourth order in
// the curvature) and sags without a limit under refinement. It models closed or wide surfaces (the
// squeezing ball, cloth on a table), not a narrow cantilevered strip; the quadratic form, which
// charges each hinge's own bend, holds one (D_beam = 2.4 k on this mesh).
TEST(LocalGlobalBending, MeanCurvatureFormHasNoBeamStiffness) {
  EXPECT_LT(std::fabs(beam_stiffness_per_k(BendingModel::kLaplaceBeltrami)), 0.02);
  EXPECT_GT(beam_stiffness_per_k(BendingModel::kQuadratic), 1.0);
}

// A strip of length L = 0.2 m and width w = 0.02 m, clamped at its root and sagging under gravity,
// with the quadratic form, refined three times (2, 4, 8 cells across; 1, 2, 4 under
// SINEW_QUICK_TESTS): the tip deflection converges (the differences shrink at least as 0.6^k),
// and its extrapolated limit is Euler-Bernoulli's q L^4 / (8 D_beam) with the beam stiffness the
// form gives on this mesh (beam_stiffness_per_k, measured on uniform curvatures, independently of
// this run: 2.4 k) within 2% (0.9% measured).
TEST(LocalGlobalBending, CantileverTipDeflectionConvergesUnderRefinement) {
  const double L = 0.2, q_per_width = 1000.0 * 1e-3 * 9.81, k = 1.0;
  const double expected = q_per_width * L * L * L * L / (8.0 * k * beam_stiffness_per_k(BendingModel::kQuadratic));
  std::vector<double> tips;
  const std::vector<int> sizes = test::quick_tests() ? std::vector<int>{1, 2, 4} : std::vector<int>{2, 4, 8};
  for (int ny : sizes) tips.push_back(cantilever_tip(BendingModel::kQuadratic, ny, k));
  const double d1 = tips[1] - tips[0], d2 = tips[2] - tips[1];
  EXPECT_LT(std::fabs(d2), 0.6 * std::fabs(d1));
  const double limit = tips[2] + d2 * d2 / (d1 - d2);  // geometric (Aitken) extrapolation
  std::printf("quadratic: tips %.6g %.6g %.6g m, limit %.6g m, Euler-Bernoulli with D_beam %.6g m (ratio %.4f)\n",
              tips[0], tips[1], tips[2], limit, expected, limit / expected);
  EXPECT_NEAR(limit, expected, 0.02 * expected);
}

// Serial, tbb and kokkos give the same bits, for both forms (Laplace-Beltrami with a curved rest
// shape, so that its projection acts), with the energy recorded.
TEST(LocalGlobalBending, HostBackendsGiveBitwiseIdenticalPositions) {
  const Strip s = make_strip(8, 4, 0.0, 0.08, 0.04);
  for (BendingModel model : {BendingModel::kQuadratic, BendingModel::kLaplaceBeltrami}) {
    LocalGlobalDescription d = cloth(s, model);
    if (model == BendingModel::kLaplaceBeltrami) d.rest_positions = on_cylinder(s.x, 0.1);
    for (int j = 0; j <= 4; ++j)
      d.targets.push_back({s.id(0, j),
                           {{d.rest_positions[3 * s.id(0, j)], d.rest_positions[3 * s.id(0, j) + 1],
                             d.rest_positions[3 * s.id(0, j) + 2]}},
                           0.0});
    auto run = [&](Backend& backend) {
      LocalGlobalIntegrator lg(backend, d);
      std::vector<double> out;
      for (int k = 0; k < 5; ++k) {
        const LocalGlobalReport r = lg.step();
        EXPECT_TRUE(r.ok());
        out.insert(out.end(), r.energies.begin(), r.energies.end());
      }
      const std::vector<double> x = lg.positions();
      out.insert(out.end(), x.begin(), x.end());
      return out;
    };
    test::expect_host_backends_bitwise_equal(run, std::string("bending ") + bending_model_name(model));
  }
}

// The incremental potential the integrator reports includes E_b: with and without bending, from
// the same bent state at rest without gravity (q~ = x), the first energies differ by E_b(x).
TEST(LocalGlobalBending, ReportedEnergyIncludesBending) {
  const Strip s = make_strip(6, 4, 0.0, 0.06, 0.04);
  const std::vector<double> bent = on_cylinder(s.x, 0.05), zero(s.x.size(), 0.0);
  for (BendingModel model : {BendingModel::kQuadratic, BendingModel::kLaplaceBeltrami}) {
    auto first_energy = [&](BendingModel m) {
      LocalGlobalDescription d = cloth(s, m);
      d.gravity = {{0.0, 0.0, 0.0}};
      auto backend = make_backend("serial");
      LocalGlobalIntegrator lg(*backend, d);
      lg.set_state(bent, zero);
      return lg.step().energies.at(0);
    };
    const double expected = bending_energy(cloth(s, model), bent);
    ASSERT_GT(expected, 0.0);
    EXPECT_NEAR(first_energy(model) - first_energy(BendingModel::kNone), expected, 1e-9 * expected)
        << bending_model_name(model);
  }
}

TEST(LocalGlobalBending, InvalidDescriptionsNameTheField) {
  auto backend = make_backend("serial");
  const Strip s = make_strip(3, 1, 0.0, 0.03, 0.01);
  LocalGlobalDescription d = cloth(s, BendingModel::kQuadratic);
  d.bending_stiffness = -1.0;
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "bending_stiffness", ">= 0");
  d = cloth(s, BendingModel::kLaplaceBeltrami);  // one cell wide: every vertex on the boundary
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "bending 'laplace_beltrami'", "no interior vertex");
  d = cloth(s, BendingModel::kQuadratic);
  d.triangles = {0, 1, 5};
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "bending 'quadratic'", "no interior edge");
  d.triangles = {0, 1, 5, 0, 5, 4, 0, 6, 5};  // edge (0, 5) in three triangles
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "edge (0, 5)", "3 triangles", "manifold");
  d.triangles.clear();
  d.rest_positions[3 * 5 + 2] = 0.01;
  d.tets = {0, 1, 4, 5};
  EXPECT_SINEW_ERROR(LocalGlobalIntegrator(*backend, d), "bending 'quadratic'", "the description has none");
}

}  // namespace
}  // namespace sinew::integrators::integrators_local_global_bending_test
