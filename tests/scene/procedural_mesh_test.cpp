#include "sinew/scene/procedural_mesh.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <map>

#include "expect_error.hpp"

namespace sinew::scene {
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

TEST(ProceduralMesh, BadArgumentsAreErrors) {
  EXPECT_SINEW_ERROR(box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, 1, 1}}, 0, 1, 1), "box_tet_mesh", "nx must be >= 1");
  EXPECT_SINEW_ERROR(box_tet_mesh(Vec3{{0, 0, 0}}, Vec3{{1, -1, 1}}, 1, 1, 1), "empty extent along y");
  EXPECT_SINEW_ERROR(rectangle_triangle_mesh(0, 0, 1, 1, 0, 2, -3), "ny must be >= 1");
}

TEST(ProceduralMesh, InterleavesCoordinates) {
  const std::vector<double> x = interleaved({Vec3{{1, 2, 3}}, Vec3{{4, 5, 6}}});
  EXPECT_EQ(x, (std::vector<double>{1, 2, 3, 4, 5, 6}));
}

}  // namespace
}  // namespace sinew::scene
