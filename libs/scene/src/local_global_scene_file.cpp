// "local_global" scene files (scene_file_kinds.hpp): solids and cloth for LocalGlobalIntegrator,
// their targets and motions, cables and obstacles, read into a SolidScene whose driver evaluates
// every motion at the end of the step it constrains (t_{n+1} = (n + 1) h), as the builders of
// solid_scenes.hpp and cloth_scenes.hpp do. docs/scene_files.md documents the keys.
#include <algorithm>
#include <cctype>
#include <cmath>
#include <limits>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "local_global_scene_file.hpp"
#include "scene_file_common.hpp"
#include "scene_file_kinds.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/scene/file_names.hpp"
#include "sinew/scene/local_global_simulation.hpp"
#include "target_rotation.hpp"

namespace sinew::scene::detail {

namespace {

using integrators::LocalGlobalDescription;
using integrators::LocalGlobalIntegrator;
using integrators::LocalGlobalMaterial;
using integrators::LocalGlobalOptions;

// A declarative motion of a group of targets, evaluated at t_{n+1} before step n.
struct TargetMotion {
  enum class Kind { kFixed, kTranslate, kRotate } kind = Kind::kFixed;
  Vec3 velocity{{0, 0, 0}};        // translate (m/s)
  Vec3 axis{{1, 0, 0}};            // rotate: unit axis
  Vec3 point{{0, 0, 0}};           // rotate: a point on the axis
  double omega = 0.0;              // rotate: rad/s about axis (right-handed)
  std::optional<double> duration;  // s; afterwards the motion holds
};

// A group of targets: indices [first, first + rest.size()) of description.targets, one motion.
struct TargetGroup {
  std::size_t first = 0;
  std::vector<Vec3> rest;  // (targets) positions at t = 0
  TargetMotion motion;
};

struct CablePull {
  double distance = 0.0;  // m, reached after `steps` steps
  long steps = 1;
};

struct Follow {
  std::size_t obstacle = 0;
  Index first = 0, count = 0;  // the followed body's vertices
};

// Where @p p is at the end of step @p step of @p lg under @p m (see the file comment).
Vec3 moved(const TargetMotion& m, const Vec3& p, const LocalGlobalIntegrator& lg, double h, long step) {
  if (m.kind == TargetMotion::Kind::kTranslate) {
    if (!m.duration) {  // as pulled_through_gap_scene: p + v h (n + 1)
      Vec3 q{};
      for (int i = 0; i < 3; ++i) q[i] = p[i] + m.velocity[i] * h * static_cast<double>(step + 1);
      return q;
    }
    // as drive_targets(): t = time() + h, held after the duration
    const double tau = std::min(std::max(lg.time() + h, 0.0), *m.duration);
    return Vec3{{p[0] + tau * m.velocity[0], p[1] + tau * m.velocity[1], p[2] + tau * m.velocity[2]}};
  }
  // Rotation by the angle about the axis through the point: parallel part kept, perpendicular
  // part turned (Rodrigues), exactly the builders' formula for a coordinate axis through 0.
  const double angle = m.duration ? m.omega * std::min(std::max(lg.time() + h, 0.0), *m.duration)
                                  : m.omega * h * static_cast<double>(step + 1);
  return detail::rotate_about(p, m.point, m.axis, angle);
}

TargetMotion read_motion(JsonObject& target) {
  TargetMotion m;
  std::optional<JsonObject> obj = target.object("motion", true);
  if (!obj) return m;
  const std::string type = obj->choice("type", {"fixed", "translate", "rotate"}, std::nullopt);
  if (type == "translate") {
    m.kind = TargetMotion::Kind::kTranslate;
    m.velocity = read_vec3(*obj, "velocity", std::nullopt);
  } else if (type == "rotate") {
    m.kind = TargetMotion::Kind::kRotate;
    m.axis = read_vec3(*obj, "axis", std::nullopt);
    const double len = norm(m.axis);
    if (!(len > 0.0)) obj->fail("axis", "expected a non-zero axis");
    for (int i = 0; i < 3; ++i) m.axis[i] /= len;
    m.point = read_vec3(*obj, "point", Vec3{{0, 0, 0}});
    m.omega = obj->real("angular_velocity", std::nullopt);
  }
  if (type != "fixed" && obj->has("duration")) m.duration = obj->real("duration", std::nullopt, 0.0);
  obj->finish();
  return m;
}

// The material at "material" of @p obj, its keys not given (or all, when it is absent) those of @p m.
LocalGlobalMaterial read_material(JsonObject& obj, LocalGlobalMaterial m) {
  std::optional<JsonObject> o = obj.object("material", true);
  if (!o) return m;
  m.model = parse_material_model(
      o->choice("model", {"arap", "corotational", "stable_neo_hookean"}, material_model_name(m.model)));
  m.elastic.youngs_modulus = o->real_above("youngs_modulus", m.elastic.youngs_modulus, 0.0);
  const double nu = o->real("poisson_ratio", m.elastic.poisson_ratio, -1.0, 0.5, "a number in (-1, 0.5)");
  if (!(nu > -1.0 && nu < 0.5)) o->fail("poisson_ratio", "expected a number in (-1, 0.5), found " + number_text(nu));
  m.elastic.poisson_ratio = nu;
  o->finish();
  return m;
}

void read_options(JsonObject& root, LocalGlobalOptions& o) {
  std::optional<JsonObject> obj = root.object("integrator", true);
  if (!obj) return;
  o.iterations = static_cast<int>(obj->integer("iterations", o.iterations, 1, 100000));
  const std::string g = obj->choice("global_step", {"sparse_inverse", "cholmod", "jacobi"}, "sparse_inverse");
  o.global_step = g == "cholmod"  ? integrators::GlobalStepKind::kCholmod
                  : g == "jacobi" ? integrators::GlobalStepKind::kJacobi
                                  : integrators::GlobalStepKind::kSparseInverse;
  o.jacobi_iterations = static_cast<int>(obj->integer("jacobi_iterations", o.jacobi_iterations, 1, 100000));
  o.jacobi_relaxation = obj->real("jacobi_relaxation", o.jacobi_relaxation, 0.0, 1.0);
  o.neo_hookean_weight = obj->real_above("neo_hookean_weight", o.neo_hookean_weight, 0.0);
  o.neo_hookean_weight_floor = obj->real("neo_hookean_weight_floor", o.neo_hookean_weight_floor, 0.0);
  o.record_energy = obj->boolean("record_energy", o.record_energy);
  if (std::optional<JsonObject> c = obj->object("contact", true)) {
    const integrators::ContactSolve was = o.contact.solve;
    const std::string solve = c->choice("solve", {"auto", "converged", "seed_steps"},
                                        was == integrators::ContactSolve::kSeedSteps   ? "seed_steps"
                                        : was == integrators::ContactSolve::kConverged ? "converged"
                                                                                       : "auto");
    o.contact.solve = solve == "seed_steps"  ? integrators::ContactSolve::kSeedSteps
                      : solve == "converged" ? integrators::ContactSolve::kConverged
                                             : integrators::ContactSolve::kAuto;
    const std::string f =
        c->choice("function", {"fischer_burmeister", "min_map"},
                  o.contact.function == constraints::NcpFunction::kMinMap ? "min_map" : "fischer_burmeister");
    o.contact.function =
        f == "min_map" ? constraints::NcpFunction::kMinMap : constraints::NcpFunction::kFischerBurmeister;
    o.contact.tolerance = c->real("tolerance", o.contact.tolerance, 0.0);
    o.contact.warn_error = c->real("warn_error", o.contact.warn_error, 0.0);
    o.contact.max_newton_steps =
        static_cast<int>(c->integer("max_newton_steps", o.contact.max_newton_steps, 1, 100000));
    o.contact.cr_iterations = static_cast<int>(c->integer("cr_iterations", o.contact.cr_iterations, 1, 100000));
    o.contact.newton_steps = static_cast<int>(c->integer("newton_steps", o.contact.newton_steps, 1, 1000));
    const std::string p = c->choice("preconditioner", {"delassus_diagonal", "mass_inverse"}, "delassus_diagonal");
    o.contact.preconditioner = p == "mass_inverse" ? integrators::ContactPreconditioner::kMassInverse
                                                   : integrators::ContactPreconditioner::kDelassusDiagonal;
    o.contact.warm_start = c->boolean("warm_start", o.contact.warm_start);
    const std::string schur = c->choice("schur", {"auto", "sparse", "dense"}, "auto");
    o.contact.schur = schur == "sparse"  ? integrators::SchurAssembly::kSparse
                      : schur == "dense" ? integrators::SchurAssembly::kDense
                                         : integrators::SchurAssembly::kAuto;
    o.contact.reuse_delassus = c->boolean("reuse_delassus", o.contact.reuse_delassus);
    const std::string form = c->choice("delassus", {"auto", "explicit", "operator"}, "auto");
    o.contact.delassus = form == "explicit"   ? integrators::DelassusForm::kExplicit
                         : form == "operator" ? integrators::DelassusForm::kOperator
                                              : integrators::DelassusForm::kAuto;
    c->finish();
  }
  try {
    o.validate();
  } catch (const Error& e) {
    obj->fail("", e.what());
  }
  obj->finish();
}

// A body as the reader keeps it: its mesh, ranges, what selections refer to and its materials.
struct BodyInfo {
  LocalGlobalBody range;
  MeshSource mesh;
  SelectionContext context;
  std::vector<LocalGlobalMaterial> materials;  // the body's own, then one per entry of "regions"
  std::vector<Index> tet_region;               // (tets) entry of materials of each tet; empty = all 0
  bool own_material = false;                   // the body gives a material, density, thickness or regions
};

// The body's material keys of @p b ("material", "density", "thickness", "regions"), the
// scene's top-level @p scene where absent.
void read_body_materials(JsonObject& b, const LocalGlobalMaterial& scene, BodyInfo& info) {
  info.own_material = b.has("material") || b.has("density") || b.has("thickness") || b.has("regions");
  LocalGlobalMaterial m = read_material(b, scene);
  m.density = b.real_above("density", scene.density, 0.0);
  if (b.has("thickness") && !info.mesh.membrane)
    b.fail("thickness", "a solid has no thickness; it is a membrane's (triangles)");
  m.thickness = b.real_above("thickness", scene.thickness, 0.0);
  info.materials = {m};
  if (!b.has("regions")) return;
  // Element regions of a mesh file (Gmsh physical groups or volumes, TetGen region attributes)
  // with their own material and density; the other tets keep the body's.
  if (info.mesh.membrane) b.fail("regions", "a membrane has one material; element regions need tets");
  info.tet_region = read_element_regions(b, info.mesh.tets, [&](JsonObject& r) {
    if (!r.has("material")) r.fail("material", "expected the region's material (its keys default to the body's)");
    LocalGlobalMaterial region = read_material(r, m);
    region.density = r.real_above("density", m.density, 0.0);
    info.materials.push_back(region);
  });
}

// d.materials, tet_material and triangle_material of @p bodies (appended in order) when one of
// them has its own material (an index stays empty when no body has that kind of element);
// otherwise none: every element is of the description's own material, as before materials.
void set_materials(const std::vector<BodyInfo>& bodies, LocalGlobalDescription& d) {
  if (std::none_of(bodies.begin(), bodies.end(), [](const BodyInfo& b) { return b.own_material; })) return;
  for (const BodyInfo& b : bodies) {
    const Index first = static_cast<Index>(d.materials.size());
    d.materials.insert(d.materials.end(), b.materials.begin(), b.materials.end());
    for (std::size_t e = 0; e < b.range.tet_count; ++e)
      d.tet_material.push_back(first + (b.tet_region.empty() ? 0 : b.tet_region[e]));
    d.triangle_material.insert(d.triangle_material.end(), b.range.triangle_count, first);
  }
}

std::vector<BodyInfo> read_bodies(JsonObject& root, const std::filesystem::path& base_dir, LocalGlobalDescription& d,
                                  std::vector<Index>& contact, bool& contact_all) {
  const LocalGlobalMaterial scene_material{d.model, d.elastic, d.density, d.thickness};
  std::vector<JsonObject> list = root.objects("bodies");
  if (list.empty()) root.fail("bodies", "expected at least one body");
  std::vector<BodyInfo> bodies;
  contact_all = true;
  for (std::size_t i = 0; i < list.size(); ++i) {
    JsonObject& b = list[i];
    BodyInfo info;
    info.range.name = b.string("name", "body" + std::to_string(i));
    if (!is_safe_file_name(info.range.name)) b.fail("name", std::string("expected ") + kSafeFileNameRule);
    for (const BodyInfo& other : bodies)
      if (other.range.name == info.range.name)
        b.fail("name", "a body named \"" + info.range.name + "\" exists already");
    info.mesh = read_mesh_source(b, "mesh", base_dir);
    const std::string c = b.choice("contact", {"surface", "all", "none"}, info.mesh.membrane ? "all" : "surface");
    read_body_materials(b, scene_material, info);
    b.finish();
    const Index offset = static_cast<Index>(d.rest_positions.size() / 3);
    info.range.first_vertex = offset;
    info.range.vertex_count = static_cast<Index>(info.mesh.vertices().size());
    info.range.first_tet = d.tets.size() / 4;
    info.range.first_triangle = d.triangles.size() / 3;
    if (info.mesh.membrane) {
      for (const Vec3& v : info.mesh.triangles.vertices)
        d.rest_positions.insert(d.rest_positions.end(), {v[0], v[1], v[2]});
      for (const auto& t : info.mesh.triangles.triangles)
        for (Index v : t) d.triangles.push_back(v + offset);
      info.range.triangle_count = info.mesh.triangles.triangles.size();
      for (Index v = 0; v < info.range.vertex_count; ++v) info.context.surface.push_back(v);
    } else {
      append_mesh(d, info.mesh.tets);
      info.range.tet_count = info.mesh.tets.tets.size();
      info.context.surface = surface_vertices(info.mesh.tets);
    }
    if (c == "all")
      for (Index v = 0; v < info.range.vertex_count; ++v) contact.push_back(v + offset);
    else if (c == "surface")
      for (Index v : info.context.surface) contact.push_back(v + offset);
    contact_all = contact_all && (c == "all" || (c == "surface" && info.mesh.membrane));
    bodies.push_back(std::move(info));
  }
  for (BodyInfo& b : bodies) b.context.vertices = &b.mesh.vertices();
  set_materials(bodies, d);
  return bodies;
}

// The body named at @p key of @p obj.
const BodyInfo& body_at(JsonObject& obj, const std::string& key, const std::vector<BodyInfo>& bodies) {
  const std::string name =
      obj.string(key, bodies.size() == 1 ? std::optional<std::string>(bodies[0].range.name) : std::nullopt);
  for (const BodyInfo& b : bodies)
    if (b.range.name == name) return b;
  std::string names;
  for (const BodyInfo& b : bodies) names += (names.empty() ? "\"" : ", \"") + b.range.name + "\"";
  obj.fail(key, "no body named \"" + name + "\"; the bodies are " + names);
}

}  // namespace

LocalGlobalParts read_local_global_parts(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out) {
  LocalGlobalParts parts;
  SolidScene& s = parts.scene;
  s.name = out.name;
  s.frames = static_cast<int>(std::min<long>(out.steps, 1000000000L));
  LocalGlobalDescription& d = s.description;
  d.time_step = root.real_above("time_step", d.time_step, 0.0, 1e3);
  d.gravity = read_vec3(root, "gravity", d.gravity);
  d.density = root.real_above("density", d.density, 0.0);
  d.thickness = root.real_above("thickness", d.thickness, 0.0);
  d.contact_margin = root.real("contact_margin", d.contact_margin);
  d.contact_thickness = root.real("contact_thickness", d.contact_thickness, 0.0);
  d.body_contact = root.boolean("body_contact", d.body_contact);
  d.obstacle_features = root.boolean("obstacle_features", d.obstacle_features);
  d.body_friction =
      root.real("body_friction", d.body_friction, 0.0, std::numeric_limits<double>::max(), "a number >= 0");
  d.self_contact = root.boolean("self_contact", d.self_contact);
  d.self_friction =
      root.real("self_friction", d.self_friction, 0.0, std::numeric_limits<double>::max(), "a number >= 0");
  const std::string bending = root.choice("bending", {"none", "quadratic", "laplace_beltrami"}, "none");
  d.bending = bending == "quadratic"          ? integrators::BendingModel::kQuadratic
              : bending == "laplace_beltrami" ? integrators::BendingModel::kLaplaceBeltrami
                                              : integrators::BendingModel::kNone;
  d.bending_stiffness = root.real("bending_stiffness", d.bending_stiffness, 0.0);
  const LocalGlobalMaterial scene_material = read_material(root, LocalGlobalMaterial{d.model, d.elastic});
  d.model = scene_material.model;
  d.elastic = scene_material.elastic;
  read_options(root, s.options);

  std::vector<Index> contact;
  bool contact_all = true;
  std::vector<BodyInfo> bodies = read_bodies(root, base_dir, d, contact, contact_all);
  const Index n = static_cast<Index>(d.rest_positions.size() / 3);
  d.contact_vertices = contact_all ? std::vector<Index>{} : contact;  // empty = every vertex
  std::sort(d.contact_vertices.begin(), d.contact_vertices.end());

  std::vector<TargetGroup> groups;
  std::vector<JsonObject> targets = root.objects("targets", true);
  for (JsonObject& t : targets) {
    const BodyInfo& b = body_at(t, "body", bodies);
    const std::vector<Index> sel = read_selection(t, "selection", b.context);
    const double w = t.real("weight", 0.0, 0.0);
    TargetGroup g;
    g.first = d.targets.size();
    g.motion = read_motion(t);
    t.finish();
    for (Index v : sel) {
      const Vec3& p = (*b.context.vertices)[static_cast<std::size_t>(v)];
      d.targets.push_back({v + b.range.first_vertex, p, w});
      g.rest.push_back(p);
    }
    if (g.motion.kind != TargetMotion::Kind::kFixed) groups.push_back(std::move(g));
  }

  std::vector<CablePull> pulls;
  std::vector<JsonObject> cables = root.objects("cables", true);
  for (JsonObject& c : cables) {
    const BodyInfo& b = body_at(c, "body", bodies);
    integrators::Cable cable;
    for (Index v : read_chain(c, "route", b.context)) cable.vertices.push_back(v + b.range.first_vertex);
    cable.rest_length = c.real("rest_length", -1.0);
    CablePull pull;
    if (std::optional<JsonObject> p = c.object("pull", true)) {
      pull.distance = p->real("distance", std::nullopt, 0.0);
      pull.steps = static_cast<long>(p->integer("steps", 1, 1, 1000000000));
      p->finish();
    }
    c.finish();
    try {
      integrators::validate_cables({cable}, d.rest_positions, n, "cable");
    } catch (const Error& e) {
      c.fail("route", e.what());
    }
    const double length =
        cable.rest_length < 0 ? integrators::cable_length(cable, d.rest_positions) : cable.rest_length;
    if (!(pull.distance < length))
      c.fail("pull", "expected a pull distance below the cable's rest length " + number_text(length) + " m");
    d.cables.push_back(cable);
    pulls.push_back(pull);
  }

  std::vector<Follow> follows;
  std::vector<JsonObject> obstacles = root.objects("obstacles", true);
  for (JsonObject& o : obstacles) {
    Obstacle ob;
    if (o.has("mesh")) {
      ob = read_mesh_obstacle(o, base_dir);  // closed or "open", exact or a grid
    } else {
      const PlacedShape shape = read_placed_shape(o);
      ob.shape = shape.shape;
      ob.pose = shape.pose;
    }
    ob.motion.linear = read_vec3(o, "velocity", Vec3{{0, 0, 0}});
    ob.motion.angular = read_vec3(o, "angular_velocity", Vec3{{0, 0, 0}});
    ob.friction = o.real("friction", 0.0, 0.0);
    if (o.has("follow_centroid_of")) {
      const BodyInfo& b = body_at(o, "follow_centroid_of", bodies);
      follows.push_back({d.obstacles.size(), b.range.first_vertex, b.range.vertex_count});
      parts.hidden.push_back(d.obstacles.size());  // drawn as the body it follows
    }
    o.finish();
    d.obstacles.push_back(ob);
  }
  if ((!d.obstacles.empty() || !d.cables.empty()) &&
      s.options.global_step != integrators::GlobalStepKind::kSparseInverse)
    root.fail("integrator", std::string("obstacles and cables need \"global_step\": \"sparse_inverse\", found \"") +
                                integrators::global_step_name(s.options.global_step) + "\"");
  if (!d.obstacles.empty() && !contact_all && contact.empty())
    root.fail("obstacles", "there are obstacles but every body has \"contact\": \"none\"");
  root.finish();

  const double h = d.time_step;
  if (!groups.empty() || !pulls.empty() || !follows.empty())
    s.drive = [groups, pulls, follows, h](LocalGlobalIntegrator& lg, long step) {
      for (const TargetGroup& g : groups)
        for (std::size_t k = 0; k < g.rest.size(); ++k)
          lg.set_target(g.first + k, moved(g.motion, g.rest[k], lg, h, step));
      for (std::size_t k = 0; k < pulls.size(); ++k)
        if (pulls[k].distance > 0.0)
          lg.set_cable_pull(k, pulls[k].distance *
                                   std::min(1.0, static_cast<double>(step + 1) / static_cast<double>(pulls[k].steps)));
      if (follows.empty()) return;
      const std::vector<double> x = lg.positions();
      const std::vector<double>& m = lg.masses();
      for (const Follow& f : follows) {  // mass centroid, summed in vertex order
        Vec3 c{{0, 0, 0}};
        double total = 0.0;
        for (Index v = f.first; v < f.first + f.count; ++v) {
          const std::size_t i = static_cast<std::size_t>(v);
          for (int a = 0; a < 3; ++a) c[a] += m[i] * x[3 * i + a];
          total += m[i];
        }
        for (int a = 0; a < 3; ++a) c[a] /= total;
        lg.set_obstacle(f.obstacle, Pose{lg.obstacles()[f.obstacle].pose.rotation, c},
                        Motion{{{0, 0, 0}}, {{0, 0, 0}}});
      }
    };
  s.first_body_vertices = bodies[0].range.vertex_count;
  out.time_step = h;
  for (const BodyInfo& b : bodies) parts.bodies.push_back(b.range);
  return parts;
}

void read_local_global_scene(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out) {
  const LocalGlobalParts parts = read_local_global_parts(root, base_dir, out);
  out.make = [parts](Backend& backend) -> std::unique_ptr<Simulation> {
    auto sim = std::make_unique<LocalGlobalSimulation>(backend, parts.scene, parts.bodies);
    for (std::size_t k : parts.hidden) sim->hide_obstacle(k);
    return sim;
  };
}

}  // namespace sinew::scene::detail
