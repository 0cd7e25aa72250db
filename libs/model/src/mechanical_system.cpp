#include "sinew/model/mechanical_system.hpp"
#include "sinew/core/eigen_interop.hpp"

#include <algorithm>
#include <cmath>
#include <sstream>

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

// The state the (t, q, u) entry points evaluate into: one per thread, kept, so that evaluations
// every step allocate nothing once sized (none of them is reentered while it uses the state).
SystemState& scratch_state() {
  thread_local SystemState s;
  return s;
}

// Zero velocities of @p n DOFs for the evaluations that do not read them (mass, potential), kept
// per thread like scratch_state().
const Eigen::VectorXd& zero_velocities(Index n) {
  thread_local Eigen::VectorXd zero;
  if (zero.size() != n) zero.setZero(n);
  return zero;
}

std::string vec_text(const Vec3& a) {
  std::ostringstream s;
  s.precision(17);
  s << "(" << a[0] << ", " << a[1] << ", " << a[2] << ")";
  return s.str();
}

// Gravity as a conservative force field: m g on each particle, m g at each body's centre of
// mass c (world offset R c): the wrench (m g, (R c) x m g), whose torque turns with the body,
// K_thetatheta = -[m g][R c]; V = -sum m g . x_com.
class GravityField final : public ForceField {
 public:
  explicit GravityField(const MechanicalSystem& sys) : sys_(sys) {}
  std::string name() const override { return "gravity"; }
  void check(const MechanicalSystem& /*system*/) const override {}
  void layout(const MechanicalSystem& system, ElementLayout& out) const override {
    for (Index b = 0; b < system.num_bodies(); ++b) {
      const Index d = system.body_velocity_offset(b) + 3;
      out.add({d, d + 1, d + 2});
    }
  }
  void add_forces(const SystemState& s, Eigen::VectorXd& f) const override {
    const Vec3 g = sys_.gravity();
    for (Index i = 0; i < sys_.num_particles(); ++i) {
      const Vec3 fi = sys_.particle(i).mass * g;
      for (int c = 0; c < 3; ++c) f[s.particle_dof[i] + c] += fi[c];
    }
    for (Index b = 0; b < sys_.num_bodies(); ++b) {
      const Wrench w = sys_.body_gravity(s.bodies[b].R, b);
      for (int c = 0; c < 3; ++c) {
        f[s.body_dof[b] + c] += w.f[c];
        f[s.body_dof[b] + 3 + c] += w.tau[c];
      }
    }
  }
  void stiffness_values(const SystemState& s, bool projected, double* values) const override {
    for (Index b = 0; b < sys_.num_bodies(); ++b) {
      const SpatialInertia& I = sys_.body(b).inertia;
      Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> block_map(values + 9 * b);
      if (I.com[0] == 0.0 && I.com[1] == 0.0 && I.com[2] == 0.0) {  // no lever arm: no torque to turn
        block_map.setZero();
        continue;
      }
      Eigen::MatrixXd K = -to_eigen(cross_matrix(I.mass * sys_.gravity()) * cross_matrix(s.bodies[b].R * I.com));
      if (projected) project_to_psd(K);
      block_map = K;
    }
  }
  bool is_conservative() const override { return true; }
  double energy(const SystemState& s) const override {
    const Vec3 g = sys_.gravity();
    double V = 0.0;
    for (Index i = 0; i < sys_.num_particles(); ++i) V -= sys_.particle(i).mass * dot(g, s.x[i]);
    for (Index b = 0; b < sys_.num_bodies(); ++b) {
      const SpatialInertia& I = sys_.body(b).inertia;
      V -= I.mass * dot(g, s.bodies[b].x + s.bodies[b].R * I.com);
    }
    return V;
  }

 private:
  const MechanicalSystem& sys_;
};

}  // namespace

// All fields' element blocks (gravity first) planned into one pattern; K and D share it.
struct MechanicalSystem::Plan {
  std::vector<const ForceField*> fields;  // gravity, then the added fields
  std::vector<std::size_t> value_offset;  // (fields + 1) offsets of each field's values
  std::unique_ptr<AssemblyPlan> assembly;
  mutable std::vector<double> contributions, values;  // workspaces, sized once
  // The mass matrix when a field carries mass (masses on mapped points): the components' blocks,
  // then each such field's blocks; null when no field does (M stays block diagonal).
  std::vector<const ForceField*> mass_fields;
  std::vector<std::size_t> mass_values;  // (mass fields) values each writes
  std::unique_ptr<AssemblyPlan> mass_assembly;
  mutable std::vector<double> mass_contributions;
};

