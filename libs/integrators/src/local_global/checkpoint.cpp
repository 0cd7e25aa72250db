// LocalGlobalIntegrator::save() / restore(): the state that the next steps depend on beyond the
// description and options, as raw host bytes (doubles as bits, native byte order), so that an
// integrator built from the same description and options continues bit for bit.
//
// Layout (version 2): "SNWLGCK\0" (8 bytes), uint32 version; uint64 vertices, targets, cables,
// obstacles (checked against the integrator); int64 steps; (3n) x, (3n) v; (targets x 3) target
// positions; (3n) the per-coordinate pinned targets (their weighted means, kept as computed so
// that set_target()'s order of sums survives); then, with a contact solver (obstacles, cables or
// contact between bodies), per obstacle its
// pose (9 + 3) and motion (3 + 3), per cable its pull and previous impulse, and the warm start:
// uint64 count, per previous contact int64 vertex, int64 obstacle (obstacles + triangle for a
// vertex-triangle contact between bodies, obstacles + triangles + edge b for an edge-edge one,
// past those an obstacle feature's key, past those the cloth's self-contacts': its triangle, then
// triangles + its edge b), int64 second key (edge a's second vertex for an edge-edge contact, between
// bodies or of the cloth, the body edge's second vertex for a feature edge's, -1 otherwise; new in
// version 2), 9 frame values (n, t1,
// t2) and 3 impulses. Everything else in Impl is rebuilt from the description (A, S', G, masses) or reset at each
// step's start (q~, b, the ADMM duals, which restart at 0 each step; Jacobi's start is q~).
#include <cstdint>
#include <cstring>
#include <istream>
#include <ostream>
#include <string>
#include <utility>

#include "checkpoint_io.hpp"
#include "impl.hpp"
#include "sinew/core/error.hpp"

