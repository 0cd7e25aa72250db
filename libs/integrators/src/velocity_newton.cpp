#include "velocity_newton.hpp"

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdio>
#include <limits>
#include <utility>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::integrators::detail {

void require_size(const Eigen::VectorXd& x, Index n, const char* what) {
  require(x.size() == n, [&] {
    return std::string(what) + " has " + std::to_string(x.size()) + " entries, expected " + std::to_string(n);
  });
}

void require_square(const CsrMatrix& A, Index n, const char* what) {
  const bool empty = A.rows == 0 && A.cols == 0 && A.nnz() == 0;
  require(empty || (A.rows == n && A.cols == n), [&] {
    return std::string(what) + " is " + std::to_string(A.rows) + "x" + std::to_string(A.cols) + ", expected " +
           std::to_string(n) + "x" + std::to_string(n);
  });
}

bool all_finite(const CsrMatrix& A) {
  for (double v : A.values)
    if (!std::isfinite(v)) return false;
  return true;
}

namespace {
// Row i of C = sum_k s_k B_k (or of (C + C^T) / 2) into A by a dense scatter over the row's
// columns: the same sums in the same order as Eigen's sparse expressions, without their
// temporaries. @p at holds -1 for every column on entry and on exit.
void add_row(const CsrMatrix& B, Index i, double scale, std::vector<Index>& at, CsrMatrix& A) {
  for (Index k = B.row_ptr[i]; k < B.row_ptr[i + 1]; ++k) {
    const Index j = B.col_idx[k];
    if (at[j] < 0) {
      at[j] = static_cast<Index>(A.col_idx.size());
      A.col_idx.push_back(j);
      A.values.push_back(scale * B.values[k]);
    } else {
      A.values[at[j]] += scale * B.values[k];
    }
  }
}

// Sorts row i's entries (appended from @p begin) by column and clears their markers.
void finish_row(Index begin, std::vector<Index>& at, CsrMatrix& A) {
  const std::size_t b = static_cast<std::size_t>(begin), e = A.col_idx.size();
  for (std::size_t k = b; k < e; ++k) at[A.col_idx[k]] = -1;
  // Insertion sort: rows of a step matrix hold a few dozen entries.
  for (std::size_t k = b + 1; k < e; ++k)
    for (std::size_t m = k; m > b && A.col_idx[m] < A.col_idx[m - 1]; --m) {
      std::swap(A.col_idx[m], A.col_idx[m - 1]);
      std::swap(A.values[m], A.values[m - 1]);
    }
  A.row_ptr.push_back(static_cast<Index>(e));
}

// The transpose of the square CSR matrix @p C (columns sorted).
CsrMatrix transpose_csr(const CsrMatrix& C) {
  CsrMatrix T;
  T.rows = C.cols;
  T.cols = C.rows;
  T.row_ptr.assign(static_cast<std::size_t>(C.cols) + 1, 0);
  for (Index j : C.col_idx) ++T.row_ptr[static_cast<std::size_t>(j) + 1];
  for (Index j = 0; j < C.cols; ++j) T.row_ptr[j + 1] += T.row_ptr[j];
  T.col_idx.resize(C.col_idx.size());
  T.values.resize(C.values.size());
  std::vector<Index> next(T.row_ptr.begin(), T.row_ptr.end() - 1);
  for (Index i = 0; i < C.rows; ++i)
    for (Index k = C.row_ptr[i]; k < C.row_ptr[i + 1]; ++k) {
      const Index at = next[C.col_idx[k]]++;
      T.col_idx[at] = i;
      T.values[at] = C.values[k];
    }
  return T;
}

// (A + A^T) / 2 in place, entry by entry as 0.5 * (a_ij + a_ji), when A's pattern is symmetric;
// returns false (A untouched) when it is not.
bool symmetrize_in_place(CsrMatrix& A, std::vector<Index>& cursor) {
  bool mirrored = true;
  for_each_mirror_pair(A, cursor,
                       [&](Index, Index, Index lower, Index upper) { mirrored &= lower >= 0 && upper >= 0; });
  if (!mirrored) return false;
  for_each_mirror_pair(A, cursor, [&](Index, Index, Index lower, Index upper) {
    const std::size_t l = static_cast<std::size_t>(lower), u = static_cast<std::size_t>(upper);
    A.values[l] = A.values[u] = 0.5 * (A.values[u] + A.values[l]);
  });
  return true;
}
}  // namespace

