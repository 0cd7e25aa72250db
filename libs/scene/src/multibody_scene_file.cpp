// The "multibody" kind of scene file (docs/scene_files.md, "Multibody scenes"): rigid bodies,
// FEM solids and cloth in one model::MechanicalSystem, joints, static obstacles and frictional
// contact, stepped by integrators::ContactStep with a named contact solver or by an implicit
// integrator of make_integrator(). Keys map one to one onto the fields of the parameter structs
// (ContactStepOptions, PgsOptions, constraints::NewtonOptions, IndicatorNewtonOptions, SapOptions,
// integrators::NewtonOptions, ContactOptions, ElasticParameters). The whole system is built once
// while reading (no backend needed), so every check of the model runs in read_scene_file() and
// names the JSON path; make() builds it again on the caller's backend.
#include <algorithm>
#include <cmath>
#include <limits>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "multibody_spec.hpp"
#include "scene_file_kinds.hpp"
#include "sinew/core/error.hpp"
#include "sinew/scene/file_names.hpp"

namespace sinew::scene::detail {
namespace {

constexpr double kInf = std::numeric_limits<double>::infinity();

// Surface materials by name, in order of first use ("default", index 0, for whatever names none).
class SurfaceMaterials {
 public:
  // The material named by @p o's "surface_material" (default: "default").
  Index read(JsonObject& o) {
    const std::string name = o.string("surface_material", "default");
    const auto it = index_.find(name);
    if (it != index_.end()) return it->second;
    const Index k = static_cast<Index>(index_.size());
    index_.emplace(name, k);
    return k;
  }
  // The material @p name, which a body or obstacle must have used.
  Index find(JsonObject& o, const std::string& key, const std::string& name) const {
    const auto it = index_.find(name);
    if (it == index_.end()) {
      std::string known;
      for (const auto& [n, k] : index_) known += (known.empty() ? "" : ", ") + ("\"" + n + "\"");
      o.fail(key, "no body or obstacle has the surface material \"" + name + "\"; known: " + known);
    }
    return it->second;
  }

