/// @file
/// @brief Projected Gauss-Seidel for standard and box-bounded LCPs with friction boxes
/// (ArtiSynth notes 0.15 and 0.16).
#pragma once

#include <Eigen/Core>

#include "sinew/linalg/lcp_solver.hpp"

namespace sinew {

/// Projected (successive over-relaxed) Gauss-Seidel on w = M z + q.
///
/// Row i of a sweep is the Gauss-Seidel update of ArtiSynth notes 0.15, eq. (0.17), on the
/// Delassus system (0.15), followed by the projection onto the row's bounds:
///   z_i <- mid(lo_i, hi_i, z_i - omega w_i / M_ii),   w = M z + q with the newest z,
/// and on a friction row the bounds are -mu z_n, mu z_n with the newest normal value z_n: the
/// friction step of 0.16 (the impulse that reduces the tangential velocity as much as the limit
/// mu z_n allows), i.e. the box friction conditions of notes 0.10, eq. (0.6).
/// For symmetric positive definite M and 0 < omega < 2 it converges on standard and fixed-box
/// problems (for solvable positive semi-definite ones, such as redundant contacts, to some
/// solution, w being unique); with friction rows it is a fixed-point
/// iteration that usually, but not always, converges (the result says which).
/// The sweep keeps w up to date by column updates, so a sweep costs O(n^2) for dense M.
class PgsLcpSolver final : public LcpSolver {
 public:
  /// Settings of the iteration.
  struct Options {
    /// Sweep limit. PGS converges linearly at a rate set by the conditioning of M; 500 keeps
    /// the cost of a simulation step bounded, and a problem that needs more (ill-conditioned or
    /// strongly coupled friction) is reported as not_converged rather than hidden.
    Index max_iterations = 500;
    /// Stop when the natural residual ||z - mid(lo, hi, z - w)||_inf is at most this. 1e-8 is
    /// far below contact-impulse noise in simulation while leaving headroom above round-off.
    double tolerance = 1e-8;
    /// Relaxation factor in (0, 2): 1 is plain Gauss-Seidel; values below 1 damp the oscillation
    /// of strongly coupled friction rows, values above 1 may speed up frictionless problems.
    double omega = 1.0;
    /// Start from the z passed in (e.g. the previous step's impulses), which usually saves most
    /// sweeps in a simulation; false starts from z = 0 whatever is passed.
    bool warm_start = true;
  };

  /// A solver with default Options.
  PgsLcpSolver();
  /// A solver with @p params; throws sinew::Error unless max_iterations >= 1, tolerance > 0 and
  /// 0 < omega < 2.
  explicit PgsLcpSolver(const Options& params);

  /// The settings in use.
  const Options& options() const { return params_; }
  /// "pgs".
  const char* name() const override { return "pgs"; }

 protected:
  /// Runs the sweeps; throws sinew::Error if a diagonal entry of M is not positive.
  LcpResult do_solve(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const LcpBounds* bounds, Eigen::VectorXd& z,
                     bool warm) override;

 private:
  Options params_;
  Eigen::VectorXd w_;  // (n) w = M z + q, kept current during a sweep; reused between solves
};

}  // namespace sinew
