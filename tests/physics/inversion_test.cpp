// Implicit Euler where the exact Newton matrix stops being positive definite: an inverted
// element recovers its orientation, and a compressed spring (negative transverse stiffness)
// makes the step switch to the projected stiffness and say so.
#include <gtest/gtest.h>

#include <Eigen/Geometry>

#include "sinew/integrators/make_integrator.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::physics_inversion_test {
namespace {

double signed_volume(const Eigen::VectorXd& q) {
  const Eigen::Vector3d a = q.segment<3>(0), b = q.segment<3>(3), c = q.segment<3>(6), d = q.segment<3>(9);
  return (b - a).dot((c - a).cross(d - a)) / 6.0;
}

TEST(Inversion, InvertedTetRecoversItsOrientation) {
  model::MechanicalSystem system;
  const double X[12] = {0, 0, 0, 1, 0, 0, 0, 1, 0, 0, 0, 1};
  for (int a = 0; a < 3; ++a)
    system.fix_particle(system.add_particle(1.0, Vec3{{X[3 * a], X[3 * a + 1], X[3 * a + 2]}}));
  system.add_particle(1e-3, Vec3{{0.2, 0.2, -0.5}});  // the apex pushed through the base: inverted
  auto field = std::make_shared<model::TetFemField>(MaterialModel::kStableNeoHookean, ElasticParameters{1e3, 0.45});
  field->add({0, 1, 2, 3}, make_tet_rest(X));
  system.add_force_field(field);
  integrators::State s{0.0, system.initial_positions(), system.initial_velocities()};
  ASSERT_LT(signed_volume(s.q), 0.0);
  auto integrator = integrators::make_integrator("implicit_euler");
  for (int k = 0; k < 10; ++k) {
    const integrators::StepReport r = integrator->step(system, s, 0.1);
    ASSERT_TRUE(r.ok()) << r.message;
  }
  EXPECT_NEAR(signed_volume(s.q), 1.0 / 6.0, 1e-3) << "back to (nearly) the rest shape";
  for (int d = 0; d < 9; ++d) EXPECT_EQ(s.q[d], X[d]) << "fixed vertices stay exactly put";
}

TEST(Inversion, IndefiniteNewtonMatrixSwitchesToProjectedStiffness) {
  // A light particle on a spring compressed to half its rest length: the transverse stiffness
  // T / l is negative, so M + h^2 K is indefinite and LDL^T rejects it.
  model::MechanicalSystem system;
  system.add_particle(1e-3, Vec3{{0.5, 0, 0}}, "bead", Vec3{{0, 0.1, 0}});
  auto springs = std::make_shared<model::AxialSpringField>();
  LinearAxialSpring spring;
  spring.stiffness = 1e3;
  spring.rest_length = 1.0;
  springs->add(model::world_point(Vec3{{0, 0, 0}}), model::particle_point(0), spring);
  system.add_force_field(springs);
  integrators::State s{0.0, system.initial_positions(), system.initial_velocities()};
  auto integrator = integrators::make_integrator("implicit_euler");
  const integrators::StepReport r = integrator->step(system, s, 0.1);
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_NE(r.message.find("projected stiffness"), std::string::npos) << r.message;
  EXPECT_NEAR(s.q.head<3>().norm(), 1.0, 1e-3) << "implicit Euler with a stiff spring lands near the rest length";
}

}  // namespace
}  // namespace sinew::physics_inversion_test
