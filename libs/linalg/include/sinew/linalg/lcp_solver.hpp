/// @file
/// @brief The abstract LCP solver interface (`LcpSolver`) and its result type.
///
/// Concrete solvers: sinew::PgsLcpSolver (projected Gauss-Seidel, ArtiSynth notes 0.15-0.16) and
/// sinew::LemkeLcpSolver (pivoting, ArtiSynth notes 0.8).
#pragma once

#include <Eigen/Core>
#include <limits>
#include <string>

#include "sinew/linalg/lcp_problem.hpp"

namespace sinew {

/// Outcome of an LCP solve.
enum class LcpStatus {
  kSolved,        ///< the natural residual is within the solver's tolerance
  kNotConverged,  ///< the iteration or pivot limit was reached first; z is the last iterate
  kFailed,        ///< the method stopped without a solution (e.g. ray termination in Lemke)
};

/// Lower-case name of @p status ("solved", "not_converged", "failed").
const char* to_string(LcpStatus status);

/// What an LCP solve did: status, work, accuracy and, when not solved, why.
struct LcpResult {
  LcpStatus status = LcpStatus::kFailed;  ///< outcome
  Index iterations = 0;                   ///< Gauss-Seidel sweeps, or pivots of a pivoting solver
  /// Natural residual ||z - mid(lo, hi, z - w)||_inf at the returned z (see lcp_natural_residual).
  double residual = std::numeric_limits<double>::infinity();
  std::string message;  ///< the reason when status is not solved; empty otherwise

  /// True when status is LcpStatus::kSolved.
  bool solved() const { return status == LcpStatus::kSolved; }
};

/// A solver of standard and box-bounded LCPs.
///
/// The public methods check their input once (sizes, finite values, bounds) and throw
/// sinew::Error on bad input; the protected do_solve of an implementation may then assume valid
/// input. Numerical trouble is never thrown: it is returned in LcpResult.
class LcpSolver {
 public:
  virtual ~LcpSolver() = default;

  /// Short name of the method for logs and messages (e.g. "pgs", "lemke").
  virtual const char* name() const = 0;

  /// Solves the standard LCP w = M z + q, 0 <= z, 0 <= w, z^T w = 0.
  /// @param problem the LCP (M, q), validated here
  /// @param z (0 or n) on entry: empty for a cold start, or n values used as a warm start by
  ///          solvers that take one; (n) on return: the solution or last iterate.
  /// @throws sinew::Error if the problem is invalid or z has a size other than 0 or n.
  LcpResult solve(const LcpProblem& problem, Eigen::VectorXd& z);

  /// Solves the box-bounded LCP (with friction rows) of @p problem; @p z as in the other overload.
  /// @throws sinew::Error if the problem is invalid, z has a size other than 0 or n, or the
  ///         method cannot take the problem's kind of bounds (see the implementation).
  LcpResult solve(const BoxLcpProblem& problem, Eigen::VectorXd& z);

  /// Solves the standard LCP w = M z + q whose matrix is given column by column (ArtiSynth
  /// notes 0.8): a pivoting solver requests only the columns of the variables it brings into its
  /// basis; other solvers assemble M from all n columns first.
  /// @param M column source of order n (a non-finite entry in a column raises sinew::Error)
  /// @param q (n) constant vector
  /// @param z as in the other overloads
  /// @throws sinew::Error on a size mismatch or non-finite input.
  LcpResult solve(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z);

 protected:
  /// Solves the validated problem (M, q, bounds).
  /// @param M (n x n) LCP matrix with finite entries
  /// @param q (n) finite constant vector
  /// @param bounds valid bounds of the n rows, or nullptr for the standard bounds 0 <= z
  /// @param z (n) zeros, or the caller's warm start when @p warm is true; the answer on return
  /// @param warm whether @p z holds the caller's warm start
  virtual LcpResult do_solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpBounds* bounds,
                             Eigen::VectorXd& z, bool warm) = 0;

  /// Solves the standard LCP given by columns, with @p q (n) finite and @p z as in do_solve. The
  /// default assembles M from every column and calls do_solve; pivoting solvers override it.
  virtual LcpResult do_solve_columns(const LcpColumnSource& M, const Eigen::VectorXd& q, Eigen::VectorXd& z, bool warm);
};

}  // namespace sinew
