#include "sinew/model/reduced_system.hpp"
#include "sinew/core/eigen_interop.hpp"

#include <algorithm>
#include <functional>

#include <Eigen/Geometry>

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/linalg/assembly.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

enum Role { kFree = 0, kAttached = 1, kDriven = 2 };

// Blocks of one component's rows of a matrix over the free components: (free component, block).
using RowBlocks = std::vector<std::pair<Index, Eigen::MatrixXd>>;

void accumulate(RowBlocks& out, Index c, const Eigen::MatrixXd& B) {
  for (auto& [k, M] : out)
    if (k == c) {
      M += B;
      return;
    }
  out.emplace_back(c, B);
}

Eigen::Matrix3d skew(const Vec3& a) {
  Eigen::Matrix3d S;
  S << 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0;
  return S;
}

// d(master) -> d(attached) of one master: T (velocities), Y (d(T u)/dq at fixed u).
struct LocalTerm {
  Index master;
  Eigen::MatrixXd T, Y;
  Eigen::Vector3d r;  // lever R p (body masters), for the geometric stiffness
  double weight;      // particle attachments: the term's weight (1 for bodies)
};

}  // namespace

struct ReducedSystem::Attachment {
  Index comp;                              // unified component index (particles, then bodies)
  bool body;                               // body-to-body
  MappedPoint point;                       // particle attachments: the masters
  Index parent = -1;                       // body attachments: the parent body
  Vec3 p{{0, 0, 0}};                       // body attachments: child origin in parent coordinates
  Quaternion q_rel{1.0, Vec3{{0, 0, 0}}};  // body attachments: child orientation in the parent
  std::vector<Index> masters;              // unified indices of the master components
};

struct ReducedSystem::Evaluation {
  Eigen::VectorXd q, u;         // full positions and velocities
  SystemState s;                // the full state
  std::vector<RowBlocks> T, Z;  // (components) rows of T and of Z = du_full/dq
  Eigen::VectorXd c;            // full known accelerations
};

ReducedSystem::ReducedSystem(const MechanicalSystem& system) : system_(system) {
  role_.assign(num_components(), kFree);
  attachment_of_.assign(num_components(), -1);
  particle_drives_.resize(system.num_particles());
  body_drives_.resize(system.num_bodies());
}

ReducedSystem::~ReducedSystem() = default;

std::string ReducedSystem::label(Index c) const {
  return c < system_.num_particles() ? system_.particle_label(c) : system_.body_label(c - system_.num_particles());
}

void ReducedSystem::check_new_dependent(Index c, const std::string& what) const {
  if (role_[c] == kAttached) throw Error(what + ": " + label(c) + " is already attached");
  if (role_[c] == kDriven) throw Error(what + ": " + label(c) + " is driven; it cannot also be attached or driven");
}

void ReducedSystem::attach_particle(Index i, const MappedPoint& masters) {
  const std::string what = "ReducedSystem::attach_particle";
  system_.check_particle(i, what);
  check_new_dependent(i, what);
  require(!masters.empty(), [&] { return what + ": " + label(i) + " has no masters"; });
  Attachment a{i, false, masters, -1, Vec3{{0, 0, 0}}, quat_identity(), {}};
  for (std::size_t k = 0; k < masters.size(); ++k) {
    const PointRef& m = masters[k].point;
    system_.check_point(m, what + ": master " + std::to_string(k) + " of " + label(i));
    if (m.kind == PointRef::Kind::kWorld) continue;
    const Index mc = m.kind == PointRef::Kind::kParticle ? m.index : system_.num_particles() + m.index;
    require(mc != i, [&] { return what + ": " + label(i) + " cannot be its own master"; });
    a.masters.push_back(mc);
  }
  attachment_of_[i] = static_cast<Index>(attachments_.size());
  role_[i] = kAttached;
  attachments_.push_back(a);
  finalized_ = false;
}

