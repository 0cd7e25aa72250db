// Random LCP, box-LCP and contact problems with fixed seeds, independent reference solutions
// (active-set enumeration, long projected-gradient runs on the equivalent QP, ArtiSynth notes
// 0.3) and checks of the (box) complementarity conditions for the LCP solver tests.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <limits>
#include <random>
#include <sstream>
#include <vector>

#include "sinew/linalg/lcp_problem.hpp"

namespace sinew::test {

constexpr double kInf = std::numeric_limits<double>::infinity();

/// rows x cols matrix with entries uniform in [-1, 1].
inline Eigen::MatrixXd random_matrix(Eigen::Index rows, Eigen::Index cols, std::uint64_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(-1.0, 1.0);
  Eigen::MatrixXd A(rows, cols);
  for (Eigen::Index j = 0; j < cols; ++j)
    for (Eigen::Index i = 0; i < rows; ++i) A(i, j) = u(rng);
  return A;
}

/// n entries uniform in [lo, hi].
inline Eigen::VectorXd random_dense_vector(Eigen::Index n, std::uint64_t seed, double lo = -1.0, double hi = 1.0) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> u(lo, hi);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = u(rng);
  return v;
}

/// Symmetric positive definite n x n matrix with eigenvalues log-spaced in [1, cond].
inline Eigen::MatrixXd random_dense_spd(Eigen::Index n, double cond, std::uint64_t seed) {
  const Eigen::MatrixXd Q = Eigen::HouseholderQR<Eigen::MatrixXd>(random_matrix(n, n, seed)).householderQ();
  Eigen::VectorXd eig(n);
  for (Eigen::Index i = 0; i < n; ++i) eig[i] = n > 1 ? std::pow(cond, double(i) / double(n - 1)) : 1.0;
  Eigen::MatrixXd M = Q * eig.asDiagonal() * Q.transpose();
  return 0.5 * (M + M.transpose());
}

/// Natural residual ||z - mid(lo, hi, z - (M z + q))||_inf computed here, independently of the library.
inline double box_residual(const Eigen::MatrixXd& M, const Eigen::VectorXd& q, const Eigen::VectorXd& lo,
                           const Eigen::VectorXd& hi, const Eigen::VectorXd& z) {
  const Eigen::VectorXd w = M * z + q;
  double r = 0.0;
  for (Eigen::Index i = 0; i < z.size(); ++i) r = std::max(r, std::abs(z[i] - std::clamp(z[i] - w[i], lo[i], hi[i])));
  return r;
}

/// Reference for symmetric positive semi-definite M: projected gradient with step 1/lambda_max
/// on the QP min 1/2 z^T M z + q^T z, lo <= z <= hi, whose KKT conditions are the box LCP
/// (ArtiSynth notes 0.3), run until the natural residual is below 1e-14 (or the iteration cap).
inline Eigen::VectorXd projected_gradient_qp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                             const Eigen::VectorXd& lo, const Eigen::VectorXd& hi,
                                             long max_iterations = 2000000) {
  const double L = Eigen::SelfAdjointEigenSolver<Eigen::MatrixXd>(M).eigenvalues().maxCoeff();
  Eigen::VectorXd z = Eigen::VectorXd::Zero(q.size()).cwiseMax(lo).cwiseMin(hi);
  for (long k = 0; k < max_iterations; ++k) {
    z = (z - (M * z + q) / L).cwiseMax(lo).cwiseMin(hi);
    if (k % 50 == 0 && box_residual(M, q, lo, hi, z) < 1e-14) break;
  }
  return z;
}

/// Reference for the standard LCP with symmetric positive semi-definite M (see projected_gradient_qp).
inline Eigen::VectorXd projected_gradient_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q) {
  return projected_gradient_qp(M, q, Eigen::VectorXd::Zero(q.size()), Eigen::VectorXd::Constant(q.size(), kInf));
}

/// All solutions of the box LCP found by enumerating, for every row, "at lo", "at hi" or
/// "free" (3^n cases; rows with an infinite bound skip that case) and solving the free rows
/// exactly; duplicates are merged. For a P-matrix M there is exactly one. Works for any M.
inline std::vector<Eigen::VectorXd> enumerate_box_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                                      const Eigen::VectorXd& lo, const Eigen::VectorXd& hi) {
  const Eigen::Index n = q.size();
  std::vector<Eigen::VectorXd> found;
  std::vector<int> state(static_cast<std::size_t>(n), 0);  // 0 free, 1 at lo, 2 at hi
  const double tol = 1e-10;
  while (true) {
    bool valid = true;
    for (Eigen::Index i = 0; i < n; ++i)
      valid = valid && !(state[i] == 1 && !std::isfinite(lo[i])) && !(state[i] == 2 && !std::isfinite(hi[i]));
    if (valid) {
      Eigen::VectorXd z = Eigen::VectorXd::Zero(n);
      std::vector<Eigen::Index> F;
      for (Eigen::Index i = 0; i < n; ++i) {
        if (state[i] == 0) F.push_back(i);
        if (state[i] == 1) z[i] = lo[i];
        if (state[i] == 2) z[i] = hi[i];
      }
      const Eigen::Index k = static_cast<Eigen::Index>(F.size());
      bool ok = true;
      if (k > 0) {
        Eigen::MatrixXd A(k, k);
        Eigen::VectorXd rhs(k);
        const Eigen::VectorXd w_fixed = M * z + q;
        for (Eigen::Index a = 0; a < k; ++a) {
          rhs[a] = -w_fixed[F[a]];
          for (Eigen::Index b = 0; b < k; ++b) A(a, b) = M(F[a], F[b]);
        }
        const Eigen::FullPivLU<Eigen::MatrixXd> lu(A);
        ok = lu.isInvertible();
        if (ok) {
          const Eigen::VectorXd zF = lu.solve(rhs);
          for (Eigen::Index a = 0; a < k; ++a) z[F[a]] = zF[a];
        }
      }
      if (ok && box_residual(M, q, lo, hi, z) < tol && (z - z.cwiseMax(lo).cwiseMin(hi)).norm() < tol) {
        const bool dup = std::any_of(found.begin(), found.end(), [&](const Eigen::VectorXd& s) {
          return (s - z).lpNorm<Eigen::Infinity>() < 1e-8 * (1.0 + z.lpNorm<Eigen::Infinity>());
        });
        if (!dup) found.push_back(z);
      }
    }
    Eigen::Index i = 0;
    while (i < n && state[i] == 2) state[i++] = 0;
    if (i == n) break;
    ++state[i];
  }
  return found;
}

