#include "sinew/constraints/newton_solver.hpp"

#include <Eigen/Dense>
#include <Eigen/SparseCore>
#include <Eigen/SparseLU>
#include <algorithm>
#include <charconv>
#include <cmath>

#include "newton_globalization.hpp"
#include "sinew/constraints/indicator_newton_step.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/banded_lu.hpp"

namespace sinew::constraints {

namespace {

using ColMatrix = Eigen::SparseMatrix<double, Eigen::ColMajor, Index>;

// Up to this many rows kAuto forms the Newton matrix densely: 16 contacts, where a dense LU
// (m^3 / 3 flops) still costs less than SparseLU's ordering and symbolic analysis.
constexpr Index kDenseLuRows = 48;

// Omega and E of eq. (25) with one dense block per problem block (1x1 or 3x3), stored row-major
// block after block: exactly the value order of a CSR matrix with that block-diagonal pattern.
struct BlockJacobian {
  std::vector<Index> row, size, value;  // per block: first row, size, first value
  std::vector<double> omega, e;         // concatenated row-major blocks
};

// The (zero) blocks of @p p's Jacobian into @p J, whose storage is reused.
void make_block_jacobian(const DelassusProblem& p, BlockJacobian& J) {
  J.row.clear();
  J.size.clear();
  J.value.clear();
  Index row = 0, v = 0;
  for (const ConstraintBlock& block : p.blocks) {
    const Index s = block_size(block.kind);
    J.row.push_back(row);
    J.size.push_back(s);
    J.value.push_back(v);
    row += s;
    v += s * s;
  }
  J.omega.assign(static_cast<std::size_t>(v), 0.0);
  J.e.assign(static_cast<std::size_t>(v), 0.0);
}

// The block-diagonal pattern of J as a CSR matrix with the given values.
CsrMatrix block_diagonal_csr(const BlockJacobian& J, Index m, const std::vector<double>& values) {
  CsrMatrix C;
  C.rows = C.cols = m;
  C.row_ptr.assign(1, 0);
  for (std::size_t b = 0; b < J.row.size(); ++b)
    for (Index i = 0; i < J.size[b]; ++i) {
      for (Index j = 0; j < J.size[b]; ++j) C.col_idx.push_back(J.row[b] + j);
      C.row_ptr.push_back(static_cast<Index>(C.col_idx.size()));
    }
  C.values = values;
  return C;
}

// Per-block NCP values and Jacobian blocks at (u, r); returns 1/2 ||phi||^2.
double evaluate(const DelassusProblem& p, const Eigen::VectorXd& rho, NcpFunction fn, const Eigen::VectorXd& u,
                const Eigen::VectorXd& r, Eigen::VectorXd& phi, BlockJacobian& J) {
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = J.row[b];
    double* om = J.omega.data() + J.value[b];
    double* e = J.e.data() + J.value[b];
    if (p.blocks[b].kind == BlockKind::kBilateral) {
      phi[i] = u[i];
      *om = 1.0;
      *e = 0.0;
    } else if (p.blocks[b].kind == BlockKind::kUnilateral) {
      NcpRow row;
      unilateral_ncp(fn, u[i], r[i], rho[i], row);
      phi[i] = row.phi;
      *om = row.omega;
      *e = row.e;
    } else {
      NcpContact c;
      contact_ncp(fn, u.data() + i, r.data() + i, p.blocks[b].mu, rho[i], rho[i + 1], c);
      for (int k = 0; k < 3; ++k) phi[i + k] = c.phi[k];
      for (int k = 0; k < 9; ++k) {
        om[k] = c.omega[k];
        e[k] = c.e[k];
      }
    }
  }
  return 0.5 * phi.squaredNorm();
}

// y = (Omega W + E) P^-1 x on the backend, P^-1 the inverses of the diagonal blocks of
// Omega W + E: right preconditioning, so BiCGSTAB's residual is the true Newton residual.
class PreconditionedJacobian final : public LinearOperator {
 public:
  PreconditionedJacobian(Backend& backend, const DeviceCsr& W, const DeviceCsr& omega, const DeviceCsr& e,
                         const DeviceCsr& pinv, DeviceArray<double>& t1, DeviceArray<double>& t2)
      : be_(&backend), W_(&W), omega_(&omega), e_(&e), pinv_(&pinv), t1_(&t1), t2_(&t2) {}
  Index rows() const override { return W_->rows; }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    be_->spmv(1.0, *pinv_, Op::kNoTranspose, x, 0.0, *t1_);   // t1 = P^-1 x
    be_->spmv(1.0, *W_, Op::kNoTranspose, *t1_, 0.0, *t2_);   // t2 = W t1
    be_->spmv(1.0, *omega_, Op::kNoTranspose, *t2_, 0.0, y);  // y = Omega W t1
    be_->spmv(1.0, *e_, Op::kNoTranspose, *t1_, 1.0, y);      // y += E t1
  }

