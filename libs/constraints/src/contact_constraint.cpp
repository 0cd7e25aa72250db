#include "sinew/constraints/contact_constraint.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <initializer_list>
#include <memory>
#include <string>
#include <utility>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/collision/edge_edge_contacts.hpp"
#include "sinew/collision/point_shape.hpp"
#include "sinew/collision/shape_obstacle_contacts.hpp"
#include "sinew/collision/shape_pairs.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::constraints {
namespace {

// Whether two shapes, in balls of radii ra (margin included) and rb about their frames'
// origins, may be within the margin: the narrow phase of a pair that fails this finds nothing.
bool near(const Pose& a, double ra, const Pose& b, double rb) {
  const double reach = ra + rb;
  return !(v3::sqnorm(v3::sub(a.translation, b.translation)) > reach * reach);
}

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

// One side of a contact: a mapped point's terms, one point of weight 1, or nothing (a static
// obstacle), without a vector of its own, so that a contact between bodies allocates nothing.
class Side {
 public:
  Side() = default;
  Side(const model::MappedPoint& terms) : terms_(terms.data()), count_(terms.size()) {}  // NOLINT: implicit
  explicit Side(const model::PointRef& p) : one_{p, 1.0}, count_(1) {}
  const model::WeightedPoint* begin() const { return terms_ ? terms_ : &one_; }
  const model::WeightedPoint* end() const { return begin() + count_; }

 private:
  const model::WeightedPoint* terms_ = nullptr;  // a mapped point's terms, or null: one_
  model::WeightedPoint one_{};
  std::size_t count_ = 0;
};

// What a side's terms are: one rigid body, one particle of weight 1, or a combination.
ContactSide side_of(const Side& side) {
  const model::WeightedPoint* begin = side.begin();
  if (begin == side.end()) return {ContactSide::Kind::kPoints, -1};
  double weight = 0.0;
  for (const model::WeightedPoint& term : side) {
    if (term.point.kind != begin->point.kind || term.point.index != begin->point.index)
      return {ContactSide::Kind::kPoints, -1};
    weight += term.weight;
  }
  if (begin->point.kind == model::PointRef::Kind::kBody) return {ContactSide::Kind::kBody, begin->point.index};
  if (begin->point.kind == model::PointRef::Kind::kParticle && weight == 1.0)
    return {ContactSide::Kind::kParticle, begin->point.index};
  return {ContactSide::Kind::kPoints, -1};
}

// The world witness points of a contact, and the obstacle that is its side B (-1: B is a
// moving side).
struct Witness {
  Vec3 point_a;
  Vec3 point_b;
  Index obstacle = -1;
};

// sum_k w_k x_k over a triangle's vertices @p tri of the positions @p x.
Vec3 triangle_point(const Vec3* x, const std::array<Index, 3>& tri, const double* w) {
  Vec3 p = v3::scale(w[0], x[tri[0]]);
  p = v3::madd(p, w[1], x[tri[1]]);
  return v3::madd(p, w[2], x[tri[2]]);
}

// Appends the block of one contact: rows c^T (J_A - J_B) for c = n, t1, t2 (Appendix A.1,
// eq. (30)-(31)), phi = (gap, 0, 0); J_X = sum_k w_k J_k over the side's terms (empty: static);
// and its ContactRecord (witness points, frame, sides).
void add_contact(const model::SystemState& s, const ContactOptions& params, double mu, const RowLabel& label,
                 const Side& a, const Side& b, const Witness& where, const Vec3& normal, double gap,
                 ConstraintRows& out) {
  const ContactFrame frame = contact_frame(normal);
  const BlockKind kind = params.box_friction ? BlockKind::kContactBoxFriction : BlockKind::kContact;
  const Index row = out.add_block(kind, mu, {gap, 0.0, 0.0}, {0.0, 0.0, 0.0}, label);
  out.contacts.push_back(
      ContactRecord{static_cast<Index>(out.blocks.size()) - 1, where.point_a, where.point_b, frame, side_of(a),
                    where.obstacle >= 0 ? ContactSide{ContactSide::Kind::kObstacle, where.obstacle} : side_of(b)});
  const Vec3* dirs[3] = {&frame.normal, &frame.tangent1, &frame.tangent2};
  const Side* sides[2] = {&a, &b};
  for (int side = 0; side < 2; ++side) {
    const double sign = side == 0 ? 1.0 : -1.0;
    for (const model::WeightedPoint& term : *sides[side]) {
      if (term.point.kind == model::PointRef::Kind::kWorld) continue;  // static: no DOFs
      const model::PointKinematics k = model::point_kinematics(s, term.point);
      // c^T J of the point's Jacobian J = [I, -[r]] (point_jacobian()) written out: c on the
      // translation, r x c on the rotation (c^T (-[r] w) = (r x c) . w); the same numbers as
      // the matrix product, whose other terms are exact zeros.
      const double scale = term.weight * sign;
      for (int r = 0; r < 3; ++r) {
        const Vec3& c = *dirs[r];
        for (int j = 0; j < 3; ++j)
          if (scale * c[j] != 0.0) out.jacobian.emplace_back(row + r, k.dof + j, scale * c[j]);
        if (k.ndof != 6) continue;
        const Vec3 rc = cross(k.r, c);
        for (int j = 0; j < 3; ++j)
          if (scale * rc[j] != 0.0) out.jacobian.emplace_back(row + r, k.dof + 3 + j, scale * rc[j]);
      }
    }
  }
}

// The point sum_k c_k P_k of mapped points P_k, its terms merged so that each component appears
// once: a particle's weights add, and the markers of one body become one marker at their
// weighted mean (sum_k a_k (x + R p_k) = A (x + R p) with p = sum_k a_k p_k / A) unless their
// weights cancel; world terms carry no DOFs and are left out.
model::MappedPoint combine(std::initializer_list<std::pair<const model::MappedPoint*, double>> parts) {
  model::MappedPoint out;
  for (const auto& [point, c] : parts)
    for (const model::WeightedPoint& term : *point) {
      if (term.point.kind == model::PointRef::Kind::kWorld || c * term.weight == 0.0) continue;
      const double w = c * term.weight;
      auto same = std::find_if(out.begin(), out.end(), [&](const model::WeightedPoint& o) {
        return o.point.kind == term.point.kind && o.point.index == term.point.index;
      });
      if (same == out.end()) {
        out.push_back({term.point, w});
      } else if (term.point.kind == model::PointRef::Kind::kParticle) {
        same->weight += w;
      } else if (same->weight + w != 0.0) {  // a body: the weighted mean of the markers
        const double total = same->weight + w;
        for (int i = 0; i < 3; ++i)
          same->point.local[i] = (same->weight * same->point.local[i] + w * term.point.local[i]) / total;
        same->weight = total;
      } else {
        out.push_back({term.point, w});
      }
    }
  return out;
}

}  // namespace

