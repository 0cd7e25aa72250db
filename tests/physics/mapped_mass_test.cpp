// Masses and springs on mapped points in time stepping: a tumbling body carrying a point mass at a
// marker (MappedMassField) moves as the same body with that mass in its inertia, under every
// integrator family; and a tet swinging on a spring from a barycentric point keeps its energy to
// second order with the trapezoidal rule.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/mapped_fields.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::physics_mapped_mass_test {
namespace {

const Vec3 kLocal{{0.4, -0.3, 0.25}};
constexpr double kPointMass = 0.7;

SpatialInertia body_inertia() {
  Mat3 J{};
  J(0, 0) = 1.0;
  J(1, 1) = 2.0;
  J(2, 2) = 3.0;
  J(0, 1) = J(1, 0) = 0.1;
  return make_spatial_inertia(2.0, Vec3{{0.1, -0.05, 0.2}}, J);
}

// The body's inertia with the point mass added by hand (parallel-axis theorem).
SpatialInertia grown_inertia() {
  const SpatialInertia I = body_inertia();
  const double M = I.mass + kPointMass;
  const Eigen::Vector3d c = (I.mass * to_eigen(I.com) + kPointMass * to_eigen(kLocal)) / M;
  auto shift = [&](double m, const Eigen::Vector3d& d) {
    return m * (d.squaredNorm() * Eigen::Matrix3d::Identity() - d * d.transpose());
  };
  return make_spatial_inertia(
      M, to_vec3(c),
      to_mat3(to_eigen(I.J) + shift(I.mass, to_eigen(I.com) - c) + shift(kPointMass, to_eigen(kLocal) - c)));
}

// A tumbling body under gravity whose marker hangs on a spring from a world point; the mass at
// the marker either mapped or in the inertia.
void build(model::MechanicalSystem& sys, bool mapped) {
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const double c = std::cos(0.3), s = std::sin(0.3);
  const Index b = sys.add_body(mapped ? body_inertia() : grown_inertia(), Vec3{{0.5, 0, 0}},
                               Quaternion{c, Vec3{{s / std::sqrt(2.0), 0, s / std::sqrt(2.0)}}}, "box",
                               Vec3{{0, 0.4, 0}}, Vec3{{0.3, -0.2, 2.0}});
  auto spring = std::make_shared<model::AxialSpringField>();
  spring->add(model::body_point(b, Vec3{{0, 0, 0.3}}), model::world_point(Vec3{{0.5, 0, 1.0}}),
              LinearAxialSpring{200.0, 0.0, 0.5});
  sys.add_force_field(spring);
  if (mapped) {
    auto points =
        std::make_shared<model::MappedPoints>(sys, std::vector<model::MappedPoint>{model::rigid_point(b, kLocal)});
    sys.add_force_field(std::make_shared<model::MappedMassField>(points, std::vector<double>{kPointMass}));
  }
}

TEST(MappedMass, AMarkerMassMovesAsTheGrownBodyUnderEveryIntegrator) {
  for (const char* name : {"symplectic_euler", "implicit_euler", "trapezoidal", "theta_midpoint", "bridson_marino"}) {
    SCOPED_TRACE(name);
    model::MechanicalSystem mapped, grown;
    build(mapped, true);
    build(grown, false);
    auto ia = integrators::make_integrator(name), ib = integrators::make_integrator(name);
    integrators::State a{0.0, mapped.initial_positions(), mapped.initial_velocities()};
    integrators::State b{0.0, grown.initial_positions(), grown.initial_velocities()};
    double worst = 0.0;
    for (int k = 0; k < 300; ++k) {
      ASSERT_TRUE(ia->step(mapped, a, 2e-3).ok()) << k;
      ASSERT_TRUE(ib->step(grown, b, 2e-3).ok()) << k;
      worst = std::max({worst, (a.q - b.q).cwiseAbs().maxCoeff(), (a.u - b.u).cwiseAbs().maxCoeff()});
    }
    std::printf("marker mass vs grown body, %s, 300 steps of 2 ms: max |state difference| %.2e\n", name, worst);
    EXPECT_LT(worst, 1e-12);
    EXPECT_GT((a.q - mapped.initial_positions()).norm(), 0.1);  // it did move
  }
}

// A Neo-Hookean tet hangs from a world point by a spring attached at its centroid (a barycentric
// point) and carries a mapped mass there; the trapezoidal rule keeps its energy to second order.
double energy_drift(double h) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const double X[4][3] = {{0, 0, 0}, {0.2, 0, 0}, {0, 0.2, 0}, {0, 0, 0.2}};
  Index p[4];
  for (int i = 0; i < 4; ++i) p[i] = sys.add_particle(0.05, Vec3{{X[i][0], X[i][1], X[i][2]}}, "", Vec3{{0.3, 0, 0}});
  auto tet = std::make_shared<model::TetFemField>(MaterialModel::kStableNeoHookean, ElasticParameters{2e4, 0.3});
  tet->add(sys, {p[0], p[1], p[2], p[3]});
  sys.add_force_field(tet);
  auto points = std::make_shared<model::MappedPoints>(
      sys,
      std::vector<model::MappedPoint>{model::barycentric_point({p[0], p[1], p[2], p[3]}, {0.25, 0.25, 0.25, 0.25})},
      "centroid");
  sys.add_force_field(std::make_shared<model::MappedMassField>(points, std::vector<double>{0.3}));
  auto spring = std::make_shared<model::AxialSpringField>();
  spring->add(model::particle_point(0), model::world_point(Vec3{{0.3, 0.1, 0.6}}), LinearAxialSpring{80.0, 0.0, 0.3});
  sys.add_force_field(std::make_shared<model::MappedForceField>(points, spring));
  auto integrator = integrators::make_integrator("trapezoidal");
  integrators::State s{0.0, sys.initial_positions(), sys.initial_velocities()};
  auto energy = [&] {
    CsrMatrix M;
    sys.mass_matrix(s.t, s.q, M);
    return 0.5 * s.u.dot(to_eigen(M) * s.u) + sys.potential_energy(s.t, s.q);
  };
  const double e0 = energy();
  double drift = 0.0;
  const int steps = static_cast<int>(std::lround(0.5 / h));
  for (int k = 0; k < steps; ++k) {
    EXPECT_TRUE(integrator->step(sys, s, h).ok()) << k;
    drift = std::max(drift, std::abs(energy() - e0));
  }
  return drift / std::abs(e0);
}

TEST(MappedMass, ASpringOnABarycentricPointConservesEnergyToSecondOrder) {
  const double coarse = energy_drift(2e-3), fine = energy_drift(1e-3);
  std::printf("tet on a centroid spring, trapezoidal: energy drift %.2e (h = 2 ms), %.2e (1 ms)\n", coarse, fine);
  EXPECT_NEAR(std::log2(coarse / fine), 2.0, 0.3);
  EXPECT_LT(fine, 1e-4);
}

}  // namespace
}  // namespace sinew::physics_mapped_mass_test
