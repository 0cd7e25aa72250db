/// @file
/// @brief Non-smooth Newton on the NCP reformulation of the local problem (realtime paper
/// Sec. 5.1-5.4, Algorithm 3's inner step): Fischer-Burmeister or min-map, complementarity
/// preconditioner from diag(W) (eq. (28)), conjugate residual in constraint space on a Backend.
#pragma once

#include <memory>

#include "sinew/constraints/constraint_solver.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/linalg/krylov.hpp"

namespace sinew::constraints {

/// Options of NewtonSolver.
struct NewtonOptions {
  ConstraintSolverOptions stop{1e-8, 100};  ///< tolerance and Newton-step limit (100: generous for FB/min-map)
  NcpFunction function = NcpFunction::kFischerBurmeister;  ///< the seed's choice (Sec. 6)
  /// Conjugate-residual stopping rule per Newton step; 1e-10 keeps the inexact Newton step
  /// accurate enough for the outer tolerance on the well-conditioned preconditioned system.
  KrylovOptions krylov{1e-10, 500, false};
  /// Backtracking halvings on the merit 1/2 ||phi||^2 (Armijo, sigma = 1e-4); 0 = full steps
  /// (the seed's undamped iteration).
  int line_search_steps = 20;
};

/// Non-smooth Newton. Per step, with u = W r + q and per-row (phi, omega, e) from
/// ncp_functions.hpp, it solves the generalized Newton system (Omega W + E) dr = -phi in the
/// symmetric form of the seed's eq. (26): rows with omega = 0 give dr_i = -phi_i / e_i
/// directly; the others, with dr = Omega y there,
///   (Omega W Omega + diag(e omega)) y = -phi - Omega W dr_0,
/// where dr_0 holds the direct rows (identity on direct rows). For min-map (omega in {0, 1})
/// this is exactly the seed's Omega W Omega^T + E. The operator is applied matrix-free on the
/// backend (SpMV with W, formed once per solve, and diagonal scalings), solved by
/// ConjugateResidual with the Jacobi preconditioner diag(omega^2 W_ii + e omega). A backtracking
/// line search on 1/2 ||phi||^2 damps the step. The NCP evaluation is a host loop over the
/// SINEW_HD per-contact functions. Handles bilateral, unilateral and circular-cone contacts;
/// requires W_ii > 0 (eq. (28)).
class NewtonSolver final : public ConstraintSolver {
 public:
  /// A solver whose Krylov vectors live on @p backend (which must outlive it).
  explicit NewtonSolver(Backend& backend, const NewtonOptions& options = {});
  ~NewtonSolver() override;
  std::string name() const override;

 protected:
  SolverReport do_solve(const DelassusProblem& problem, Eigen::VectorXd& r) override;
  void check_supported(const DelassusProblem& problem) const override;

 private:
  Backend* backend_;
  NewtonOptions options_;
  ConjugateResidual cr_;
};

}  // namespace sinew::constraints
