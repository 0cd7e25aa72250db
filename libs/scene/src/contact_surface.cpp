#include "sinew/scene/contact_surface.hpp"

#include <utility>

#include "sinew/core/error.hpp"

namespace sinew::scene {
namespace {

// The vertices @p mesh's triangles use, in order, and the triangles renumbered over them.
std::vector<Index> used_vertices(const TriangleMesh& mesh, std::vector<std::array<Index, 3>>& triangles,
                                 const std::string& name) {
  const Index n = static_cast<Index>(mesh.vertices.size());
  std::vector<Index> renumber(static_cast<std::size_t>(n), -1);
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t)
    for (Index v : mesh.triangles[t]) {
      require(v >= 0 && v < n, name + ": triangle " + std::to_string(t) + " has vertex " + std::to_string(v) +
                                   ", expected 0 <= vertex < " + std::to_string(n));
      renumber[static_cast<std::size_t>(v)] = 0;
    }
  std::vector<Index> used;
  for (Index v = 0; v < n; ++v)
    if (renumber[static_cast<std::size_t>(v)] == 0) {
      renumber[static_cast<std::size_t>(v)] = static_cast<Index>(used.size());
      used.push_back(v);
    }
  triangles.clear();
  for (const auto& tri : mesh.triangles)
    triangles.push_back({renumber[static_cast<std::size_t>(tri[0])], renumber[static_cast<std::size_t>(tri[1])],
                         renumber[static_cast<std::size_t>(tri[2])]});
  return used;
}

}  // namespace

ContactSurface particle_surface(const model::MechanicalSystem& system, Index first_particle, const TriangleMesh& mesh,
                                const std::string& name) {
  ContactSurface s;
  std::vector<model::MappedPoint> points;
  for (Index v : used_vertices(mesh, s.triangles, name))
    points.push_back({{model::particle_point(first_particle + v), 1.0}});
  s.vertices = std::make_shared<model::MappedPoints>(system, std::move(points), name + " surface vertices");
  return s;
}

ContactSurface rigid_surface(const model::MechanicalSystem& system, Index body, const TriangleMesh& mesh,
                             const std::string& name) {
  system.check_body(body, name);
  ContactSurface s;
  std::vector<model::MappedPoint> points;
  for (Index v : used_vertices(mesh, s.triangles, name))
    points.push_back(model::rigid_point(body, mesh.vertices[static_cast<std::size_t>(v)]));
  s.vertices = std::make_shared<model::MappedPoints>(system, std::move(points), name + " surface vertices");
  return s;
}

}  // namespace sinew::scene