void ReducedSystem::attach_particle_to_body(Index i, Index b) {
  system_.check_particle(i, "ReducedSystem::attach_particle_to_body");
  system_.check_body(b, "ReducedSystem::attach_particle_to_body");
  const RigidBody& B = system_.body(b);
  const Vec3 local = rotate(conjugate(B.orientation), system_.particle(i).position - B.position);
  attach_particle(i, rigid_point(b, local));
}

void ReducedSystem::attach_body(Index child, Index parent) {
  const std::string what = "ReducedSystem::attach_body";
  system_.check_body(child, what + " (child)");
  system_.check_body(parent, what + " (parent)");
  const Index c = system_.num_particles() + child;
  check_new_dependent(c, what);
  require(child != parent, [&] { return what + ": " + label(c) + " cannot be attached to itself"; });
  const RigidBody &A = system_.body(parent), &B = system_.body(child);
  Attachment a{c,
               true,
               {},
               parent,
               rotate(conjugate(A.orientation), B.position - A.position),
               normalized(conjugate(A.orientation) * B.orientation),
               {system_.num_particles() + parent}};
  attachment_of_[c] = static_cast<Index>(attachments_.size());
  role_[c] = kAttached;
  attachments_.push_back(a);
  finalized_ = false;
}

void ReducedSystem::drive_particle(Index i, ParticleDrive drive) {
  system_.check_particle(i, "ReducedSystem::drive_particle");
  check_new_dependent(i, "ReducedSystem::drive_particle");
  require(static_cast<bool>(drive), [&] { return "ReducedSystem::drive_particle: empty trajectory for " + label(i); });
  particle_drives_[i] = std::move(drive);
  role_[i] = kDriven;
  finalized_ = false;
}

void ReducedSystem::drive_body(Index b, BodyDrive drive) {
  system_.check_body(b, "ReducedSystem::drive_body");
  const Index c = system_.num_particles() + b;
  check_new_dependent(c, "ReducedSystem::drive_body");
  require(static_cast<bool>(drive), [&] { return "ReducedSystem::drive_body: empty trajectory for " + label(c); });
  body_drives_[b] = std::move(drive);
  role_[c] = kDriven;
  finalized_ = false;
}

void ReducedSystem::finalize() {
  require(static_cast<Index>(role_.size()) == num_components(),
          "ReducedSystem::finalize: the mechanical system gained components after the reduction was made");
  // Depth-first post-order over attachments: masters before their dependents (notes sec. 0.18).
  order_.clear();
  std::vector<int> mark(attachments_.size(), 0);  // 0 new, 1 on the stack, 2 done
  std::vector<Index> stack;                       // components on the current path
  std::function<void(Index)> visit = [&](Index k) {
    mark[k] = 1;
    stack.push_back(attachments_[k].comp);
    for (Index m : attachments_[k].masters) {
      if (role_[m] != kAttached) continue;
      const Index j = attachment_of_[m];
      if (mark[j] == 1) {
        std::string path;
        auto it = std::find(stack.begin(), stack.end(), m);
        for (; it != stack.end(); ++it) path += label(*it) + " -> ";
        throw Error("ReducedSystem::finalize: the attachments form a cycle: " + path + label(m) +
                    " (each is attached to the next); attachments must form a directed acyclic graph");
      }
      if (mark[j] == 0) visit(j);
    }
    stack.pop_back();
    mark[k] = 2;
    order_.push_back(k);
  };
  for (Index k = 0; k < static_cast<Index>(attachments_.size()); ++k)
    if (mark[k] == 0) visit(k);
  red_offset_.assign(num_components(), -1);
  num_red_ = 0;
  for (Index c = 0; c < num_components(); ++c)
    if (role_[c] == kFree) {
      red_offset_[c] = num_red_;
      num_red_ += c < system_.num_particles() ? 3 : 6;
    }
  fixed_.clear();
  for (Index d : system_.fixed_velocity_dofs()) {
    for (Index c = 0; c < num_components(); ++c) {
      const Index off = c < system_.num_particles() ? system_.particle_velocity_offset(c)
                                                    : system_.body_velocity_offset(c - system_.num_particles());
      const Index n = c < system_.num_particles() ? 3 : 6;
      if (d >= off && d < off + n && red_offset_[c] >= 0) fixed_.push_back(red_offset_[c] + d - off);
    }
  }
  std::sort(fixed_.begin(), fixed_.end());
  finalized_ = true;
}

