#include "sinew/constraints/sap_solver.hpp"

#include <Eigen/Cholesky>
#include <algorithm>
#include <charconv>
#include <cmath>
#include <string>
#include <string_view>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::constraints {

namespace {

// Per-block G = dP_R/dy R^-1 (3x3 or 1x1 in the top-left corner) and the branch of P_R.
struct BlockEval {
  Eigen::Matrix3d G = Eigen::Matrix3d::Zero();
  RowState state = RowState::kOpen;
};

// Per-block impulse gamma = P_R(-R^-1 u) and the cost sum 1/2 ||gamma||_R^2; with @p evals, G
// and the branch of each block too.
double evaluate(const std::vector<ConstraintBlock>& blocks, const std::vector<Index>& offsets, const Eigen::VectorXd& R,
                const Eigen::VectorXd& u, Eigen::VectorXd& gamma, std::vector<BlockEval>* evals) {
  double cost = 0.0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const Index i = offsets[b];
    BlockEval ev;
    if (blocks[b].kind != BlockKind::kContact) {
      const double y = -u[i] / R[i];
      const bool free = blocks[b].kind == BlockKind::kBilateral || y > 0.0;
      gamma[i] = free ? y : 0.0;
      ev.G(0, 0) = free ? 1.0 / R[i] : 0.0;
      ev.state = free ? RowState::kClosed : RowState::kOpen;
      cost += 0.5 * R[i] * gamma[i] * gamma[i];
    } else {
      // Projection in the R-norm = Euclidean projection of R^1/2 y onto the cone with
      // mu~ = mu sqrt(R_t / R_n), mapped back by R^-1/2.
      const double sn = std::sqrt(R[i]), st = std::sqrt(R[i + 1]);
      const double mu = blocks[b].mu * st / sn;
      const double yt[3] = {-u[i] / R[i] * sn, -u[i + 1] / R[i + 1] * st, -u[i + 2] / R[i + 2] * st};
      double p[3] = {yt[0], yt[1], yt[2]};
      project_on_cone(p, mu);
      // Products with 1/s rather than a dozen quotients per contact: the evaluation runs a few
      // times per line search, and a division costs several multiplications.
      const double inv_sn = 1.0 / sn, inv_st = 1.0 / st;
      const double inv_s[3] = {inv_sn, inv_st, inv_st};
      for (int k = 0; k < 3; ++k) gamma[i + k] = p[k] * inv_s[k];
      cost += 0.5 * (p[0] * p[0] + p[1] * p[1] + p[2] * p[2]);
      if (evals) {
        const double xt = std::sqrt(yt[1] * yt[1] + yt[2] * yt[2]);  // scaled impulses: no overflow
        Eigen::Matrix3d dP = Eigen::Matrix3d::Zero();
        if (xt <= mu * yt[0]) {
          dP.setIdentity();
          ev.state = RowState::kStick;
        } else if (mu * xt <= -yt[0] || xt == 0.0) {
          ev.state = RowState::kOpen;
        } else {
          ev.state = RowState::kSlip;
          const Eigen::Vector2d t(yt[1] / xt, yt[2] / xt);
          const double c = 1.0 / (1.0 + mu * mu), pn = (yt[0] + mu * xt) * c;
          dP(0, 0) = c;
          dP.block<1, 2>(0, 1) = mu * c * t.transpose();
          dP.block<2, 1>(1, 0) = mu * c * t;
          dP.block<2, 2>(1, 1) =
              mu * mu * c * t * t.transpose() + (mu * pn / xt) * (Eigen::Matrix2d::Identity() - t * t.transpose());
        }
        for (int r = 0; r < 3; ++r)
          for (int k = 0; k < 3; ++k) ev.G(r, k) = dP(r, k) * (inv_s[r] * inv_s[k]);
      }
    }
    if (evals) (*evals)[b] = ev;
  }
  return cost;
}

