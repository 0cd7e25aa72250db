#include "sinew/model/mapping.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/linalg/assembly.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {

void Mapping::apply(const Eigen::VectorXd& q, Eigen::VectorXd& x) const {
  SystemState s;
  system_.evaluate_state(0.0, q, Eigen::VectorXd::Zero(system_.num_velocities()), s);
  x.setZero(output_size());
  do_apply(s, x);
}

void Mapping::jacobian(const Eigen::VectorXd& q, CsrMatrix& J) const {
  SystemState s;
  system_.evaluate_state(0.0, q, Eigen::VectorXd::Zero(system_.num_velocities()), s);
  do_jacobian(s, J);
}

void Mapping::jacobian_rate_times(const Eigen::VectorXd& q, const Eigen::VectorXd& u, Eigen::VectorXd& a) const {
  SystemState s;
  system_.evaluate_state(0.0, q, u, s);
  a.setZero(output_velocity_size());
  do_jacobian_rate_times(s, a);
}

// ---- subsets ----

SubsetMapping::SubsetMapping(const MechanicalSystem& system, std::vector<Index> particles, std::vector<Index> bodies)
    : Mapping(system), particles_(std::move(particles)), bodies_(std::move(bodies)) {
  for (std::size_t k = 0; k < particles_.size(); ++k)
    system.check_particle(particles_[k], "SubsetMapping: entry " + std::to_string(k) + " of the particles");
  for (std::size_t k = 0; k < bodies_.size(); ++k)
    system.check_body(bodies_[k], "SubsetMapping: entry " + std::to_string(k) + " of the bodies");
}

Index SubsetMapping::output_size() const {
  return 3 * static_cast<Index>(particles_.size()) + 7 * static_cast<Index>(bodies_.size());
}

Index SubsetMapping::output_velocity_size() const {
  return 3 * static_cast<Index>(particles_.size()) + 6 * static_cast<Index>(bodies_.size());
}

void SubsetMapping::do_apply(const SystemState& s, Eigen::VectorXd& x) const {
  Index k = 0;
  for (Index i : particles_)
    for (int c = 0; c < 3; ++c) x[k++] = s.x[i][c];
  for (Index b : bodies_) {
    for (int c = 0; c < 3; ++c) x[k++] = s.bodies[b].x[c];
    x[k++] = s.bodies[b].q.s;
    for (int c = 0; c < 3; ++c) x[k++] = s.bodies[b].q.v[c];
  }
}

void SubsetMapping::do_jacobian(const SystemState& s, CsrMatrix& J) const {
  MatrixAssembler A(output_velocity_size(), system().num_velocities());
  Index row = 0;
  for (Index i : particles_)
    for (int c = 0; c < 3; ++c) A.add(row++, s.particle_dof[i] + c, 1.0);
  for (Index b : bodies_)
    for (int c = 0; c < 6; ++c) A.add(row++, s.body_dof[b] + c, 1.0);
  J = A.build();
}

void SubsetMapping::do_jacobian_rate_times(const SystemState& /*s*/, Eigen::VectorXd& /*a*/) const {}

// ---- points ----

MappedPoint rigid_point(Index b, const Vec3& local) { return MappedPoint{WeightedPoint{body_point(b, local), 1.0}}; }

BodyFrame frame_in_frame(const BodyFrame& parent, const Vec3& p, const Quaternion& r) {
  require(std::abs(norm(r) - 1.0) <= 1e-9, [&] {
    return "frame_in_frame: the orientation must be a unit quaternion, its norm is " + number_text(norm(r));
  });
  return BodyFrame{parent.body, parent.p + rotate(parent.r, p), parent.r * r};
}

MappedPoint frame_point(const BodyFrame& frame, const Vec3& local) {
  return rigid_point(frame.body, frame.p + rotate(frame.r, local));
}

MappedPoint barycentric_point(const std::vector<Index>& particles, const std::vector<double>& weights) {
  require(particles.size() == weights.size() && !particles.empty(), [&] {
    return "barycentric_point: " + std::to_string(particles.size()) + " particles and " +
           std::to_string(weights.size()) + " weights; expected the same positive number";
  });
  MappedPoint p;
  for (std::size_t k = 0; k < particles.size(); ++k)
    p.push_back(WeightedPoint{particle_point(particles[k]), weights[k]});
  return p;
}