void ReducedSystem::require_finalized() const {
  require(finalized_, "ReducedSystem: call finalize() after the last attach_* / drive_* and before evaluating");
}

bool ReducedSystem::particle_is_free(Index i) const {
  system_.check_particle(i, "ReducedSystem::particle_is_free");
  return role_[i] == kFree;
}

bool ReducedSystem::body_is_free(Index b) const {
  system_.check_body(b, "ReducedSystem::body_is_free");
  return role_[system_.num_particles() + b] == kFree;
}

Index ReducedSystem::particle_velocity_offset(Index i) const {
  require_finalized();
  system_.check_particle(i, "ReducedSystem::particle_velocity_offset");
  return red_offset_[i];
}

Index ReducedSystem::body_velocity_offset(Index b) const {
  require_finalized();
  system_.check_body(b, "ReducedSystem::body_velocity_offset");
  return red_offset_[system_.num_particles() + b];
}

Index ReducedSystem::num_velocities() const {
  require_finalized();
  return num_red_;
}

const std::vector<Index>& ReducedSystem::fixed_velocity_dofs() const {
  require_finalized();
  return fixed_;
}

void ReducedSystem::place_attached(Eigen::VectorXd& q) const {
  const auto body_pose = [&](Index b, Vec3& x, Quaternion& r) {
    const Index o = system_.body_position_offset(b);
    x = Vec3{{q[o], q[o + 1], q[o + 2]}};
    r = normalized(Quaternion{q[o + 3], Vec3{{q[o + 4], q[o + 5], q[o + 6]}}});
  };
  for (Index k : order_) {
    const Attachment& a = attachments_[k];
    if (a.body) {
      Vec3 xa;
      Quaternion ra;
      body_pose(a.parent, xa, ra);
      const Vec3 x = xa + rotate(ra, a.p);
      const Quaternion r = normalized(ra * a.q_rel);
      const Index o = system_.body_position_offset(a.comp - system_.num_particles());
      for (int c = 0; c < 3; ++c) q[o + c] = x[c];
      q[o + 3] = r.s;
      for (int c = 0; c < 3; ++c) q[o + 4 + c] = r.v[c];
      continue;
    }
    Vec3 x{{0, 0, 0}};
    for (const WeightedPoint& t : a.point) {
      Vec3 xt = t.point.local;
      if (t.point.kind == PointRef::Kind::kParticle) {
        const Index o = system_.particle_position_offset(t.point.index);
        xt = Vec3{{q[o], q[o + 1], q[o + 2]}};
      } else if (t.point.kind == PointRef::Kind::kBody) {
        Vec3 xb;
        Quaternion rb;
        body_pose(t.point.index, xb, rb);
        xt = xb + rotate(rb, t.point.local);
      }
      x = x + t.weight * xt;
    }
    const Index o = system_.particle_position_offset(a.comp);
    for (int c = 0; c < 3; ++c) q[o + c] = x[c];
  }
}