// "converged in N Newton steps" in a buffer that fits the small-string storage of no std::string:
// built without temporaries (the finish() of every converged solve).
struct ConvergedText {
  char text[48];
  operator std::string_view() const { return text; }
};
ConvergedText converged_text(int steps) {
  // std::to_chars, not snprintf: the format parser cost ~1,200 instructions a solve.
  ConvergedText t;
  static constexpr char head[] = "converged in ", tail[] = " Newton steps";
  char* p = std::copy(head, head + sizeof head - 1, t.text);
  p = std::to_chars(p, t.text + sizeof t.text - sizeof tail, steps).ptr;
  std::copy(tail, tail + sizeof tail, p);  // with its '\0'
  return t;
}

}  // namespace

// What a solve keeps for the next: the Jacobian J = H^T gathered block by block, the Newton
// matrix (dense, or sparse with its analysis) and every vector, so that an integrator calling
// solve() each step on a problem of the same structure allocates nothing here but the report.
struct SapSolver::Workspace {
  EigenLdltSolver own_mass;  // M's factor for the overload without one
  CsrMatrix J;               // (m x n) H^T
  std::vector<Index> offsets;
  // Block b touches the velocities cols[col_start[b] .. col_start[b + 1]) (the union of its
  // rows' columns, increasing); its rows there are jb[jb_start[b] ..] (s x k, row-major).
  std::vector<Index> col_start, cols, jb_start;
  std::vector<double> jb;
  std::vector<Index> mark;  // scratch of build_structure()
  // build_structure(): H's entry k is J's entry to_j[k] and jb's entry to_jb[k], for the
  // pattern h_row_ptr / h_col_idx and block kinds it was built for.
  bool structured = false;
  std::vector<Index> to_j, to_jb, h_row_ptr, h_col_idx, jb_of_j;
  std::vector<BlockKind> kinds;
  Index block_band = 0;  // the widest block's column span
  std::vector<BlockEval> evals;
  Eigen::VectorXd Mdiag, D, v_star, v, gamma, u, grad, dv, du, gamma_a, u_a, momentum, impulse, Mv, mass_rhs, u_r;
  DelassusProblem original;  // q and blocks of the original problem: the natural-map error
  // The Newton matrix M + J^T G J: dense (lower triangle) or sparse.
  Eigen::MatrixXd dense;  // its Cholesky factor L (lower triangle) after factor_newton_matrix()
  std::vector<Eigen::Triplet<double, Index>> triplets;
  CsrMatrix sparse;
  EigenLdltSolver sparse_solver;
  bool analysed = false;  // sparse_solver holds the analysis of sparse's pattern
  // map_sparse_pattern(): the positions and the patterns they were computed for.
  std::vector<Index> m_pos, block_pos;
  bool mapped = false;
  std::vector<Index> mapped_M_row_ptr, mapped_M_col_idx;

  // J and the per-block gathers of @p p (validated): the structure is rebuilt only when H's
  // pattern or the blocks change; otherwise the values are copied through the kept maps.
  void gather(const GlobalProblem& p) {
    const CsrMatrix& H = p.H;
    if (!(structured && H.rows == J.cols && H.cols == J.rows && H.row_ptr == h_row_ptr && H.col_idx == h_col_idx &&
          same_kinds(p.blocks)))
      build_structure(p);
    for (Index k = 0; k < H.nnz(); ++k) {
      J.values[to_j[k]] = H.values[k];
      jb[to_jb[k]] = H.values[k];
    }
  }

