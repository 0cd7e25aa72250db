// The one finite-difference checker of the materials tests: central differences of a scalar
// (gradient check) or of a vector function (Jacobian / Hessian check), compared entry by entry
// with a tolerance relative to the largest analytic entry; it also fails when the analytic
// quantity is (near) zero, so that a check of a vanishing gradient cannot pass vacuously.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <functional>
#include <sstream>

namespace sinew::test {

/// Options of the finite-difference checks.
struct FdOptions {
  double step = 1e-6;           // central-difference step; the error is O(step^2) + O(eps/step)
  double rel_tol = 1e-6;        // max |analytic - fd| allowed, relative to max |analytic|
  double min_magnitude = 1e-8;  // max |analytic| below this is "trivially zero" and fails
};

/// Compares @p analytic (rows x cols) with @p numeric: passes when every entry agrees within
/// rel_tol * max|analytic| and max|analytic| >= min_magnitude; else names the worst entry.
inline ::testing::AssertionResult compare_with_fd(const Eigen::MatrixXd& analytic, const Eigen::MatrixXd& numeric,
                                                  const FdOptions& opt, const char* what) {
  const double scale = analytic.cwiseAbs().maxCoeff();
  if (!(scale >= opt.min_magnitude))
    return ::testing::AssertionFailure() << what << " is trivially zero (max |entry| = " << scale << " < "
                                         << opt.min_magnitude << "): the check would prove nothing";
  Eigen::Index wr = 0, wc = 0;
  const double worst = (analytic - numeric).cwiseAbs().maxCoeff(&wr, &wc);
  if (!std::isfinite(worst) || worst > opt.rel_tol * scale)
    return ::testing::AssertionFailure() << what << ": worst entry (" << wr << ", " << wc << ") analytic "
                                         << analytic(wr, wc) << " vs finite difference " << numeric(wr, wc)
                                         << ", |error| " << worst << " > " << opt.rel_tol << " * " << scale;
  return ::testing::AssertionSuccess() << what << ": worst relative error " << worst / scale;
}

/// Checks gradient(x) against central differences of energy(x).
inline ::testing::AssertionResult check_gradient(const std::function<double(const Eigen::VectorXd&)>& energy,
                                                 const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& gradient,
                                                 const Eigen::VectorXd& x, const FdOptions& opt = {}) {
  Eigen::VectorXd fd(x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    Eigen::VectorXd xp = x, xm = x;
    xp[i] += opt.step;
    xm[i] -= opt.step;
    fd[i] = (energy(xp) - energy(xm)) / (2.0 * opt.step);
  }
  return compare_with_fd(gradient(x), fd, opt, "gradient");
}

/// Checks jacobian(x) (m x n) against central differences of the vector function value(x) (m);
/// a Hessian check passes the gradient as value.
inline ::testing::AssertionResult check_jacobian(const std::function<Eigen::VectorXd(const Eigen::VectorXd&)>& value,
                                                 const std::function<Eigen::MatrixXd(const Eigen::VectorXd&)>& jacobian,
                                                 const Eigen::VectorXd& x, const FdOptions& opt = {}) {
  const Eigen::MatrixXd J = jacobian(x);
  Eigen::MatrixXd fd(J.rows(), x.size());
  for (Eigen::Index i = 0; i < x.size(); ++i) {
    Eigen::VectorXd xp = x, xm = x;
    xp[i] += opt.step;
    xm[i] -= opt.step;
    fd.col(i) = (value(xp) - value(xm)) / (2.0 * opt.step);
  }
  return compare_with_fd(J, fd, opt, "jacobian");
}

}  // namespace sinew::test