 private:
  Backend* be_;
  const DeviceCsr *W_, *omega_, *e_, *pinv_;
  DeviceArray<double>*t1_, *t2_;
};

// BiCGSTAB (van der Vorst 1992) for non-symmetric A, on the backend's vectors. Preconditioning
// is left to the operator (see PreconditionedJacobian); an inverse diagonal, if given, is ignored.
class BiCgStab final : public KrylovSolver {
 public:
  using KrylovSolver::KrylovSolver;
  std::string name() const override { return "bicgstab"; }

 protected:
  void iterate(LinearOperator& A, const DeviceArray<double>&, DeviceArray<double>& x, const KrylovOptions& options,
               const DeviceArray<double>*, double b_norm, KrylovResult& result) override {
    Backend& be = *backend_;
    DeviceArray<double>&r = work(0), &r0 = work(2), &p = work(3), &v = work(4), &s = work(5), &t = work(6);
    be.copy(r, r0);
    be.fill(p, 0.0);
    be.fill(v, 0.0);
    double rho_old = 1.0, alpha = 1.0, omega = 1.0;
    for (int it = 0; it < options.max_iterations; ++it) {
      const double rho = be.dot(r0, r);
      if (rho == 0.0 || !std::isfinite(rho)) return breakdown(result, "r0^T r", rho);
      const double beta = (rho / rho_old) * (alpha / omega);
      be.axpby(-omega, v, 1.0, p);  // p = r + beta (p - omega v)
      be.axpby(1.0, r, beta, p);
      A.apply(p, v);
      const double r0v = be.dot(r0, v);
      if (r0v == 0.0 || !std::isfinite(r0v)) return breakdown(result, "r0^T A p", r0v);
      alpha = rho / r0v;
      be.copy(r, s);
      be.axpby(-alpha, v, 1.0, s);
      be.axpby(alpha, p, 1.0, x);
      const double s_norm = be.nrm2(s);
      if (s_norm / b_norm <= options.tolerance) {
        be.copy(s, r);
        record(s_norm / b_norm, options, result);
        return;
      }
      A.apply(s, t);
      const double tt = be.dot(t, t);
      if (!(tt > 0.0)) return breakdown(result, "(A s)^T (A s)", tt);
      omega = be.dot(t, s) / tt;
      be.axpby(omega, s, 1.0, x);
      be.copy(s, r);
      be.axpby(-omega, t, 1.0, r);
      if (record(be.nrm2(r) / b_norm, options, result)) return;
      if (omega == 0.0) return breakdown(result, "omega", omega);
      rho_old = rho;
    }
  }

 private:
  static void breakdown(KrylovResult& result, const std::string& what, double value) {
    result.status = std::isfinite(value) ? KrylovStatus::kBreakdown : KrylovStatus::kNonFinite;
    result.message = what + " = " + number_text(value) + " at iteration " + std::to_string(result.iterations + 1);
  }
};

// y += A x or A^T x for the block-diagonal A of @p J (values @p blocks: J.omega or J.e).
void block_apply_add(const BlockJacobian& J, const std::vector<double>& blocks, const Eigen::VectorXd& x,
                     bool transpose, Eigen::VectorXd& y) {
  for (std::size_t b = 0; b < J.row.size(); ++b) {
    const Index s = J.size[b], o = J.row[b];
    const double* A = blocks.data() + J.value[b];
    for (Index i = 0; i < s; ++i)
      for (Index j = 0; j < s; ++j) y[o + i] += (transpose ? A[j * s + i] : A[i * s + j]) * x[o + j];
  }
}

// Inverse of one diagonal block Omega_c W_cc + E_c (s x s, row-major) into @p out; a block that
// is numerically singular (a contact whose rows of W are dependent) falls back to a scaled
// identity, which is still a valid, if weaker, preconditioner.
void invert_block(const double* A, Index s, double* out) {
  if (s == 1) {
    out[0] = A[0] != 0.0 ? 1.0 / A[0] : 1.0;
    return;
  }
  const Eigen::Matrix3d M = Eigen::Map<const Eigen::Matrix<double, 3, 3, Eigen::RowMajor>>(A);
  Eigen::Matrix3d inv;
  bool ok = false;
  M.computeInverseWithCheck(inv, ok, 1e-14 * (M.cwiseAbs().maxCoeff() + 1e-300));
  if (!ok || !inv.allFinite()) inv = Eigen::Matrix3d::Identity() / (M.cwiseAbs().maxCoeff() + 1e-300);
  Eigen::Map<Eigen::Matrix<double, 3, 3, Eigen::RowMajor>> result(out);
  result = inv;
}

