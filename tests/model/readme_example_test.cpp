// The attachment example of docs/lib_model.md, compiled and checked: a particle riding on a body.
#include <gtest/gtest.h>

#include <memory>

#include "sinew/model/reduced_system.hpp"
#include "sinew/model/spring_fields.hpp"

namespace {

TEST(ModelReadme, ParticleRidesOnTheArm) {
  using namespace sinew;
  using namespace sinew::model;
  MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -9.81}});
  const Index arm =
      sys.add_body(make_spatial_inertia(1.0, Vec3{{0.2, 0, 0}}, identity3()), Vec3{{0, 0, 0}}, quat_identity(), "arm");
  const Index tip = sys.add_particle(0.1, Vec3{{0.5, 0, 0}}, "tip");
  auto springs = std::make_shared<AxialSpringField>();
  springs->add(body_point(arm, Vec3{{0.4, 0, 0}}), world_point(Vec3{{0.4, 0, 1}}), LinearAxialSpring{100.0, 1.0, 0.5});
  sys.add_force_field(springs);
  ReducedSystem reduced(sys);  // the tip rides on the arm
  reduced.attach_particle_to_body(tip, arm);
  reduced.finalize();  // velocities: the arm's 6
  EXPECT_EQ(reduced.num_velocities(), 6);
  // The tip's weight acts on the arm: total vertical force -9.81 (1 + 0.1) + spring 100 (1 - 0.5).
  Eigen::VectorXd f;
  reduced.forces(0.0, sys.initial_positions(), Eigen::VectorXd::Zero(6), ForcePart::kAll, f);
  EXPECT_NEAR(f[2], -9.81 * 1.1 + 50.0, 1e-12);
  // Its torque about the arm origin: y component -(0.2 * 1 + 0.5 * 0.1) * (-9.81) ... = r x f.
  EXPECT_NEAR(f[4], 9.81 * (0.2 * 1.0 + 0.5 * 0.1) - 0.4 * 50.0, 1e-12);
}

}  // namespace
