// TetGen and OBJ readers, the OBJ writer and the checks every tetrahedral reader shares.
#include "sinew/scene/mesh_io.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>
#include <string>
#include <vector>

#include "mesh_io_checks.hpp"
#include "sinew/core/atomic_file.hpp"
#include "text_input.hpp"

namespace sinew::scene {

namespace detail {

void check_tets(const TetMesh& mesh, const std::string& file, const std::vector<std::string>& where) {
  for (std::size_t e = 0; e < mesh.tets.size(); ++e) {
    const auto& t = mesh.tets[e];
    const Vec3* x[4];
    for (int a = 0; a < 4; ++a) x[a] = &mesh.vertices[static_cast<std::size_t>(t[a])];
    double u[3][3], longest = 0.0;
    for (int a = 0; a < 3; ++a)
      for (int c = 0; c < 3; ++c) u[a][c] = (*x[a + 1])[c] - (*x[0])[c];
    for (int a = 0; a < 4; ++a)
      for (int b = a + 1; b < 4; ++b)
        longest =
            std::max(longest, std::hypot((*x[a])[0] - (*x[b])[0], (*x[a])[1] - (*x[b])[1], (*x[a])[2] - (*x[b])[2]));
    const double det = u[0][0] * (u[1][1] * u[2][2] - u[1][2] * u[2][1]) -
                       u[0][1] * (u[1][0] * u[2][2] - u[1][2] * u[2][0]) +
                       u[0][2] * (u[1][0] * u[2][1] - u[1][1] * u[2][0]);
    // Zero volume relative to the element's size: a regular tet has det = longest^3 / sqrt(2).
    if (!(std::abs(det) > 1e-12 * longest * longest * longest))
      throw Error(file + ":" + where[e] + ": tetrahedron " + std::to_string(e) + " has zero volume");
    if (det < 0.0)
      throw Error(file + ":" + where[e] + ": tetrahedron " + std::to_string(e) +
                  " is inverted (negative volume); expected det[x1-x0, x2-x0, x3-x0] > 0");
  }
}

}  // namespace detail

namespace {

// TetGen's .node file: the vertices, the numbering base (the first node's number) and, when
// @p lines is given, each node's line.
std::vector<Vec3> parse_tetgen_nodes(std::string_view text, const std::string& file, long long& base,
                                     std::vector<std::size_t>* lines = nullptr) {
  detail::Tokens in(text, file, '#');
  in.require_line("the header '<points> 3 <attributes> <markers>'");
  // Counts are checked against the bytes left: a point line has at least 7 ("1 0 0 0").
  const std::size_t n = in.count(0, "number of points", 7);
  if (n == 0) in.fail("no points (a .node file with 0 points defers to a .poly file, which sinew does not read)");
  if (in.integer(1, "dimension") != 3) in.fail("dimension must be 3, found " + std::string(in.token(1)));
  std::vector<Vec3> vertices(n);
  for (std::size_t i = 0; i < n; ++i) {
    in.require_line("point " + std::to_string(i) + " of " + std::to_string(n));
    const long long number = in.integer(0, "point number");
    if (i == 0) {
      if (number != 0 && number != 1)
        in.fail("the first point must be numbered 0 or 1, found " + std::to_string(number));
      base = number;
    } else if (number != base + static_cast<long long>(i)) {
      in.fail("points must be numbered consecutively: expected " + std::to_string(base + static_cast<long long>(i)) +
              ", found " + std::to_string(number));
    }
    for (int c = 0; c < 3; ++c) vertices[i][c] = in.real(static_cast<std::size_t>(1 + c), "coordinate");
    if (lines) lines->push_back(in.line());
  }
  return vertices;
}

// A vertex index of an element line, converted to 0-based and checked against the vertex count.
Index vertex_index(const detail::Tokens& in, std::size_t token, long long base, std::size_t n) {
  const long long v = in.integer(token, "node number") - base;
  if (v < 0 || v >= static_cast<long long>(n))
    in.fail("node number " + std::string(in.token(token)) + " out of range [" + std::to_string(base) + ", " +
            std::to_string(base + static_cast<long long>(n) - 1) + "]");
  return static_cast<Index>(v);
}

}  // namespace

TetMesh read_tetgen(const std::filesystem::path& base) {
  const std::string node = read_file(base.string() + ".node", "a TetGen .node file");
  const std::string ele = read_file(base.string() + ".ele", "a TetGen .ele file");
  return parse_tetgen(node, ele, base.string());
}

TetMesh parse_tetgen(std::string_view node, std::string_view ele, const std::string& name) {
  TetMesh mesh;
  long long numbering = 0;
  std::vector<std::size_t> node_lines;
  mesh.vertices = parse_tetgen_nodes(node, name + ".node", numbering, &node_lines);
  const std::string file = name + ".ele";
  detail::Tokens in(ele, file, '#');
  in.require_line("the header '<tetrahedra> <nodes per tetrahedron> <region attribute>'");
  const long long corners = in.integer(1, "nodes per tetrahedron");
  if (corners != 4) in.fail("only 4-node tetrahedra are supported, found " + std::to_string(corners) + " nodes");
  const std::size_t n = in.count(0, "number of tetrahedra", 9);  // a line has at least 9 bytes
  // The region attribute (TetGen -A): an integer after the corners, each tet's region.
  const long long attributes = in.size() > 2 ? in.integer(2, "number of region attributes") : 0;
  if (attributes < 0 || attributes > 1)
    in.fail("expected 0 or 1 region attribute, found " + std::to_string(attributes));
  mesh.tets.resize(n);
  if (attributes == 1) mesh.regions.resize(n);
  std::vector<std::string> where(n);
  for (std::size_t e = 0; e < n; ++e) {
    in.require_line("tetrahedron " + std::to_string(e) + " of " + std::to_string(n));
    in.require_tokens(attributes == 1 ? 6 : 5,
                      attributes == 1 ? "'<number> <n0> <n1> <n2> <n3> <region>'" : "'<number> <n0> <n1> <n2> <n3>'");
    for (int a = 0; a < 4; ++a)
      mesh.tets[e][a] = vertex_index(in, static_cast<std::size_t>(1 + a), numbering, mesh.vertices.size());
    if (attributes == 1) {
      const double region = in.real(5, "region attribute");
      if (!(region == std::round(region) && std::abs(region) < 1e9))
        in.fail("the region attribute must be an integer, found '" + std::string(in.token(5)) + "'");
      mesh.regions[e] = static_cast<int>(region);
    }
    where[e] = std::to_string(in.line());
  }
  detail::check_tets(mesh, file, where);
  // A point no tetrahedron uses would have no mass: named as the files number it.
  std::vector<bool> used(mesh.vertices.size(), false);
  for (const auto& t : mesh.tets)
    for (Index v : t) used[static_cast<std::size_t>(v)] = true;
  for (std::size_t i = 0; i < used.size(); ++i)
    if (!used[i])
      throw Error(name + ".node:" + std::to_string(node_lines[i]) + ": point " +
                  std::to_string(numbering + static_cast<long long>(i)) + " belongs to no tetrahedron of " + file +
                  " (it would have no mass); remove it or mesh it");
  return mesh;
}

TriangleMesh read_tetgen_faces(const std::filesystem::path& base) {
  TriangleMesh mesh;
  long long numbering = 0;
  const std::string node = read_file(base.string() + ".node", "a TetGen .node file");
  mesh.vertices = parse_tetgen_nodes(node, base.string() + ".node", numbering);
  const std::filesystem::path file = base.string() + ".face";
  const std::string text = read_file(file, "a TetGen .face file");
  detail::Tokens in(text, file.string(), '#');
  in.require_line("the header '<faces> <boundary markers>'");
  const std::size_t n = in.count(0, "number of faces", 7);  // a line has at least 7 bytes
  mesh.triangles.resize(n);
  for (std::size_t f = 0; f < n; ++f) {
    in.require_line("face " + std::to_string(f) + " of " + std::to_string(n));
    in.require_tokens(4, "'<number> <n0> <n1> <n2>'");
    for (int a = 0; a < 3; ++a)
      mesh.triangles[f][a] = vertex_index(in, static_cast<std::size_t>(1 + a), numbering, mesh.vertices.size());
  }
  return mesh;
}

TriangleMesh read_obj(const std::filesystem::path& path) {
  return parse_obj(read_file(path, "an OBJ file"), path.string());
}

TriangleMesh parse_obj(std::string_view text, const std::string& name) {
  detail::Tokens in(text, name, '#');
  TriangleMesh mesh;
  std::vector<Index> polygon;
  while (in.next_line()) {
    const std::string_view keyword = in.token(0);
    if (keyword == "v") {
      Vec3 x{};
      for (int c = 0; c < 3; ++c) x[c] = in.real(static_cast<std::size_t>(1 + c), "vertex coordinate");
      mesh.vertices.push_back(x);
    } else if (keyword == "f") {
      if (in.size() < 4) in.fail("a face needs at least 3 vertices, found " + std::to_string(in.size() - 1));
      polygon.clear();
      for (std::size_t k = 1; k < in.size(); ++k) {
        const std::string_view t = in.token(k);
        const std::string_view index = t.substr(0, t.find('/'));  // v, v/vt, v//vn, v/vt/vn
        long long v = 0;
        const auto [end, ec] = std::from_chars(index.data(), index.data() + index.size(), v);
        if (ec != std::errc() || end != index.data() + index.size() || v == 0)
          in.fail("expected a vertex index (1-based, or negative from the end) in '" + std::string(t) + "'");
        const long long n = static_cast<long long>(mesh.vertices.size());
        const long long i = v > 0 ? v - 1 : n + v;  // negative: relative to the vertices read so far
        if (i < 0 || i >= n)
          in.fail("vertex index " + std::to_string(v) + " out of range: " + std::to_string(n) + " vertices so far");
        polygon.push_back(static_cast<Index>(i));
      }
      for (std::size_t k = 1; k + 1 < polygon.size(); ++k)
        mesh.triangles.push_back({polygon[0], polygon[k], polygon[k + 1]});
    }
    // vt, vn, o, g, s, usemtl, mtllib, l, ...: not geometry sinew uses.
  }
  if (mesh.triangles.empty()) throw Error(name + ": no faces ('f' lines) found");
  return mesh;
}

void write_obj(const TriangleMesh& mesh, const std::filesystem::path& path) {
  for (const auto& t : mesh.triangles)
    for (Index v : t)
      if (v < 0 || static_cast<std::size_t>(v) >= mesh.vertices.size())
        throw Error(path.string() + ": triangle vertex " + std::to_string(v) + " out of range (" +
                    std::to_string(mesh.vertices.size()) + " vertices); nothing written");
  std::ostringstream s;
  s.precision(17);
  s << "# written by sinew: " << mesh.vertices.size() << " vertices, " << mesh.triangles.size() << " triangles\n";
  for (const Vec3& x : mesh.vertices) s << "v " << x[0] << ' ' << x[1] << ' ' << x[2] << '\n';
  for (const auto& t : mesh.triangles) s << "f " << t[0] + 1 << ' ' << t[1] + 1 << ' ' << t[2] + 1 << '\n';
  write_file_atomically(path, s.str());
}

}  // namespace sinew::scene
