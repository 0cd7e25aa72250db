#include "sinew/constraints/constraint_problem.hpp"

#include <algorithm>
#include <cmath>

#include <Eigen/SparseCore>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"
#include "sinew/linalg/block_diagonal_solver.hpp"

namespace sinew::constraints {

std::vector<Index> block_offsets(const std::vector<ConstraintBlock>& blocks) {
  std::vector<Index> offsets;
  block_offsets_into(blocks, offsets);
  return offsets;
}

void block_offsets_into(const std::vector<ConstraintBlock>& blocks, std::vector<Index>& offsets) {
  offsets.assign(blocks.size() + 1, 0);
  for (std::size_t b = 0; b < blocks.size(); ++b) offsets[b + 1] = offsets[b] + block_size(blocks[b].kind);
}

std::string to_string(BlockKind kind) {
  switch (kind) {
    case BlockKind::kBilateral:
      return "bilateral";
    case BlockKind::kUnilateral:
      return "unilateral";
    case BlockKind::kContact:
      return "contact";
    case BlockKind::kContactBoxFriction:
      return "contact-box-friction";
  }
  return "unknown";
}

void validate_blocks(const std::vector<ConstraintBlock>& blocks, Index rows, const char* what) {
  Index total = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    const ConstraintBlock& block = blocks[b];
    const int kind = static_cast<int>(block.kind);
    // Messages only on failure: this runs on every step's rows.
    if (kind < 0 || kind > static_cast<int>(BlockKind::kContactBoxFriction))
      throw Error(std::string(what) + ": block " + std::to_string(b) + " has an unknown kind " + std::to_string(kind));
    if (!(std::isfinite(block.mu) && block.mu >= 0.0))
      throw Error(std::string(what) + ": block " + std::to_string(b) + " (" + to_string(block.kind) +
                  ") needs a finite friction coefficient mu >= 0, got " + number_text(block.mu));
    total += block_size(block.kind);
  }
  require(total == rows, [&] {
    return std::string(what) + ": the blocks cover " + std::to_string(total) + " rows but the problem has " +
           std::to_string(rows);
  });
}

namespace {

// Messages are built only on failure: a problem is validated on every solve.
void require_finite(const Eigen::VectorXd& x, const char* what) {
  if (x.allFinite()) return;
  for (Eigen::Index i = 0; i < x.size(); ++i)
    if (!std::isfinite(x[i])) throw Error(std::string(what) + ": entry " + std::to_string(i) + " is not finite");
}

void require_finite(const CsrMatrix& A, const char* what) {
  bool finite = true;
  for (double v : A.values) finite &= std::isfinite(v);
  if (finite) return;
  for (Index r = 0; r < A.rows; ++r)
    for (Index k = A.row_ptr[r]; k < A.row_ptr[r + 1]; ++k)
      if (!std::isfinite(A.values[k]))
        throw Error(std::string(what) + ": entry (" + std::to_string(r) + ", " + std::to_string(A.col_idx[k]) +
                    ") is not finite");
}

}  // namespace

void DelassusProblem::validate() const {
  const Index m = rows();
  if (W.rows != m || W.cols != m)
    throw Error("DelassusProblem: W must be " + std::to_string(m) + "x" + std::to_string(m) + " (the size of q), got " +
                std::to_string(W.rows) + "x" + std::to_string(W.cols));
  W.validate();
  require_finite(W, "DelassusProblem: W");
  require_finite(q, "DelassusProblem: q");
  validate_blocks(blocks, m, "DelassusProblem");
}

Asymmetry asymmetry(const CsrMatrix& W) {
  Asymmetry a;
  double scale = 0.0, worst = 0.0;
  for (double v : W.values) scale = std::max(scale, std::fabs(v));
  for (Index i = 0; i < W.rows; ++i)
    for (Index k = W.row_ptr[i]; k < W.row_ptr[i + 1]; ++k) {
      const Index j = W.col_idx[k];
      if (j <= i) continue;  // each pair once, from its upper entry; lower-only entries below
      const auto begin = W.col_idx.begin() + W.row_ptr[j], end = W.col_idx.begin() + W.row_ptr[j + 1];
      const auto it = std::lower_bound(begin, end, i);
      const double mirror = (it != end && *it == i) ? W.values[static_cast<std::size_t>(it - W.col_idx.begin())] : 0.0;
      const double d = std::fabs(W.values[k] - mirror);
      if (d > worst) worst = d, a.row = i, a.col = j;
    }
  for (Index i = 0; i < W.rows; ++i)  // entries below the diagonal whose mirror is absent
    for (Index k = W.row_ptr[i]; k < W.row_ptr[i + 1] && W.col_idx[k] < i; ++k) {
      const Index j = W.col_idx[k];
      const auto begin = W.col_idx.begin() + W.row_ptr[j], end = W.col_idx.begin() + W.row_ptr[j + 1];
      if (std::binary_search(begin, end, i)) continue;
      const double d = std::fabs(W.values[k]);
      if (d > worst) worst = d, a.row = i, a.col = j;
    }
  a.relative = scale > 0.0 ? worst / scale : 0.0;
  return a;
}

