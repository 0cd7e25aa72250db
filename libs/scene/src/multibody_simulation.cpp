#include "sinew/scene/multibody_simulation.hpp"

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <set>

#include "cell_measures.hpp"
#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/tetrahedron.hpp"
#include "sinew/scene/body_state.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {
namespace {

constexpr char kMagic[] = "sinew-multibody-checkpoint-1";

// ---- triangles of analytic shapes (local frame), the rigid bodies' output meshes ----

void add_box(const Shape& s, TriangleMesh& m) {
  const Index o = static_cast<Index>(m.vertices.size());
  for (int k = 0; k < 8; ++k)
    m.vertices.push_back(
        Vec3{{(k & 1 ? 1 : -1) * s.size[0], (k & 2 ? 1 : -1) * s.size[1], (k & 4 ? 1 : -1) * s.size[2]}});
  const int quads[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
  for (const auto& q : quads) {
    m.triangles.push_back({o + q[0], o + q[1], o + q[2]});
    m.triangles.push_back({o + q[0], o + q[2], o + q[3]});
  }
}

// A surface of revolution about z: rings of (radius, z) profile points, n segments around.
void add_revolution(const std::vector<std::pair<double, double>>& profile, int n, TriangleMesh& m) {
  const Index o = static_cast<Index>(m.vertices.size());
  for (const auto& [r, z] : profile)
    for (int j = 0; j < n; ++j) {
      const double a = 2.0 * kPi * j / n;
      m.vertices.push_back(Vec3{{r * std::cos(a), r * std::sin(a), z}});
    }
  for (std::size_t i = 0; i + 1 < profile.size(); ++i)
    for (int j = 0; j < n; ++j) {
      const Index a = o + static_cast<Index>(i) * n + j, b = o + static_cast<Index>(i) * n + (j + 1) % n;
      m.triangles.push_back({a, b, b + n});
      m.triangles.push_back({a, b + n, a + n});
    }
}

void add_shape(const Shape& s, TriangleMesh& m) {
  constexpr int kSegments = 24;
  std::vector<std::pair<double, double>> profile;
  switch (s.type) {
    case ShapeType::kBox:
      add_box(s, m);
      return;
    case ShapeType::kSphere:
    case ShapeType::kCapsule: {
      // Pole to pole; a capsule's hemispheres are shifted by +-half and joined at the equator.
      const double half = s.type == ShapeType::kCapsule ? s.size[1] : 0.0;
      for (int i = 0; i <= 12; ++i) {
        const double theta = -0.5 * kPi + kPi * i / 12.0;
        if (i <= 6) profile.emplace_back(s.size[0] * std::cos(theta), s.size[0] * std::sin(theta) - half);
        if (i >= 6 && (i > 6 || half > 0.0))
          profile.emplace_back(s.size[0] * std::cos(theta), s.size[0] * std::sin(theta) + half);
      }
      break;
    }
    case ShapeType::kCylinder:
      profile = {{0.0, -s.size[1]}, {s.size[0], -s.size[1]}, {s.size[0], s.size[1]}, {0.0, s.size[1]}};
      break;
    default:
      return;  // half-spaces: no surface of their own
  }
  add_revolution(profile, kSegments, m);
}

void transform(TriangleMesh& m, std::size_t from, const Mat3& R, const Vec3& x) {
  for (std::size_t i = from; i < m.vertices.size(); ++i) m.vertices[i] = R * m.vertices[i] + x;
}

// ---- raw-bit binary I/O ----

template <class T>
void put(std::ostream& out, const T& v) {
  out.write(reinterpret_cast<const char*>(&v), sizeof(T));
}

template <class T>
T get(std::istream& in) {
  T v{};
  in.read(reinterpret_cast<char*>(&v), sizeof(T));
  require(static_cast<bool>(in), "MultibodySimulation::restore: the checkpoint is truncated");
  return v;
}

void put_vector(std::ostream& out, const Eigen::VectorXd& v) {
  put<std::int64_t>(out, v.size());
  out.write(reinterpret_cast<const char*>(v.data()), static_cast<std::streamsize>(sizeof(double) * v.size()));
}

Eigen::VectorXd get_vector(std::istream& in, std::int64_t expected, const char* what) {
  const auto n = get<std::int64_t>(in);
  require(expected < 0 || n == expected, std::string("MultibodySimulation::restore: ") + what + " has " +
                                             std::to_string(n) + " entries, this scene " + std::to_string(expected));
  require(n >= 0 && n < (std::int64_t{1} << 40), "MultibodySimulation::restore: corrupt checkpoint");
  Eigen::VectorXd v(n);
  in.read(reinterpret_cast<char*>(v.data()), static_cast<std::streamsize>(sizeof(double) * n));
  require(static_cast<bool>(in), "MultibodySimulation::restore: the checkpoint is truncated");
  return v;
}

// A rigid body's pose and twist (world frame, velocity of its origin) in state @p x.
struct BodyMotion {
  Vec3 x, v, w;
  Quaternion q;
};

BodyMotion body_motion(const model::MechanicalSystem& sys, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                       Index body) {
  BodyMotion m;
  sys.body_pose(q, body, m.x, m.q);
  const Index o = sys.body_velocity_offset(body);
  m.v = Vec3{{u[o], u[o + 1], u[o + 2]}};
  m.w = Vec3{{u[o + 3], u[o + 4], u[o + 5]}};
  return m;
}

double energy_or_zero(const model::MechanicalSystem& s, const integrators::State& x) {
  return s.has_potential() ? s.potential_energy(x.t, x.q) : 0.0;
}

}  // namespace

MultibodySimulation::MultibodySimulation(MultibodyScene scene, std::unique_ptr<integrators::ContactStep> step,
                                         std::unique_ptr<integrators::ContactStep> fallback)
    : scene_(std::move(scene)), contact_step_(std::move(step)), fallback_(std::move(fallback)) {
  require(contact_step_ != nullptr, "MultibodySimulation: the contact step is null");
  if (scene_.scene.contact) constraints_.push_back(scene_.scene.contact.get());
  for (const auto& j : scene_.scene.joints) constraints_.push_back(j.get());
  init_rests();
  update_velocities();
}

MultibodySimulation::MultibodySimulation(MultibodyScene scene, std::unique_ptr<integrators::Integrator> integrator)
    : scene_(std::move(scene)), integrator_(std::move(integrator)) {
  require(integrator_ != nullptr, "MultibodySimulation: the integrator is null");
  require(!scene_.scene.contact && scene_.scene.joints.empty(),
          "MultibodySimulation: integrator " + integrator_->name() +
              " steps no contact or joints; use a contact step for this scene");
  init_rests();
  update_velocities();
}

const model::DynamicalSystem& MultibodySimulation::dynamics() const {
  if (scene_.reduced) return *scene_.reduced;
  return *scene_.scene.system;
}

void MultibodySimulation::update_velocities() {
  const integrators::State& x = scene_.scene.state;
  if (scene_.reduced)
    scene_.reduced->full_velocities(x.t, x.q, x.u, velocities_);
  else
    velocities_ = x.u;
}

void MultibodySimulation::set_state(const Eigen::VectorXd& q, const Eigen::VectorXd& u) {
  const model::MechanicalSystem& sys = *scene_.scene.system;
  const auto check = [](const Eigen::VectorXd& v, Index n, const char* name) {
    require(v.size() == n, [&] {
      return std::string("MultibodySimulation::set_state: ") + name + " has " + std::to_string(v.size()) +
             " entries, expected " + std::to_string(n);
    });
    require(v.allFinite(), [&] { return std::string("MultibodySimulation::set_state: ") + name + " is not finite"; });
  };
  check(q, sys.num_positions(), "q");
  check(u, dynamics().num_velocities(), "u");
  const double t = scene_.scene.state.t;
  Eigen::VectorXd full = u;
  if (scene_.reduced) scene_.reduced->full_velocities(t, q, u, full);
  model::SystemState checked;
  sys.evaluate_state(t, q, full, checked);  // sizes and unit quaternions, naming the body
  scene_.scene.state.q = q;
  scene_.scene.state.u = u;
  contact_force_.resize(0);
  update_velocities();
}

void MultibodySimulation::init_rests() {
  for (const FemBodyView& b : scene_.fem_bodies) {
    rests_.emplace_back();
    for (const auto& t : b.tets) {
      double X[12];
      for (int a = 0; a < 4; ++a)
        for (int d = 0; d < 3; ++d) X[3 * a + d] = scene_.scene.system->particle(b.first_particle + t[a]).position[d];
      rests_.back().push_back(make_tet_rest(X));
    }
  }
}

MultibodySimulation::~MultibodySimulation() = default;

SimulationSize MultibodySimulation::size() const {
  const model::MechanicalSystem& s = *scene_.scene.system;
  SimulationSize z;
  for (const FemBodyView& b : scene_.fem_bodies) {
    z.vertices += b.num_particles;
    z.tets += b.tets.size();
  }
  for (const ClothView& c : scene_.cloths) {
    z.vertices += c.num_particles;
    z.triangles += c.triangles.size();
  }
  z.rigid_bodies = static_cast<std::size_t>(s.num_bodies());
  z.obstacles = scene_.obstacles.size();
  z.joints = scene_.scene.joints.size();
  // Targets: the fixed particles and bodies (held at rest).
  const std::vector<Index>& fixed = s.fixed_velocity_dofs();
  const std::set<Index> dofs(fixed.begin(), fixed.end());
  for (Index i = 0; i < s.num_particles(); ++i) z.targets += dofs.count(s.particle_velocity_offset(i));
  for (Index b = 0; b < s.num_bodies(); ++b) z.targets += dofs.count(s.body_velocity_offset(b));
  z.degrees_of_freedom = dynamics().num_velocities();
  return z;
}

std::vector<std::string> MultibodySimulation::scalar_names() const {
  std::vector<std::string> names;
  if (contact_step_)
    names = {"kinetic_energy",    "potential_energy", "total_energy",      "contacts",       "rows",
             "solver_iterations", "solver_error",     "natural_map_error", "contact_status", "joint_error",
             "newton_iterations", "newton_residual",  "fallback",          "step_ms"};
  else
    names = {"kinetic_energy", "potential_energy", "total_energy", "newton_iterations", "newton_residual", "step_ms"};
  // Every body's state, in the order of output_meshes().
  auto add = [&](const std::vector<std::string>& columns) {
    names.insert(names.end(), columns.begin(), columns.end());
  };
  for (const FemBodyView& b : scene_.fem_bodies) add(deformable_body_columns(b.name));
  for (const ClothView& c : scene_.cloths) add(deformable_body_columns(c.name));
  for (const RigidBodyView& r : scene_.rigid_bodies) add(rigid_body_columns(r.name));
  return names;
}

void MultibodySimulation::append_body_states(std::vector<double>& out) const {
  const ContactScene& s = scene_.scene;
  const model::MechanicalSystem& sys = *s.system;
  auto particles = [&](Index first, Index n) {
    std::vector<double> x, v, m;
    for (Index i = first; i < first + n; ++i) {
      const Vec3 p = sys.particle_position(s.state.q, i);
      const Index o = sys.particle_velocity_offset(i);
      x.insert(x.end(), {p[0], p[1], p[2]});
      v.insert(v.end(), {velocities_[o], velocities_[o + 1], velocities_[o + 2]});
      m.push_back(sys.particle(i).mass);
    }
    append_deformable_body_state(x.data(), v.data(), m.data(), m.size(), out);
  };
  for (const FemBodyView& b : scene_.fem_bodies) particles(b.first_particle, b.num_particles);
  for (const ClothView& c : scene_.cloths) particles(c.first_particle, c.num_particles);
  for (const RigidBodyView& r : scene_.rigid_bodies) {
    const BodyMotion b = body_motion(sys, s.state.q, velocities_, r.body);
    append_rigid_body_state(b.x, b.q, b.v, b.w, out);
  }
}

StepOutcome MultibodySimulation::step() {
  ContactScene& s = scene_.scene;
  StepOutcome out;
  const auto start = std::chrono::steady_clock::now();
  const integrators::StepReport* free = nullptr;
  integrators::ContactStepReport cr;
  integrators::StepReport ir;
  bool fell_back = false;
  const integrators::ContactStep* used = contact_step_.get();
  if (contact_step_) {
    const auto step_with = [&](integrators::ContactStep& step) {
      return scene_.reduced ? step.step(*scene_.reduced, constraints_, s.state, s.time_step)
                            : step.step(*s.system, constraints_, s.state, s.time_step);
    };
    cr = step_with(*contact_step_);
    if (!cr.ok() && fallback_) {
      const std::string first = cr.message;
      cr = step_with(*fallback_);
      used = fallback_.get();
      fell_back = true;
      if (!cr.ok()) cr.message = first + "; fallback: " + cr.message;
    }
    last_step_ = used;
    free = &cr.free_motion;
    out.advanced = cr.ok();
    out.message = cr.ok() ? "" : cr.message;
    contact_force_.resize(0);
    if (cr.ok() && cr.rows > 0) contact_force_ = used->last_system_impulses() / s.time_step;
  } else {
    ir = integrator_->step(dynamics(), s.state, s.time_step);
    if (ir.ok() && scene_.reduced) scene_.reduced->sync_positions(s.state.t, s.state.q);
    free = &ir;
    out.advanced = ir.ok();
    out.message = ir.ok() ? "" : ir.message;
  }
  const double ms = std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - start).count();
  if (out.ok()) ++steps_;
  update_velocities();
  const double kinetic = s.system->kinetic_energy(s.state.t, s.state.q, velocities_);
  const double potential = energy_or_zero(*s.system, s.state);
  out.scalars = {kinetic, potential, kinetic + potential};
  if (contact_step_) {
    // 0 converged, 1 stopped unconverged within the accept limit, 2 accepted above it.
    const double status = cr.above_accept_limit ? 2.0 : cr.rows > 0 && !cr.contact.converged() ? 1.0 : 0.0;
    out.scalars.insert(out.scalars.end(), {static_cast<double>(cr.contacts), static_cast<double>(cr.rows),
                                           static_cast<double>(cr.contact.iterations), cr.contact.error,
                                           cr.natural_map_error, status, cr.joint_error});
    if (cr.ok() && cr.above_accept_limit)
      out.warning = "contact solve (" + cr.solver + ") accepted with natural-map error " +
                    number_text(cr.natural_map_error, 3) + ", above the accept limit " +
                    number_text(used->options().accept_error);
    if (cr.ok() && cr.above_joint_error_limit)
      out.warning += (out.warning.empty() ? "" : "; ") + std::string("joint error ") + number_text(cr.joint_error, 3) +
                     " (" + cr.joint_error_label.text() + ") above the joint-error limit " +
                     number_text(used->options().joint_error_limit) + ": the joints are coming apart";
  }
  out.scalars.insert(out.scalars.end(), {static_cast<double>(free->iterations), free->residual_norm});
  if (contact_step_) out.scalars.push_back(fell_back ? 1.0 : 0.0);
  out.scalars.push_back(ms);
  append_body_states(out.scalars);
  return out;
}