MechanicalSystem::MechanicalSystem() : gravity_field_(std::make_shared<GravityField>(*this)) {}
MechanicalSystem::~MechanicalSystem() = default;

Index MechanicalSystem::add_particle(double mass, const Vec3& position, const std::string& name, const Vec3& velocity) {
  const std::string label = "particle " + std::to_string(particles_.size()) + (name.empty() ? "" : " '" + name + "'");
  if (!(mass > 0.0) || !std::isfinite(mass)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "MechanicalSystem::add_particle: " << label << ": mass must be finite and > 0, got " << mass;
    throw Error(msg.str());
  }
  require(is_finite(position) && is_finite(velocity), [&] {
    return "MechanicalSystem::add_particle: " + label + ": position and velocity must be finite, got position " +
           vec_text(position) + " and velocity " + vec_text(velocity);
  });
  particles_.push_back(Particle{mass, position, velocity, name});
  particle_pos_.push_back(num_positions_);
  particle_vel_.push_back(num_velocities_);
  num_positions_ += 3;
  num_velocities_ += 3;
  plan_.reset();
  return num_particles() - 1;
}

Index MechanicalSystem::add_body(const SpatialInertia& inertia, const Vec3& position, const Quaternion& orientation,
                                 const std::string& name, const Vec3& velocity, const Vec3& angular_velocity) {
  const std::string label = "body " + std::to_string(bodies_.size()) + (name.empty() ? "" : " '" + name + "'");
  SpatialInertia checked{};
  try {
    checked = make_spatial_inertia(inertia.mass, inertia.com, inertia.J);
  } catch (const Error& e) {
    throw Error("MechanicalSystem::add_body: " + label + ": " + e.what());
  }
  const double n = norm(orientation);
  if (!(std::fabs(n - 1.0) <= 1e-9)) {
    std::ostringstream msg;
    msg.precision(17);
    msg << "MechanicalSystem::add_body: " << label << ": orientation must be a unit quaternion (|1 - |q|| <= 1e-9), "
        << "got |q| = " << n << "; normalize it first";
    throw Error(msg.str());
  }
  require(is_finite(position) && is_finite(velocity) && is_finite(angular_velocity), [&] {
    return "MechanicalSystem::add_body: " + label + ": position and velocities must be finite, got position " +
           vec_text(position);
  });
  bodies_.push_back(RigidBody{checked, position, orientation, velocity, angular_velocity, name});
  body_pos_.push_back(num_positions_);
  body_vel_.push_back(num_velocities_);
  num_positions_ += 7;
  num_velocities_ += 6;
  plan_.reset();
  return num_bodies() - 1;
}

void MechanicalSystem::set_gravity(const Vec3& g) {
  require(is_finite(g), [&] { return "MechanicalSystem::set_gravity: gravity must be finite, got " + vec_text(g); });
  gravity_ = g;
}

void MechanicalSystem::add_force_field(std::shared_ptr<const ForceField> field) {
  require(field != nullptr, "MechanicalSystem::add_force_field: null force field");
  field->check(*this);
  fields_.push_back(std::move(field));
  plan_.reset();
}

void MechanicalSystem::fix_particle(Index i) {
  check_particle(i, "MechanicalSystem::fix_particle");
  for (int c = 0; c < 3; ++c) fixed_dofs_.push_back(particle_vel_[i] + c);
  std::sort(fixed_dofs_.begin(), fixed_dofs_.end());
  fixed_dofs_.erase(std::unique(fixed_dofs_.begin(), fixed_dofs_.end()), fixed_dofs_.end());
}

void MechanicalSystem::fix_body(Index b) {
  check_body(b, "MechanicalSystem::fix_body");
  for (int c = 0; c < 6; ++c) fixed_dofs_.push_back(body_vel_[b] + c);
  std::sort(fixed_dofs_.begin(), fixed_dofs_.end());
  fixed_dofs_.erase(std::unique(fixed_dofs_.begin(), fixed_dofs_.end()), fixed_dofs_.end());
}

// The accessors are called per body and step: the message's string is made only when out of range.
const Particle& MechanicalSystem::particle(Index i) const {
  if (i < 0 || i >= num_particles()) check_particle(i, "MechanicalSystem::particle");
  return particles_[i];
}

const RigidBody& MechanicalSystem::body(Index b) const {
  if (b < 0 || b >= num_bodies()) check_body(b, "MechanicalSystem::body");
  return bodies_[b];
}

