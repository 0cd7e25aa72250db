// A stiff FEM block (E = 1e8 Pa, rho = 1000 kg/m^3, a 0.1 m cube of 6 tets, corotational) on the
// 10 degree incline of contact_incline_test.cpp (issue 6): particle contacts on its bottom
// vertices, the step matrix A = M + h^2 K + h D of the theta-method seed. Above mu* the block
// sticks (local slip of single vertices is bounded by the elastic deformation, ~rho g L^2 / E);
// below mu* its centre of mass slides with g (sin a - mu cos a).
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>

#include "contact_scenes.hpp"

namespace sinew::physics_contact_fem_incline_test {
namespace {

using contact_test::kGravity;
using contact_test::kPi;

const double kAngle = 10.0 * kPi / 180.0;
const double kMuStar = std::tan(kAngle);

struct FemRun {
  double displacement = 0, displacement_half = 0, speed_half = 0, speed_end = 0;
  contact_test::SolveStats stats;
  int newton_max = 0;
};

FemRun run_fem_incline(double mu, const std::string& solver, int steps, double h = 1e-3) {
  auto backend = make_backend("serial");
  contact_test::ContactScene s = scene::fem_incline_scene(kAngle, mu);
  const scene::DeformableBody& body = s.deformables[0];
  const double c = std::cos(kAngle), sn = std::sin(kAngle);
  integrators::ContactStep stepper(contact_test::make_contact_solver(solver, *backend));
  auto com_downhill = [&](bool velocity) {
    double sum = 0, mass = 0;
    for (Index i = 0; i < body.num_particles; ++i) {
      const Index p_index = body.first_particle + i;
      const Index o =
          velocity ? s.system->particle_velocity_offset(p_index) : s.system->particle_position_offset(p_index);
      const Eigen::VectorXd& z = velocity ? s.state.u : s.state.q;
      const double m = s.system->particle(p_index).mass;
      sum += m * (c * z[o] - sn * z[o + 2]);
      mass += m;
    }
    return sum / mass;
  };
  const double x0 = com_downhill(false);
  FemRun out;
  for (int k = 1; k <= steps; ++k) {
    const integrators::ContactStepReport r = stepper.step(*s.system, {s.contact.get()}, s.state, h);
    EXPECT_TRUE(r.ok()) << r.message;
    if (!r.ok()) break;
    out.stats.add(r);
    out.newton_max = std::max(out.newton_max, r.free_motion.iterations);
    if (k == steps / 2) out.speed_half = com_downhill(true), out.displacement_half = com_downhill(false) - x0;
  }
  out.speed_end = com_downhill(true);
  out.displacement = com_downhill(false) - x0;
  return out;
}

TEST(ContactFemIncline, StiffBlockSticksAboveAndSlidesBelowTheThreshold) {
  for (const char* solver : {"pgs", "newton_minmap"}) {
    SCOPED_TRACE(solver);
    const FemRun stick = run_fem_incline(kMuStar + 0.001, solver, 500);
    const double mu = kMuStar - 0.001;
    const double a_exact = kGravity * (std::sin(kAngle) - mu * std::cos(kAngle));
    const FemRun slip = run_fem_incline(mu, solver, 500);
    const double a = (slip.speed_end - slip.speed_half) / 0.25;
    std::printf(
        "FEM block (%s): stick mu* + 0.001: displacement after 0.25 s %.3e m, after 0.5 s %.3e m; slip mu* - 0.001: "
        "acceleration %.6e m/s^2 (analytic %.6e, relative error %.2e); contact iterations max %d, "
        "natural-map error max %.2e, unconverged %d; free-motion Newton iterations max %d\n",
        solver, stick.displacement_half, stick.displacement, a, a_exact, std::abs(a / a_exact - 1),
        std::max(stick.stats.max_iterations, slip.stats.max_iterations),
        std::max(stick.stats.max_error, slip.stats.max_error), stick.stats.unconverged + slip.stats.unconverged,
        std::max(stick.newton_max, slip.newton_max));
    // The elastic settling under the tangential load (shear and compression, ~rho g L^2 / E =
    // 1e-6 m) happens in the first steps; after it the block does not move.
    EXPECT_LT(std::abs(stick.displacement), 1e-5);
    EXPECT_LT(std::abs(stick.displacement - stick.displacement_half), 1e-9);
    EXPECT_LT(std::abs(stick.speed_end), 1e-8);
    EXPECT_NEAR(a, a_exact, 1e-3 * a_exact);
  }
}

}  // namespace
}  // namespace sinew::physics_contact_fem_incline_test
