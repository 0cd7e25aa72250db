#include "sinew/linalg/sparse_inverse.hpp"

#include <limits>
#include <string>

#include "host_parallel.hpp"
#include "sinew/linalg/kronecker.hpp"
#include "sinew/linalg/traffic.hpp"

namespace sinew {

std::vector<Index> elimination_tree(const CsrMatrix& A, const std::vector<Index>& perm) {
  const Index n = A.rows;
  require(static_cast<Index>(perm.size()) == n, "elimination_tree: permutation has " + std::to_string(perm.size()) +
                                                    " entries, expected " + std::to_string(n));
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

SparseInverseOperator::SparseInverseOperator(Backend& backend, const SparseInverse& inverse)
    : backend_(&backend),
      S_(to_device(backend, inverse.factor())),
      St_(to_device(backend, from_eigen(EigenCsr(to_eigen(inverse.factor()).transpose())))),
      y_(backend.allocate<double>(static_cast<std::size_t>(inverse.dofs()))),
      block_(inverse.block()),
      dofs_(inverse.dofs()) {}

void SparseInverseOperator::apply(const DeviceArray<double>& b, DeviceArray<double>& x) {
  if (&b == &x) throw Error("SparseInverseOperator::apply: x must not alias b");
  if (block_ == 1) {
    backend_->spmv(1.0, S_, Op::kNoTranspose, b, 0.0, y_);
    backend_->spmv(1.0, St_, Op::kNoTranspose, y_, 0.0, x);
  } else {
    backend_->spmv3(1.0, S_, Op::kNoTranspose, b, 0.0, y_);
    backend_->spmv3(1.0, St_, Op::kNoTranspose, y_, 0.0, x);
  }
}

double SparseInverseOperator::bytes_per_apply() const {
  const double one = block_ == 1 ? csr_spmv_bytes(S_.rows, S_.cols, S_.nnz()) : spmv3_bytes(S_.rows, S_.cols, S_.nnz());
  return 2.0 * one;  // S' and its stored transpose, each streamed once
}

}  // namespace sinew
