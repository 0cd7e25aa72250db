#include "sinew/constraints/joint_point.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::constraints {
namespace {

// Unit direction from pa to pb; throws naming @p who when the points coincide (|d| would have
// no derivative there: the row's direction is undefined).
Vec3 unit_direction(const Vec3& pa, const Vec3& pb, const std::string& who) {
  const Vec3 d = pb - pa;
  const double len = norm(d);
  require(len > 1e-12,
          [&] { return who + ": the two points coincide, so the row has no direction; expected them apart"; });
  return (1.0 / len) * d;
}

}  // namespace

DistanceJoint::DistanceJoint(std::string label, JointSide a, JointSide b, DistanceOptions options)
    : Joint(options.rope ? "rope" : "distance joint", std::move(label), a, b, options.compliance), options_(options) {}

void DistanceJoint::check_parameters(const model::MechanicalSystem&) const {
  // Checked every step: the messages are built only on failure.
  require(std::isfinite(options_.length) && options_.length > 0, [&] {
    return name() + ": length must be finite and > 0, got " + number_text(options_.length) +
           " (use a ball joint for coincident points)";
  });
  require(std::isfinite(options_.margin) && options_.margin >= 0,
          [&] { return name() + ": margin must be finite and >= 0, got " + number_text(options_.margin); });
}

double DistanceJoint::distance(const model::SystemState& s) const { return norm(frame_b(s).p - frame_a(s).p); }

void DistanceJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s, ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  const double L = options_.length;
  if (options_.rope && L - norm(B.p - A.p) > options_.margin) return;  // slack rope: no row
  const Vec3 n = unit_direction(A.p, B.p, name());
  // |d| - L = n . d - L, and n's own turn is orthogonal to d, so J = n^T (J_B - J_A) exactly.
  const Index row = options_.rope
                        ? add_translation_row(out, BlockKind::kUnilateral, A, A.p, B, B.p, -n, false, -L, row_label())
                        : add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, n, false, L, row_label());
  apply_compliance(out, row, 1);
}

PointOnSurfaceJoint::PointOnSurfaceJoint(std::string label, JointSide surface, JointSide point, SurfaceOptions options)
    : Joint(options.shape == SurfaceOptions::Shape::kPlane ? "point-on-plane" : "point-on-sphere", std::move(label),
            surface, point, options.compliance),
      options_(options) {}

void PointOnSurfaceJoint::check_parameters(const model::MechanicalSystem&) const {
  require(options_.shape == SurfaceOptions::Shape::kPlane || (std::isfinite(options_.radius) && options_.radius > 0),
          [&] { return name() + ": sphere radius must be finite and > 0, got " + number_text(options_.radius); });
}

void PointOnSurfaceJoint::add_rows(const model::MechanicalSystem&, const model::SystemState& s,
                                   ConstraintRows& out) const {
  const JointFrame A = frame_a(s), B = frame_b(s);
  Index row;
  if (options_.shape == SurfaceOptions::Shape::kPlane) {
    row = add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, column(A.R, 2), true, 0.0, row_label());
  } else {
    const Vec3 n = unit_direction(A.p, B.p, name());
    row = add_translation_row(out, BlockKind::kBilateral, A, A.p, B, B.p, n, false, options_.radius, row_label());
  }
  apply_compliance(out, row, 1);
}

}  // namespace sinew::constraints