  // J's pattern (H^T), the blocks' columns and the maps from H's entries into J and jb.
  void build_structure(const GlobalProblem& p) {
    const CsrMatrix& H = p.H;
    const Index n = p.velocities();
    J.rows = H.cols;
    J.cols = H.rows;
    J.row_ptr.assign(H.cols + 1, 0);
    for (Index k = 0; k < H.nnz(); ++k) ++J.row_ptr[H.col_idx[k] + 1];
    for (Index i = 0; i < H.cols; ++i) J.row_ptr[i + 1] += J.row_ptr[i];
    J.col_idx.resize(H.nnz());
    J.values.resize(H.nnz());
    to_j.resize(H.nnz());
    mark.assign(J.row_ptr.begin(), J.row_ptr.end() - 1);  // next free entry of each row of J
    for (Index i = 0; i < H.rows; ++i)
      for (Index k = H.row_ptr[i]; k < H.row_ptr[i + 1]; ++k) {
        to_j[k] = mark[H.col_idx[k]]++;
        J.col_idx[to_j[k]] = i;
      }
    block_offsets_into(p.blocks);
    block_band = 0;
    col_start.assign(1, 0);
    jb_start.assign(1, 0);
    cols.clear();
    mark.assign(n, -1);
    jb_of_j.assign(H.nnz(), 0);
    for (std::size_t b = 0; b < p.blocks.size(); ++b) {
      const Index i = offsets[b], s = block_size(p.blocks[b].kind);
      const Index first = static_cast<Index>(cols.size());
      for (Index r = i; r < i + s; ++r)
        for (Index k = J.row_ptr[r]; k < J.row_ptr[r + 1]; ++k)
          if (mark[J.col_idx[k]] != static_cast<Index>(b)) {
            mark[J.col_idx[k]] = static_cast<Index>(b);
            cols.push_back(J.col_idx[k]);
          }
      std::sort(cols.begin() + first, cols.end());
      const Index k_b = static_cast<Index>(cols.size()) - first;
      col_start.push_back(static_cast<Index>(cols.size()));
      const Index at = jb_start.back();
      for (Index r = 0; r < s; ++r) {
        Index c = first;  // J's row and the block's columns are both increasing
        for (Index k = J.row_ptr[i + r]; k < J.row_ptr[i + r + 1]; ++k) {
          while (cols[c] != J.col_idx[k]) ++c;
          jb_of_j[k] = at + r * k_b + (c - first);
        }
      }
      jb_start.push_back(at + s * k_b);
      if (k_b > 0) block_band = std::max(block_band, cols.back() - cols[first]);
    }
    jb.assign(jb_start.back(), 0.0);  // entries no row has stay zero
    to_jb.resize(H.nnz());
    for (Index k = 0; k < H.nnz(); ++k) to_jb[k] = jb_of_j[to_j[k]];
    h_row_ptr = H.row_ptr;
    h_col_idx = H.col_idx;
    kinds.resize(p.blocks.size());
    for (std::size_t b = 0; b < p.blocks.size(); ++b) kinds[b] = p.blocks[b].kind;
    structured = true;
    mapped = false;  // the sparse Newton matrix's pattern follows J's
  }
  bool same_kinds(const std::vector<ConstraintBlock>& blocks) const {
    if (blocks.size() != kinds.size()) return false;
    for (std::size_t b = 0; b < blocks.size(); ++b)
      if (blocks[b].kind != kinds[b]) return false;
    return true;
  }

