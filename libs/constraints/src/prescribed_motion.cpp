// A kinematically driven rigid body (prescribed_motion.hpp).
#include "sinew/constraints/prescribed_motion.hpp"

#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::constraints {

TwistChange TwistProfile::at(double t) const {
  TwistChange now{0.0, velocity, angular_velocity};
  for (const TwistChange& c : changes) {
    if (t < c.time) break;
    now = c;
  }
  return now;
}

model::BodyDrive twist_drive(const TwistProfile& profile, const Vec3& x0, const Quaternion& q0) {
  return [profile, x0, q0](double t) {
    model::BodyMotion m{x0, q0, profile.velocity, profile.angular_velocity, Vec3{{0, 0, 0}}, Vec3{{0, 0, 0}}};
    double from = 0.0;
    const auto advance = [&](double to) {
      m.x = m.x + (to - from) * m.v;
      m.q = quat_step_world(m.q, m.w, to - from);
      from = to;
    };
    for (const TwistChange& c : profile.changes) {
      if (t < c.time) break;
      advance(c.time);
      m.v = c.velocity;
      m.w = c.angular_velocity;
    }
    advance(t);
    return m;
  };
}

PrescribedMotion::PrescribedMotion(std::string name, Index body, TwistProfile profile)
    : name_(std::move(name)), row_label_(name_), body_(body), profile_(std::move(profile)) {}

void PrescribedMotion::check(const model::MechanicalSystem& system) const {
  system.check_body(body_, name_);
  require(is_finite(profile_.velocity) && is_finite(profile_.angular_velocity),
          [&] { return name_ + ": the prescribed velocity must be finite"; });
  for (std::size_t k = 0; k < profile_.changes.size(); ++k) {
    const TwistChange& c = profile_.changes[k];
    require(std::isfinite(c.time) && is_finite(c.velocity) && is_finite(c.angular_velocity),
            [&] { return name_ + ": change " + std::to_string(k) + " must have a finite time and twist"; });
    require(k == 0 || c.time > profile_.changes[k - 1].time, [&] {
      return name_ + ": change " + std::to_string(k) + " at t = " + number_text(c.time) +
             " is not after the one before; expected increasing times";
    });
  }
}

void PrescribedMotion::add_rows(const model::MechanicalSystem& system, const model::SystemState& s,
                                ConstraintRows& out) const {
  const TwistChange twist = profile_.at(s.t);
  const Index dof = system.body_velocity_offset(body_);
  for (int k = 0; k < 6; ++k) {
    const double target = k < 3 ? twist.velocity[k] : twist.angular_velocity[k - 3];
    // u = J v - target = 0 on the body's k-th velocity: velocity level only (phi = 0).
    const Index row = out.add_block(BlockKind::kBilateral, 0.0, {0.0}, {target}, row_label_);
    out.set_velocity_level(row, 1);
    out.jacobian.emplace_back(row, dof + k, 1.0);
  }
}

}  // namespace sinew::constraints
