#include "sinew/linalg/linear_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/number_text.hpp"

namespace sinew {

void require_symmetric(const CsrMatrix& A, const char* what, double relative_tolerance) {
  A.validate();
  if (A.rows != A.cols)
    throw Error(std::string(what) + ": expected a square matrix, got " + std::to_string(A.rows) + "x" +
                std::to_string(A.cols));
  double scale = 0.0;
  for (double v : A.values) scale = std::max(scale, std::fabs(v));
  // Every (i, j) must find (j, i) with the same value: binary search in row j (sorted columns).
  // Entries below the diagonal first; when each finds a stored mirror (a distinct upper entry)
  // and both triangles hold as many entries, every upper entry was a mirror, so checked too.
  Index lower = 0, upper = 0, unmatched = 0;
  auto check_entry = [&](Index i, Index k) {
    const Index j = A.col_idx[k], at = find_entry(A, j, i);
    const bool stored = at >= 0;
    const double mirror = stored ? A.values[static_cast<std::size_t>(at)] : 0.0;
    if (std::fabs(mirror - A.values[k]) > relative_tolerance * scale)
      throw Error(std::string(what) + ": expected a symmetric matrix, but entry (" + std::to_string(i) + ", " +
                  std::to_string(j) + ") = " + number_text(A.values[k]) + " while (" + std::to_string(j) + ", " +
                  std::to_string(i) + ") = " + number_text(mirror));
    return stored;
  };
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k) {
      if (A.col_idx[k] > i) ++upper;
      if (A.col_idx[k] >= i) continue;
      ++lower;
      if (!check_entry(i, k)) ++unmatched;
    }
  if (unmatched == 0 && lower == upper) return;
  for (Index i = 0; i < A.rows; ++i)
    for (Index k = A.row_ptr[i]; k < A.row_ptr[i + 1]; ++k)
      if (A.col_idx[k] > i) check_entry(i, k);
}

void LinearSolver::check_matrix(const CsrMatrix& A) const {
  require_symmetric(A, name().c_str());
  for (std::size_t k = 0; k < A.values.size(); ++k)
    if (!std::isfinite(A.values[k]))
      throw Error(name() + ": matrix entry " + std::to_string(k) + " is not finite (" + number_text(A.values[k]) + ")");
}

void LinearSolver::compute(const CsrMatrix& A) {
  check_matrix(A);
  factored_ = false;
  do_analyze(A);
  rows_ = A.rows;
  pattern_row_ptr_ = A.row_ptr;
  pattern_col_idx_ = A.col_idx;
  do_factorize(A);
  factored_ = true;
}

void LinearSolver::factorize(const CsrMatrix& A) {
  if (rows_ == 0 && !factored_) throw Error(name() + ": factorize() before compute(): no pattern was analysed");
  if (A.row_ptr != pattern_row_ptr_ || A.col_idx != pattern_col_idx_)
    throw Error(name() + ": factorize() needs the pattern given to compute(); call compute() for a new pattern");
  check_matrix(A);
  factored_ = false;
  do_factorize(A);
  factored_ = true;
}

Eigen::VectorXd LinearSolver::solve(const Eigen::VectorXd& b) const {
  Eigen::MatrixXd X;
  if (!factored_) throw Error(name() + ": solve() before a successful compute()");
  if (b.size() != rows_)
    throw Error(name() + ": right-hand side has " + std::to_string(b.size()) + " entries, expected " +
                std::to_string(rows_));
  do_solve(b, X);
  return X.col(0);
}

Eigen::MatrixXd LinearSolver::solve(const Eigen::MatrixXd& B) const {
  if (!factored_) throw Error(name() + ": solve() before a successful compute()");
  if (B.rows() != rows_)
    throw Error(name() + ": right-hand side has " + std::to_string(B.rows()) + " rows, expected " +
                std::to_string(rows_));
  Eigen::MatrixXd X;
  do_solve(B, X);
  return X;
}

}  // namespace sinew
