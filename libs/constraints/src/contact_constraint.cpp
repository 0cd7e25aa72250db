#include "sinew/constraints/contact_constraint.hpp"

#include <algorithm>
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

// One side of a contact as a mapped point: a collider's body marker at the witness point, a
// particle, a mapped point's terms, or nothing (a static obstacle).
model::MappedPoint single(const model::PointRef& p) { return {{p, 1.0}}; }

// Appends the block of one contact: rows c^T (J_A - J_B) for c = n, t1, t2 (Appendix A.1,
// eq. (30)-(31)), phi = (gap, 0, 0); J_X = sum_k w_k J_k over the side's terms (empty: static).
void add_contact(const model::SystemState& s, const ContactOptions& params, double mu, const std::string& label,
                 const model::MappedPoint& a, const model::MappedPoint& b, const Vec3& normal, double gap,
                 ConstraintRows& out) {
  const ContactFrame frame = contact_frame(normal);
  const BlockKind kind = params.box_friction ? BlockKind::kContactBoxFriction : BlockKind::kContact;
  const Index row = out.add_block(kind, mu, {gap, 0.0, 0.0}, {0.0, 0.0, 0.0}, label);
  const Vec3* dirs[3] = {&frame.normal, &frame.tangent1, &frame.tangent2};
  const model::MappedPoint* sides[2] = {&a, &b};
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? 1.0 : -1.0;
    for (const model::WeightedPoint& term : *sides[side]) {
      if (term.point.kind == model::PointRef::Kind::kWorld) continue;  // static: no DOFs
      const model::PointKinematics k = model::point_kinematics(s, term.point);
      const Eigen::MatrixXd J = model::point_jacobian(k);  // (3 x ndof)
      for (int r = 0; r < 3; ++r) {
        const Eigen::Vector3d c((*dirs[r])[0], (*dirs[r])[1], (*dirs[r])[2]);
        const Eigen::RowVectorXd row_values = (term.weight * sign) * (c.transpose() * J);
        for (int j = 0; j < k.ndof; ++j)
          if (row_values[j] != 0.0) out.jacobian.emplace_back(row + r, k.dof + j, row_values[j]);
      }
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

Index ContactConstraint::add_obstacle(const Shape& shape, const Pose& pose, Index material) {
  check_shape(ShapeInstance{0, shape, pose, Motion{}}, name_ + ": obstacle " + std::to_string(obstacles_.size()));
  require(material >= 0, name_ + ": obstacle material must be >= 0, got " + std::to_string(material));
  obstacles_.push_back(Obstacle{shape, pose, {}, 0.0});
  obstacle_materials_.push_back(material);
  return static_cast<Index>(obstacles_.size()) - 1;
}

Index ContactConstraint::add_body_collider(Index body, const Shape& shape, Index material) {
  check_shape(ShapeInstance{0, shape, identity_pose(), Motion{}}, name_ + ": collider of body " + std::to_string(body));
  require(material >= 0, name_ + ": collider material must be >= 0, got " + std::to_string(material));
  colliders_.push_back(BodyCollider{body, shape, material});
  return static_cast<Index>(colliders_.size()) - 1;
}

void ContactConstraint::add_particles(Index first, Index count, Index material) {
  require(first >= 0 && count >= 0 && material >= 0,
          name_ +
              ": add_particles needs first >= 0, count >= 0 and material >= 0, got first = " + std::to_string(first) +
              ", count = " + std::to_string(count) + ", material = " + std::to_string(material));
  particle_sets_.push_back(PointSet{first, count, nullptr, material});
}

void ContactConstraint::add_points(std::shared_ptr<const model::MappedPoints> points, Index material) {
  require(points != nullptr && material >= 0, name_ + ": add_points needs points and a material >= 0");
  mapped_sets_.push_back(PointSet{0, points->size(), std::move(points), material});
}

void ContactConstraint::set_friction(Index a, Index b, double mu) {
  require(a >= 0 && b >= 0,
          name_ + ": friction materials must be >= 0, got " + std::to_string(a) + " and " + std::to_string(b));
  require(std::isfinite(mu) && mu >= 0, name_ + ": the friction between materials " + std::to_string(a) + " and " +
                                            std::to_string(b) + " must be finite and >= 0, got " + number_text(mu));
  const std::pair<Index, Index> key = std::minmax(a, b);
  for (auto& entry : friction_)
    if (entry.first == key) {
      entry.second = mu;
      return;
    }
  friction_.emplace_back(key, mu);
}

double ContactConstraint::friction(Index a, Index b) const {
  const std::pair<Index, Index> key = std::minmax(a, b);
  for (const auto& entry : friction_)
    if (entry.first == key) return entry.second;
  return params_.mu;
}

void ContactConstraint::set_mu(double mu) {
  ContactOptions p = params_;
  p.mu = mu;
  p.validate();
  params_ = p;
}

void ContactConstraint::check(const model::MechanicalSystem& system) const {
  for (const BodyCollider& c : colliders_) system.check_body(c.body, name_ + " collider");
  for (const PointSet& set : particle_sets_)
    if (set.count > 0) {
      system.check_particle(set.first, name_ + " particles");
      system.check_particle(set.first + set.count - 1, name_ + " particles");
    }
  for (const PointSet& set : mapped_sets_)
    require(&set.mapped->system() == &system,
            name_ + ": its " + set.mapped->name() + " are mapped from another MechanicalSystem");
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

void ContactConstraint::add_point_contacts(const model::SystemState& s, const model::MappedPoint& a, const Vec3& x,
                                           Index material, ConstraintRows& out) const {
  for (std::size_t o = 0; o < obstacles_.size(); ++o) {
    const Obstacle& ob = obstacles_[o];
    const SignedDistance sd = point_shape(x, ob.shape, ob.pose);
    if (!(sd.distance <= params_.margin)) continue;
    add_contact(s, params_, friction(material, obstacle_materials_[o]), name_, a, {}, sd.normal, sd.distance, out);
  }
  for (const BodyCollider& c : colliders_) {
    const SignedDistance sd = point_shape(x, c.shape, body_pose(s, c.body));
    if (!(sd.distance <= params_.margin)) continue;
    const model::MappedPoint b = single(material_point(s, model::body_point(c.body, Vec3{{0, 0, 0}}), sd.closest));
    add_contact(s, params_, friction(material, c.material), name_, a, b, sd.normal, sd.distance, out);
  }
}

void ContactConstraint::add_rows(const model::MechanicalSystem& /*system*/, const model::SystemState& s,
                                 ConstraintRows& out) const {
  ShapePairContact pair[kMaxPairContacts];
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const BodyCollider& c = colliders_[i];
    const Pose pa = body_pose(s, c.body);
    const model::PointRef a = model::body_point(c.body, Vec3{{0, 0, 0}});
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      const Obstacle& ob = obstacles_[o];
      const int n =
          shape_pair_function(c.shape.type, ob.shape.type)(c.shape, pa, ob.shape, ob.pose, params_.margin, pair);
      for (int k = 0; k < n; ++k)
        add_contact(s, params_, friction(c.material, obstacle_materials_[o]), name_,
                    single(material_point(s, a, pair[k].point_a)), {}, pair[k].normal, pair[k].gap, out);
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
        add_contact(s, params_, friction(ci.material, cj.material), name_,
                    single(material_point(s, a, pair[k].point_a)), single(material_point(s, b, pair[k].point_b)),
                    pair[k].normal, pair[k].gap, out);
    }
  }
  for (const PointSet& set : particle_sets_)
    for (Index p = set.first; p < set.first + set.count; ++p)
      add_point_contacts(s, single(model::particle_point(p)), s.x[static_cast<std::size_t>(p)], set.material, out);
  model::SystemState mapped;
  for (const PointSet& set : mapped_sets_) {
    set.mapped->evaluate(s, mapped);
    for (Index i = 0; i < set.count; ++i)
      add_point_contacts(s, set.mapped->points()[static_cast<std::size_t>(i)], mapped.x[static_cast<std::size_t>(i)],
                         set.material, out);
  }
}

}  // namespace sinew::constraints