namespace sinew::integrators {

namespace {

constexpr char kMagic[8] = {'S', 'N', 'W', 'L', 'G', 'C', 'K', '\0'};
constexpr std::uint32_t kVersion = 2;

}  // namespace

namespace detail {

void LocalGlobalContactSolver::save(CheckpointWriter& out) const {
  for (const Obstacle& o : obstacles_) {
    out.doubles(o.pose.rotation.m, 9);
    out.vec3(o.pose.translation);
    out.vec3(o.motion.linear);
    out.vec3(o.motion.angular);
  }
  for (std::size_t c = 0; c < cables_.size(); ++c) {
    out.put(cables_[c].pull);
    out.put(cable_r_prev_[c]);
  }
  out.count(contacts_prev_.size());
  for (std::size_t j = 0; j < contacts_prev_.size(); ++j) {
    const Contact& c = contacts_prev_[j];
    out.put(static_cast<std::int64_t>(c.vertex));
    out.put(static_cast<std::int64_t>(c.obstacle));
    out.put(static_cast<std::int64_t>(second_key(c)));
    for (const Vec3& f : c.frame) out.vec3(f);
    out.doubles(r_prev_.data() + 3 * j, 3);
  }
}

LocalGlobalContactSolver::State LocalGlobalContactSolver::read(CheckpointReader& in) const {
  State s;
  std::vector<double> buffer;
  for (std::size_t k = 0; k < obstacles_.size(); ++k) {
    Pose pose;
    in.doubles(buffer, 9, "obstacle pose rotation");
    std::memcpy(pose.rotation.m, buffer.data(), sizeof pose.rotation.m);
    pose.translation = in.vec3("obstacle pose translation");
    Motion motion;
    motion.linear = in.vec3("obstacle linear velocity");
    motion.angular = in.vec3("obstacle angular velocity");
    s.poses.push_back(pose);
    s.motions.push_back(motion);
  }
  for (std::size_t c = 0; c < cables_.size(); ++c) {
    in.doubles(buffer, 2, "cable pull and impulse");
    require(buffer[0] >= 0.0 && buffer[0] < cables_[c].rest_length,
            in.who() + "cable " + std::to_string(c) + "'s pull does not fit its rest length");
    s.pulls.push_back(buffer[0]);
    s.cable_r_prev.push_back(buffer[1]);
  }
  // At most one contact per (candidate vertex, obstacle) pair and per (vertex, other body), and
  // one per pair of boundary edges.
  const std::size_t sides = obstacles_.size() + static_cast<std::size_t>(bodies_.surfaces.bodies);
  const std::size_t edges = bodies_.active ? boundary_edges(bodies_.surfaces).size() : 0;
  // And one per (obstacle feature, body) or (feature, body vertex) pair, counted loosely.
  const std::size_t features = features_ ? static_cast<std::size_t>(features_->keys()) : 0;
  // And one per (vertex, triangle) and per pair of edges of the cloth.
  const std::size_t cloth_triangles = static_cast<std::size_t>(cloth_triangles_);
  const std::size_t cloth_edges = cloth_ ? cloth_->edges().size() : 0;
  const std::size_t count =
      in.bounded_count(candidates_.size() * sides + edges * edges + features * (candidates_.size() + sides) +
                           order_.size() * cloth_triangles + cloth_edges * cloth_edges,
                       "previous contacts");
  // The key of a body contact is obstacles + its triangle, obstacles + triangles + edge b, or
  // past those an obstacle feature's (VertexContact::obstacle).
  const std::int64_t triangle_keys = static_cast<std::int64_t>(obstacles_.size() + bodies_.surfaces.triangles.size());
  const std::int64_t keys = first_cloth_key_ + static_cast<std::int64_t>(cloth_triangles + cloth_edges);
  s.contacts_prev.resize(count);
  s.r_prev.resize(3 * count);
  for (std::size_t j = 0; j < count; ++j) {
    Contact& c = s.contacts_prev[j];
    const auto vertex = in.get<std::int64_t>("contact vertex");
    const auto obstacle = in.get<std::int64_t>("contact obstacle");
    const auto second = in.get<std::int64_t>("contact second key");
    // A feature's second key is checked loosely: any later vertex (its body edge's). The cloth's
    // vertex-triangle keys have none, its edge-edge keys edge a's second vertex.
    const std::int64_t cloth_edge_keys = first_cloth_key_ + static_cast<std::int64_t>(cloth_triangles);
    const bool edge = obstacle >= triangle_keys && (obstacle < first_feature_key_ || obstacle >= cloth_edge_keys ||
                                                    (obstacle < first_cloth_key_ && second != -1));
    require(vertex >= 0 && vertex < n_ && obstacle >= 0 && obstacle < keys &&
                (edge ? second > vertex && second < n_ : second == -1),
            in.who() + "previous contact " + std::to_string(j) + " names vertex " + std::to_string(vertex) +
                ", obstacle " + std::to_string(obstacle) + " and second key " + std::to_string(second) +
                ", out of range for this integrator");
    c.vertex = static_cast<Index>(vertex);
    c.obstacle = static_cast<int>(obstacle);
    if (edge) c.tri[0] = static_cast<Index>(second);
    for (Vec3& f : c.frame) f = in.vec3("contact frame");
    in.doubles(buffer, 3, "contact impulse");
    for (int i = 0; i < 3; ++i) s.r_prev[3 * j + i] = buffer[i];
  }
  return s;
}

void LocalGlobalContactSolver::restore(State&& s) {
  for (std::size_t k = 0; k < obstacles_.size(); ++k) {
    obstacles_[k].pose = s.poses[k];
    obstacles_[k].motion = s.motions[k];
  }
  for (std::size_t c = 0; c < cables_.size(); ++c) cables_[c].pull = s.pulls[c];
  cable_r_prev_ = std::move(s.cable_r_prev);
  contacts_prev_ = std::move(s.contacts_prev);
  r_prev_ = std::move(s.r_prev);
}

}  // namespace detail

void LocalGlobalIntegrator::save(std::ostream& out) const {
  const Impl& m = *impl_;
  detail::CheckpointWriter w(out);
  out.write(kMagic, sizeof kMagic);
  w.put(kVersion);
  const std::size_t n3 = 3 * static_cast<std::size_t>(m.n);
  w.count(static_cast<std::size_t>(m.n));
  w.count(m.targets.size());
  w.count(m.contact ? m.contact->cable_count() : 0);
  w.count(obstacles().size());
  w.put(static_cast<std::int64_t>(m.steps));
  const std::vector<double> x = m.backend->download(m.x), v = m.backend->download(m.v);
  w.doubles(x.data(), n3);
  w.doubles(v.data(), n3);
  for (const PositionalTarget& t : m.targets) w.vec3(t.target);
  w.doubles(m.pin_t3_host.data(), n3);
  if (m.contact) m.contact->save(w);
  require(static_cast<bool>(out), "LocalGlobalIntegrator::save: writing the checkpoint failed");
}

void LocalGlobalIntegrator::restore(std::istream& in) {
  Impl& m = *impl_;
  detail::CheckpointReader r(in, "LocalGlobalIntegrator::restore: ");
  // Everything is read into temporaries and checked before the state is touched.
  char magic[sizeof kMagic];
  for (char& c : magic) c = r.get<char>("the header");
  require(std::memcmp(magic, kMagic, sizeof kMagic) == 0, r.who() + "not a local-global checkpoint (bad magic)");
  const auto version = r.get<std::uint32_t>("the version");
  require(version == kVersion,
          r.who() + "checkpoint version " + std::to_string(version) + ", expected " + std::to_string(kVersion));
  const std::size_t n3 = 3 * static_cast<std::size_t>(m.n);
  r.expect_count(static_cast<std::size_t>(m.n), "vertices");
  r.expect_count(m.targets.size(), "targets");
  r.expect_count(m.contact ? m.contact->cable_count() : 0, "cables");
  r.expect_count(obstacles().size(), "obstacles");
  const auto steps = r.get<std::int64_t>("steps");
  require(steps >= 0, r.who() + "negative step count " + std::to_string(steps));
  std::vector<double> x, v, pins;
  r.doubles(x, n3, "positions");
  r.doubles(v, n3, "velocities");
  std::vector<Vec3> targets;
  for (std::size_t k = 0; k < m.targets.size(); ++k) targets.push_back(r.vec3("target"));
  r.doubles(pins, n3, "pinned targets");
  detail::LocalGlobalContactSolver::State contact;
  if (m.contact) contact = m.contact->read(r);
  // Commit (nothing below throws).
  m.steps = static_cast<long>(steps);
  m.backend->upload(x.data(), n3, m.x);
  m.backend->upload(v.data(), n3, m.v);
  for (std::size_t k = 0; k < m.targets.size(); ++k) m.targets[k].target = targets[k];
  m.pin_t3_host = std::move(pins);
  m.targets_dirty = true;
  if (m.contact) m.contact->restore(std::move(contact));
}

}  // namespace sinew::integrators
