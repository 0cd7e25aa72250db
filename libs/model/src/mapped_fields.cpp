// Masses and force fields on mapped points (mapped_fields.hpp).
#include "sinew/model/mapped_fields.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sinew/core/eigen_interop.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

// The stiffness of the turning levers of forces @p f (3 per point) on the terms @p T (zero
// unless a term is a body marker): point_stiffness() without force Jacobians.
Eigen::MatrixXd lever_stiffness(const MappedTerms& T, const Eigen::VectorXd& f, bool projected) {
  const Eigen::Index n = 3 * static_cast<Eigen::Index>(T.terms.size());
  const Eigen::VectorXd fT = T.term_forces(f);
  Eigen::MatrixXd K;
  point_stiffness(T.terms, fT.data(), Eigen::MatrixXd::Zero(n, n), Eigen::MatrixXd::Zero(n, n), K);
  if (projected) project_to_psd(K);
  return K;
}

void require_system(const MappedPoints& points, const MechanicalSystem& system, const std::string& field) {
  require(&system == &points.system(),
          [&] { return field + ": its points are mapped from another MechanicalSystem than the one it is added to"; });
}

bool has_body_term(const MappedPoint& p) {
  return std::any_of(p.begin(), p.end(), [](const WeightedPoint& t) { return t.point.kind == PointRef::Kind::kBody; });
}

}  // namespace

// ---- MappedMassField ----

MappedMassField::MappedMassField(std::shared_ptr<const MappedPoints> points, std::vector<double> masses)
    : points_(std::move(points)), masses_(std::move(masses)) {
  require(points_ != nullptr, "MappedMassField: no points");
  require(static_cast<Index>(masses_.size()) == points_->size(), [&] {
    return "MappedMassField: " + std::to_string(masses_.size()) + " masses for the " + std::to_string(points_->size()) +
           " " + points_->name();
  });
  for (std::size_t i = 0; i < masses_.size(); ++i)
    require(std::isfinite(masses_[i]) && masses_[i] > 0.0, [&] {
      return "MappedMassField: the mass of " + points_->name() + " point " + std::to_string(i) + " is " +
             number_text(masses_[i]) + "; expected finite and > 0";
    });
}

void MappedMassField::check(const MechanicalSystem& system) const { require_system(*points_, system, name()); }

void MappedMassField::layout(const MechanicalSystem& /*system*/, ElementLayout& out) const {
  for (Index i = 0; i < points_->size(); ++i) out.add(points_->term_dofs({i}));
}

void MappedMassField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  const Eigen::Vector3d g = to_eigen(points_->system().gravity());
  Eigen::VectorXd fg(3 * points_->size());
  for (Index i = 0; i < points_->size(); ++i) fg.segment<3>(3 * i) = masses_[i] * g;
  points_->add_forces(s, fg, f);
}

void MappedMassField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  const Eigen::Vector3d g = to_eigen(points_->system().gravity());
  for (Index i = 0; i < points_->size(); ++i) {
    const MappedTerms T = points_->terms(s, {i});
    values = write_element_block(lever_stiffness(T, masses_[i] * g, projected), values);
  }
}

void MappedMassField::mass_values(const SystemState& s, double* values) const {
  for (Index i = 0; i < points_->size(); ++i) {
    const MappedTerms T = points_->terms(s, {i});
    // J_i = [w_1 J_1, w_2 J_2, ...] over the terms' DOFs.
    Eigen::MatrixXd J(3, static_cast<Eigen::Index>(T.dofs().size()));
    Eigen::Index col = 0;
    for (std::size_t k = 0; k < T.terms.size(); ++k) {
      const int n = T.terms[k].ndof;
      if (n > 0) J.middleCols(col, n) = T.weights[k] * point_jacobian(T.terms[k]);
      col += n;
    }
    values = write_element_block(masses_[i] * J.transpose() * J, values);
  }
}

void MappedMassField::add_fictitious_forces(const SystemState& s, Eigen::VectorXd& f) const {
  Eigen::VectorXd fa = points_->velocity_product(s);
  for (Index i = 0; i < points_->size(); ++i) fa.segment<3>(3 * i) *= -masses_[i];
  points_->add_forces(s, fa, f);
}

double MappedMassField::energy(const SystemState& s) const {
  SystemState p;
  points_->evaluate(s, p);
  const Vec3& g = points_->system().gravity();
  double V = 0.0;
  for (Index i = 0; i < points_->size(); ++i) V -= masses_[i] * dot(g, p.x[i]);
  return V;
}

// ---- MappedForceField ----

