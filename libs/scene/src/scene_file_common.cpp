// Readers shared by the kinds of scene file (scene_file_common.hpp).
#include "scene_file_common.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <limits>
#include <set>
#include <utility>

#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/integrators/local_global_contact.hpp"
#include "sinew/scene/mesh_io.hpp"

namespace sinew::scene::detail {

namespace {

constexpr long long kMaxCells = 1000;  // per side; and 1e7 cells in all (6e7 tets), far beyond real time

Vec3 to_vec3(const std::array<double, 3>& a) { return Vec3{{a[0], a[1], a[2]}}; }

// Cell counts at @p key: @p n integers in [1, kMaxCells], at most 1e7 cells in all.
std::vector<int> read_cells(JsonObject& obj, const std::string& key, std::size_t n) {
  const std::vector<double> c = obj.reals(key);
  if (c.size() != n) obj.fail(key, "expected an array of " + std::to_string(n) + " integers in [1, 1000]");
  std::vector<int> out;
  for (std::size_t i = 0; i < n; ++i) {
    if (c[i] != std::floor(c[i]) || c[i] < 1 || c[i] > static_cast<double>(kMaxCells))
      obj.fail(key + "/" + std::to_string(i), "expected an integer in [1, 1000], found " + number_text(c[i]));
    out.push_back(static_cast<int>(c[i]));
  }
  double cells = 1.0;
  for (int k : out) cells *= k;
  if (cells > 1e7) obj.fail(key, "expected at most 1e7 cells in all, found " + number_text(cells));
  return out;
}

// lo < hi componentwise for the box at obj (its "min" and "max").
void require_box(const JsonObject& obj, const Vec3& lo, const Vec3& hi, int dims) {
  for (int i = 0; i < dims; ++i)
    if (!(lo[i] < hi[i])) obj.fail("max", "expected every coordinate of \"max\" above that of \"min\"");
}

// "vertex 12", or for a mesh file "vertex 13 of FILE" in the file's own numbering.
std::string vertex_name(std::size_t v, const MeshSource& source) {
  const std::string number = std::to_string(static_cast<long long>(v) + source.first_number);
  return source.file.empty() ? "vertex " + number : "vertex " + number + " of " + source.file;
}

// Checks the vertices are finite, every element's indices in range (@p element names one in
// messages) and every vertex in some element (a vertex without one would have no mass); a
// mesh file's vertices are named as the file numbers them.
template <std::size_t K>
void check_elements(const JsonObject& obj, const std::string& key, const MeshSource& source,
                    const std::vector<Vec3>& vertices, const std::vector<std::array<Index, K>>& elements,
                    const std::string& element) {
  for (std::size_t v = 0; v < vertices.size(); ++v)
    for (int i = 0; i < 3; ++i)
      if (!std::isfinite(vertices[v][i])) obj.fail(key, vertex_name(v, source) + " has a non-finite coordinate");
  const Index n = static_cast<Index>(vertices.size());
  std::vector<bool> used(vertices.size(), false);
  for (std::size_t t = 0; t < elements.size(); ++t)
    for (Index v : elements[t]) {
      if (v < 0 || v >= n)
        obj.fail(key, element + " " + std::to_string(t) + " has vertex index " + std::to_string(v) +
                          " out of range [0, " + std::to_string(n) + ")");
      used[static_cast<std::size_t>(v)] = true;
    }
  for (std::size_t v = 0; v < vertices.size(); ++v)
    if (!used[v]) obj.fail(key, vertex_name(v, source) + " belongs to no " + element + " (it would have no mass)");
}

// Checks the mesh's elements (check_elements) and that its tets are positively oriented.
void check_tets(const JsonObject& obj, const std::string& key, const MeshSource& source) {
  const TetMesh& mesh = source.tets;
  check_elements(obj, key, source, mesh.vertices, mesh.tets, "tetrahedron");
  for (std::size_t t = 0; t < mesh.tets.size(); ++t) {
    Mat3 D{};
    double size2 = 0.0;
    for (int a = 0; a < 3; ++a)
      for (int i = 0; i < 3; ++i) {
        D(i, a) = mesh.vertices[mesh.tets[t][a + 1]][i] - mesh.vertices[mesh.tets[t][0]][i];
        size2 += D(i, a) * D(i, a);
      }
    const double det = determinant(D);
    if (!(det > 1e-14 * size2 * std::sqrt(size2)))
      obj.fail(key, "tetrahedron " + std::to_string(t) + " is " + (det < 0 ? "inverted" : "degenerate") +
                        " (det[x1-x0, x2-x0, x3-x0] = " + number_text(det) + "); expected a positive volume");
  }
}

// Checks the mesh's elements (check_elements) and that its triangles have an area.
void check_triangles(const JsonObject& obj, const std::string& key, const MeshSource& source) {
  const TriangleMesh& mesh = source.triangles;
  check_elements(obj, key, source, mesh.vertices, mesh.triangles, "triangle");
  for (std::size_t t = 0; t < mesh.triangles.size(); ++t) {
    const Vec3& a = mesh.vertices[mesh.triangles[t][0]];
    const Vec3& b = mesh.vertices[mesh.triangles[t][1]];
    const Vec3& c = mesh.vertices[mesh.triangles[t][2]];
    const Vec3 e1{{b[0] - a[0], b[1] - a[1], b[2] - a[2]}}, e2{{c[0] - a[0], c[1] - a[1], c[2] - a[2]}};
    if (!(norm(cross(e1, e2)) > 1e-14 * (dot(e1, e1) + dot(e2, e2))))
      obj.fail(key, "triangle " + std::to_string(t) + " is degenerate (zero area)");
  }
}

MeshSource read_file_mesh(JsonObject& m, const std::filesystem::path& base_dir, bool allow_solid, bool allow_membrane) {
  const std::string file = m.string("file", std::nullopt);
  const double scale = m.real_above("scale", 1.0, 0.0);
  const Vec3 translate = read_vec3(m, "translate", Vec3{{0, 0, 0}});
  m.finish();
  const std::filesystem::path path = base_dir / file;
  const std::string ext = path.extension().string();
  MeshSource out;
  try {
    if (ext == ".msh" || ext == ".node") {
      if (!allow_solid) m.fail("file", "expected a triangle mesh (.obj) here, found \"" + file + "\"");
      if (ext == ".msh" && !std::filesystem::exists(path))
        m.fail("file", "mesh file " + path.string() + " does not exist");
      if (ext == ".node" && !std::filesystem::exists(path))
        m.fail("file", "mesh file " + path.string() + " does not exist");
      out.tets = ext == ".msh" ? read_gmsh(path) : read_tetgen(std::filesystem::path(path).replace_extension());
    } else if (ext == ".obj") {
      if (!allow_membrane) m.fail("file", "expected a tetrahedral mesh (.msh, .node) here, found \"" + file + "\"");
      if (!std::filesystem::exists(path)) m.fail("file", "mesh file " + path.string() + " does not exist");
      out.triangles = read_obj(path);
      out.membrane = true;
      out.first_number = 1;  // OBJ numbers its vertices from 1
    } else {
      m.fail("file", "expected a mesh file ending in .msh (Gmsh), .node (TetGen) or .obj, found \"" + file + "\"");
    }
  } catch (const Error& e) {
    const std::string what = e.what();
    if (what.rfind(m.file() + ": ", 0) == 0) throw;  // already ours
    m.fail("file", what);
  }
  out.file = path.string();
  std::vector<Vec3>& v = out.membrane ? out.triangles.vertices : out.tets.vertices;
  for (Vec3& x : v)
    for (int i = 0; i < 3; ++i) x[i] = scale * x[i] + translate[i];
  return out;
}

}  // namespace

Vec3 read_vec3(JsonObject& obj, const std::string& key, std::optional<Vec3> fallback) {
  std::optional<std::array<double, 3>> f;
  if (fallback) f = std::array<double, 3>{(*fallback)[0], (*fallback)[1], (*fallback)[2]};
  return to_vec3(obj.vec3(key, f));
}

Mat3 read_rotation(JsonObject& obj, const std::string& key) {
  std::optional<JsonObject> r = obj.object(key, true);
  if (!r) return identity3();
  if (r->has("matrix")) {
    const std::vector<double> m = r->reals("matrix");
    if (m.size() != 9) r->fail("matrix", "expected an array of 9 numbers (row-major 3x3 rotation)");
    Mat3 R{};
    for (int i = 0; i < 9; ++i) R.m[i] = m[static_cast<std::size_t>(i)];
    const Mat3 RtR = transpose(R) * R;
    double err = std::abs(determinant(R) - 1.0);
    for (int i = 0; i < 3; ++i)
      for (int j = 0; j < 3; ++j) err = std::max(err, std::abs(RtR(i, j) - (i == j ? 1.0 : 0.0)));
    if (!(err <= 1e-9)) r->fail("matrix", "expected a rotation matrix (orthonormal, det +1, to 1e-9)");
    r->finish();
    return R;
  }
  Vec3 k = read_vec3(*r, "axis", std::nullopt);
  const double degrees = r->real("degrees", std::nullopt);
  r->finish();
  const double len = norm(k);
  if (!(len > 0.0)) r->fail("axis", "expected a non-zero axis");
  for (int i = 0; i < 3; ++i) k[i] /= len;
  const double a = degrees * kPi / 180.0, c = std::cos(a), s = std::sin(a);
  Mat3 R{};
  for (int i = 0; i < 3; ++i)
    for (int j = 0; j < 3; ++j) R(i, j) = (i == j ? c : 0.0) + (1.0 - c) * k[i] * k[j];
  R(0, 1) -= s * k[2];
  R(0, 2) += s * k[1];
  R(1, 0) += s * k[2];
  R(1, 2) -= s * k[0];
  R(2, 0) -= s * k[1];
  R(2, 1) += s * k[0];
  return R;
}

namespace {

// The "vertices" [[x, y, z], ...] of a mesh written in the file.
std::vector<Vec3> read_inline_vertices(JsonObject& m) {
  std::vector<Vec3> out;
  const nlohmann::json& v = m.value("vertices");
  if (!v.is_array() || v.empty()) m.fail("vertices", "expected a non-empty array of points [x, y, z]");
  for (std::size_t i = 0; i < v.size(); ++i) {
    const nlohmann::json& p = v[i];
    const bool ok = p.is_array() && p.size() == 3 && std::all_of(p.begin(), p.end(), [](const nlohmann::json& x) {
                      return x.is_number() && std::isfinite(x.get<double>());
                    });
    if (!ok) m.fail("vertices", "entry " + std::to_string(i) + ": expected a point [x, y, z] of 3 finite numbers");
    out.push_back(Vec3{{p[0].get<double>(), p[1].get<double>(), p[2].get<double>()}});
  }
  return out;
}

// The elements at @p key of a mesh written in the file: arrays of N 0-based vertex indices in
// [0, n) ("triangles": N = 3, "tets": N = 4).
template <std::size_t N>
std::vector<std::array<Index, N>> read_inline_cells(JsonObject& m, const std::string& key, Index n) {
  static const std::string kind = N == 3 ? "triples [i, j, k]" : "quadruples [i, j, k, l]";
  std::vector<std::array<Index, N>> out;
  const nlohmann::json& t = m.value(key);
  if (!t.is_array() || t.empty()) m.fail(key, "expected a non-empty array of vertex " + kind);
  for (std::size_t i = 0; i < t.size(); ++i) {
    const nlohmann::json& f = t[i];
    const bool ok = f.is_array() && f.size() == N && std::all_of(f.begin(), f.end(), [&](const nlohmann::json& x) {
                      return x.is_number_integer() && x.get<long long>() >= 0 && x.get<long long>() < n;
                    });
    if (!ok)
      m.fail(key, "entry " + std::to_string(i) + ": expected " + std::to_string(N) + " vertex indices in [0, " +
                      std::to_string(n) + ")");
    std::array<Index, N> cell;
    for (std::size_t k = 0; k < N; ++k) cell[k] = f[k].get<Index>();
    out.push_back(cell);
  }
  return out;
}

}  // namespace

MeshSource read_mesh_source(JsonObject& obj, const std::string& key, const std::filesystem::path& base_dir,
                            bool allow_solid, bool allow_membrane) {
  JsonObject m = *obj.object(key);
  MeshSource out;
  if (m.has("box")) {
    if (!allow_solid) m.fail("box", "expected a membrane mesh (\"rectangle\" or an .obj \"file\") here");
    JsonObject b = *m.object("box");
    const Vec3 lo = read_vec3(b, "min", std::nullopt), hi = read_vec3(b, "max", std::nullopt);
    const std::vector<int> n = read_cells(b, "cells", 3);
    b.finish();
    require_box(b, lo, hi, 3);
    out.tets = box_tet_mesh(lo, hi, n[0], n[1], n[2]);
  } else if (m.has("ball")) {
    if (!allow_solid) m.fail("ball", "expected a membrane mesh (\"rectangle\" or an .obj \"file\") here");
    JsonObject b = *m.object("ball");
    const Vec3 c = read_vec3(b, "centre", std::nullopt);
    const double r = b.real_above("radius", std::nullopt, 0.0);
    const int n = static_cast<int>(b.integer("n", std::nullopt, 1, 200));
    b.finish();
    out.tets = ball_tet_mesh(c, r, n);
  } else if (m.has("rectangle")) {
    if (!allow_membrane) m.fail("rectangle", "expected a solid mesh (\"box\", \"ball\" or a .msh/.node \"file\")");
    JsonObject b = *m.object("rectangle");
    const std::vector<double> lo = b.reals("min"), hi = b.reals("max");
    if (lo.size() != 2) b.fail("min", "expected an array of 2 numbers [x, y]");
    if (hi.size() != 2) b.fail("max", "expected an array of 2 numbers [x, y]");
    const double z = b.real("z", 0.0);
    const std::vector<int> n = read_cells(b, "cells", 2);
    b.finish();
    require_box(b, Vec3{{lo[0], lo[1], 0}}, Vec3{{hi[0], hi[1], 0}}, 2);
    out.triangles = rectangle_triangle_mesh(lo[0], lo[1], hi[0], hi[1], z, n[0], n[1]);
    out.membrane = true;
  } else if (m.has("file")) {
    out = read_file_mesh(m, base_dir, allow_solid, allow_membrane);
  } else if (m.has("vertices") || m.has("triangles") || m.has("tets")) {
    if (m.has("tets") && m.has("triangles")) m.fail("tets", "expected \"tets\" or \"triangles\", not both");
    if (m.has("tets")) {
      if (!allow_solid)
        m.fail("tets", "expected a membrane mesh (\"rectangle\", \"triangles\" or an .obj \"file\") here");
      out.tets.vertices = read_inline_vertices(m);
      out.tets.tets = read_inline_cells<4>(m, "tets", static_cast<Index>(out.tets.vertices.size()));
    } else {
      if (!allow_membrane)
        m.fail("vertices", "expected a solid mesh (\"box\", \"ball\", \"tets\" or a .msh/.node \"file\")");
      out.triangles.vertices = read_inline_vertices(m);
      out.triangles.triangles = read_inline_cells<3>(m, "triangles", static_cast<Index>(out.triangles.vertices.size()));
      out.membrane = true;
    }
  } else {
    m.fail(
        "",
        "expected one of \"box\", \"ball\", \"rectangle\", \"file\", or \"vertices\" with \"triangles\" or \"tets\"");
  }
  m.finish();
  if (out.membrane) {
    if (out.triangles.triangles.empty()) m.fail("", "the mesh has no triangles");
    check_triangles(m, "", out);
  } else {
    if (out.tets.tets.empty()) m.fail("", "the mesh has no tetrahedra");
    check_tets(m, "", out);
  }
  return out;
}

namespace {

// The "indices" array of @p s: vertex indices in [0, n), in file order.
std::vector<Index> read_indices(JsonObject& s, Index n) {
  const std::vector<double> idx = s.reals("indices");
  std::vector<Index> out;
  for (std::size_t i = 0; i < idx.size(); ++i) {
    if (idx[i] != std::floor(idx[i]) || idx[i] < 0 || idx[i] >= static_cast<double>(n))
      s.fail("indices/" + std::to_string(i),
             "expected a vertex index in [0, " + std::to_string(n) + "), found " + number_text(idx[i]));
    out.push_back(static_cast<Index>(idx[i]));
  }
  return out;
}

}  // namespace

std::vector<Index> read_selection(JsonObject& obj, const std::string& key, const SelectionContext& context) {
  JsonObject s = *obj.object(key);
  const std::vector<Vec3>& x = *context.vertices;
  const Index n = static_cast<Index>(x.size());
  std::vector<Index> out;
  auto in_surface = [&](Index v) { return std::binary_search(context.surface.begin(), context.surface.end(), v); };
  if (s.has("all")) {
    if (!s.boolean("all", std::nullopt)) s.fail("all", "expected true (leave the key out to select nothing)");
    for (Index v = 0; v < n; ++v) out.push_back(v);
  } else if (s.has("surface")) {
    if (!s.boolean("surface", std::nullopt)) s.fail("surface", "expected true");
    out = context.surface;
  } else if (s.has("indices")) {
    out = read_indices(s, n);
    std::sort(out.begin(), out.end());
    out.erase(std::unique(out.begin(), out.end()), out.end());
  } else if (s.has("box") || s.has("sphere")) {
    const bool box = s.has("box");
    JsonObject r = *s.object(box ? "box" : "sphere");
    Vec3 lo{}, hi{}, c{};
    double radius = 0.0;
    if (box) {
      lo = read_vec3(r, "min", std::nullopt);
      hi = read_vec3(r, "max", std::nullopt);
    } else {
      c = read_vec3(r, "centre", std::nullopt);
      radius = r.real("radius", std::nullopt, 0.0);
    }
    r.finish();
    const bool surface_only = s.boolean("surface_only", false);
    for (Index v = 0; v < n; ++v) {
      const Vec3& p = x[v];
      bool inside = true;
      if (box) {
        for (int i = 0; i < 3; ++i) inside = inside && p[i] >= lo[i] && p[i] <= hi[i];
      } else {
        const Vec3 d{{p[0] - c[0], p[1] - c[1], p[2] - c[2]}};
        inside = norm(d) <= radius;
      }
      if (inside && (!surface_only || in_surface(v))) out.push_back(v);
    }
  } else {
    s.fail("", "expected one of \"all\", \"surface\", \"indices\", \"box\" or \"sphere\"");
  }
  s.finish();
  if (out.empty()) s.fail("", "the selection is empty: it selects no vertex of the body's " + std::to_string(n));
  return out;
}

std::vector<Index> read_chain(JsonObject& obj, const std::string& key, const SelectionContext& context) {
  JsonObject s = *obj.object(key);
  const std::vector<Vec3>& x = *context.vertices;
  const Index n = static_cast<Index>(x.size());
  std::vector<Index> out;
  if (s.has("indices")) {
    out = read_indices(s, n);
  } else if (s.has("segment") || s.has("polyline")) {
    std::vector<Vec3> points;  // the polyline's corners
    double tolerance = 1e-6;
    if (s.has("segment")) {
      JsonObject g = *s.object("segment");
      points.push_back(read_vec3(g, "from", std::nullopt));
      points.push_back(read_vec3(g, "to", std::nullopt));
      tolerance = g.real_above("tolerance", 1e-6, 0.0);
      g.finish();
    } else {
      const std::vector<double> flat = s.reals("polyline");
      if (flat.size() < 6 || flat.size() % 3 != 0)
        s.fail("polyline", "expected a flat array of at least 2 points, x0 y0 z0 x1 y1 z1 ...");
      for (std::size_t i = 0; i < flat.size(); i += 3) points.push_back(Vec3{{flat[i], flat[i + 1], flat[i + 2]}});
      tolerance = s.real_above("tolerance", 1e-6, 0.0);
    }
    std::vector<std::pair<double, Index>> hits;  // (arc length of the closest point, vertex)
    for (Index v = 0; v < n; ++v) {
      double best = std::numeric_limits<double>::infinity(), arc = 0.0, at = 0.0;
      for (std::size_t k = 0; k + 1 < points.size(); ++k) {
        const Vec3& a = points[k];
        const Vec3 e{{points[k + 1][0] - a[0], points[k + 1][1] - a[1], points[k + 1][2] - a[2]}};
        const Vec3 d{{x[v][0] - a[0], x[v][1] - a[1], x[v][2] - a[2]}};
        const double len2 = dot(e, e);
        const double u = len2 > 0.0 ? std::clamp(dot(d, e) / len2, 0.0, 1.0) : 0.0;
        const Vec3 r{{d[0] - u * e[0], d[1] - u * e[1], d[2] - u * e[2]}};
        if (norm(r) < best) {
          best = norm(r);
          at = arc + u * std::sqrt(len2);
        }
        arc += std::sqrt(len2);
      }
      if (best <= tolerance) hits.emplace_back(at, v);
    }
    std::stable_sort(hits.begin(), hits.end(), [](const auto& p, const auto& q) { return p.first < q.first; });
    for (const auto& h : hits) out.push_back(h.second);
  } else {
    s.fail("", "expected \"indices\", \"segment\" or \"polyline\"");
  }
  s.finish();
  if (out.size() < 2) s.fail("", "expected at least 2 vertices in the chain, found " + std::to_string(out.size()));
  return out;
}

PlacedShape read_placed_shape(JsonObject& obj) {
  const std::string type = obj.choice("shape", {"half_space", "sphere", "box", "cylinder", "capsule"}, std::nullopt);
  PlacedShape out;
  if (type == "half_space") {
    const Vec3 normal = read_vec3(obj, "normal", Vec3{{0, 0, 1}});
    const Vec3 point = read_vec3(obj, "point", Vec3{{0, 0, 0}});
    if (!(norm(normal) > 0.0 && std::isfinite(norm(normal))))
      obj.fail("normal", "expected a non-zero normal of finite length");
    out.pose = half_space_obstacle(point, normal, 0.0).pose;
    return out;
  }
  if (type == "sphere") {
    out.shape = Shape{ShapeType::kSphere, {obj.real_above("radius", std::nullopt, 0.0), 0.0, 0.0}};
  } else if (type == "box") {
    const Vec3 h = read_vec3(obj, "half_extents", std::nullopt);
    for (int i = 0; i < 3; ++i)
      if (!(h[i] > 0.0)) obj.fail("half_extents", "expected 3 half extents > 0");
    out.shape = Shape{ShapeType::kBox, {h[0], h[1], h[2]}};
  } else {
    const double r = obj.real_above("radius", std::nullopt, 0.0);
    const double l = obj.real_above("half_length", std::nullopt, 0.0);
    out.shape = Shape{type == "cylinder" ? ShapeType::kCylinder : ShapeType::kCapsule, {r, l, 0.0}};
  }
  out.pose.rotation = read_rotation(obj, "rotation");
  out.pose.translation = read_vec3(obj, "position", Vec3{{0, 0, 0}});
  return out;
}

std::vector<Index> read_element_regions(JsonObject& obj, const TetMesh& mesh,
                                        const std::function<void(JsonObject&)>& read_entry) {
  std::vector<Index> tet_material(mesh.tets.size(), 0);
  Index k = 0;
  for (JsonObject& r : obj.objects("regions")) {
    ++k;
    // An integer, or the name of a Gmsh physical group.
    long long region = 0;
    if (r.has("region") && r.value("region").is_string()) {
      const std::string name = r.string("region", std::nullopt);
      const auto it = mesh.region_names.find(name);
      if (it == mesh.region_names.end()) {
        std::string list;
        for (const auto& [known, group] : mesh.region_names)
          list += (list.empty() ? "" : ", ") + ("\"" + known + "\" (" + std::to_string(group) + ")");
        r.fail("region", "the mesh names no region \"" + name + "\"" +
                             (list.empty() ? std::string("; it names none (Gmsh $PhysicalNames of volumes)")
                                           : "; its names: " + list));
      }
      region = it->second;
    } else {
      region = r.integer("region", std::nullopt, -1000000000LL, 1000000000LL);
    }
    std::size_t found = 0;
    for (std::size_t e = 0; e < mesh.regions.size(); ++e)
      if (mesh.regions[e] == region) {
        if (tet_material[e] != 0) r.fail("region", "region " + std::to_string(region) + " is listed twice");
        tet_material[e] = k;
        ++found;
      }
    if (found == 0) {
      std::set<int> known(mesh.regions.begin(), mesh.regions.end());
      std::string list;
      for (int g : known) list += (list.empty() ? "" : ", ") + std::to_string(g);
      r.fail("region",
             "no tetrahedron of the mesh is in region " + std::to_string(region) +
                 (known.empty() ? std::string("; the mesh has no regions (one material)") : "; its regions: " + list));
    }
    read_entry(r);
    r.finish();
  }
  return tet_material;
}

Obstacle read_mesh_obstacle(JsonObject& o, const std::filesystem::path& base_dir) {
  const MeshSource mesh = read_mesh_source(o, "mesh", base_dir, /*allow_solid=*/false, /*allow_membrane=*/true);
  Pose pose;
  pose.rotation = read_rotation(o, "rotation");
  pose.translation = read_vec3(o, "position", Vec3{{0, 0, 0}});
  const MeshSides sides = o.boolean("open", false) ? MeshSides::kTwoSided : MeshSides::kClosed;
  const bool grid = o.choice("distance", {"exact", "grid"}, "exact") == "grid";
  if (grid && sides == MeshSides::kTwoSided)
    o.fail("distance", "a signed-distance grid needs a closed mesh; an \"open\" sheet takes \"exact\"");
  SdfGridOptions grid_options;
  if (grid) {
    grid_options.cell_size = o.real("cell_size", 0.0, 0.0);
    grid_options.padding = static_cast<int>(o.integer("padding", grid_options.padding, 1, 64));
  }
  try {
    return grid ? grid_obstacle(mesh.triangles.vertices, mesh.triangles.triangles, grid_options, pose)
                : mesh_obstacle(mesh.triangles.vertices, mesh.triangles.triangles, pose, 0.0, sides);
  } catch (const Error& e) {
    o.fail("mesh", e.what());
  }
}

}  // namespace sinew::scene::detail