std::string MechanicalSystem::particle_label(Index i) const {
  std::string s = "particle " + std::to_string(i);
  if (i >= 0 && i < num_particles() && !particles_[i].name.empty()) s += " '" + particles_[i].name + "'";
  return s;
}

std::string MechanicalSystem::body_label(Index b) const {
  std::string s = "body " + std::to_string(b);
  if (b >= 0 && b < num_bodies() && !bodies_[b].name.empty()) s += " '" + bodies_[b].name + "'";
  return s;
}

void MechanicalSystem::check_particle(Index i, const std::string& what) const {
  if (i < 0 || i >= num_particles())
    throw Error(what + ": particle index " + std::to_string(i) + " is out of range (the system has " +
                std::to_string(num_particles()) + " particles)");
}

void MechanicalSystem::check_body(Index b, const std::string& what) const {
  if (b < 0 || b >= num_bodies())
    throw Error(what + ": body index " + std::to_string(b) + " is out of range (the system has " +
                std::to_string(num_bodies()) + " bodies)");
}

void MechanicalSystem::check_point(const PointRef& p, const std::string& what) const {
  switch (p.kind) {
    case PointRef::Kind::kParticle:
      check_particle(p.index, what);
      break;
    case PointRef::Kind::kBody:
      check_body(p.index, what);
      break;
    case PointRef::Kind::kWorld:
      break;
  }
  require(is_finite(p.local), [&] { return what + ": point coordinates must be finite, got " + vec_text(p.local); });
}

void MechanicalSystem::append_point_dofs(const PointRef& p, std::vector<Index>& dofs) const {
  if (p.kind == PointRef::Kind::kParticle)
    for (int c = 0; c < 3; ++c) dofs.push_back(particle_vel_[p.index] + c);
  else if (p.kind == PointRef::Kind::kBody)
    for (int c = 0; c < 6; ++c) dofs.push_back(body_vel_[p.index] + c);
}

Vec3 MechanicalSystem::particle_position(const Eigen::VectorXd& q, Index i) const {
  check_particle(i, "MechanicalSystem::particle_position");
  require(q.size() == num_positions_, "MechanicalSystem::particle_position: q has the wrong size");
  const Index o = particle_pos_[i];
  return Vec3{{q[o], q[o + 1], q[o + 2]}};
}

void MechanicalSystem::set_particle_position(Eigen::VectorXd& q, Index i, const Vec3& x) const {
  check_particle(i, "MechanicalSystem::set_particle_position");
  require(q.size() == num_positions_, "MechanicalSystem::set_particle_position: q has the wrong size");
  for (int c = 0; c < 3; ++c) q[particle_pos_[i] + c] = x[c];
}

void MechanicalSystem::body_pose(const Eigen::VectorXd& q, Index b, Vec3& x, Quaternion& r) const {
  check_body(b, "MechanicalSystem::body_pose");
  require(q.size() == num_positions_, "MechanicalSystem::body_pose: q has the wrong size");
  const Index o = body_pos_[b];
  x = Vec3{{q[o], q[o + 1], q[o + 2]}};
  r = Quaternion{q[o + 3], Vec3{{q[o + 4], q[o + 5], q[o + 6]}}};
}

void MechanicalSystem::set_body_pose(Eigen::VectorXd& q, Index b, const Vec3& x, const Quaternion& r) const {
  check_body(b, "MechanicalSystem::set_body_pose");
  require(q.size() == num_positions_, "MechanicalSystem::set_body_pose: q has the wrong size");
  require(std::fabs(norm(r) - 1.0) <= 1e-9, [&] {
    return "MechanicalSystem::set_body_pose: " + body_label(b) + ": orientation must be a unit quaternion";
  });
  const Index o = body_pos_[b];
  for (int c = 0; c < 3; ++c) q[o + c] = x[c];
  q[o + 3] = r.s;
  for (int c = 0; c < 3; ++c) q[o + 4 + c] = r.v[c];
}

Eigen::VectorXd MechanicalSystem::initial_positions() const {
  Eigen::VectorXd q(num_positions_);
  for (Index i = 0; i < num_particles(); ++i)
    for (int c = 0; c < 3; ++c) q[particle_pos_[i] + c] = particles_[i].position[c];
  for (Index b = 0; b < num_bodies(); ++b) {
    const RigidBody& B = bodies_[b];
    for (int c = 0; c < 3; ++c) q[body_pos_[b] + c] = B.position[c];
    q[body_pos_[b] + 3] = B.orientation.s;
    for (int c = 0; c < 3; ++c) q[body_pos_[b] + 4 + c] = B.orientation.v[c];
  }
  return q;
}

