#include "sinew/collision/contact_set.hpp"

#include <string>

#include "sinew/core/error.hpp"

namespace sinew {
namespace {
void push3(std::vector<double>& a, const Vec3& v) { a.insert(a.end(), {v[0], v[1], v[2]}); }
Vec3 read3(const std::vector<double>& a, Index i) { return v3::make(a[3 * i], a[3 * i + 1], a[3 * i + 2]); }
}  // namespace

void ContactSet::clear() {
  for (auto* a : {&weights, &point_a, &point_b, &local_a, &local_b, &gap, &frame, &obstacle_velocity}) a->clear();
  kind.clear();
  object_a.clear();
  object_b.clear();
  vertices.clear();
}

void ContactSet::reserve(Index n) {
  kind.reserve(n);
  object_a.reserve(n);
  object_b.reserve(n);
  vertices.reserve(4 * n);
  weights.reserve(4 * n);
  point_a.reserve(3 * n);
  point_b.reserve(3 * n);
  local_a.reserve(3 * n);
  local_b.reserve(3 * n);
  gap.reserve(n);
  frame.reserve(9 * n);
  obstacle_velocity.reserve(3 * n);
}

void ContactSet::push_back(const Contact& c) {
  kind.push_back(static_cast<int>(c.kind));
  object_a.push_back(c.object_a);
  object_b.push_back(c.object_b);
  vertices.insert(vertices.end(), c.vertices, c.vertices + 4);
  weights.insert(weights.end(), c.weights, c.weights + 4);
  push3(point_a, c.point_a);
  push3(point_b, c.point_b);
  push3(local_a, c.local_a);
  push3(local_b, c.local_b);
  gap.push_back(c.gap);
  push3(frame, c.frame.normal);
  push3(frame, c.frame.tangent1);
  push3(frame, c.frame.tangent2);
  push3(obstacle_velocity, c.obstacle_velocity);
}

Contact ContactSet::at(Index i) const {
  require(i >= 0 && i < size(), [&] {
    return "ContactSet::at: contact " + std::to_string(i) + " out of range [0, " + std::to_string(size()) + ")";
  });
  Contact c;
  c.kind = static_cast<ContactKind>(kind[i]);
  c.object_a = object_a[i];
  c.object_b = object_b[i];
  for (int k = 0; k < 4; ++k) {
    c.vertices[k] = vertices[4 * i + k];
    c.weights[k] = weights[4 * i + k];
  }
  c.point_a = read3(point_a, i);
  c.point_b = read3(point_b, i);
  c.local_a = read3(local_a, i);
  c.local_b = read3(local_b, i);
  c.gap = gap[i];
  c.frame.normal = read3(frame, 3 * i);
  c.frame.tangent1 = read3(frame, 3 * i + 1);
  c.frame.tangent2 = read3(frame, 3 * i + 2);
  c.obstacle_velocity = read3(obstacle_velocity, i);
  return c;
}

std::vector<JacobianEntry> contact_jacobian(const ContactSet& contacts, Index n_vertices) {
  std::vector<JacobianEntry> h;
  h.reserve(static_cast<size_t>(contacts.size()) * 3 * 4 * 3);
  for (Index i = 0; i < contacts.size(); ++i) {
    for (int r = 0; r < 3; ++r) {
      const double* c = &contacts.frame[9 * i + 3 * r];
      for (int k = 0; k < 4; ++k) {
        const Index v = contacts.vertices[4 * i + k];
        if (v < 0) continue;
        if (!(v < n_vertices))
          throw Error("contact_jacobian: contact " + std::to_string(i) + " names vertex " + std::to_string(v) +
                      ", expected one in [0, " + std::to_string(n_vertices) + ")");
        const double w = contacts.weights[4 * i + k];
        for (int axis = 0; axis < 3; ++axis) h.push_back({3 * i + r, 3 * v + axis, w * c[axis]});
      }
    }
  }
  return h;
}

}  // namespace sinew
