#include <cmath>
#include <cstdio>

#include "lcp_internal.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::detail {

BoxLcpExpansion::BoxLcpExpansion(const LcpColumnSource& M, const Eigen::VectorXd& q, const LcpBounds& bounds)
    : M_(&M), n_(M.size()) {
  const Eigen::Index n = n_;
  shift_.setZero(n);
  sign_.setOnes(n);
  extra_of_.assign(static_cast<std::size_t>(n), -1);
  for (Index i = 0; i < n_; ++i) {
    const bool has_lo = std::isfinite(bounds.lo[i]);
    const bool has_hi = std::isfinite(bounds.hi[i]);
    if (has_lo) {
      shift_[i] = bounds.lo[i];
    } else if (has_hi) {
      shift_[i] = bounds.hi[i];
      sign_[i] = -1.0;
    }
    if (has_lo == has_hi) {  // free (split) or doubly bounded (slack): one extra variable
      extra_of_[static_cast<std::size_t>(i)] = n_ + static_cast<Index>(extra_row_.size());
      extra_row_.push_back(i);
      extra_split_.push_back(has_lo ? 0 : 1);
    }
  }
  // w at zeta = 0 is M c + q with c the constant part of z.
  Eigen::VectorXd w0 = q;
  m_col_.resize(n);
  for (Index j = 0; j < n_; ++j) {
    if (shift_[j] == 0.0) continue;
    M.column(j, m_col_);
    w0 += shift_[j] * m_col_;
  }
  b_.resize(n + static_cast<Eigen::Index>(extra_row_.size()));
  for (Index i = 0; i < n_; ++i) b_[i] = sign_[i] * w0[i];
  for (std::size_t e = 0; e < extra_row_.size(); ++e) {
    const Index i = extra_row_[e];
    b_[n + static_cast<Eigen::Index>(e)] = extra_split_[e] ? -w0[i] : bounds.hi[i] - bounds.lo[i];
  }
}

void BoxLcpExpansion::column(Index k, Eigen::Ref<Eigen::VectorXd> out) const {
  out.setZero();
  Index row = k;       // box row whose z this variable carries
  double coeff = 1.0;  // coefficient of zeta_k in z_row
  if (k < n_) {
    coeff = sign_[k];
  } else {
    const std::size_t e = static_cast<std::size_t>(k - n_);
    row = extra_row_[e];
    if (!extra_split_[e]) {  // slack of a doubly bounded row: omega_row = w_row + zeta_s
      out[row] = 1.0;
      return;
    }
    coeff = -1.0;
  }
  M_->column(row, m_col_);
  // Rows carrying z: omega_r = s_r w_{i_r}, and w changes by coeff * M(:, row) per unit zeta_k.
  for (Index r = 0; r < n_; ++r) out[r] = sign_[r] * coeff * m_col_[r];
  for (std::size_t e = 0; e < extra_row_.size(); ++e) {
    const Index r = n_ + static_cast<Index>(e);
    const Index i = extra_row_[e];
    if (extra_split_[e]) {
      out[r] = -coeff * m_col_[i];
    } else if (k == i) {  // omega_s = hi - lo - zeta_i
      out[r] = -1.0;
    }
  }
}

void BoxLcpExpansion::recover(const Eigen::VectorXd& zeta, Eigen::VectorXd& z) const {
  z.resize(n_);
  for (Index i = 0; i < n_; ++i) {
    z[i] = shift_[i] + sign_[i] * zeta[i];
    const Index e = extra_of_[static_cast<std::size_t>(i)];
    if (e >= 0 && extra_split_[static_cast<std::size_t>(e - n_)]) z[i] -= zeta[e];
  }
}

}  // namespace sinew::detail