Eigen::VectorXd MechanicalSystem::initial_velocities() const {
  Eigen::VectorXd u(num_velocities_);
  for (Index i = 0; i < num_particles(); ++i)
    for (int c = 0; c < 3; ++c) u[particle_vel_[i] + c] = particles_[i].velocity[c];
  for (Index b = 0; b < num_bodies(); ++b)
    for (int c = 0; c < 3; ++c) {
      u[body_vel_[b] + c] = bodies_[b].velocity[c];
      u[body_vel_[b] + 3 + c] = bodies_[b].angular_velocity[c];
    }
  return u;
}

void MechanicalSystem::evaluate_state(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                      SystemState& s) const {
  if (q.size() != num_positions_ || u.size() != num_velocities_)
    throw Error("MechanicalSystem: q has " + std::to_string(q.size()) + " entries and u " + std::to_string(u.size()) +
                ", expected " + std::to_string(num_positions_) + " and " + std::to_string(num_velocities_));
  s.t = t;
  s.x.resize(particles_.size());
  s.v.resize(particles_.size());
  s.bodies.resize(bodies_.size());
  s.particle_dof = particle_vel_;
  s.body_dof = body_vel_;
  for (Index i = 0; i < num_particles(); ++i)
    for (int c = 0; c < 3; ++c) {
      s.x[i][c] = q[particle_pos_[i] + c];
      s.v[i][c] = u[particle_vel_[i] + c];
    }
  for (Index b = 0; b < num_bodies(); ++b) {
    BodyState& B = s.bodies[b];
    const Index p = body_pos_[b], d = body_vel_[b];
    B.q = Quaternion{q[p + 3], Vec3{{q[p + 4], q[p + 5], q[p + 6]}}};
    const double n = norm(B.q);
    if (!(std::fabs(n - 1.0) <= 1e-6)) {
      std::ostringstream msg;
      msg.precision(17);
      msg << "MechanicalSystem: " << body_label(b) << " has a non-unit quaternion in q (|q| = " << n
          << ", expected 1 within 1e-6); advance positions with advance_positions()";
      throw Error(msg.str());
    }
    B.q = normalized(B.q);
    B.R = rotation_matrix(B.q);
    for (int c = 0; c < 3; ++c) {
      B.x[c] = q[p + c];
      B.v[c] = u[d + c];
      B.w[c] = u[d + 3 + c];
    }
  }
}

Eigen::Matrix3d MechanicalSystem::particle_mass_block(Index i) const {
  return particles_[i].mass * Eigen::Matrix3d::Identity();
}

Wrench MechanicalSystem::body_gravity(const Mat3& R, Index b) const {
  const SpatialInertia& I = bodies_[b].inertia;
  const Vec3 f = I.mass * gravity_;
  return Wrench{f, cross(R * I.com, f)};
}

Eigen::Matrix<double, 6, 6> MechanicalSystem::body_mass_block(const Mat3& R, Index b) const {
  const SpatialMatrix S = spatial_inertia_matrix(rotate_inertia(bodies_[b].inertia, R));
  Eigen::Matrix<double, 6, 6> M;
  for (int r = 0; r < 6; ++r)
    for (int c = 0; c < 6; ++c) M(r, c) = S(r, c);
  return 0.5 * (M + M.transpose());  // exact symmetry despite round-off in R J R^T
}

void MechanicalSystem::advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                                         Eigen::VectorXd& q1) const {
  if (q0.size() != num_positions_ || u.size() != num_velocities_)
    throw Error("MechanicalSystem::advance_positions: q0 has " + std::to_string(q0.size()) + " entries and u " +
                std::to_string(u.size()) + ", expected " + std::to_string(num_positions_) + " and " +
                std::to_string(num_velocities_));
  if (&q1 != &q0) q1 = q0;
  for (Index i = 0; i < num_particles(); ++i)
    for (int c = 0; c < 3; ++c) q1[particle_pos_[i] + c] += h * u[particle_vel_[i] + c];
  for (Index b = 0; b < num_bodies(); ++b) {
    const Index p = body_pos_[b], d = body_vel_[b];
    for (int c = 0; c < 3; ++c) q1[p + c] += h * u[d + c];
    // World angular velocity: q <- exp(h w) q (quaternion eq. 0.1, exact for constant w).
    const Quaternion q{q1[p + 3], Vec3{{q1[p + 4], q1[p + 5], q1[p + 6]}}};
    const Quaternion qn = quat_step_world(q, Vec3{{u[d + 3], u[d + 4], u[d + 5]}}, h);
    q1[p + 3] = qn.s;
    for (int c = 0; c < 3; ++c) q1[p + 4 + c] = qn.v[c];
  }
}

