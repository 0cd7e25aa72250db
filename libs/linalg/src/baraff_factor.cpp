// Baraff's "sparsefactor" and "sparsesolve" (Section 7.3, Appendix A) on the elimination order
// built by baraff_ordering.cpp, and the primary-only solves.
#include <Eigen/Core>
#include <atomic>
#include <cstdint>
#include <string>

#include "baraff_kernels.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/baraff_solver.hpp"

namespace sinew {
namespace {

using MutMap = Eigen::Map<Eigen::MatrixXd>;

std::atomic<std::uint64_t> g_next_factor_id{1};

}  // namespace

BaraffSolver::BaraffSolver(const BaraffProblem& problem, const BaraffSolverOptions& options) : options_(options) {
  if (options.refinement_steps < 0)
    throw Error("BaraffSolverOptions: refinement_steps must be >= 0, got " + std::to_string(options.refinement_steps));
  if (!(options.pivot_tolerance >= 0.0 && options.pivot_tolerance < 1.0))
    throw Error("BaraffSolverOptions: pivot_tolerance must be in [0, 1), got " + number_text(options.pivot_tolerance));
  if (!(options.auxiliary_min_rcond >= 0.0 && options.auxiliary_min_rcond < 1.0))
    throw Error("BaraffSolverOptions: auxiliary_min_rcond must be in [0, 1), got " +
                number_text(options.auxiliary_min_rcond));
  analyze(problem);
  factor(problem);
}

void BaraffSolver::factor(const BaraffProblem& problem) {
  check_structure(problem);
  factor_id_ = 0;  // no valid factorization until this one completes (solves refuse to run)
  factor_primary(problem);
  factor_auxiliary(problem);
  factor_id_ = g_next_factor_id.fetch_add(1);
}

// Appendix A "factor", pushing each child's contribution to its parent as soon as the child is
// done: D_par -= H_{n,par}^T D_n^-1 H_{n,par}, with H_{n,par} = -j (constraint n, body par) or
// -j^T (body n, constraint par).
void BaraffSolver::factor_primary(const BaraffProblem& problem) {
  const int nodes = num_bodies_ + num_constraints_;
  const auto& bodies = problem.bodies();
  const auto& constraints = problem.constraints();
  // Gather H's blocks into elimination order first, reading the problem in its own order: the
  // scattered accesses become writes, and the elimination loop below streams through memory.
  for (int b = 0; b < num_bodies_; ++b) {
    const int p = position_[b];
    MutMap(pivot_.data() + pivot_offset_[p], dim_[p], dim_[p]) = bodies[b].mass;  // "n.D = M_{n.i}"
  }
  for (int c = 0; c < num_constraints_; ++c) {
    const int pc = position_[num_bodies_ + c];
    MutMap(pivot_.data() + pivot_offset_[pc], dim_[pc], dim_[pc]).setZero();  // "n.D = 0"
    const BaraffConstraint& con = constraints[c];
    for (int side = 0; side < 2; ++side) {
      const int b = side == 0 ? con.body_a : con.body_b;
      if (b == kBaraffWorld) continue;
      const Eigen::MatrixXd& j = side == 0 ? con.jacobian_a : con.jacobian_b;  // m x dim(b)
      const int pb = position_[b];
      // "n.J = J_pq or J_pq^T" with H's sign: H_{n,par} = -j^T (body n under constraint par) or
      // -j (constraint n under body par).
      if (parent_[pb] == pc)
        MutMap(link_.data() + link_offset_[pb], dim_[pb], dim_[pc]) = -j.transpose();
      else
        MutMap(link_.data() + link_offset_[pc], dim_[pc], dim_[pb]) = -j;
    }
  }
  if (options_.refinement_steps > 0) {
    h_diag_ = pivot_;  // M blocks for bodies, zero for constraints
    h_link_ = link_;
  }
  const auto& link_kernels = baraff_detail::table<baraff_detail::Link>();
  for (int p = 0; p < nodes; ++p) {
    const int d = dim_[p];
    double* cp = pivot_.data() + pivot_offset_[p];
    // "n.Dinv = n.D^-1", kept factored as L E L^T (footnote 8).
    const int failed =
        baraff_detail::ldlt_for(d)(cp, d, natural_offset_[p] < num_dofs_ ? 1.0 : -1.0, options_.pivot_tolerance);
    if (failed >= 0) report_singular_pivot(problem, p, failed);
    const int q = parent_[p];
    if (q < 0) continue;
    // "par.D -= n.J^T n.D n.J" after "n.J = n.Dinv n.J", in L E L^T form (baraff_kernels.hpp).
    const baraff_detail::FactorStep step{cp, link_.data() + link_offset_[p], pivot_.data() + pivot_offset_[q], d,
                                         dim_[q]};
    link_kernels[baraff_detail::kernel_index(d, dim_[q])](step);
  }
}

void BaraffSolver::report_singular_pivot(const BaraffProblem& problem, int p, int column) const {
  const int node = order_[p];
  if (node < num_bodies_)
    throw Error("BaraffSolver::factor: the pivot block of body " + std::to_string(node) +
                " is not positive definite (column " + std::to_string(column) +
                "): its mass block is too ill-conditioned for pivot_tolerance or not finite");
  const int c = node - num_bodies_;
  const BaraffConstraint& con = problem.constraints()[c];
  auto name = [](int body) { return body < 0 ? std::string("the world") : "body " + std::to_string(body); };
  std::string below;
  for (int q = 0; q < p; ++q)
    if (parent_[q] == p) below += (below.empty() ? "" : ", ") + name(order_[q]);
  throw Error("BaraffSolver::factor: the pivot block of primary constraint " + std::to_string(c) + " (dimension " +
              std::to_string(dim_[p]) + ", between " + name(con.body_a) + " and " + name(con.body_b) +
              ") is singular at row " + std::to_string(column) +
              ": its Jacobian blocks on the bodies below it in the elimination tree (" + below +
              ") must have full row rank; a redundant constraint, or one with more rows than that body has "
              "degrees of freedom, cannot be primary");
}

// Appendix A "solve" on x in elimination order, with H = R^T E R (baraff_kernels.hpp). Forward
// sweep (leaves up): y_n = L_n^-1 x_n, then x_par -= V_n^T y_n ("n.soln -= c.J^T c.soln").
// Backward sweep (root down): x_n = L_n^-T (E_n^-1 y_n - V_n x_par) ("n.soln = Dinv n.soln -
// n.J parent(n).soln").
void BaraffSolver::solve_in_place(double* x) const {
  const auto& forward = baraff_detail::table<baraff_detail::Forward>();
  const auto& backward = baraff_detail::table<baraff_detail::Backward>();
  const int nodes = static_cast<int>(order_.size());
  auto step = [&](int p) {
    const int q = parent_[p];
    return baraff_detail::SolveStep{pivot_.data() + pivot_offset_[p],
                                    link_.data() + link_offset_[p],
                                    x + x_offset_[p],
                                    q < 0 ? nullptr : x + x_offset_[q],
                                    dim_[p],
                                    q < 0 ? 0 : dim_[q]};
  };
  // Each sweep streams the factor (pivot_ and link_, stored in elimination order) once. Ahead of
  // node p it prefetches the cache lines kAhead bytes further along each array in the sweep's
  // direction: with the hardware prefetcher alone a factor larger than the cache streamed at
  // 45% of the one-thread STREAM triad (bench/baraff_bench.cpp), its runs broken by the
  // kernels' small blocks. A prefetch is a hint and never faults, so the ends need no care.
  constexpr std::ptrdiff_t kAhead = 2048;
  constexpr std::uintptr_t kLine = 64;
  const auto prefetch = [](const double* begin, const double* end, std::ptrdiff_t shift) {
    // Addresses as integers: the shifted range may lie outside the arrays.
    const std::uintptr_t b = reinterpret_cast<std::uintptr_t>(begin) + static_cast<std::uintptr_t>(shift);
    const std::uintptr_t e = reinterpret_cast<std::uintptr_t>(end) + static_cast<std::uintptr_t>(shift);
    for (std::uintptr_t a = b; a < e; a += kLine) __builtin_prefetch(reinterpret_cast<const void*>(a));
  };
  for (int p = 0; p < nodes; ++p) {
    prefetch(pivot_.data() + pivot_offset_[p], pivot_.data() + pivot_offset_[p + 1], kAhead);
    prefetch(link_.data() + link_offset_[p], link_.data() + link_offset_[p + 1], kAhead);
    const baraff_detail::SolveStep s = step(p);
    forward[baraff_detail::kernel_index(s.d, s.dq)](s);
  }
  for (int p = nodes - 1; p >= 0; --p) {
    prefetch(pivot_.data() + pivot_offset_[p], pivot_.data() + pivot_offset_[p + 1], -kAhead);
    prefetch(link_.data() + link_offset_[p], link_.data() + link_offset_[p + 1], -kAhead);
    const baraff_detail::SolveStep s = step(p);
    backward[baraff_detail::kernel_index(s.d, s.dq)](s);
  }
}

// r = z - H x, all in elimination order, from the kept blocks of H: every diagonal block first,
// then every off-diagonal pair, each by its fixed-size kernel.
void BaraffSolver::residual(const double* z, const double* x, double* r) const {
  const auto& diagonal = baraff_detail::table<baraff_detail::ResidualDiagonal>();
  const auto& link = baraff_detail::table<baraff_detail::ResidualLink>();
  const int nodes = static_cast<int>(order_.size());
  auto step = [&](int p) {
    const int q = parent_[p];
    return baraff_detail::ResidualStep{h_diag_.data() + pivot_offset_[p],
                                       h_link_.data() + link_offset_[p],
                                       x + x_offset_[p],
                                       q < 0 ? nullptr : x + x_offset_[q],
                                       r + x_offset_[p],
                                       q < 0 ? nullptr : r + x_offset_[q],
                                       dim_[p],
                                       q < 0 ? 0 : dim_[q]};
  };
  for (int i = 0; i < num_dofs_ + num_multipliers_; ++i) r[i] = z[i];
  for (int p = 0; p < nodes; ++p) {
    if (natural_offset_[p] >= num_dofs_) continue;  // a constraint's diagonal block is zero
    const baraff_detail::ResidualStep s = step(p);
    diagonal[baraff_detail::kernel_index(s.d, 0)](s);
  }
  for (int p = 0; p < nodes; ++p) {
    if (parent_[p] < 0) continue;
    const baraff_detail::ResidualStep s = step(p);
    link[baraff_detail::kernel_index(s.d, s.dq)](s);
  }
}

// Solves H x = z in place on ws.x_ (elimination order), refined options_.refinement_steps times.
void BaraffSolver::sparse_solve(BaraffWorkspace& ws) const {
  if (options_.refinement_steps == 0) {
    solve_in_place(ws.x_.data());
    return;
  }
  ws.rhs_ = ws.x_;
  solve_in_place(ws.x_.data());
  for (int step = 0; step < options_.refinement_steps; ++step) {
    residual(ws.rhs_.data(), ws.x_.data(), ws.correction_.data());
    solve_in_place(ws.correction_.data());
    ws.x_ += ws.correction_;
  }
}

void BaraffSolver::prepare_workspace(BaraffWorkspace& ws) const {
  const Eigen::Index n = num_dofs_ + num_multipliers_;
  if (ws.x_.size() != n) ws.x_.resize(n);
  if (options_.refinement_steps > 0) {
    if (ws.rhs_.size() != n) ws.rhs_.resize(n);
    if (ws.correction_.size() != n) ws.correction_.resize(n);
  }
}

namespace {

// Copies a node's d entries; bodies' 6 and ball joints' 3 as fixed-size copies.
inline void copy_block(const double* __restrict src, int d, double* __restrict dst) {
  if (d == 6) {
    for (int i = 0; i < 6; ++i) dst[i] = src[i];
  } else if (d == 3) {
    for (int i = 0; i < 3; ++i) dst[i] = src[i];
  } else {
    for (int i = 0; i < d; ++i) dst[i] = src[i];
  }
}

}  // namespace

// Natural (force; bias) -> elimination-ordered x, one block per node, walked in natural order:
// the reads run in sequence and the block sizes repeat (every body's, then every constraint's),
// so the copies' branches predict. Walked in elimination order, where a random tree's sizes
// alternate irregularly, these copies took 5.9 ms of a 13.9 ms solve on a random tree of 10^5
// bodies (a chain's: 1.4 ms); in natural order the solve takes 12 ms (bench/baraff_bench.cpp).
void BaraffSolver::scatter_natural(const double* force, const double* bias, double* x) const {
  for (int b = 0; b < num_bodies_; ++b) {
    copy_block(force + body_offset_[b], body_offset_[b + 1] - body_offset_[b], x + natural_x_offset_[b]);
  }
  for (int c = 0; c < num_constraints_; ++c) {
    copy_block(bias + constraint_offset_[c], constraint_offset_[c + 1] - constraint_offset_[c],
               x + natural_x_offset_[num_bodies_ + c]);
  }
}

// The inverse copy, also in natural order (see scatter_natural()).
void BaraffSolver::gather_natural(const double* x, double* velocity, double* lambda) const {
  for (int b = 0; b < num_bodies_; ++b) {
    copy_block(x + natural_x_offset_[b], body_offset_[b + 1] - body_offset_[b], velocity + body_offset_[b]);
  }
  for (int c = 0; c < num_constraints_; ++c) {
    copy_block(x + natural_x_offset_[num_bodies_ + c], constraint_offset_[c + 1] - constraint_offset_[c],
               lambda + constraint_offset_[c]);
  }
}

void BaraffSolver::check_factored(const char* who) const {
  if (factor_id_ == 0)
    throw Error(std::string(who) + ": the solver has no valid factorization (its last factor() threw)");
}

void BaraffSolver::check_rhs(const Eigen::Ref<const Eigen::VectorXd>& force,
                             const Eigen::Ref<const Eigen::VectorXd>& bias, const char* who) const {
  check_factored(who);
  if (force.size() != num_dofs_)
    throw Error(std::string(who) + ": force must have num_dofs = " + std::to_string(num_dofs_) + " entries, got " +
                std::to_string(force.size()));
  if (bias.size() != num_multipliers_)
    throw Error(std::string(who) + ": bias must have num_multipliers = " + std::to_string(num_multipliers_) +
                " entries, got " + std::to_string(bias.size()));
}

void BaraffSolver::solve_kkt(const Eigen::Ref<const Eigen::VectorXd>& rhs, BaraffWorkspace& ws,
                             Eigen::VectorXd& x) const {
  check_factored("BaraffSolver::solve_kkt");
  const Eigen::Index n = num_dofs_ + num_multipliers_;
  if (rhs.size() != n)
    throw Error("BaraffSolver::solve_kkt: rhs must have num_dofs + num_multipliers = " + std::to_string(n) +
                " entries, got " + std::to_string(rhs.size()));
  prepare_workspace(ws);
  if (x.size() != n) x.resize(n);
  scatter_natural(rhs.data(), rhs.data() + num_dofs_, ws.x_.data());
  sparse_solve(ws);
  gather_natural(ws.x_.data(), x.data(), x.data() + num_dofs_);
}

void BaraffSolver::solve_multipliers(const Eigen::Ref<const Eigen::VectorXd>& b, BaraffWorkspace& ws,
                                     Eigen::VectorXd& lambda) const {
  check_factored("BaraffSolver::solve_multipliers");
  if (b.size() != num_multipliers_)
    throw Error("BaraffSolver::solve_multipliers: b must have num_multipliers = " + std::to_string(num_multipliers_) +
                " entries, got " + std::to_string(b.size()));
  prepare_workspace(ws);
  if (lambda.size() != num_multipliers_) lambda.resize(num_multipliers_);
  // z = (0, -b) of eq. (8), placed directly in elimination order.
  const int nodes = static_cast<int>(order_.size());
  for (int p = 0; p < nodes; ++p) {
    const int off = natural_offset_[p] - num_dofs_;
    for (int i = 0; i < dim_[p]; ++i) ws.x_[x_offset_[p] + i] = off < 0 ? 0.0 : -b[off + i];
  }
  sparse_solve(ws);
  for (int p = 0; p < nodes; ++p) {
    const int off = natural_offset_[p] - num_dofs_;
    if (off >= 0)
      for (int i = 0; i < dim_[p]; ++i) lambda[off + i] = ws.x_[x_offset_[p] + i];
  }
}

void BaraffSolver::solve(const Eigen::Ref<const Eigen::VectorXd>& force, const Eigen::Ref<const Eigen::VectorXd>& bias,
                         BaraffWorkspace& ws, BaraffSolution& out) const {
  check_rhs(force, bias, "BaraffSolver::solve");
  if (num_auxiliary() != 0)
    throw Error("BaraffSolver::solve: the problem has " + std::to_string(num_auxiliary()) +
                " auxiliary constraints; pass their bias aux_bias (and a solver for them "
                "unless they are equalities)");
  prepare_workspace(ws);
  if (out.acceleration.size() != num_dofs_) out.acceleration.resize(num_dofs_);
  if (out.lambda.size() != num_multipliers_) out.lambda.resize(num_multipliers_);
  out.mu.resize(0);
  out.aux_value.resize(0);
  scatter_natural(force.data(), bias.data(), ws.x_.data());
  sparse_solve(ws);
  gather_natural(ws.x_.data(), out.acceleration.data(), out.lambda.data());
}

}  // namespace sinew