MappedForceField::MappedForceField(std::shared_ptr<const MappedPoints> points, std::shared_ptr<const ForceField> field)
    : points_(std::move(points)), field_(std::move(field)) {
  require(points_ != nullptr && field_ != nullptr, "MappedForceField: no points or no field");
  field_->check(points_->proxy());
  field_->layout(points_->proxy(), field_layout_);
  // The proxy holds only particles, added in order: DOF d is coordinate d % 3 of point d / 3.
  for (Index e = 0; e < field_layout_.size(); ++e) {
    Element el;
    for (Index a = field_layout_.offsets[e]; a < field_layout_.offsets[e + 1]; ++a) {
      const Index d = field_layout_.dofs[a], point = d / 3;
      auto it = std::find(el.points.begin(), el.points.end(), point);
      if (it == el.points.end()) it = el.points.insert(el.points.end(), point);
      el.rows.push_back(3 * static_cast<Index>(it - el.points.begin()) + d % 3);
    }
    elements_.push_back(std::move(el));
  }
  for (Index i = 0; i < points_->size(); ++i)
    if (has_body_term(points_->points()[i])) lever_points_.push_back(i);
}

void MappedForceField::check(const MechanicalSystem& system) const { require_system(*points_, system, name()); }

void MappedForceField::layout(const MechanicalSystem& /*system*/, ElementLayout& out) const {
  for (const Element& el : elements_) out.add(points_->term_dofs(el.points));
  for (Index i : lever_points_) out.add(points_->term_dofs({i}));
}

Eigen::VectorXd MappedForceField::point_forces(const SystemState& s, SystemState& proxy_state) const {
  points_->evaluate(s, proxy_state);
  Eigen::VectorXd f = Eigen::VectorXd::Zero(3 * points_->size());
  field_->add_forces(proxy_state, f);
  return f;
}

void MappedForceField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  SystemState p;
  points_->add_forces(s, point_forces(s, p), f);
}

void MappedForceField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  SystemState p;
  const Eigen::VectorXd f = point_forces(s, p);
  std::vector<double> K(field_layout_.value_count(), 0.0), D(field_layout_.value_count(), 0.0);
  field_->stiffness_values(p, projected, K.data());
  field_->damping_values(p, D.data());
  std::size_t at = 0;
  for (const Element& el : elements_) {
    const Eigen::Index n = static_cast<Eigen::Index>(el.rows.size()),
                       np = 3 * static_cast<Eigen::Index>(el.points.size());
    Eigen::MatrixXd dfdx = Eigen::MatrixXd::Zero(np, np), dfdv = Eigen::MatrixXd::Zero(np, np);
    for (Eigen::Index a = 0; a < n; ++a)
      for (Eigen::Index b = 0; b < n; ++b, ++at) {
        dfdx(el.rows[a], el.rows[b]) -= K[at];
        dfdv(el.rows[a], el.rows[b]) -= D[at];
      }
    const MappedTerms T = points_->terms(s, el.points);
    const Eigen::MatrixXd W = T.weight_matrix();
    const Eigen::VectorXd no_force = Eigen::VectorXd::Zero(W.cols());
    Eigen::MatrixXd Ke;
    point_stiffness(T.terms, no_force.data(), W.transpose() * dfdx * W, W.transpose() * dfdv * W, Ke);
    if (projected) project_to_psd(Ke);
    values = write_element_block(Ke, values);
  }
  for (Index i : lever_points_)
    values = write_element_block(lever_stiffness(points_->terms(s, {i}), f.segment<3>(3 * i), projected), values);
}

void MappedForceField::damping_values(const SystemState& s, double* values) const {
  SystemState p;
  points_->evaluate(s, p);
  std::vector<double> D(field_layout_.value_count(), 0.0);
  field_->damping_values(p, D.data());
  std::size_t at = 0;
  for (const Element& el : elements_) {
    const Eigen::Index n = static_cast<Eigen::Index>(el.rows.size()),
                       np = 3 * static_cast<Eigen::Index>(el.points.size());
    Eigen::MatrixXd dfdv = Eigen::MatrixXd::Zero(np, np);
    for (Eigen::Index a = 0; a < n; ++a)
      for (Eigen::Index b = 0; b < n; ++b) dfdv(el.rows[a], el.rows[b]) -= D[at++];
    const MappedTerms T = points_->terms(s, el.points);
    const Eigen::MatrixXd W = T.weight_matrix();
    Eigen::MatrixXd De;
    point_damping(T.terms, W.transpose() * dfdv * W, De);
    values = write_element_block(De, values);
  }
}

double MappedForceField::energy(const SystemState& s) const {
  SystemState p;
  points_->evaluate(s, p);
  return field_->energy(p);
}

}  // namespace sinew::model