void require_symmetric_w(const DelassusProblem& problem, const std::string& who, const std::string& alternative,
                         double relative_tolerance) {
  const Asymmetry a = asymmetry(problem.W);
  if (a.relative <= relative_tolerance) return;
  throw Error(who + ": needs a symmetric W, but W differs from its transpose by " + number_text(a.relative) +
              " of its largest entry (at (" + std::to_string(a.row) + ", " + std::to_string(a.col) + "), tolerance " +
              number_text(relative_tolerance) + "); use " + alternative + ", which solve a non-symmetric W");
}

void GlobalProblem::validate() const {
  const Index n = velocities(), m = rows();
  require(M.rows == n && M.cols == n, [&] {
    return "GlobalProblem: M must be " + std::to_string(n) + "x" + std::to_string(n) + " (the size of f), got " +
           std::to_string(M.rows) + "x" + std::to_string(M.cols);
  });
  require(H.rows == n && H.cols == m, [&] {
    return "GlobalProblem: H must be " + std::to_string(n) + "x" + std::to_string(m) +
           " (size of f x size of w, FCLIB's H = J^T), got " + std::to_string(H.rows) + "x" + std::to_string(H.cols);
  });
  M.validate();
  H.validate();
  require_finite(M, "GlobalProblem: M");
  require_finite(H, "GlobalProblem: H");
  require_symmetric(M, "GlobalProblem: M");
  require_finite(f, "GlobalProblem: f");
  require_finite(w, "GlobalProblem: w");
  require(compliance.size() == 0 || compliance.size() == m, [&] {
    return "GlobalProblem: compliance must be empty or have " + std::to_string(m) + " entries, got " +
           std::to_string(compliance.size());
  });
  for (Eigen::Index i = 0; i < compliance.size(); ++i)
    require(std::isfinite(compliance[i]) && compliance[i] >= 0.0,
            [&] { return "GlobalProblem: compliance " + std::to_string(i) + " must be finite and >= 0"; });
  validate_blocks(blocks, m, "GlobalProblem");
}

