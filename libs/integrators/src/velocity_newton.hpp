// Private to the integrators library: the Newton solve of an implicit velocity update shared by
// implicit Euler, trapezoidal, the theta-method and the compliant alpha/beta scheme, and the
// small matrix helpers the explicit schemes share with it.
#pragma once

#include <Eigen/Core>
#include <initializer_list>
#include <memory>
#include <string>
#include <vector>

#include "sinew/core/number_text.hpp"
#include "sinew/integrators/integrator.hpp"
#include "sinew/integrators/newton_options.hpp"

namespace sinew::integrators::detail {

// One implicit velocity update, written for the unknown end velocity u (all schemes of this
// library that need Newton are instances):
//   q_f(u) = q0 (+) h a (c u + (1 - c) u0)                  force configuration
//   v_f(u) = b u + (1 - b) u0                               force velocity
//   r(u)   = M (u - u0) - h [ w P(t + a h, q_f, v_f) + (1 - w) P(t, q0, u0) ] - h G_expl
//   q1     = q0 (+) h (c_end u + (1 - c_end) u0)
// where P is F (elastic part) or F + G, and G_expl = G(t, q0, u0) when G is explicit. Fixed
// velocity DOFs (DynamicalSystem::fixed_velocity_dofs) stay zero in every scheme. Its
// Jacobian, dropping dM/dq and dG/du (both O(h) smaller, theta-method Theorem 1), is
//   A = M + h^2 w a c K(q_f, v_f) + h w b D(q_f, v_f)       (theta-method eq. expression_for_A).
struct VelocityStage {
  double a = 1.0;                    // position weight of the force point
  double c = 1.0;                    // velocity mix of the force point's position
  double b = 1.0;                    // velocity weight of the force point
  double w = 1.0;                    // weight of the implicit force (1 - w: force at the start)
  double c_end = 1.0;                // velocity mix of the end positions
  bool gyroscopic_implicit = true;   // G inside P (weighted) rather than explicit at the start
  bool mass_at_force_point = false;  // M(q_f) (theta-method) instead of M(q0)
  bool mass_at_midpoint = false;     // M(q0 (+) h/2 (u + u0)/2): keeps the trapezoidal rule second
                                     // order when M depends on q (rigid bodies in world axes)
  bool linearly_implicit = false;    // one Newton step, accepted as the scheme's answer
};

// Solver and buffers reused between steps.
struct Workspace {
  std::unique_ptr<LinearSolver> solver;
  LinearSolverKind solver_kind = LinearSolverKind::kEigenLdlt;
  std::vector<Index> pattern_row_ptr, pattern_col_idx;  // pattern of the last factored matrix
  CsrMatrix M, K, D, A;
  Eigen::VectorXd f0, g0, f, r, d, u_trial, r_trial, v_f, q_f, u_mix;
  // The Newton solve's own state, kept between steps so that a step allocates nothing.
  Eigen::VectorXd u, u0, c0, du, e_tmp, e_mix, e_q;
  CsrMatrix D0;
  std::vector<double> norms;  // the residual history when the report does not keep it
};

// Solves the stage by Newton with a backtracking line search; fills out (t + h, q1, u) on
// success. Never throws for numerical trouble: the report says what happened.
// @p who names the integrator in messages.
StepReport solve_velocity_stage(const char* who, const model::DynamicalSystem& system, const State& in, double h,
                                const VelocityStage& stage, const NewtonOptions& options, Workspace& ws, State& out);

// A = sum_k s_k B_k of square n x n matrices (an empty 0 x 0 matrix counts as zero), optionally
// symmetrized; throws sinew::Error on a size mismatch naming the matrix.
void combine(Index n, std::initializer_list<std::pair<double, const CsrMatrix*>> terms, bool symmetrize, CsrMatrix& A);

// P A P + (I - P) and P b for the projection P onto the free DOFs: identity rows and columns and
// a zero right-hand side on the @p fixed DOFs, so that a solve leaves them at zero
// (compliant-constraints Sec. 3). @p b may be null.
void pin_fixed(const std::vector<Index>& fixed, CsrMatrix& A, Eigen::VectorXd* b);

// The system's fixed velocity DOFs, checked to lie in [0, n); @p who names the integrator.
const std::vector<Index>& checked_fixed_dofs(const model::DynamicalSystem& system, const char* who);

// Factors A with the workspace's solver (made on first use) and solves A x = b in place (@p x
// holds b on entry). Returns false with a message when the solver rejects A or the solution is
// not finite.
bool factor_and_solve(Workspace& ws, LinearSolverKind kind, const CsrMatrix& A, Eigen::VectorXd& x,
                      std::string& message);

// True when every entry is finite.
inline bool all_finite(const Eigen::VectorXd& x) { return x.allFinite(); }
// True when every stored entry is finite.
bool all_finite(const CsrMatrix& A);

// Throws sinew::Error unless x has n entries; @p what names the quantity and who returned it.
void require_size(const Eigen::VectorXd& x, Index n, const char* what);
// Throws sinew::Error unless A is n x n (or 0 x 0 with no entries, read as zero).
void require_square(const CsrMatrix& A, Index n, const char* what);

}  // namespace sinew::integrators::detail
