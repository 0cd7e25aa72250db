// Stage 2 of ContactStep by Baraff's O(n) factor (baraff-linear-time-lagrange-multipliers.md,
// Sections 7-8): the components of A (the connected blocks of its sparsity: a rigid body, an FEM
// body, a free particle) are Baraff's bodies; the hard bilateral rows between two components (or
// one and the world) that keep the component graph a forest are primary constraints, one per pair;
// every other row (contacts, limits, compliant rows... loop closures) is auxiliary, solved by the
// step's local solver on Baraff's k x k system (constraints::BaraffConstraintAdapter).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <vector>

#include "sinew/constraints/baraff_adapter.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/linalg/baraff_problem.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::integrators::detail {

// The Baraff form of one step problem.
class BaraffStep {
 public:
  // Builds the split of @p problem and factors it. Returns "" on success, else why Baraff cannot
  // be used (no primary row, an auxiliary row with compliance, a factorization that failed).
  std::string build(const constraints::GlobalProblem& problem);
  // Solves with @p solver for the auxiliary rows, warm-started from @p r (row order, when of the
  // problem's size); writes the impulses of every row to @p r and the end velocity to @p v.
  constraints::SolverReport solve(constraints::ConstraintSolver& solver, Eigen::VectorXd& r, Eigen::VectorXd& v);
  // Primary rows (in Baraff's multiplier order) and auxiliary rows (in auxiliary order).
  Index primary_rows() const { return static_cast<Index>(primary_rows_.size()); }
  Index auxiliary_rows() const { return static_cast<Index>(aux_rows_.size()); }

 private:
  const constraints::GlobalProblem* problem_ = nullptr;
  std::vector<Index> dof_order_;     // (n) system DOF of each Baraff DOF (components in order)
  std::vector<Index> primary_rows_;  // problem row of each multiplier
  std::vector<Index> aux_rows_;      // problem row of each auxiliary row
  std::vector<constraints::ConstraintBlock> aux_blocks_;
  std::unique_ptr<BaraffProblem> baraff_problem_;
  std::unique_ptr<BaraffSolver> solver_;
};

}  // namespace sinew::integrators::detail
