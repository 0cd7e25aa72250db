// The patch test: a block of tetrahedra whose boundary nodes follow an affine map x = F X + c
// must, at equilibrium, carry every interior node to the same affine map (a homogeneous
// deformation has constant stress, so each interior node's forces cancel), for every model.
#include <gtest/gtest.h>

#include <random>

#include "sinew/model/fem_fields.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "statics.hpp"

namespace sinew::physics_patch_test {
namespace {

TEST(PatchTest, InteriorNodesFollowAHomogeneousDeformation) {
  const scene::TetMesh mesh = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 3, 3, 3);
  Eigen::Matrix3d F;
  F << 1.10, 0.08, -0.05, 0.03, 0.95, 0.10, -0.04, 0.02, 1.05;  // stretch, shear, no inversion
  const Eigen::Vector3d c(0.3, -0.2, 0.1);
  auto affine = [&](const Vec3& X) {
    const Eigen::Vector3d x = F * Eigen::Vector3d(X[0], X[1], X[2]) + c;
    return Vec3{{x[0], x[1], x[2]}};
  };
  auto on_boundary = [](const Vec3& X) {
    for (int d = 0; d < 3; ++d)
      if (X[d] == 0.0 || X[d] == 1.0) return true;
    return false;
  };
  for (MaterialModel model : {MaterialModel::kLinear, MaterialModel::kCorotational, MaterialModel::kArap,
                              MaterialModel::kStVenantKirchhoff, MaterialModel::kStableNeoHookean}) {
    SCOPED_TRACE(material_model_name(model));
    model::MechanicalSystem system;
    std::mt19937_64 rng(3);
    std::uniform_real_distribution<double> jitter(-0.03, 0.03);
    int interior = 0;
    for (const Vec3& X : mesh.vertices) {
      Vec3 x = affine(X);
      if (!on_boundary(X)) {
        for (int d = 0; d < 3; ++d) x[d] += jitter(rng);  // start away from the answer
        ++interior;
      }
      const Index i = system.add_particle(1.0, x);
      if (on_boundary(X)) system.fix_particle(i);
    }
    ASSERT_EQ(interior, 8);
    auto field = std::make_shared<model::TetFemField>(model, ElasticParameters{1e6, 0.3});
    for (const auto& t : mesh.tets) {
      double X[12];
      for (int a = 0; a < 4; ++a)
        for (int d = 0; d < 3; ++d) X[3 * a + d] = mesh.vertices[t[a]][d];
      field->add(t, make_tet_rest(X));  // rest shape: the undeformed box
    }
    system.add_force_field(field);
    const test::Statics s = test::solve_statics(system, system.initial_positions(), 1e-12);
    EXPECT_LE(s.iterations, 10) << "Newton from a 3% perturbation";
    for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
      const Vec3 want = affine(mesh.vertices[i]);
      const Index o = system.particle_position_offset(static_cast<Index>(i));
      for (int d = 0; d < 3; ++d) EXPECT_NEAR(s.q[o + d], want[d], 1e-9) << "node " << i << " coordinate " << d;
    }
  }
}

}  // namespace
}  // namespace sinew::physics_patch_test
