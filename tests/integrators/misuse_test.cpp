// Misuse is an error with a clear message: bad step sizes, wrong state sizes, invalid options,
// unknown integrator names. Also checks the test systems' own stiffness by finite differences,
// since every other test relies on them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>

#include "expect_error.hpp"
#include "sinew/integrators/bridson_marino.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "test_systems.hpp"

namespace sinew::integrators::integrators_misuse_test {
namespace {

TEST(IntegratorMisuse, StepSizeAndStateChecked) {
  testing::Pendulum p;
  auto integrator = make_integrator("implicit_euler");
  State s{0.0, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1)};
  EXPECT_SINEW_ERROR(integrator->step(p, s, 0.0), "implicit_euler", "h must be finite and > 0");
  EXPECT_SINEW_ERROR(integrator->step(p, s, -0.1), "h must be finite and > 0");
  EXPECT_SINEW_ERROR(integrator->step(p, s, std::numeric_limits<double>::infinity()), "h must be");
  State wrong_q{0.0, Eigen::VectorXd::Zero(2), Eigen::VectorXd::Zero(1)};
  EXPECT_SINEW_ERROR(integrator->step(p, wrong_q, 0.1), "q has 2 entries", "num_positions() = 1");
  State wrong_u{0.0, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(3)};
  EXPECT_SINEW_ERROR(integrator->step(p, wrong_u, 0.1), "u has 3 entries", "num_velocities() = 1");
  State nan_state{0.0, Eigen::VectorXd::Constant(1, std::nan("")), Eigen::VectorXd::Zero(1)};
  EXPECT_SINEW_ERROR(integrator->step(p, nan_state, 0.1), "must be finite");
}

TEST(IntegratorMisuse, OptionsValidated) {
  ImplicitEulerOptions ie;
  ie.newton.max_iterations = 0;
  EXPECT_SINEW_ERROR(ImplicitEuler{ie}, "max_iterations must be >= 1");
  ie = {};
  ie.newton.relative_tolerance = -1.0;
  EXPECT_SINEW_ERROR(ImplicitEuler{ie}, "relative_tolerance");
  ie = {};
  ie.newton.relative_tolerance = ie.newton.absolute_tolerance = 0.0;
  EXPECT_SINEW_ERROR(ImplicitEuler{ie}, "must not both be 0");
  ie = {};
  ie.newton.armijo = 1.0;
  EXPECT_SINEW_ERROR(ImplicitEuler{ie}, "armijo must be in (0, 1)");
  ie = {};
  ie.newton.backtrack = 0.0;
  EXPECT_SINEW_ERROR(ImplicitEuler{ie}, "backtrack");
  ThetaOptions th;
  th.theta_v = 1.5;
  EXPECT_SINEW_ERROR(ThetaMethod{th}, "theta_v must be in [0, 1]");
  CompliantAlphaBetaOptions ab;
  ab.beta = -0.1;
  EXPECT_SINEW_ERROR(CompliantAlphaBeta{ab}, "beta must be in [0, 1]");
  BridsonMarinoOptions bm;
  bm.linear_solver = static_cast<LinearSolverKind>(7);
  EXPECT_SINEW_ERROR(BridsonMarino{bm}, "linear_solver");
}

TEST(IntegratorFactory, KnownNamesAndUnknownNameError) {
  const std::vector<std::string> names = integrator_names();
  EXPECT_EQ(names.size(), 10u);
  for (const std::string& name : names) EXPECT_EQ(make_integrator(name)->name(), name);
  EXPECT_SINEW_ERROR(make_integrator("rk4"), "unknown integrator 'rk4'", "symplectic_euler", "theta_midpoint",
                     "compliant_alpha_beta", "bridson_marino", "runge_kutta4");
  ThetaOptions custom;
  custom.theta_q = 0.25;
  EXPECT_EQ(ThetaMethod(custom).name(), "theta(0.25,0.5,0.5)");
}

// Central differences of the chain's forces against K = -dF/dq (unprojected) and D = -dF/du,
// stretched and compressed springs alike.
TEST(IntegratorTestSystems, SpringChainStiffnessMatchesFiniteDifferences) {
  testing::SpringChain chain;
  chain.n = 3;
  chain.k3 = 300.0;
  chain.c = 0.7;
  Eigen::VectorXd q(9), u(9);
  q << 0.2, 0.1, -1.3, 0.5, -0.2, -1.9, 0.9, 0.3, -2.5;  // first two springs stretched, last compressed
  u.setLinSpaced(9, -0.5, 0.8);
  CsrMatrix K, D;
  chain.stiffness(0.0, q, u, false, K);
  chain.damping(0.0, q, u, D);
  const Eigen::MatrixXd Kd(to_eigen(K)), Dd(to_eigen(D));
  const double eps = 1e-6;
  Eigen::MatrixXd Kfd(9, 9), Dfd(9, 9);
  Eigen::VectorXd fp, fm;
  for (int j = 0; j < 9; ++j) {
    Eigen::VectorXd qp = q, qm = q, up = u, um = u;
    qp[j] += eps;
    qm[j] -= eps;
    chain.forces(0.0, qp, u, model::ForcePart::kAll, fp);
    chain.forces(0.0, qm, u, model::ForcePart::kAll, fm);
    Kfd.col(j) = -(fp - fm) / (2 * eps);
    up[j] += eps;
    um[j] -= eps;
    chain.forces(0.0, q, up, model::ForcePart::kAll, fp);
    chain.forces(0.0, q, um, model::ForcePart::kAll, fm);
    Dfd.col(j) = -(fp - fm) / (2 * eps);
  }
  EXPECT_GT(Kd.norm(), 10.0);
  EXPECT_LT((Kd - Kfd).norm(), 1e-6 * Kd.norm());
  EXPECT_LT((Dd - Dfd).norm(), 1e-6 * Dd.norm());
  // The potential's gradient is -F at u = 0.
  chain.forces(0.0, q, Eigen::VectorXd::Zero(9), model::ForcePart::kAll, fp);
  for (int j = 0; j < 9; ++j) {
    Eigen::VectorXd qp = q, qm = q;
    qp[j] += eps;
    qm[j] -= eps;
    EXPECT_NEAR(-(chain.potential_energy(0, qp) - chain.potential_energy(0, qm)) / (2 * eps), fp[j], 1e-6);
  }
}

}  // namespace
}  // namespace sinew::integrators::integrators_misuse_test
