#include "sinew/constraints/contact_constraint.hpp"

#include <cmath>
#include <string>
#include <utility>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/shape_pairs.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::constraints {
namespace {

// Pose of a rigid collider: its shape's local frame is the body frame.
Pose body_pose(const model::SystemState& s, Index body) {
  const model::BodyState& b = s.bodies[static_cast<std::size_t>(body)];
  return Pose{b.R, b.x};
}

// The point of component @p ref's material at world position @p x: a body marker (body
// coordinates R^T (x - origin)), a particle, or nothing (static obstacle: kind kWorld).
model::PointRef material_point(const model::SystemState& s, const model::PointRef& ref, const Vec3& x) {
  if (ref.kind != model::PointRef::Kind::kBody) return ref;
  const model::BodyState& b = s.bodies[static_cast<std::size_t>(ref.index)];
  const Vec3 d = v3::sub(x, b.x);
  return model::body_point(ref.index, v3::mul_t(b.R, d));
}

// Appends the block of one contact: rows c^T (J_A - J_B) for c = n, t1, t2 (Appendix A.1,
// eq. (30)-(31)), phi = (gap, 0, 0). @p a and @p b are the participants (kWorld: static).
void add_contact(const model::SystemState& s, const ContactOptions& params, const std::string& label,
                 const model::PointRef& a, const model::PointRef& b, const Vec3& point_a, const Vec3& point_b,
                 const Vec3& normal, double gap, ConstraintRows& out) {
  const ContactFrame frame = contact_frame(normal);
  const BlockKind kind = params.box_friction ? BlockKind::kContactBoxFriction : BlockKind::kContact;
  const Index row = out.add_block(kind, params.mu, {gap, 0.0, 0.0}, {0.0, 0.0, 0.0}, label);
  const Vec3* dirs[3] = {&frame.normal, &frame.tangent1, &frame.tangent2};
  const std::pair<const model::PointRef*, const Vec3*> sides[2] = {{&a, &point_a}, {&b, &point_b}};
  for (int side = 0; side < 2; ++side) {
    if (sides[side].first->kind == model::PointRef::Kind::kWorld) continue;  // static: no DOFs
    const double sign = side == 0 ? 1.0 : -1.0;
    const model::PointKinematics k =
        model::point_kinematics(s, material_point(s, *sides[side].first, *sides[side].second));
    const Eigen::MatrixXd J = model::point_jacobian(k);  // (3 x ndof)
    for (int r = 0; r < 3; ++r) {
      const Eigen::Vector3d c((*dirs[r])[0], (*dirs[r])[1], (*dirs[r])[2]);
      const Eigen::RowVectorXd row_values = sign * (c.transpose() * J);
      for (int j = 0; j < k.ndof; ++j)
        if (row_values[j] != 0.0) out.jacobian.emplace_back(row + r, k.dof + j, row_values[j]);
    }
  }
}

}  // namespace

void ContactOptions::validate() const {
  require(std::isfinite(mu) && mu >= 0, "ContactOptions: mu must be finite and >= 0, got " + number_text(mu));
  require(std::isfinite(margin) && margin >= 0,
          "ContactOptions: margin must be finite and >= 0, got " + number_text(margin));
}

ContactConstraint::ContactConstraint(const ContactOptions& params, std::string name)
    : params_(params), name_(std::move(name)) {
  params_.validate();
}

Index ContactConstraint::add_obstacle(const Shape& shape, const Pose& pose) {
  check_shape(ShapeInstance{0, shape, pose, Motion{}}, name_ + ": obstacle " + std::to_string(obstacles_.size()));
  obstacles_.push_back(Obstacle{shape, pose, {}, 0.0});
  return static_cast<Index>(obstacles_.size()) - 1;
}

Index ContactConstraint::add_body_collider(Index body, const Shape& shape) {
  check_shape(ShapeInstance{0, shape, identity_pose(), Motion{}}, name_ + ": collider of body " + std::to_string(body));
  colliders_.push_back(BodyCollider{body, shape});
  return static_cast<Index>(colliders_.size()) - 1;
}

void ContactConstraint::add_particles(Index first, Index count) {
  require(first >= 0 && count >= 0, name_ + ": add_particles needs first >= 0 and count >= 0, got first = " +
                                        std::to_string(first) + ", count = " + std::to_string(count));
  particle_ranges_.emplace_back(first, count);
}

void ContactConstraint::set_mu(double mu) {
  ContactOptions p = params_;
  p.mu = mu;
  p.validate();
  params_ = p;
}

void ContactConstraint::check(const model::MechanicalSystem& system) const {
  for (const BodyCollider& c : colliders_) system.check_body(c.body, name_ + " collider");
  for (const auto& range : particle_ranges_)
    if (range.second > 0) {
      system.check_particle(range.first, name_ + " particles");
      system.check_particle(range.first + range.second - 1, name_ + " particles");
    }
  // Every pair the narrow phase will be asked for must have a pair function (checked here, once).
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    for (const Obstacle& o : obstacles_)
      require(shape_pair_function(colliders_[i].shape.type, o.shape.type) != nullptr,
              name_ + ": no contact function between collider " + std::to_string(i) + " and an obstacle");
    for (std::size_t k = i + 1; k < colliders_.size(); ++k)
      require(shape_pair_function(colliders_[i].shape.type, colliders_[k].shape.type) != nullptr,
              name_ + ": no contact function between colliders " + std::to_string(i) + " and " + std::to_string(k));
  }
}

void ContactConstraint::add_rows(const model::MechanicalSystem& /*system*/, const model::SystemState& s,
                                 ConstraintRows& out) const {
  ShapePairContact pair[kMaxPairContacts];
  const model::PointRef world = model::world_point(Vec3{{0, 0, 0}});
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const BodyCollider& c = colliders_[i];
    const Pose pa = body_pose(s, c.body);
    const model::PointRef a = model::body_point(c.body, Vec3{{0, 0, 0}});
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      const Obstacle& ob = obstacles_[o];
      const int n =
          shape_pair_function(c.shape.type, ob.shape.type)(c.shape, pa, ob.shape, ob.pose, params_.margin, pair);
      for (int k = 0; k < n; ++k)
        add_contact(s, params_, name_, a, world, pair[k].point_a, pair[k].point_b, pair[k].normal, pair[k].gap, out);
    }
  }
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const BodyCollider& ci = colliders_[i];
    const Pose pa = body_pose(s, ci.body);
    const model::PointRef a = model::body_point(ci.body, Vec3{{0, 0, 0}});
    for (std::size_t j = i + 1; j < colliders_.size(); ++j) {
      const BodyCollider& cj = colliders_[j];
      const model::PointRef b = model::body_point(cj.body, Vec3{{0, 0, 0}});
      const int n = shape_pair_function(ci.shape.type, cj.shape.type)(ci.shape, pa, cj.shape, body_pose(s, cj.body),
                                                                      params_.margin, pair);
      for (int k = 0; k < n; ++k)
        add_contact(s, params_, name_, a, b, pair[k].point_a, pair[k].point_b, pair[k].normal, pair[k].gap, out);
    }
  }
  for (const auto& range : particle_ranges_) {
    for (Index p = range.first; p < range.first + range.second; ++p) {
      const Vec3& x = s.x[static_cast<std::size_t>(p)];
      for (const Obstacle& ob : obstacles_) {
        const SignedDistance sd = point_shape(x, ob.shape, ob.pose);
        if (!(sd.distance <= params_.margin)) continue;
        add_contact(s, params_, name_, model::particle_point(p), world, x, sd.closest, sd.normal, sd.distance, out);
      }
    }
  }
}

}  // namespace sinew::constraints
