#include "sinew/model/rayleigh_damping_field.hpp"

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

Eigen::Matrix3d skew3(const Eigen::Vector3d& a) {
  Eigen::Matrix3d S;
  S << 0, -a[2], a[1], a[2], 0, -a[0], -a[1], a[0], 0;
  return S;
}

}  // namespace

RayleighDampingField::RayleighDampingField(const MechanicalSystem& system, const RayleighDamping& coefficients,
                                           std::vector<std::shared_ptr<const ForceField>> fields)
    : system_(system), c_(coefficients), fields_(std::move(fields)) {
  validate(c_);
  for (std::size_t k = 0; k < fields_.size(); ++k)
    require(fields_[k] != nullptr, [&] { return "RayleighDampingField: field " + std::to_string(k) + " is null"; });
}

void RayleighDampingField::check(const MechanicalSystem& system) const {
  require(&system == &system_, "RayleighDampingField: added to a different system than the one it was made for");
  for (const auto& f : fields_) f->check(system);
}

void RayleighDampingField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  ElementLayout L;
  field_values_.clear();
  for (const auto& f : fields_) {
    ElementLayout Lf;
    f->layout(system, Lf);
    field_values_.push_back(Lf.value_count());
    for (Index e = 0; e < Lf.size(); ++e)
      L.add(std::vector<Index>(Lf.dofs.begin() + Lf.offsets[e], Lf.dofs.begin() + Lf.offsets[e + 1]));
  }
  std::vector<Index> dofs;
  for (Index i = 0; i < system.num_particles(); ++i) {
    dofs.clear();
    system.append_point_dofs(particle_point(i), dofs);
    L.add(dofs);
  }
  for (Index b = 0; b < system.num_bodies(); ++b) {
    dofs.clear();
    system.append_point_dofs(body_point(b, Vec3{{0, 0, 0}}), dofs);
    L.add(dofs);
  }
  layout_ = L;
  for (Index e = 0; e < L.size(); ++e)
    out.add(std::vector<Index>(L.dofs.begin() + L.offsets[e], L.dofs.begin() + L.offsets[e + 1]));
}

void RayleighDampingField::ensure_layout() const {
  if (field_values_.size() == fields_.size() && layout_.size() > 0) return;
  ElementLayout unused;
  layout(system_, unused);
}

void RayleighDampingField::damping_values(const SystemState& s, double* values) const {
  ensure_layout();
  double* out = values;
  for (std::size_t k = 0; k < fields_.size(); ++k) {
    const auto& f = fields_[k];
    const std::size_t n = field_values_[k];
    std::fill(out, out + n, 0.0);
    f->stiffness_values(s, true, out);
    for (std::size_t k = 0; k < n; ++k) out[k] *= c_.stiffness_coefficient;
    out += n;
  }
  for (Index i = 0; i < system_.num_particles(); ++i) {
    Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> block_map(out);
    block_map = c_.mass_coefficient * system_.particle_mass_block(i);
    out += 9;
  }
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    Eigen::Map<Eigen::Matrix<double, 6, 6, Eigen::RowMajor>> block_map(out);
    block_map = c_.mass_coefficient * system_.body_mass_block(s, b);
    out += 36;
  }
}

void RayleighDampingField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  ensure_layout();
  std::vector<double> values(layout_.value_count(), 0.0);
  damping_values(s, values.data());
  Eigen::VectorXd u = Eigen::VectorXd::Zero(f.size());
  for (Index i = 0; i < system_.num_particles(); ++i)
    for (int c = 0; c < 3; ++c) u[s.particle_dof[i] + c] = s.v[i][c];
  for (Index b = 0; b < system_.num_bodies(); ++b)
    for (int c = 0; c < 3; ++c) {
      u[s.body_dof[b] + c] = s.bodies[b].v[c];
      u[s.body_dof[b] + 3 + c] = s.bodies[b].w[c];
    }
  const double* B = values.data();
  for (Index e = 0; e < layout_.size(); ++e) {
    const Index n = layout_.offsets[e + 1] - layout_.offsets[e];
    const Index* d = layout_.dofs.data() + layout_.offsets[e];
    for (Index r = 0; r < n; ++r) {
      double sum = 0.0;
      for (Index c = 0; c < n; ++c) sum += B[r * n + c] * u[d[c]];
      f[d[r]] -= sum;
    }
    B += n * n;
  }
}

void RayleighDampingField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  ensure_layout();
  double* out = values;
  for (std::size_t n : field_values_) {
    out += n;  // zero: the q-dependence of K_psd is neglected (see the class comment)
  }
  out += 9 * static_cast<std::size_t>(system_.num_particles());  // constant particle mass
  for (Index b = 0; b < system_.num_bodies(); ++b) {
    // f = -alpha M(q) u with M = T M_body T^T, T = diag(R, R): turning the body by dtheta gives
    // d(M u)/dtheta = -[(p; L)] + M ([v]; [w]) with (p; L) = M u, so K = alpha d(M u)/dtheta.
    const BodyState& B = s.bodies[b];
    const Eigen::Matrix<double, 6, 6> M = system_.body_mass_block(s, b);
    Eigen::Matrix<double, 6, 1> u;
    u << B.v[0], B.v[1], B.v[2], B.w[0], B.w[1], B.w[2];
    const Eigen::Matrix<double, 6, 1> h = M * u;
    Eigen::Matrix<double, 6, 3> dMu;
    dMu.topRows<3>() = -skew3(h.head<3>());
    dMu.bottomRows<3>() = -skew3(h.tail<3>());
    Eigen::Matrix<double, 6, 3> S;
    S.topRows<3>() = skew3(u.head<3>());
    S.bottomRows<3>() = skew3(u.tail<3>());
    dMu += M * S;
    Eigen::MatrixXd K = Eigen::MatrixXd::Zero(6, 6);
    K.rightCols<3>() = c_.mass_coefficient * dMu;
    if (projected) project_to_psd(K);
    Eigen::Map<Eigen::Matrix<double, 6, 6, Eigen::RowMajor>> block_map(out);
    block_map = K;
    out += 36;
  }
}

}  // namespace sinew::model