void combine(Index n, std::initializer_list<std::pair<double, const CsrMatrix*>> terms, bool symmetrize, CsrMatrix& A) {
  for (const auto& term : terms) {
    require_square(*term.second, n, "combine() term");
    require(term.second != &A, [] { return std::string("combine(): the result must not be one of the terms"); });
  }
  // Terms that add nothing: a zero scale, no entries, or explicit zeros only (the gravity
  // stiffness of bodies framed at their centre of mass, say).
  auto adds_something = [](const std::pair<double, const CsrMatrix*>& term) {
    if (term.first == 0.0) return false;
    for (double v : term.second->values)
      if (v != 0.0) return true;
    return false;
  };
  require(terms.size() <= 64, "combine(): at most 64 terms");
  const std::pair<double, const CsrMatrix*>* only = nullptr;
  int active = 0;
  std::uint64_t adds = 0;  // bit k: term k adds something (scanned once, not per row)
  for (std::size_t k = 0; k < terms.size(); ++k)
    if (adds_something(terms.begin()[k])) ++active, only = terms.begin() + k, adds |= std::uint64_t{1} << k;
  // The sum straight into A, whose storage is reused from call to call.
  A.rows = A.cols = n;
  thread_local std::vector<Index> cursor;  // kept between calls: a step allocates nothing
  if (active == 1) {
    // One term (the mass matrix of rigid bodies alone): its pattern as it is, values scaled.
    const auto& [scale, B] = *only;
    A.row_ptr = B->row_ptr;
    A.col_idx = B->col_idx;
    A.values.resize(B->values.size());
    for (std::size_t k = 0; k < A.values.size(); ++k) A.values[k] = scale * B->values[k];
    if (!symmetrize || symmetrize_in_place(A, cursor)) return;
  }
  A.row_ptr.assign(1, 0);
  A.col_idx.clear();
  A.values.clear();
  thread_local std::vector<Index> at;  // kept between calls, as cursor
  at.assign(static_cast<std::size_t>(n), -1);
  for (Index i = 0; i < n; ++i) {
    const Index begin = static_cast<Index>(A.col_idx.size());
    for (std::size_t k = 0; k < terms.size(); ++k)
      if (adds >> k & 1) add_row(*terms.begin()[k].second, i, terms.begin()[k].first, at, A);
    finish_row(begin, at, A);
  }
  if (!symmetrize || symmetrize_in_place(A, cursor)) return;
  // A pattern that is not symmetric: (C + C^T) / 2 over the union of both patterns.
  const CsrMatrix sum = std::move(A);
  const CsrMatrix transposed = transpose_csr(sum);
  A = CsrMatrix{};
  A.rows = A.cols = n;
  A.row_ptr.assign(1, 0);
  for (Index i = 0; i < n; ++i) {
    const Index begin = static_cast<Index>(A.col_idx.size());
    add_row(sum, i, 1.0, at, A);
    add_row(transposed, i, 1.0, at, A);
    for (std::size_t k = static_cast<std::size_t>(begin); k < A.values.size(); ++k) A.values[k] *= 0.5;
    finish_row(begin, at, A);
  }
}

bool factor_and_solve(Workspace& ws, LinearSolverKind requested, const CsrMatrix& A, Eigen::VectorXd& x,
                      std::string& message) {
  const LinearSolverKind kind = resolve_linear_solver(requested, A);
  if (!ws.solver || ws.solver_kind != kind) {
    ws.solver = make_linear_solver(kind);
    ws.solver_kind = kind;
  }
  try {
    // Same pattern as the last factorization: numeric refactorization only (keeps the ordering
    // and symbolic analysis, the expensive part for CHOLMOD on large systems).
    if (ws.solver->factored() && A.row_ptr == ws.pattern_row_ptr && A.col_idx == ws.pattern_col_idx) {
      ws.solver->factorize(A);
    } else {
      ws.solver->compute(A);
      ws.pattern_row_ptr = A.row_ptr;
      ws.pattern_col_idx = A.col_idx;
    }
    ws.solver->solve_in_place(x);
  } catch (const Error& e) {
    message = e.what();
    return false;
  }
  if (!x.allFinite()) {
    message = ws.solver->name() + " returned a non-finite solution";
    return false;
  }
  return true;
}

