#include "sinew/constraints/velocity_constraint.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::constraints {
namespace {

const Vec3 kZero{{0, 0, 0}};

// One velocity row dir . (v_B(p) - v_A(p)) = 0 of the material points of both sides at p.
void add_relative_velocity_row(ConstraintRows& out, const JointFrame& A, const JointFrame& B, const Vec3& p,
                               const Vec3& dir, const RowLabel& label) {
  const Index row = out.add_block(BlockKind::kBilateral, 0.0, {0.0}, {0.0}, label);
  out.set_velocity_level(row, 1);
  add_side_terms(out, row, B, p, dir, kZero);
  add_side_terms(out, row, A, p, -dir, kZero);
}

}  // namespace

KnifeEdgeConstraint::KnifeEdgeConstraint(std::string label, JointSide ground, JointSide blade,
                                         JointCompliance compliance)
    : Joint("knife edge", std::move(label), ground, blade, compliance) {}

void KnifeEdgeConstraint::add_rows(const model::MechanicalSystem&, const model::SystemState& s,
                                   ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Index row = out.next_row();
  add_relative_velocity_row(out, A, B, B.p, column(B.R, 2), row_label());
  apply_compliance(out, row, 1);
}

RollingDiskConstraint::RollingDiskConstraint(std::string label, JointSide plane, JointSide disk,
                                             RollingDiskOptions options)
    : Joint("rolling disk", std::move(label), plane, disk, options.compliance), options_(options) {}

void RollingDiskConstraint::check_parameters(const model::MechanicalSystem&) const {
  // Checked every step: the messages are built only on failure.
  require(side_b().kind == JointSide::Kind::kBody, [&] { return name() + ": the disk (side B) must be a rigid body"; });
  require(std::isfinite(options_.radius) && options_.radius > 0,
          [&] { return name() + ": radius must be finite and > 0, got " + number_text(options_.radius); });
}

Vec3 RollingDiskConstraint::contact_point(const model::SystemState& s) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Vec3 n = column(A.R, 2), a = column(B.R, 2);
  const Vec3 in_plane = n - dot(n, a) * a;  // component of n in the disk's plane
  const double len = norm(in_plane);
  require(len > 1e-9, [&] {
    return name() +
           ": the disk lies flat on the plane (axis parallel to the normal); expected it upright enough to have a "
           "lowest point";
  });
  return B.p - (options_.radius / len) * in_plane;
}

void RollingDiskConstraint::add_rows(const model::MechanicalSystem&, const model::SystemState& s,
                                     ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const Vec3 p = contact_point(s);
  const Vec3 n = column(A.R, 2), a = column(B.R, 2);
  const Index first = out.next_row();
  if (options_.hold_on_plane)
    add_translation_row(out, BlockKind::kBilateral, A, A.p, B, p, n, true, 0.0, row_label().with_role(" normal"));
  const Vec3 t1u = cross(n, a);
  const Vec3 t1 = (1.0 / norm(t1u)) * t1u;  // nonzero: contact_point() checked a is not parallel to n
  add_relative_velocity_row(out, A, B, p, t1, row_label().with_role(" rolling"));
  add_relative_velocity_row(out, A, B, p, cross(n, t1), row_label().with_role(" sideways"));
  apply_compliance(out, first, out.next_row() - first);
}

}  // namespace sinew::constraints
