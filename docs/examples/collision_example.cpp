// A contact set between shapes: a ball sinking into the ground, a box resting on it, and the
// vertices of a small mesh against both. Each contact has a gap, a frame (normal from B to A
// and two tangents) and the obstacle's velocity; its Jacobian rows H map vertex velocities to
// the normal and tangential relative velocities.
#include <array>
#include <cmath>
#include <cstdio>
#include <vector>

#include "sinew/collision/contact_set.hpp"
#include "sinew/collision/narrow_phase.hpp"

int main() {
  const sinew::Motion still{sinew::Vec3{{0, 0, 0}}, sinew::Vec3{{0, 0, 0}}};
  auto placed = [](double x, double y, double z) { return sinew::Pose{sinew::identity3(), sinew::Vec3{{x, y, z}}}; };

  // Shapes in their local frames; the ground is the half-space z <= 0, and moves sideways at
  // 1 m/s (a conveyor belt), which the contacts report as the obstacle velocity.
  sinew::ShapeInstance ball{1, {sinew::ShapeType::kSphere, {0.5, 0, 0}}, placed(0, 0, 0.45), still};
  sinew::ShapeInstance box{2, {sinew::ShapeType::kBox, {0.2, 0.2, 0.2}}, placed(2, 0, 0.199), still};
  sinew::ShapeInstance ground{0, {sinew::ShapeType::kHalfSpace, {0, 0, 0}}, placed(0, 0, 0), still};
  ground.motion.linear = sinew::Vec3{{1, 0, 0}};

  const double margin = 0.01;  // contacts are reported for gaps up to the margin
  auto narrow = sinew::make_narrow_phase();
  sinew::ContactSet contacts;
  // Pairs (i < j) of the list: A = shapes[i], B = shapes[j]. The ground last, so normals point up.
  narrow->shape_shape_contacts({ball, box, ground}, margin, contacts);
  const sinew::Index shape_contacts = contacts.size();

  // Three vertices of a mesh (a point cloud: no triangles) against the ground: one below,
  // one within the margin, one far above (no contact).
  const std::vector<sinew::Vec3> vertices = {{{-1, 0, -0.02}}, {{-1, 1, 0.005}}, {{-1, 2, 0.5}}};
  const std::vector<std::array<sinew::Index, 3>> no_triangles;
  narrow->point_shape_contacts(sinew::MeshInstance{7, &vertices, &no_triangles}, {ground}, margin, contacts);

  bool ok = true;
  for (sinew::Index i = 0; i < contacts.size(); ++i) {
    const sinew::Contact c = contacts.at(i);
    std::printf("contact %d: A=%d B=%d gap=%+.4f normal=(%g %g %g) obstacle velocity x=%g\n", int(i), int(c.object_a),
                int(c.object_b), c.gap, c.frame.normal[0], c.frame.normal[1], c.frame.normal[2],
                c.obstacle_velocity[0]);
    ok = ok && std::abs(c.frame.normal[2] - 1.0) < 1e-12 && c.object_b == 0 && c.obstacle_velocity[0] == 1.0;
  }
  // Ball: gap 0.45 - 0.5; box: 0.199 - 0.2 (it may report one contact per touching corner).
  ok = ok && shape_contacts >= 2 && std::abs(contacts.at(0).gap + 0.05) < 1e-12;
  ok = ok && contacts.size() == shape_contacts + 2;

  // Jacobian rows of the vertex contacts (3 rows per contact: normal, tangent1, tangent2).
  sinew::ContactSet vertex_contacts;
  narrow->point_shape_contacts(sinew::MeshInstance{7, &vertices, &no_triangles}, {ground}, margin, vertex_contacts);
  const std::vector<sinew::JacobianEntry> H = sinew::contact_jacobian(vertex_contacts, 3);
  for (const sinew::JacobianEntry& e : H)
    if (e.row % 3 == 0) ok = ok && e.col % 3 == 2 ? std::abs(e.value - 1.0) < 1e-12 : std::abs(e.value) < 1e-12;
  std::printf("%d contacts; H of the vertex contacts has %zu entries\n", int(contacts.size()), H.size());
  return ok ? 0 : 1;
}