// The surfaces as one mesh whose bodies are the surfaces (vertex v of surface k is
// first_vertex[k] + its index), what the detectors take, and their buffers.
struct ContactConstraint::SurfaceWork {
  TetSurfaces mesh;
  std::vector<Index> first_vertex{0};             // (surfaces + 1)
  std::vector<Index> queries;                     // vertices of some triangle
  std::vector<Vec3> x;                            // positions of every vertex
  std::vector<const model::MappedPoint*> points;  // (vertices) the mapped point of each vertex
  std::vector<char> self_contact;                 // (surfaces) touches itself
  bool any_self_contact = false;
  model::SystemState proxy;
  VertexTriangleDetector vertex_triangle;
  EdgeEdgeDetector edge_edge;
  std::vector<VertexTriangleContact> found;
  std::vector<EdgeEdgeContact> found_edges;
  std::vector<ShapeSurfaceContact> found_shape;
};

struct ContactConstraint::ObstacleWork {
  SheetSides sides;
  ShapeObstacleWorkspace buffers;
  std::vector<ShapePairContact> found;
};

ContactConstraint::~ContactConstraint() = default;

void ContactOptions::validate() const {
  require(std::isfinite(mu) && mu >= 0,
          [&] { return "ContactOptions: mu must be finite and >= 0, got " + number_text(mu); });
  require(std::isfinite(margin) && margin >= 0,
          [&] { return "ContactOptions: margin must be finite and >= 0, got " + number_text(margin); });
  require(sharp_edge_angle >= 0 && sharp_edge_angle <= 3.14159265358979323846,
          [&] { return "ContactOptions: sharp_edge_angle must be in [0, pi], got " + number_text(sharp_edge_angle); });
}

