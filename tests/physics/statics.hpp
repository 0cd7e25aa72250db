// Static equilibrium of a MechanicalSystem for the closed-form statics tests: Newton on the free
// DOFs (those not in fixed_velocity_dofs()), f(q) = 0 with the assembled K = -df/dq, solved by
// a sparse Cholesky of K restricted to the free DOFs.
#pragma once

#include <gtest/gtest.h>

#include <Eigen/SparseCholesky>
#include <memory>
#include <vector>

#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::test {

/// Result of solve_statics(): equilibrium positions and how Newton got there.
struct Statics {
  Eigen::VectorXd q;      ///< equilibrium positions
  int iterations = 0;     ///< Newton steps taken
  double residual = 0.0;  ///< ||f_free|| at q
};

/// Newton on f(q) = 0 over the free DOFs from @p q0, until ||f_free|| <= tol ||f_free(q0)||.
inline Statics solve_statics(const model::MechanicalSystem& system, Eigen::VectorXd q0, double tol = 1e-8,
                             int max_iterations = 30) {
  const Index n = system.num_velocities();
  std::vector<char> is_fixed(static_cast<std::size_t>(n), 0);
  for (Index d : system.fixed_velocity_dofs()) is_fixed[static_cast<std::size_t>(d)] = 1;
  std::vector<Eigen::Triplet<double>> sel;
  for (Index d = 0, k = 0; d < n; ++d)
    if (!is_fixed[static_cast<std::size_t>(d)]) sel.emplace_back(k++, d, 1.0);
  Eigen::SparseMatrix<double> P(static_cast<Index>(sel.size()), n);
  P.setFromTriplets(sel.begin(), sel.end());
  const Eigen::VectorXd zero = Eigen::VectorXd::Zero(n);
  Statics out;
  out.q = std::move(q0);
  double first = -1.0;
  Eigen::VectorXd f;
  for (;; ++out.iterations) {
    system.forces(0.0, out.q, zero, model::ForcePart::kAll, f);
    const Eigen::VectorXd ff = P * f;
    out.residual = ff.norm();
    if (first < 0) first = out.residual;
    if (out.residual <= tol * first || out.iterations == max_iterations) break;
    CsrMatrix K;
    system.stiffness(0.0, out.q, zero, false, K);
    const Eigen::SparseMatrix<double> Kff = P * Eigen::SparseMatrix<double>(to_eigen(K)) * P.transpose();
    Eigen::SimplicialLDLT<Eigen::SparseMatrix<double>> ldlt(Kff);
    EXPECT_EQ(ldlt.info(), Eigen::Success) << "stiffness of the free DOFs not factorizable";
    const Eigen::VectorXd du = P.transpose() * Eigen::VectorXd(ldlt.solve(ff));
    system.advance_positions(out.q, du, 1.0, out.q);
  }
  return out;
}

}  // namespace sinew::test