void ReducedSystem::sync_positions(double t, Eigen::VectorXd& q) const {
  require_finalized();
  require(q.size() == num_positions(), [&] {
    return "ReducedSystem::sync_positions: q has " + std::to_string(q.size()) + " entries, expected " +
           std::to_string(num_positions());
  });
  for (Index i = 0; i < system_.num_particles(); ++i)
    if (particle_drives_[i]) {
      const PointMotion m = particle_drives_[i](t);
      for (int c = 0; c < 3; ++c) q[system_.particle_position_offset(i) + c] = m.x[c];
    }
  for (Index b = 0; b < system_.num_bodies(); ++b)
    if (body_drives_[b]) {
      const BodyMotion m = body_drives_[b](t);
      const Index o = system_.body_position_offset(b);
      for (int c = 0; c < 3; ++c) q[o + c] = m.x[c];
      q[o + 3] = m.q.s;
      for (int c = 0; c < 3; ++c) q[o + 4 + c] = m.q.v[c];
    }
  place_attached(q);
}

void ReducedSystem::evaluate(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool derivatives,
                             Evaluation& e) const {
  require_finalized();
  require(u.size() == num_red_, [&] {
    return "ReducedSystem: u has " + std::to_string(u.size()) + " entries, expected " + std::to_string(num_red_) +
           " (the free velocities)";
  });
  e.q = q;
  sync_positions(t, e.q);
  const Index np = system_.num_particles(), nc = num_components();
  const auto full_offset = [&](Index c) {
    return c < np ? system_.particle_velocity_offset(c) : system_.body_velocity_offset(c - np);
  };
  const auto dim = [&](Index c) { return c < np ? 3 : 6; };
  e.u.setZero(system_.num_velocities());
  e.c.setZero(system_.num_velocities());
  e.T.assign(nc, RowBlocks{});
  e.Z.assign(nc, RowBlocks{});
  for (Index c = 0; c < nc; ++c) {
    const Index o = full_offset(c);
    if (role_[c] == kFree) {
      e.u.segment(o, dim(c)) = u.segment(red_offset_[c], dim(c));
      // T's rows of a free component are the identity; they stay implicit (no block stored).
    } else if (role_[c] == kDriven && c < np) {
      const PointMotion m = particle_drives_[c](t);
      e.u.segment<3>(o) = to_eigen(m.v);
      e.c.segment<3>(o) = to_eigen(m.a);
    } else if (role_[c] == kDriven) {
      const BodyMotion m = body_drives_[c - np](t);
      e.u.segment<3>(o) = to_eigen(m.v);
      e.u.segment<3>(o + 3) = to_eigen(m.w);
      e.c.segment<3>(o) = to_eigen(m.a);
      e.c.segment<3>(o + 3) = to_eigen(m.alpha);
    }
  }
  system_.evaluate_state(t, e.q, e.u, e.s);
  std::vector<LocalTerm> terms;
  for (Index k : order_) {
    const Attachment& a = attachments_[k];
    terms.clear();
    Eigen::VectorXd bias = Eigen::VectorXd::Zero(dim(a.comp));
    if (a.body) {
      const BodyState& P = e.s.bodies[a.parent];
      const Vec3 r = P.R * a.p;
      LocalTerm term{a.masters[0], Eigen::MatrixXd::Identity(6, 6), Eigen::MatrixXd::Zero(6, 6), to_eigen(r), 1.0};
      term.T.block<3, 3>(0, 3) = -skew(r);                   // v_child = v + w x r
      term.Y.block<3, 3>(0, 3) = -skew(P.w) * skew(r);       // d(w x r)/dtheta = -[w][r]
      bias.head<3>() = to_eigen(cross(P.w, cross(P.w, r)));  // d/dt (w x r) at fixed twist
      terms.push_back(term);
    } else {
      for (const WeightedPoint& wp : a.point) {
        if (wp.point.kind == PointRef::Kind::kWorld) continue;
        const PointKinematics pk = point_kinematics(e.s, wp.point);
        const Index m = wp.point.kind == PointRef::Kind::kParticle ? wp.point.index : np + wp.point.index;
        LocalTerm term{m, wp.weight * point_jacobian(pk), Eigen::MatrixXd::Zero(3, pk.ndof), to_eigen(pk.r), wp.weight};
        if (pk.ndof == 6) {
          term.Y.block<3, 3>(0, 3) = -wp.weight * skew(pk.w) * skew(pk.r);
          bias += wp.weight * to_eigen(cross(pk.w, cross(pk.w, pk.r)));
        }
        terms.push_back(term);
      }
    }
    const Index o = full_offset(a.comp);
    Eigen::VectorXd uk = Eigen::VectorXd::Zero(dim(a.comp)), ck = bias;
    for (const LocalTerm& term : terms) {
      const Index om = full_offset(term.master);
      uk += term.T * e.u.segment(om, dim(term.master));
      ck += term.T * e.c.segment(om, dim(term.master));
      const bool free_master = role_[term.master] == kFree;
      if (free_master) accumulate(e.T[a.comp], term.master, term.T);
      for (const auto& [f, B] : e.T[term.master]) accumulate(e.T[a.comp], f, term.T * B);
      if (derivatives) {
        for (const auto& [f, B] : e.Z[term.master]) accumulate(e.Z[a.comp], f, term.T * B);
        if (free_master) accumulate(e.Z[a.comp], term.master, term.Y);
        for (const auto& [f, B] : e.T[term.master]) accumulate(e.Z[a.comp], f, term.Y * B);
      }
    }
    e.u.segment(o, dim(a.comp)) = uk;
    e.c.segment(o, dim(a.comp)) = ck;
    if (a.comp < np) {
      for (int c = 0; c < 3; ++c) e.s.v[a.comp][c] = uk[c];
    } else {
      BodyState& B = e.s.bodies[a.comp - np];
      for (int c = 0; c < 3; ++c) {
        B.v[c] = uk[c];
        B.w[c] = uk[3 + c];
      }
    }
  }
}

