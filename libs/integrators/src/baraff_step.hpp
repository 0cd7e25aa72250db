// Stage 2 of ContactStep by Baraff's O(n) factor (baraff-linear-time-lagrange-multipliers.md,
// Sections 7-8): the components of A (the connected blocks of its sparsity: a rigid body, an FEM
// body, a free particle) are Baraff's bodies; the hard bilateral rows between two components (or
// one and the world) that keep the component graph a forest are primary constraints, one per pair;
// every other row (contacts, limits, compliant rows... loop closures) is auxiliary, solved by the
// step's local solver on Baraff's k x k system (constraints::BaraffConstraintAdapter).
//
// The split depends only on the structure of the step problem (the patterns of A and H, which of
// H's entries are non-zero, the block kinds, which rows are compliant). While that stays the same
// from step to step (a mechanism without contacts, a resting contact set), the split, the
// destinations of A's and H's entries and Baraff's elimination order are kept, and a step only
// copies the numbers and refactors (BaraffSolver::factor).
#pragma once

#include <Eigen/Core>
#include <memory>
#include <string>
#include <utility>
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
  // Builds the split of @p problem (or keeps the last one when the structure is unchanged) and
  // factors it. Returns "" on success, else why Baraff cannot be used (no primary row, an
  // auxiliary row with compliance, a factorization that failed); the text is kept here until the
  // next build(), so that a step that cannot use Baraff builds no string.
  const std::string& build(const constraints::GlobalProblem& problem);
  // Solves with @p solver for the auxiliary rows, warm-started from @p r (row order, when of the
  // problem's size); writes the impulses of every row to @p r and the end velocity to @p v.
  constraints::SolverReport solve(constraints::ConstraintSolver& solver, Eigen::VectorXd& r, Eigen::VectorXd& v);
  // Primary rows (in Baraff's multiplier order) and auxiliary rows (in auxiliary order).
  Index primary_rows() const { return static_cast<Index>(primary_rows_.size()); }
  Index auxiliary_rows() const { return static_cast<Index>(aux_rows_.size()); }
  // Whether the last build() kept the split of the one before (same structure).
  bool kept() const { return kept_; }

 private:
  // Whether @p problem has the structure the kept split was made for.
  bool same_structure(const constraints::GlobalProblem& problem) const;
  // Computes the split and the entries' destinations; returns why Baraff cannot be used, or "".
  std::string analyze(const constraints::GlobalProblem& problem);
  // The addresses of A's and H's entries (a_dest_, h_dest_) and the blocks refill() zeroes: in
  // baraff_problem_'s storage when there is one, else in the structure analyze() made.
  void resolve_destinations();
  // Copies A's and H's numbers to their destinations.
  void refill(const constraints::GlobalProblem& problem);

  // Where an entry of A or H goes: a body's mass block, a primary constraint's Jacobian block
  // (part: side 0 or 1) or an auxiliary row's block (part: its block); kNone for an explicit zero
  // of H on a third component.
  struct Target {
    enum Kind { kNone, kBody, kPrimary, kAuxiliary } kind = kNone;
    Index owner = 0;  // body, primary constraint or auxiliary row
    Index part = 0;
    Index row = 0;  // within the block
    Index col = 0;
  };

  const constraints::GlobalProblem* problem_ = nullptr;
  // The structure the split was made for (same_structure()).
  std::vector<Index> a_ptr_, a_idx_, h_ptr_, h_idx_;
  // Which (row, component) pairs of H hold a non-zero: what the split reads of H's values. A
  // single entry's round-off crossing zero (1e-20 -> 0 on a swinging link) changes no pair.
  std::vector<Index> entry_pair_;               // (nnz(H)) the pair of each entry of H
  std::vector<char> pair_nonzero_, compliant_;  // per pair: a non-zero entry; per row: compliant
  mutable std::vector<char> pair_scratch_;      // same_structure()'s pair flags of a new problem
  std::vector<constraints::BlockKind> kinds_;
  bool analyzed_ = false;
  std::string unusable_;  // why the kept structure cannot use Baraff ("" when it can)
  bool kept_ = false;     // the last build() kept the split
  std::string why_;       // what the last build() returned

  std::vector<Index> dof_order_;            // (n) system DOF of each Baraff DOF (components in order)
  std::vector<Index> primary_rows_;         // problem row of each multiplier
  std::vector<Index> aux_rows_;             // problem row of each auxiliary row
  std::vector<std::size_t> aux_block_ids_;  // problem block of each auxiliary block
  std::vector<constraints::ConstraintBlock> aux_blocks_;
  // Baraff's input with the structure of the split, until baraff_problem_ takes it over.
  std::vector<BaraffBody> bodies_;
  std::vector<BaraffConstraint> primary_;
  std::vector<BaraffAuxiliaryConstraint> aux_;
  std::vector<Index> aux_block_count_;                 // (auxiliary rows) blocks of each
  std::vector<Target> a_targets_;                      // (nnz A)
  std::vector<Target> h_targets_;                      // (nnz H)
  std::vector<double*> a_dest_;                        // (nnz A) entry each entry of A adds to
  std::vector<double*> h_dest_;                        // (nnz H) entry each entry of H adds to (null: none)
  std::vector<std::pair<double*, Index>> zero_spans_;  // the blocks refill() zeroes first
  std::unique_ptr<BaraffProblem> baraff_problem_;
  std::unique_ptr<BaraffSolver> solver_;
  // Per-solve buffers, kept between steps.
  Eigen::VectorXd force_, bias_, aux_bias_, warm_;
  BaraffWorkspace ws_;
  BaraffSolution out_;
};

}  // namespace sinew::integrators::detail