namespace {

// Scratch of the block-by-block W, kept per thread: a step allocates nothing once the sizes have
// been seen.
struct BlockDelassusScratch {
  std::vector<Index> cols, col_start, local;  // the columns each block touches, concatenated
  // One block's H_k, A_k^-1 H_k, H_k^T A_k^-1 H_k, and the dense W: storage of vectors, which
  // keep their capacity as the sizes change from body to body and step to step (an Eigen matrix
  // reallocates on every change of size).
  std::vector<double> Hk, Xk, Wk, dense;
  std::vector<Eigen::Triplet<double, Index>> entries;
  std::vector<unsigned char> stored;  // which entries of dense received a term
  Eigen::VectorXd y, Hty;
};

// This thread's scratch. Not inlined on purpose: in a shared library GCC recomputes a
// thread_local's address (a __tls_get_addr call) at every use in the function that declares it,
// even through a reference (60 call sites, 650 calls per small step); a returned reference is
// an ordinary pointer.
[[gnu::noinline]] BlockDelassusScratch& block_delassus_scratch() {
  thread_local BlockDelassusScratch scratch;
  return scratch;
}

// W = sum_k H_k^T A_k^-1 H_k over the diagonal blocks k of M (a rigid body, a free particle),
// H_k the rows of H in block k restricted to the columns they touch: a body meets only its own
// contacts and joints, so this costs O(sum_k c_k^2) for c_k columns, not O(n m) as the panels
// do. Each entry goes in halved as (i, j) and (j, i), as in the panels, so that W is exactly
// symmetric; the compliance C is added last. When W is at least 1/8 full (a few bodies and
// their contacts), the terms are summed into a dense m x m array in the order the triplets
// would be summed, then read out in CSR order: the same bits and pattern as the triplets,
// without sorting them (the sort was an eighth of a small step).
void block_delassus(const CsrMatrix& H, const BlockDiagonalSolver& solver, const Eigen::VectorXd& compliance,
                    BlockDelassusScratch& s, CsrMatrix& W) {
  const std::vector<Index>& starts = solver.block_starts();
  const Index m = H.cols;
  s.local.assign(static_cast<std::size_t>(m), -1);
  s.cols.clear();
  s.col_start.assign(1, 0);
  double terms = 0.0;  // sum_k c_k^2: the triplets the sparse sum would sort
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    const Index first = static_cast<Index>(s.cols.size());
    for (Index r = starts[k]; r < starts[k + 1]; ++r)
      for (Index e = H.row_ptr[r]; e < H.row_ptr[r + 1]; ++e) {
        Index& at = s.local[static_cast<std::size_t>(H.col_idx[e])];
        if (at < 0) {
          at = static_cast<Index>(s.cols.size()) - first;
          s.cols.push_back(H.col_idx[e]);
        }
      }
    for (std::size_t c = static_cast<std::size_t>(first); c < s.cols.size(); ++c)
      s.local[static_cast<std::size_t>(s.cols[c])] = -1;
    s.col_start.push_back(static_cast<Index>(s.cols.size()));
    const double c = static_cast<double>(s.cols.size()) - first;
    terms += c * c;
  }
  const bool dense = m <= 2048 && static_cast<double>(m) * static_cast<double>(m) <= 8.0 * terms;
  if (dense) {
    s.dense.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(m), 0.0);
    s.stored.assign(static_cast<std::size_t>(m) * static_cast<std::size_t>(m), 0);
  } else {
    s.entries.clear();
  }
  const auto add = [&](Index i, Index j, double v) {
    if (dense) {
      s.dense[static_cast<std::size_t>(j) * static_cast<std::size_t>(m) + static_cast<std::size_t>(i)] += v;
      s.stored[static_cast<std::size_t>(j) * static_cast<std::size_t>(m) + static_cast<std::size_t>(i)] = 1;
    } else {
      s.entries.emplace_back(i, j, v);
    }
  };
  for (std::size_t k = 0; k + 1 < starts.size(); ++k) {
    const Index r0 = starts[k], d = starts[k + 1] - r0;
    const Index* cols = s.cols.data() + s.col_start[k];
    const Index c = s.col_start[k + 1] - s.col_start[k];
    if (c == 0) continue;
    for (Index a = 0; a < c; ++a) s.local[static_cast<std::size_t>(cols[a])] = a;
    const std::size_t dc = static_cast<std::size_t>(d) * static_cast<std::size_t>(c);
    s.Hk.assign(dc, 0.0);
    s.Xk.resize(dc);
    s.Wk.resize(static_cast<std::size_t>(c) * static_cast<std::size_t>(c));
    Eigen::Map<Eigen::MatrixXd> Hk(s.Hk.data(), d, c), Xk(s.Xk.data(), d, c), Wk(s.Wk.data(), c, c);
    for (Index r = r0; r < r0 + d; ++r)
      for (Index e = H.row_ptr[r]; e < H.row_ptr[r + 1]; ++e)
        Hk(r - r0, s.local[static_cast<std::size_t>(H.col_idx[e])]) = H.values[e];
    Xk = Hk;
    solver.solve_block_columns(k, Xk.data(), c);
    Wk.noalias() = Hk.transpose() * Xk;
    for (Index b = 0; b < c; ++b)
      for (Index a = 0; a < c; ++a)
        if (Wk(a, b) != 0.0) {
          add(cols[a], cols[b], 0.5 * Wk(a, b));
          add(cols[b], cols[a], 0.5 * Wk(a, b));
        }
    for (Index a = 0; a < c; ++a) s.local[static_cast<std::size_t>(cols[a])] = -1;
  }
  for (Index i = 0; i < compliance.size(); ++i) add(i, i, compliance[i]);
  if (!dense) {
    csr_from_triplets(s.entries, m, m, /*transposed=*/false, W);  // setFromTriplets' sums
    return;
  }
  W.rows = W.cols = m;
  W.row_ptr.resize(static_cast<std::size_t>(m) + 1);
  W.col_idx.clear();
  W.values.clear();
  W.row_ptr[0] = 0;
  for (Index i = 0; i < m; ++i) {  // W is symmetric: row i of W is column i of the array
    const unsigned char* stored = s.stored.data() + static_cast<std::size_t>(i) * static_cast<std::size_t>(m);
    for (Index j = 0; j < m; ++j)
      if (stored[j]) {
        W.col_idx.push_back(j);
        W.values.push_back(
            s.dense[static_cast<std::size_t>(i) * static_cast<std::size_t>(m) + static_cast<std::size_t>(j)]);
      }
    W.row_ptr[static_cast<std::size_t>(i) + 1] = static_cast<Index>(W.col_idx.size());
  }
}

}  // namespace

