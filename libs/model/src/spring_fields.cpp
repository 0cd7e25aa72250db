#include "sinew/model/spring_fields.hpp"

#include <cmath>

#include "sinew/core/error.hpp"
#include "sinew/materials/multi_point_spring.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::model {
namespace {

// Adapts a law for the materials templates (which call law(l, ldot)).
struct LawRef {
  const std::function<AxialTension(double, double)>& f;
  AxialTension operator()(double l, double ldot) const { return f(l, ldot); }
};

Eigen::MatrixXd two_point(const Mat3& B) {
  Eigen::MatrixXd M(6, 6);
  for (int r = 0; r < 3; ++r)
    for (int c = 0; c < 3; ++c) {
      M(r, c) = M(r + 3, c + 3) = B(r, c);
      M(r, c + 3) = M(r + 3, c) = -B(r, c);
    }
  return M;
}

}  // namespace

void AxialSpringField::add(const PointRef& a, const PointRef& b, const LinearAxialSpring& spring) {
  validate(spring);
  springs_.push_back(Spring{a, b, true, spring, {}});
}

void AxialSpringField::add(const PointRef& a, const PointRef& b, AxialLaw law) {
  require(static_cast<bool>(law),
          [&] { return "AxialSpringField::add: spring " + std::to_string(springs_.size()) + " has no law"; });
  springs_.push_back(Spring{a, b, false, {}, std::move(law)});
}

AxialTension AxialSpringField::tension(const Spring& sp, double l, double ldot) const {
  return sp.linear ? sp.params(l, ldot) : sp.law(l, ldot);
}

void AxialSpringField::check(const MechanicalSystem& system) const {
  for (std::size_t k = 0; k < springs_.size(); ++k) {
    const std::string what = "axial spring " + std::to_string(k);
    system.check_point(springs_[k].a, what + ", end a");
    system.check_point(springs_[k].b, what + ", end b");
  }
}

void AxialSpringField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  std::vector<Index> dofs;
  for (const Spring& sp : springs_) {
    dofs.clear();
    system.append_point_dofs(sp.a, dofs);
    system.append_point_dofs(sp.b, dofs);
    out.add(dofs);
  }
}

namespace {
void gather(const PointKinematics& a, const PointKinematics& b, double x[6], double v[6]) {
  for (int c = 0; c < 3; ++c) {
    x[c] = a.x[c];
    x[3 + c] = b.x[c];
    v[c] = a.v[c];
    v[3 + c] = b.v[c];
  }
}
}  // namespace

void AxialSpringField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  for (const Spring& sp : springs_) {
    const std::vector<PointKinematics> pk{point_kinematics(s, sp.a), point_kinematics(s, sp.b)};
    double x[6], v[6], fl[6];
    gather(pk[0], pk[1], x, v);
    if (sp.linear)
      axial_spring_forces(sp.params, x, v, fl);
    else
      axial_spring_forces(LawRef{sp.law}, x, v, fl);
    add_point_forces(pk, fl, f);
  }
}

void AxialSpringField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  Eigen::MatrixXd K;
  for (const Spring& sp : springs_) {
    const std::vector<PointKinematics> pk{point_kinematics(s, sp.a), point_kinematics(s, sp.b)};
    double x[6], v[6], fl[6];
    gather(pk[0], pk[1], x, v);
    const AxialSpringJacobian J =
        sp.linear ? axial_spring_jacobian(sp.params, x, v) : axial_spring_jacobian(LawRef{sp.law}, x, v);
    if (sp.linear)
      axial_spring_forces(sp.params, x, v, fl);
    else
      axial_spring_forces(LawRef{sp.law}, x, v, fl);
    point_stiffness(pk, fl, two_point(J.dfdx), two_point(J.dfdv), K);
    if (projected) project_to_psd(K);
    values = write_element_block(K, values);
  }
}

