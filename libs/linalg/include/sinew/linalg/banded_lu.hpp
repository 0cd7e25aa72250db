/// @file
/// @brief BandedLu: LU with partial pivoting of a square banded matrix in band storage (LAPACK's
/// gbtf2 / gbtrs, unblocked), for small bands solved step after step without allocating.
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"

namespace sinew {

/// A square n x n matrix with lower and upper bandwidth b (A(i, j) = 0 for |i - j| > b), filled
/// entry by entry, factored in place as P A = L U with partial pivoting within the band (U's upper
/// bandwidth grows to 2 b), and solved: O(n b^2) to factor, O(n b) per solve. Its storage is kept
/// from one resize() to the next of no larger size, so a caller that refills and refactors it
/// every step allocates nothing. Not safe to use concurrently.
class BandedLu {
 public:
  /// Sizes for an n x n matrix of bandwidth @p bandwidth (>= 0) and sets every entry to zero.
  void resize(Index n, Index bandwidth);
  /// Sets every entry to zero (before refilling), keeping the size.
  void set_zero();
  /// Entry (i, j), |i - j| <= bandwidth(), of the matrix before factor() (unchecked).
  double& operator()(Index i, Index j) { return storage_[static_cast<std::size_t>(2 * band_ + i - j + j * ld_)]; }
  /// Factors the matrix in place; false (the factors then unusable) on a zero pivot.
  bool factor();
  /// @p x <- A^-1 @p x (n entries) on the factors of the last successful factor().
  void solve(Eigen::VectorXd& x) const;
  /// n.
  Index rows() const { return n_; }
  /// The bandwidth b.
  Index bandwidth() const { return band_; }

 private:
  double entry(Index i, Index j) const { return storage_[static_cast<std::size_t>(2 * band_ + i - j + j * ld_)]; }

  Index n_ = 0, band_ = 0, ld_ = 1;  // ld_ = 3 b + 1: the band and room for the fill pivoting adds
  std::vector<double> storage_;      // ld_ x n, column-major (LAPACK's layout, kl = ku = b)
  std::vector<Index> pivots_;        // row interchanges of factor()
};

}  // namespace sinew
