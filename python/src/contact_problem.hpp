// The local contact problem the binding files share: sinew.ContactProblem's C++ side, made from
// arrays (contact_bindings.cpp) or from a global problem's reduction (global_contact_bindings.cpp).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/fclib_file.hpp"

namespace sinew::python {

/// A frictional contact problem u = W r + q: every block one contact (n, t1, t2) with its mu,
/// and FCLIB's title / description / math info when it came from (or goes to) a file.
struct ContactProblem {
  constraints::DelassusProblem problem;  ///< W (m x m), q (m), blocks (m / 3 contacts)
  constraints::FclibInfo info;           ///< FCLIB's description
};

/// One contact block per entry of @p mu (circular cones, or boxes with @p box_friction); the
/// values are checked where the problem is validated.
std::vector<constraints::ConstraintBlock> contact_blocks(const Eigen::VectorXd& mu, bool box_friction);

/// The problem of @p W, @p q and one contact per entry of @p mu, checked.
/// @throws sinew::Error naming the first bad size or value.
ContactProblem make_problem(CsrMatrix W, Eigen::VectorXd q, const Eigen::VectorXd& mu, bool box_friction);

/// The friction coefficient of every block of @p p.
Eigen::VectorXd mu_of(const std::vector<constraints::ConstraintBlock>& blocks);

}  // namespace sinew::python