std::vector<OutputMesh> MultibodySimulation::output_meshes() const {
  const ContactScene& s = scene_.scene;
  const model::MechanicalSystem& sys = *s.system;
  std::vector<OutputMesh> out;
  // Velocity and contact force of particles [first, first + n) as point fields.
  auto particle_fields = [&](Index first, Index n, VtuFrame& f) {
    VtuField velocity{"velocity", 3, {}}, force{"contact_force", 3, {}};
    for (Index i = first; i < first + n; ++i) {
      const Vec3 x = sys.particle_position(s.state.q, i);
      f.points.insert(f.points.end(), {x[0], x[1], x[2]});
      const Index o = sys.particle_velocity_offset(i);
      for (int d = 0; d < 3; ++d) {
        velocity.values.push_back(velocities_[o + d]);
        force.values.push_back(contact_force_.size() > 0 ? contact_force_[o + d] : 0.0);
      }
    }
    f.point_fields.push_back(std::move(velocity));
    if (contact_step_) f.point_fields.push_back(std::move(force));
  };
  for (std::size_t b = 0; b < scene_.fem_bodies.size(); ++b) {
    const FemBodyView& v = scene_.fem_bodies[b];
    OutputMesh m{v.name, {}};
    particle_fields(v.first_particle, v.num_particles, m.frame);
    m.frame.tets = v.tets;
    // von Mises stress of the Cauchy stress sigma = P F^T / det F, P = G Dm^T / V from the
    // element gradient G = V P Dm^-T (columns: vertices 1..3).
    std::vector<std::unique_ptr<TetMaterial>> materials;
    materials.push_back(make_tet_material(v.model, v.parameters));
    for (const RegionMaterial& r : v.region_materials) materials.push_back(make_tet_material(r.model, r.parameters));
    VtuField stress{"stress", 1, {}};
    const std::vector<Index> local{0, 1, 2, 3};
    for (std::size_t e = 0; e < v.tets.size(); ++e) {
      std::vector<double> x(12), g(12, 0.0);
      for (int a = 0; a < 4; ++a)
        for (int d = 0; d < 3; ++d) x[3 * a + d] = m.frame.points[3 * v.tets[e][a] + d];
      const TetRest& rest = rests_[b][e];
      const std::size_t k = v.tet_material.empty() ? 0 : static_cast<std::size_t>(v.tet_material[e]);
      materials[k]->add_gradient(x, local, {rest}, g);
      Mat3 G{};
      for (int a = 0; a < 3; ++a)
        for (int d = 0; d < 3; ++d) G(d, a) = g[3 * (a + 1) + d];
      const Mat3 F = tet_deformation_gradient(rest, x.data());
      const Mat3 P = mat3_scale(1.0 / rest.volume, G * transpose(inverse3(rest.Dm_inv)));
      stress.values.push_back(von_mises_stress(P, F));
    }
    m.frame.cell_fields.push_back(std::move(stress));
    out.push_back(std::move(m));
  }
  for (const ClothView& c : scene_.cloths) {
    OutputMesh m{c.name, {}};
    particle_fields(c.first_particle, c.num_particles, m.frame);
    m.frame.triangles = c.triangles;
    out.push_back(std::move(m));
  }
  // Each rigid body its own mesh (its shapes at its pose), so that each has its own VTU series.
  for (const RigidBodyView& r : scene_.rigid_bodies) {
    OutputMesh m{r.name, {}};
    TriangleMesh tri;
    VtuField velocity{"velocity", 3, {}};
    const BodyMotion b = body_motion(sys, s.state.q, velocities_, r.body);
    for (const Shape& shape : r.shapes) add_shape(shape, tri);
    for (const TriangleMesh& mesh : r.meshes) {
      const Index offset = static_cast<Index>(tri.vertices.size());
      tri.vertices.insert(tri.vertices.end(), mesh.vertices.begin(), mesh.vertices.end());
      for (const auto& t : mesh.triangles) tri.triangles.push_back({t[0] + offset, t[1] + offset, t[2] + offset});
    }
    transform(tri, 0, rotation_matrix(b.q), b.x);
    for (const Vec3& p : tri.vertices) {
      const Vec3 pv = b.v + cross(b.w, p - b.x);
      velocity.values.insert(velocity.values.end(), {pv[0], pv[1], pv[2]});
    }
    m.frame.points = interleaved(tri.vertices);
    m.frame.triangles = tri.triangles;
    m.frame.point_fields.push_back(std::move(velocity));
    out.push_back(std::move(m));
  }
  return out;
}

