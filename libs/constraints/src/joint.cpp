#include "sinew/constraints/joint.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::constraints {
namespace {

std::string str(const Vec3& a) {
  return "(" + number_text(a[0]) + ", " + number_text(a[1]) + ", " + number_text(a[2]) + ")";
}

// Frame axes (x, y, z) as columns, in the side's own coordinates: z along the axis, x the
// reference made perpendicular to it (Gram-Schmidt), y = z x x. The side has been checked.
Mat3 local_axes(const JointSide& side) {
  const Vec3 z = (1.0 / norm(side.axis)) * side.axis;
  const Vec3 xr = side.reference - dot(side.reference, z) * z;
  const Vec3 x = (1.0 / norm(xr)) * xr;
  Mat3 F;
  set_column(F, 0, x);
  set_column(F, 1, cross(z, x));
  set_column(F, 2, z);
  return F;
}

// The frame of @p side at @p s, with the side's axes F = local_axes(side) given.
JointFrame frame_with_axes(const model::SystemState& s, const JointSide& side, const Mat3& F) {
  JointFrame f;
  switch (side.kind) {
    case JointSide::Kind::kBody: {
      const model::BodyState& b = s.bodies[static_cast<std::size_t>(side.index)];
      f.R = b.R * F;
      f.p = b.x + b.R * side.origin;
      f.body_x = b.x;
      f.dof = s.body_dof[static_cast<std::size_t>(side.index)];
      f.ndof = 6;
      break;
    }
    case JointSide::Kind::kParticle:
      f.R = F;
      f.p = s.x[static_cast<std::size_t>(side.index)];
      f.body_x = f.p;
      f.dof = s.particle_dof[static_cast<std::size_t>(side.index)];
      f.ndof = 3;
      break;
    case JointSide::Kind::kWorld:
      f.R = F;
      f.p = side.origin;
      f.body_x = f.p;
      break;
  }
  f.q = normalized(quat_from_rotation_matrix(f.R));
  return f;
}

}  // namespace

JointSide world_side(const Vec3& origin, const Vec3& axis, const Vec3& reference) {
  return JointSide{JointSide::Kind::kWorld, -1, origin, axis, reference};
}

JointSide body_side(Index b, const Vec3& origin, const Vec3& axis, const Vec3& reference) {
  return JointSide{JointSide::Kind::kBody, b, origin, axis, reference};
}

JointSide particle_side(Index i, const Vec3& axis, const Vec3& reference) {
  return JointSide{JointSide::Kind::kParticle, i, Vec3{{0, 0, 0}}, axis, reference};
}

Joint::Joint(std::string kind, std::string label, JointSide a, JointSide b, JointCompliance compliance)
    : label_(kind + " '" + label + "'"),
      a_(a),
      b_(b),
      // Not finite for a side check() refuses: check() runs before any frame is taken.
      axes_a_(local_axes(a)),
      axes_b_(local_axes(b)),
      compliance_(compliance) {}

std::string Joint::name() const { return *label_.name; }

void Joint::check(const model::MechanicalSystem& system) const {
  // Called on every step: the messages are built only when a check fails.
  const std::pair<const JointSide*, const char*> sides[] = {{&a_, "side A"}, {&b_, "side B"}};
  for (const auto& entry : sides) {
    // Plain variables, not a structured binding: C++17 lambdas cannot capture those.
    const JointSide* side = entry.first;
    const char* which = entry.second;
    const auto who = [&] { return name() + " " + which; };
    switch (side->kind) {
      case JointSide::Kind::kBody:
        if (side->index < 0 || side->index >= system.num_bodies()) system.check_body(side->index, who());
        break;
      case JointSide::Kind::kParticle:
        if (side->index < 0 || side->index >= system.num_particles()) system.check_particle(side->index, who());
        break;
      case JointSide::Kind::kWorld:
        break;
    }
    require(is_finite(side->origin) && is_finite(side->axis) && is_finite(side->reference),
            [&] { return who() + ": origin, axis and reference must be finite"; });
    const double na = norm(side->axis);
    require(na > 0, [&] { return who() + ": the axis must be nonzero, got " + str(side->axis); });
    const Vec3 z = (1.0 / na) * side->axis;
    const Vec3 xr = side->reference - dot(side->reference, z) * z;
    require(norm(xr) > 1e-9 * norm(side->reference) && norm(side->reference) > 0, [&] {
      return who() + ": the reference direction " + str(side->reference) +
             " must be nonzero and not parallel to the axis " + str(side->axis);
    });
  }
  require(a_.kind != JointSide::Kind::kWorld || b_.kind != JointSide::Kind::kWorld,
          [&] { return name() + ": both sides are the world; expected at least one body or particle"; });
  require(std::isfinite(compliance_.compliance) && compliance_.compliance >= 0,
          [&] { return name() + ": compliance must be finite and >= 0, got " + number_text(compliance_.compliance); });
  require(std::isfinite(compliance_.damping) && compliance_.damping >= 0,
          [&] { return name() + ": damping must be finite and >= 0, got " + number_text(compliance_.damping); });
  check_parameters(system);
}

