// Stage 2 of ContactStep by Baraff's O(n) factor (baraff_step.hpp).
#include "baraff_step.hpp"

#include <algorithm>
#include <map>
#include <numeric>
#include <utility>

#include "sinew/core/error.hpp"

namespace sinew::integrators::detail {
namespace {

// Disjoint sets over [0, n).
struct DisjointSets {
  std::vector<Index> parent;
  explicit DisjointSets(Index n) : parent(static_cast<std::size_t>(n)) {
    std::iota(parent.begin(), parent.end(), Index{0});
  }
  Index find(Index i) {
    while (parent[static_cast<std::size_t>(i)] != i)
      i = parent[static_cast<std::size_t>(i)] = parent[static_cast<std::size_t>(parent[static_cast<std::size_t>(i)])];
    return i;
  }
  bool unite(Index a, Index b) {
    a = find(a);
    b = find(b);
    if (a == b) return false;
    parent[static_cast<std::size_t>(std::max(a, b))] = std::min(a, b);
    return true;
  }
};

}  // namespace

bool BaraffStep::same_structure(const constraints::GlobalProblem& problem) const {
  if (!analyzed_) return false;
  const CsrMatrix &A = problem.M, &H = problem.H;
  if (A.row_ptr != a_ptr_ || A.col_idx != a_idx_ || H.row_ptr != h_ptr_ || H.col_idx != h_idx_) return false;
  if (problem.blocks.size() != kinds_.size()) return false;
  for (std::size_t b = 0; b < kinds_.size(); ++b)
    if (problem.blocks[b].kind != kinds_[b]) return false;
  pair_scratch_.assign(pair_nonzero_.size(), 0);
  for (std::size_t k = 0; k < entry_pair_.size(); ++k)
    if (H.values[k] != 0.0) pair_scratch_[static_cast<std::size_t>(entry_pair_[k])] = 1;
  if (pair_scratch_ != pair_nonzero_) return false;
  const bool compliant = problem.compliance.size() == problem.rows();
  if (compliant != !compliant_.empty()) return false;
  for (std::size_t row = 0; row < compliant_.size(); ++row)
    if ((problem.compliance[static_cast<Index>(row)] != 0.0) != (compliant_[row] != 0)) return false;
  return true;
}

std::string BaraffStep::analyze(const constraints::GlobalProblem& problem) {
  const Index n = problem.velocities(), m = problem.rows();
  const CsrMatrix& A = problem.M;
  const CsrMatrix& H = problem.H;
  // The structure this split is for.
  a_ptr_ = A.row_ptr;
  a_idx_ = A.col_idx;
  h_ptr_ = H.row_ptr;
  h_idx_ = H.col_idx;
  kinds_.clear();
  for (const constraints::ConstraintBlock& b : problem.blocks) kinds_.push_back(b.kind);
  const bool compliant = problem.compliance.size() == m;
  compliant_.clear();
  if (compliant)
    for (Index row = 0; row < m; ++row) compliant_.push_back(problem.compliance[row] != 0.0 ? 1 : 0);
  analyzed_ = true;
  bodies_.clear();
  primary_.clear();
  aux_.clear();
  primary_rows_.clear();
  aux_rows_.clear();
  aux_block_ids_.clear();
  solver_.reset();

  // Components: the connected blocks of A's pattern, numbered by their first DOF.
  DisjointSets dofs(n);
  for (Index i = 0; i < n; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) dofs.unite(i, A.col_idx[k]);
  std::vector<Index> component(static_cast<std::size_t>(n));
  std::map<Index, Index> root_component;
  for (Index i = 0; i < n; ++i) {
    const auto it = root_component.emplace(dofs.find(i), static_cast<Index>(root_component.size())).first;
    component[static_cast<std::size_t>(i)] = it->second;
  }
  const Index nc = static_cast<Index>(root_component.size());
  std::vector<std::vector<Index>> members(static_cast<std::size_t>(nc));
  for (Index i = 0; i < n; ++i) members[static_cast<std::size_t>(component[static_cast<std::size_t>(i)])].push_back(i);
  std::vector<Index> local(static_cast<std::size_t>(n));  // index of a DOF within its component
  dof_order_.clear();
  for (const auto& c : members)
    for (std::size_t k = 0; k < c.size(); ++k) {
      local[static_cast<std::size_t>(c[k])] = static_cast<Index>(k);
      dof_order_.push_back(c[k]);
    }
  auto size_of = [&](Index cpt) { return static_cast<Index>(members[static_cast<std::size_t>(cpt)].size()); };
  // The rows' entries (H's entry numbers) and the components each row touches with a non-zero.
  std::vector<std::vector<Index>> row_entries(static_cast<std::size_t>(m));
  std::vector<Index> entry_dof(H.values.size());
  for (Index i = 0; i < n; ++i)
    for (Index k = H.row_ptr[i]; k < H.row_ptr[i + 1]; ++k) {
      row_entries[static_cast<std::size_t>(H.col_idx[k])].push_back(k);
      entry_dof[static_cast<std::size_t>(k)] = i;
    }
  auto component_of = [&](Index k) {
    return component[static_cast<std::size_t>(entry_dof[static_cast<std::size_t>(k)])];
  };
  // Each entry's (row, component) pair, and whether the pair holds a non-zero.
  entry_pair_.assign(H.values.size(), -1);
  pair_nonzero_.clear();
  for (Index row = 0; row < m; ++row) {
    const std::vector<Index>& entries = row_entries[static_cast<std::size_t>(row)];
    for (std::size_t a = 0; a < entries.size(); ++a) {
      Index& pair = entry_pair_[static_cast<std::size_t>(entries[a])];
      for (std::size_t b = 0; b < a && pair < 0; ++b)
        if (component_of(entries[b]) == component_of(entries[a]))
          pair = entry_pair_[static_cast<std::size_t>(entries[b])];
      if (pair < 0) {
        pair = static_cast<Index>(pair_nonzero_.size());
        pair_nonzero_.push_back(0);
      }
      if (H.values[static_cast<std::size_t>(entries[a])] != 0.0) pair_nonzero_[static_cast<std::size_t>(pair)] = 1;
    }
  }
  auto touched = [&](Index row) {
    std::vector<Index> cs;
    for (Index k : row_entries[static_cast<std::size_t>(row)])
      if (pair_nonzero_[static_cast<std::size_t>(entry_pair_[static_cast<std::size_t>(k)])])
        cs.push_back(component_of(k));
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    return cs;
  };
  // Hard bilateral rows touching one or two components, grouped by their pair (world = nc), in
  // order of first row; a group that would close a cycle stays auxiliary (a loop closure).
  const std::vector<Index> offsets = constraints::block_offsets(problem.blocks);
  std::map<std::pair<Index, Index>, std::vector<Index>> groups;
  std::vector<std::pair<Index, Index>> group_order;
  std::vector<char> is_primary(static_cast<std::size_t>(m), 0);
  for (std::size_t b = 0; b < problem.blocks.size(); ++b) {
    if (problem.blocks[b].kind != constraints::BlockKind::kBilateral) continue;
    const Index row = offsets[b];
    if (compliant && compliant_[static_cast<std::size_t>(row)]) continue;
    const std::vector<Index> cs = touched(row);
    if (cs.empty() || cs.size() > 2) continue;
    const std::pair<Index, Index> key{cs[0], cs.size() == 2 ? cs[1] : nc};
    auto [it, added] = groups.try_emplace(key);
    if (added) group_order.push_back(key);
    it->second.push_back(row);
  }
  // Where each entry of H goes: (constraint or auxiliary row, side or block, row, local column),
  // resolved to addresses once every matrix is sized.
  struct Target {
    bool primary = false;
    std::size_t owner = 0;  // primary_ or aux_ index
    std::size_t part = 0;   // side (0: a, 1: b) or auxiliary block
    Index row = 0;          // row within a primary constraint
    Index col = 0;          // local column
  };
  std::vector<Target> targets(H.values.size());
  std::vector<char> has_target(H.values.size(), 0);
  DisjointSets tree(nc + 1);
  for (const auto& key : group_order) {
    if (!tree.unite(key.first, key.second)) continue;  // a loop closure: auxiliary
    const std::vector<Index>& rows = groups[key];
    BaraffConstraint c;
    const Index mr = static_cast<Index>(rows.size());
    c.body_a = static_cast<int>(key.first);
    c.jacobian_a = Eigen::MatrixXd::Zero(mr, size_of(key.first));
    if (key.second != nc) {
      c.body_b = static_cast<int>(key.second);
      c.jacobian_b = Eigen::MatrixXd::Zero(mr, size_of(key.second));
    }
    for (Index r = 0; r < mr; ++r) {
      const Index row = rows[static_cast<std::size_t>(r)];
      is_primary[static_cast<std::size_t>(row)] = 1;
      primary_rows_.push_back(row);
      for (Index k : row_entries[static_cast<std::size_t>(row)]) {
        const Index cpt = component_of(k);
        if (cpt != key.first && cpt != key.second) continue;  // an explicit zero on a third component
        targets[static_cast<std::size_t>(k)] =
            Target{true, primary_.size(), cpt == key.first ? 0u : 1u, r,
                   local[static_cast<std::size_t>(entry_dof[static_cast<std::size_t>(k)])]};
        has_target[static_cast<std::size_t>(k)] = 1;
      }
    }
    primary_.push_back(std::move(c));
  }
  if (primary_.empty()) return "no hard bilateral row between the components of A";
  // Every other row is auxiliary, in whole blocks and in row order.
  for (std::size_t b = 0; b < problem.blocks.size(); ++b) {
    if (is_primary[static_cast<std::size_t>(offsets[b])]) continue;
    aux_block_ids_.push_back(b);
    for (Index row = offsets[b]; row < offsets[b + 1]; ++row) {
      if (compliant && compliant_[static_cast<std::size_t>(row)])
        return "auxiliary row " + std::to_string(row) + " is compliant (Baraff's auxiliary system has no compliance)";
      BaraffAuxiliaryConstraint a;
      std::map<Index, std::size_t> block_of;  // component -> block, blocks in component order
      for (Index k : row_entries[static_cast<std::size_t>(row)]) block_of.emplace(component_of(k), 0);
      for (auto& [cpt, block] : block_of) {
        block = a.blocks.size();
        a.blocks.push_back(BaraffAuxiliaryBlock{static_cast<int>(cpt), Eigen::RowVectorXd::Zero(size_of(cpt)), {}});
      }
      for (Index k : row_entries[static_cast<std::size_t>(row)]) {
        targets[static_cast<std::size_t>(k)] =
            Target{false, aux_.size(), block_of[component_of(k)], 0,
                   local[static_cast<std::size_t>(entry_dof[static_cast<std::size_t>(k)])]};
        has_target[static_cast<std::size_t>(k)] = 1;
      }
      aux_.push_back(std::move(a));
      aux_rows_.push_back(row);
    }
  }
  for (const auto& c : members) {
    const Index d = static_cast<Index>(c.size());
    bodies_.push_back(BaraffBody{Eigen::MatrixXd::Zero(d, d)});
  }
  // Addresses, now that no container grows any more.
  a_dest_.resize(A.values.size());
  for (Index i = 0; i < n; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
      Eigen::MatrixXd& block = bodies_[static_cast<std::size_t>(component[static_cast<std::size_t>(i)])].mass;
      a_dest_[static_cast<std::size_t>(k)] =
          &block(local[static_cast<std::size_t>(i)], local[static_cast<std::size_t>(A.col_idx[k])]);
    }
  h_dest_.assign(H.values.size(), nullptr);
  for (std::size_t k = 0; k < targets.size(); ++k) {
    if (!has_target[k]) continue;
    const Target& t = targets[k];
    if (t.primary) {
      BaraffConstraint& c = primary_[t.owner];
      h_dest_[k] = &(t.part == 0 ? c.jacobian_a : c.jacobian_b)(t.row, t.col);
    } else {
      h_dest_[k] = &aux_[t.owner].blocks[t.part].jacobian[t.col];
    }
  }
  return "";
}

void BaraffStep::refill(const constraints::GlobalProblem& problem) {
  for (BaraffBody& b : bodies_) b.mass.setZero();
  for (BaraffConstraint& c : primary_) {
    c.jacobian_a.setZero();
    c.jacobian_b.setZero();
  }
  for (BaraffAuxiliaryConstraint& a : aux_)
    for (BaraffAuxiliaryBlock& b : a.blocks) b.jacobian.setZero();
  for (std::size_t k = 0; k < a_dest_.size(); ++k) *a_dest_[k] += problem.M.values[k];
  for (std::size_t k = 0; k < h_dest_.size(); ++k)
    if (h_dest_[k]) *h_dest_[k] += problem.H.values[k];
  aux_blocks_.clear();
  for (std::size_t b : aux_block_ids_) aux_blocks_.push_back(problem.blocks[b]);  // mu may change
}

const std::string& BaraffStep::build(const constraints::GlobalProblem& problem) {
  problem_ = &problem;
  const bool any_bilateral = std::any_of(problem.blocks.begin(), problem.blocks.end(),
                                         [](const auto& b) { return b.kind == constraints::BlockKind::kBilateral; });
  if (!any_bilateral) {  // contacts only (a stack): nothing to analyse
    kept_ = false;
    analyzed_ = false;
    why_ = "no hard bilateral row between the components of A";  // into kept capacity
    return why_;
  }
  kept_ = same_structure(problem);
  if (!kept_) unusable_ = analyze(problem);
  if (!unusable_.empty()) return unusable_;
  refill(problem);
  try {
    if (solver_) {  // same structure: the numbers go into the kept problem, Baraff's order is kept
      baraff_problem_->assign_values(bodies_, primary_, aux_);
      solver_->factor(*baraff_problem_);
    } else {
      baraff_problem_ = std::make_unique<BaraffProblem>(bodies_, primary_, aux_);
      // One refinement step keeps long chains at ~1e-15 (Baraff's order does not pivot).
      BaraffSolverOptions options;
      options.refinement_steps = 1;
      solver_ = std::make_unique<BaraffSolver>(*baraff_problem_, options);
    }
  } catch (const Error& e) {
    solver_.reset();
    why_ = std::string("Baraff's factor failed: ") + e.what();
    return why_;
  }
  why_.clear();
  return why_;
}

constraints::SolverReport BaraffStep::solve(constraints::ConstraintSolver& solver, Eigen::VectorXd& r,
                                            Eigen::VectorXd& v) {
  const constraints::GlobalProblem& p = *problem_;
  const Index n = p.velocities();
  force_.resize(n);
  bias_.resize(primary_rows());
  aux_bias_.resize(auxiliary_rows());
  warm_.resize(auxiliary_rows());
  for (Index i = 0; i < n; ++i) force_[i] = p.f[dof_order_[static_cast<std::size_t>(i)]];
  for (Index k = 0; k < primary_rows(); ++k) bias_[k] = p.w[primary_rows_[static_cast<std::size_t>(k)]];
  const bool warm_start = r.size() == p.rows();
  for (Index k = 0; k < auxiliary_rows(); ++k) {
    aux_bias_[k] = p.w[aux_rows_[static_cast<std::size_t>(k)]];
    warm_[k] = warm_start ? r[aux_rows_[static_cast<std::size_t>(k)]] : 0.0;
  }
  constraints::SolverReport report;
  if (auxiliary_rows() == 0) {  // joints only: one direct solve
    solver_->solve(force_, bias_, ws_, out_);
    report.status = constraints::SolverStatus::kConverged;
    out_.mu.resize(0);
  } else {
    constraints::BaraffConstraintAdapter adapter(solver, aux_blocks_);
    adapter.set_warm_start(warm_);
    report = adapter.solve(*solver_, force_, bias_, aux_bias_, ws_, out_);
  }
  v.resize(n);
  for (Index i = 0; i < n; ++i) v[dof_order_[static_cast<std::size_t>(i)]] = out_.acceleration[i];
  r.setZero(p.rows());
  for (Index k = 0; k < primary_rows(); ++k) r[primary_rows_[static_cast<std::size_t>(k)]] = out_.lambda[k];
  for (Index k = 0; k < auxiliary_rows(); ++k) r[aux_rows_[static_cast<std::size_t>(k)]] = out_.mu[k];
  return report;
}

}  // namespace sinew::integrators::detail
