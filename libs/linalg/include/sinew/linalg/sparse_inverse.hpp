/// @file
/// @brief The sparse inverse factor S = L^-1 of a sparse Cholesky factor, so that
/// A^-1 = S^T S and a global step is two SpMVs (real-time hyperelastic paper, Section 4.2,
/// Theorem 1 and eqs. (7)-(8)), with a Kronecker-aware variant for per-vertex systems.
#pragma once

#include <Eigen/Core>
#include <cstddef>
#include <utility>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/run_csr.hpp"

namespace sinew {

/// Whether A is treated as a per-vertex system A_s (x) I_3.
enum class KroneckerStructure {
  kAuto,       ///< detect A = A_s (x) I_3 exactly (sinew::kronecker3_factor) and use it if so
  kNone,       ///< factor and invert A as given
  kKronecker3  ///< the caller states A = A_s (x) I_3; an A that is not is an error
};

/// Options of SparseInverse.
struct SparseInverseOptions {
  /// Nested dissection by default: it keeps elimination-tree paths short, which is what makes
  /// S sparse (each column of S is one path, Theorem 1).
  CholmodOrdering ordering = CholmodOrdering::kNestedDissection;
  /// Detect per-vertex structure by default: same answer, a third of the memory and traffic.
  KroneckerStructure structure = KroneckerStructure::kAuto;
};

/// S' = L^-1 P for P A P^T = L L^T, computed column by column along the elimination tree:
/// column j of L^-1 is non-zero exactly on the path from j to its root (Theorem 1), so each
/// column is a short sparse forward substitution, the columns are independent (computed in
/// parallel, bit-identical for any thread count), and no dense matrix is ever formed. With
/// the permutation folded into the columns, A^-1 = S'^T S' (eq. (7)) and x = S'^T (S' b)
/// (eq. (8)). For A = A_s (x) I_3 only A_s is factored and inverted; S' then applies to the
/// n x 3 right-hand side (the interleaved 3n vector) coordinate by coordinate.
class SparseInverse {
 public:
  /// Factors @p A (symmetric positive definite, full CSR) with CHOLMOD and inverts the factor.
  /// Throws sinew::Error for a matrix that is not square, symmetric and positive definite, or
  /// one stated Kronecker that is not.
  explicit SparseInverse(const CsrMatrix& A, const SparseInverseOptions& options = {});

  /// S' (m x m, m = dofs() / block()): rows in elimination order, columns in A's order.
  const CsrMatrix& factor() const { return S_; }
  /// 3 when S' applies per coordinate (A = A_s (x) I_3), 1 otherwise.
  int block() const { return block_; }
  /// Dimension of A.
  Index dofs() const { return S_.rows * block_; }
  /// The elimination order P: row k of P A P^T (A_s when block() = 3) is row
  /// elimination_order()[k], so that column c of S' is column k of L^-1 where order[k] = c.
  const std::vector<Index>& elimination_order() const { return perm_; }
  /// Stored entries of S'.
  std::size_t nnz() const { return S_.values.size(); }
  /// Stored entries of the Cholesky factor it came from.
  std::size_t factor_nnz() const { return factor_nnz_; }
  /// Bytes of S' values (8 per entry), the way the paper's Table 1 counts memory.
  std::size_t bytes_values() const { return nnz() * sizeof(double); }
  /// Bytes of S' in CSR: values, column indices and row offsets.
  std::size_t bytes_with_indices() const {
    return nnz() * (sizeof(double) + sizeof(Index)) + (S_.row_ptr.size()) * sizeof(Index);
  }
  /// Host reference of eq. (8): x = S'^T (S' b), b of dofs() entries (interleaved xyz when block() = 3).
  Eigen::VectorXd apply(const Eigen::VectorXd& b) const;

 private:
  CsrMatrix S_;
  EigenCsr S_eigen_;
  std::vector<Index> perm_;
  int block_ = 1;
  std::size_t factor_nnz_ = 0;
};

/// Column-by-column inverse of a lower Cholesky factor along its elimination tree @p parent
/// (parent[j] > j, -1 at roots): returns S' = L^-1 P as CSR (rows in elimination order, columns
/// in the original order given by @p factor.perm). Exposed for tests and for callers that
/// factor by other means.
CsrMatrix invert_cholesky_factor(const CholeskyFactor& factor, const std::vector<Index>& parent);

/// Elimination tree of P A P^T (parent of each column, -1 at roots) for symmetric @p A and the
/// permutation @p perm (row k of P A P^T is row perm[k] of A).
std::vector<Index> elimination_tree(const CsrMatrix& A, const std::vector<Index>& perm);

/// L^-1 (rows and columns in elimination order) and L^-T, both as run-compressed CSR, from
/// S' = L^-1 P and the elimination order P: the forms whose rows are ranges and tree paths.
std::pair<RunCsr, RunCsr> elimination_order_factors(const CsrMatrix& S, const std::vector<Index>& order);

/// x = S'^T (S' b) on a backend (eq. (8)): two SpMVs, or two multi-vector SpMVs when the
/// inverse is Kronecker-aware. Holds S', the product's own copy of the factor and the
/// intermediate vectors in backend memory.
///
/// On backends that run host code the product runs in elimination order, x = P^T L^-T L^-1 P b,
/// with L^-1 and L^-T run-compressed (RunCsr): rows of L^-1 are single column ranges and rows
/// of L^-T a few chains (~5 runs of ~190 entries on a 21k-vertex bar), so each entry costs its
/// 8-byte value only instead of value + 4-byte index, and the vector is read contiguously
/// (SIMD) instead of gathered 24 bytes at a time through an index; the one value stream is
/// software-prefetched, without which one core keeps too few reads in flight (DeviceRunCsr).
/// This runs the global step nearer the STREAM triad's bandwidth, and in less time, than the CSR
/// pair (docs/benchmarks.md). P b and P^T are two passes over the n x 3 vectors. Elsewhere (CUDA) it
/// is two CSR SpMVs with S'^T stored explicitly (twice S's memory on the device), because the
/// transposed product through a gather map reads S's values out of order.
class SparseInverseOperator {
 public:
  /// Uploads @p inverse's factor to @p backend.
  SparseInverseOperator(Backend& backend, const SparseInverse& inverse);
  /// x = A^-1 b; b and x hold dofs() entries on the operator's backend (interleaved xyz when
  /// block() = 3); x must not alias b.
  void apply(const DeviceArray<double>& b, DeviceArray<double>& x);
  /// Dimension of A.
  Index dofs() const { return dofs_; }
  /// S' in backend memory (m x m, m = dofs() / block()), e.g. for W = H S'^T S' H^T (eq. (27)).
  const DeviceCsr& factor() const { return S_; }
  /// True when apply() runs the run-compressed elimination-order product (host backends).
  bool run_compressed() const { return run_compressed_; }
  /// Backend memory traffic of one apply() in the storage it uses (every matrix array streamed
  /// once, every vector read or written once per pass), to report GB/s.
  double bytes_per_apply() const;

 private:
  Backend* backend_;
  DeviceCsr S_;
  DeviceCsr St_;                // S'^T, stored: a forward product streams it (CSR path)
  DeviceRunCsr L_, Lt_;         // L^-1 and L^-T in elimination order (run path)
  DeviceArray<Index> order_;    // (m) elimination order P (run path)
  DeviceArray<double> y_;       // (dofs) S' b = L^-1 P b, in elimination order (column-major on the run path)
  DeviceArray<double> pb_, z_;  // (dofs) P b and L^-T y, column-major m x block (run path)
  int block_;
  Index dofs_;
  bool run_compressed_ = false;
};

}  // namespace sinew
