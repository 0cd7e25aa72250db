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

#include "multibody_stepper.hpp"
#include "scene_file_common.hpp"
#include "scene_file_kinds.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/prescribed_motion.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/fem_fields.hpp"
#include "sinew/model/lumped_mass.hpp"
#include "sinew/scene/deformable_body.hpp"
#include "sinew/scene/file_names.hpp"
#include "sinew/scene/multibody_simulation.hpp"

namespace sinew::scene::detail {
namespace {

constexpr double kPi = 3.14159265358979323846;
constexpr double kInf = std::numeric_limits<double>::infinity();

// ---- the scene as read: plain data, built into a system by build() ----

struct RigidSpec {
  std::string name;
  SpatialInertia inertia;
  Shape shape, collider;
  bool collides = true, fixed = false;
  Index material = 0;                               // surface material (friction pairs)
  std::optional<constraints::TwistProfile> motion;  // kinematically driven
  Vec3 position, velocity, angular_velocity;
  Quaternion orientation = quat_identity();
};

struct DeformableSpec {
  std::string name;
  bool membrane = false;
  TetMesh tets;
  TriangleMesh triangles;
  MaterialModel model = MaterialModel::kCorotational;
  ElasticParameters parameters;
  double density = 0.0;        // solids: kg/m^3; cloth: kg/m^2 (0 when particle_mass is given)
  double particle_mass = 0.0;  // cloth: equal particle masses (0 when density is given)
  std::vector<Index> fixed;    // local vertex indices
  bool contact = true;
  Index material = 0;  // surface material (friction pairs)
};

struct BodySpec {
  bool rigid = true;
  std::size_t index = 0;  // into rigid or deformable
};

struct JointSpec {
  std::string type, name, path;
  int body_a = -1, body_b = -1;  // rigid index, -1 = world
  Vec3 origin_a, axis_a, reference_a, origin_b, axis_b, reference_b;
  constraints::AxisJointOptions options;  // compliance (all types), limit and drive (hinge, slider)
};

// Nodes of a deformable body held at points of a rigid body (a ball joint each).
struct AttachmentSpec {
  std::string name, path;
  std::size_t deformable = 0;  // into MultibodySpec::deformable
  int rigid = 0;               // into MultibodySpec::rigid
  std::vector<Index> nodes;    // local vertex indices
};

// A friction coefficient between two surface materials.
struct FrictionSpec {
  Index a = 0, b = 0;
  double mu = 0.0;
};

struct MultibodySpec {
  std::string name;
  double time_step = 0.0;
  Vec3 gravity;
  std::vector<RigidSpec> rigid;
  std::vector<DeformableSpec> deformable;
  std::vector<BodySpec> bodies;  // in file order
  std::vector<JointSpec> joints;
  std::vector<AttachmentSpec> attachments;
  std::vector<Obstacle> obstacles;
  std::vector<Index> obstacle_materials;  // (obstacles)
  std::vector<FrictionSpec> friction;
  bool has_contact = false;
  constraints::ContactOptions contact;
  std::string contact_name;
  StepperSpec stepper;
};

// ---- readers ----

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

Shape read_shape(JsonObject o) {
  const std::string type = o.choice("type", {"box", "sphere", "cylinder", "capsule"}, std::nullopt);
  Shape s{ShapeType::kBox, {0, 0, 0}};
  if (type == "box") {
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
  return s;
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

RigidSpec read_rigid(JsonObject& o) {
  RigidSpec r;
  r.shape = read_shape(*o.object("shape"));
  r.collider = r.shape;
  if (std::optional<JsonObject> c = o.object("collider", true)) r.collider = read_shape(*c);
  r.collides = o.boolean("collides", true);
  const double mass = read_mass(o, shape_volume(r.shape));
  try {  // a finite mass of a finite shape can still overflow (1e300 m half extents)
    r.inertia = shape_inertia(r.shape, mass);
  } catch (const Error& e) {
    o.fail("shape", e.what());
  }
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
    m->finish();
    if (r.fixed) o.fail("motion", "a fixed body cannot also be driven");
    r.motion = p;
  }
  return r;
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

// What a vertex selection of a body chooses from: its placed vertices @p x and its surface (every
// vertex of a membrane, the boundary vertices of a solid's @p tets).
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
  d.contact = o.boolean("contact", true);
  d.tets = std::move(mesh.tets);
  d.triangles = std::move(mesh.triangles);
  return d;
}

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

// An attachment: "body" (deformable), "nodes" (a vertex selection of it), "to" (rigid), "name".
AttachmentSpec read_attachment(JsonObject& o, std::size_t k, const MultibodySpec& spec,
                               const std::map<std::string, std::size_t>& deformable_names,
                               const std::map<std::string, int>& rigid_names) {
  AttachmentSpec a;
  a.path = o.path();
  a.name = o.string("name", "attachment " + std::to_string(k));
  const std::string body = o.string("body", std::nullopt), to = o.string("to", std::nullopt);
  const auto d = deformable_names.find(body);
  if (d == deformable_names.end()) o.fail("body", "no deformable body or cloth named \"" + body + "\"");
  const auto r = rigid_names.find(to);
  if (r == rigid_names.end()) o.fail("to", "no rigid body named \"" + to + "\"");
  a.deformable = d->second;
  a.rigid = r->second;
  const DeformableSpec& def = spec.deformable[a.deformable];
  a.nodes = read_selection(
      o, "nodes", selection_context(def.membrane ? def.triangles.vertices : def.tets.vertices, def.membrane, def.tets));
  o.finish();
  return a;
}

// ---- building ----

// Builds the system, constraints and views of @p spec; errors name the body's JSON path.
MultibodyScene build(const MultibodySpec& spec, const std::string& file) {
  MultibodyScene out;
  ContactScene& s = out.scene;
  s.name = spec.name;
  s.time_step = spec.time_step;
  s.system->set_gravity(spec.gravity);
  if (spec.has_contact) {
    s.contact = std::make_unique<constraints::ContactConstraint>(spec.contact, spec.contact_name);
    for (const FrictionSpec& f : spec.friction) s.contact->set_friction(f.a, f.b, f.mu);
  }
  for (std::size_t k = 0; k < spec.obstacles.size(); ++k) {
    const Obstacle& o = spec.obstacles[k];
    out.obstacles.push_back(o);
    if (s.contact) s.contact->add_obstacle(o.shape, o.pose, spec.obstacle_materials[k]);
  }
  std::vector<Index> first_particle(spec.deformable.size());
  std::vector<Index> rigid_index(spec.rigid.size());
  for (std::size_t k = 0; k < spec.bodies.size(); ++k) {
    const std::string where = file + ": /bodies/" + std::to_string(k) + ": ";
    try {
      if (spec.bodies[k].rigid) {
        const RigidSpec& r = spec.rigid[spec.bodies[k].index];
        const Index b =
            s.system->add_body(r.inertia, r.position, r.orientation, r.name, r.velocity, r.angular_velocity);
        rigid_index[spec.bodies[k].index] = b;
        if (r.fixed) s.system->fix_body(b);
        if (s.contact && r.collides) s.contact->add_body_collider(b, r.collider, r.material);
        if (r.motion) {
          s.joints.push_back(std::make_unique<constraints::PrescribedMotion>(r.name + " motion", b, *r.motion));
          s.joints.back()->check(*s.system);
        }
        out.rigid_bodies.push_back(RigidBodyView{b, r.name, {r.shape}});
        continue;
      }
      const DeformableSpec& d = spec.deformable[spec.bodies[k].index];
      Index first = s.system->num_particles(), count = 0;
      first_particle[spec.bodies[k].index] = first;
      if (!d.membrane) {
        s.deformables.push_back(add_deformable_body(*s.system, d.tets, d.density, d.model, d.parameters));
        count = s.deformables.back().num_particles;
        out.fem_bodies.push_back(FemBodyView{d.name, first, count, d.tets.tets, d.model, d.parameters});
      } else {
        const std::vector<Vec3>& x = d.triangles.vertices;
        std::vector<double> mass(x.size(), d.particle_mass);
        if (d.particle_mass == 0.0) {
          std::vector<double> areas;
          for (const auto& t : d.triangles.triangles)
            areas.push_back(0.5 * norm(cross(x[t[1]] - x[t[0]], x[t[2]] - x[t[0]])));
          model::add_lumped_masses(d.density, areas, d.triangles.triangles, mass);
        }
        for (std::size_t i = 0; i < x.size(); ++i) s.system->add_particle(mass[i], x[i], d.name);
        auto field = std::make_shared<model::MembraneField>(d.model, d.parameters);
        for (const auto& t : d.triangles.triangles) field->add(*s.system, {first + t[0], first + t[1], first + t[2]});
        s.system->add_force_field(field);
        count = static_cast<Index>(x.size());
        out.cloths.push_back(ClothView{d.name, first, count, d.triangles.triangles});
      }
      for (Index i : d.fixed) s.system->fix_particle(first + i);
      if (s.contact && d.contact) s.contact->add_particles(first, count, d.material);
    } catch (const Error& e) {
      throw Error(where + e.what());
    }
  }
  for (const JointSpec& j : spec.joints) {
    auto side = [&](int body, const Vec3& origin, const Vec3& axis, const Vec3& reference) {
      return body < 0 ? constraints::world_side(origin, axis, reference)
                      : constraints::body_side(rigid_index[static_cast<std::size_t>(body)], origin, axis, reference);
    };
    const constraints::JointSide a = side(j.body_a, j.origin_a, j.axis_a, j.reference_a);
    const constraints::JointSide b = side(j.body_b, j.origin_b, j.axis_b, j.reference_b);
    try {
      if (j.type == "ball")
        s.joints.push_back(std::make_unique<constraints::BallJoint>(j.name, a, b, j.options.compliance));
      else if (j.type == "fixed")
        s.joints.push_back(std::make_unique<constraints::FixedJoint>(j.name, a, b, j.options.compliance));
      else if (j.type == "hinge")
        s.joints.push_back(std::make_unique<constraints::HingeJoint>(j.name, a, b, j.options));
      else
        s.joints.push_back(std::make_unique<constraints::SliderJoint>(j.name, a, b, j.options));
      s.joints.back()->check(*s.system);
    } catch (const Error& e) {
      throw Error(file + ": " + j.path + ": " + e.what());
    }
  }
  // Attachments: a ball joint per node, at the node's initial place on the rigid body.
  for (const AttachmentSpec& a : spec.attachments) {
    const RigidSpec& r = spec.rigid[static_cast<std::size_t>(a.rigid)];
    const Mat3 R = rotation_matrix(r.orientation);
    for (Index i : a.nodes) {
      const Index p = first_particle[a.deformable] + i;
      const Vec3 d = s.system->particle(p).position - r.position;
      const Vec3 local = transpose_times(R, d);
      s.joints.push_back(std::make_unique<constraints::BallJoint>(
          a.name + " node " + std::to_string(i),
          constraints::body_side(rigid_index[static_cast<std::size_t>(a.rigid)], local),
          constraints::particle_side(p)));
    }
  }
  s.init();
  return out;
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
      spec->rigid.push_back(read_rigid(b));
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
    const std::string shape = o.choice("shape", {"half_space", "sphere", "box", "cylinder", "capsule"}, std::nullopt);
    spec->obstacle_materials.push_back(materials.read(o));
    if (shape == "half_space") {
      // half_space_obstacle(), as the contact scenes build their floors and inclines.
      const Vec3 normal = read_vec3(o, "normal", Vec3{{0, 0, 1}});
      if (!(norm(normal) > 0.0 && std::isfinite(norm(normal))))
        o.fail("normal", "expected a non-zero normal of finite length");
      spec->obstacles.push_back(half_space_obstacle(read_vec3(o, "point", Vec3{{0, 0, 0}}), normal));
    } else {
      const PlacedShape p = read_placed_shape(o);
      spec->obstacles.push_back(Obstacle{p.shape, p.pose, {}, 0.0});
    }
    o.finish();
  }
  if (std::optional<JsonObject> c = root.object("contact", true)) {
    spec->has_contact = true;
    spec->contact.mu = c->real("mu", spec->contact.mu, 0.0);
    spec->contact.margin = c->real("margin", spec->contact.margin, 0.0);
    spec->contact.box_friction = c->boolean("box_friction", spec->contact.box_friction);
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
  const bool driven = std::any_of(spec->rigid.begin(), spec->rigid.end(), [](const RigidSpec& r) { return r.motion; });
  if (!spec->stepper.contact_step &&
      (spec->has_contact || !spec->joints.empty() || !spec->attachments.empty() || driven))
    root.fail("integrator",
              "integrator \"" + spec->stepper.integrator +
                  "\" steps no contact, joints, attachments or driven bodies; use {\"type\": \"contact_step\", ...}");

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