void MechanicalSystem::mass_matrix_at(const SystemState& s, CsrMatrix& M) const {
  const Plan& p = plan();
  M.rows = M.cols = num_velocities_;
  if (p.mass_assembly) {
    // Components' blocks, then the mass fields' blocks (J^T m J of masses on mapped points).
    double* out = p.mass_contributions.data();
    std::fill(p.mass_contributions.begin(), p.mass_contributions.end(), 0.0);
    auto put = [&out](const auto& block) {  // row-major, the order of the planned positions
      for (Eigen::Index r = 0; r < block.rows(); ++r)
        for (Eigen::Index c = 0; c < block.cols(); ++c) *out++ = block(r, c);
    };
    for (Index i = 0; i < num_particles(); ++i) put(particle_mass_block(i));
    for (Index b = 0; b < num_bodies(); ++b) put(body_mass_block(s, b));
    for (std::size_t k = 0; k < p.mass_fields.size(); ++k) {
      p.mass_fields[k]->mass_values(s, out);
      out += p.mass_values[k];
    }
    M.row_ptr = p.mass_assembly->row_ptr();
    M.col_idx = p.mass_assembly->col_idx();
    p.mass_assembly->assemble(p.mass_contributions.data(), M.values);
    return;
  }
  // Block diagonal: the pattern is rebuilt in place (no planning needed, rows are independent),
  // into arrays sized once: 9 entries per particle, 36 per body.
  const std::size_t entries =
      9 * static_cast<std::size_t>(num_particles()) + 36 * static_cast<std::size_t>(num_bodies());
  M.row_ptr.resize(static_cast<std::size_t>(num_velocities_) + 1);
  M.col_idx.resize(entries);
  M.values.resize(entries);
  M.row_ptr[0] = 0;
  Index* row_end = M.row_ptr.data() + 1;
  Index* col = M.col_idx.data();
  double* value = M.values.data();
  auto put = [&](Index d, const auto& B) {
    for (Eigen::Index r = 0; r < B.rows(); ++r) {
      for (Eigen::Index c = 0; c < B.cols(); ++c) {
        *col++ = d + static_cast<Index>(c);
        *value++ = B(r, c);
      }
      *row_end = row_end[-1] + static_cast<Index>(B.cols());
      ++row_end;
    }
  };
  // Particles and bodies each hold increasing offsets: merged, they give the rows in DOF order.
  for (Index i = 0, b = 0; i < num_particles() || b < num_bodies();) {
    if (b == num_bodies() || (i < num_particles() && particle_vel_[i] < body_vel_[b])) {
      put(particle_vel_[i], particle_mass_block(i));
      ++i;
    } else {
      put(body_vel_[b], body_mass_block(s, b));
      ++b;
    }
  }
}

void MechanicalSystem::mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const {
  SystemState& s = scratch_state();
  evaluate_state(t, q, zero_velocities(num_velocities_), s);
  mass_matrix_at(s, M);
}

void MechanicalSystem::forces_at(const SystemState& s, ForcePart part, Eigen::VectorXd& f) const {
  f.setZero(num_velocities_);
  if (part != ForcePart::kGyroscopic) {
    gravity_field_->add_forces(s, f);
    for (const auto& field : fields_) field->add_forces(s, f);
  }
  if (part != ForcePart::kElastic) {
    for (const auto& field : fields_) field->add_fictitious_forces(s, f);
    for (Index b = 0; b < num_bodies(); ++b) {
      const Wrench g = fictitious_force(rotate_inertia(bodies_[b].inertia, s.bodies[b].R), s.bodies[b].w);
      for (int c = 0; c < 3; ++c) {
        f[body_vel_[b] + c] += g.f[c];
        f[body_vel_[b] + 3 + c] += g.tau[c];
      }
    }
  }
}

void MechanicalSystem::forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
                              Eigen::VectorXd& f) const {
  SystemState& s = scratch_state();
  evaluate_state(t, q, u, s);
  forces_at(s, part, f);
}