// Visits the terms of the rows of block @p b of the Newton matrix Omega W + E + diag(shift) as
// visit(row, column, value), in a fixed order: row i of block b is sum_j Omega_b(i, j) W(o + j, :),
// then E_b(i, :), then shift_i e_i, or E_b(i, :) + shift_i e_i as one term with @p shift_in_e (the
// sums of the sparse path, which added E + diag(shift) to Omega W).
template <class Visit>
void visit_newton_rows(const BlockJacobian& J, std::size_t b, const CsrMatrix& W, const Eigen::VectorXd& shift,
                       bool shift_in_e, Visit&& visit) {
  const Index s = J.size[b], o = J.row[b];
  const std::size_t v = static_cast<std::size_t>(J.value[b]);
  for (Index i = 0; i < s; ++i) {
    for (Index j = 0; j < s; ++j) {
      const double w = J.omega[v + static_cast<std::size_t>(i * s + j)];
      if (w == 0.0) continue;
      for (Index e = W.row_ptr[o + j]; e < W.row_ptr[o + j + 1]; ++e) visit(o + i, W.col_idx[e], w * W.values[e]);
    }
    for (Index j = 0; j < s; ++j)
      visit(o + i, o + j, J.e[v + static_cast<std::size_t>(i * s + j)] + (shift_in_e && i == j ? shift[o + i] : 0.0));
    if (!shift_in_e) visit(o + i, o + i, shift[o + i]);
  }
}

// Direct steps: (Omega W + E + diag(shift)) dr = -phi factored by SparseLU. The rows of one block
// share one pattern, the union of W's rows there and the block's diagonal, so the matrix is
// written straight into that pattern by rows (no sparse products), then scattered into the
// column-major copy SparseLU factors through a fixed map. The pattern is analysed once for as long as W's pattern and
// the blocks stay the same (a contact set that persists between time steps); only the numeric factorization runs per
// step. Small problems (@p dense: a few contacts, where SparseLU's symbolic work and bookkeeping cost more than the
// arithmetic) form the matrix densely and factor it by LU with partial pivoting. Banded ones (contacts ordered along a
// stack or a chain, each coupled only to its neighbours': bandwidth b with 4 (b + 1) <= m) are factored in band
// storage by LU with partial pivoting within the band (sinew::BandedLu): O(m b^2), in storage kept from step to step,
// so that a step allocates nothing where SparseLU allocates at every factorization.
class LuStep {
 public:
  /// Prepares the steps of one solve on @p p (diagonal of W: @p diagW).
  void reset(const DelassusProblem& p, const Eigen::VectorXd& diagW, bool dense, bool band_allowed) {
    const Index m = p.rows();
    W_ = &p.W;
    dense_ = dense;
    // A last-resort shift when the matrix is exactly singular, far below W's scale.
    singular_shift_ = 1e-10 * diagW.sum() / static_cast<double>(m > 0 ? m : 1);
    if (dense_) {
      // Sized here, with the problem, rather than at the first Newton step, which may come steps
      // later (a warm start that already solves it): a kept size then costs no allocation.
      dense_jac_.resize(m, m);
      if (dense_lu_.rows() != m) dense_lu_ = Eigen::PartialPivLU<Eigen::MatrixXd>(m);
      return;
    }
    // The Newton matrix's bandwidth: a block's rows mix its rows of W (Omega W), so each of them
    // reaches the union of their columns and the block's own.
    band_ = 0;
    for (Index o = 0, b = 0; b < static_cast<Index>(p.blocks.size()); o += block_size(p.blocks[b].kind), ++b) {
      const Index end = o + block_size(p.blocks[b].kind);
      Index lo = o, hi = end - 1;
      for (Index i = o; i < end; ++i)
        if (p.W.row_ptr[i + 1] > p.W.row_ptr[i]) {
          lo = std::min(lo, p.W.col_idx[p.W.row_ptr[i]]);  // columns are increasing within a row
          hi = std::max(hi, p.W.col_idx[p.W.row_ptr[i + 1] - 1]);
        }
      band_ = std::max({band_, end - 1 - lo, hi - o});
    }
    // Narrow, and full enough that band storage does not hold mostly zeros that SparseLU skips.
    banded_ = band_allowed && 4 * (band_ + 1) <= m && m * (2 * band_ + 1) <= 3 * p.W.nnz();
    if (banded_) {
      band_lu_.resize(m, band_);
      return;
    }
    const bool same_pattern =
        analysed_ && p.W.row_ptr == analysed_row_ptr_ && p.W.col_idx == analysed_col_idx_ && same_block_sizes(p.blocks);
    if (!same_pattern) make_pattern(p);
  }

