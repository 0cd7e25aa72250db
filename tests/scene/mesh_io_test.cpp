#include "sinew/scene/mesh_io.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <string>

#include "expect_error.hpp"

namespace sinew::scene::scene_mesh_io_test {
namespace {

namespace fs = std::filesystem;

const fs::path kData = SINEW_TEST_DATA;

// A fresh folder per test under the system's temporary directory.
fs::path scratch(const std::string& name) {
  const fs::path dir = fs::temp_directory_path() / ("sinew_mesh_io_" + name);
  fs::remove_all(dir);
  fs::create_directories(dir);
  return dir;
}

void write_text(const fs::path& path, const std::string& text) { std::ofstream(path, std::ios::binary) << text; }

std::string read_bytes(const fs::path& path) {
  std::ifstream f(path, std::ios::binary);
  return std::string(std::istreambuf_iterator<char>(f), {});
}

double volume(const TetMesh& m) {
  double v = 0.0;
  for (const auto& t : m.tets) {
    const Vec3 &a = m.vertices[t[0]], &b = m.vertices[t[1]], &c = m.vertices[t[2]], &d = m.vertices[t[3]];
    const double u[3] = {b[0] - a[0], b[1] - a[1], b[2] - a[2]}, w[3] = {c[0] - a[0], c[1] - a[1], c[2] - a[2]},
                 z[3] = {d[0] - a[0], d[1] - a[1], d[2] - a[2]};
    v +=
        (u[0] * (w[1] * z[2] - w[2] * z[1]) - u[1] * (w[0] * z[2] - w[2] * z[0]) + u[2] * (w[0] * z[1] - w[1] * z[0])) /
        6;
  }
  return v;
}

TEST(Gmsh, AsciiAndBinaryFilesOfGmshGiveTheSameBox) {
  const TetMesh ascii = read_gmsh(kData / "gmsh_box_ascii.msh");
  const TetMesh binary = read_gmsh(kData / "gmsh_box_binary.msh");
  EXPECT_EQ(ascii.tets.size(), 623u);
  EXPECT_EQ(ascii.vertices.size(), 227u);
  EXPECT_NEAR(volume(ascii), 1.0 * 0.5 * 0.25, 1e-12);
  ASSERT_EQ(binary.tets, ascii.tets);
  ASSERT_EQ(binary.vertices.size(), ascii.vertices.size());
  for (std::size_t i = 0; i < ascii.vertices.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_NEAR(binary.vertices[i][c], ascii.vertices[i][c], 1e-15);
}

TEST(Gmsh, EveryTruncationOfTheBinaryFileIsAnErrorNotACrash) {
  const std::string bytes = read_bytes(kData / "gmsh_box_binary.msh");
  const fs::path dir = scratch("gmsh_truncated");
  int errors = 0;
  for (std::size_t n = 0; n < bytes.size(); n += 97) {
    write_text(dir / "cut.msh", bytes.substr(0, n));
    try {
      read_gmsh(dir / "cut.msh");
    } catch (const Error& e) {
      ++errors;
      EXPECT_NE(std::string(e.what()).find("cut.msh"), std::string::npos) << e.what();
    }
  }
  EXPECT_EQ(errors, static_cast<int>((bytes.size() + 96) / 97));
}

TEST(Gmsh, BadHeadersCountsAndElementsNameTheFileAndLine) {
  const fs::path dir = scratch("gmsh_bad");
  const std::string head = "$MeshFormat\n4.1 0 8\n$EndMeshFormat\n";
  const std::string nodes = "$Nodes\n1 4 1 4\n3 1 0 4\n1\n2\n3\n4\n0 0 0\n1 0 0\n0 1 0\n0 0 1\n$EndNodes\n";
  write_text(dir / "ok.msh", head + nodes + "$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 4\n$EndElements\n");
  EXPECT_EQ(read_gmsh(dir / "ok.msh").tets.size(), 1u);
  write_text(dir / "v2.msh", "$MeshFormat\n2.2 0 8\n$EndMeshFormat\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "v2.msh"), "v2.msh:2", "version 2.2 is not supported");
  write_text(dir / "empty.msh", "");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "empty.msh"), "empty.msh", "expected '$MeshFormat'");
  write_text(dir / "huge.msh", head + "$Nodes\n1 999999999999 1 2\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "huge.msh"), "huge.msh:5", "more than the rest of the file can hold");
  write_text(dir / "range.msh", head + nodes + "$Elements\n1 1 1 1\n3 1 4 1\n1 1 2 3 9\n$EndElements\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "range.msh"), "range.msh:19", "node tag 9");
  write_text(dir / "inverted.msh", head + nodes + "$Elements\n1 1 1 1\n3 1 4 1\n1 1 3 2 4\n$EndElements\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "inverted.msh"), "inverted.msh:19", "inverted");
  write_text(dir / "nan.msh", head + "$Nodes\n1 1 1 1\n3 1 0 1\n1\nnan 0 0\n$EndNodes\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "nan.msh"), "nan.msh:8", "not finite");
  write_text(dir / "tet10.msh", head + nodes + "$Elements\n1 1 1 1\n3 1 11 1\n1 1 2 3 4 1 2 3 4 1 2\n$EndElements\n");
  EXPECT_SINEW_ERROR(read_gmsh(dir / "tet10.msh"), "tet10.msh:18", "unsupported volume element type 11");
  write_text(dir / "none.msh", head + nodes);
  EXPECT_SINEW_ERROR(read_gmsh(dir / "none.msh"), "none.msh", "no 4-node tetrahedra");
}

TEST(TetGen, ReadsTetGensCubeAndItsNumbering) {
  const TetMesh m = read_tetgen(kData / "cube");
  EXPECT_EQ(m.vertices.size(), 8u);
  EXPECT_EQ(m.tets.size(), 6u);
  EXPECT_NEAR(volume(m), 1.0, 1e-14);
  // 0-based files and the boundary faces.
  const fs::path dir = scratch("tetgen");
  write_text(dir / "t.node", "4 3 0 0\n0 0 0 0\n1 1 0 0 # a comment\n2 0 1 0\n3 0 0 1\n");
  write_text(dir / "t.ele", "1 4 0\n0 0 1 2 3\n");
  write_text(dir / "t.face", "1 1\n0 0 2 1 -1\n");
  EXPECT_EQ(read_tetgen(dir / "t").tets[0], (std::array<Index, 4>{0, 1, 2, 3}));
  const TriangleMesh faces = read_tetgen_faces(dir / "t");
  ASSERT_EQ(faces.triangles.size(), 1u);
  EXPECT_EQ(faces.triangles[0], (std::array<Index, 3>{0, 2, 1}));
}

TEST(TetGen, BadFilesNameTheFileAndLine) {
  const fs::path dir = scratch("tetgen_bad");
  const std::string node = "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 0 0 1\n";
  auto ele_error = [&](const std::string& ele) {
    write_text(dir / "m.node", node);
    write_text(dir / "m.ele", ele);
    try {
      read_tetgen(dir / "m");
    } catch (const Error& e) {
      return std::string(e.what());
    }
    return std::string("no error");
  };
  EXPECT_NE(ele_error("1 4 0\n1 1 2 3 5\n").find("m.ele:2: node number 5 out of range [1, 4]"), std::string::npos);
  EXPECT_NE(ele_error("1 4 0\n1 1 3 2 4\n").find("m.ele:2: tetrahedron 0 is inverted"), std::string::npos);
  EXPECT_NE(ele_error("1 10 0\n").find("only 4-node tetrahedra"), std::string::npos);
  EXPECT_NE(ele_error("2 4 0\n1 1 2 3 4\n").find("m.ele:1: number of tetrahedra = 2 is more than"), std::string::npos);
  EXPECT_NE(ele_error("").find("m.ele:0: unexpected end of file"), std::string::npos);
  EXPECT_NE(ele_error("1 4 0\n1 1 2 x 4\n").find("expected an integer node number, found 'x'"), std::string::npos);
  write_text(dir / "flat.node", "4 3 0 0\n1 0 0 0\n2 1 0 0\n3 0 1 0\n4 1 1 0\n");
  write_text(dir / "flat.ele", "1 4 0\n1 1 2 3 4\n");
  EXPECT_SINEW_ERROR(read_tetgen(dir / "flat"), "flat.ele:2", "zero volume");
  write_text(dir / "skip.node", "2 3 0 0\n1 0 0 0\n3 1 0 0\n");
  write_text(dir / "skip.ele", "0 4 0\n");
  EXPECT_SINEW_ERROR(read_tetgen(dir / "skip"), "skip.node:3", "numbered consecutively");
  EXPECT_SINEW_ERROR(read_tetgen(dir / "missing"), "missing.node", "cannot open");
}

TEST(Obj, RoundTripAndPolygonsAndRelativeIndices) {
  const fs::path dir = scratch("obj");
  TriangleMesh m = rectangle_triangle_mesh(0, 0, 2, 1, 0.25, 3, 2);
  m.vertices[4][2] = 1.0 / 3.0;  // a value that needs all 17 digits
  write_obj(m, dir / "r.obj");
  const TriangleMesh back = read_obj(dir / "r.obj");
  EXPECT_EQ(back.triangles, m.triangles);
  ASSERT_EQ(back.vertices.size(), m.vertices.size());
  for (std::size_t i = 0; i < m.vertices.size(); ++i)
    for (int c = 0; c < 3; ++c) EXPECT_EQ(back.vertices[i][c], m.vertices[i][c]) << "bit exact";
  EXPECT_FALSE(fs::exists(dir / "r.obj.tmp"));

  write_text(dir / "quad.obj",
             "# a quad\no quad\nv 0 0 0\nv 1 0 0\nv 1 1 0\nv 0 1 0\nvn 0 0 1\nf 1//1 2//1 3//1 4//1\nf -4 -3 -2\n");
  const TriangleMesh quad = read_obj(dir / "quad.obj");
  ASSERT_EQ(quad.triangles.size(), 3u);
  EXPECT_EQ(quad.triangles[1], (std::array<Index, 3>{0, 2, 3}));
  EXPECT_EQ(quad.triangles[2], (std::array<Index, 3>{0, 1, 2}));
}

TEST(Obj, BadFilesNameTheFileAndLine) {
  const fs::path dir = scratch("obj_bad");
  write_text(dir / "a.obj", "v 0 0 0\nv 1 0 0\nf 1 2 3\n");
  EXPECT_SINEW_ERROR(read_obj(dir / "a.obj"), "a.obj:3", "vertex index 3 out of range");
  write_text(dir / "b.obj", "v 0 0\n");
  EXPECT_SINEW_ERROR(read_obj(dir / "b.obj"), "b.obj:1", "expected vertex coordinate");
  write_text(dir / "c.obj", "v 0 0 inf\n");
  EXPECT_SINEW_ERROR(read_obj(dir / "c.obj"), "c.obj:1", "not finite");
  write_text(dir / "d.obj", "v 0 0 0\n");
  EXPECT_SINEW_ERROR(read_obj(dir / "d.obj"), "d.obj", "no faces");
  write_text(dir / "e.obj", "v 0 0 0\nv 1 0 0\nv 0 1 0\nf 1 0 2\n");
  EXPECT_SINEW_ERROR(read_obj(dir / "e.obj"), "e.obj:4", "expected a vertex index");
  // A failed write leaves the old file untouched and no temporary behind.
  write_text(dir / "keep.obj", "old");
  TriangleMesh bad = rectangle_triangle_mesh(0, 0, 1, 1, 0, 1, 1);
  bad.triangles[0][1] = 7;
  EXPECT_SINEW_ERROR(write_obj(bad, dir / "keep.obj"), "keep.obj", "out of range");
  EXPECT_EQ(read_bytes(dir / "keep.obj"), "old");
  EXPECT_FALSE(fs::exists(dir / "keep.obj.tmp"));
}

}  // namespace
}  // namespace sinew::scene::scene_mesh_io_test