 private:
  std::map<std::string, Index> index_{{"default", 0}};
};

void read_side(JsonObject o, const std::map<std::string, int>& rigid_names, int& body, Vec3& origin, Vec3& axis,
               Vec3& reference) {
  const std::string name = o.string("body", std::nullopt);
  if (name == "world") {
    body = -1;
  } else {
    const auto it = rigid_names.find(name);
    if (it == rigid_names.end()) {
      std::string known;
      for (const auto& [n, i] : rigid_names) known += ", \"" + n + "\"";
      o.fail("body", "no rigid body named \"" + name + "\"; expected \"world\"" + known);
    }
    body = it->second;
  }
  origin = read_vec3(o, "origin", Vec3{{0, 0, 0}});
  axis = read_vec3(o, "axis", Vec3{{0, 0, 1}});
  reference = read_vec3(o, "reference", Vec3{{1, 0, 0}});
  o.finish();
}

JointSpec read_joint(JsonObject& o, std::size_t k, const std::map<std::string, int>& rigid_names) {
  JointSpec j;
  j.path = o.path();
  j.type = o.choice("type", {"ball", "hinge", "slider", "fixed"}, std::nullopt);
  j.name = o.string("name", "joint " + std::to_string(k));
  read_side(*o.object("a"), rigid_names, j.body_a, j.origin_a, j.axis_a, j.reference_a);
  read_side(*o.object("b"), rigid_names, j.body_b, j.origin_b, j.axis_b, j.reference_b);
  if (j.body_a < 0 && j.body_b < 0) o.fail("b", "a joint needs a rigid body on at least one side");
  j.options.compliance.compliance = o.real("compliance", 0.0, 0.0);
  j.options.compliance.damping = o.real("damping", 0.0, 0.0);
  if (j.type == "hinge" || j.type == "slider") {
    if (std::optional<JsonObject> l = o.object("limit", true)) {
      j.options.limit.enabled = true;
      j.options.limit.lower = l->has("lower") ? l->real("lower", std::nullopt) : -kInf;
      j.options.limit.upper = l->has("upper") ? l->real("upper", std::nullopt) : kInf;
      j.options.limit.margin = l->real("margin", j.options.limit.margin, 0.0);
      if (!(j.options.limit.lower < j.options.limit.upper)) l->fail("upper", "expected upper > lower");
      l->finish();
    }
    if (o.has("drive_speed")) {
      j.options.drive.enabled = true;
      j.options.drive.speed = o.real("drive_speed", std::nullopt);
    }
    // A speed profile: from each change's time on, its speed (constraints::JointDrive).
    std::vector<JsonObject> changes = o.objects("drive_changes", true);
    for (JsonObject& c : changes) {
      j.options.drive.enabled = true;
      const double time = c.real("time", std::nullopt, 0.0);
      if (!j.options.drive.changes.empty() && !(time > j.options.drive.changes.back().time))
        c.fail("time", "expected a time after the previous change's");
      j.options.drive.changes.push_back({time, c.real("speed", std::nullopt)});
      c.finish();
    }
  }
  o.finish();
  return j;
}

// An attachment: "body" (deformable, cloth or rigid), "nodes" (a vertex selection of a
// deformable), "to" (rigid, or a solid for nodes), "method" ("rows" or "reduce"), "name".
AttachmentSpec read_attachment(JsonObject& o, std::size_t k, const MultibodySpec& spec,
                               const std::map<std::string, std::size_t>& deformable_names,
                               const std::map<std::string, int>& rigid_names) {
  AttachmentSpec a;
  a.path = o.path();
  a.name = o.string("name", "attachment " + std::to_string(k));
  a.reduce = o.choice("method", {"rows", "reduce"}, std::string("rows")) == "reduce";
  const std::string body = o.string("body", std::nullopt), to = o.string("to", std::nullopt);
  const auto find = [&](const std::string& key, const std::string& name) {
    if (const auto d = deformable_names.find(name); d != deformable_names.end()) return BodySpec{false, d->second};
    if (const auto r = rigid_names.find(name); r != rigid_names.end())
      return BodySpec{true, static_cast<std::size_t>(r->second)};
    o.fail(key, "no body named \"" + name + "\"");
  };
  a.body = find("body", body);
  a.to = find("to", to);
  if (a.body.rigid) {
    if (!a.to.rigid) o.fail("to", "a rigid body is attached to a rigid body (welded); \"" + to + "\" is deformable");
    if (a.body.index == a.to.index) o.fail("to", "a body cannot be attached to itself");
    if (o.has("nodes")) o.fail("nodes", "a rigid body has no nodes; it is attached whole");
    if (spec.rigid[a.body.index].motion || spec.rigid[a.body.index].fixed)
      o.fail("body", "\"" + body + "\" is driven or fixed; it cannot also be attached");
  } else {
    if (!a.to.rigid && spec.deformable[a.to.index].membrane)
      o.fail("to", "nodes are attached inside the tets of a solid or to a rigid body; \"" + to + "\" is a cloth");
    if (!a.to.rigid && a.body.index == a.to.index) o.fail("to", "a body cannot be attached to itself");
    const DeformableSpec& def = spec.deformable[a.body.index];
    a.nodes = read_selection(
        o, "nodes",
        selection_context(def.membrane ? def.triangles.vertices : def.tets.vertices, def.membrane, def.tets));
    if (a.reduce)
      for (Index i : a.nodes)
        if (std::find(def.fixed.begin(), def.fixed.end(), i) != def.fixed.end())
          o.fail("nodes", "node " + std::to_string(i) + " of \"" + body +
                              "\" is fixed; a fixed node cannot also be attached by reduction");
  }
  o.finish();
  return a;
}

std::unique_ptr<Simulation> make_simulation(const MultibodySpec& spec, const std::string& file, Backend& backend) {
  MultibodyScene scene = build(spec, file);
  if (!spec.stepper.contact_step)
    return std::make_unique<MultibodySimulation>(std::move(scene), make_implicit(spec.stepper));
  const StepperSpec& st = spec.stepper;
  return std::make_unique<MultibodySimulation>(
      std::move(scene), make_contact_step(st.solver, st.options, backend),
      st.fallback ? make_contact_step(*st.fallback, st.options, backend) : nullptr);
}

}  // namespace

void read_multibody_scene(JsonObject& root, const std::filesystem::path& base_dir, SceneFile& out) {
  auto spec = std::make_shared<MultibodySpec>();
  spec->name = out.name;
  spec->time_step = root.real_above("time_step", std::nullopt, 0.0);
  spec->gravity = read_vec3(root, "gravity", Vec3{{0, 0, -kGravity}});

  std::map<std::string, int> rigid_names;
  std::map<std::string, std::size_t> deformable_names;
  std::set<std::string> names;
  SurfaceMaterials materials;
  std::vector<JsonObject> bodies = root.objects("bodies");
  if (bodies.empty()) root.fail("bodies", "expected at least one body");
  for (JsonObject& b : bodies) {
    const std::string type = b.choice("type", {"rigid", "deformable", "cloth"}, std::nullopt);
    const std::string name = b.string("name", std::nullopt);
    if (!is_safe_file_name(name) || name == "world")
      b.fail("name", std::string("expected a name of ") + kSafeFileNameRule + " other than \"world\"");
    if (!names.insert(name).second) b.fail("name", "a body named \"" + name + "\" already exists");
    if (type == "rigid") {
      rigid_names[name] = static_cast<int>(spec->rigid.size());
      spec->bodies.push_back(BodySpec{true, spec->rigid.size()});
      spec->rigid.push_back(read_rigid(b, base_dir));
      spec->rigid.back().name = name;
      spec->rigid.back().material = materials.read(b);
    } else {
      deformable_names[name] = spec->deformable.size();
      spec->bodies.push_back(BodySpec{false, spec->deformable.size()});
      spec->deformable.push_back(read_deformable(b, type == "cloth", base_dir));
      spec->deformable.back().name = name;
      spec->deformable.back().material = materials.read(b);
    }
    b.finish();
  }
  std::vector<JsonObject> joints = root.objects("joints", true);
  for (std::size_t k = 0; k < joints.size(); ++k) spec->joints.push_back(read_joint(joints[k], k + 1, rigid_names));
  std::vector<JsonObject> attachments = root.objects("attachments", true);
  for (std::size_t k = 0; k < attachments.size(); ++k)
    spec->attachments.push_back(read_attachment(attachments[k], k + 1, *spec, deformable_names, rigid_names));
  for (JsonObject& o : root.objects("obstacles", true)) {
    // A triangle mesh (closed or "open", exact or a grid) or an analytic shape (a half-space as
    // half_space_obstacle(), as the contact scenes build their floors and inclines).
    Obstacle ob;
    if (o.has("mesh")) {
      ob = read_mesh_obstacle(o, base_dir);
    } else {
      const PlacedShape p = read_placed_shape(o);
      ob.shape = p.shape;
      ob.pose = p.pose;
    }
    spec->obstacle_materials.push_back(materials.read(o));
    spec->obstacles.push_back(std::move(ob));
    o.finish();
  }
  if (std::optional<JsonObject> c = root.object("contact", true)) {
    spec->has_contact = true;
    spec->contact.mu = c->real("mu", spec->contact.mu, 0.0);
    spec->contact.margin = c->real("margin", spec->contact.margin, 0.0);
    spec->contact.box_friction = c->boolean("box_friction", spec->contact.box_friction);
    spec->contact.sharp_edge_angle = c->real("sharp_edge_angle", 10.0, 0.0, 180.0, "a number of degrees in [0, 180]") *
                                     3.14159265358979323846 / 180.0;
    spec->contact_name = c->string("name", "contact");
    for (JsonObject& f : c->objects("friction", true)) {
      const nlohmann::json& pair = f.value("between");
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_string() || !pair[1].is_string())
        f.fail("between", "expected two surface material names, e.g. [\"pad\", \"box\"]");
      const std::vector<std::string> between{pair[0].get<std::string>(), pair[1].get<std::string>()};
      const double mu = f.real("mu", std::nullopt, 0.0);
      spec->friction.push_back(
          {materials.find(f, "between", between[0]), materials.find(f, "between", between[1]), mu});
      f.finish();
    }
    c->finish();
  }
  spec->stepper = read_stepper(*root.object("integrator"));
  // Attachments and drives by reduction leave the system's velocities: any integrator steps them.
  const bool driven = std::any_of(spec->rigid.begin(), spec->rigid.end(),
                                  [](const RigidSpec& r) { return r.motion && !r.motion_reduced; });
  const bool attached = std::any_of(spec->attachments.begin(), spec->attachments.end(),
                                    [](const AttachmentSpec& a) { return !a.reduce; });
  if (!spec->stepper.contact_step && (spec->has_contact || !spec->joints.empty() || attached || driven))
    root.fail("integrator", "integrator \"" + spec->stepper.integrator +
                                "\" steps no contact, joints, or attachments and driven bodies by rows; use "
                                "{\"type\": \"contact_step\", ...} or \"method\": \"reduce\"");

  const std::string file = root.file();
  build(*spec, file);  // every model check now, naming the JSON path
  try {
    spec->stepper.options.validate();
  } catch (const Error& e) {
    root.fail("integrator", e.what());
  }
  out.time_step = spec->time_step;
  out.make = [spec, file](Backend& backend) { return make_simulation(*spec, file, backend); };
}

}  // namespace sinew::scene::detail