  // Returns false (with the reason) when the matrix is singular even after the shift.
  bool solve(const BlockJacobian& J, const Eigen::VectorXd& shift, const Eigen::VectorXd& phi, Eigen::VectorXd& dr,
             int& factorizations, std::string& message) {
    if (dense_) return solve_dense(J, shift, phi, dr, factorizations, message);
    if (banded_) return solve_banded(J, shift, phi, dr, factorizations, message);
    std::fill(row_values_.begin(), row_values_.end(), 0.0);
    for (std::size_t b = 0; b < J.row.size(); ++b) {
      const Index o = J.row[b];
      for (Index k = row_ptr_[o]; k < row_ptr_[o + 1]; ++k)
        slot_[static_cast<std::size_t>(row_col_[k])] = k - row_ptr_[o];
      visit_newton_rows(J, b, *W_, shift, /*shift_in_e=*/true, [&](Index r, Index c, double v) {
        row_values_[static_cast<std::size_t>(row_ptr_[r] + slot_[static_cast<std::size_t>(c)])] += v;
      });
    }
    double* values = jac_.valuePtr();
    for (std::size_t k = 0; k < row_values_.size(); ++k) values[to_column_[k]] = row_values_[k];
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (attempt == 1)  // singular: a Levenberg-Marquardt-like shift, then give up
        for (Index d : diagonal_) values[d] += singular_shift_;
      if (!analysed_) {
        lu_.analyzePattern(jac_);
        analysed_ = true;
      }
      lu_.factorize(jac_);
      ++factorizations;
      if (lu_.info() == Eigen::Success) {
        dr = lu_.solve(-phi);
        return true;
      }
    }
    message = lu_.lastErrorMessage();
    return false;
  }

 private:
  bool same_block_sizes(const std::vector<ConstraintBlock>& blocks) const {
    if (blocks.size() != analysed_sizes_.size()) return false;
    for (std::size_t b = 0; b < blocks.size(); ++b)
      if (block_size(blocks[b].kind) != analysed_sizes_[b]) return false;
    return true;
  }

  // The rows' pattern (per block: the union of W's rows and the diagonal block, sorted), jac_ with
  // that pattern by columns and the map between the two, to be analysed at the next factorization.
  void make_pattern(const DelassusProblem& p) {
    const Index m = p.rows();
    analysed_row_ptr_ = p.W.row_ptr;
    analysed_col_idx_ = p.W.col_idx;
    analysed_sizes_.clear();
    for (const ConstraintBlock& b : p.blocks) analysed_sizes_.push_back(block_size(b.kind));
    analysed_ = false;
    std::vector<Index>&ptr = row_ptr_, &cols = row_col_, block_cols;
    ptr.assign(1, 0);
    cols.clear();
    slot_.assign(static_cast<std::size_t>(m), -1);
    Index o = 0;
    for (Index s : analysed_sizes_) {
      block_cols.clear();
      const auto take = [&](Index c) {
        if (slot_[static_cast<std::size_t>(c)] < 0) {
          slot_[static_cast<std::size_t>(c)] = 0;
          block_cols.push_back(c);
        }
      };
      for (Index r = o; r < o + s; ++r) {
        for (Index e = p.W.row_ptr[r]; e < p.W.row_ptr[r + 1]; ++e) take(p.W.col_idx[e]);
        take(r);
      }
      std::sort(block_cols.begin(), block_cols.end());
      for (Index c : block_cols) slot_[static_cast<std::size_t>(c)] = -1;
      for (Index r = o; r < o + s; ++r) {
        cols.insert(cols.end(), block_cols.begin(), block_cols.end());
        ptr.push_back(static_cast<Index>(cols.size()));
      }
      o += s;
    }
    // Column-major storage of the same pattern: entry k of the rows goes to to_column_[k].
    const std::size_t nnz = cols.size();
    row_values_.assign(nnz, 0.0);
    to_column_.resize(nnz);
    std::vector<Index> col_ptr(static_cast<std::size_t>(m) + 1, 0), row_idx(nnz);
    for (Index c : cols) ++col_ptr[static_cast<std::size_t>(c) + 1];
    for (Index c = 0; c < m; ++c) col_ptr[c + 1] += col_ptr[c];
    std::vector<Index> next(col_ptr.begin(), col_ptr.end() - 1);
    diagonal_.clear();
    for (Index r = 0; r < m; ++r)
      for (Index k = ptr[r]; k < ptr[r + 1]; ++k) {
        const Index at = next[static_cast<std::size_t>(cols[k])]++;
        row_idx[static_cast<std::size_t>(at)] = r;
        to_column_[static_cast<std::size_t>(k)] = at;
        if (cols[k] == r) diagonal_.push_back(at);
      }
    const std::vector<double> zeros(nnz, 0.0);
    jac_ = Eigen::Map<const ColMatrix>(m, m, static_cast<Index>(nnz), col_ptr.data(), row_idx.data(), zeros.data());
  }

  // The dense form of solve().
  bool solve_dense(const BlockJacobian& J, const Eigen::VectorXd& shift, const Eigen::VectorXd& phi,
                   Eigen::VectorXd& dr, int& factorizations, std::string& message) {
    const Index m = W_->rows;
    dense_jac_.setZero(m, m);
    for (std::size_t b = 0; b < J.row.size(); ++b)
      visit_newton_rows(J, b, *W_, shift, /*shift_in_e=*/false,
                        [&](Index r, Index c, double v) { dense_jac_(r, c) += v; });
    for (int attempt = 0; attempt < 2; ++attempt) {
      if (attempt == 1) dense_jac_.diagonal().array() += singular_shift_;  // as the sparse path
      dense_lu_.compute(dense_jac_);
      ++factorizations;
      if ((dense_lu_.matrixLU().diagonal().array() != 0.0).all()) {
        dr = dense_lu_.solve(-phi);
        if (dr.allFinite()) return true;
      }
    }
    message = "the dense LU has a zero pivot";
    return false;
  }

  // The banded form of solve().
  bool solve_banded(const BlockJacobian& J, const Eigen::VectorXd& shift, const Eigen::VectorXd& phi,
                    Eigen::VectorXd& dr, int& factorizations, std::string& message) {
    const Index m = W_->rows;
    for (int attempt = 0; attempt < 2; ++attempt) {
      band_lu_.set_zero();
      for (std::size_t b = 0; b < J.row.size(); ++b)
        visit_newton_rows(J, b, *W_, shift, /*shift_in_e=*/false,
                          [&](Index r, Index c, double v) { band_lu_(r, c) += v; });
      if (attempt == 1)  // as the other paths
        for (Index i = 0; i < m; ++i) band_lu_(i, i) += singular_shift_;
      ++factorizations;
      if (!band_lu_.factor()) continue;
      dr = -phi;
      band_lu_.solve(dr);
      if (dr.allFinite()) return true;
    }
    message = "the banded LU has a zero pivot";
    return false;
  }

  const CsrMatrix* W_ = nullptr;  // the problem's W, alive for the solve
  bool dense_ = true;
  bool banded_ = false;  // the band path (reset())
  Index band_ = 0;       // its bandwidth
  BandedLu band_lu_;
  Eigen::MatrixXd dense_jac_;
  Eigen::PartialPivLU<Eigen::MatrixXd> dense_lu_;
  std::vector<Index> row_ptr_, row_col_;  // the Newton matrix's pattern by rows
  std::vector<double> row_values_;        // its values by rows
  std::vector<Index> to_column_;          // where each row entry sits in jac_
  ColMatrix jac_;                         // the Newton matrix by columns, as SparseLU takes it
  std::vector<Index> slot_;               // scratch: a column's place in its block's row pattern
  std::vector<Index> diagonal_;           // the value index in jac_ of each diagonal entry
  Eigen::SparseLU<ColMatrix, Eigen::COLAMDOrdering<Index>> lu_;
  // The pattern jacT_ was built for (W's, the block sizes) and whether lu_ has analysed it.
  std::vector<Index> analysed_row_ptr_, analysed_col_idx_, analysed_sizes_;
  bool analysed_ = false;
  double singular_shift_ = 0.0;
};