  void block_offsets_into(const std::vector<ConstraintBlock>& blocks) {
    offsets.resize(blocks.size());
    Index i = 0;
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      offsets[b] = i;
      i += block_size(blocks[b].kind);
    }
  }

  // Adds J_b^T G_b J_b of every block through @p add(row, col, value): the pairs with
  // col <= row when @p lower (the block's columns are increasing), else all of them. Blocks of
  // one or two rigid bodies (6 or 12 columns) take fixed-size products.
  template <class Add>
  void add_contact_terms(const std::vector<ConstraintBlock>& blocks, bool lower, Add&& add) {
    for (std::size_t b = 0; b < blocks.size(); ++b) add_contact_terms_of(blocks, b, lower, add);
  }
  // add_contact_terms() of block @p b alone.
  template <class Add>
  void add_contact_terms_of(const std::vector<ConstraintBlock>& blocks, std::size_t b, bool lower, Add& add) {
    const Index s = block_size(blocks[b].kind), k_b = col_start[b + 1] - col_start[b];
    if (s == 3 && k_b == 12)
      add_block<3, 12>(b, lower, add);
    else if (s == 3 && k_b == 6)
      add_block<3, 6>(b, lower, add);
    else if (s == 1 && k_b == 12)
      add_block<1, 12>(b, lower, add);
    else if (s == 1 && k_b == 6)
      add_block<1, 6>(b, lower, add);
    else
      add_block_any(b, lower, add);
  }
  // Any size (a tree's contact, whose bodies move by every joint up to the root): the same sums
  // in loops over the workspace's gj, so that no temporary is allocated per block.
  template <class Add>
  void add_block_any(std::size_t b, bool lower, Add& add) {
    const Index first = col_start[b], k_b = col_start[b + 1] - first, s = (jb_start[b + 1] - jb_start[b]) / k_b;
    const double* J = jb.data() + jb_start[b];  // s x k_b, row-major
    const auto& G = evals[b].G;
    gj.resize(static_cast<std::size_t>(s * k_b));
    for (Index i = 0; i < s; ++i)
      for (Index c = 0; c < k_b; ++c) {
        double x = 0.0;
        for (Index j = 0; j < s; ++j) x += G(i, j) * J[j * k_b + c];
        gj[static_cast<std::size_t>(i * k_b + c)] = x;
      }
    for (Index a = 0; a < k_b; ++a)
      for (Index c = 0; c < (lower ? a + 1 : k_b); ++c) {
        double x = 0.0;
        for (Index i = 0; i < s; ++i) x += J[i * k_b + a] * gj[static_cast<std::size_t>(i * k_b + c)];
        add(cols[first + a], cols[first + c], x);
      }
  }
  std::vector<double> gj;  // add_block_any: G J of one block (s x k, row-major)

  // add_contact_terms() into the lower triangle of the dense Newton matrix. A wide block of three
  // rows over consecutive columns (a tree's contact: every joint from its body to the root) is
  // summed column by column, each column's entries from the diagonal down in one loop:
  // the same sums in the same order as add_block_any()'s, so the same bits.
  void add_contact_terms_dense(const std::vector<ConstraintBlock>& blocks) {
    const auto add = [&](Index r, Index c, double x) { dense(r, c) += x; };
    for (std::size_t b = 0; b < blocks.size(); ++b) {
      const Index first = col_start[b], k_b = col_start[b + 1] - first, s = block_size(blocks[b].kind);
      if (s != 3 || k_b == 6 || k_b == 12 || k_b == 0 || cols[first + k_b - 1] - cols[first] != k_b - 1) {
        add_contact_terms_of(blocks, b, /*lower=*/true, add);
        continue;
      }
      const double* J = jb.data() + jb_start[b];  // 3 x k_b, row-major
      const auto& G = evals[b].G;
      gj.resize(static_cast<std::size_t>(3 * k_b));
      for (Index i = 0; i < 3; ++i)
        for (Index c = 0; c < k_b; ++c) {
          double x = 0.0;
          for (Index j = 0; j < 3; ++j) x += G(i, j) * J[j * k_b + c];
          gj[static_cast<std::size_t>(i * k_b + c)] = x;
        }
      // Plain loops over raw columns: at these lengths (up to a few dozen) Eigen's segment
      // expressions cost more in set-up than in arithmetic; the compiler vectorizes these.
      const Index c0 = cols[first], ld = dense.rows();
      for (Index c = 0; c < k_b; ++c) {
        const double g0 = gj[static_cast<std::size_t>(c)], g1 = gj[static_cast<std::size_t>(k_b + c)],
                     g2 = gj[static_cast<std::size_t>(2 * k_b + c)];
        const double *j0 = J + c, *j1 = J + k_b + c, *j2 = J + 2 * k_b + c;
        double* out = dense.data() + (c0 + c) * ld + (c0 + c);  // column c0 + c from the diagonal down
        for (Index a = 0; a < k_b - c; ++a) out[a] += (j0[a] * g0 + j1[a] * g1) + j2[a] * g2;
      }
    }
  }
  template <int S, int K, class Add>
  void add_block(std::size_t b, bool lower, Add& add) {
    using Rows = Eigen::Matrix<double, S, K, Eigen::RowMajor>;
    const Index first = col_start[b], k_b = col_start[b + 1] - first, s = (jb_start[b + 1] - jb_start[b]) / k_b;
    const Eigen::Map<const Rows> Jb(jb.data() + jb_start[b], s, k_b);
    const Rows GJ = evals[b].G.topLeftCorner(s, s).lazyProduct(Jb);
    const Eigen::Matrix<double, K, K> C = Jb.transpose().lazyProduct(GJ);  // no GEMM set-up
    for (Index a = 0; a < k_b; ++a)
      for (Index c = 0; c < (lower ? a + 1 : k_b); ++c) add(cols[first + a], cols[first + c], C(a, c));
  }

  // The sparse Newton matrix's pattern (M's and every block's k x k columns) and where M's
  // entries and the blocks' terms land in its values; rebuilt only when M's or J's pattern or
  // the blocks change (a resting contact set keeps it from step to step).
  void map_sparse_pattern(const GlobalProblem& p) {
    const CsrMatrix& M = p.M;
    if (mapped && M.row_ptr == mapped_M_row_ptr && M.col_idx == mapped_M_col_idx) return;  // J's: gather()
    triplets.clear();
    for (Index i = 0; i < M.rows; ++i)
      for (Index k = M.row_ptr[i]; k < M.row_ptr[i + 1]; ++k) triplets.emplace_back(i, M.col_idx[k], 0.0);
    for (std::size_t b = 0; b < p.blocks.size(); ++b)
      for (Index a = col_start[b]; a < col_start[b + 1]; ++a)
        for (Index c = col_start[b]; c < col_start[b + 1]; ++c) triplets.emplace_back(cols[a], cols[c], 0.0);
    csr_from_triplets(triplets, M.rows, M.cols, /*transposed=*/false, sparse);
    const auto position = [&](Index r, Index c) {
      const auto begin = sparse.col_idx.begin() + sparse.row_ptr[r],
                 end = sparse.col_idx.begin() + sparse.row_ptr[r + 1];
      return static_cast<Index>(std::lower_bound(begin, end, c) - sparse.col_idx.begin());
    };
    m_pos.resize(M.nnz());
    for (Index i = 0; i < M.rows; ++i)
      for (Index k = M.row_ptr[i]; k < M.row_ptr[i + 1]; ++k) m_pos[k] = position(i, M.col_idx[k]);
    block_pos.clear();
    for (std::size_t b = 0; b < p.blocks.size(); ++b)
      for (Index a = col_start[b]; a < col_start[b + 1]; ++a)
        for (Index c = col_start[b]; c < col_start[b + 1]; ++c) block_pos.push_back(position(cols[a], cols[c]));
    mapped_M_row_ptr = M.row_ptr;
    mapped_M_col_idx = M.col_idx;
    mapped = true;
    analysed = false;
  }
  // Factors M + J^T G J (G from evals); false when it is not positive definite.
  bool factor_newton_matrix(const GlobalProblem& p, bool dense_path) {
    const CsrMatrix& M = p.M;
    if (dense_path) {
      const Index n = M.rows;
      dense.setZero(n, n);
      for (Index i = 0; i < n; ++i)
        for (Index k = M.row_ptr[i]; k < M.row_ptr[i + 1] && M.col_idx[k] <= i; ++k)
          dense(i, M.col_idx[k]) = M.values[k];
      add_contact_terms_dense(p.blocks);
      if (banded()) return band_cholesky();
      // Unblocked: at these sizes the blocked LLT's panel GEMMs cost more than they save.
      return Eigen::internal::llt_inplace<double, Eigen::Lower>::unblocked(dense) < 0;
    }
    map_sparse_pattern(p);
    std::fill(sparse.values.begin(), sparse.values.end(), 0.0);
    for (Index k = 0; k < M.nnz(); ++k) sparse.values[m_pos[k]] += M.values[k];
    std::size_t at = 0;
    add_contact_terms(p.blocks, /*lower=*/false, [&](Index, Index, double x) { sparse.values[block_pos[at++]] += x; });
    try {
      if (analysed) {
        sparse_solver.factorize(sparse);
      } else {
        sparse_solver.compute(sparse, InputCheck::kTrusted);  // symmetric by construction
        analysed = true;
      }
    } catch (const Error&) {
      analysed = false;
      return false;
    }
    return true;
  }

  // Lower bandwidth of the Newton matrix (M's and every block's columns; set by solve()): bodies
  // numbered along a chain of contacts (a stack) give a narrow band whatever their count.
  Index band = 0;
  bool banded() const { return 4 * (band + 1) <= dense.rows(); }

  // Right-looking Cholesky of the dense lower triangle within the band (fill stays inside it):
  // O(n band^2) instead of O(n^3); false on a non-positive pivot.
  bool band_cholesky() {
    const Index n = dense.rows();
    for (Index k = 0; k < n; ++k) {
      const double d = dense(k, k);
      if (!(d > 0.0)) return false;
      const double l = std::sqrt(d);
      dense(k, k) = l;
      const Index e = std::min(n - 1, k + band);
      dense.col(k).segment(k + 1, e - k) /= l;
      for (Index j = k + 1; j <= e; ++j)
        dense.col(j).segment(j, e - j + 1) -= dense(j, k) * dense.col(k).segment(j, e - j + 1);
    }
    return true;
  }

  // x <- (L L^T)^-1 x on band_cholesky()'s factor.
  void band_solve(Eigen::VectorXd& x) const {
    const Index n = dense.rows();
    for (Index k = 0; k < n; ++k) {
      x[k] /= dense(k, k);
      const Index e = std::min(n - 1, k + band);
      x.segment(k + 1, e - k) -= x[k] * dense.col(k).segment(k + 1, e - k);
    }
    for (Index k = n - 1; k >= 0; --k) {
      const Index e = std::min(n - 1, k + band);
      x[k] = (x[k] - dense.col(k).segment(k + 1, e - k).dot(x.segment(k + 1, e - k))) / dense(k, k);
    }
  }

  // x <- (M + J^T G J)^-1 x on the last factor.
  void solve_newton(bool dense_path, Eigen::VectorXd& x) const {
    if (dense_path && banded()) {
      band_solve(x);
    } else if (dense_path) {
      dense.triangularView<Eigen::Lower>().solveInPlace(x);
      dense.triangularView<Eigen::Lower>().adjoint().solveInPlace(x);
    } else
      sparse_solver.solve_in_place(x);
  }
};

