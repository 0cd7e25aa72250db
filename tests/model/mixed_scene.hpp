// A mixed test scene: particles, rigid bodies with offset centres of mass, gravity, linear and
// nonlinear axial springs (particle-particle, marker-particle, marker-marker, marker-world), a
// multi-point spring through a body marker, frame springs (body-body, body-world), corotational
// tetrahedra, membranes, a bending hinge and Rayleigh damping.
#pragma once

#include <memory>
#include <random>

#include "model_test_support.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/frame_spring_field.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_load_field.hpp"
#include "sinew/model/rayleigh_damping_field.hpp"
#include "sinew/model/spring_fields.hpp"

namespace sinew::test {

/// Inertia of a box-like body with an offset centre of mass and a full (non-diagonal) J.
inline SpatialInertia test_inertia(double m, const Vec3& com) {
  const Mat3 J{{0.30, 0.02, -0.01, 0.02, 0.25, 0.03, -0.01, 0.03, 0.20}};
  return make_spatial_inertia(m, com, J);
}

/// Indices of the mixed scene.
struct MixedScene {
  Index b0, b1, b2;  // bodies
  Index t[5];        // tetrahedron nodes (two tets sharing a face)
  Index m[4];        // membrane / hinge nodes
};

/// Builds the scene into @p sys; with @p nonlinear_law, one spring uses a general F(l, ldot)
/// (then the system has no potential).
inline MixedScene build_mixed_scene(model::MechanicalSystem& sys, bool nonlinear_law, bool damping = true) {
  using namespace sinew::model;
  MixedScene s{};
  sys.set_gravity(Vec3{{0.0, -1.0, -9.81}});
  s.b0 = sys.add_body(test_inertia(2.0, Vec3{{0.1, -0.05, 0.2}}), Vec3{{0, 0, 0}},
                      quat_from_axis_angle(Vec3{{0, 0, 1}}, 0.3), "b0");
  s.b1 = sys.add_body(test_inertia(1.5, Vec3{{-0.1, 0.1, 0.0}}), Vec3{{1.0, 0.2, 0.1}},
                      quat_from_axis_angle(Vec3{{0.6, 0.8, 0}}, 0.7), "b1");
  s.b2 = sys.add_body(test_inertia(1.0, Vec3{{0.0, 0.0, 0.15}}), Vec3{{-1.0, 0.5, 0.3}},
                      quat_from_axis_angle(Vec3{{0, 1, 0}}, -0.4), "b2");
  const double X[5][3] = {{0, 0, 1}, {1, 0, 1}, {0, 1, 1}, {0, 0, 2}, {1, 1, 2}};
  for (int i = 0; i < 5; ++i) s.t[i] = sys.add_particle(0.1 + 0.05 * i, Vec3{{X[i][0], X[i][1], X[i][2]}});
  const double Y[4][3] = {{2, 0, 0}, {3, 0, 0}, {2.5, 0.8, 0}, {2.4, -0.9, 0}};
  for (int i = 0; i < 4; ++i) s.m[i] = sys.add_particle(0.2, Vec3{{Y[i][0], Y[i][1], Y[i][2]}});

  const double dmp = damping ? 1.0 : 0.0;
  auto springs = std::make_shared<AxialSpringField>();
  springs->add(particle_point(s.t[0]), particle_point(s.t[1]), LinearAxialSpring{50.0, 0.7 * dmp, 0.8});
  springs->add(body_point(s.b0, Vec3{{0.2, 0.1, -0.1}}), body_point(s.b1, Vec3{{-0.1, 0.3, 0.2}}),
               LinearAxialSpring{30.0, 0.5 * dmp, 0.5});
  springs->add(body_point(s.b1, Vec3{{0.1, 0.0, 0.3}}), world_point(Vec3{{1.5, 1.0, 1.0}}),
               LinearAxialSpring{20.0, 0.3 * dmp, 0.2});
  if (nonlinear_law) {
    springs->add(body_point(s.b0, Vec3{{-0.2, 0.3, 0.1}}), particle_point(s.m[0]), [dmp](double l, double ld) {
      const double e = l - 1.5;  // cubic hardening with length-dependent damping
      return AxialTension{40 * e + 15 * e * e * e + dmp * 0.4 * ld * l, 40 + 45 * e * e + dmp * 0.4 * ld,
                          dmp * 0.4 * l};
    });
  } else {
    springs->add(body_point(s.b0, Vec3{{-0.2, 0.3, 0.1}}), particle_point(s.m[0]),
                 LinearAxialSpring{40.0, 0.4 * dmp, 1.5});
  }
  sys.add_force_field(springs);

  auto cables = std::make_shared<MultiPointSpringField>();
  cables->add({particle_point(s.t[2]), body_point(s.b1, Vec3{{0.0, 0.2, -0.1}}), particle_point(s.m[2])},
              LinearAxialSpring{25.0, 0.6 * dmp, 2.0});
  sys.add_force_field(cables);

  auto frames = std::make_shared<FrameSpringField>();
  FrameSpring fs;
  fs.translational_stiffness = 60.0;
  fs.rotational_stiffness = 8.0;
  fs.translational_damping = 0.8 * dmp;
  fs.rotational_damping = 0.3 * dmp;
  fs.R_1A = rotation_matrix(quat_from_axis_angle(Vec3{{1, 0, 0}}, 0.2));
  fs.p1 = Vec3{{0.3, 0.0, 0.1}};
  fs.R_2B = rotation_matrix(quat_from_axis_angle(Vec3{{0, 0, 1}}, -0.5));
  fs.p2 = Vec3{{-0.2, 0.1, 0.0}};
  frames->add(s.b0, s.b1, fs);
  FrameSpring fw = fs;
  fw.p2 = Vec3{{-1.1, 0.4, 0.2}};  // world frame pose
  frames->add(s.b2, FrameSpringField::kWorldFrame, fw);
  sys.add_force_field(frames);

  auto tets = std::make_shared<TetFemField>(MaterialModel::kCorotational, ElasticParameters{2e3, 0.3});
  tets->add(sys, {s.t[0], s.t[1], s.t[2], s.t[3]});
  tets->add(sys, {s.t[1], s.t[2], s.t[3], s.t[4]});
  sys.add_force_field(tets);
  auto linear_tets = std::make_shared<TetFemField>(MaterialModel::kLinear, ElasticParameters{5e2, 0.25});
  linear_tets->add(sys, {s.t[0], s.t[1], s.t[2], s.t[3]});
  sys.add_force_field(linear_tets);

  auto membranes = std::make_shared<MembraneField>(MaterialModel::kStVenantKirchhoff, ElasticParameters{1e3, 0.3});
  membranes->add(sys, {s.m[0], s.m[1], s.m[2]});
  membranes->add(sys, {s.m[1], s.m[0], s.m[3]});
  sys.add_force_field(membranes);
  auto bending = std::make_shared<BendingField>();
  bending->add(sys, {s.m[0], s.m[1], s.m[2], s.m[3]}, 3.0);
  sys.add_force_field(bending);

  auto loads = std::make_shared<PointLoadField>();
  loads->add(body_point(s.b2, Vec3{{0.3, -0.2, 0.4}}), Vec3{{2.0, -1.0, 3.0}});
  loads->add(particle_point(s.t[4]), Vec3{{0.5, 0.5, -1.0}});
  sys.add_force_field(loads);

  if (damping)
    sys.add_force_field(std::make_shared<RayleighDampingField>(
        sys, RayleighDamping{0.3, 0.02}, std::vector<std::shared_ptr<const ForceField>>{linear_tets}));
  return s;
}

/// A random state near the initial one: particles moved by up to 0.1, bodies moved and turned,
/// velocities of order one.
inline void random_state(const model::MechanicalSystem& sys, std::mt19937& rng, Eigen::VectorXd& q,
                         Eigen::VectorXd& u) {
  const Eigen::VectorXd q0 = sys.initial_positions();
  Eigen::VectorXd step = random_vector(rng, sys.num_velocities(), 0.1);
  sys.advance_positions(q0, step, 1.0, q);
  u = random_vector(rng, sys.num_velocities(), 1.0);
}

}  // namespace sinew::test
