// A constraint on mapped points (mapped_constraint.hpp).
#include "sinew/constraints/mapped_constraint.hpp"

#include <optional>
#include <utility>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/model/point_kinematics.hpp"

namespace sinew::constraints {

MappedConstraint::MappedConstraint(std::shared_ptr<const model::MappedPoints> points,
                                   std::shared_ptr<const Constraint> constraint)
    : points_(std::move(points)), constraint_(std::move(constraint)) {
  require(points_ != nullptr && constraint_ != nullptr, "MappedConstraint: no points or no constraint");
  constraint_->check(points_->proxy());
}

void MappedConstraint::check(const model::MechanicalSystem& system) const {
  require(&system == &points_->system(),
          [&] { return name() + ": its points are mapped from another MechanicalSystem than the one it constrains"; });
}

void MappedConstraint::add_rows(const model::MechanicalSystem& /*system*/, const model::SystemState& s,
                                ConstraintRows& out) const {
  model::SystemState p;
  points_->evaluate(s, p);
  ConstraintRows rows;
  constraint_->add_rows(points_->proxy(), p, rows);
  const Index first = out.next_row();
  out.blocks.insert(out.blocks.end(), rows.blocks.begin(), rows.blocks.end());
  out.labels.insert(out.labels.end(), rows.labels.begin(), rows.labels.end());
  out.phi.insert(out.phi.end(), rows.phi.begin(), rows.phi.end());
  out.target.insert(out.target.end(), rows.target.begin(), rows.target.end());
  out.compliance.insert(out.compliance.end(), rows.compliance.begin(), rows.compliance.end());
  out.damping.insert(out.damping.end(), rows.damping.begin(), rows.damping.end());
  out.velocity_level.insert(out.velocity_level.end(), rows.velocity_level.begin(), rows.velocity_level.end());
  // Contact records renumbered; their moving sides are the proxy's points, combinations of the
  // system's components.
  const Index first_block = static_cast<Index>(out.blocks.size() - rows.blocks.size());
  for (ContactRecord c : rows.contacts) {
    c.block += first_block;
    for (ContactSide* side : {&c.a, &c.b})
      if (side->kind != ContactSide::Kind::kObstacle) *side = ContactSide{ContactSide::Kind::kPoints, -1};
    out.contacts.push_back(c);
  }
  // G = G_x J: an entry on coordinate c of proxy particle i spreads over the terms of point i,
  // each with its weight times row c of the term's Jacobian.
  std::vector<std::optional<model::MappedTerms>> terms(static_cast<std::size_t>(points_->size()));
  for (const Eigen::Triplet<double>& e : rows.jacobian) {
    const Index i = e.col() / 3;
    const int c = static_cast<int>(e.col() % 3);
    std::optional<model::MappedTerms>& T = terms[static_cast<std::size_t>(i)];
    if (!T) T = points_->terms(s, {i});
    for (std::size_t k = 0; k < T->terms.size(); ++k) {
      const model::PointKinematics& t = T->terms[k];
      if (t.ndof == 0) continue;
      const Eigen::MatrixXd Jk = model::point_jacobian(t);
      for (int j = 0; j < t.ndof; ++j)
        out.jacobian.emplace_back(first + e.row(), t.dof + j, T->weights[k] * Jk(c, j) * e.value());
    }
  }
}

}  // namespace sinew::constraints
