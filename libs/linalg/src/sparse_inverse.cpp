#include "sinew/linalg/sparse_inverse.hpp"

#include <limits>
#include <string>
#include <utility>

#include "host_parallel.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/traffic.hpp"

namespace sinew {

std::vector<Index> elimination_tree(const CsrMatrix& A, const std::vector<Index>& perm) {
  const Index n = A.rows;
  require(static_cast<Index>(perm.size()) == n, [&] {
    return "elimination_tree: permutation has " + std::to_string(perm.size()) + " entries, expected " +
           std::to_string(n);
  });
  std::vector<Index> iperm(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    require(perm[k] >= 0 && perm[k] < n && iperm[perm[k]] == -1, "elimination_tree: perm is not a permutation");
    iperm[perm[k]] = k;
  }
  // Liu's algorithm with path compression (as in CSparse's cs_etree), on the columns of
  // C = P A P^T: column k of C is row perm[k] of A relabelled by iperm.
  std::vector<Index> parent(static_cast<std::size_t>(n), -1), ancestor(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    const Index row = perm[k];
    for (Index p = A.row_ptr[row]; p < A.row_ptr[row + 1]; ++p) {
      for (Index i = iperm[A.col_idx[p]]; i != -1 && i < k;) {
        const Index next = ancestor[i];
        ancestor[i] = k;
        if (next == -1) parent[i] = k;
        i = next;
      }
    }
  }
  return parent;
}

CsrMatrix invert_cholesky_factor(const CholeskyFactor& L, const std::vector<Index>& parent) {
  const Index n = L.n;
  require(static_cast<Index>(parent.size()) == n && static_cast<Index>(L.perm.size()) == n &&
              static_cast<Index>(L.col_ptr.size()) == n + 1,
          "invert_cholesky_factor: factor, permutation and tree sizes disagree");
  // Column j of L^-1 lives on path(j) = j, parent(j), ...: its length is the depth of j.
  std::vector<std::size_t> depth(static_cast<std::size_t>(n), 0);
  for (Index j = n - 1; j >= 0; --j) {
    require(parent[j] == -1 || (parent[j] > j && parent[j] < n), "invert_cholesky_factor: parent[j] must exceed j");
    depth[j] = 1 + (parent[j] == -1 ? 0 : depth[parent[j]]);
  }
  std::vector<std::size_t> col_ptr(static_cast<std::size_t>(n) + 1, 0);
  for (Index j = 0; j < n; ++j) col_ptr[j + 1] = col_ptr[j] + depth[j];
  const std::size_t nnz = col_ptr[n];
  if (nnz > static_cast<std::size_t>(std::numeric_limits<Index>::max()))
    throw Error("sparse inverse: " + std::to_string(nnz) + " entries exceed 32-bit indices; use a better ordering");
  std::vector<Index> rows(nnz);
  std::vector<double> vals(nnz);

  // Columns in fixed chunks, each with its own work arrays; results do not depend on the chunking.
  const std::size_t chunks = std::min<std::size_t>(static_cast<std::size_t>(n), 256);
  std::vector<std::string> failures(chunks);  // one slot per chunk: no shared writes
  detail::host_parallel_for(chunks, [&](std::size_t c) {
    const Index begin = static_cast<Index>(static_cast<std::size_t>(n) * c / chunks);
    const Index end = static_cast<Index>(static_cast<std::size_t>(n) * (c + 1) / chunks);
    std::vector<double> x(static_cast<std::size_t>(n), 0.0);
    std::vector<Index> mark(static_cast<std::size_t>(n), -1);
    for (Index j = begin; j < end; ++j) {
      for (Index k = j; k != -1; k = parent[k]) mark[k] = j;
      x[j] = 1.0;
      std::size_t out = col_ptr[j];
      // Forward substitution L s = e_j restricted to the path (ascending order).
      for (Index k = j; k != -1; k = parent[k]) {
        const Index diag = L.col_ptr[k];
        const double xk = x[k] / L.values[diag];
        x[k] = 0.0;  // leave the work vector clean for the next column
        rows[out] = k;
        vals[out++] = xk;
        for (Index p = diag + 1; p < L.col_ptr[k + 1]; ++p) {
          const double v = L.values[p];
          if (v == 0.0) continue;  // supernodal padding
          const Index r = L.row_idx[p];
          if (mark[r] != j) {
            failures[c] = "sparse inverse: factor entry (" + std::to_string(r) + ", " + std::to_string(k) +
                          ") is off the elimination-tree path of column " + std::to_string(j);
            return;
          }
          x[r] -= v * xk;
        }
      }
    }
  });
  for (const std::string& f : failures)
    if (!f.empty()) throw Error(f);

  // CSR of S' = L^-1 P: entry (k, j) of L^-1 goes to (k, perm[j]). Visiting columns j in the
  // order of increasing perm[j] leaves every row sorted.
  CsrMatrix S;
  S.rows = S.cols = n;
  S.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (std::size_t p = 0; p < nnz; ++p) ++S.row_ptr[static_cast<std::size_t>(rows[p]) + 1];
  for (Index k = 0; k < n; ++k) S.row_ptr[k + 1] += S.row_ptr[k];
  S.col_idx.resize(nnz);
  S.values.resize(nnz);
  std::vector<Index> next(S.row_ptr.begin(), S.row_ptr.end() - 1);
  std::vector<Index> iperm(static_cast<std::size_t>(n));
  for (Index k = 0; k < n; ++k) iperm[L.perm[k]] = k;
  for (Index c = 0; c < n; ++c) {
    const Index j = iperm[c];
    for (std::size_t p = col_ptr[j]; p < col_ptr[j + 1]; ++p) {
      const Index at = next[rows[p]]++;
      S.col_idx[at] = c;
      S.values[at] = vals[p];
    }
  }
  return S;
}

SparseInverse::SparseInverse(const CsrMatrix& A, const SparseInverseOptions& options) {
  require_symmetric(A, "SparseInverse");
  const CsrMatrix* target = &A;
  std::optional<CsrMatrix> scalar;
  if (options.structure != KroneckerStructure::kNone) {
    scalar = kronecker3_factor(A);
    if (!scalar && options.structure == KroneckerStructure::kKronecker3)
      throw Error(
          "SparseInverse: the matrix was stated to be A_s (x) I_3 (interleaved xyz DOFs), but it is not: "
          "some 3x3 block is not a multiple of the identity");
    if (scalar) {
      target = &*scalar;
      block_ = 3;
    }
  }
  CholmodOptions co;
  co.ordering = options.ordering;
  CholmodSolver chol(co);
  chol.compute(*target);
  const CholeskyFactor L = chol.factor();
  factor_nnz_ = L.values.size();
  perm_ = L.perm;
  S_ = invert_cholesky_factor(L, elimination_tree(*target, L.perm));
  S_eigen_ = to_eigen(S_);
}

Eigen::VectorXd SparseInverse::apply(const Eigen::VectorXd& b) const {
  if (b.size() != dofs())
    throw Error("SparseInverse::apply: b has " + std::to_string(b.size()) + " entries, expected " +
                std::to_string(dofs()));
  if (block_ == 1) return S_eigen_.transpose() * (S_eigen_ * b);
  // Interleaved xyz is an (m x 3) row-major matrix.
  using RowMajor3 = Eigen::Matrix<double, Eigen::Dynamic, 3, Eigen::RowMajor>;
  const Eigen::Map<const RowMajor3> B(b.data(), S_.rows, 3);
  const RowMajor3 X = S_eigen_.transpose() * (S_eigen_ * B);
  return Eigen::Map<const Eigen::VectorXd>(X.data(), X.size());
}

std::pair<RunCsr, RunCsr> elimination_order_factors(const CsrMatrix& S, const std::vector<Index>& order) {
  const Index n = S.rows;
  require(S.cols == n && static_cast<Index>(order.size()) == n,
          "elimination_order_factors: S' must be square and the order must have one entry per row");
  std::vector<Index> inverse(static_cast<std::size_t>(n), -1);
  for (Index k = 0; k < n; ++k) {
    require(order[k] >= 0 && order[k] < n && inverse[order[k]] == -1,
            "elimination_order_factors: the order is not a permutation");
    inverse[order[k]] = k;
  }
  // L^-T: entry (k, c) of S' is (k, j) of L^-1 with j = inverse[c], i.e. (j, k) of L^-T. Two
  // counting passes; visiting S' by increasing k leaves every row of L^-T sorted.
  CsrMatrix Lt;
  Lt.rows = Lt.cols = n;
  Lt.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index c : S.col_idx) ++Lt.row_ptr[static_cast<std::size_t>(inverse[c]) + 1];
  for (Index j = 0; j < n; ++j) Lt.row_ptr[j + 1] += Lt.row_ptr[j];
  Lt.col_idx.resize(S.col_idx.size());
  Lt.values.resize(S.values.size());
  std::vector<Index> next(Lt.row_ptr.begin(), Lt.row_ptr.end() - 1);
  for (Index k = 0; k < n; ++k)
    for (Index p = S.row_ptr[k]; p < S.row_ptr[k + 1]; ++p) {
      const Index at = next[inverse[S.col_idx[p]]]++;
      Lt.col_idx[at] = k;
      Lt.values[at] = S.values[p];
    }
  // L^-1 = (L^-T)^T the same way: visiting L^-T by increasing j sorts L^-1's rows.
  CsrMatrix L;
  L.rows = L.cols = n;
  L.row_ptr.assign(static_cast<std::size_t>(n) + 1, 0);
  for (Index k : Lt.col_idx) ++L.row_ptr[static_cast<std::size_t>(k) + 1];
  for (Index k = 0; k < n; ++k) L.row_ptr[k + 1] += L.row_ptr[k];
  L.col_idx.resize(Lt.col_idx.size());
  L.values.resize(Lt.values.size());
  next.assign(L.row_ptr.begin(), L.row_ptr.end() - 1);
  for (Index j = 0; j < n; ++j)
    for (Index p = Lt.row_ptr[j]; p < Lt.row_ptr[j + 1]; ++p) {
      const Index at = next[Lt.col_idx[p]]++;
      L.col_idx[at] = j;
      L.values[at] = Lt.values[p];
    }
  RunCsr Lr = to_run_csr(L);
  L = CsrMatrix();  // release before the second conversion: the factors are the big arrays
  return {std::move(Lr), to_run_csr(Lt)};
}

