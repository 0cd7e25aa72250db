#include "sinew/linalg/linear_solver.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/number_text.hpp"

namespace sinew {

namespace {

// require_symmetric() with the matrix's name from @p what() (called only to throw: a check per
// step builds no string).
template <class What>
void require_symmetric_named(const CsrMatrix& A, What&& what, double relative_tolerance) {
  A.validate();
  if (A.rows != A.cols)
    throw Error(std::string(what()) + ": expected a square matrix, got " + std::to_string(A.rows) + "x" +
                std::to_string(A.cols));
  double scale = 0.0;
  for (double v : A.values) scale = std::max(scale, std::fabs(v));
  // Every (i, j) must meet (j, i) with the same value; an entry not stored reads as 0.
  const double tolerance = relative_tolerance * scale;
  Index bad_lower = -2, bad_upper = -2, bad_i = 0, bad_j = 0;
  thread_local std::vector<Index> cursor;  // kept: a check per step allocates nothing
  for_each_mirror_pair(A, cursor, [&](Index i, Index j, Index lower, Index upper) {
    const double a = lower >= 0 ? A.values[static_cast<std::size_t>(lower)] : 0.0;
    const double b = upper >= 0 ? A.values[static_cast<std::size_t>(upper)] : 0.0;
    if (std::fabs(a - b) <= tolerance || bad_lower != -2) return;
    bad_lower = lower, bad_upper = upper, bad_i = i, bad_j = j;  // the first, reported below
  });
  if (bad_lower == -2) return;
  // Name the stored entry first: (i, j) when it is stored, else (j, i).
  auto value = [&](Index k) { return k >= 0 ? A.values[static_cast<std::size_t>(k)] : 0.0; };
  const bool named_lower = bad_lower >= 0;
  const Index r = named_lower ? bad_i : bad_j, c = named_lower ? bad_j : bad_i;
  const double named = value(named_lower ? bad_lower : bad_upper), mirror = value(named_lower ? bad_upper : bad_lower);
  throw Error(std::string(what()) + ": expected a symmetric matrix, but entry (" + std::to_string(r) + ", " +
              std::to_string(c) + ") = " + number_text(named) + " while (" + std::to_string(c) + ", " +
              std::to_string(r) + ") = " + number_text(mirror));
}

}  // namespace

void require_symmetric(const CsrMatrix& A, const char* what, double relative_tolerance) {
  require_symmetric_named(
      A, [what] { return what; }, relative_tolerance);
}

void LinearSolver::check_matrix(const CsrMatrix& A) const {
  require_symmetric_named(
      A, [this] { return name(); }, 1e-12);  // require_symmetric()'s default
  for (std::size_t k = 0; k < A.values.size(); ++k)
    if (!std::isfinite(A.values[k]))
      throw Error(name() + ": matrix entry " + std::to_string(k) + " is not finite (" + number_text(A.values[k]) + ")");
}

bool LinearSolver::analysed(const CsrMatrix& A) const {
  return analysed_ && A.rows == rows_ && A.cols == rows_ && A.row_ptr == pattern_row_ptr_ &&
         A.col_idx == pattern_col_idx_;
}

void LinearSolver::compute(const CsrMatrix& A, InputCheck check) {
  if (check == InputCheck::kFull) check_matrix(A);
  factored_ = false;
  // An integrator factors a mass or step matrix of one pattern every step: comparing the pattern
  // costs a fraction of analysing it again (orderings, block structure, copies).
  if (!analysed(A)) {
    analysed_ = false;  // a do_analyze() that throws may leave its state half-written
    do_analyze(A);
    rows_ = A.rows;
    pattern_row_ptr_ = A.row_ptr;
    pattern_col_idx_ = A.col_idx;
    analysed_ = true;
  }
  do_factorize(A);
  factored_ = true;
}

void LinearSolver::factorize(const CsrMatrix& A) {
  if (!analysed_) throw Error(name() + ": factorize() before compute(): no pattern was analysed");
  if (!analysed(A))
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

void LinearSolver::solve_in_place(Eigen::VectorXd& x) const {
  if (!factored_) throw Error(name() + ": solve() before a successful compute()");
  if (x.size() != rows_)
    throw Error(name() + ": right-hand side has " + std::to_string(x.size()) + " entries, expected " +
                std::to_string(rows_));
  do_solve_in_place(x);
}

void LinearSolver::do_solve_in_place(Eigen::VectorXd& x) const {
  Eigen::MatrixXd X;
  do_solve(x, X);
  x = X.col(0);
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