namespace {

// The CSR matrix (full velocities x reduced velocities) of per-component row blocks; with
// @p identity_of_free, the implicit identity rows of the free components are added (T, not Z).
EigenCsr rows_to_eigen(const std::vector<RowBlocks>& rows, const std::vector<Index>& full_offset,
                       const std::vector<Index>& red_offset, Index n_full, Index n_red, Index n_particles,
                       bool identity_of_free) {
  MatrixAssembler A(n_full, n_red);
  for (std::size_t c = 0; c < rows.size(); ++c) {
    if (identity_of_free && red_offset[c] >= 0) {
      const Index n = static_cast<Index>(c) < n_particles ? 3 : 6;
      for (Index k = 0; k < n; ++k) A.add(full_offset[c] + k, red_offset[c] + k, 1.0);
    }
    for (const auto& [f, B] : rows[c]) A.add_block(full_offset[c], red_offset[f], B);
  }
  return to_eigen(A.build());
}

}  // namespace

void ReducedSystem::reduction_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& T) const {
  Evaluation e;
  evaluate(t, q, Eigen::VectorXd::Zero(num_velocities()), false, e);
  std::vector<Index> full(num_components());
  for (Index c = 0; c < num_components(); ++c)
    full[c] = c < system_.num_particles() ? system_.particle_velocity_offset(c)
                                          : system_.body_velocity_offset(c - system_.num_particles());
  T = from_eigen(
      rows_to_eigen(e.T, full, red_offset_, system_.num_velocities(), num_red_, system_.num_particles(), true));
}

void ReducedSystem::full_positions(double t, const Eigen::VectorXd& q, Eigen::VectorXd& q_full) const {
  q_full = q;
  sync_positions(t, q_full);
}

void ReducedSystem::full_velocities(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                    Eigen::VectorXd& u_full) const {
  Evaluation e;
  evaluate(t, q, u, false, e);
  u_full = e.u;
}

void ReducedSystem::driven_velocities(double t, const Eigen::VectorXd& q, Eigen::VectorXd& s) const {
  full_velocities(t, q, Eigen::VectorXd::Zero(num_velocities()), s);
}

