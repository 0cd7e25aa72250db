// Self-contact of one FEM body (issue 21; ContactConstraint::add_surface with self-contact,
// vertex_triangle_contacts.hpp): a soft C-shaped block on the floor whose upper arm sags under
// gravity onto its lower arm. With self-contact the arm comes to rest on the other (its inner face
// stays above the lower arm's, and the floor then carries the whole weight); without it the arm
// sinks into the lower one, which the same check catches.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <map>

#include "contact_scenes.hpp"
#include "quick_tests.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/scene/contact_surface.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::physics_self_contact_test {
namespace {

constexpr double kG = 9.81, kH = 0.005;

// The block [0, 0.2] x [0, 0.05] x [0, 0.1] with the slot x > 0.05, 0.04 < z < 0.06 cut out:
// two arms 2 cm apart joined at x < 0.05 (vertices renumbered in order).
scene::TetMesh c_shape() {
  const scene::TetMesh box = scene::box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{0.2, 0.05, 0.1}}, 8, 2, 5);
  scene::TetMesh out;
  std::map<Index, Index> renumber;
  for (const auto& t : box.tets) {
    Vec3 c{{0, 0, 0}};
    for (Index v : t) c = c + 0.25 * box.vertices[static_cast<std::size_t>(v)];
    if (c[0] > 0.05 && c[2] > 0.04 && c[2] < 0.06) continue;
    std::array<Index, 4> kept{};
    for (int k = 0; k < 4; ++k) kept[k] = renumber.emplace(t[k], 0).first->first;
    out.tets.push_back(kept);
  }
  Index next = 0;
  for (auto& [old, fresh] : renumber) {
    fresh = next++;
    out.vertices.push_back(box.vertices[static_cast<std::size_t>(old)]);
  }
  for (auto& t : out.tets)
    for (Index& v : t) v = renumber[v];
  return out;
}

// Steps the C on the floor for 1 s; returns the deepest sinking of the upper arm's inner face into
// the lower arm's top face (negative: crossed).
double sag(bool self_contact) {
  model::MechanicalSystem sys;
  sys.set_gravity(Vec3{{0, 0, -kG}});
  const scene::TetMesh mesh = c_shape();
  const scene::DeformableBody c =
      scene::add_deformable_body(sys, mesh, 1000.0, MaterialModel::kStableNeoHookean, ElasticParameters{5e4, 0.3});
  constraints::ContactConstraint contact;
  const Obstacle floor = half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}});
  contact.add_obstacle(floor.shape, floor.pose);
  contact.add_particles(c.first_particle, c.num_particles);
  scene::add_surface(contact, scene::particle_surface(sys, c.first_particle, scene::boundary_triangles(mesh), "c"), 0,
                     self_contact);
  auto backend = make_backend("serial");
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_fb", *backend, 1e-10));
  integrators::State state{0.0, sys.initial_positions(), sys.initial_velocities()};
  Index self_contacts = 0;
  for (int k = 0; k < 200; ++k) {
    const integrators::ContactStepReport r = stepper.step(sys, {&contact}, state, kH);
    EXPECT_TRUE(r.ok()) << "step " << k << ": " << r.message;
    if (!r.ok()) return -1e300;
    self_contacts = std::max(self_contacts, r.contacts);
  }
  // The upper arm's inner-face vertices against the lower arm's top face (its current triangles,
  // seen from above): the height of each vertex over the triangle under it.
  const scene::TriangleMesh boundary = scene::boundary_triangles(mesh);
  auto at = [&](Index v) {
    const Index o = sys.particle_position_offset(c.first_particle + v);
    return Vec3{{state.q[o], state.q[o + 1], state.q[o + 2]}};
  };
  double deepest = 1e300;
  for (std::size_t i = 0; i < mesh.vertices.size(); ++i) {
    const Vec3& rest = mesh.vertices[i];
    if (!(rest[0] > 0.06 && std::abs(rest[2] - 0.06) < 1e-12)) continue;
    const Vec3 p = at(static_cast<Index>(i));
    for (const auto& t : boundary.triangles) {
      bool top = true;
      for (Index v : t) top = top && std::abs(mesh.vertices[static_cast<std::size_t>(v)][2] - 0.04) < 1e-12;
      if (!top) continue;
      const Vec3 a = at(t[0]), b = at(t[1]), d = at(t[2]);
      // Barycentric coordinates of p's projection in the xy plane.
      const double det = (b[0] - a[0]) * (d[1] - a[1]) - (d[0] - a[0]) * (b[1] - a[1]);
      const double u = ((p[0] - a[0]) * (d[1] - a[1]) - (d[0] - a[0]) * (p[1] - a[1])) / det;
      const double w = ((b[0] - a[0]) * (p[1] - a[1]) - (p[0] - a[0]) * (b[1] - a[1])) / det;
      if (u < 0 || w < 0 || u + w > 1) continue;
      deepest = std::min(deepest, p[2] - (a[2] + u * (b[2] - a[2]) + w * (d[2] - a[2])));
    }
  }
  std::printf(
      "C-shaped block, self-contact %s: the upper arm's inner face %.2e m from the lower arm's at the deepest "
      "(most contacts in a step: %ld)\n",
      self_contact ? "on" : "off", deepest, static_cast<long>(self_contacts));
  return deepest;
}

TEST(SelfContact, ASaggingArmRestsOnTheOtherArmOfTheSameBody) {
  if (test::quick_tests()) GTEST_SKIP() << "SINEW_QUICK_TESTS: 400 steps of an FEM body";
  const double with = sag(true), without = sag(false);
  EXPECT_GT(with, -1e-4) << "the arms' faces must not cross with self-contact";
  EXPECT_LT(with, 0.005) << "the arm sags onto the other (2 cm apart at rest shape)";
  EXPECT_LT(without, -0.005) << "without self-contact the arm sinks in: the check can fail";
}

}  // namespace
}  // namespace sinew::physics_self_contact_test
