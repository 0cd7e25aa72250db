// Closed-form physics through BaraffSolver: rod tensions of a hanging chain of particles, the
// centripetal tension of a swinging pendulum, and a particle hung by two strings (the second
// closes a loop through the world, so it is an auxiliary row), with and without contact.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <vector>

#include "sinew/linalg/baraff_solver.hpp"

namespace sinew::linalg_baraff_physics_test {
namespace {

constexpr double kG = 9.81;

// A rod of length |d| between particle a (or the world) and particle b at offset d = p_b - p_a:
// C = |p_b - p_a|^2 - l^2, J = [-2 d^T, 2 d^T]; its force on b is 2 d lambda, i.e. a tension
// T = -2 |d| lambda along the rod.
BaraffConstraint rod(int a, int b, const Eigen::Vector3d& d) {
  BaraffConstraint c;
  c.body_a = a;
  c.body_b = b;
  if (a != kBaraffWorld) c.jacobian_a = -2.0 * d.transpose();
  c.jacobian_b = 2.0 * d.transpose();
  return c;
}

TEST(BaraffPhysics, HangingChainRodTensionsCarryTheWeightBelow) {
  // Particles k = 0..n-1 hang straight down at rest, rod k joins particle k to k - 1 (rod 0 to
  // the world): T_k = g * (mass of particles k..n-1), and nothing accelerates.
  const int n = 12;
  const double l = 0.3;
  std::vector<double> mass(n);
  std::vector<BaraffBody> bodies;
  std::vector<BaraffConstraint> rods;
  for (int k = 0; k < n; ++k) {
    mass[k] = 0.5 + 0.1 * k;
    bodies.push_back({mass[k] * Eigen::MatrixXd::Identity(3, 3)});
    rods.push_back(rod(k == 0 ? kBaraffWorld : k - 1, k, Eigen::Vector3d(0, 0, -l)));
  }
  const BaraffSolver solver(BaraffProblem(bodies, rods));
  Eigen::VectorXd F = Eigen::VectorXd::Zero(3 * n);
  for (int k = 0; k < n; ++k) F[3 * k + 2] = -mass[k] * kG;
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, Eigen::VectorXd::Zero(n), ws, out);  // at rest: c = Jdot v = 0
  double below = 0.0;
  for (int k = n - 1; k >= 0; --k) {
    below += mass[k];
    EXPECT_NEAR(-2.0 * l * out.lambda[k], kG * below, 1e-12 * kG * below) << "rod " << k;
  }
  EXPECT_LT(out.acceleration.norm(), 1e-12);
}

TEST(BaraffPhysics, SwingingPendulumTensionIncludesTheCentripetalForce) {
  // A particle at the bottom of its swing (p = (0, 0, -l), v = (u, 0, 0)): the bias of
  // C = |p|^2 - l^2 is c = Jdot v = 2 |v|^2, the tension is m (g + u^2 / l) and the acceleration
  // u^2 / l points to the pivot.
  const double m = 1.7, l = 0.8, u = 2.5;
  const BaraffSolver solver(
      BaraffProblem({{m * Eigen::MatrixXd::Identity(3, 3)}}, {rod(kBaraffWorld, 0, Eigen::Vector3d(0, 0, -l))}));
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(Eigen::Vector3d(0, 0, -m * kG), Eigen::VectorXd::Constant(1, 2.0 * u * u), ws, out);
  EXPECT_NEAR(-2.0 * l * out.lambda[0], m * (kG + u * u / l), 1e-12 * m * kG);
  EXPECT_NEAR(out.acceleration[2], u * u / l, 1e-12 * u * u / l);
  EXPECT_NEAR(out.acceleration.head<2>().norm(), 0.0, 1e-12);
}

TEST(BaraffPhysics, ParticleHungByTwoStringsSharesItsWeight) {
  // Anchors at (-a, 0, 0) and (a, 0, 0), particle at rest at (0, 0, -h): each string holds
  // T = m g L / (2 h), L = sqrt(a^2 + h^2). The second string closes a loop through the world, so
  // it is the auxiliary row a = J^a v + c^a with J^a = 2 (p - anchor)^T (workless, c^a = 0 at rest).
  const double m = 2.0, a = 0.6, h = 0.8, L = std::hypot(a, h);
  const Eigen::Vector3d d1(a, 0, -h), d2(-a, 0, -h);  // particle minus anchor
  const Eigen::MatrixXd M = m * Eigen::MatrixXd::Identity(3, 3);
  BaraffAuxiliaryConstraint second;
  second.blocks.push_back({0, 2.0 * d2.transpose(), Eigen::VectorXd()});
  const BaraffSolver solver(BaraffProblem({{M}}, {rod(kBaraffWorld, 0, d1)}, {second}));
  const Eigen::Vector3d F(0, 0, -m * kG);
  BaraffWorkspace ws;
  BaraffSolution out;
  solver.solve(F, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), ws, out);
  const double T = m * kG * L / (2.0 * h);
  EXPECT_NEAR(-2.0 * L * out.lambda[0], T, 1e-12 * T);
  EXPECT_NEAR(-2.0 * L * out.mu[0], T, 1e-12 * T);
  EXPECT_LT(out.acceleration.norm(), 1e-12);
}