ContactConstraint::ContactConstraint(const ContactOptions& params, std::string name)
    : params_(params),
      name_(std::move(name)),
      row_label_(name_),
      surface_work_(std::make_unique<SurfaceWork>()),
      obstacle_work_(std::make_unique<ObstacleWork>()) {
  params_.validate();
}

Index ContactConstraint::add_obstacle(const Shape& shape, const Pose& pose, Index material) {
  Obstacle o;  // static, friction per material pair (friction())
  o.shape = shape;
  o.pose = pose;
  return add_obstacle(o, material);
}

Index ContactConstraint::add_obstacle(const Obstacle& obstacle, Index material) {
  const std::string what = name_ + ": obstacle " + std::to_string(obstacles_.size());
  const bool by_mesh = obstacle.mesh || obstacle.grid;
  // A mesh or grid obstacle's shape is not used: its pose is checked with a valid placeholder.
  check_shape(
      ShapeInstance{0, by_mesh ? Shape{ShapeType::kSphere, {1.0, 0.0, 0.0}} : obstacle.shape, obstacle.pose, Motion{}},
      what);
  require(!obstacle.mesh || obstacle.mesh->built(), [&] { return what + ": its mesh must be built"; });
  require(!obstacle.grid || obstacle.grid->built(), [&] { return what + ": its grid must be built"; });
  require(v3::sqnorm(obstacle.motion.linear) == 0.0 && v3::sqnorm(obstacle.motion.angular) == 0.0,
          [&] { return what + ": obstacles of a ContactConstraint are static, but its motion is not zero"; });
  require(material >= 0, [&] { return name_ + ": obstacle material must be >= 0, got " + std::to_string(material); });
  double radius = bounding_radius(obstacle.shape);
  if (obstacle.mesh) {  // the farthest corner of the mesh's bounds from the pose's origin
    const Aabb& b = obstacle.mesh->bounds();
    radius = 0.0;
    for (int k = 0; k < 3; ++k) radius += std::max(b.lo[k] * b.lo[k], b.hi[k] * b.hi[k]);
    radius = std::sqrt(radius);
  } else if (obstacle.grid) {
    radius = HUGE_VAL;  // no bounds without the mesh: always near
  }
  obstacles_.push_back(obstacle);
  obstacles_.back().motion = Motion{};
  obstacles_.back().friction = 0.0;
  obstacle_materials_.push_back(material);
  obstacle_radius_.push_back(radius);
  return static_cast<Index>(obstacles_.size()) - 1;
}

Index ContactConstraint::add_body_collider(Index body, const Shape& shape, Index material) {
  check_shape(ShapeInstance{0, shape, identity_pose(), Motion{}}, name_ + ": collider of body " + std::to_string(body));
  require(material >= 0, [&] { return name_ + ": collider material must be >= 0, got " + std::to_string(material); });
  colliders_.push_back(BodyCollider{body, shape, material});
  return static_cast<Index>(colliders_.size()) - 1;
}

void ContactConstraint::add_particles(Index first, Index count, Index material) {
  require(first >= 0 && count >= 0 && material >= 0, [&] {
    return name_ +
           ": add_particles needs first >= 0, count >= 0 and material >= 0, got first = " + std::to_string(first) +
           ", count = " + std::to_string(count) + ", material = " + std::to_string(material);
  });
  particle_sets_.push_back(PointSet{first, count, nullptr, material});
}

void ContactConstraint::add_points(std::shared_ptr<const model::MappedPoints> points, Index material,
                                   bool touch_surfaces) {
  require(points != nullptr && material >= 0, [&] { return name_ + ": add_points needs points and a material >= 0"; });
  if (touch_surfaces) register_surface(points, {}, material, false, true);
  mapped_sets_.push_back(PointSet{0, points->size(), std::move(points), material});
}

Index ContactConstraint::add_surface(std::shared_ptr<const model::MappedPoints> vertices,
                                     std::vector<std::array<Index, 3>> triangles, Index material, bool self_contact) {
  return register_surface(std::move(vertices), std::move(triangles), material, self_contact, false);
}

