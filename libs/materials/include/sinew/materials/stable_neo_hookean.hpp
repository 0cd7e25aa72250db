/// @file
/// @brief Stable Neo-Hookean elasticity (Smith, de Goes and Kim 2018), robust to inversion.
#pragma once

#include <cmath>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/materials/elastic_parameters.hpp"
#include "sinew/materials/mat3_ops.hpp"
#include "sinew/materials/small_dense.hpp"

namespace sinew {

/// Stable Neo-Hookean (Smith, de Goes and Kim 2018, "Stable Neo-Hookean flesh simulation",
/// final energy of its section 3): Psi(F) = mu'/2 (I_C - 3) + lambda'/2 (J - alpha)^2 - mu'/2 log(I_C + 1) - Psi_0,
/// with I_C = ||F||^2, J = det F and alpha = 1 + 3 mu' / (4 lambda') so that the rest state is stress-free. The log has
/// no pole and J enters polynomially, so the energy, stress and Hessian are finite for flat (J = 0) and inverted (J <
/// 0) elements.
///
/// The model takes the usual Lame parameters (mu, lambda) and uses the paper's reparametrization
/// (the paper's Lame reparametrization) mu' = 4/3 mu, lambda' = lambda + 5/6 mu, which makes its small-strain
/// response equal to linear elasticity with (mu, lambda). The constant Psi_0 = Psi(I) is
/// subtracted so that the rest energy is zero (it changes no force).
struct StableNeoHookean {
  /// The paper's own parameters, derived from the Lame parameters.
  struct Internal {
    double mu;      ///< mu' = 4/3 mu
    double lambda;  ///< lambda' = lambda + 5/6 mu (> 0 for every nu in (-1, 0.5))
    double alpha;   ///< alpha = 1 + 3 mu' / (4 lambda'), the rest-stability shift of J
  };

  /// mu', lambda' and alpha for Lame (mu, lambda).
  static SINEW_HD Internal internal_parameters(const LameParameters& p) {
    const double mu = 4.0 / 3.0 * p.mu, lambda = p.lambda + 5.0 / 6.0 * p.mu;
    return Internal{mu, lambda, 1.0 + 0.75 * mu / lambda};
  }

  /// Energy density Psi(F) per unit rest volume (zero at F = I).
  static SINEW_HD double energy(const Mat3& F, const LameParameters& p) {
    const Internal q = internal_parameters(p);
    const double mu = q.mu, lambda = q.lambda, alpha = q.alpha;
    const double Ic = frobenius_norm2(F), dJ = determinant(F) - alpha;
    const double rest = 0.5 * lambda * (1.0 - alpha) * (1.0 - alpha) - 0.5 * mu * log(4.0);
    return 0.5 * mu * (Ic - 3.0) + 0.5 * lambda * dJ * dJ - 0.5 * mu * log(Ic + 1.0) - rest;
  }

  /// First Piola-Kirchhoff stress P = mu' (1 - 1/(I_C + 1)) F + lambda' (J - alpha) cof(F),
  /// cof(F) = dJ/dF from cofactor().
  static SINEW_HD Mat3 stress(const Mat3& F, const LameParameters& p) {
    const Internal q = internal_parameters(p);
    const double mu = q.mu, lambda = q.lambda, alpha = q.alpha;
    const double Ic = frobenius_norm2(F);
    return mat3_axpby(mu * (1.0 - 1.0 / (Ic + 1.0)), F, lambda * (determinant(F) - alpha), cofactor(F));
  }

  /// dP/dF (9x9, row-major vec(F) order): dP = mu' (1 - 1/(I_C+1)) dF + 2 mu' (F:dF)/(I_C+1)^2 F
  /// + lambda' (cof(F):dF) cof(F) + lambda' (J - alpha) d cof(F)[dF]. Indefinite under strong compression and
  /// inversion.
  static SINEW_HD Mat9 hessian(const Mat3& F, const LameParameters& p) {
    const Internal q = internal_parameters(p);
    const double mu = q.mu, lambda = q.lambda, alpha = q.alpha;
    const double Ic = frobenius_norm2(F), dJ = determinant(F) - alpha;
    const Mat3 C = cofactor(F);
    Mat9 H{};
    for (int k = 0; k < 9; ++k) {
      const Mat3 dF = basis3(k);
      Mat3 dP = mat3_axpby(mu * (1.0 - 1.0 / (Ic + 1.0)), dF, 2.0 * mu * ddot(F, dF) / ((Ic + 1.0) * (Ic + 1.0)), F);
      dP = mat3_add(dP, mat3_axpby(lambda * ddot(C, dF), C, lambda * dJ, cofactor_differential(F, dF)));
      for (int i = 0; i < 9; ++i) H(i, k) = dP.m[i];
    }
    return H;
  }
};

}  // namespace sinew