namespace {

// Between the interleaved vector (block entries per vertex, original order) and the
// column-major m x block one in elimination order: kToOrder writes P b, out[c * m + k] =
// in[block * order[k] + c]; kFromOrder writes P^T z, the same index pair the other way.
class Reorder final : public RangeKernel {
 public:
  enum Direction { kToOrder, kFromOrder };
  Reorder(Direction direction, const Index* order, Index m, int block, const double* in, double* out)
      : direction_(direction), order_(order), m_(m), block_(block), in_(in), out_(out) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    for (std::size_t k = begin; k < end; ++k)
      for (int c = 0; c < block_; ++c) {
        const std::size_t ordered = static_cast<std::size_t>(c) * m_ + k;
        const std::size_t original = static_cast<std::size_t>(block_) * order_[k] + c;
        if (direction_ == kToOrder)
          out_[ordered] = in_[original];
        else
          out_[original] = in_[ordered];
      }
  }

 private:
  Direction direction_;
  const Index* order_;
  Index m_;
  int block_;
  const double* in_;
  double* out_;
};

}  // namespace

SparseInverseOperator::SparseInverseOperator(Backend& backend, const SparseInverse& inverse)
    : backend_(&backend),
      S_(to_device(backend, inverse.factor())),
      y_(backend.allocate<double>(static_cast<std::size_t>(inverse.dofs()))),
      block_(inverse.block()),
      dofs_(inverse.dofs()),
      run_compressed_(backend.runs_host_code()) {
  if (run_compressed_) {
    auto [L, Lt] = elimination_order_factors(inverse.factor(), inverse.elimination_order());
    L_ = DeviceRunCsr(backend, L);
    Lt_ = DeviceRunCsr(backend, Lt);
    order_ = backend.upload(inverse.elimination_order());
    pb_ = backend.allocate<double>(static_cast<std::size_t>(dofs_));
    z_ = backend.allocate<double>(static_cast<std::size_t>(dofs_));
  } else {
    St_ = to_device(backend, from_eigen(EigenCsr(to_eigen(inverse.factor()).transpose())));
  }
}

