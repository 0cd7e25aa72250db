/// @file
/// @brief CholmodSolver: sparse Cholesky A = L L^T through CHOLMOD (SuiteSparse), supernodal or
/// simplicial, with a selectable fill-reducing ordering; also hands out L for the sparse inverse.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/linalg/linear_solver.hpp"

namespace sinew {

/// Fill-reducing orderings CHOLMOD offers.
enum class CholmodOrdering {
  kNestedDissection,  ///< CHOLMOD's NESDIS (METIS-based nested dissection with constrained min degree)
  kMetis,             ///< METIS node nested dissection
  kAmd,               ///< approximate minimum degree
  kNatural            ///< no reordering
};

/// Numeric factorization kinds of CHOLMOD.
enum class CholmodKind {
  kAuto,        ///< CHOLMOD decides from the flop count (its default)
  kSupernodal,  ///< supernodal LL^T: dense BLAS-3 blocks, fastest for 3-D problems
  kSimplicial   ///< simplicial LL^T: column by column, best for very sparse factors
};

/// Options of CholmodSolver.
struct CholmodOptions {
  /// Nested dissection by default: the ordering the real-time hyperelastic paper uses, and on
  /// meshes it gives the fewest ancestors per column, hence the sparsest inverse factor.
  CholmodOrdering ordering = CholmodOrdering::kNestedDissection;
  /// CHOLMOD's own choice by default.
  CholmodKind kind = CholmodKind::kAuto;
};

/// The lower Cholesky factor L of P A P^T in compressed columns, and the permutation P.
struct CholeskyFactor {
  Index n = 0;                 ///< dimension
  std::vector<Index> col_ptr;  ///< (n + 1) offsets of the columns of L
  std::vector<Index> row_idx;  ///< (nnz) rows of each column, increasing, the diagonal first
  std::vector<double> values;  ///< (nnz) entries of L
  std::vector<Index> perm;     ///< (n) P: row k of P A P^T is row perm[k] of A
};

/// Sparse Cholesky through CHOLMOD. Each solver owns its cholmod_common, so several solvers
/// may live (and run on different threads) in one process. compute() also throws sinew::Error
/// when CHOLMOD's analysis, factorization or solve fails (with its status).
class CholmodSolver final : public LinearSolver {
 public:
  /// A solver with the given options; compute() does the work.
  explicit CholmodSolver(const CholmodOptions& options = {});
  ~CholmodSolver() override;
  CholmodSolver(const CholmodSolver&) = delete;
  CholmodSolver& operator=(const CholmodSolver&) = delete;

  std::string name() const override;
  /// Number of stored entries of L (supernodal padding included when supernodal).
  std::size_t factor_nnz() const;
  /// True when the current factor is supernodal.
  bool supernodal() const;
  /// A simplicial copy of L (padding zeros kept) with the permutation, for the sparse inverse.
  /// Throws sinew::Error before a successful compute() or when CHOLMOD cannot convert or export L.
  CholeskyFactor factor() const;

 protected:
  void do_analyze(const CsrMatrix& A) override;
  void do_factorize(const CsrMatrix& A) override;
  void do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const override;

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
  CholmodOptions options_;
};

}  // namespace sinew