void AxialSpringField::damping_values(const SystemState& s, double* values) const {
  Eigen::MatrixXd D;
  for (const Spring& sp : springs_) {
    const std::vector<PointKinematics> pk{point_kinematics(s, sp.a), point_kinematics(s, sp.b)};
    double x[6], v[6];
    gather(pk[0], pk[1], x, v);
    const AxialSpringJacobian J =
        sp.linear ? axial_spring_jacobian(sp.params, x, v) : axial_spring_jacobian(LawRef{sp.law}, x, v);
    point_damping(pk, two_point(J.dfdv), D);
    values = write_element_block(D, values);
  }
}

bool AxialSpringField::is_conservative() const {
  for (const Spring& sp : springs_)
    if (!sp.linear) return false;
  return true;
}

double AxialSpringField::energy(const SystemState& s) const {
  require(is_conservative(), "AxialSpringField::energy: a spring has a general law F(l, ldot), which has no energy");
  double V = 0.0;
  for (const Spring& sp : springs_) {
    double x[6], v[6];
    gather(point_kinematics(s, sp.a), point_kinematics(s, sp.b), x, v);
    V += linear_axial_spring_energy(sp.params, x);
  }
  return V;
}

// ---- multi-point springs ----

Index MultiPointSpringField::add(const std::vector<PointRef>& points, const LinearAxialSpring& spring) {
  require(points.size() >= 2, [&] {
    return "MultiPointSpringField::add: spring " + std::to_string(springs_.size()) + " needs at least 2 points, got " +
           std::to_string(points.size());
  });
  validate(spring);
  springs_.push_back(Spring{points, true, spring, {}, nullptr});
  return static_cast<Index>(springs_.size()) - 1;
}

Index MultiPointSpringField::add(const std::vector<PointRef>& points, AxialLaw law) {
  require(points.size() >= 2, [&] {
    return "MultiPointSpringField::add: spring " + std::to_string(springs_.size()) + " needs at least 2 points, got " +
           std::to_string(points.size());
  });
  require(static_cast<bool>(law),
          [&] { return "MultiPointSpringField::add: spring " + std::to_string(springs_.size()) + " has no law"; });
  springs_.push_back(Spring{points, false, {}, std::move(law), nullptr});
  return static_cast<Index>(springs_.size()) - 1;
}

void MultiPointSpringField::set_active_segments(Index k, const std::vector<bool>& active) {
  require(k >= 0 && static_cast<std::size_t>(k) < springs_.size(), [&] {
    return "MultiPointSpringField::set_active_segments: no spring " + std::to_string(k) + " (there are " +
           std::to_string(springs_.size()) + ")";
  });
  Spring& sp = springs_[static_cast<std::size_t>(k)];
  const std::size_t segments = sp.points.size() - 1;
  require(active.size() == segments, [&] {
    return "MultiPointSpringField::set_active_segments: spring " + std::to_string(k) + " has " +
           std::to_string(segments) + " segments, got " + std::to_string(active.size()) + " flags";
  });
  sp.active = std::make_unique<bool[]>(segments);
  for (std::size_t i = 0; i < segments; ++i) sp.active[i] = active[i];
}

void MultiPointSpringField::check(const MechanicalSystem& system) const {
  for (std::size_t k = 0; k < springs_.size(); ++k)
    for (std::size_t i = 0; i < springs_[k].points.size(); ++i)
      system.check_point(springs_[k].points[i],
                         "multi-point spring " + std::to_string(k) + ", point " + std::to_string(i));
}

void MultiPointSpringField::layout(const MechanicalSystem& system, ElementLayout& out) const {
  std::vector<Index> dofs;
  for (const Spring& sp : springs_) {
    dofs.clear();
    for (const PointRef& p : sp.points) system.append_point_dofs(p, dofs);
    out.add(dofs);
  }
}

