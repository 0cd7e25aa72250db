#include "sinew/scene/mesh_inertia.hpp"

#include <algorithm>
#include <map>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::scene {

MeshMassProperties mesh_mass_properties(const TriangleMesh& mesh, const std::string& name) {
  const Index n = static_cast<Index>(mesh.vertices.size());
  require(!mesh.triangles.empty(), name + ": the mesh has no triangles; a rigid body's mesh must enclose a solid");
  // Closed and consistently oriented: each directed edge once, and its reverse once.
  std::map<std::pair<Index, Index>, std::size_t> directed;  // (from, to) -> triangle
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (int k = 0; k < 3; ++k) {
      const Index a = mesh.triangles[t][k], b = mesh.triangles[t][(k + 1) % 3];
      require(a >= 0 && a < n && b >= 0 && b < n,
              name + ": triangle " + std::to_string(t) + " has a vertex out of range, expected < " + std::to_string(n));
      const auto [at, inserted] = directed.emplace(std::make_pair(a, b), t);
      require(inserted, name + ": edge (" + std::to_string(a) + ", " + std::to_string(b) + ") is used in the same " +
                            "direction by triangles " + std::to_string(at->second) + " and " + std::to_string(t) +
                            "; expected a closed, consistently oriented surface");
    }
  for (const auto& [edge, t] : directed)
    require(directed.count({edge.second, edge.first}) == 1,
            name + ": edge (" + std::to_string(edge.first) + ", " + std::to_string(edge.second) + ") of triangle " +
                std::to_string(t) + " has no triangle on its other side; expected a closed surface");
  // Signed tetrahedra (o, a, b, c) with o the first vertex (small coordinates, little
  // cancellation): volume det / 6, first moment det (a + b + c) / 24, second moment
  // det / 120 (sum v v^T + s s^T) with s = a + b + c (relative to o).
  const Vec3 o = mesh.vertices[static_cast<std::size_t>(mesh.triangles[0][0])];
  double six_volume = 0.0;
  Vec3 moment{{0, 0, 0}};
  Mat3 second{};
  for (const auto& tri : mesh.triangles) {
    const Vec3 a = mesh.vertices[static_cast<std::size_t>(tri[0])] - o,
               b = mesh.vertices[static_cast<std::size_t>(tri[1])] - o,
               c = mesh.vertices[static_cast<std::size_t>(tri[2])] - o;
    const double det = dot(a, cross(b, c));
    six_volume += det;
    const Vec3 s = a + b + c;
    moment = moment + (det / 24.0) * s;
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) second(i, j) += det / 120.0 * (a[i] * a[j] + b[i] * b[j] + c[i] * c[j] + s[i] * s[j]);
  }
  MeshMassProperties p;
  p.volume = six_volume / 6.0;
  require(p.volume > 0.0, name + ": the enclosed volume is " + number_text(p.volume) +
                              "; expected > 0 (triangles counter-clockwise seen from outside; these face inward)");
  const Vec3 c = (1.0 / p.volume) * moment;
  p.centroid = o + c;
  // Second moment about the centroid, then the inertia tensor tr(C) I - C.
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) second(i, j) -= p.volume * c[i] * c[j];
  const double trace = second(0, 0) + second(1, 1) + second(2, 2);
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) p.inertia(i, j) = (i == j ? trace : 0.0) - second(i, j);
  return p;
}

SpatialInertia mesh_inertia(const MeshMassProperties& p, double mass) {
  Mat3 J{};
  for (int i = 0; i < 9; ++i) J.m[i] = mass / p.volume * p.inertia.m[i];
  return make_spatial_inertia(mass, Vec3{{0, 0, 0}}, J);
}

}  // namespace sinew::scene
