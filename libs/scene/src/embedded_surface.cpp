// A collision surface embedded in a tetrahedral mesh (embedded_surface.hpp).
#include "sinew/scene/embedded_surface.hpp"

#include <Eigen/Dense>
#include <algorithm>
#include <map>
#include <string>
#include <utility>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::scene {

std::vector<model::MappedPoint> embed_points(const TetMesh& mesh, Index first_particle,
                                             const std::vector<Vec3>& points) {
  std::vector<model::MappedPoint> out;
  out.reserve(points.size());
  for (std::size_t p = 0; p < points.size(); ++p) {
    const Eigen::Vector3d x = to_eigen(points[p]);
    double best = -1e300;
    model::MappedPoint found;
    for (const auto& t : mesh.tets) {
      const Eigen::Vector3d x0 = to_eigen(mesh.vertices[t[0]]);
      Eigen::Matrix3d D;
      for (int k = 0; k < 3; ++k) D.col(k) = to_eigen(mesh.vertices[t[k + 1]]) - x0;
      const Eigen::Vector3d b = D.partialPivLu().solve(x - x0);
      const double w[4] = {1.0 - b.sum(), b[0], b[1], b[2]};
      const double worst = *std::min_element(w, w + 4);
      if (worst > best + 1e-12) {  // the first tet wins ties (a point on a shared face)
        best = worst;
        found.clear();
        for (int k = 0; k < 4; ++k) found.push_back({model::particle_point(first_particle + t[k]), w[k]});
      }
    }
    require(best >= -1e-9, "embed_points: point " + std::to_string(p) + " (" + number_text(points[p][0]) + ", " +
                               number_text(points[p][1]) + ", " + number_text(points[p][2]) +
                               ") lies in no tetrahedron of the mesh");
    out.push_back(std::move(found));
  }
  return out;
}

TriangleMesh refine_triangles(const TriangleMesh& mesh) {
  TriangleMesh out;
  out.vertices = mesh.vertices;
  std::map<std::pair<Index, Index>, Index> midpoint;
  auto mid = [&](Index a, Index b) {
    const std::pair<Index, Index> key = std::minmax(a, b);
    const auto it = midpoint.find(key);
    if (it != midpoint.end()) return it->second;
    const Vec3& x = mesh.vertices[static_cast<std::size_t>(a)];
    const Vec3& y = mesh.vertices[static_cast<std::size_t>(b)];
    out.vertices.push_back(Vec3{{0.5 * (x[0] + y[0]), 0.5 * (x[1] + y[1]), 0.5 * (x[2] + y[2])}});
    const Index m = static_cast<Index>(out.vertices.size()) - 1;
    midpoint.emplace(key, m);
    return m;
  };
  for (const auto& t : mesh.triangles) {
    const Index ab = mid(t[0], t[1]), bc = mid(t[1], t[2]), ca = mid(t[2], t[0]);
    out.triangles.push_back({t[0], ab, ca});
    out.triangles.push_back({ab, t[1], bc});
    out.triangles.push_back({ca, bc, t[2]});
    out.triangles.push_back({ab, bc, ca});
  }
  return out;
}

}  // namespace sinew::scene