void to_delassus(const GlobalProblem& problem, LinearSolver& mass_solver, DelassusProblem& local, InputCheck check) {
  if (check == InputCheck::kFull) problem.validate();
  mass_solver.compute(problem.M, check);
  const Index m = problem.rows();
  if (const auto* blocks = dynamic_cast<const BlockDiagonalSolver*>(&mass_solver)) {
    BlockDelassusScratch& s = block_delassus_scratch();
    block_delassus(problem.H, *blocks, problem.compliance, s, local.W);
    // q = w + H^T M^-1 f on H's rows, summed over the DOFs in increasing order for each row of
    // W, as Eigen's H^T x below.
    s.y = problem.f;  // M^-1 f block by block: the bits of the whole solve
    const std::vector<Index>& starts = blocks->block_starts();
    for (std::size_t k = 0; k + 1 < starts.size(); ++k) blocks->solve_block(k, s.y.data() + starts[k]);
    s.Hty.setZero(m);
    for (Index i = 0; i < problem.H.rows; ++i)
      for (Index k = problem.H.row_ptr[i]; k < problem.H.row_ptr[i + 1]; ++k)
        s.Hty[problem.H.col_idx[k]] += problem.H.values[k] * s.y[i];
    local.q = problem.w + s.Hty;
  } else {
    // W in panels of columns: X = M^-1 H(:, panel) densely, then W(:, panel) = H^T X, of which
    // only the non-zeros are kept. Each kept entry goes in twice, halved, as (i, j) and (j, i),
    // so that the sum of duplicates is exactly symmetric (H^T M^-1 H is symmetric in exact
    // arithmetic).
    thread_local std::vector<Eigen::Triplet<double, Index>> kept_entries;  // no allocation once sized
    std::vector<Eigen::Triplet<double, Index>>& entries = kept_entries;
    entries.clear();
    const Eigen::SparseMatrix<double, Eigen::ColMajor, Index> H = to_eigen(problem.H);
    constexpr Index kPanel = 64;
    for (Index c0 = 0; c0 < m; c0 += kPanel) {
      const Index width = std::min(kPanel, m - c0);
      const Eigen::MatrixXd X = mass_solver.solve(Eigen::MatrixXd(H.middleCols(c0, width)));
      const Eigen::MatrixXd block = H.transpose() * X;  // W(:, c0 .. c0 + width)
      for (Index j = 0; j < width; ++j)
        for (Index i = 0; i < m; ++i)
          if (block(i, j) != 0.0) {
            entries.emplace_back(i, c0 + j, 0.5 * block(i, j));
            entries.emplace_back(c0 + j, i, 0.5 * block(i, j));
          }
    }
    local.q = problem.w + H.transpose() * mass_solver.solve(problem.f);
    if (problem.compliance.size())
      for (Index i = 0; i < m; ++i) entries.emplace_back(i, i, problem.compliance[i]);
    csr_from_triplets(entries, m, m, /*transposed=*/false, local.W);  // setFromTriplets' sums
  }
  local.blocks = problem.blocks;
}

DelassusProblem to_delassus(const GlobalProblem& problem, LinearSolver& mass_solver) {
  DelassusProblem local;
  to_delassus(problem, mass_solver, local);
  return local;
}

void global_velocity(const GlobalProblem& problem, const LinearSolver& mass_solver, const Eigen::VectorXd& r,
                     Eigen::VectorXd& v) {
  require(mass_solver.factored() && mass_solver.rows() == problem.velocities(),
          "global_velocity: the solver must hold the factorization of M (call to_delassus first)");
  require(r.size() == problem.rows(), [&] {
    return "global_velocity: r must have " + std::to_string(problem.rows()) + " entries, got " +
           std::to_string(r.size());
  });
  const CsrMatrix& H = problem.H;
  v.resize(H.rows);  // H r + f, row by row (the sums of Eigen's sparse product), then solved in place
  for (Index i = 0; i < H.rows; ++i) {
    double s = 0.0;
    for (Index k = H.row_ptr[i]; k < H.row_ptr[i + 1]; ++k) s += H.values[k] * r[H.col_idx[k]];
    v[i] = s + problem.f[i];
  }
  mass_solver.solve_in_place(v);
}

Eigen::VectorXd global_velocity(const GlobalProblem& problem, const LinearSolver& mass_solver,
                                const Eigen::VectorXd& r) {
  Eigen::VectorXd v;
  global_velocity(problem, mass_solver, r, v);
  return v;
}

}  // namespace sinew::constraints
