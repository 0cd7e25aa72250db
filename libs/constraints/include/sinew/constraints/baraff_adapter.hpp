/// @file
/// @brief Baraff primary + auxiliary: a tree of bilateral (primary) constraints factored in O(n)
/// by linalg's BaraffSolver, with the auxiliary rows (contacts, limits, loop closures) solved by
/// any ConstraintSolver on the k x k system a = A mu + q of Baraff's eq. (12).
///
/// Baraff's auxiliary rows a = J^a v + c^a with workless forces (J^a)^T mu are exactly the local
/// form of this library with W = A = J^a M_hat^-1 (J^a)^T (M_hat: the primary-constrained system)
/// and q from Section 8.2 step 3, u = a and r = mu: 0 <= a _|_ mu >= 0 for a unilateral row,
/// the Coulomb cone for a contact's (n, t1, t2) rows, a = 0 for a loop closure (bilateral).
#pragma once

#include <vector>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::constraints {

/// Solves Baraff systems whose auxiliary rows carry the laws of @p blocks, with @p solver.
class BaraffConstraintAdapter {
 public:
  /// An adapter for auxiliary rows grouped into @p blocks (their sizes sum to k); @p solver must
  /// outlive the adapter. The last impulses are kept as the next warm start.
  BaraffConstraintAdapter(ConstraintSolver& solver, std::vector<ConstraintBlock> blocks);

  /// Starts the next solve from the auxiliary impulses @p mu (k entries; another size is ignored).
  void set_warm_start(const Eigen::VectorXd& mu) { warm_ = mu; }

  /// Velocity (or acceleration) and multipliers of M v = J^T lambda + (J^a)^T mu + force,
  /// J v + bias = 0 and the auxiliary laws on a = J^a v + aux_bias (BaraffSolver::solve with
  /// this adapter's callback). Returns the auxiliary solver's report.
  /// @throws sinew::Error on size mismatches, blocks that do not cover the k auxiliary rows,
  ///         non-workless auxiliary rows (A not symmetric), or what the solvers throw.
  SolverReport solve(const BaraffSolver& baraff, const Eigen::Ref<const Eigen::VectorXd>& force,
                     const Eigen::Ref<const Eigen::VectorXd>& bias, const Eigen::Ref<const Eigen::VectorXd>& aux_bias,
                     BaraffWorkspace& ws, BaraffSolution& out);

 private:
  ConstraintSolver* solver_;
  std::vector<ConstraintBlock> blocks_;
  Eigen::VectorXd warm_;  // (k) last impulses
};

}  // namespace sinew::constraints