PointMapping::PointMapping(const MechanicalSystem& system, std::vector<MappedPoint> points)
    : Mapping(system), points_(std::move(points)) {
  for (std::size_t k = 0; k < points_.size(); ++k) {
    const std::string what = "PointMapping: point " + std::to_string(k);
    require(!points_[k].empty(), [&] { return what + " has no terms"; });
    for (std::size_t j = 0; j < points_[k].size(); ++j) {
      system.check_point(points_[k][j].point, what + ", term " + std::to_string(j));
      require(std::isfinite(points_[k][j].weight),
              [&] { return what + ", term " + std::to_string(j) + ": weight is not finite"; });
    }
  }
}

void PointMapping::do_apply(const SystemState& s, Eigen::VectorXd& x) const {
  for (std::size_t k = 0; k < points_.size(); ++k)
    for (const WeightedPoint& t : points_[k]) {
      const Vec3 xp = point_kinematics(s, t.point).x;
      for (int c = 0; c < 3; ++c) x[3 * k + c] += t.weight * xp[c];
    }
}

void PointMapping::do_jacobian(const SystemState& s, CsrMatrix& J) const {
  MatrixAssembler A(output_velocity_size(), system().num_velocities());
  for (std::size_t k = 0; k < points_.size(); ++k)
    for (const WeightedPoint& t : points_[k]) {
      const PointKinematics pk = point_kinematics(s, t.point);
      if (pk.ndof == 0) continue;
      A.add_block(static_cast<Index>(3 * k), pk.dof, t.weight * point_jacobian(pk));
    }
  J = A.build();
}

void PointMapping::do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const {
  for (std::size_t k = 0; k < points_.size(); ++k)
    for (const WeightedPoint& t : points_[k]) {
      const PointKinematics pk = point_kinematics(s, t.point);
      if (pk.ndof != 6) continue;
      // d/dt (v + w x r) at fixed (v, w) = w x rdot = w x (w x r).
      const Vec3 c = cross(pk.w, cross(pk.w, pk.r));
      for (int i = 0; i < 3; ++i) a[3 * k + i] += t.weight * c[i];
    }
}

// ---- frames ----

FrameMapping::FrameMapping(const MechanicalSystem& system, std::vector<BodyFrame> frames)
    : Mapping(system), frames_(std::move(frames)) {
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    const std::string what = "FrameMapping: frame " + std::to_string(k);
    system.check_point(body_point(frames_[k].body, frames_[k].p), what);
    require(std::fabs(norm(frames_[k].r) - 1.0) <= 1e-9,
            [&] { return what + ": orientation must be a unit quaternion"; });
  }
}

void FrameMapping::do_apply(const SystemState& s, Eigen::VectorXd& x) const {
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    const BodyState& B = s.bodies[frames_[k].body];
    const Vec3 o = B.x + B.R * frames_[k].p;
    const Quaternion q = normalized(B.q * frames_[k].r);
    for (int c = 0; c < 3; ++c) x[7 * k + c] = o[c];
    x[7 * k + 3] = q.s;
    for (int c = 0; c < 3; ++c) x[7 * k + 4 + c] = q.v[c];
  }
}

void FrameMapping::do_jacobian(const SystemState& s, CsrMatrix& J) const {
  MatrixAssembler A(output_velocity_size(), system().num_velocities());
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    const PointKinematics pk = point_kinematics(s, body_point(frames_[k].body, frames_[k].p));
    Eigen::MatrixXd B = Eigen::MatrixXd::Identity(6, 6);
    B.topRows(3) = point_jacobian(pk);
    A.add_block(static_cast<Index>(6 * k), pk.dof, B);
  }
  J = A.build();
}

void FrameMapping::do_jacobian_rate_times(const SystemState& s, Eigen::VectorXd& a) const {
  for (std::size_t k = 0; k < frames_.size(); ++k) {
    const PointKinematics pk = point_kinematics(s, body_point(frames_[k].body, frames_[k].p));
    const Vec3 c = cross(pk.w, cross(pk.w, pk.r));
    for (int i = 0; i < 3; ++i) a[6 * k + i] = c[i];
  }
}

}  // namespace sinew::model