void ReducedSystem::known_accelerations(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u,
                                        Eigen::VectorXd& c) const {
  Evaluation e;
  evaluate(t, q, u, false, e);
  c = e.c;
}

Eigen::VectorXd ReducedSystem::free_velocities(const Eigen::VectorXd& u_full) const {
  require_finalized();
  require(u_full.size() == system_.num_velocities(), [&] {
    return "ReducedSystem::free_velocities: u_full has " + std::to_string(u_full.size()) + " entries, expected " +
           std::to_string(system_.num_velocities());
  });
  Eigen::VectorXd u(num_red_);
  const Index np = system_.num_particles();
  for (Index c = 0; c < num_components(); ++c) {
    if (red_offset_[c] < 0) continue;
    const Index o = c < np ? system_.particle_velocity_offset(c) : system_.body_velocity_offset(c - np);
    const Index n = c < np ? 3 : 6;
    u.segment(red_offset_[c], n) = u_full.segment(o, n);
  }
  return u;
}

void ReducedSystem::advance_positions(const Eigen::VectorXd& q0, const Eigen::VectorXd& u, double h,
                                      Eigen::VectorXd& q1) const {
  require_finalized();
  require(u.size() == num_red_, [&] {
    return "ReducedSystem::advance_positions: u has " + std::to_string(u.size()) + " entries, expected " +
           std::to_string(num_red_);
  });
  Eigen::VectorXd u_full = Eigen::VectorXd::Zero(system_.num_velocities());
  const Index np = system_.num_particles();
  for (Index c = 0; c < num_components(); ++c) {
    if (red_offset_[c] < 0) continue;
    const Index o = c < np ? system_.particle_velocity_offset(c) : system_.body_velocity_offset(c - np);
    const Index n = c < np ? 3 : 6;
    u_full.segment(o, n) = u.segment(red_offset_[c], n);
  }
  system_.advance_positions(q0, u_full, h, q1);
  place_attached(q1);
}

void ReducedSystem::mass_matrix(double t, const Eigen::VectorXd& q, CsrMatrix& M) const {
  CsrMatrix T, Mf;
  reduction_matrix(t, q, T);
  Eigen::VectorXd qs = q;
  sync_positions(t, qs);
  system_.mass_matrix(t, qs, Mf);
  const EigenCsr Te = to_eigen(T), Tt = Te.transpose();
  const EigenCsr R = Tt * (to_eigen(Mf) * Te);
  M = from_eigen(R);
}

void ReducedSystem::forces(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, ForcePart part,
                           Eigen::VectorXd& f) const {
  Evaluation e;
  evaluate(t, q, u, false, e);
  Eigen::VectorXd F;
  system_.forces_at(e.s, part, F);
  if (part != ForcePart::kElastic) {
    // Fictitious-force adjustment (notes sec. 0.19, eq. 0.23 with g = Tdot u): the attached and
    // driven components' known accelerations c cost the inertial force -M c.
    CsrMatrix M;
    system_.mass_matrix_at(e.s, M);
    F -= to_eigen(M) * e.c;
  }
  std::vector<Index> full(num_components());
  for (Index c = 0; c < num_components(); ++c)
    full[c] = c < system_.num_particles() ? system_.particle_velocity_offset(c)
                                          : system_.body_velocity_offset(c - system_.num_particles());
  const EigenCsr T =
      rows_to_eigen(e.T, full, red_offset_, system_.num_velocities(), num_red_, system_.num_particles(), true);
  f = T.transpose() * F;
}

