// LocalGlobalContactSolver's rows once per step: the cables' rows, H and the constraint blocks,
// the warm start of r, and W = H A^-1 H^T (stored or as an operator, delassus.cpp and
// contact_operator.cpp) with the Newton step's preparation.
#include <algorithm>
#include <utility>

#include "contact_solver.hpp"
#include "sinew/constraints/contact_warm_start.hpp"

namespace sinew::integrators::detail {

// Cables (local_global_cable.hpp): one bilateral row per pulled cable, dL/dq at q_t; its
// constant term e (u = H (q - q_t) / h + e = 0 puts the linearized length on its target) is set
// by relinearize_cables() at q^0 = q~ and at each later L-G iterate.
void LocalGlobalContactSolver::gather_cables(LocalGlobalReport& report) {
  active_.clear();
  cable_rows_.clear();
  report.cable_impulses.assign(cables_.size(), 0.0);
  std::vector<Vec3> gradient;
  for (std::size_t c = 0; c < cables_.size(); ++c) {
    if (cables_[c].pull <= 0.0) continue;  // slack: no row, the step is the one without the cable
    cable_length_gradient(cables_[c], x_host_.data(), gradient);
    std::vector<std::pair<Index, Vec3>> row;
    for (std::size_t k = 0; k < gradient.size(); ++k) row.emplace_back(cables_[c].vertices[k], gradient[k]);
    std::sort(row.begin(), row.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    active_.push_back(c);
    cable_rows_.push_back(std::move(row));
  }
}

// H (3c + a x 3n) on the host: row (j, i) is frame vector i of contact j on its vertex's xyz
// (and -bary_k times it on a triangle's: four-vertex rows; an obstacle feature's: its surface
// point's vertices, contact_entries()); then the cables' gradient rows. blocks_ gets each
// contact's circular cone with its friction and each cable's bilateral row.
void LocalGlobalContactSolver::assemble_rows() {
  CsrMatrix& H = H_host_;  // its storage reused
  H.rows = static_cast<Index>(rows_);
  H.cols = 3 * n_;
  H.row_ptr.assign(1, 0);
  H.col_idx.clear();
  H.values.clear();
  blocks_.assign(contacts_.size(), constraints::ConstraintBlock{constraints::BlockKind::kContact, 0.0});
  for (std::size_t j = 0; j < contacts_.size(); ++j) {
    const Contact& c = contacts_[j];
    const int obstacle = obstacle_of(c);
    blocks_[j].mu = obstacle >= 0 ? obstacles_[static_cast<std::size_t>(obstacle)].friction
                    : is_cloth_contact(c) || is_body_self_contact(c) ? self_friction_
                                                                     : body_friction_;
    Index verts[kMaxContactVertices];
    double weights[kMaxContactVertices];
    const int count = contact_entries(c, verts, weights);
    for (int i = 0; i < 3; ++i) {
      for (int e = 0; e < count; ++e)
        for (int k = 0; k < 3; ++k) {
          H.col_idx.push_back(3 * verts[e] + k);
          H.values.push_back(count == 1 ? c.frame[i][k] : weights[e] * c.frame[i][k]);
        }
      H.row_ptr.push_back(static_cast<Index>(H.col_idx.size()));
    }
  }
  for (const auto& row : cable_rows_) {
    blocks_.push_back(constraints::ConstraintBlock{constraints::BlockKind::kBilateral, 0.0});
    for (const auto& [vertex, g] : row)
      for (int k = 0; k < 3; ++k) {
        H.col_idx.push_back(3 * vertex + k);
        H.values.push_back(g[k]);
      }
    H.row_ptr.push_back(static_cast<Index>(H.col_idx.size()));
  }
}

// The contact's identity across steps: (vertex, obstacle key, and for an edge-edge contact a's
// second vertex), the order contacts_ is sorted in.
constraints::KeyedContactFrame LocalGlobalContactSolver::keyed(const Contact& c) const {
  return constraints::KeyedContactFrame{{c.vertex, static_cast<Index>(c.obstacle), second_key(c)},
                                        {c.frame[0], c.frame[1], c.frame[2]}};
}

// r on the backend: the previous step's impulses of the contacts found again
// (constraints::carry_contact_impulses) and of the cables still pulled; 0 without warm start.
void LocalGlobalContactSolver::warm_start() {
  const std::size_t nc = contacts_.size();
  std::vector<double> r0(rows_, 0.0);
  if (options_.warm_start) {
    std::vector<constraints::KeyedContactFrame> prev, next;
    prev.reserve(contacts_prev_.size());
    next.reserve(nc);
    for (const Contact& c : contacts_prev_) prev.push_back(keyed(c));
    for (const Contact& c : contacts_) next.push_back(keyed(c));
    constraints::carry_contact_impulses(prev, r_prev_, next, r0.data());
    for (std::size_t i = 0; i < active_.size(); ++i) r0[3 * nc + i] = cable_r_prev_[active_[i]];
  }
  be_->upload(r0.data(), r0.size(), r_);
}

// W = H A^-1 H^T with A^-1 = (S'^T S') (x) I_3 through the rows' vertices' columns of S': as an
// operator (contact_operator.cpp: W r = G (Y (Z (G^T r)))) or stored, from the
// scalar C = P S'^T S' P^T (delassus.cpp: sparse or dense C, then the 3x3 frame
// expansion); use_operator() picks. With no cable, C and W are what they were without.
void LocalGlobalContactSolver::build_delassus(LocalGlobalReport& report) {
  const std::size_t nc = contacts_.size(), na = active_.size();
  const std::size_t m = rows_;
  // W reuse: W depends on the contacts' vertices, frames and weights and the cables' rows only
  // (S' is fixed), so the same ones give the same W, bit for bit.
  report.delassus_reused = options_.reuse_delassus && same_rows_;
  if (!report.delassus_reused) {
    delassus_kept_ = false;  // until W is complete
    // The rows' vertices: every contact vertex and every pulled cable's vertex, ascending.
    std::vector<Index>& verts = verts_;
    verts.clear();
    for (const Contact& c : contacts_) {
      Index v[kMaxContactVertices];
      double w[kMaxContactVertices];
      const int count = contact_entries(c, v, w);
      verts.insert(verts.end(), v, v + count);
    }
    for (const auto& row : cable_rows_)
      for (const auto& entry : row) verts.push_back(entry.first);
    std::sort(verts.begin(), verts.end());
    verts.erase(std::unique(verts.begin(), verts.end()), verts.end());
    for (std::size_t a = 0; a < verts.size(); ++a) col_of_vertex_[verts[a]] = static_cast<Index>(a);
    operator_used_ = use_operator(verts);
    if (operator_used_) {
      wop_->build(verts, col_of_vertex_, H_host_, contacts_, cable_rows_, diag_);
    } else {
      schur_->compute(options_.schur, verts, options_.reuse_delassus);
      expand_delassus(*be_, *schur_, col_of_vertex_, contacts_, cable_rows_, W_, diag_);
    }
    for (Index v : verts) col_of_vertex_[v] = -1;
    delassus_contacts_ = contacts_;
    delassus_cables_ = cable_rows_;
    delassus_kept_ = true;
  }
  const std::vector<double>& diag = diag_;
  std::vector<double> rho;  // empty: eq. (28) from diag(W)
  if (options_.preconditioner == ContactPreconditioner::kMassInverse) {
    // diag(H M^-1 H^T): |f| = 1 on each contact row, so sum_a w_a^2 / m_a over its vertices
    // (1 / m_v against an obstacle); sum |dL/dx_v|^2 / m_v on a cable row.
    rho.resize(m);
    for (std::size_t j = 0; j < nc; ++j) {
      Index v[kMaxContactVertices];
      double w[kMaxContactVertices];
      const int count = contact_entries(contacts_[j], v, w);
      double sum = 0.0;
      for (int e = 0; e < count; ++e) sum += w[e] * w[e] / masses_[v[e]];
      if (count == 1) sum = 1.0 / masses_[v[0]];
      for (int i = 0; i < 3; ++i) rho[3 * j + i] = sum;
    }
    for (std::size_t t = 0; t < na; ++t) {
      double sum = 0.0;
      for (const auto& [v, g] : cable_rows_[t]) sum += dot(g, g) / masses_[v];
      rho[3 * nc + t] = sum;
    }
  }
  if (operator_used_)
    step_->prepare(*wop_, diag, blocks_, rho);
  else
    step_->prepare(W_, diag, blocks_, rho);
  // ContactSolve::kAuto: the converged solve up to kConvergedAutoRows rows (its W on the host, once per step).
  converged_used_ =
      converged_ && (options_.solve == ContactSolve::kConverged || m <= static_cast<std::size_t>(kConvergedAutoRows));
  // A kept W is already the converged solve's (the same m takes the same path).
  if (converged_used_ && !report.delassus_reused) converged_->prepare(delassus(), blocks_);
}

// DelassusForm::kAuto's estimate, in entries touched per product with W: the stored W's nnz (a
// 3 x 3 block per pair of contacts whose vertices share an elimination-tree root, dense cable
// rows and columns) against the operator's two passes over Y (three columns each) and over G.
bool LocalGlobalContactSolver::use_operator(const std::vector<Index>& verts) const {
  if (options_.delassus != DelassusForm::kAuto) return options_.delassus == DelassusForm::kOperator;
  const double nc = static_cast<double>(contacts_.size()), na = static_cast<double>(active_.size());
  // Contacts couple within their group of connected elimination-tree roots (contact_groups()).
  std::vector<Index>& group = group_;
  const Index groups = contact_groups(contacts_, schur_->vertex_roots(), group);
  std::vector<double> sizes(static_cast<std::size_t>(groups), 0.0);
  for (Index g : group) sizes[g] += 1.0;
  double w_entries = 6.0 * nc * na + na * na;
  for (double size : sizes) w_entries += 9.0 * size * size;
  const double op_entries =
      2.0 * (3.0 * static_cast<double>(wop_->y_entries(verts)) + static_cast<double>(H_host_.nnz()));
  return op_entries < w_entries;
}

// The cable rows' constant term at the iterate q^k (@p xk, 3n, host): with H's gradient frozen
// at q_t (so that W stays fixed for the step, Algorithm 4), u = 0 on a cable row reads
// L(q^k) + H (q - q^k) = L_target, i.e. e = (L(q^k) - L_target - H (q^k - q_t)) / h in
// u = H (q - q_t) / h + e: a chord iteration whose fixed point has the exact length, where a
// single linearization at q_t would leave the second-order error of the step's rotation of the
// cable's segments (measured 2.4e-4 m on a 0.4 m cable bending a bar, 1e-6 m with this).
void LocalGlobalContactSolver::relinearize_cables(const std::vector<double>& xk) {
  const std::size_t nc = contacts_.size();
  for (std::size_t t = 0; t < active_.size(); ++t) {
    const Cable& cable = cables_[active_[t]];
    double hq = 0.0;  // H_t (q^k - q_t)
    for (const auto& [v, g] : cable_rows_[t])
      for (int k = 0; k < 3; ++k) {
        const std::size_t i = 3 * static_cast<std::size_t>(v) + k;
        hq += g[k] * (xk[i] - x_host_[i]);
      }
    e_host_[3 * nc + t] = (cable_length(cable, xk) - (cable.rest_length - cable.pull) - hq) / h_;
  }
}

}  // namespace sinew::integrators::detail