SapSolver::SapSolver(const SapOptions& options) : options_(options), work_(std::make_unique<Workspace>()) {
  require(options.stop.tolerance > 0.0 && options.stop.max_iterations >= 1,
          "SapSolver: tolerance must be > 0 and max_iterations >= 1");
  require(options.rigid_fraction > 0.0 && options.sigma > 0.0 && options.max_step >= 1.0,
          "SapSolver: rigid_fraction and sigma must be > 0 and max_step >= 1");
  require(options.dense_max_velocities >= 0, "SapSolver: dense_max_velocities must be >= 0");
}

SapSolver::~SapSolver() = default;
SapSolver::SapSolver(SapSolver&&) noexcept = default;
SapSolver& SapSolver::operator=(SapSolver&&) noexcept = default;

SolverReport SapSolver::solve(const GlobalProblem& p, GlobalSolution& solution) {
  p.validate();
  try {
    work_->own_mass.compute(p.M, InputCheck::kTrusted);  // symmetric: checked by validate()
  } catch (const Error& e) {
    throw Error(std::string("sap: M is not positive definite: ") + e.what());
  }
  return solve(p, work_->own_mass, solution, InputCheck::kTrusted);
}

SolverReport SapSolver::solve(const GlobalProblem& p, const LinearSolver& mass, GlobalSolution& solution,
                              InputCheck check) {
  SolverReport report;
  solve(p, mass, solution, report, check);
  return report;
}

