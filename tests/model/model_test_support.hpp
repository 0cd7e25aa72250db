// Shared helpers of the model tests: dense copies of CSR matrices, central finite differences of
// forces along velocity-space directions (positions stepped with advance_positions(), so
// quaternions stay on the manifold), and a relative comparison that also fails on a trivially
// zero analytic matrix (so a check cannot pass vacuously).
#pragma once

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>
#include <random>

#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/dynamical_system.hpp"

namespace sinew::test {

/// Dense copy of a CSR matrix.
inline Eigen::MatrixXd dense(const CsrMatrix& A) { return Eigen::MatrixXd(to_eigen(A)); }

/// Passes when max |A - B| <= rel_tol * max |A| and max |A| >= min_magnitude.
inline ::testing::AssertionResult matrices_agree(const Eigen::MatrixXd& A, const Eigen::MatrixXd& B, double rel_tol,
                                                 const char* what, double min_magnitude = 1e-8) {
  if (A.rows() != B.rows() || A.cols() != B.cols())
    return ::testing::AssertionFailure() << what << ": sizes " << A.rows() << "x" << A.cols() << " vs " << B.rows()
                                         << "x" << B.cols();
  const double scale = A.cwiseAbs().maxCoeff();
  if (!(scale >= min_magnitude)) return ::testing::AssertionFailure() << what << " is trivially zero";
  Eigen::Index r = 0, c = 0;
  const double worst = (A - B).cwiseAbs().maxCoeff(&r, &c);
  if (!(worst <= rel_tol * scale))
    return ::testing::AssertionFailure() << what << ": worst entry (" << r << ", " << c << ") " << A(r, c) << " vs "
                                         << B(r, c) << ", |error| " << worst << " > " << rel_tol << " * " << scale;
  return ::testing::AssertionSuccess() << what << ": relative error " << worst / scale;
}

/// K_fd = -dF/dq by central differences, column j stepping q along velocity direction e_j.
inline Eigen::MatrixXd fd_stiffness(const model::DynamicalSystem& sys, double t, const Eigen::VectorXd& q,
                                    const Eigen::VectorXd& u, double h = 1e-6) {
  const Eigen::Index n = sys.num_velocities();
  Eigen::MatrixXd K(n, n);
  Eigen::VectorXd qp, qm, fp, fm;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j);
    sys.advance_positions(q, e, h, qp);
    sys.advance_positions(q, e, -h, qm);
    sys.forces(t, qp, u, model::ForcePart::kElastic, fp);
    sys.forces(t, qm, u, model::ForcePart::kElastic, fm);
    K.col(j) = -(fp - fm) / (2 * h);
  }
  return K;
}

/// D_fd = -dF/du by central differences.
inline Eigen::MatrixXd fd_damping(const model::DynamicalSystem& sys, double t, const Eigen::VectorXd& q,
                                  const Eigen::VectorXd& u, double h = 1e-6) {
  const Eigen::Index n = sys.num_velocities();
  Eigen::MatrixXd D(n, n);
  Eigen::VectorXd fp, fm;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j);
    sys.forces(t, q, u + h * e, model::ForcePart::kElastic, fp);
    sys.forces(t, q, u - h * e, model::ForcePart::kElastic, fm);
    D.col(j) = -(fp - fm) / (2 * h);
  }
  return D;
}

/// -dV/dq by central differences along velocity directions (the conservative force).
inline Eigen::VectorXd fd_potential_force(const model::DynamicalSystem& sys, double t, const Eigen::VectorXd& q,
                                          double h = 1e-6) {
  const Eigen::Index n = sys.num_velocities();
  Eigen::VectorXd g(n), qp, qm;
  for (Eigen::Index j = 0; j < n; ++j) {
    const Eigen::VectorXd e = Eigen::VectorXd::Unit(n, j);
    sys.advance_positions(q, e, h, qp);
    sys.advance_positions(q, e, -h, qm);
    g[j] = -(sys.potential_energy(t, qp) - sys.potential_energy(t, qm)) / (2 * h);
  }
  return g;
}

/// A random vector with entries uniform in [-scale, scale] from a fixed-seed generator.
inline Eigen::VectorXd random_vector(std::mt19937& rng, Eigen::Index n, double scale) {
  std::uniform_real_distribution<double> d(-scale, scale);
  Eigen::VectorXd v(n);
  for (Eigen::Index i = 0; i < n; ++i) v[i] = d(rng);
  return v;
}

}  // namespace sinew::test
