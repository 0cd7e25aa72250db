// Multi-point springs with passive segments (ArtiSynth notes 0.14): every segment carries the
// tension F, which depends on the active length only; K and D agree with finite differences and
// the spring has no energy.
#include <gtest/gtest.h>

#include "expect_error.hpp"
#include "model_test_support.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::model::model_multi_point_spring_field_test {
namespace {

using test::dense;
using test::matrices_agree;

TEST(MultiPointSpringField, PassiveSegmentsCarryTheTensionButNotTheLength) {
  MechanicalSystem sys;
  const Index a = sys.add_particle(1.0, Vec3{{0, 0, 0}});
  const Index b = sys.add_body(make_spatial_inertia(2.0, Vec3{{0.1, 0, 0}}, Mat3{{1, 0, 0, 0, 1, 0, 0, 0, 1}}),
                               Vec3{{1, 0.2, 0}}, quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.4), "pulley");
  const Index c = sys.add_particle(1.0, Vec3{{2, -0.3, 0.5}});
  const Index d = sys.add_particle(1.0, Vec3{{3, 0.1, 0.2}});
  auto field = std::make_shared<MultiPointSpringField>();
  const Index k =
      field->add({particle_point(a), body_point(b, Vec3{{0, 0.1, 0}}), particle_point(c), particle_point(d)},
                 LinearAxialSpring{50.0, 0.7, 1.5});
  field->set_active_segments(k, {true, true, false});  // c-d: an inextensible tendon part
  sys.add_force_field(field);
  const Eigen::VectorXd q = sys.initial_positions();
  Eigen::VectorXd u = Eigen::VectorXd::LinSpaced(sys.num_velocities(), -0.5, 0.7);
  Eigen::VectorXd f;
  sys.forces(0.0, q, Eigen::VectorXd::Zero(sys.num_velocities()), ForcePart::kElastic, f);
  // At rest F = k (L_active - L0): the end point d is pulled towards c with exactly F.
  const Vec3 pc = sys.particle(c).position, pd = sys.particle(d).position;
  const Eigen::Vector3d cd(pc[0] - pd[0], pc[1] - pd[1], pc[2] - pd[2]);
  Eigen::Vector3d pulley_point;  // b's marker, world
  {
    const RigidBody& B = sys.body(b);
    const Vec3 r = rotate(B.orientation, Vec3{{0, 0.1, 0}});
    pulley_point << B.position[0] + r[0], B.position[1] + r[1], B.position[2] + r[2];
  }
  const Eigen::Vector3d pa(0, 0, 0), pcv(pc[0], pc[1], pc[2]);
  const double L_active = (pulley_point - pa).norm() + (pcv - pulley_point).norm();
  const double F = 50.0 * (L_active - 1.5);
  EXPECT_NEAR((f.segment<3>(sys.particle_velocity_offset(d)) - F * cd.normalized()).norm(), 0.0, 1e-12 * std::abs(F));
  EXPECT_FALSE(field->is_conservative());
  CsrMatrix K, D;
  sys.stiffness(0.0, q, u, false, K);
  sys.damping(0.0, q, u, D);
  EXPECT_TRUE(matrices_agree(test::fd_stiffness(sys, 0.0, q, u), dense(K), 1e-6, "K"));
  EXPECT_TRUE(matrices_agree(test::fd_damping(sys, 0.0, q, u), dense(D), 1e-6, "D"));
}

TEST(MultiPointSpringField, ActiveFlagsAreChecked) {
  MultiPointSpringField field;
  const Index k = field.add({world_point(Vec3{{0, 0, 0}}), world_point(Vec3{{1, 0, 0}})}, LinearAxialSpring{});
  EXPECT_SINEW_ERROR(field.set_active_segments(k, {true, false}), "1 segments, got 2 flags");
  EXPECT_SINEW_ERROR(field.set_active_segments(3, {true}), "no spring 3");
}

}  // namespace
}  // namespace sinew::model::model_multi_point_spring_field_test