void pin_fixed(const std::vector<Index>& fixed, CsrMatrix& A, Eigen::VectorXd* b) {
  if (fixed.empty()) return;
  std::vector<char> is_fixed(static_cast<std::size_t>(A.rows), 0);
  for (Index i : fixed) is_fixed[static_cast<std::size_t>(i)] = 1;
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
      const Index j = A.col_idx[k];
      if (is_fixed[static_cast<std::size_t>(i)] || is_fixed[static_cast<std::size_t>(j)])
        A.values[k] = i == j ? 1.0 : 0.0;
    }
  if (b)
    for (Index i : fixed) (*b)[i] = 0.0;
}

const std::vector<Index>& checked_fixed_dofs(const model::DynamicalSystem& system, const char* who) {
  const std::vector<Index>& fixed = system.fixed_velocity_dofs();
  const Index n = system.num_velocities();
  for (Index i : fixed)
    require(i >= 0 && i < n, [&] {
      return std::string(who) + ": fixed_velocity_dofs() holds " + std::to_string(i) + ", outside [0, " +
             std::to_string(n) + ")";
    });
  return fixed;
}

namespace {

// Everything one Newton solve needs, so that the residual and merit evaluations stay short.
class StageSolver {
 public:
  StageSolver(const char* who, const model::DynamicalSystem& system, const State& in, double h,
              const VelocityStage& stage, const NewtonOptions& options, Workspace& ws)
      : who_(who),
        sys_(system),
        in_(in),
        h_(h),
        st_(stage),
        opt_(options),
        ws_(ws),
        n_(system.num_velocities()),
        u0_(ws.u0),
        c0_(ws.c0),
        D0_(ws.D0),
        e_tmp_(ws.e_tmp),
        e_mix_(ws.e_mix),
        e_q_(ws.e_q) {}

  StepReport run(State& out);

 private:
  // r(u) into r; false when a force, the mass matrix or r is not finite (what says which).
  bool residual(const Eigen::VectorXd& u, Eigen::VectorXd& r);
  // Incremental potential E(u) (see solve_velocity_stage's header comment) and the sum of the
  // magnitudes of its terms (the scale of its round-off).
  std::pair<double, double> energy(const Eigen::VectorXd& u);
  // Newton matrix at the last residual point into ws_.A; false with a message on trouble.
  bool assemble(std::string& message);
  void project(Eigen::VectorXd& x) const {
    for (Index i : *fixed_) x[i] = 0.0;
  }
  StepReport fail(StepReport rep, StepStatus status, const std::string& why) const {
    if (opt_.record_residuals) rep.residual_norms = ws_.norms;
    rep.status = status;
    rep.message = std::string(who_) + ": " + why;
    return rep;
  }

