/// @file
/// @brief One step of the realtime hyperelastic paper's non-smooth Newton method (Sec. 5.2-5.4,
/// eqs. (22)-(28)) on a Delassus operator W held on a Backend, reusable by IndicatorNewtonSolver (a
/// loop over it with a line search) and by the constrained local-global integrator, whose W is
/// fixed for a time step while the free velocity q changes every L-G iteration (Algorithm 4).
///
/// Variables are FCLIB's local ones: u = W r + q (m rows, blocks of kinds bilateral, unilateral,
/// circular-cone contact). At (u, r) the per-row indicators omega, e of ncp_indicators.hpp
/// (eqs. (46)-(57)) give the symmetric system of eq. (26) in the coupled rows' multipliers y,
///   (Omega W Omega + E Omega + shift) y = -phi_C - Omega W dr_O,    dr = Omega y + dr_O,
/// solved by a few Jacobi-preconditioned conjugate-residual iterations (indicator_newton_solver.hpp's
/// file comment derives it and explains the decoupled rows O and the proximal shift).
/// The complementarity preconditioner rho of eq. (28) is diag(W) in these variables (W already
/// carries the step's h factors: rho_n = W_nn, rho_t = (W_t1t1 + W_t2t2) / 2); any other
/// positive rho of the same units may be given, e.g. diag(H M^-1 H^T), the mass-inverse choice
/// of Macklin et al. 2019 that the seed compares against in Sec. 7.5 (Fig. 7).
#pragma once

#include <memory>
#include <vector>

#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/ncp_functions.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/linalg/krylov.hpp"
#include "sinew/linalg/linear_operator.hpp"

namespace sinew::constraints {

/// Eq. (28)'s preconditioner from (m) @p diag_w: rho_i = W_ii on bilateral, unilateral and normal
/// rows, the mean of the two tangent diagonals on both friction rows of a contact.
std::vector<double> indicator_preconditioner(const std::vector<double>& diag_w,
                                             const std::vector<ConstraintBlock>& blocks);
/// indicator_preconditioner() into @p rho (storage reused), for a solver that keeps it.
void indicator_preconditioner(const Eigen::VectorXd& diag_w, const std::vector<ConstraintBlock>& blocks,
                              Eigen::VectorXd& rho);

/// Options of one indicator-Newton step.
struct IndicatorStepOptions {
  NcpFunction function = NcpFunction::kFischerBurmeister;  ///< the seed's choice (Sec. 6)
  int cr_iterations = 10;     ///< CR iterations per step (the seed's Table 3 count; see IndicatorNewtonOptions)
  double cr_tolerance = 0.0;  ///< relative CR residual that ends the CR early; 0 = always cr_iterations
};

/// The per-step machinery of the seed's non-smooth Newton method on a Backend (file comment):
/// prepare() once per W, then direction() / step() any number of times with changing q and r.
/// Deterministic (fixed-order backend reductions). Allocates only in prepare() when the number
/// of rows changes.
class IndicatorNewtonStep {
 public:
  /// A step on @p backend (which must outlive it). @throws sinew::Error on bad options or a
  /// backend that runs no host code and has no CUDA indicator kernel.
  explicit IndicatorNewtonStep(Backend& backend, const IndicatorStepOptions& options = {});
  ~IndicatorNewtonStep();
  IndicatorNewtonStep(const IndicatorNewtonStep&) = delete;
  IndicatorNewtonStep& operator=(const IndicatorNewtonStep&) = delete;

  /// Takes @p W (m x m on the step's backend, kept by reference: it must outlive the use and keep
  /// its values), its diagonal @p diag_w (m, host), the row @p blocks (box friction rejected) and
  /// the complementarity preconditioner @p rho (m, host; empty = indicator_preconditioner(diag_w)).
  /// @throws sinew::Error on size mismatches, box friction, or a W_ii or rho_i that is not > 0
  ///         (naming the row: eq. (28) needs them positive).
  void prepare(const DeviceCsr& W, const std::vector<double>& diag_w, const std::vector<ConstraintBlock>& blocks,
               const std::vector<double>& rho = {});
  /// The same with W applied as an operator (m x m, symmetric positive semi-definite, on the
  /// step's backend, kept by reference; its apply() must be deterministic): for a W that is
  /// cheaper to apply as a product of sparse factors than to store, e.g. H A^-1 H^T = (Z F)^T (Z F)
  /// of the local-global integrator. Same checks and throws as the CSR overload.
  void prepare(LinearOperator& W, const std::vector<double>& diag_w, const std::vector<ConstraintBlock>& blocks,
               const std::vector<double>& rho = {});
  /// Number of rows m of the prepared problem.
  Index rows() const;
  /// u = W r + q, all (m) on the backend. Throws sinew::Error before prepare() (as do direction()
  /// and step()).
  void velocity(const DeviceArray<double>& q, const DeviceArray<double>& r, DeviceArray<double>& u);
  /// The Newton direction at (@p u, @p r) (each (m), u = W r + q) into dr(), with the proximal
  /// term @p proximal rho added to the coupled rows' E (0 = the seed's step). Returns CR's result.
  KrylovResult direction(const DeviceArray<double>& u, const DeviceArray<double>& r, double proximal = 0.0);
  /// (m) the last direction.
  const DeviceArray<double>& dr() const;
  /// The seed's undamped step of Algorithm 4 at free velocity @p q: u = W r + q, direction(),
  /// r += dr; then @p u = W r + q at the new r. Returns CR's result (r is updated whatever it is).
  KrylovResult step(const DeviceArray<double>& q, DeviceArray<double>& r, DeviceArray<double>& u);
  /// (m) the preconditioner rho in use (host).
  const std::vector<double>& rho() const;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace sinew::constraints
