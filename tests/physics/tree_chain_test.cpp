// One hinge chain two ways: in joint coordinates (KinematicTree, RK4) and in maximal coordinates
// (bodies with hinge rows, ContactStep's midpoint rule and Baraff's factor). Both discretize the
// same motion, so as their steps shrink they meet: every rod's end within the maximal chain's
// O(h^2) error after 0.5 s of a 10-rod chain falling from horizontal; and the tree's symplectic
// Euler, first order, approaches them as its step halves.
#include <gtest/gtest.h>

#include <algorithm>
#include <cstdio>

#include "hinge_chain.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/integrators/runge_kutta4.hpp"
#include "sinew/integrators/symplectic_euler.hpp"

namespace sinew::physics_tree_chain_test {
namespace {

constexpr int kLinks = 10;
constexpr double kDuration = 0.5;

// Every rod's free end (world) after the run.
std::vector<Vec3> tree_ends(integrators::Integrator& integrator, double h) {
  const model::KinematicTree tree = physics_test::make_tree_chain(kLinks);
  integrators::State s{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
  const int steps = static_cast<int>(std::lround(kDuration / h));
  for (int k = 0; k < steps; ++k) {
    const integrators::StepReport r = integrator.step(tree, s, h);
    if (!r.ok()) ADD_FAILURE() << r.message;
  }
  std::vector<Vec3> ends;
  for (Index b = 0; b < kLinks; ++b) ends.push_back(tree.body_point(s.q, b, Vec3{{0.05, 0, 0}}));
  return ends;
}

std::vector<Vec3> maximal_ends(double h) {
  const std::unique_ptr<physics_test::MaximalChain> c = physics_test::make_maximal_chain(kLinks);
  integrators::ContactStepOptions options;
  options.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  integrators::ContactStep step(std::make_unique<constraints::PgsSolver>(), options);
  integrators::State s{0.0, c->system.initial_positions(), c->system.initial_velocities()};
  const int steps = static_cast<int>(std::lround(kDuration / h));
  for (int k = 0; k < steps; ++k) {
    const integrators::ContactStepReport r = step.step(c->system, c->constraints, s, h);
    if (!r.ok()) ADD_FAILURE() << r.message;
  }
  std::vector<Vec3> ends;
  for (Index b = 0; b < kLinks; ++b) {
    Vec3 x;
    Quaternion q;
    c->system.body_pose(s.q, b, x, q);
    ends.push_back(x + rotate(q, Vec3{{0.05, 0, 0}}));
  }
  return ends;
}

double largest_distance(const std::vector<Vec3>& a, const std::vector<Vec3>& b) {
  double d = 0.0;
  for (std::size_t k = 0; k < a.size(); ++k) d = std::max(d, norm(a[k] - b[k]));
  return d;
}

TEST(TreeChain, JointAndMaximalCoordinatesMeetAsTheStepsShrink) {
  integrators::RungeKutta4 rk4;
  const std::vector<Vec3> tree = tree_ends(rk4, 1e-3);
  const double coarse = largest_distance(tree, maximal_ends(1e-3)),
               fine = largest_distance(tree, maximal_ends(0.25e-3));
  std::printf(
      "largest distance of a rod's end, RK4 in joint coordinates at 1 ms against the midpoint rule in "
      "maximal coordinates: %.3g m at 1 ms, %.3g m at 0.25 ms\n",
      coarse, fine);
  EXPECT_LT(fine, 2e-5);
  EXPECT_LT(fine, coarse / 8.0);  // the midpoint rule's O(h^2): 16x at a quarter of the step

  std::vector<double> euler;
  for (double h : {1e-3, 0.5e-3, 0.25e-3}) {
    integrators::SymplecticEuler e;
    euler.push_back(largest_distance(tree_ends(e, h), tree));
  }
  std::printf("symplectic Euler in joint coordinates, off RK4: %.3g, %.3g, %.3g m\n", euler[0], euler[1], euler[2]);
  EXPECT_NEAR(euler[0] / euler[1], 2.0, 0.3);
  EXPECT_NEAR(euler[1] / euler[2], 2.0, 0.3);
}

}  // namespace
}  // namespace sinew::physics_tree_chain_test