  const char* who_;
  const model::DynamicalSystem& sys_;
  const State& in_;
  double h_;
  const VelocityStage& st_;
  const NewtonOptions& opt_;
  Workspace& ws_;
  Index n_;
  Eigen::VectorXd& u0_;  // start velocity (fixed DOFs zeroed when projecting)
  Eigen::VectorXd& c0_;  // constant part of the residual: -h [(1 - w) P0 + G_expl]
  const std::vector<Index>* fixed_ = nullptr;
  std::string what_;  // which evaluation was not finite
  bool use_energy_ = false;
  bool projected_ = false;                  // PSD-projected stiffness: from the options, or after a rejected exact A
  int switched_at_ = -1;                    // the iteration that switched to the projected stiffness, if any
  CsrMatrix& D0_;                           // damping at the start, for the energy's dissipation term
  Eigen::VectorXd &e_tmp_, &e_mix_, &e_q_;  // energy() scratch
};

bool StageSolver::residual(const Eigen::VectorXd& u, Eigen::VectorXd& r) {
  const double tf = in_.t + st_.a * h_;
  ws_.u_mix = st_.c * u + (1.0 - st_.c) * u0_;
  sys_.advance_positions(in_.q, ws_.u_mix, st_.a * h_, ws_.q_f);
  if (!all_finite(ws_.q_f)) return what_ = "positions at the force point", false;
  ws_.v_f = st_.b * u + (1.0 - st_.b) * u0_;
  if (st_.mass_at_force_point) {
    sys_.mass_matrix(tf, ws_.q_f, ws_.M);
  } else if (st_.mass_at_midpoint) {
    ws_.u_mix = 0.5 * (u + u0_);
    sys_.advance_positions(in_.q, ws_.u_mix, 0.5 * h_, e_q_);
    sys_.mass_matrix(in_.t + 0.5 * h_, e_q_, ws_.M);
  }
  if (st_.mass_at_force_point || st_.mass_at_midpoint) {
    require_square(ws_.M, n_, "mass_matrix()");
    if (!all_finite(ws_.M)) return what_ = "mass matrix", false;
  }
  ws_.du = u - u0_;
  csr_multiply(ws_.M, ws_.du, r);
  r += c0_;
  if (st_.w != 0.0) {
    sys_.forces(tf, ws_.q_f, ws_.v_f, st_.gyroscopic_implicit ? model::ForcePart::kAll : model::ForcePart::kElastic,
                ws_.f);
    require_size(ws_.f, n_, "forces()");
    if (!all_finite(ws_.f)) return what_ = "force at the force point", false;
    r -= (h_ * st_.w) * ws_.f;
  }
  project(r);
  if (!all_finite(r)) return what_ = "residual", false;
  return true;
}

std::pair<double, double> StageSolver::energy(const Eigen::VectorXd& u) {
  // E(u) = 1/2 (u-u0)^T M (u-u0) + w/(a c) V(q_f) + h w/(2 b) v_f^T D0 v_f + u . c0, whose
  // gradient is r(u) exactly when F = -grad V - D0 v and M, D0 are constant over the step. Uses
  // its own buffers so that the residual point (q_f, v_f) stays the current iterate's.
  ws_.du = u - u0_;
  csr_multiply(ws_.M, ws_.du, e_tmp_);
  const double kinetic = 0.5 * ws_.du.dot(e_tmp_);
  e_mix_ = st_.c * u + (1.0 - st_.c) * u0_;
  sys_.advance_positions(in_.q, e_mix_, st_.a * h_, e_q_);
  const double potential = st_.w / (st_.a * st_.c) * sys_.potential_energy(in_.t + st_.a * h_, e_q_);
  double dissipation = 0.0;
  if (D0_.nnz() > 0) {
    e_mix_ = st_.b * u + (1.0 - st_.b) * u0_;
    csr_multiply(D0_, e_mix_, e_tmp_);
    dissipation = 0.5 * h_ * st_.w / st_.b * e_mix_.dot(e_tmp_);
  }
  const double linear = u.dot(c0_);
  return {kinetic + potential + dissipation + linear,
          std::fabs(kinetic) + std::fabs(potential) + std::fabs(dissipation) + std::fabs(linear)};
}

bool StageSolver::assemble(std::string& message) {
  // Evaluated at the force point of the last residual() call, i.e. of the current iterate.
  const double tf = in_.t + st_.a * h_;
  const double cK = h_ * h_ * st_.w * st_.a * st_.c, cD = h_ * st_.w * st_.b;
  // Emptied (read as zero when their weight is 0), keeping their storage for the next evaluation.
  for (CsrMatrix* X : {&ws_.K, &ws_.D}) {
    X->rows = X->cols = 0;
    X->row_ptr.assign(1, 0);  // the empty matrix's row_ptr, {0}
    X->col_idx.clear();
    X->values.clear();
  }
  if (cK != 0.0) {
    sys_.stiffness(tf, ws_.q_f, ws_.v_f, projected_, ws_.K);
    require_square(ws_.K, n_, "stiffness()");
    if (!all_finite(ws_.K)) return message = "stiffness matrix K is not finite", false;
  }
  if (cD != 0.0) {
    sys_.damping(tf, ws_.q_f, ws_.v_f, ws_.D);
    require_square(ws_.D, n_, "damping()");
    if (!all_finite(ws_.D)) return message = "damping matrix D is not finite", false;
  }
  combine(n_, {{1.0, &ws_.M}, {cK, &ws_.K}, {cD, &ws_.D}}, opt_.symmetrize, ws_.A);
  pin_fixed(*fixed_, ws_.A, nullptr);
  return true;
}

StepReport StageSolver::run(State& out) {
  StepReport rep;
  // The residual at each iterate, for the round-off test below; kept in the workspace (a step
  // allocates nothing) and copied into the report under NewtonOptions::record_residuals.
  std::vector<double>& history = ws_.norms;
  history.clear();
  const double t = in_.t;
  u0_ = in_.u;
  fixed_ = &checked_fixed_dofs(sys_, who_);
  project(u0_);

  // Start-of-step forces: the explicit part of the residual.
  sys_.forces(t, in_.q, u0_, model::ForcePart::kElastic, ws_.f0);
  sys_.forces(t, in_.q, u0_, model::ForcePart::kGyroscopic, ws_.g0);
  require_size(ws_.f0, n_, "forces(kElastic)");
  require_size(ws_.g0, n_, "forces(kGyroscopic)");
  if (!all_finite(ws_.f0) || !all_finite(ws_.g0))
    return fail(rep, StepStatus::kNonFinite,
                "force at the start of the step (t = " + number_text(t, 4) + ") is not finite");
  c0_ = (-h_ * (1.0 - st_.w)) * ws_.f0;
  c0_ -= (st_.gyroscopic_implicit ? h_ * (1.0 - st_.w) : h_) * ws_.g0;
  if (!st_.mass_at_force_point && !st_.mass_at_midpoint) {
    sys_.mass_matrix(t, in_.q, ws_.M);
    require_square(ws_.M, n_, "mass_matrix()");
    if (!all_finite(ws_.M)) return fail(rep, StepStatus::kNonFinite, "mass matrix at the start is not finite");
  }

  // The incremental potential is a valid merit only where r is its gradient.
  // (A mid-step mass that varies with u, as rigid bodies' does, makes it a close approximation
  // only; the search also accepts any sufficient decrease of |r|, so it stays safe.)
  const bool potential_form = sys_.has_potential() && !st_.mass_at_force_point && st_.a * st_.c > 0.0 && st_.b > 0.0 &&
                              (!st_.gyroscopic_implicit || ws_.g0.norm() == 0.0);
  use_energy_ = potential_form && (opt_.merit == LineSearchMerit::kAuto || opt_.merit == LineSearchMerit::kEnergy);
  if (use_energy_) {
    sys_.damping(t, in_.q, u0_, D0_);
    require_square(D0_, n_, "damping()");
  }
  const bool search = opt_.merit != LineSearchMerit::kNone && !st_.linearly_implicit;

  Eigen::VectorXd& u = ws_.u;
  u = u0_;
  ws_.r.resize(n_);
  if (!residual(u, ws_.r))
    return fail(rep, StepStatus::kNonFinite,
                what_ + " is not finite at the start velocity (t = " + number_text(t, 4) + ")");
  double rnorm = ws_.r.norm();
  history.push_back(rnorm);
  // Round-off floor: r = M (u - u0) - h f cannot be computed more accurately than a few ulps of
  // its largest terms, so a relative tolerance below that would never be met.
  csr_multiply(ws_.M, u0_, ws_.r_trial);
  const double floor =
      100.0 * std::numeric_limits<double>::epsilon() * (ws_.r_trial.norm() + h_ * ws_.f0.norm() + h_ * ws_.g0.norm());
  rep.tolerance = std::max({opt_.absolute_tolerance, opt_.relative_tolerance * rnorm, floor});

  bool at_round_off = false;
  projected_ = opt_.projected_stiffness;
  for (int k = 0;; ++k) {
    rep.residual_norm = rnorm;
    if (st_.linearly_implicit ? k == 1 : rnorm <= rep.tolerance) break;
    // The floor above sees only net forces; element forces that cancel (a stiff FEM body at
    // rest) leave a larger round-off floor. A residual already a million times below its start
    // that stops decreasing under full Newton steps has reached it: converged.
    if (!st_.linearly_implicit && k >= 2 && rnorm <= 1e-6 * history.front() && rnorm > 0.5 * history[k - 1]) {
      at_round_off = true;
      break;
    }
    if (k == opt_.max_iterations) {
      std::string text;
      for (double x : history) text += (text.empty() ? "" : ", ") + number_text(x, 4);
      return fail(rep, StepStatus::kNotConverged,
                  "Newton did not converge in " + std::to_string(k) + " iterations at t = " + number_text(t, 4) +
                      ", h = " + number_text(h_, 4) + ": |r| = " + number_text(rnorm, 4) + " > tolerance " +
                      number_text(rep.tolerance, 4) + " after " + std::to_string(rep.line_search_steps) +
                      " line-search steps (residual history " + text + ")");
    }
    std::string message;
    if (!assemble(message))
      return fail(rep, StepStatus::kNonFinite, message + " at Newton iteration " + std::to_string(k));
    ws_.d = -ws_.r;
    bool solved = factor_and_solve(ws_, opt_.linear_solver, ws_.A, ws_.d, message);
    if (!solved && !projected_) {
      // The exact Hessian made A indefinite: retry, and go on, with the projected stiffness.
      projected_ = true;
      switched_at_ = k;
      if (!assemble(message))
        return fail(rep, StepStatus::kNonFinite, message + " at Newton iteration " + std::to_string(k));
      ws_.d = -ws_.r;
      solved = factor_and_solve(ws_, opt_.linear_solver, ws_.A, ws_.d, message);
    }
    if (!solved)
      return fail(rep, StepStatus::kLinearSolverFailure,
                  "Newton iteration " + std::to_string(k) + " at t = " + number_text(t, 4) + ": " + message);
    ++rep.linear_solves;
    ++rep.iterations;
    project(ws_.d);

    // Backtracking line search (Armijo) on E or on |r|: a step is taken when either decreases
    // enough, so that E steers Newton far from the solution and |r| finishes the job near it.
    const double slope = ws_.r.dot(ws_.d);  // dE/dalpha at 0 when r = grad E
    const bool energy_now = use_energy_ && slope < 0.0;
    std::pair<double, double> e0{0.0, 0.0};
    if (energy_now) e0 = energy(u);
    double alpha = 1.0;
    for (int ls = 0;; ++ls) {
      ws_.u_trial = u + alpha * ws_.d;
      const bool finite = residual(ws_.u_trial, ws_.r_trial);
      const double trial_norm = finite ? ws_.r_trial.norm() : std::numeric_limits<double>::infinity();
      bool accept = !search && finite;
      if (search && finite) {
        // Sufficient decrease of |r| is always accepted: near the solution the energy's change
        // (~|r|^2) drowns in the round-off of its terms, whose size the slack cannot know
        // (1 - cos q near q = 0, for one), while |r| still measures progress.
        accept = trial_norm <= (1.0 - opt_.armijo * alpha) * rnorm;
        if (energy_now && !accept) {
          const auto e1 = energy(ws_.u_trial);
          const double slack = 64.0 * std::numeric_limits<double>::epsilon() * std::max(e0.second, e1.second);
          accept = e1.first <= e0.first + opt_.armijo * alpha * slope + slack;
        }
      }
      if (accept || ls == opt_.max_line_search_steps || !search) {
        if (!finite)
          return fail(rep, StepStatus::kNonFinite,
                      what_ + " is not finite at Newton iteration " + std::to_string(k) + " (t = " + number_text(t, 4) +
                          ", step length " + number_text(alpha, 4) + ")");
        u.swap(ws_.u_trial);
        ws_.r.swap(ws_.r_trial);
        rnorm = trial_norm;
        break;
      }
      alpha *= opt_.backtrack;
      ++rep.line_search_steps;
    }
    history.push_back(rnorm);
  }

  out.t = t + h_;
  out.u = u;
  ws_.u_mix = st_.c_end * u + (1.0 - st_.c_end) * u0_;
  sys_.advance_positions(in_.q, ws_.u_mix, h_, out.q);
  if (!all_finite(out.q) || !all_finite(out.u))
    return fail(rep, StepStatus::kNonFinite, "the new state at t = " + number_text(t + h_, 4) + " is not finite");
  rep.status = StepStatus::kConverged;
  rep.energy_merit = use_energy_;
  if (opt_.record_residuals) rep.residual_norms = history;
  // The figures of a plain convergence are in the report's fields; the account is written only
  // when something unusual happened (a string per step is a measurable share of a rigid step).
  if (at_round_off || switched_at_ >= 0)
    rep.message = std::string(who_) + ": converged in " + std::to_string(rep.iterations) +
                  " iterations, |r| = " + number_text(rnorm, 4) +
                  (at_round_off ? " (stopped at the round-off floor of the residual)" : "") +
                  (switched_at_ >= 0 ? " (exact Newton matrix rejected at iteration " + std::to_string(switched_at_) +
                                           ": projected stiffness from there on)"
                                     : "");
  return rep;
}

}  // namespace

StepReport solve_velocity_stage(const char* who, const model::DynamicalSystem& system, const State& in, double h,
                                const VelocityStage& stage, const NewtonOptions& options, Workspace& ws, State& out) {
  StageSolver solver(who, system, in, h, stage, options, ws);
  return solver.run(out);
}

}  // namespace sinew::integrators::detail
