#include "sinew/scene/deformable_body.hpp"

#include <gtest/gtest.h>

#include "expect_error.hpp"

namespace sinew::scene::scene_deformable_body_test {
namespace {

TEST(DeformableBody, LumpedMassesSumToTheBodyMass) {
  model::MechanicalSystem system;
  system.add_particle(1.0, Vec3{{5, 5, 5}});  // an existing particle: the body's indices start after it
  const TetMesh mesh = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{2, 1, 0.5}}, 4, 2, 2);
  const DeformableBody body =
      add_deformable_body(system, mesh, 800.0, MaterialModel::kStableNeoHookean, ElasticParameters{1e6, 0.4});
  EXPECT_EQ(body.first_particle, 1);
  EXPECT_EQ(body.num_particles, static_cast<Index>(mesh.vertices.size()));
  EXPECT_EQ(body.field->size(), static_cast<Index>(mesh.tets.size()));
  double total = 0.0;
  for (Index i = 0; i < body.num_particles; ++i) total += system.particle(body.first_particle + i).mass;
  EXPECT_NEAR(total, 800.0 * 2 * 1 * 0.5, 1e-9);
  // At rest the elastic forces vanish: the rest shape is the mesh.
  Eigen::VectorXd f;
  system.forces(0.0, system.initial_positions(), system.initial_velocities(), model::ForcePart::kAll, f);
  EXPECT_LT(f.norm(), 1e-9);
}

TEST(DeformableBody, BadInputAddsNothing) {
  model::MechanicalSystem system;
  TetMesh mesh = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 1, 1, 1);
  EXPECT_SINEW_ERROR(add_deformable_body(system, mesh, 0.0, MaterialModel::kLinear, {1e5, 0.3}), "density");
  EXPECT_SINEW_ERROR(add_deformable_body(system, mesh, 1.0, MaterialModel::kLinear, {1e5, 0.5}), "0.5");
  TetMesh orphan = mesh;
  orphan.vertices.push_back(Vec3{{9, 9, 9}});
  EXPECT_SINEW_ERROR(add_deformable_body(system, orphan, 1.0, MaterialModel::kLinear, {1e5, 0.3}), "vertex 8",
                     "no tetrahedron");
  TetMesh flipped = mesh;
  std::swap(flipped.tets[2][0], flipped.tets[2][1]);
  EXPECT_SINEW_ERROR(add_deformable_body(system, flipped, 1.0, MaterialModel::kLinear, {1e5, 0.3}), "tetrahedron 2");
  EXPECT_EQ(system.num_particles(), 0) << "a failed call must leave the system as it was";
}

}  // namespace
}  // namespace sinew::scene::scene_deformable_body_test