void ReducedSystem::stiffness(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, bool projected,
                              CsrMatrix& K) const {
  Evaluation e;
  evaluate(t, q, u, !projected, e);
  const Index np = system_.num_particles(), nf = system_.num_velocities();
  std::vector<Index> full(num_components());
  for (Index c = 0; c < num_components(); ++c)
    full[c] = c < np ? system_.particle_velocity_offset(c) : system_.body_velocity_offset(c - np);
  const EigenCsr T = rows_to_eigen(e.T, full, red_offset_, nf, num_red_, system_.num_particles(), true),
                 Tt = T.transpose();
  CsrMatrix Kf;
  system_.stiffness_at(e.s, projected, Kf);
  EigenCsr Kfull = to_eigen(Kf);
  if (projected) {
    // T^T K_psd T is PSD; the lever and velocity terms below are not and are left out.
    K = from_eigen(EigenCsr(Tt * (Kfull * T)));
    return;
  }
  // Lever terms: fold the elastic forces down the attachments, dependents first; a force f
  // carried to a body through the lever r (torque r x f) adds -[f][r] to that body's K_thetatheta.
  Eigen::VectorXd acc;
  system_.forces_at(e.s, ForcePart::kElastic, acc);
  MatrixAssembler geo(nf, nf);
  for (auto it = order_.rbegin(); it != order_.rend(); ++it) {
    const Attachment& a = attachments_[*it];
    const Index o = full[a.comp];
    if (a.body) {
      const Index om = full[a.masters[0]];
      const Eigen::Vector3d fv = acc.segment<3>(o), r = to_eigen(e.s.bodies[a.parent].R * a.p);
      acc.segment<3>(om) += fv;
      acc.segment<3>(om + 3) += acc.segment<3>(o + 3) + r.cross(fv);
      geo.add_block(om + 3, om + 3, -skew(Vec3{{fv[0], fv[1], fv[2]}}) * skew(Vec3{{r[0], r[1], r[2]}}));
      continue;
    }
    const Eigen::Vector3d fk = acc.segment<3>(o);
    for (const WeightedPoint& wp : a.point) {
      if (wp.point.kind == PointRef::Kind::kWorld) continue;
      const PointKinematics pk = point_kinematics(e.s, wp.point);
      const Index om = pk.dof;
      acc.segment(om, pk.ndof) += wp.weight * point_jacobian(pk).transpose() * fk;
      if (pk.ndof == 6) geo.add_block(om + 3, om + 3, -wp.weight * skew(Vec3{{fk[0], fk[1], fk[2]}}) * skew(pk.r));
    }
  }
  CsrMatrix Df;
  system_.damping_at(e.s, Df);
  const EigenCsr Z = rows_to_eigen(e.Z, full, red_offset_, nf, num_red_, system_.num_particles(), false);
  const EigenCsr G = to_eigen(geo.build());
  Kfull += G;
  const EigenCsr R = Tt * (Kfull * T) + Tt * (to_eigen(Df) * Z);
  K = from_eigen(R);
}

void ReducedSystem::damping(double t, const Eigen::VectorXd& q, const Eigen::VectorXd& u, CsrMatrix& D) const {
  Evaluation e;
  evaluate(t, q, u, false, e);
  const Index np = system_.num_particles();
  std::vector<Index> full(num_components());
  for (Index c = 0; c < num_components(); ++c)
    full[c] = c < np ? system_.particle_velocity_offset(c) : system_.body_velocity_offset(c - np);
  const EigenCsr T = rows_to_eigen(e.T, full, red_offset_, system_.num_velocities(), num_red_, system_.num_particles(),
                                   true),
                 Tt = T.transpose();
  CsrMatrix Df;
  system_.damping_at(e.s, Df);
  D = from_eigen(EigenCsr(Tt * (to_eigen(Df) * T)));
}

bool ReducedSystem::has_potential() const {
  for (const auto& d : particle_drives_)
    if (d) return false;
  for (const auto& d : body_drives_)
    if (d) return false;
  return system_.has_potential();
}

double ReducedSystem::potential_energy(double t, const Eigen::VectorXd& q) const {
  Eigen::VectorXd qs = q;
  sync_positions(t, qs);
  return system_.potential_energy(t, qs);
}

}  // namespace sinew::model
