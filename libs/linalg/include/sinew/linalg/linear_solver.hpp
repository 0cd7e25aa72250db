/// @file
/// @brief LinearSolver: direct solvers of sparse symmetric positive-definite systems A x = b,
/// factored once and solved many times.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew {

/// A sparse direct solver for symmetric positive-definite A (given with both triangles in CSR).
/// compute() analyses and factors; factorize() refactors new values on the analysed pattern;
/// solve() may then be called any number of times. Not safe to call concurrently on one object.
class LinearSolver {
 public:
  virtual ~LinearSolver() = default;

  /// Short name of the implementation, e.g. "cholmod-supernodal-nesdis".
  virtual std::string name() const = 0;

  /// Symbolic analysis (fill-reducing ordering) and numeric factorization of @p A; the analysis
  /// is kept, and skipped, while A's pattern is the one analysed last (analysed()). Throws
  /// sinew::Error when A is not square, not symmetric, has non-finite entries, or is not
  /// positive definite (naming the failing pivot); with InputCheck::kTrusted only the last
  /// (the factorization's own) is checked.
  void compute(const CsrMatrix& A, InputCheck check = InputCheck::kFull);
  /// Numeric refactorization with new values on the pattern given to compute(). Throws sinew::Error
  /// before compute(), for a different pattern, or for the matrix failures of compute().
  void factorize(const CsrMatrix& A);
  /// x = A^-1 b (b and x: rows()). Throws sinew::Error before a successful compute() or for a wrong size.
  Eigen::VectorXd solve(const Eigen::VectorXd& b) const;
  /// X = A^-1 B for every column of B (B and X: rows() x k). Throws as the vector overload.
  Eigen::MatrixXd solve(const Eigen::MatrixXd& B) const;
  /// @p x <- A^-1 x, for per-step solves that should not allocate (solvers that solve in place
  /// allocate nothing; the others as solve()). Throws as solve().
  void solve_in_place(Eigen::VectorXd& x) const;

  /// Dimension of the factored matrix (0 before compute()).
  Index rows() const { return rows_; }
  /// True once a factorization is available.
  bool factored() const { return factored_; }
  /// True when @p A has the pattern (row pointers and column indices) of the last successful
  /// analysis, so that compute() would only refactor it.
  bool analysed(const CsrMatrix& A) const;

 protected:
  /// Fill-reducing ordering and symbolic factorization of the (checked) matrix.
  virtual void do_analyze(const CsrMatrix& A) = 0;
  /// Numeric factorization of the (checked) matrix with the analysed pattern.
  virtual void do_factorize(const CsrMatrix& A) = 0;
  /// x <- A^-1 x on the factorization; by default through do_solve() (a copy).
  virtual void do_solve_in_place(Eigen::VectorXd& x) const;
  /// X = A^-1 B; B has rows() rows.
  virtual void do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const = 0;

 private:
  void check_matrix(const CsrMatrix& A) const;

  Index rows_ = 0;
  bool factored_ = false;
  bool analysed_ = false;                                 // pattern_* hold the pattern of a completed do_analyze()
  std::vector<Index> pattern_row_ptr_, pattern_col_idx_;  // the analysed pattern
};

/// Throws sinew::Error unless @p A is square and symmetric in pattern and in values up to
/// @p relative_tolerance times its largest entry; @p what names the matrix in the message.
void require_symmetric(const CsrMatrix& A, const char* what, double relative_tolerance = 1e-12);

}  // namespace sinew