// Matrix-free steps on the backend: W uploaded once, block-diagonal Omega, E + diag(shift) and
// the block-Jacobi P^-1 uploaded per step into fixed patterns, BiCGSTAB on (Omega W + E) P^-1.
class KrylovStep {
 public:
  KrylovStep(Backend& backend, KrylovSolver& krylov, const CsrMatrix& W, const EigenCsrView& W_host,
             const BlockJacobian& J)
      : be_(&backend), krylov_(&krylov), J_(&J), m_(W.rows) {
    W_ = to_device(backend, W);
    const CsrMatrix pattern = block_diagonal_csr(J, m_, J.omega);
    Om_ = to_device(backend, pattern);
    E_ = to_device(backend, pattern);
    P_ = to_device(backend, pattern);
    for (DeviceArray<double>* a : {&t1_, &t2_, &rhs_, &z_, &dr_}) *a = backend.allocate<double>(m_);
    wblocks_.assign(J.omega.size(), 0.0);  // diagonal blocks W_cc, row-major
    for (std::size_t b = 0; b < J.row.size(); ++b)
      for (Index i = 0; i < J.size[b]; ++i)
        for (Index j = 0; j < J.size[b]; ++j)
          wblocks_[J.value[b] + i * J.size[b] + j] = W_host.coeff(J.row[b] + i, J.row[b] + j);
    pinv_.assign(J.omega.size(), 0.0);
  }