Index ContactConstraint::register_surface(std::shared_ptr<const model::MappedPoints> vertices,
                                          std::vector<std::array<Index, 3>> triangles, Index material,
                                          bool self_contact, bool every_vertex) {
  const std::string what = name_ + ": surface " + std::to_string(surfaces_.size());
  require(vertices != nullptr && material >= 0,
          [&] { return what + ": add_surface needs vertices and a material >= 0"; });
  const Index n = vertices->size();
  for (std::size_t t = 0; t < triangles.size(); ++t)
    for (Index v : triangles[t])
      require(v >= 0 && v < n, [&] {
        return what + ": triangle " + std::to_string(t) + " has vertex " + std::to_string(v) +
               ", expected 0 <= vertex < " + std::to_string(n) + " (its " + vertices->name() + ")";
      });
  SurfaceWork& w = *surface_work_;
  const Index offset = w.first_vertex.back();
  const int body = static_cast<int>(surfaces_.size());
  std::vector<char> on_triangle(static_cast<std::size_t>(n), 0);
  for (const auto& tri : triangles) {
    w.mesh.triangles.push_back({tri[0] + offset, tri[1] + offset, tri[2] + offset});
    w.mesh.triangle_body.push_back(body);
    for (Index v : tri) on_triangle[static_cast<std::size_t>(v)] = 1;
  }
  for (Index v = 0; v < n; ++v) {
    w.mesh.vertex_body.push_back(body);
    w.points.push_back(&vertices->points()[static_cast<std::size_t>(v)]);
    if (every_vertex || on_triangle[static_cast<std::size_t>(v)] != 0) w.queries.push_back(offset + v);
  }
  w.mesh.bodies = body + 1;
  w.self_contact.push_back(self_contact ? 1 : 0);
  w.any_self_contact = w.any_self_contact || self_contact;
  w.first_vertex.push_back(offset + n);
  w.x.resize(static_cast<std::size_t>(offset + n));
  surfaces_.push_back(Surface{std::move(vertices), SurfaceEdges(std::move(triangles)), material});
  return body;
}

void ContactConstraint::set_friction(Index a, Index b, double mu) {
  require(a >= 0 && b >= 0, [&] {
    return name_ + ": friction materials must be >= 0, got " + std::to_string(a) + " and " + std::to_string(b);
  });
  require(std::isfinite(mu) && mu >= 0, [&] {
    return name_ + ": the friction between materials " + std::to_string(a) + " and " + std::to_string(b) +
           " must be finite and >= 0, got " + number_text(mu);
  });
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

void ContactConstraint::exclude_bodies(Index a, Index b) {
  require(a >= 0 && b >= 0 && a != b, [&] {
    return name_ + ": exclude_bodies needs two different body indices >= 0, got " + std::to_string(a) + " and " +
           std::to_string(b);
  });
  const std::pair<Index, Index> pair{std::min(a, b), std::max(a, b)};
  const auto at = std::lower_bound(excluded_.begin(), excluded_.end(), pair);
  if (at == excluded_.end() || *at != pair) excluded_.insert(at, pair);
}

bool ContactConstraint::bodies_collide(Index a, Index b) const {
  return a != b && !std::binary_search(excluded_.begin(), excluded_.end(), std::pair{std::min(a, b), std::max(a, b)});
}

void ContactConstraint::check(const model::MechanicalSystem& system) const {
  // Checked every step: the message is built only for an index out of range.
  for (const BodyCollider& c : colliders_)
    if (c.body < 0 || c.body >= system.num_bodies()) system.check_body(c.body, name_ + " collider");
  for (const auto& [a, b] : excluded_)
    if (b >= system.num_bodies())
      system.check_body(b, name_ + " excluded pair (" + std::to_string(a) + ", " + std::to_string(b) + ")");
  for (const PointSet& set : particle_sets_)
    if (set.count > 0 && (set.first < 0 || set.first + set.count > system.num_particles())) {
      system.check_particle(set.first, name_ + " particles");
      system.check_particle(set.first + set.count - 1, name_ + " particles");
    }
  for (const PointSet& set : mapped_sets_)
    require(&set.mapped->system() == &system,
            [&] { return name_ + ": its " + set.mapped->name() + " are mapped from another MechanicalSystem"; });
  for (const Surface& surface : surfaces_)
    require(&surface.points->system() == &system, [&] {
      return name_ + ": the vertices of a surface (" + surface.points->name() +
             ") are mapped from another MechanicalSystem";
    });
  // Every pair the narrow phase will be asked for must have a pair function (checked here, once).
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    for (const Obstacle& o : obstacles_)
      require(o.mesh || o.grid ? has_shape_obstacle_contacts(colliders_[i].shape.type)
                               : shape_pair_function(colliders_[i].shape.type, o.shape.type) != nullptr,
              [&] {
                return name_ + ": no contact function between collider " + std::to_string(i) + " and an obstacle" +
                       (o.mesh || o.grid ? " (a half-space collider and a mesh or grid obstacle)" : "");
              });
    for (std::size_t k = i + 1; k < colliders_.size(); ++k)
      require(!bodies_collide(colliders_[i].body, colliders_[k].body) ||
                  shape_pair_function(colliders_[i].shape.type, colliders_[k].shape.type) != nullptr,
              [&] {
                return name_ + ": no contact function between colliders " + std::to_string(i) + " and " +
                       std::to_string(k);
              });
  }
}

