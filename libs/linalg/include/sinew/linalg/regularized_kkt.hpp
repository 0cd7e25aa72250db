/// @file
/// @brief Softened (regularized) constraints in the KKT system (ArtiSynth notes 0.11) and the
/// dense solve of [M -G^T; G C] by its Schur complement (ArtiSynth notes 0.6).
#pragma once

#include <Eigen/Cholesky>
#include <Eigen/Core>

#include "sinew/core/config.hpp"

namespace sinew {

/// The terms that turn constraints phi(q) = 0 into soft ones with compliance alpha (inverse
/// stiffness) and damping beta, lambda = -alpha^-1 (phi + beta phidot) (ArtiSynth notes 0.11,
/// eq. (0.7)), averaged over a step of size h (eq. (0.8)).
struct SoftConstraintTerms {
  Eigen::VectorXd gamma;       ///< (m) gamma = (1/2 + beta/h)^-1, 2 without damping
  Eigen::VectorXd compliance;  ///< (m) diagonal gamma alpha / h^2 of the constraint block of eq. (0.9)
  Eigen::VectorXd rhs;         ///< (m) constraint right-hand side -gamma phi_k / h of eq. (0.9)
};

/// The softening terms of eq. (0.9) for m constraints. The multiplier solved for with them is
/// the impulse lambda~ = h lambda_bar over the step: multiplying eq. (0.8) by gamma / h gives
/// G v + gamma alpha lambda_bar / h = -gamma phi_k / h (the notes write lambda~ = lambda_bar).
/// @param alpha (m) compliance (inverse stiffness) per constraint, >= 0 (0: a hard constraint)
/// @param beta (m) damping time per constraint, >= 0
/// @param phi (m) constraint values phi_k at the start of the step
/// @param h step size, > 0
/// @throws sinew::Error on a size mismatch, a negative or non-finite alpha or beta, a non-finite
///         phi, or h <= 0.
SoftConstraintTerms soften_constraints(const Eigen::VectorXd& alpha, const Eigen::VectorXd& beta,
                                       const Eigen::VectorXd& phi, double h);

/// Velocities and multipliers that solve a KKT system.
struct KktSolution {
  Eigen::VectorXd v;       ///< (n) velocities (or positions): the first block
  Eigen::VectorXd lambda;  ///< (m) constraint multipliers (impulses): the second block
};

/// Dense factorization and solve of the regularized KKT system (ArtiSynth notes 0.11, eq. (0.9))
///   [ M  -G^T ] [ v      ]   [ b ]
///   [ G   C   ] [ lambda ] = [ c ],   C = diag(compliance) >= 0,
/// by the Schur complement of M, as in ArtiSynth notes 0.6 with the compliance added:
///   (G M^-1 G^T + C) lambda = c - G M^-1 b,   v = M^-1 (b + G^T lambda).
/// With C = 0 it is the hard KKT system (0.3), which needs G of full row rank; a positive
/// compliance makes the Schur complement positive definite even for redundant constraints.
class RegularizedKkt {
 public:
  /// Factors M and the Schur complement.
  /// @param M (n x n) symmetric positive definite
  /// @param G (m x n) constraint Jacobian; m may be 0
  /// @param compliance (m) diagonal of C, >= 0; empty means C = 0
  /// @throws sinew::Error on a size mismatch, non-finite entries, negative compliance, an M that
  ///         is not symmetric positive definite, or a Schur complement that is singular to
  ///         working precision (G rank-deficient where C = 0: its smallest Cholesky pivot is
  ///         below 1e-12 times its largest).
  RegularizedKkt(const Eigen::MatrixXd& M, const Eigen::MatrixXd& G, const Eigen::VectorXd& compliance);

  /// Number n of velocities.
  Index num_velocities() const { return static_cast<Index>(G_.cols()); }
  /// Number m of constraints.
  Index num_constraints() const { return static_cast<Index>(G_.rows()); }

  /// Solves eq. (0.9) for the right-hand side (@p b (n), @p c (m)).
  /// @throws sinew::Error on a size mismatch or non-finite input.
  KktSolution solve(const Eigen::VectorXd& b, const Eigen::VectorXd& c) const;

  /// M^-1 @p x for @p x (n).
  Eigen::VectorXd solve_mass(const Eigen::VectorXd& x) const;

  /// (m x m) Schur complement G M^-1 G^T + C.
  const Eigen::MatrixXd& schur_complement() const { return schur_; }

 private:
  Eigen::MatrixXd G_;                      // (m x n)
  Eigen::LLT<Eigen::MatrixXd> mass_llt_;   // of M (n x n)
  Eigen::MatrixXd schur_;                  // (m x m)
  Eigen::LLT<Eigen::MatrixXd> schur_llt_;  // of schur_
};

}  // namespace sinew