  KrylovResult solve(const Eigen::VectorXd& shift, const Eigen::VectorXd& phi, const KrylovOptions& options,
                     Eigen::VectorXd& dr) {
    const BlockJacobian& J = *J_;
    e_ = J.e;
    for (std::size_t b = 0; b < J.row.size(); ++b) {
      const Index s = J.size[b];
      const std::size_t v = static_cast<std::size_t>(J.value[b]);
      for (Index i = 0; i < s; ++i) e_[v + i * (s + 1)] += shift[J.row[b] + i];
      double block[9];  // Omega_c W_cc + E_c
      for (Index i = 0; i < s; ++i)
        for (Index j = 0; j < s; ++j) {
          double sum = e_[v + i * s + j];
          for (Index k = 0; k < s; ++k) sum += J.omega[v + i * s + k] * wblocks_[v + k * s + j];
          block[i * s + j] = sum;
        }
      invert_block(block, s, pinv_.data() + v);
    }
    be_->upload(J.omega.data(), J.omega.size(), Om_.values);
    be_->upload(e_.data(), e_.size(), E_.values);
    be_->upload(pinv_.data(), pinv_.size(), P_.values);
    const Eigen::VectorXd minus_phi = -phi;
    be_->upload(minus_phi.data(), m_, rhs_);
    be_->fill(z_, 0.0);
    PreconditionedJacobian op(*be_, W_, Om_, E_, P_, t1_, t2_);
    const KrylovResult result = krylov_->solve(op, rhs_, z_, options);
    be_->spmv(1.0, P_, Op::kNoTranspose, z_, 0.0, dr_);  // dr = P^-1 z
    be_->download(dr_, dr.data(), m_);
    return result;
  }

 private:
  Backend* be_;
  KrylovSolver* krylov_;
  const BlockJacobian* J_;
  Index m_;
  DeviceCsr W_, Om_, E_, P_;
  DeviceArray<double> t1_, t2_, rhs_, z_, dr_;
  std::vector<double> wblocks_, pinv_, e_;
};

}  // namespace

NewtonSolver::NewtonSolver(Backend& backend, const NewtonOptions& options)
    : backend_(&backend), options_(options), krylov_(std::make_unique<BiCgStab>(backend)) {
  detail::check_globalization("NewtonSolver", options);
  require(options.merit_memory >= 0,
          [&] { return "NewtonSolver: merit_memory must be >= 0, got " + std::to_string(options.merit_memory); });
}

NewtonSolver::~NewtonSolver() = default;

std::string NewtonSolver::name() const {
  return options_.function == NcpFunction::kMinMap ? "newton-minmap" : "newton-fb";
}

void NewtonSolver::check_supported(const DelassusProblem& problem) const {
  detail::check_no_box_friction(name(), problem);
}

// The vectors, Jacobian blocks and direct factorization of do_solve(), kept between solves.
struct NewtonSolver::Workspace {
  Eigen::VectorXd diagW, rho, u, phi, shift, dr, Wdr, r_try, u_try, phi_try, g, Wg, Jg, t1, t2;
  BlockJacobian J, J_try;
  LuStep lu;
  std::vector<double> recent;  // the merits of the last NewtonOptions::merit_memory iterates
};

SolverReport NewtonSolver::do_solve(const DelassusProblem& p, Eigen::VectorXd& r) {
  SolverReport report;
  do_solve_into(p, r, report);
  return report;
}