void ContactConstraint::add_point_contacts(const model::SystemState& s, const model::MappedPoint& a, const Vec3& x,
                                           Index material, SheetSides::Key key, ConstraintRows& out) const {
  SheetSides& sides = obstacle_work_->sides;
  for (std::size_t o = 0; o < obstacles_.size(); ++o) {
    const Obstacle& ob = obstacles_[o];
    key[0] = static_cast<Index>(o);
    SignedDistance sd = obstacle_distance(x, ob);
    if (is_sheet(ob)) sd = sides.orient(key, sd);
    if (!(sd.distance <= params_.margin)) continue;
    if (is_sheet(ob)) sides.record(key, sd.normal);
    add_contact(s, params_, friction(material, obstacle_materials_[o]), row_label_, a, {},
                Witness{x, sd.closest, static_cast<Index>(o)}, sd.normal, sd.distance, out);
  }
  for (const BodyCollider& c : colliders_) {
    const SignedDistance sd = point_shape(x, c.shape, body_pose(s, c.body));
    if (!(sd.distance <= params_.margin)) continue;
    const Side b(material_point(s, model::body_point(c.body, Vec3{{0, 0, 0}}), sd.closest));
    add_contact(s, params_, friction(material, c.material), row_label_, a, b, Witness{x, sd.closest}, sd.normal,
                sd.distance, out);
  }
}

void ContactConstraint::add_collider_obstacle_contacts(const model::SystemState& s, ConstraintRows& out) const {
  ObstacleWork& w = *obstacle_work_;
  ShapePairContact pair[kMaxPairContacts];
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const BodyCollider& c = colliders_[i];
    const Pose pa = body_pose(s, c.body);
    const model::PointRef a = model::body_point(c.body, Vec3{{0, 0, 0}});
    const double ra = bounding_radius(c.shape) + params_.margin;
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      const Obstacle& ob = obstacles_[o];
      if (!near(pa, ra, ob.pose, obstacle_radius_[o])) continue;
      const ShapePairContact* found = pair;
      int n = 0;
      if (ob.mesh || ob.grid) {
        ShapeObstacleOptions options;
        options.margin = params_.margin;
        options.sharp_edge_angle = params_.sharp_edge_angle;
        options.sides = &w.sides;
        options.sheet_key = {static_cast<Index>(o), 2, static_cast<Index>(i), 0};
        w.found.clear();
        shape_obstacle_contacts(c.shape, pa, ob, options, w.buffers, w.found);
        found = w.found.data();
        n = static_cast<int>(w.found.size());
      } else {
        n = shape_pair_function(c.shape.type, ob.shape.type)(c.shape, pa, ob.shape, ob.pose, params_.margin, pair);
      }
      for (int k = 0; k < n; ++k)
        add_contact(s, params_, friction(c.material, obstacle_materials_[o]), row_label_,
                    Side(material_point(s, a, found[k].point_a)), Side(),
                    Witness{found[k].point_a, found[k].point_b, static_cast<Index>(o)}, found[k].normal, found[k].gap,
                    out);
    }
  }
}