void MultiPointSpringField::evaluate(const SystemState& s, const Spring& sp, std::vector<PointKinematics>& pk,
                                     std::vector<double>& f, Eigen::MatrixXd* dfdx, Eigen::MatrixXd* dfdv) const {
  const int n = static_cast<int>(sp.points.size()) - 1;  // segments
  const int m = 3 * (n + 1);
  pk.clear();
  std::vector<double> x(m), v(m);
  for (int i = 0; i <= n; ++i) {
    pk.push_back(point_kinematics(s, sp.points[i]));
    for (int c = 0; c < 3; ++c) {
      x[3 * i + c] = pk.back().x[c];
      v[3 * i + c] = pk.back().v[c];
    }
  }
  f.assign(m, 0.0);
  const LinearAxialSpring lin = sp.params;
  if (sp.linear)
    multi_point_spring_forces(lin, n, x.data(), v.data(), sp.active.get(), f.data());
  else
    multi_point_spring_forces(LawRef{sp.law}, n, x.data(), v.data(), sp.active.get(), f.data());
  if (!dfdx) return;
  std::vector<double> jx(m * m), jv(m * m);
  if (sp.linear)
    multi_point_spring_jacobian(lin, n, x.data(), v.data(), sp.active.get(), jx.data(), jv.data());
  else
    multi_point_spring_jacobian(LawRef{sp.law}, n, x.data(), v.data(), sp.active.get(), jx.data(), jv.data());
  *dfdx = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(jx.data(), m, m);
  *dfdv = Eigen::Map<Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>>(jv.data(), m, m);
}

void MultiPointSpringField::add_forces(const SystemState& s, Eigen::VectorXd& f) const {
  std::vector<PointKinematics> pk;
  std::vector<double> fl;
  for (const Spring& sp : springs_) {
    evaluate(s, sp, pk, fl, nullptr, nullptr);
    add_point_forces(pk, fl.data(), f);
  }
}

void MultiPointSpringField::stiffness_values(const SystemState& s, bool projected, double* values) const {
  std::vector<PointKinematics> pk;
  std::vector<double> fl;
  Eigen::MatrixXd dfdx, dfdv, K;
  for (const Spring& sp : springs_) {
    evaluate(s, sp, pk, fl, &dfdx, &dfdv);
    point_stiffness(pk, fl.data(), dfdx, dfdv, K);
    if (projected) project_to_psd(K);
    values = write_element_block(K, values);
  }
}

void MultiPointSpringField::damping_values(const SystemState& s, double* values) const {
  std::vector<PointKinematics> pk;
  std::vector<double> fl;
  Eigen::MatrixXd dfdx, dfdv, D;
  for (const Spring& sp : springs_) {
    evaluate(s, sp, pk, fl, &dfdx, &dfdv);
    point_damping(pk, dfdv, D);
    values = write_element_block(D, values);
  }
}

bool MultiPointSpringField::is_conservative() const {
  for (const Spring& sp : springs_) {
    if (!sp.linear) return false;
    for (std::size_t i = 0; sp.active && i + 1 < sp.points.size(); ++i)
      if (!sp.active[i]) return false;  // passive segments carry force without energy
  }
  return true;
}

double MultiPointSpringField::energy(const SystemState& s) const {
  require(is_conservative(),
          "MultiPointSpringField::energy: a spring has a general law or passive segments, which have no energy");
  double V = 0.0;
  for (const Spring& sp : springs_) {
    double L = 0.0;
    for (std::size_t i = 0; i + 1 < sp.points.size(); ++i) {
      const Vec3 a = point_kinematics(s, sp.points[i]).x, b = point_kinematics(s, sp.points[i + 1]).x;
      L += std::sqrt((b[0] - a[0]) * (b[0] - a[0]) + (b[1] - a[1]) * (b[1] - a[1]) + (b[2] - a[2]) * (b[2] - a[2]));
    }
    V += 0.5 * sp.params.stiffness * (L - sp.params.rest_length) * (L - sp.params.rest_length);
  }
  return V;
}

}  // namespace sinew::model
