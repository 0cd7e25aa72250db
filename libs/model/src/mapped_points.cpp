// Mapped states of points (mapped_points.hpp).
#include "sinew/model/mapped_points.hpp"

#include <cmath>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/small_matrix_ops.hpp"
#include "sinew/linalg/assembly.hpp"

namespace sinew::model {

std::vector<Index> MappedTerms::dofs() const {
  std::vector<Index> out;
  for (const PointKinematics& k : terms)
    for (int c = 0; c < k.ndof; ++c) out.push_back(k.dof + c);
  return out;
}

Eigen::MatrixXd MappedTerms::weight_matrix() const {
  const Eigen::Index n = static_cast<Eigen::Index>(first_term.size()) - 1;
  Eigen::MatrixXd W = Eigen::MatrixXd::Zero(3 * n, 3 * static_cast<Eigen::Index>(terms.size()));
  for (Eigen::Index i = 0; i < n; ++i)
    for (Index k = first_term[i]; k < first_term[i + 1]; ++k)
      W.block<3, 3>(3 * i, 3 * k).diagonal().setConstant(weights[k]);
  return W;
}

Eigen::VectorXd MappedTerms::term_forces(const Eigen::VectorXd& f) const {
  Eigen::VectorXd out(3 * static_cast<Eigen::Index>(terms.size()));
  for (std::size_t i = 0; i + 1 < first_term.size(); ++i)
    for (Index k = first_term[i]; k < first_term[i + 1]; ++k)
      out.segment<3>(3 * k) = weights[k] * f.segment<3>(3 * static_cast<Eigen::Index>(i));
  return out;
}

MappedPoints::MappedPoints(const MechanicalSystem& system, std::vector<MappedPoint> points, std::string name)
    : system_(system), points_(std::move(points)), name_(std::move(name)) {
  SystemState s;
  system.evaluate_state(0.0, system.initial_positions(), system.initial_velocities(), s);
  for (std::size_t i = 0; i < points_.size(); ++i) {
    const std::string what = name_ + " point " + std::to_string(i);
    require(!points_[i].empty(),
            [&] { return what + ": has no term (expected a weighted sum of at least one point)"; });
    Vec3 x{{0, 0, 0}};
    for (std::size_t k = 0; k < points_[i].size(); ++k) {
      const WeightedPoint& t = points_[i][k];
      require(std::isfinite(t.weight),
              [&] { return what + ", term " + std::to_string(k) + ": the weight is not finite"; });
      system.check_point(t.point, what + ", term " + std::to_string(k));
      x = x + t.weight * point_kinematics(s, t.point).x;
    }
    proxy_.add_particle(1.0, x, what);
  }
}

std::vector<Index> MappedPoints::term_dofs(const std::vector<Index>& which) const {
  std::vector<Index> out;
  for (Index i : which)
    for (const WeightedPoint& t : points_[i]) {
      if (t.point.kind == PointRef::Kind::kParticle)
        for (int c = 0; c < 3; ++c) out.push_back(system_.particle_velocity_offset(t.point.index) + c);
      else if (t.point.kind == PointRef::Kind::kBody)
        for (int c = 0; c < 6; ++c) out.push_back(system_.body_velocity_offset(t.point.index) + c);
    }
  return out;
}

void MappedPoints::evaluate(const SystemState& s, SystemState& p) const {
  const std::size_t n = points_.size();
  p.t = s.t;
  p.x.assign(n, Vec3{{0, 0, 0}});
  p.v.assign(n, Vec3{{0, 0, 0}});
  p.bodies.clear();
  p.body_dof.clear();
  p.particle_dof.resize(n);
  for (std::size_t i = 0; i < n; ++i) {
    p.particle_dof[i] = 3 * static_cast<Index>(i);
    for (const WeightedPoint& t : points_[i]) {
      const PointKinematics k = point_kinematics(s, t.point);
      p.x[i] = p.x[i] + t.weight * k.x;
      p.v[i] = p.v[i] + t.weight * k.v;
    }
  }
}

MappedTerms MappedPoints::terms(const SystemState& s, const std::vector<Index>& which) const {
  MappedTerms out;
  out.first_term.push_back(0);
  for (Index i : which) {
    for (const WeightedPoint& t : points_[i]) {
      out.terms.push_back(point_kinematics(s, t.point));
      out.weights.push_back(t.weight);
    }
    out.first_term.push_back(static_cast<Index>(out.terms.size()));
  }
  return out;
}

void MappedPoints::jacobian(const SystemState& s, CsrMatrix& J) const {
  std::vector<Position> positions;
  std::vector<double> values;
  for (Index i = 0; i < size(); ++i)
    for (const WeightedPoint& t : points_[i]) {
      const PointKinematics k = point_kinematics(s, t.point);
      const Eigen::MatrixXd Jk = t.weight * point_jacobian(k);
      for (int r = 0; r < 3; ++r)
        for (int c = 0; c < k.ndof; ++c) {
          positions.push_back({3 * i + r, k.dof + c});
          values.push_back(Jk(r, c));
        }
    }
  const AssemblyPlan plan(3 * size(), system_.num_velocities(), positions);
  J.rows = 3 * size();
  J.cols = system_.num_velocities();
  J.row_ptr = plan.row_ptr();
  J.col_idx = plan.col_idx();
  plan.assemble(values.data(), J.values);
}

Eigen::VectorXd MappedPoints::velocity_product(const SystemState& s) const {
  Eigen::VectorXd a = Eigen::VectorXd::Zero(3 * size());
  for (Index i = 0; i < size(); ++i)
    for (const WeightedPoint& t : points_[i]) {
      const PointKinematics k = point_kinematics(s, t.point);
      if (k.ndof != 6) continue;
      const Vec3 ak = cross(k.w, cross(k.w, k.r));
      for (int c = 0; c < 3; ++c) a[3 * i + c] += t.weight * ak[c];
    }
  return a;
}

void MappedPoints::add_forces(const SystemState& s, const Eigen::VectorXd& f, Eigen::VectorXd& F) const {
  for (Index i = 0; i < size(); ++i)
    for (const WeightedPoint& t : points_[i]) {
      const Eigen::Vector3d fk = t.weight * f.segment<3>(3 * i);
      add_point_forces({point_kinematics(s, t.point)}, fk.data(), F);
    }
}

MappedPoint compose(const MappedPoint& outer, const MappedPoints& inner) {
  MappedPoint out;
  for (const WeightedPoint& t : outer) {
    switch (t.point.kind) {
      case PointRef::Kind::kWorld:
        out.push_back(t);
        break;
      case PointRef::Kind::kParticle:
        require(t.point.index >= 0 && t.point.index < inner.size(), [&] {
          return "compose: particle " + std::to_string(t.point.index) + " is not a point of " + inner.name() + " (" +
                 std::to_string(inner.size()) + " points)";
        });
        for (const WeightedPoint& u : inner.points()[t.point.index]) out.push_back({u.point, t.weight * u.weight});
        break;
      case PointRef::Kind::kBody:
        throw Error("compose: a body term; the points of " + inner.name() + " are particles of its proxy()");
    }
  }
  return out;
}

}  // namespace sinew::model
