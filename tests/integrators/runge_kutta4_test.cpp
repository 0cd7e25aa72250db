// RungeKutta4 (runge_kutta4.hpp) and symplectic Euler in a KinematicTree's joint coordinates:
// the orders measured by halving the step (4 and 1) against a fine reference, a branching tree's
// energy kept to fourth order (which also checks the tree's velocity terms: with wrong Coriolis
// forces the energy drifts whatever the step), and RK4 of a particle spring chain through the
// generic mass-matrix solve at fourth order.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <string>
#include <vector>

#include "integration_helpers.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/runge_kutta4.hpp"
#include "sinew/integrators/symplectic_euler.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "test_systems.hpp"

namespace sinew::integrators::integrators_runge_kutta4_test {
namespace {

using model::KinematicTree;
using model::TreeBody;
using model::TreeJointKind;

// Five hinges with skew axes in a branching tree (1 and 3 under 0, 2 under 1, 4 under 3) and a
// slider under 2: every velocity term (Coriolis, centrifugal, gyroscopic) is at work.
KinematicTree branching_tree() {
  KinematicTree tree(Vec3{{0.0, 0.0, -9.81}});
  const Index parents[6] = {-1, 0, 1, 0, 3, 2};
  const Vec3 axes[6] = {Vec3{{0, 1, 0}},      Vec3{{1, 0.3, 0}}, Vec3{{0.2, 1, 0.5}},
                        Vec3{{0.4, -1, 0.1}}, Vec3{{0, 0.6, 1}}, Vec3{{1, 0, 0.2}}};
  for (int k = 0; k < 6; ++k) {
    TreeBody b;
    b.parent = parents[k];
    b.joint = k == 5 ? TreeJointKind::kSlider : TreeJointKind::kHinge;
    b.axis = axes[k];
    b.joint_in_parent = k == 0 ? Vec3{{0, 0, 0}} : Vec3{{0.1, 0.02 * k, -0.15}};
    b.joint_in_body = Vec3{{-0.1, 0.01, 0.12}};
    b.inertia = make_spatial_inertia(0.4 + 0.1 * k, Vec3{{0.02, -0.01, 0.03}},
                                     Mat3{{0.004, 0.0005, 0, 0.0005, 0.006, -0.0004, 0, -0.0004, 0.005}});
    tree.add_body(b);
  }
  return tree;
}

State start_state() {
  State s{0.0, Eigen::VectorXd(6), Eigen::VectorXd(6)};
  s.q << 0.4, -0.7, 1.1, 0.3, -0.5, 0.05;
  s.u << 1.0, -2.0, 0.5, 1.5, -1.0, 0.3;
  return s;
}

double energy(const KinematicTree& tree, const State& s) {
  return tree.kinetic_energy(s.t, s.q, s.u) + tree.potential_energy(s.t, s.q);
}

State run(Integrator& integrator, const model::DynamicalSystem& system, State s, double T, int steps) {
  testing::run_steps(integrator, system, s, T / steps, steps);
  return s;
}

TEST(RungeKutta4, KeepsATreesEnergyToFourthOrder) {
  const KinematicTree tree = branching_tree();
  const State s0 = start_state();
  const double E0 = energy(tree, s0);
  std::vector<double> h, drift;
  for (int steps : {250, 500, 1000}) {
    RungeKutta4 rk4;
    const State s = run(rk4, tree, s0, 1.0, steps);
    h.push_back(1.0 / steps);
    drift.push_back(std::abs(energy(tree, s) - E0));
  }
  const double order = testing::fitted_order(h, drift);
  std::printf("energy drift over 1 s: %.3g, %.3g, %.3g J (order %.2f)\n", drift[0], drift[1], drift[2], order);
  EXPECT_GT(order, 3.5);
  EXPECT_LT(drift.back(), 1e-8 * std::abs(E0) + 1e-9);
}

TEST(RungeKutta4, IsFourthOrderAndSymplecticEulerFirstInJointCoordinates) {
  const KinematicTree tree = branching_tree();
  const State s0 = start_state();
  RungeKutta4 fine;
  const State reference = run(fine, tree, s0, 0.5, 8000);
  std::vector<double> h, rk4_error, euler_error;
  for (int steps : {200, 400, 800}) {
    RungeKutta4 rk4;
    SymplecticEuler euler;
    h.push_back(0.5 / steps);
    rk4_error.push_back((run(rk4, tree, s0, 0.5, steps).q - reference.q).norm());
    euler_error.push_back((run(euler, tree, s0, 0.5, 8 * steps).q - reference.q).norm());
  }
  const double rk4_order = testing::fitted_order(h, rk4_error), euler_order = testing::fitted_order(h, euler_error);
  std::printf("orders: RK4 %.2f, symplectic Euler %.2f\n", rk4_order, euler_order);
  EXPECT_NEAR(rk4_order, 4.0, 0.3);
  EXPECT_NEAR(euler_order, 1.0, 0.15);
}

// The implicit schemes step a tree through its DynamicalSystem interface (the gravity stiffness by
// central differences, the velocity terms in G): implicit Euler at first order, the trapezoidal
// rule at second.
TEST(RungeKutta4, ImplicitSchemesStepATreeAtTheirOrders) {
  const KinematicTree tree = branching_tree();
  const State s0 = start_state();
  RungeKutta4 fine;
  const State reference = run(fine, tree, s0, 0.25, 4000);
  for (const char* name : {"implicit_euler", "trapezoidal"}) {
    std::vector<double> h, error;
    for (int steps : {250, 500, 1000}) {
      std::unique_ptr<Integrator> integrator = make_integrator(name);
      h.push_back(0.25 / steps);
      error.push_back((run(*integrator, tree, s0, 0.25, steps).q - reference.q).norm());
    }
    const double order = testing::fitted_order(h, error);
    std::printf("%s on the tree: errors %.3g, %.3g, %.3g (order %.2f)\n", name, error[0], error[1], error[2], order);
    EXPECT_NEAR(order, std::string(name) == "implicit_euler" ? 1.0 : 2.0, 0.2) << name;
  }
}

TEST(RungeKutta4, IsFourthOrderThroughTheGenericMassSolve) {
  testing::SpringChain chain;
  chain.n = 3;
  chain.k3 = 50.0;
  chain.c = 0.3;
  State s0{0.0, Eigen::VectorXd::Zero(9), Eigen::VectorXd::Zero(9)};
  for (int i = 0; i < 3; ++i) s0.q.segment<3>(3 * i) = Eigen::Vector3d(0.8 * (i + 1), 0.2 * i, -0.9 * (i + 1));
  std::unique_ptr<Integrator> fine = make_integrator("runge_kutta4");
  const State reference = run(*fine, chain, s0, 1.0, 16000);
  std::vector<double> h, error;
  for (int steps : {500, 1000, 2000}) {
    RungeKutta4 rk4;
    h.push_back(1.0 / steps);
    error.push_back((run(rk4, chain, s0, 1.0, steps).q - reference.q).norm());
  }
  EXPECT_NEAR(testing::fitted_order(h, error), 4.0, 0.3);
}

}  // namespace
}  // namespace sinew::integrators::integrators_runge_kutta4_test