void Joint::check_parameters(const model::MechanicalSystem&) const {}

void Joint::check_limit(const JointLimit& limit, const std::string& what) const {
  if (!limit.enabled) return;
  require(!std::isnan(limit.lower) && !std::isnan(limit.upper) && limit.lower < limit.upper, [&] {
    return name() + ": " + what + " needs lower < upper, got [" + number_text(limit.lower) + ", " +
           number_text(limit.upper) + "]";
  });
  require(std::isfinite(limit.margin) && limit.margin >= 0,
          [&] { return name() + ": " + what + " margin must be finite and >= 0, got " + number_text(limit.margin); });
}

JointFrame Joint::frame_a(const model::SystemState& s) const { return frame_with_axes(s, a_, axes_a_); }

JointFrame Joint::frame_b(const model::SystemState& s) const { return frame_with_axes(s, b_, axes_b_); }

void Joint::apply_compliance(ConstraintRows& out, Index first, Index count) const {
  if (compliance_.compliance > 0 || compliance_.damping > 0)
    out.set_compliance(first, count, compliance_.compliance, compliance_.damping);
}

JointFrame evaluate_joint_frame(const model::SystemState& s, const JointSide& side) {
  return frame_with_axes(s, side, local_axes(side));
}

void add_side_terms(ConstraintRows& out, Index row, const JointFrame& f, const Vec3& point, const Vec3& linear,
                    const Vec3& angular) {
  if (f.ndof == 0) return;
  // Appended one by one: push_back's inlined path, where a range insert of six entries is a
  // memmove call (joints add rows every step).
  for (int c = 0; c < 3; ++c) out.jacobian.emplace_back(row, f.dof + c, linear[c]);
  if (f.ndof == 6) {
    // linear . (v + w x r) + angular . w = linear . v + (r x linear + angular) . w
    const Vec3 wcoef = cross(point - f.body_x, linear) + angular;
    for (int c = 0; c < 3; ++c) out.jacobian.emplace_back(row, f.dof + 3 + c, wcoef[c]);
  }
}

Index add_translation_row(ConstraintRows& out, BlockKind kind, const JointFrame& A, const Vec3& pa, const JointFrame& B,
                          const Vec3& pb, const Vec3& n, bool n_in_a, double offset, const RowLabel& label) {
  const Vec3 d = pb - pa;
  const Index row = out.add_block(kind, 0.0, {dot(n, d) - offset}, {0.0}, label);
  const Vec3 zero{{0, 0, 0}};
  add_side_terms(out, row, B, pb, n, zero);
  // d/dt (n . d) = n . (v_pb - v_pa) + (w_A x n) . d, and (w_A x n) . d = w_A . (n x d).
  add_side_terms(out, row, A, pa, -n, n_in_a ? cross(n, d) : zero);
  return row;
}

Index add_rotation_rows(ConstraintRows& out, const JointFrame& A, const JointFrame& B, const int* axes, int count,
                        const RowLabel& label) {
  const Quaternion qr = conjugate(A.q) * B.q;
  // q and -q are one rotation: take the representative with s >= 0 so that phi is the small
  // rotation (|theta| <= pi), continuous wherever |theta| < pi.
  const double sigma = qr.s < 0 ? -1.0 : 1.0;
  // d/dt vec(q_rel) = 1/2 (s I - [vec q_rel]) Q_A^T (w_B - w_A) (q_rel' = 1/2 (0, omega_A) q_rel
  // with omega_A = Q_A^T (w_B - w_A) the relative angular velocity in A's axes).
  const Mat3 G = sigma * ((qr.s * identity3() - cross_matrix(qr.v)) * transpose(A.R));
  const Vec3 zero{{0, 0, 0}};
  const Index first = out.next_row();
  for (int k = 0; k < count; ++k) {
    const int i = axes[k];
    const Index row = out.add_block(BlockKind::kBilateral, 0.0, {2.0 * sigma * qr.v[i]}, {0.0}, label);
    const Vec3 g{{G(i, 0), G(i, 1), G(i, 2)}};
    add_side_terms(out, row, B, B.p, zero, g);
    add_side_terms(out, row, A, A.p, zero, -g);
  }
  return first;
}

}  // namespace sinew::constraints
