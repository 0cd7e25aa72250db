/// @file
/// @brief Compliant (soft) bilateral constraints as a diagonal regularization of the local
/// problem (compliant-constraints seed, eq. "generalized constraint" and its alpha/beta average).
///
/// A compliant constraint has lambda = -(phi + d phidot) / c (seed eq. (lambda)) instead of
/// phi = 0. Averaged over a step with the implicit velocity factor alpha and position factor
/// beta, the seed gets  J dv + C avlam / l = -(phi + (d + alpha h) phidot) / l  with
/// l = alpha (h beta + d). In FCLIB's impulse/velocity variables (r = h avlam, u = J v_next,
/// J v_now = phidot) this is the bilateral row
///   u + (c / (h l)) r + [(phi + (d + alpha h) phidot) / l - phidot] = 0,
/// i.e. W_ii += c / (h l) and q_i += (phi + (d + alpha h) phidot) / l - phidot. The Schur
/// complement stays positive definite even for redundant constraints when c > 0.
#pragma once

#include "sinew/constraints/constraint_problem.hpp"

namespace sinew::constraints {

/// Parameters of one compliant bilateral row and of the step it is averaged over.
struct CompliantRow {
  double compliance = 0.0;  ///< c >= 0, inverse stiffness (0: a hard constraint)
  double damping = 0.0;     ///< d >= 0, damping ratio (time) of lambda = -(phi + d phidot)/c
  double phi = 0.0;         ///< constraint value at the start of the step
  double phidot = 0.0;      ///< J v at the start of the step
  double time_step = 0.0;   ///< h, the step size (s), > 0
  double alpha = 1.0;       ///< implicit velocity factor (1: implicit Euler, the seed's stable choice)
  double beta = 1.0;        ///< implicit position factor (1: implicit Euler)
};

/// The diagonal term and free-velocity shift of a compliant row (see the file comment).
struct CompliantTerms {
  double regularization = 0.0;  ///< added to W_ii: c / (h l)
  double shift = 0.0;           ///< added to q_i: (phi + (d + alpha h) phidot) / l - phidot
};

/// Terms of a compliant bilateral row. With c = 0 the row stays hard (terms are 0 and the
/// constraint stabilisation is left to the caller).
/// @throws sinew::Error on non-finite input, c < 0, d < 0, h <= 0, or alpha, beta outside (0, 1].
CompliantTerms compliant_terms(const CompliantRow& row);

/// Adds the terms of @p row to row @p i of @p problem (a bilateral row): W_ii and q_i.
/// @throws sinew::Error when i is out of range, not a bilateral block, or W has no stored (i, i).
void add_compliance(DelassusProblem& problem, Index i, const CompliantRow& row);

/// The force lambda = -(phi + d phidot) / c that a compliant row with impulse @p r over the step
/// stands for: r / h (the average force; seed eq. (lambda) evaluated with the averaged terms).
inline double compliant_force(double r, double h) { return r / h; }

}  // namespace sinew::constraints
