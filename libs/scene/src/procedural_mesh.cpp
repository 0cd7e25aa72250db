#include "sinew/scene/procedural_mesh.hpp"

#include <algorithm>
#include <cmath>
#include <map>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::scene {
namespace {

void require_cells(int n, const char* axis, const char* what) {
  require(n >= 1, std::string(what) + ": " + axis + " must be >= 1 cell, got " + std::to_string(n));
}

void require_extent(double lo, double hi, const char* axis, const char* what) {
  require(hi > lo, std::string(what) + ": empty extent along " + axis + " (" + number_text(lo) + " .. " +
                       number_text(hi) + "), expected lo < hi");
}

double signed_volume6(const Vec3& a, const Vec3& b, const Vec3& c, const Vec3& d) {
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

// box_tet_mesh's grid; with @p from_centre, each cell's Kuhn diagonal is mirrored to run from
// the corner nearest the box's centre to the farthest one (per axis, by the side of the centre the
// cell lies on). A face normal to an axis is split along a diagonal set by the other two axes'
// orientations, which neighbours across it share, so the mirrored mesh stays conforming.
TetMesh kuhn_tet_mesh(const char* what, const Vec3& lo, const Vec3& hi, int nx, int ny, int nz, bool from_centre) {
  require_cells(nx, "nx", what);
  require_cells(ny, "ny", what);
  require_cells(nz, "nz", what);
  require_extent(lo[0], hi[0], "x", what);
  require_extent(lo[1], hi[1], "y", what);
  require_extent(lo[2], hi[2], "z", what);
  const int n[3] = {nx, ny, nz};
  TetMesh mesh;
  auto id = [&](const int c[3]) { return static_cast<Index>(c[0] + (nx + 1) * (c[1] + (ny + 1) * c[2])); };
  for (int k = 0; k <= nz; ++k)
    for (int j = 0; j <= ny; ++j)
      for (int i = 0; i <= nx; ++i) {
        const int c[3] = {i, j, k};
        Vec3 x{};
        for (int d = 0; d < 3; ++d) x[d] = lo[d] + (hi[d] - lo[d]) * c[d] / n[d];
        mesh.vertices.push_back(x);
      }
  // Each permutation of the axes is one monotone path from the cell's start corner to the
  // opposite one; the six paths' tets fill the cell, and every cell face is split along the same
  // diagonal as its neighbour's, so the mesh is conforming.
  const int paths[6][3] = {{0, 1, 2}, {0, 2, 1}, {1, 0, 2}, {1, 2, 0}, {2, 0, 1}, {2, 1, 0}};
  for (int k = 0; k < nz; ++k)
    for (int j = 0; j < ny; ++j)
      for (int i = 0; i < nx; ++i) {
        const int cell[3] = {i, j, k};
        int start[3], step[3];
        for (int d = 0; d < 3; ++d) {
          // Cells below the centre (2 cell + 1 < n) walk towards lower indices.
          const bool mirrored = from_centre && 2 * cell[d] + 1 < n[d];
          start[d] = mirrored ? cell[d] + 1 : cell[d];
          step[d] = mirrored ? -1 : 1;
        }
        for (const auto& path : paths) {
          int c[3] = {start[0], start[1], start[2]};
          std::array<Index, 4> t{id(c), 0, 0, 0};
          for (int s = 0; s < 3; ++s) {
            c[path[s]] += step[path[s]];
            t[s + 1] = id(c);
          }
          const auto& v = mesh.vertices;
          if (signed_volume6(v[t[0]], v[t[1]], v[t[2]], v[t[3]]) < 0) std::swap(t[2], t[3]);
          mesh.tets.push_back(t);
        }
      }
  return mesh;
}

}  // namespace

TetMesh box_tet_mesh(const Vec3& lo, const Vec3& hi, int nx, int ny, int nz) {
  return kuhn_tet_mesh("box_tet_mesh", lo, hi, nx, ny, nz, false);
}

TetMesh ball_tet_mesh(const Vec3& center, double radius, int n) {
  require_cells(n, "n", "ball_tet_mesh");
  require(std::isfinite(radius) && radius > 0.0,
          "ball_tet_mesh: radius must be finite and > 0, got " + number_text(radius));
  // Diagonals from the centre out: every tet then holds its cell's innermost corner, so none has
  // all four vertices on the cube's surface (which the map would flatten onto the sphere).
  TetMesh mesh = kuhn_tet_mesh("ball_tet_mesh", Vec3{{-1, -1, -1}}, Vec3{{1, 1, 1}}, n, n, n, true);
  for (Vec3& p : mesh.vertices) {
    const double inf = std::max({std::abs(p[0]), std::abs(p[1]), std::abs(p[2])});
    const double two = std::sqrt(p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
    const double s = two > 0.0 ? radius * inf / two : 0.0;  // the centre stays the centre
    for (int d = 0; d < 3; ++d) p[d] = center[d] + s * p[d];
  }
  return mesh;
}

TriangleMesh boundary_triangles(const TetMesh& mesh) {
  // Faces opposite each vertex, ordered so that the normal points away from that vertex.
  const int faces[4][3] = {{1, 2, 3}, {0, 3, 2}, {0, 1, 3}, {0, 2, 1}};
  std::map<std::array<Index, 3>, int> count;  // sorted vertex triple -> number of tets
  auto key = [](std::array<Index, 3> f) {
    std::sort(f.begin(), f.end());
    return f;
  };
  for (const auto& t : mesh.tets)
    for (const auto& f : faces) ++count[key({t[f[0]], t[f[1]], t[f[2]]})];
  TriangleMesh surface;
  surface.vertices = mesh.vertices;
  for (std::size_t e = 0; e < mesh.tets.size(); ++e)
    for (const auto& f : faces) {
      const auto& t = mesh.tets[e];
      const std::array<Index, 3> tri{t[f[0]], t[f[1]], t[f[2]]};
      const int c = count[key(tri)];
      require(c <= 2, "boundary_triangles: face (" + std::to_string(tri[0]) + ", " + std::to_string(tri[1]) + ", " +
                          std::to_string(tri[2]) + ") of tet " + std::to_string(e) + " is shared by " +
                          std::to_string(c) + " tets; expected a manifold mesh (at most 2)");
      if (c == 1) surface.triangles.push_back(tri);
    }
  return surface;
}

TriangleMesh rectangle_triangle_mesh(double x0, double y0, double x1, double y1, double z, int nx, int ny) {
  const char* what = "rectangle_triangle_mesh";
  require_cells(nx, "nx", what);
  require_cells(ny, "ny", what);
  require_extent(x0, x1, "x", what);
  require_extent(y0, y1, "y", what);
  TriangleMesh mesh;
  for (int j = 0; j <= ny; ++j)
    for (int i = 0; i <= nx; ++i) mesh.vertices.push_back(Vec3{{x0 + (x1 - x0) * i / nx, y0 + (y1 - y0) * j / ny, z}});
  auto id = [&](int i, int j) { return static_cast<Index>(i + (nx + 1) * j); };
  for (int j = 0; j < ny; ++j)
    for (int i = 0; i < nx; ++i) {
      mesh.triangles.push_back({id(i, j), id(i + 1, j), id(i + 1, j + 1)});
      mesh.triangles.push_back({id(i, j), id(i + 1, j + 1), id(i, j + 1)});
    }
  return mesh;
}

std::vector<double> interleaved(const std::vector<Vec3>& vertices) {
  std::vector<double> x;
  x.reserve(3 * vertices.size());
  for (const Vec3& v : vertices) x.insert(x.end(), {v[0], v[1], v[2]});
  return x;
}

}  // namespace sinew::scene
