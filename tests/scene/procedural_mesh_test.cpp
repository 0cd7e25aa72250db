#include "sinew/scene/procedural_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <map>

#include "expect_error.hpp"

namespace sinew::scene::scene_procedural_mesh_test {
namespace {

double volume6(const TetMesh& m, const std::array<Index, 4>& t) {
  const Vec3 &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]], &d = m.vertices[t[3]];
  const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]};
  const double v[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]};
  const double w[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
  return u[0] * (v[1] * w[2] - v[2] * w[1]) - u[1] * (v[0] * w[2] - v[2] * w[0]) + u[2] * (v[0] * w[1] - v[1] * w[0]);
}

TEST(BoxTetMesh, FillsTheBoxWithPositiveConformingTets) {
  const int nx = 3, ny = 2, nz = 4;
  const TetMesh m = box_tet_mesh(Vec3{{-1, 0, 2}}, Vec3{{2, 1, 4}}, nx, ny, nz);
  ASSERT_EQ(m.vertices.size(), static_cast<std::size_t>((nx + 1) * (ny + 1) * (nz + 1)));
  ASSERT_EQ(m.tets.size(), static_cast<std::size_t>(6 * nx * ny * nz));
  double total = 0.0;
  const double cell = (3.0 / nx) * (1.0 / ny) * (2.0 / nz);
  for (const auto& t : m.tets) {
    const double v = volume6(m, t) / 6.0;
    EXPECT_NEAR(v, cell / 6.0, 1e-12) << "every Kuhn tet has a sixth of its cell";
    total += v;
  }
  EXPECT_NEAR(total, 3.0 * 1.0 * 2.0, 1e-12);
  // Conforming: each face is shared by two tets inside and one on the boundary, and the
  // boundary has 2 triangles per boundary cell face.
  std::map<std::array<Index, 3>, int> faces;
  for (const auto& t : m.tets)
    for (int skip = 0; skip < 4; ++skip) {
      std::array<Index, 3> f{};
      for (int a = 0, k = 0; a < 4; ++a)
        if (a != skip) f[k++] = t[a];
      std::sort(f.begin(), f.end());
      ++faces[f];
    }
  int boundary = 0;
  for (const auto& [face, count] : faces) {
    ASSERT_LE(count, 2);
    boundary += count == 1;
  }
  EXPECT_EQ(boundary, 4 * (nx * ny + ny * nz + nx * nz));
}

TEST(RectangleTriangleMesh, CountsAreaAndOrientation) {
  const TriangleMesh m = rectangle_triangle_mesh(0, 0, 2, 3, 0.5, 4, 6);
  ASSERT_EQ(m.triangles.size(), 48u);
  double area = 0.0;
  for (const auto& t : m.triangles) {
    const Vec3 &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]];
    const double z = (b[0] - a[0]) * (c[1] - a[1]) - (b[1] - a[1]) * (c[0] - a[0]);
    EXPECT_GT(z, 0.0) << "counter-clockwise seen from +z";
    area += 0.5 * z;
    EXPECT_EQ(a[2], 0.5);
  }
  EXPECT_NEAR(area, 6.0, 1e-12);
}

// Sum over the boundary triangles of (x . n) area / 3: the enclosed volume when the triangles
// close the surface with outward normals (divergence theorem), with the wrong sign otherwise.
double enclosed_volume(const TriangleMesh& s) {
  double v = 0.0;
  for (const auto& t : s.triangles) {
    const Vec3 &a = s.vertices[t[0]], &b = s.vertices[t[1]], &c = s.vertices[t[2]];
    v +=
        (a[0] * (b[1] * c[2] - b[2] * c[1]) - a[1] * (b[0] * c[2] - b[2] * c[0]) + a[2] * (b[0] * c[1] - b[1] * c[0])) /
        6.0;
  }
  return v;
}

TEST(BallTetMesh, PositiveTetsSurfaceOnTheSphereAndSecondOrderVolume) {
  const Vec3 centre{{0.5, -1.0, 2.0}};
  const double r = 0.3, exact = 4.0 / 3.0 * M_PI * r * r * r;
  double previous_error = 0.0;
  for (int n : {4, 8, 16}) {
    const TetMesh m = ball_tet_mesh(centre, r, n);
    ASSERT_EQ(m.tets.size(), static_cast<std::size_t>(6 * n * n * n));
    double volume = 0.0, smallest = 1e300;
    for (const auto& t : m.tets) {
      const double v = volume6(m, t) / 6.0;
      smallest = std::min(smallest, v);
      volume += v;
    }
    const double cell = std::pow(2.0 * r / n, 3) / 6.0;  // a Kuhn tet of the unmapped cube
    EXPECT_GT(smallest, 0.05 * cell) << "n = " << n << ": the map must not flatten any tet to nothing";
    const TriangleMesh surface = boundary_triangles(m);
    EXPECT_EQ(surface.triangles.size(), static_cast<std::size_t>(6 * 2 * n * n));
    for (const auto& t : surface.triangles)
      for (Index i : t) {
        const Vec3& p = m.vertices[i];
        EXPECT_NEAR(std::hypot(p[0] - centre[0], p[1] - centre[1], p[2] - centre[2]), r, 1e-14);
      }
    // The surface encloses exactly the tets' volume (closed, outward-oriented).
    EXPECT_NEAR(enclosed_volume(surface), volume, 1e-12);
    const double error = exact - volume;
    EXPECT_GT(error, 0.0) << "an inscribed polyhedron";
    if (previous_error > 0.0) {
      EXPECT_NEAR(std::log2(previous_error / error), 2.0, 0.1) << "second order, n = " << n;
    }
    previous_error = error;
  }
}

TEST(BoundaryTriangles, BoxSurfaceIsClosedAndOutward) {
  const TetMesh m = box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{2, 1, 3}}, 2, 3, 1);
  const TriangleMesh s = boundary_triangles(m);
  EXPECT_EQ(s.triangles.size(), static_cast<std::size_t>(4 * (2 * 3 + 3 * 1 + 2 * 1)));
  EXPECT_NEAR(enclosed_volume(s), 6.0, 1e-12);
  EXPECT_EQ(s.vertices.size(), m.vertices.size()) << "indices stay those of the tet mesh";
  TetMesh bad = m;
  bad.tets.push_back(bad.tets.front());  // a duplicate: its interior faces belong to 3 tets
  EXPECT_SINEW_ERROR(boundary_triangles(bad), "boundary_triangles", "shared by 3 tets");
}

TEST(ProceduralMesh, BadArgumentsAreErrors) {
  EXPECT_SINEW_ERROR(box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 0, 1, 1), "box_tet_mesh", "nx must be >= 1");
  EXPECT_SINEW_ERROR(box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, -1, 1}}, 1, 1, 1), "empty extent along y");
  EXPECT_SINEW_ERROR(rectangle_triangle_mesh(0, 0, 1, 1, 0, 2, -3), "ny must be >= 1");
  EXPECT_SINEW_ERROR(ball_tet_mesh(Vec3{{0, 0, 0}}, 0.0, 2), "ball_tet_mesh", "radius must be finite and > 0");
  EXPECT_SINEW_ERROR(ball_tet_mesh(Vec3{{0, 0, 0}}, 1.0, 0), "n must be >= 1");
}

TEST(ProceduralMesh, InterleavesCoordinates) {
  const std::vector<double> x = interleaved({Vec3{{1, 2, 3}}, Vec3{{4, 5, 6}}});
  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace sinew::scene::scene_procedural_mesh_test