void NewtonSolver::do_solve_into(const DelassusProblem& p, Eigen::VectorXd& r, SolverReport& report) {
  report.reset();
  // Kept by a kept report; capped so that a huge iteration limit does not reserve megabytes.
  report.error_history.reserve(std::min<std::size_t>(static_cast<std::size_t>(options_.stop.max_iterations), 4096));
  const Index m = p.rows();
  if (!work_) work_ = std::make_unique<Workspace>();
  Workspace& ws = *work_;
  ws.recent.reserve(std::min<std::size_t>(static_cast<std::size_t>(options_.merit_memory) + 1, 4096));
  const EigenCsrView W = as_eigen(p.W);  // solve() validated p: a view, not a copy
  csr_diagonal(p.W, ws.diagW);
  // Complementarity preconditioner, eq. (28) with FCLIB's scaling (shared with the seed's step).
  indicator_preconditioner(ws.diagW, p.blocks, ws.rho);
  const Eigen::VectorXd& rho = ws.rho;
  for (Index i = 0; i < m; ++i) {
    if (!(rho[i] > 0.0)) {
      report.status = SolverStatus::kFailed;
      report.message = name() + ": W(" + std::to_string(i) + ", " + std::to_string(i) +
                       ") is not positive; the complementarity preconditioner (eq. 28) needs W_ii > 0";
      return;
    }
  }
  BlockJacobian& J = ws.J;
  make_block_jacobian(p, J);
  const bool lu_path = options_.linear == NewtonLinearSolver::kSparseLu ||
                       (options_.linear == NewtonLinearSolver::kAuto && m <= kAutoLuRows);

  LuStep* lu = nullptr;
  std::unique_ptr<KrylovStep> krylov;
  if (lu_path) {
    lu = &ws.lu;
    const bool automatic = options_.linear == NewtonLinearSolver::kAuto;
    lu->reset(p, ws.diagW, automatic && m <= kDenseLuRows, automatic);
  } else {
    krylov = std::make_unique<KrylovStep>(*backend_, *krylov_, p.W, W, J);
  }

  Eigen::VectorXd &u = ws.u, &phi = ws.phi, &shift = ws.shift, &dr = ws.dr, &Wdr = ws.Wdr, &r_try = ws.r_try,
                  &u_try = ws.u_try, &phi_try = ws.phi_try;
  u.noalias() = W * r;
  u += p.q;
  for (Eigen::VectorXd* v : {&phi, &shift, &dr, &Wdr, &r_try, &u_try, &phi_try}) v->resize(m);
  BlockJacobian& J_try = ws.J_try;
  J_try = J;
  double psi = evaluate(p, rho, options_.function, u, r, phi, J);
  report.error = natural_map_error(p, r, u).relative;
  // The message goes into the report's own storage: a converged solve formats into kept capacity.
  const char* const solver_name = options_.function == NcpFunction::kMinMap ? "newton-minmap" : "newton-fb";
  const auto finish = [&](SolverStatus status, const std::string& message) {
    report.status = status;
    report.message.assign(solver_name).append(": ").append(message);
    block_states(p, r, u, report.states);
  };
  const auto converged = [&](int steps) {
    report.status = SolverStatus::kConverged;
    report.message.assign(solver_name);
    if (steps == 0) {
      report.message.append(": the warm start already solves it");
    } else {
      char digits[16];
      const std::to_chars_result end = std::to_chars(digits, digits + sizeof digits, steps);
      report.message.append(": converged in ").append(digits, end.ptr).append(" Newton steps");
    }
    block_states(p, r, u, report.states);
  };
  if (report.error <= options_.stop.tolerance) return converged(0);

  detail::ProximalSchedule schedule(options_);  // the shift's Levenberg-Marquardt factor
  // The merits of the last NewtonOptions::merit_memory iterates: the line search's reference.
  std::vector<double>& recent = ws.recent;
  recent.clear();
  const std::size_t memory = static_cast<std::size_t>(options_.merit_memory);
  for (int it = 0; it < options_.stop.max_iterations; ++it) {
    const auto step = [&] { return " at Newton step " + std::to_string(it + 1); };  // for messages only
    const double phi_norm = phi.norm();
    // Backtracking on psi = 1/2 ||phi||^2 (Armijo, sigma = 1e-4) along d with slope grad psi . d,
    // non-monotone (Grippo, Lampariello and Lucidi 1986): measured from the largest recent psi,
    // so a step may cross a kink of the min-map merit (a stick/slip switch) where a monotone
    // search only admits vanishing steps. Returns whether Armijo held; best_alpha is then the
    // accepted trial, otherwise that of least psi, best_psi (best_alpha = 0: none below psi).
    double best_alpha = 0.0, best_psi = psi;
    double psi_ref = psi;
    for (double v : recent) psi_ref = std::max(psi_ref, v);
    const auto search = [&](const Eigen::VectorXd& d, const Eigen::VectorXd& Wd, double slope) {
      double alpha = 1.0;
      for (int ls = 0; ls <= options_.globalization.line_search_steps; ++ls, alpha *= 0.5) {
        r_try = r + alpha * d;
        u_try = u + alpha * Wd;
        const double psi_try = evaluate(p, rho, options_.function, u_try, r_try, phi_try, J_try);
        if (psi_try < best_psi) {
          best_psi = psi_try;
          best_alpha = alpha;
        }
        if (psi_try <= psi_ref + 1e-4 * alpha * slope) {
          best_alpha = alpha;  // the accepted trial, even if non-monotone
          return true;
        }
      }
      return false;
    };
    bool armijo = false;
    for (;;) {
      // Proximal shift of the diagonal (NewtonOptions::proximal), vanishing with phi.
      const double proximal = schedule.shift(phi_norm);
      // Only rows coupled through W (a nonzero row of Omega) can make the matrix singular; the
      // others (open contacts, min-map's inactive friction) keep their exact step r -> 0.
      for (std::size_t b = 0; b < J.row.size(); ++b)
        for (Index i = 0; i < J.size[b]; ++i) {
          bool coupled = false;
          for (Index j = 0; j < J.size[b]; ++j) coupled = coupled || J.omega[J.value[b] + i * J.size[b] + j] != 0.0;
          shift[J.row[b] + i] = coupled ? proximal * rho[J.row[b] + i] : 0.0;
        }
      if (lu) {
        std::string why;
        if (!lu->solve(J, shift, phi, dr, report.inner_iterations, why))
          return finish(SolverStatus::kFailed, "the Newton matrix is singular" + step() + ": " + why);
      } else {
        const KrylovResult inner = krylov->solve(shift, phi, options_.krylov, dr);
        report.inner_iterations += inner.iterations;
        if (inner.status == KrylovStatus::kNonFinite)
          return finish(SolverStatus::kFailed, "BiCGSTAB produced non-finite values" + step() + ": " + inner.message);
      }
      if (!dr.allFinite()) return finish(SolverStatus::kFailed, "non-finite Newton direction" + step());
      Wdr.noalias() = W * dr;
      if (options_.globalization.line_search_steps == 0) break;
      // With the exact Jacobian, dr is a descent direction: grad psi . dr = -||phi||^2; the
      // shifted one stays close to it.
      best_alpha = 0.0;
      best_psi = psi;
      armijo = search(dr, Wdr, -2.0 * psi);
      // A damped or failed step means the model (Omega W + E) is poor or nearly singular along
      // dr: retry with a larger shift, which bends dr toward the gradient and shortens it.
      // No growth left (proximal = 0, proximal_growth = 1, or at the cap): keep this step.
      if ((armijo && best_alpha == 1.0) || !schedule.can_grow()) break;
      schedule.grow();
      if (armijo) break;  // accepted, damped: the larger shift applies from the next step
    }
    if (options_.globalization.line_search_steps > 0 && armijo && best_alpha == 1.0) schedule.relax();

    if (options_.globalization.line_search_steps == 0) {  // the seed's undamped iteration
      r += dr;
      u += Wdr;
    } else if (armijo) {
      r += best_alpha * dr;
      u += best_alpha * Wdr;
    } else {
      // The Newton step failed (a nearly singular matrix: dependent rows of W among sticking
      // contacts, or an inexact step): fall back to steepest descent on psi, g = J^T phi =
      // W Omega^T phi + E^T phi, from the Cauchy step ||g||^2 / ||J g||^2 of the linear model.
      const double newton_alpha = best_alpha;
      Eigen::VectorXd &g = ws.g, &Wg = ws.Wg, &Jg = ws.Jg, &t1 = ws.t1, &t2 = ws.t2;
      t1.setZero(m);
      t2.setZero(m);
      block_apply_add(J, J.omega, phi, true, t1);
      block_apply_add(J, J.e, phi, true, t2);
      g.noalias() = W * t1;
      g += t2;
      Wg.noalias() = W * g;
      t1.setZero(m);
      t2.setZero(m);
      block_apply_add(J, J.omega, Wg, false, t1);
      block_apply_add(J, J.e, g, false, t2);
      Jg = t1 + t2;
      const double gg = g.squaredNorm(), JgJg = Jg.squaredNorm();
      const double t = JgJg > 0.0 ? gg / JgJg : 0.0;
      best_alpha = 0.0;
      if (t > 0.0 && std::isfinite(t)) search(-t * g, -t * Wg, -t * gg);
      if (best_alpha > 0.0) {  // the gradient step decreased psi below the Newton trials' best
        r -= best_alpha * t * g;
        u -= best_alpha * t * Wg;
      } else if (newton_alpha > 0.0) {  // a Newton trial decreased psi, without Armijo's margin
        r += newton_alpha * dr;
        u += newton_alpha * Wdr;
      } else {
        // Stalled (typically at round-off, below a tolerance that cannot be reached).
        return finish(SolverStatus::kNotConverged,
                      "stalled: no decrease of 1/2 ||phi||^2 along the Newton or gradient direction" + step() +
                          " (natural-map error " + number_text(report.error, 4) + ")");
      }
    }
    recent.push_back(psi);
    if (recent.size() > memory) recent.erase(recent.begin());
    psi = evaluate(p, rho, options_.function, u, r, phi, J);
    report.iterations = it + 1;
    report.error = natural_map_error(p, r, u).relative;
    report.error_history.push_back(report.error);
    if (!std::isfinite(report.error)) return finish(SolverStatus::kFailed, "non-finite iterate" + step());
    if (report.error <= options_.stop.tolerance) return converged(it + 1);
  }
  return finish(SolverStatus::kNotConverged, "natural-map error " + number_text(report.error, 4) + " > tolerance " +
                                                 number_text(options_.stop.tolerance) + " after " +
                                                 std::to_string(report.iterations) + " Newton steps");
}

}  // namespace sinew::constraints