void MultibodySimulation::save(std::ostream& out) const {
  const integrators::State& x = scene_.scene.state;
  out.write(kMagic, sizeof(kMagic));
  put<std::int64_t>(out, steps_);
  put<double>(out, x.t);
  put_vector(out, x.q);
  put_vector(out, x.u);
  for (const integrators::ContactStep* step : {contact_step_.get(), fallback_.get()}) {
    const std::vector<constraints::ConstraintBlock> none;
    const auto& blocks = step ? step->warm_start_blocks() : none;
    put<std::int64_t>(out, static_cast<std::int64_t>(blocks.size()));
    for (const constraints::ConstraintBlock& b : blocks) {
      put<std::int32_t>(out, static_cast<std::int32_t>(b.kind));
      put<double>(out, b.mu);
    }
    put_vector(out, blocks.empty() ? Eigen::VectorXd() : step->last_impulses());
  }
  require(static_cast<bool>(out), "MultibodySimulation::save: writing the checkpoint failed");
}

void MultibodySimulation::restore(std::istream& in) {
  char magic[sizeof(kMagic)] = {};
  in.read(magic, sizeof(kMagic));
  require(static_cast<bool>(in) && std::memcmp(magic, kMagic, sizeof(kMagic)) == 0,
          "MultibodySimulation::restore: not a multibody checkpoint");
  const model::MechanicalSystem& sys = *scene_.scene.system;
  const auto steps = get<std::int64_t>(in);
  integrators::State x;
  x.t = get<double>(in);
  x.q = get_vector(in, sys.num_positions(), "q");
  x.u = get_vector(in, dynamics().num_velocities(), "u");
  integrators::ContactStep* steppers[2] = {contact_step_.get(), fallback_.get()};
  std::vector<constraints::ConstraintBlock> blocks[2];
  Eigen::VectorXd r[2];
  for (int k = 0; k < 2; ++k) {
    const auto n_blocks = get<std::int64_t>(in);
    require(n_blocks >= 0 && n_blocks < (std::int64_t{1} << 32), "MultibodySimulation::restore: corrupt checkpoint");
    blocks[k].resize(static_cast<std::size_t>(n_blocks));
    for (auto& b : blocks[k]) {
      const auto kind = get<std::int32_t>(in);
      require(kind >= 0 && kind <= static_cast<int>(constraints::BlockKind::kContactBoxFriction),
              "MultibodySimulation::restore: corrupt checkpoint (block kind)");
      b.kind = static_cast<constraints::BlockKind>(kind);
      b.mu = get<double>(in);
    }
    r[k] = get_vector(in, -1, "r");
    require(r[k].size() == constraints::block_offsets(blocks[k]).back(),
            "MultibodySimulation::restore: corrupt checkpoint (warm start size)");
    require(blocks[k].empty() || steppers[k] != nullptr,
            "MultibodySimulation::restore: the checkpoint has contact impulses for a solver this scene does not have");
  }
  for (int k = 0; k < 2; ++k)
    if (steppers[k]) steppers[k]->set_warm_start(blocks[k], r[k]);
  scene_.scene.state = std::move(x);
  steps_ = steps;
  last_step_ = nullptr;
  contact_force_.resize(0);
  update_velocities();
}

}  // namespace sinew::scene