void SparseInverseOperator::apply(const DeviceArray<double>& b, DeviceArray<double>& x) {
  if (&b == &x) throw Error("SparseInverseOperator::apply: x must not alias b");
  if (run_compressed_) {
    if (b.size() != static_cast<std::size_t>(dofs_) || x.size() != static_cast<std::size_t>(dofs_))
      throw Error("SparseInverseOperator::apply: b and x must hold dofs() = " + std::to_string(dofs_) + " entries");
    const Index m = S_.rows;
    backend_->for_each_range(static_cast<std::size_t>(m),
                             Reorder(Reorder::kToOrder, order_.data(), m, block_, b.data(), pb_.data()));
    L_.multiply(*backend_, block_, pb_, y_);  // y = L^-1 P b
    Lt_.multiply(*backend_, block_, y_, z_);  // z = L^-T y
    backend_->for_each_range(static_cast<std::size_t>(m),
                             Reorder(Reorder::kFromOrder, order_.data(), m, block_, z_.data(), x.data()));
  } else if (block_ == 1) {
    backend_->spmv(1.0, S_, Op::kNoTranspose, b, 0.0, y_);
    backend_->spmv(1.0, St_, Op::kNoTranspose, y_, 0.0, x);
  } else {
    backend_->spmv3(1.0, S_, Op::kNoTranspose, b, 0.0, y_);
    backend_->spmv3(1.0, St_, Op::kNoTranspose, y_, 0.0, x);
  }
}

double SparseInverseOperator::bytes_per_apply() const {
  if (run_compressed_) {
    // Both factors streamed once; P b and P^T z read and write the vector and the order once
    // each; each product reads its input and writes its output once.
    const double vec = static_cast<double>(dofs_) * sizeof(double);
    const double order = static_cast<double>(S_.rows) * sizeof(Index);
    return static_cast<double>(L_.bytes() + Lt_.bytes()) + 2.0 * (2.0 * vec + order) + 2.0 * (2.0 * vec);
  }
  const double one = block_ == 1 ? csr_spmv_bytes(S_.rows, S_.cols, S_.nnz()) : spmv3_bytes(S_.rows, S_.cols, S_.nnz());
  return 2.0 * one;  // S' and its stored transpose, each streamed once
}

}  // namespace sinew