void SapSolver::solve(const GlobalProblem& p, const LinearSolver& mass, GlobalSolution& solution, SolverReport& report,
                      InputCheck check) {
  if (check == InputCheck::kFull) p.validate();
  for (std::size_t b = 0; b < p.blocks.size(); ++b)
    require(p.blocks[b].kind != BlockKind::kContactBoxFriction, [&] {
      return "sap: block " + std::to_string(b) + " uses box friction; the convex approximation needs a circular cone";
    });
  const Index n = p.velocities(), m = p.rows();
  require(mass.factored() && mass.rows() == n,
          [&] { return "sap: the mass solver must hold a factor of M with " + std::to_string(n) + " rows"; });
  require(solution.r.size() == 0 || solution.r.size() == m,
          [&] { return "sap: the warm start r must be empty or have " + std::to_string(m) + " entries"; });
  Workspace& w = *work_;
  w.gather(p);
  const std::vector<Index>& offsets = w.offsets;
  const bool dense_path = n <= options_.dense_max_velocities;
  w.band = w.block_band;
  for (Index i = 0; i < n; ++i)
    for (Index k = p.M.row_ptr[i]; k < p.M.row_ptr[i + 1]; ++k) w.band = std::max(w.band, i - p.M.col_idx[k]);
  w.v_star = p.f;
  mass.solve_in_place(w.v_star);
  csr_diagonal(p.M, w.Mdiag);
  w.D = w.Mdiag.cwiseSqrt().cwiseInverse();

  // Regularization: near-rigid normal, small tangential, from diagonal estimates of W:
  // W_kk ~ sum_j H_jk^2 / M_jj.
  Eigen::VectorXd& R = R_;
  R.setZero(m);
  for (Index j = 0; j < n; ++j)
    for (Index k = p.H.row_ptr[j]; k < p.H.row_ptr[j + 1]; ++k)
      R[p.H.col_idx[k]] += p.H.values[k] * p.H.values[k] / w.Mdiag[j];
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = offsets[b];
    const int s = block_size(p.blocks[b].kind);
    const double wc = std::max(R.segment(i, s).mean(), 1e-300);
    R[i] = options_.rigid_fraction * wc;
    for (int k = 1; k < s; ++k) R[i + k] = options_.sigma * wc;
  }
  if (p.compliance.size()) R += p.compliance;

  // The common error measure (natural_map.hpp) of the ORIGINAL problem (without R) at r = gamma:
  // u = W gamma + q = H^T M^-1 (H gamma + f) + w + C gamma (to_delassus), one solve with M's
  // factor; natural_map_error(problem, r, u) reads only q and the blocks, so W is not formed.
  csr_multiply(w.J, w.v_star, w.original.q);
  w.original.q += p.w;
  w.original.blocks = p.blocks;
  // @p H_impulse = H impulse, the last iterate's (kept from the gradient).
  const auto natural_map = [&](const Eigen::VectorXd& impulse, const Eigen::VectorXd& H_impulse) {
    w.mass_rhs = H_impulse + p.f;
    mass.solve_in_place(w.mass_rhs);
    csr_multiply(w.J, w.mass_rhs, w.u_r);
    w.u_r += p.w;
    if (p.compliance.size()) w.u_r += p.compliance.cwiseProduct(impulse);
    return natural_map_error(w.original, impulse, w.u_r).relative;
  };
  Eigen::VectorXd& v = w.v;
  if (solution.r.size() == m) {
    csr_multiply(p.H, solution.r, v);
    v += p.f;
    mass.solve_in_place(v);
  } else {
    v = w.v_star;
  }
  // Every per-iteration vector sized here, with the problem, rather than at the first Newton
  // step, which may come steps later: a kept size then costs no allocation.
  for (Eigen::VectorXd* x : {&w.gamma, &w.gamma_a, &w.u, &w.u_a, &w.du, &w.u_r}) x->resize(m);
  for (Eigen::VectorXd* x : {&w.Mv, &w.momentum, &w.impulse, &w.grad, &w.dv, &w.mass_rhs}) x->resize(n);
  if (dense_path) w.dense.resize(n, n);
  w.evals.resize(p.blocks.size());
  report.reset();
  // Kept by a kept report; capped so that a huge iteration limit does not reserve megabytes.
  report.error_history.reserve(std::min<std::size_t>(static_cast<std::size_t>(options_.stop.max_iterations) + 1, 4096));
  double optimality = 0.0;
  // The natural-map error is evaluated once, at the answer (it costs a solve with M's factor).
  const auto finish = [&](SolverStatus status, std::string_view message) {
    report.error = natural_map(w.gamma, w.impulse);
    if (report.iterations > 0) report.error_history.push_back(report.error);
    if (status != SolverStatus::kFailed && !std::isfinite(report.error)) status = SolverStatus::kFailed;
    solution.v = v;
    solution.r = w.gamma;
    report.status = status;
    // A converged solve (every step of an integrator) says so without formatting numbers: its
    // error is in the report; the others carry the figures.
    report.message.reserve(96);  // one allocation for the whole message
    report.message.append("sap: ").append(message);
    if (status != SolverStatus::kConverged)
      report.message += " (scaled gradient " + number_text(optimality, 3) + ", natural-map error " +
                        number_text(report.error, 3) + ")";
    report.states.resize(w.evals.size());
    for (std::size_t b = 0; b < w.evals.size(); ++b) report.states[b] = w.evals[b].state;
  };
  for (int it = 0;; ++it) {
    csr_multiply(w.J, v, w.u);
    w.u += p.w;
    evaluate(p.blocks, offsets, R, w.u, w.gamma, &w.evals);
    csr_multiply(p.M, v, w.Mv);
    w.momentum = w.Mv - p.f;  // M (v - v*), M v* = f
    csr_multiply(p.H, w.gamma, w.impulse);
    w.grad = w.momentum - w.impulse;
    const double scale = std::max(w.D.cwiseProduct(w.Mv).norm(), w.D.cwiseProduct(w.impulse).norm());
    optimality = w.D.cwiseProduct(w.grad).norm() / (scale > 0.0 ? scale : 1.0);
    if (!std::isfinite(optimality))
      return finish(SolverStatus::kFailed, "non-finite gradient at step " + std::to_string(it));
    if (optimality <= options_.stop.tolerance) return finish(SolverStatus::kConverged, converged_text(it));
    if (it == options_.stop.max_iterations)
      return finish(SolverStatus::kNotConverged, "scaled gradient " + number_text(optimality, 3) + " > tolerance " +
                                                     number_text(options_.stop.tolerance, 3) + " after " +
                                                     std::to_string(it) + " Newton steps");
    // Newton step on M + H G H^T (G block diagonal, PSD).
    if (!w.factor_newton_matrix(p, dense_path))
      return finish(SolverStatus::kFailed, "the Newton matrix could not be factored at step " + std::to_string(it));
    w.dv = w.grad;
    w.solve_newton(dense_path, w.dv);
    w.dv = -w.dv;
    csr_multiply(w.J, w.dv, w.du);
    // Exact line search: root of g(a) = dv^T M (v + a dv - v*) - du^T gamma(a) on [0, max_step]
    // (l is convex along the line: g is non-decreasing), safeguarded Newton-bisection.
    csr_multiply(p.M, w.dv, w.mass_rhs);
    const double dMd = w.dv.dot(w.mass_rhs), dMv = w.dv.dot(w.momentum);
    const auto slope = [&](double a, double* curvature) {
      w.u_a = w.u + a * w.du;
      evaluate(p.blocks, offsets, R, w.u_a, w.gamma_a, curvature ? &w.evals : nullptr);
      if (curvature) {
        double c = dMd;
        for (std::size_t b = 0; b < p.blocks.size(); ++b) {
          const int s = block_size(p.blocks[b].kind);
          const auto d = w.du.segment(offsets[b], s);
          c += d.dot(w.evals[b].G.topLeftCorner(s, s) * d);
        }
        *curvature = c;
      }
      return dMv + a * dMd - w.du.dot(w.gamma_a);
    };
    const double g0 = dMv - w.du.dot(w.gamma);  // slope(0): gamma(0) is the iterate's gamma
    double lo = 0.0, hi = options_.max_step, alpha = hi;
    if (g0 < 0.0 && slope(hi, nullptr) > 0.0) {
      alpha = 1.0;
      for (int k = 0; k < 100; ++k) {
        double curvature = 0.0;
        const double g = slope(alpha, &curvature);
        // Stop at the root, or where g is round-off: its terms' sizes times 1e-13 (a stricter
        // test only bisects down to 1e-15 of the bracket, about 20 evaluations a search).
        const double terms = std::fabs(dMv) + alpha * dMd + w.du.norm() * w.gamma_a.norm();
        if (std::fabs(g) <= 1e-14 * std::fabs(g0) || std::fabs(g) <= 1e-13 * terms) break;
        (g < 0.0 ? lo : hi) = alpha;
        const double next = curvature > 0.0 ? alpha - g / curvature : 0.5 * (lo + hi);
        alpha = (next > lo && next < hi) ? next : 0.5 * (lo + hi);
        if (hi - lo <= 1e-15 * hi) break;
      }
    } else if (!(g0 < 0.0)) {
      alpha = 0.0;  // not a descent direction (round-off at the optimum): stop moving
    }
    if (alpha == 0.0)
      return finish(SolverStatus::kNotConverged, "no descent left at scaled gradient " + number_text(optimality, 3) +
                                                     " (round-off floor above the tolerance " +
                                                     number_text(options_.stop.tolerance, 3) + ")");
    v += alpha * w.dv;
    report.iterations = it + 1;
  }
}

}  // namespace sinew::constraints