const MechanicalSystem::Plan& MechanicalSystem::plan() const {
  if (plan_) return *plan_;
  auto p = std::make_unique<Plan>();
  p->fields.push_back(gravity_field_.get());
  for (const auto& f : fields_) p->fields.push_back(f.get());
  std::vector<Position> positions;
  p->value_offset.push_back(0);
  for (const ForceField* f : p->fields) {
    ElementLayout L;
    f->layout(*this, L);
    for (Index e = 0; e < L.size(); ++e)
      for (Index a = L.offsets[e]; a < L.offsets[e + 1]; ++a)
        for (Index b = L.offsets[e]; b < L.offsets[e + 1]; ++b) positions.push_back({L.dofs[a], L.dofs[b]});
    p->value_offset.push_back(positions.size());
  }
  p->assembly = std::make_unique<AssemblyPlan>(num_velocities_, num_velocities_, positions);
  p->contributions.resize(positions.size());
  for (const auto& f : fields_)
    if (f->has_mass()) p->mass_fields.push_back(f.get());
  if (!p->mass_fields.empty()) {
    std::vector<Position> mass_positions;
    auto add_block = [&](const std::vector<Index>& dofs) {
      for (Index a : dofs)
        for (Index b : dofs) mass_positions.push_back({a, b});
    };
    for (Index i = 0; i < num_particles(); ++i)
      add_block({particle_vel_[i], particle_vel_[i] + 1, particle_vel_[i] + 2});
    for (Index b = 0; b < num_bodies(); ++b) {
      std::vector<Index> dofs;
      for (int c = 0; c < 6; ++c) dofs.push_back(body_vel_[b] + c);
      add_block(dofs);
    }
    for (const ForceField* f : p->mass_fields) {
      ElementLayout L;
      f->layout(*this, L);
      for (Index e = 0; e < L.size(); ++e)
        add_block(std::vector<Index>(L.dofs.begin() + L.offsets[e], L.dofs.begin() + L.offsets[e + 1]));
      p->mass_values.push_back(L.value_count());
    }
    p->mass_assembly = std::make_unique<AssemblyPlan>(num_velocities_, num_velocities_, mass_positions);
    p->mass_contributions.resize(mass_positions.size());
  }
  plan_ = std::move(p);
  return *plan_;
}

void MechanicalSystem::assemble(const SystemState& s, bool damping, bool projected, CsrMatrix& A) const {
  const Plan& p = plan();
  std::fill(p.contributions.begin(), p.contributions.end(), 0.0);
  for (std::size_t k = 0; k < p.fields.size(); ++k) {
    double* out = p.contributions.data() + p.value_offset[k];
    if (damping)
      p.fields[k]->damping_values(s, out);
    else
      p.fields[k]->stiffness_values(s, projected, out);
  }
  A.rows = A.cols = num_velocities_;
  A.row_ptr = p.assembly->row_ptr();
  A.col_idx = p.assembly->col_idx();
  p.assembly->assemble(p.contributions.data(), A.values);
}

void MechanicalSystem::stiffness_at(const SystemState& s, bool projected, CsrMatrix& K) const {
  assemble(s, false, projected, K);
}

void MechanicalSystem::damping_at(const SystemState& s, CsrMatrix& D) const { assemble(s, true, false, D); }

void MechanicalSystem::stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                                 CsrMatrix& K) const {
  SystemState& s = scratch_state();
  evaluate_state(t, q, u, s);
  stiffness_at(s, projected, K);
}

void MechanicalSystem::damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const {
  SystemState& s = scratch_state();
  evaluate_state(t, q, u, s);
  damping_at(s, D);
}

bool MechanicalSystem::has_force_jacobians() const {
  if (!fields_.empty()) return true;
  // Gravity's only Jacobian is the torque of a body framed away from its centre of mass
  // (GravityField::stiffness_values).
  for (const auto& b : bodies_)
    if (b.inertia.com[0] != 0.0 || b.inertia.com[1] != 0.0 || b.inertia.com[2] != 0.0) return true;
  return false;
}

bool MechanicalSystem::has_potential() const {
  for (const auto& f : fields_)
    if (!f->is_conservative()) return false;
  return true;
}

double MechanicalSystem::potential_energy(double t, const Eigen::VectorXd& q) const {
  require(has_potential(), "MechanicalSystem::potential_energy: a force field is not conservative");
  SystemState& s = scratch_state();
  evaluate_state(t, q, zero_velocities(num_velocities_), s);
  double V = gravity_field_->energy(s);
  for (const auto& f : fields_) V += f->energy(s);
  return V;
}

}  // namespace sinew::model