void ContactConstraint::add_rows(const model::MechanicalSystem& /*system*/, const model::SystemState& s,
                                 ConstraintRows& out) const {
  obstacle_work_->sides.begin_pass();
  add_collider_obstacle_contacts(s, out);
  ShapePairContact pair[kMaxPairContacts];
  for (std::size_t i = 0; i < colliders_.size(); ++i) {
    const BodyCollider& ci = colliders_[i];
    const Pose pa = body_pose(s, ci.body);
    const model::PointRef a = model::body_point(ci.body, Vec3{{0, 0, 0}});
    const double ra = bounding_radius(ci.shape) + params_.margin;
    for (std::size_t j = i + 1; j < colliders_.size(); ++j) {
      const BodyCollider& cj = colliders_[j];
      if (!bodies_collide(ci.body, cj.body)) continue;
      const Pose pb = body_pose(s, cj.body);
      if (!near(pa, ra, pb, bounding_radius(cj.shape))) continue;
      const model::PointRef b = model::body_point(cj.body, Vec3{{0, 0, 0}});
      const int n = shape_pair_function(ci.shape.type, cj.shape.type)(ci.shape, pa, cj.shape, pb, params_.margin, pair);
      for (int k = 0; k < n; ++k)
        add_contact(s, params_, friction(ci.material, cj.material), row_label_,
                    Side(material_point(s, a, pair[k].point_a)), Side(material_point(s, b, pair[k].point_b)),
                    Witness{pair[k].point_a, pair[k].point_b}, pair[k].normal, pair[k].gap, out);
    }
  }
  for (const PointSet& set : particle_sets_)
    for (Index p = set.first; p < set.first + set.count; ++p)
      add_point_contacts(s, single(model::particle_point(p)), s.x[static_cast<std::size_t>(p)], set.material,
                         {0, 0, p, 0}, out);
  model::SystemState mapped;
  for (std::size_t k = 0; k < mapped_sets_.size(); ++k) {
    const PointSet& set = mapped_sets_[k];
    set.mapped->evaluate(s, mapped);
    for (Index i = 0; i < set.count; ++i)
      add_point_contacts(s, set.mapped->points()[static_cast<std::size_t>(i)], mapped.x[static_cast<std::size_t>(i)],
                         set.material, {0, 1, static_cast<Index>(k), i}, out);
  }
  // The surfaces' positions only when some surface can touch a shape or a surface.
  const bool with_shapes =
      std::any_of(obstacles_.begin(), obstacles_.end(),
                  [](const Obstacle& o) { return !o.mesh && !o.grid && has_shape_surface_contacts(o.shape.type); }) ||
      std::any_of(colliders_.begin(), colliders_.end(),
                  [](const BodyCollider& c) { return has_shape_surface_contacts(c.shape.type); });
  const bool between = surfaces_.size() > 1 || surface_work_->any_self_contact;
  if (surfaces_.empty() || !(with_shapes || between)) return;
  evaluate_surfaces(s);
  if (with_shapes) add_shape_surface_contacts(s, out);
  if (between) add_surface_contacts(s, out);
}

void ContactConstraint::evaluate_surfaces(const model::SystemState& s) const {
  SurfaceWork& w = *surface_work_;
  for (std::size_t k = 0; k < surfaces_.size(); ++k) {
    surfaces_[k].points->evaluate(s, w.proxy);
    std::copy(w.proxy.x.begin(), w.proxy.x.end(), w.x.begin() + w.first_vertex[k]);
  }
}