TEST(BaraffPhysics, StringAsContactIsTautUnderWeightAndSlackWhenPushed) {
  // The second string as a unilateral row: g = L^2 - |p - anchor2|^2 >= 0, so J^a = -2 d2^T,
  // a >= 0, mu >= 0 (the force -2 d2 mu pulls toward the anchor), a mu = 0: a k = 1 LCP, solved
  // in closed form by the callback.
  const double m = 2.0, a = 0.6, h = 0.8, L = std::hypot(a, h);
  const Eigen::Vector3d d1(a, 0, -h), d2(-a, 0, -h);
  BaraffAuxiliaryConstraint string;
  string.blocks.push_back({0, -2.0 * d2.transpose(), Eigen::VectorXd()});
  const BaraffSolver solver(
      BaraffProblem({{m * Eigen::MatrixXd::Identity(3, 3)}}, {rod(kBaraffWorld, 0, d1)}, {string}));
  auto lcp = [](const Eigen::MatrixXd& A, const Eigen::VectorXd& q) {
    return Eigen::VectorXd::Constant(1, std::max(0.0, -q[0] / A(0, 0)));
  };
  BaraffWorkspace ws;
  BaraffSolution out;
  // Under its weight the string is taut and holds T = m g L / (2 h).
  solver.solve(Eigen::Vector3d(0, 0, -m * kG), Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), lcp, ws, out);
  const double T = m * kG * L / (2.0 * h);
  EXPECT_NEAR(2.0 * L * out.mu[0], T, 1e-12 * T);
  EXPECT_NEAR(out.aux_value[0], 0.0, 1e-12);
  // Pushed toward anchor 2 (F = m g (5, 0, -1)), the particle swings on string 1 along
  // t = (h, 0, a) / L, which shortens the distance to anchor 2: string 2 goes slack (mu = 0,
  // a > 0), string 1 holds T1 = F . d1 / L and the acceleration is (F . t) t / m.
  const Eigen::Vector3d F = m * kG * Eigen::Vector3d(5, 0, -1), t = Eigen::Vector3d(h, 0, a) / L;
  solver.solve(F, Eigen::VectorXd::Zero(1), Eigen::VectorXd::Zero(1), lcp, ws, out);
  EXPECT_EQ(out.mu[0], 0.0);
  EXPECT_GT(out.aux_value[0], 0.1);
  const double T1 = F.dot(d1) / L;
  EXPECT_NEAR(-2.0 * L * out.lambda[0], T1, 1e-12 * T1);
  EXPECT_LT((out.acceleration - F.dot(t) / m * t).norm(), 1e-12 * F.norm() / m);
}

}  // namespace
}  // namespace sinew::linalg_baraff_physics_test
