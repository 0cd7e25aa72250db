// Private helpers of the LCP solvers: number formatting for messages and the rewriting of a
// fixed-bound box LCP as a standard LCP for pivoting.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/number_text.hpp"
#include "sinew/linalg/lcp_problem.hpp"

namespace sinew::detail {

// The box MLCP w = M z + q with fixed bounds lo <= z <= hi, rewritten as a standard LCP
// omega = A zeta + b, 0 <= zeta _|_ omega >= 0, of order N = n + (free rows) + (doubly bounded
// rows). Per row i of the box problem, with sigma the sign of z in zeta:
//   lo finite, hi = +inf:  zeta_i = z_i - lo_i,  omega_i = w_i               (sigma = +1)
//   lo = -inf, hi finite:  zeta_i = hi_i - z_i,  omega_i = -w_i              (sigma = -1)
//   both infinite (free):  z_i = zeta_i - zeta_e, omega_i = w_i, omega_e = -w_i (extra e)
//   both finite:           zeta_i = z_i - lo_i,  omega_i = w_i + zeta_s,
//                          omega_s = hi_i - lo_i - zeta_i                    (extra slack s)
// so the last case gives w_i >= 0 at lo, w_i = -zeta_s <= 0 at hi and w_i = 0 in between, as in
// ArtiSynth notes 0.10, eq. (0.6). A column of A needs one column of M (or none), so pivoting
// stays on demand; A is positive semi-definite when M is ([[E^T M E, J], [-J^T, 0]]).
class BoxLcpExpansion final : public LcpColumnSource {
 public:
  // Keeps references to M and bounds; bounds must be valid and without friction rows.
  // Builds b, which needs M c for the constant part c of z (the columns of rows with c_i != 0).
  BoxLcpExpansion(const LcpColumnSource& M, const Eigen::VectorXd& q, const LcpBounds& bounds);

  Index size() const override { return static_cast<Index>(b_.size()); }
  void column(Index k, Eigen::Ref<Eigen::VectorXd> out) const override;

  // (N) constant vector b of the expanded LCP.
  const Eigen::VectorXd& q() const { return b_; }
  // z (n) of the box problem from zeta (N) of the expanded one.
  void recover(const Eigen::VectorXd& zeta, Eigen::VectorXd& z) const;

 private:
  const LcpColumnSource* M_;
  Index n_ = 0;
  Eigen::VectorXd shift_;          // (n) constant part c of z: lo, hi or 0
  Eigen::VectorXd sign_;           // (n) sigma_i
  std::vector<Index> extra_row_;   // (N - n) the box row of each extra variable
  std::vector<char> extra_split_;  // (N - n) 1: second half of a free variable, 0: slack
  std::vector<Index> extra_of_;    // (n) the extra variable of row i (index in zeta), or -1
  Eigen::VectorXd b_;              // (N)
  mutable Eigen::VectorXd m_col_;  // (n) scratch column of M
};

}  // namespace sinew::detail