void ContactConstraint::add_shape_surface_contacts(const model::SystemState& s, ConstraintRows& out) const {
  SurfaceWork& w = *surface_work_;
  for (std::size_t k = 0; k < surfaces_.size(); ++k) {
    const Surface& surface = surfaces_[k];
    const Vec3* x = w.x.data() + w.first_vertex[k];
    // A the surface's witness sum_j b_j x_j, B the shape's point (a marker on a collider's body,
    // nothing on a static obstacle), the normal from the shape toward the surface.
    // @p obstacle: the obstacle that is the shape, or -1 for a collider.
    auto add = [&](const model::MappedPoint& b, Index material, Index obstacle) {
      for (const ShapeSurfaceContact& c : w.found_shape) {
        const std::array<Index, 3>& tri = surface.edges.triangles()[static_cast<std::size_t>(c.triangle)];
        const auto& p = surface.points->points();
        const model::MappedPoint a = combine({{&p[static_cast<std::size_t>(tri[0])], c.bary[0]},
                                              {&p[static_cast<std::size_t>(tri[1])], c.bary[1]},
                                              {&p[static_cast<std::size_t>(tri[2])], c.bary[2]}});
        add_contact(s, params_, friction(surface.material, material), row_label_, a,
                    b.empty() ? Side() : Side(material_point(s, b.front().point, c.shape_point)),
                    Witness{triangle_point(x, tri, c.bary), c.shape_point, obstacle}, c.normal, c.gap, out);
      }
    };
    for (std::size_t o = 0; o < obstacles_.size(); ++o) {
      if (obstacles_[o].mesh || obstacles_[o].grid) continue;  // their vertices touch, as contact points
      w.found_shape.clear();
      shape_surface_contacts(obstacles_[o].shape, obstacles_[o].pose, x, surface.edges, params_.margin, w.found_shape);
      add({}, obstacle_materials_[o], static_cast<Index>(o));
    }
    for (const BodyCollider& c : colliders_) {
      w.found_shape.clear();
      shape_surface_contacts(c.shape, body_pose(s, c.body), x, surface.edges, params_.margin, w.found_shape);
      add(single(model::body_point(c.body, Vec3{{0, 0, 0}})), c.material, -1);
    }
  }
}

void ContactConstraint::add_surface_contacts(const model::SystemState& s, ConstraintRows& out) const {
  SurfaceWork& w = *surface_work_;
  auto material = [&](Index vertex) {
    return surfaces_[static_cast<std::size_t>(w.mesh.vertex_body[static_cast<std::size_t>(vertex)])].material;
  };
  auto point = [&](Index vertex) { return w.points[static_cast<std::size_t>(vertex)]; };
  // A vertex against the nearest triangle of each other surface (and of its own, with
  // self-contact): A the vertex, B the triangle's
  // closest point sum_k b_k x_k, the normal from the triangle toward the vertex.
  w.vertex_triangle.detect(w.mesh, w.queries, w.x, nullptr, params_.margin, w.found,
                           w.any_self_contact ? &w.self_contact : nullptr);
  for (const VertexTriangleContact& c : w.found) {
    const std::array<Index, 3>& tri = w.mesh.triangles[static_cast<std::size_t>(c.triangle)];
    const model::MappedPoint b =
        combine({{point(tri[0]), c.bary[0]}, {point(tri[1]), c.bary[1]}, {point(tri[2]), c.bary[2]}});
    add_contact(s, params_, friction(material(c.vertex), material(tri[0])), row_label_,
                combine({{point(c.vertex), 1.0}}), b, Witness{w.x[static_cast<std::size_t>(c.vertex)], c.closest},
                c.normal, c.distance, out);
  }
  // Sharp edges crossing: A edge a's closest point, B edge b's, the normal out of b's surface.
  w.edge_edge.detect(w.mesh, w.x, nullptr, params_.margin, params_.sharp_edge_angle, w.found_edges,
                     w.any_self_contact ? &w.self_contact : nullptr);
  const std::vector<std::array<Index, 2>>& edges = w.edge_edge.edges();
  for (const EdgeEdgeContact& c : w.found_edges) {
    const std::array<Index, 2>& a = edges[static_cast<std::size_t>(c.edge_a)];
    const std::array<Index, 2>& b = edges[static_cast<std::size_t>(c.edge_b)];
    const auto x = [&](Index v) { return w.x[static_cast<std::size_t>(v)]; };
    add_contact(s, params_, friction(material(a[0]), material(b[0])), row_label_,
                combine({{point(a[0]), 1.0 - c.s}, {point(a[1]), c.s}}),
                combine({{point(b[0]), 1.0 - c.t}, {point(b[1]), c.t}}),
                Witness{v3::madd(v3::scale(1.0 - c.s, x(a[0])), c.s, x(a[1])),
                        v3::madd(v3::scale(1.0 - c.t, x(b[0])), c.t, x(b[1]))},
                c.normal, c.distance, out);
  }
}

}  // namespace sinew::constraints