/// Which branch of the box conditions each row took, counted by satisfies_box_conditions.
struct BoxBranches {
  int at_lower = 0;   ///< z_i = lo_i < hi_i, w_i >= 0
  int at_upper = 0;   ///< z_i = hi_i > lo_i, w_i <= 0
  int interior = 0;   ///< lo_i < z_i < hi_i, w_i = 0
  int collapsed = 0;  ///< lo_i = hi_i = z_i (e.g. friction of an open contact), any w_i
};

/// The box-MLCP conditions (ArtiSynth notes 0.10, eq. (0.6)) row by row with bounds evaluated at
/// z (friction rows: -mu z_n, mu z_n), to tolerance @p tol; fills @p branches when given.
inline ::testing::AssertionResult satisfies_box_conditions(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                                           const LcpBounds& bounds, const Eigen::VectorXd& z,
                                                           double tol, BoxBranches* branches = nullptr) {
  const Eigen::VectorXd w = M * z + q;
  BoxBranches count;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    const double lo = bounds.lower(static_cast<Index>(i), z), hi = bounds.upper(static_cast<Index>(i), z);
    std::ostringstream where;
    where << "row " << i << ": z = " << z[i] << ", w = " << w[i] << ", bounds [" << lo << ", " << hi << "]";
    if (z[i] < lo - tol || z[i] > hi + tol) return ::testing::AssertionFailure() << where.str() << ": z outside";
    const bool at_lo = z[i] <= lo + tol, at_hi = z[i] >= hi - tol;
    if (at_lo && at_hi) {
      ++count.collapsed;
    } else if (at_lo) {
      if (w[i] < -tol) return ::testing::AssertionFailure() << where.str() << ": at lower bound with w < 0";
      ++count.at_lower;
    } else if (at_hi) {
      if (w[i] > tol) return ::testing::AssertionFailure() << where.str() << ": at upper bound with w > 0";
      ++count.at_upper;
    } else {
      if (std::abs(w[i]) > tol) return ::testing::AssertionFailure() << where.str() << ": interior with w != 0";
      ++count.interior;
    }
  }
  if (branches) *branches = count;
  return ::testing::AssertionSuccess();
}

/// z >= 0, w = M z + q >= 0 and z_i w_i = 0 row by row, each to tolerance @p tol.
inline ::testing::AssertionResult satisfies_lcp(const Eigen::MatrixXd& M, const Eigen::VectorXd& q,
                                                const Eigen::VectorXd& z, double tol) {
  const Eigen::VectorXd w = M * z + q;
  for (Eigen::Index i = 0; i < z.size(); ++i) {
    if (z[i] < -tol || w[i] < -tol || std::abs(z[i] * w[i]) > tol * (1.0 + std::abs(z[i]) + std::abs(w[i])))
      return ::testing::AssertionFailure() << "row " << i << ": z = " << z[i] << ", w = " << w[i];
  }
  return ::testing::AssertionSuccess();
}

/// A contact system in Delassus form: nc contacts, each a normal row and two tangent rows
/// (rows 3c, 3c+1, 3c+2), W = J Minv J^T for a random J (3 nc x ndof) and diagonal masses in
/// [1, 2], q = J v_free with a random free velocity; the tangent rows are friction rows with
/// coefficient mu bounded by their normal. ndof >= 3 nc makes W positive definite.
inline BoxLcpProblem random_contact_problem(Eigen::Index nc, Eigen::Index ndof, double mu, std::uint64_t seed) {
  const Eigen::MatrixXd J = random_matrix(3 * nc, ndof, seed);
  const Eigen::VectorXd minv = random_dense_vector(ndof, seed + 1, 0.5, 1.0);
  BoxLcpProblem p;
  p.M = J * minv.asDiagonal() * J.transpose();
  p.q = J * random_dense_vector(ndof, seed + 2);
  p.bounds = LcpBounds::standard(static_cast<Index>(3 * nc));
  for (Eigen::Index c = 0; c < nc; ++c) {
    p.bounds.set_friction(static_cast<Index>(3 * c + 1), static_cast<Index>(3 * c), mu);
    p.bounds.set_friction(static_cast<Index>(3 * c + 2), static_cast<Index>(3 * c), mu);
  }
  return p;
}

}  // namespace sinew::test
