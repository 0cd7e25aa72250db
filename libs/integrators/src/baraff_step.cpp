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

std::string BaraffStep::build(const constraints::GlobalProblem& problem) {
  problem_ = &problem;
  const Index n = problem.velocities(), m = problem.rows();
  const CsrMatrix& A = problem.M;
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
  // The rows' entries (H's columns) and the components each row touches.
  std::vector<std::vector<std::pair<Index, double>>> row_entries(static_cast<std::size_t>(m));
  const CsrMatrix& H = problem.H;
  for (Index i = 0; i < n; ++i)
    for (Index k = H.row_ptr[i]; k < H.row_ptr[i + 1]; ++k)
      row_entries[static_cast<std::size_t>(H.col_idx[k])].emplace_back(i, H.values[k]);
  auto touched = [&](Index row) {
    std::vector<Index> cs;
    for (const auto& [dof, value] : row_entries[static_cast<std::size_t>(row)])
      if (value != 0.0) cs.push_back(component[static_cast<std::size_t>(dof)]);
    std::sort(cs.begin(), cs.end());
    cs.erase(std::unique(cs.begin(), cs.end()), cs.end());
    return cs;
  };
  const bool compliant = problem.compliance.size() == m;
  // Hard bilateral rows touching one or two components, grouped by their pair (world = nc), in
  // order of first row; a group that would close a cycle stays auxiliary (a loop closure).
  const std::vector<Index> offsets = constraints::block_offsets(problem.blocks);
  std::map<std::pair<Index, Index>, std::vector<Index>> groups;
  std::vector<std::pair<Index, Index>> group_order;
  std::vector<char> is_primary(static_cast<std::size_t>(m), 0);
  for (std::size_t b = 0; b < problem.blocks.size(); ++b) {
    if (problem.blocks[b].kind != constraints::BlockKind::kBilateral) continue;
    const Index row = offsets[b];
    if (compliant && problem.compliance[row] != 0.0) continue;
    const std::vector<Index> cs = touched(row);
    if (cs.empty() || cs.size() > 2) continue;
    const std::pair<Index, Index> key{cs[0], cs.size() == 2 ? cs[1] : nc};
    auto [it, added] = groups.try_emplace(key);
    if (added) group_order.push_back(key);
    it->second.push_back(row);
  }
  DisjointSets tree(nc + 1);
  std::vector<BaraffConstraint> primary;
  primary_rows_.clear();
  for (const auto& key : group_order) {
    if (!tree.unite(key.first, key.second)) continue;  // a loop closure: auxiliary
    const std::vector<Index>& rows = groups[key];
    BaraffConstraint c;
    const Index mr = static_cast<Index>(rows.size());
    c.body_a = static_cast<int>(key.first);
    c.jacobian_a = Eigen::MatrixXd::Zero(mr, static_cast<Index>(members[static_cast<std::size_t>(key.first)].size()));
    if (key.second != nc) {
      c.body_b = static_cast<int>(key.second);
      c.jacobian_b =
          Eigen::MatrixXd::Zero(mr, static_cast<Index>(members[static_cast<std::size_t>(key.second)].size()));
    }
    for (Index r = 0; r < mr; ++r) {
      const Index row = rows[static_cast<std::size_t>(r)];
      is_primary[static_cast<std::size_t>(row)] = 1;
      primary_rows_.push_back(row);
      for (const auto& [dof, value] : row_entries[static_cast<std::size_t>(row)]) {
        const Index cpt = component[static_cast<std::size_t>(dof)];
        Eigen::MatrixXd& J = cpt == key.first ? c.jacobian_a : c.jacobian_b;
        J(r, local[static_cast<std::size_t>(dof)]) += value;
      }
    }
    primary.push_back(std::move(c));
  }
  if (primary.empty()) return "no hard bilateral row between the components of A";
  // Every other row is auxiliary, in whole blocks and in row order.
  std::vector<BaraffAuxiliaryConstraint> aux;
  aux_rows_.clear();
  aux_blocks_.clear();
  for (std::size_t b = 0; b < problem.blocks.size(); ++b) {
    if (is_primary[static_cast<std::size_t>(offsets[b])]) continue;
    aux_blocks_.push_back(problem.blocks[b]);
    for (Index row = offsets[b]; row < offsets[b + 1]; ++row) {
      if (compliant && problem.compliance[row] != 0.0)
        return "auxiliary row " + std::to_string(row) + " is compliant (Baraff's auxiliary system has no compliance)";
      std::map<Index, Eigen::RowVectorXd> per_component;
      for (const auto& [dof, value] : row_entries[static_cast<std::size_t>(row)]) {
        const Index cpt = component[static_cast<std::size_t>(dof)];
        auto it = per_component.find(cpt);
        if (it == per_component.end())
          it = per_component
                   .emplace(cpt,
                            Eigen::RowVectorXd::Zero(static_cast<Index>(members[static_cast<std::size_t>(cpt)].size())))
                   .first;
        it->second[local[static_cast<std::size_t>(dof)]] += value;
      }
      BaraffAuxiliaryConstraint a;
      for (auto& [cpt, J] : per_component)
        a.blocks.push_back(BaraffAuxiliaryBlock{static_cast<int>(cpt), std::move(J), {}});
      aux.push_back(std::move(a));
      aux_rows_.push_back(row);
    }
  }
  std::vector<BaraffBody> bodies;
  for (const auto& c : members) {
    Eigen::MatrixXd block = Eigen::MatrixXd::Zero(static_cast<Index>(c.size()), static_cast<Index>(c.size()));
    for (Index i : c)
      for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
        block(local[static_cast<std::size_t>(i)], local[static_cast<std::size_t>(A.col_idx[k])]) += A.values[k];
    bodies.push_back(BaraffBody{std::move(block)});
  }
  try {
    baraff_problem_ = std::make_unique<BaraffProblem>(std::move(bodies), std::move(primary), std::move(aux));
    // One refinement step keeps long chains at ~1e-15 (Baraff's order does not pivot).
    BaraffSolverOptions options;
    options.refinement_steps = 1;
    solver_ = std::make_unique<BaraffSolver>(*baraff_problem_, options);
  } catch (const Error& e) {
    solver_.reset();
    return std::string("Baraff's factor failed: ") + e.what();
  }
  return "";
}

