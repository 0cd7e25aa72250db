#include "sinew/linalg/banded_lu.hpp"

#include <algorithm>
#include <cmath>
#include <utility>

#include "sinew/core/error.hpp"

namespace sinew {

void BandedLu::resize(Index n, Index bandwidth) {
  require(n >= 0 && bandwidth >= 0, "BandedLu: the size and the bandwidth must be >= 0");
  n_ = n;
  band_ = bandwidth;
  ld_ = 3 * bandwidth + 1;
  storage_.assign(static_cast<std::size_t>(ld_ * n), 0.0);
  pivots_.resize(static_cast<std::size_t>(n));
}

void BandedLu::set_zero() { std::fill(storage_.begin(), storage_.end(), 0.0); }

bool BandedLu::factor() {
  const Index kl = band_, ku = band_;
  BandedLu& A = *this;
  Index ju = 0;  // the last column that row interchanges have reached
  for (Index j = 0; j < n_; ++j) {
    const Index km = std::min(kl, n_ - 1 - j);
    Index jp = j;
    double largest = std::fabs(A(j, j));
    for (Index i = j + 1; i <= j + km; ++i)
      if (std::fabs(A(i, j)) > largest) largest = std::fabs(A(i, j)), jp = i;
    pivots_[static_cast<std::size_t>(j)] = jp;
    if (largest == 0.0) return false;
    ju = std::max(ju, std::min(jp + ku, n_ - 1));
    if (jp != j)
      for (Index c = j; c <= ju; ++c) std::swap(A(j, c), A(jp, c));
    const double inverse = 1.0 / A(j, j);
    for (Index i = j + 1; i <= j + km; ++i) A(i, j) *= inverse;
    for (Index c = j + 1; c <= ju; ++c) {
      const double a = A(j, c);
      if (a != 0.0)
        for (Index i = j + 1; i <= j + km; ++i) A(i, c) -= A(i, j) * a;
    }
  }
  return true;
}

void BandedLu::solve(Eigen::VectorXd& x) const {
  const Index kl = band_, kv = 2 * band_;
  for (Index j = 0; j < n_; ++j) {  // the interchanges and L
    const Index jp = pivots_[static_cast<std::size_t>(j)];
    if (jp != j) std::swap(x[j], x[jp]);
    for (Index i = j + 1; i <= std::min(j + kl, n_ - 1); ++i) x[i] -= entry(i, j) * x[j];
  }
  for (Index j = n_ - 1; j >= 0; --j) {  // U, upper bandwidth kl + ku
    x[j] /= entry(j, j);
    for (Index i = std::max<Index>(0, j - kv); i < j; ++i) x[i] -= entry(i, j) * x[j];
  }
}

}  // namespace sinew
