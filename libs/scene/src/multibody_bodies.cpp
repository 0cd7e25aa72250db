// The bodies of a "multibody" scene file (docs/scene_files.md, "Multibody scenes"): rigid bodies
// with analytic or triangle-mesh shapes, FEM solids and cloth, read into multibody_spec.hpp's
// plain data.
#include <cmath>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "multibody_spec.hpp"
#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/scene/contact_scenes.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/embedded_surface.hpp"
#include "sinew/scene/mesh_inertia.hpp"

namespace sinew::scene::detail {
namespace {

// A rigid body's shape as read: analytic, or a triangle mesh (in its file's coordinates).
struct ShapeSource {
  Shape shape{ShapeType::kBox, {0, 0, 0}};
  std::optional<TriangleMesh> mesh;
};

ShapeSource read_shape(JsonObject o, const std::filesystem::path& base_dir) {
  const std::string type = o.choice("type", {"box", "sphere", "cylinder", "capsule", "mesh"}, std::nullopt);
  ShapeSource out;
  Shape& s = out.shape;
  if (type == "mesh") {
    out.mesh = read_mesh_source(o, "mesh", base_dir, false, true).triangles;
  } else if (type == "box") {
    const Vec3 e = read_vec3(o, "half_extents", std::nullopt);
    for (int i = 0; i < 3; ++i)
      if (!(e[i] > 0.0)) o.fail("half_extents", "expected 3 half extents > 0");
    s = Shape{ShapeType::kBox, {e[0], e[1], e[2]}};
  } else if (type == "sphere") {
    s = Shape{ShapeType::kSphere, {o.real_above("radius", std::nullopt, 0.0), 0, 0}};
  } else {
    const double r = o.real_above("radius", std::nullopt, 0.0), l = o.real_above("half_length", std::nullopt, 0.0);
    s = Shape{type == "cylinder" ? ShapeType::kCylinder : ShapeType::kCapsule, {r, l, 0}};
  }
  o.finish();
  return out;
}

// @p mesh moved by -@p shift.
TriangleMesh shifted(TriangleMesh mesh, const Vec3& shift) {
  for (Vec3& v : mesh.vertices) v = v - shift;
  return mesh;
}

// Volume of a solid shape.
double shape_volume(const Shape& s) {
  const double a = s.size[0], b = s.size[1];
  switch (s.type) {
    case ShapeType::kBox:
      return 8.0 * a * b * s.size[2];
    case ShapeType::kSphere:
      return 4.0 / 3.0 * kPi * a * a * a;
    case ShapeType::kCylinder:
      return kPi * a * a * 2.0 * b;
    default:
      return kPi * a * a * (2.0 * b + 4.0 / 3.0 * a);  // capsule
  }
}

// Spatial inertia of a solid shape of @p mass about its centre (the body origin).
SpatialInertia shape_inertia(const Shape& s, double mass) {
  const double a = s.size[0], b = s.size[1];
  Mat3 J{};
  switch (s.type) {
    case ShapeType::kBox:
      return box_inertia(mass, Vec3{{s.size[0], s.size[1], s.size[2]}});
    case ShapeType::kSphere:
      J(0, 0) = J(1, 1) = J(2, 2) = 0.4 * mass * a * a;
      break;
    case ShapeType::kCylinder:
      J(0, 0) = J(1, 1) = mass * (3.0 * a * a + 4.0 * b * b) / 12.0;  // length 2b
      J(2, 2) = 0.5 * mass * a * a;
      break;
    default: {
      // Capsule: a cylinder of length 2b and two hemispheres of radius a (centres of mass 3a/8
      // from their flat faces), by the parallel-axis theorem.
      const double vc = 2.0 * b, vh = 2.0 / 3.0 * a;  // volumes / (pi a^2)
      const double mc = mass * vc / (vc + 2.0 * vh), mh = mass * vh / (vc + 2.0 * vh);
      J(2, 2) = 0.5 * mc * a * a + 2.0 * 0.4 * mh * a * a;
      const double d = b + 3.0 / 8.0 * a;
      J(0, 0) = J(1, 1) =
          mc * (3.0 * a * a + 4.0 * b * b) / 12.0 + 2.0 * (mh * (0.4 - 9.0 / 64.0) * a * a + mh * d * d);
      break;
    }
  }
  return make_spatial_inertia(mass, Vec3{{0, 0, 0}}, J);
}

// "mass" or "density" (exactly one) of a body of volume @p volume.
double read_mass(JsonObject& o, double volume) {
  const bool m = o.has("mass"), d = o.has("density");
  if (m == d) o.fail("mass", "expected exactly one of \"mass\" (kg) and \"density\" (kg/m^3)");
  if (m) return o.real_above("mass", std::nullopt, 0.0);
  return o.real_above("density", std::nullopt, 0.0) * volume;
}

ElasticParameters read_material(JsonObject o, MaterialModel& model) {
  model = parse_material_model(
      o.choice("model", {"linear", "corotational", "arap", "st_venant_kirchhoff", "stable_neo_hookean"}, std::nullopt));
  ElasticParameters p;
  p.youngs_modulus = o.real_above("youngs_modulus", std::nullopt, 0.0);
  p.poisson_ratio = o.real("poisson_ratio", p.poisson_ratio, -1.0, 0.5, "a number in [-1, 0.5)");
  if (!(p.poisson_ratio < 0.5)) o.fail("poisson_ratio", "expected a number in [-1, 0.5), found 0.5");
  o.finish();
  return p;
}

}  // namespace

RigidSpec read_rigid(JsonObject& o, const std::filesystem::path& base_dir) {
  RigidSpec r;
  const ShapeSource shape = read_shape(*o.object("shape"), base_dir);
  std::optional<ShapeSource> collider;
  if (std::optional<JsonObject> c = o.object("collider", true)) collider = read_shape(*c, base_dir);
  r.collides = o.boolean("collides", true);
  // A mesh shape is moved so that its centroid is the body origin (the centre of mass); a mesh
  // collider moves with it.
  Vec3 shift{{0, 0, 0}};
  try {  // a finite mass of a finite shape can still overflow (1e300 m half extents)
    if (shape.mesh) {
      const MeshMassProperties p = mesh_mass_properties(*shape.mesh, "its mesh");
      shift = p.centroid;
      r.inertia = mesh_inertia(p, read_mass(o, p.volume));
      r.shape_mesh = shifted(*shape.mesh, shift);
    } else {
      r.shape = shape.shape;
      r.inertia = shape_inertia(r.shape, read_mass(o, shape_volume(r.shape)));
    }
  } catch (const Error& e) {
    if (std::string(e.what()).rfind(o.file() + ": ", 0) == 0) throw;  // already ours
    o.fail("shape", e.what());
  }
  const ShapeSource& contact = collider ? *collider : shape;
  if (contact.mesh)
    r.collider_mesh = shifted(*contact.mesh, shift);
  else
    r.collider = contact.shape;
  r.position = read_vec3(o, "position", Vec3{{0, 0, 0}});
  r.orientation = normalized(quat_from_rotation_matrix(read_rotation(o, "rotation")));
  r.velocity = read_vec3(o, "velocity", Vec3{{0, 0, 0}});
  r.angular_velocity = read_vec3(o, "angular_velocity", Vec3{{0, 0, 0}});
  r.fixed = o.boolean("fixed", false);
  if (std::optional<JsonObject> m = o.object("motion", true)) {
    // A prescribed, piecewise-constant twist (constraints::PrescribedMotion).
    constraints::TwistProfile p;
    p.velocity = read_vec3(*m, "velocity", Vec3{{0, 0, 0}});
    p.angular_velocity = read_vec3(*m, "angular_velocity", Vec3{{0, 0, 0}});
    for (JsonObject& c : m->objects("changes", true)) {
      const double time = c.real("time", std::nullopt, 0.0);
      if (!p.changes.empty() && !(time > p.changes.back().time))
        c.fail("time", "expected a time after the previous change's");
      p.changes.push_back(
          {time, read_vec3(c, "velocity", Vec3{{0, 0, 0}}), read_vec3(c, "angular_velocity", Vec3{{0, 0, 0}})});
      c.finish();
    }
    r.motion_reduced = m->choice("method", {"rows", "reduce"}, std::string("rows")) == "reduce";
    m->finish();
    if (r.fixed) o.fail("motion", "a fixed body cannot also be driven");
    r.motion = p;
  }
  return r;
}

SelectionContext selection_context(const std::vector<Vec3>& x, bool membrane, const TetMesh& tets) {
  SelectionContext context;
  context.vertices = &x;
  if (membrane) {
    for (Index i = 0; i < static_cast<Index>(x.size()); ++i) context.surface.push_back(i);
  } else {
    std::set<Index> s;
    for (const auto& tri : boundary_triangles(tets).triangles) s.insert(tri.begin(), tri.end());
    context.surface.assign(s.begin(), s.end());
  }
  return context;
}

DeformableSpec read_deformable(JsonObject& o, bool cloth, const std::filesystem::path& base_dir) {
  DeformableSpec d;
  d.membrane = cloth;
  MeshSource mesh = read_mesh_source(o, "mesh", base_dir, !cloth, cloth);
  // Placement of the mesh: x -> R x + t.
  const Mat3 R = read_rotation(o, "rotation");
  const Vec3 t = read_vec3(o, "translation", Vec3{{0, 0, 0}});
  std::vector<Vec3>& x = cloth ? mesh.triangles.vertices : mesh.tets.vertices;
  const bool moved = o.has("rotation") || o.has("translation");
  if (moved)
    for (Vec3& v : x) {
      const Vec3 r{{R(0, 0) * v[0] + R(0, 1) * v[1] + R(0, 2) * v[2], R(1, 0) * v[0] + R(1, 1) * v[1] + R(1, 2) * v[2],
                    R(2, 0) * v[0] + R(2, 1) * v[1] + R(2, 2) * v[2]}};
      v = Vec3{{r[0] + t[0], r[1] + t[1], r[2] + t[2]}};
    }
  d.parameters = read_material(*o.object("material"), d.model);
  if (cloth) {
    const bool m = o.has("particle_mass"), a = o.has("area_density");
    if (m == a) o.fail("particle_mass", "expected exactly one of \"particle_mass\" (kg) and \"area_density\" (kg/m^2)");
    if (m) d.particle_mass = o.real_above("particle_mass", std::nullopt, 0.0);
    if (a) d.density = o.real_above("area_density", std::nullopt, 0.0);
  } else {
    d.density = o.real_above("density", std::nullopt, 0.0);
  }
  if (o.has("fixed")) d.fixed = read_selection(o, "fixed", selection_context(x, cloth, mesh.tets));
  if (o.has("regions")) {
    // Element regions of a mesh file (Gmsh physical groups or volumes, TetGen region attributes)
    // with their own material and density; the other tets keep the body's.
    if (cloth) o.fail("regions", "a cloth has one material; element regions need tets");
    d.tet_material = read_element_regions(o, mesh.tets, [&](JsonObject& r) {
      RegionMaterial m;
      m.parameters = read_material(*r.object("material"), m.model);
      m.density = r.real_above("density", d.density, 0.0);
      d.region_materials.push_back(m);
    });
  }
  d.contact = o.boolean("contact", true);
  d.self_contact = o.boolean("self_contact", false);
  if (d.self_contact && cloth) o.fail("self_contact", "a cloth is not a contact surface; self-contact needs tets");
  if (std::optional<JsonObject> c = o.object("collision_surface", true)) {
    // The boundary refined n times, or a triangle mesh placed with the body; embedded in its tets
    // by build() (scene::embed_points, which names a point outside every tet).
    if (cloth) o.fail("collision_surface", "a cloth's contact is its own vertices; a collision surface needs tets");
    if (c->has("refine") == c->has("mesh")) c->fail("refine", "expected exactly one of \"refine\" and \"mesh\"");
    if (c->has("refine")) {
      const long long n = c->integer("refine", std::nullopt, 0, 4);
      TriangleMesh surface = boundary_triangles(mesh.tets);
      for (long long k = 0; k < n; ++k) surface = refine_triangles(surface);
      d.collision_surface = std::move(surface);
    } else {
      TriangleMesh surface = read_mesh_source(*c, "mesh", base_dir, false, true).triangles;
      if (moved)
        for (Vec3& v : surface.vertices) v = R * v + t;
      d.collision_surface = std::move(surface);
    }
    // embed_points tries every point against every tet: keep the setup to seconds.
    const double work = static_cast<double>(d.collision_surface->vertices.size()) * mesh.tets.tets.size();
    if (work > 5e7)
      c->fail("", std::to_string(d.collision_surface->vertices.size()) + " surface points in " +
                      std::to_string(mesh.tets.tets.size()) + " tets are too many to embed (at most 5e7 pairs)");
    c->finish();
  }
  d.tets = std::move(mesh.tets);
  d.triangles = std::move(mesh.triangles);
  return d;
}
}  // namespace sinew::scene::detail