constraints::SolverReport BaraffStep::solve(constraints::ConstraintSolver& solver, Eigen::VectorXd& r,
                                            Eigen::VectorXd& v) {
  const constraints::GlobalProblem& p = *problem_;
  const Index n = p.velocities();
  Eigen::VectorXd force(n), bias(primary_rows()), aux_bias(auxiliary_rows()), warm(auxiliary_rows());
  for (Index i = 0; i < n; ++i) force[i] = p.f[dof_order_[static_cast<std::size_t>(i)]];
  for (Index k = 0; k < primary_rows(); ++k) bias[k] = p.w[primary_rows_[static_cast<std::size_t>(k)]];
  const bool warm_start = r.size() == p.rows();
  for (Index k = 0; k < auxiliary_rows(); ++k) {
    aux_bias[k] = p.w[aux_rows_[static_cast<std::size_t>(k)]];
    warm[k] = warm_start ? r[aux_rows_[static_cast<std::size_t>(k)]] : 0.0;
  }
  BaraffWorkspace ws;
  BaraffSolution out;
  constraints::SolverReport report;
  if (auxiliary_rows() == 0) {  // joints only: one direct solve
    solver_->solve(force, bias, ws, out);
    report.status = constraints::SolverStatus::kConverged;
    out.mu.resize(0);
  } else {
    constraints::BaraffConstraintAdapter adapter(solver, aux_blocks_);
    adapter.set_warm_start(warm);
    report = adapter.solve(*solver_, force, bias, aux_bias, ws, out);
  }
  v.resize(n);
  for (Index i = 0; i < n; ++i) v[dof_order_[static_cast<std::size_t>(i)]] = out.acceleration[i];
  r.setZero(p.rows());
  for (Index k = 0; k < primary_rows(); ++k) r[primary_rows_[static_cast<std::size_t>(k)]] = out.lambda[k];
  for (Index k = 0; k < auxiliary_rows(); ++k) r[aux_rows_[static_cast<std::size_t>(k)]] = out.mu[k];
  return report;
}

}  // namespace sinew::integrators::detail
