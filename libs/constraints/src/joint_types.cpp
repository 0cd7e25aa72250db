#include "sinew/constraints/joint_types.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::constraints {
namespace {

const Vec3 kZero{{0, 0, 0}};

// The 3 rows of coincident origins along the world axes (phi = p_B - p_A exactly), appended at
// once: n . (p_B - p_A) with n = e_k and the Jacobian of add_translation_row, the same numbers.
Index add_ball_rows(ConstraintRows& out, const JointFrame& A, const JointFrame& B, const RowLabel& name) {
  static const char* const kAxes[] = {" x", " y", " z"};
  const Vec3 d = B.p - A.p;
  Vec3 e[3];
  double phi[3];
  for (int k = 0; k < 3; ++k) {
    e[k] = kZero;
    e[k][k] = 1.0;
    phi[k] = dot(e[k], d) - 0.0;
  }
  const Index first = out.add_rows(BlockKind::kBilateral, 3, phi, name, kAxes);
  for (int k = 0; k < 3; ++k) {
    add_side_terms(out, first + k, B, B.p, e[k], kZero);
    add_side_terms(out, first + k, A, A.p, -e[k], kZero);
  }
  return first;
}

// Rows of a coordinate's limit: phi = coordinate - lower (J = +grad) and upper - coordinate
// (J = -grad), each added while phi <= margin, labelled @p lower and @p upper.
// `add(sign, offset, label)` appends a unilateral row with phi = sign coordinate - offset and
// Jacobian sign grad.
template <class AddRow>
void add_limit_rows(const JointLimit& limit, double coordinate, const RowLabel& lower, const RowLabel& upper,
                    AddRow add) {
  if (!limit.enabled) return;
  if (coordinate - limit.lower <= limit.margin) add(1.0, limit.lower, lower);
  if (limit.upper - coordinate <= limit.margin) add(-1.0, -limit.upper, upper);
}

void check_drive(const JointDrive& drive, const Joint& joint) {
  require(!drive.enabled || std::isfinite(drive.speed),
          [&] { return joint.name() + ": drive speed must be finite, got " + number_text(drive.speed); });
  for (std::size_t k = 0; k < drive.changes.size(); ++k) {
    const DriveChange& c = drive.changes[k];
    require(std::isfinite(c.time) && std::isfinite(c.speed), [&] {
      return joint.name() + ": drive change " + std::to_string(k) + " must have a finite time and speed";
    });
    require(k == 0 || c.time > drive.changes[k - 1].time, [&] {
      return joint.name() + ": drive change " + std::to_string(k) + " at t = " + number_text(c.time) +
             " is not after the one before; expected increasing times";
    });
  }
}

}  // namespace

double JointDrive::speed_at(double t) const {
  double v = speed;
  for (const DriveChange& c : changes) {
    if (t < c.time) break;
    v = c.speed;
  }
  return v;
}

BallJoint::BallJoint(std::string label, JointSide a, JointSide b, JointCompliance compliance)
    : Joint("ball joint", std::move(label), a, b, compliance) {}

void BallJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s, ConstraintRows& out) const {
  const Index first = add_ball_rows(out, frame_a(s), frame_b(s), row_label());
  apply_compliance(out, first, 3);
}

AxisJoint::AxisJoint(std::string kind, std::string label, JointSide a, JointSide b, AxisJointOptions options)
    : Joint(std::move(kind), std::move(label), a, b, options.compliance), options_(options) {}

void AxisJoint::check_limit_and_drive(const std::string& limit_name) const {
  check_limit(options_.limit, limit_name);
  check_drive(options_.drive, *this);
}

HingeJoint::HingeJoint(std::string label, JointSide a, JointSide b, AxisJointOptions options)
    : AxisJoint("hinge", std::move(label), a, b, options) {}

void HingeJoint::check_parameters(const model::MechanicalSystem&) const {
  check_limit_and_drive("angle limit");
  require(!options_.limit.enabled || (options_.limit.lower >= -kPi && options_.limit.upper <= kPi), [&] {
    return name() + ": the angle limit must lie within [-pi, pi] (the angle is measured by atan2), got [" +
           number_text(options_.limit.lower) + ", " + number_text(options_.limit.upper) + "]";
  });
}

double HingeJoint::angle(const model::SystemState& s) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Vec3 xb = column(B.R, 0);
  return std::atan2(dot(column(A.R, 1), xb), dot(column(A.R, 0), xb));
}

void HingeJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s, ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Index first = add_ball_rows(out, A, B, row_label());
  const Vec3 xa = column(A.R, 0), ya = column(A.R, 1);
  const Vec3 xb = column(B.R, 0), zb = column(B.R, 2);
  // Alignment of the axes: phi_x = (z_A x z_B) . x_A = -y_A . z_B (a small rotation of B about
  // x_A tilts z_B towards -y_A) and phi_y = x_A . z_B, with d/dt (a . b) = (b x a) . (w_B - w_A)
  // for a fixed in A and b fixed in B. Unlike the quaternion error these stay smooth however
  // far the hinge has turned.
  const Vec3 gx = cross(ya, zb), gy = cross(zb, xa);
  const double phis[2] = {-dot(ya, zb), dot(xa, zb)};
  const Vec3 gs[2] = {gx, gy};
  static const char* const kRoles[2] = {" axis x", " axis y"};
  const Index axis_rows = out.add_rows(BlockKind::kBilateral, 2, phis, row_label(), kRoles);
  for (int k = 0; k < 2; ++k) {
    add_side_terms(out, axis_rows + k, B, B.p, kZero, gs[k]);
    add_side_terms(out, axis_rows + k, A, A.p, kZero, -gs[k]);
  }
  apply_compliance(out, first, 5);
  if (!options_.limit.enabled && !options_.drive.enabled) return;  // no row needs the angle
  // Angle theta = atan2(sn, c), sn = y_A . x_B, c = x_A . x_B: dtheta = (c dsn - sn dc) / (c^2 + sn^2).
  const double c = dot(xa, xb), sn = dot(ya, xb);
  const Vec3 grad = (1.0 / (c * c + sn * sn)) * (c * cross(xb, ya) - sn * cross(xb, xa));
  const double theta = std::atan2(sn, c);
  add_limit_rows(options_.limit, theta, row_label().with_role(" angle lower limit"),
                 row_label().with_role(" angle upper limit"), [&](double sign, double offset, const RowLabel& label) {
                   const Index row = out.add_block(BlockKind::kUnilateral, 0.0, {sign * theta - offset}, {0.0}, label);
                   add_side_terms(out, row, B, B.p, kZero, sign * grad);
                   add_side_terms(out, row, A, A.p, kZero, -sign * grad);
                 });
  if (options_.drive.enabled) {
    // Velocity level only: J_theta v = speed, phi = 0 (a speed drive has no position to hold).
    const Index row = out.add_block(BlockKind::kBilateral, 0.0, {0.0}, {options_.drive.speed_at(s.t)},
                                    row_label().with_role(" drive"));
    out.set_velocity_level(row, 1);
    add_side_terms(out, row, B, B.p, kZero, grad);
    add_side_terms(out, row, A, A.p, kZero, -grad);
  }
}

SliderJoint::SliderJoint(std::string label, JointSide a, JointSide b, AxisJointOptions options)
    : AxisJoint("slider", std::move(label), a, b, options) {}

void SliderJoint::check_parameters(const model::MechanicalSystem&) const { check_limit_and_drive("travel limit"); }

double SliderJoint::travel(const model::SystemState& s) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  return dot(column(A.R, 2), B.p - A.p);
}

void SliderJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s, ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Index first = out.next_row();
  add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, column(A.R, 0), true, 0.0,
                      row_label().with_role(" x"));
  add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, column(A.R, 1), true, 0.0,
                      row_label().with_role(" y"));
  const int axes[3] = {0, 1, 2};
  add_rotation_rows(out, A, B, axes, 3, row_label().with_role(" rotation"));
  apply_compliance(out, first, 5);
  const Vec3 za = column(A.R, 2);
  const double s_travel = dot(za, B.p - A.p);
  add_limit_rows(options_.limit, s_travel, row_label().with_role(" travel lower limit"),
                 row_label().with_role(" travel upper limit"), [&](double sign, double offset, const RowLabel& label) {
                   add_translation_row(out, BlockKind::kUnilateral, A, A.p, B, B.p, sign * za, true, offset, label);
                 });
  if (options_.drive.enabled) {
    const Index row =
        add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, za, true, 0.0, row_label().with_role(" drive"));
    out.phi[static_cast<std::size_t>(row)] = 0.0;  // velocity level only: J_s v = speed
    out.target[static_cast<std::size_t>(row)] = options_.drive.speed_at(s.t);
  }
}

FixedJoint::FixedJoint(std::string label, JointSide a, JointSide b, JointCompliance compliance)
    : Joint("fixed joint", std::move(label), a, b, compliance) {}

void FixedJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s, ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Index first = add_ball_rows(out, A, B, row_label());
  const int axes[3] = {0, 1, 2};
  add_rotation_rows(out, A, B, axes, 3, row_label().with_role(" rotation"));
  apply_compliance(out, first, 6);
}

}  // namespace sinew::constraints
