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
  aux_block_count_.clear();
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
  // Where each entry of H goes (resolve_destinations() turns these into addresses).
  h_targets_.assign(H.values.size(), Target{});
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
        h_targets_[static_cast<std::size_t>(k)] =
            Target{Target::kPrimary, static_cast<Index>(primary_.size()), cpt == key.first ? 0 : 1, r,
                   local[static_cast<std::size_t>(entry_dof[static_cast<std::size_t>(k)])]};
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
        h_targets_[static_cast<std::size_t>(k)] =
            Target{Target::kAuxiliary, static_cast<Index>(aux_.size()), static_cast<Index>(block_of[component_of(k)]),
                   0, local[static_cast<std::size_t>(entry_dof[static_cast<std::size_t>(k)])]};
      }
      aux_block_count_.push_back(static_cast<Index>(a.blocks.size()));
      aux_.push_back(std::move(a));
      aux_rows_.push_back(row);
    }
  }
  for (const auto& c : members) {
    const Index d = static_cast<Index>(c.size());
    bodies_.push_back(BaraffBody{Eigen::MatrixXd::Zero(d, d)});
  }
  a_targets_.resize(A.values.size());
  for (Index i = 0; i < n; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      a_targets_[static_cast<std::size_t>(k)] =
          Target{Target::kBody, component[static_cast<std::size_t>(i)], 0, local[static_cast<std::size_t>(i)],
                 local[static_cast<std::size_t>(A.col_idx[k])]};
  return "";
}

void BaraffStep::resolve_destinations() {
  // Column-major blocks: entry (r, c) of a block with `rows` rows is at r + c rows.
  BaraffProblem* kept = baraff_problem_.get();
  auto mass = [&](Index b) -> Eigen::Ref<Eigen::MatrixXd> {
    return kept ? kept->mass_values(static_cast<int>(b)) : Eigen::Ref<Eigen::MatrixXd>(bodies_[b].mass);
  };
  auto jacobian = [&](Index c, Index side) -> Eigen::Ref<Eigen::MatrixXd> {
    if (kept) return kept->jacobian_values(static_cast<int>(c), static_cast<int>(side));
    return side == 0 ? primary_[c].jacobian_a : primary_[c].jacobian_b;
  };
  auto aux = [&](Index a, Index block) -> Eigen::Ref<Eigen::RowVectorXd> {
    if (kept) return kept->auxiliary_jacobian_values(static_cast<int>(a), static_cast<int>(block));
    return aux_[a].blocks[block].jacobian;
  };
  const Index bodies = kept ? kept->num_bodies() : static_cast<Index>(bodies_.size());
  const Index primaries = kept ? kept->num_constraints() : static_cast<Index>(primary_.size());
  zero_spans_.clear();
  auto span = [&](auto&& block) { zero_spans_.emplace_back(block.data(), static_cast<Index>(block.size())); };
  for (Index b = 0; b < bodies; ++b) span(mass(b));
  for (Index c = 0; c < primaries; ++c) {
    span(jacobian(c, 0));
    span(jacobian(c, 1));
  }
  for (Index a = 0; a < static_cast<Index>(aux_rows_.size()); ++a)
    for (Index block = 0; block < static_cast<Index>(aux_block_count_[static_cast<std::size_t>(a)]); ++block)
      span(aux(a, block));
  a_dest_.resize(a_targets_.size());
  for (std::size_t k = 0; k < a_targets_.size(); ++k) {
    const Target& t = a_targets_[k];
    Eigen::Ref<Eigen::MatrixXd> m = mass(t.owner);
    a_dest_[k] = m.data() + t.row + t.col * m.rows();
  }
  h_dest_.assign(h_targets_.size(), nullptr);
  for (std::size_t k = 0; k < h_targets_.size(); ++k) {
    const Target& t = h_targets_[k];
    if (t.kind == Target::kPrimary) {
      Eigen::Ref<Eigen::MatrixXd> j = jacobian(t.owner, t.part);
      h_dest_[k] = j.data() + t.row + t.col * j.rows();
    } else if (t.kind == Target::kAuxiliary) {
      h_dest_[k] = aux(t.owner, t.part).data() + t.col;
    }
  }
}

void BaraffStep::refill(const constraints::GlobalProblem& problem) {
  for (const auto& [data, size] : zero_spans_) std::fill(data, data + size, 0.0);
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
  if (!kept_) {
    baraff_problem_.reset();
    solver_.reset();
    unusable_ = analyze(problem);
  }
  if (!unusable_.empty()) return unusable_;
  try {
    if (!baraff_problem_) {
      // The numbers into the structure analyze() made, which the problem then takes over; later
      // steps of the same structure write straight into the problem's storage (no copies).
      resolve_destinations();
      refill(problem);
      baraff_problem_ = std::make_unique<BaraffProblem>(std::move(bodies_), std::move(primary_), std::move(aux_));
      resolve_destinations();
    } else {
      refill(problem);
    }
    if (solver_) {  // same structure: Baraff's order is kept
      solver_->factor(*baraff_problem_);
    } else {
      // One refinement step keeps long chains at ~1e-15 (Baraff's order does not pivot).
      BaraffSolverOptions options;
      options.refinement_steps = 1;
      solver_ = std::make_unique<BaraffSolver>(*baraff_problem_, options);
    }
  } catch (const Error& e) {
    solver_.reset();
    if (!baraff_problem_) analyzed_ = false;  // the structure went into the refused problem: analyse again
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
