// The natural-map error by hand on single blocks, its zero at Signorini-Coulomb points and the
// Siconos normalization by ||q||.
#include "sinew/constraints/natural_map.hpp"

#include <gtest/gtest.h>

#include <cmath>

#include "test_problems.hpp"

namespace sinew::constraints::constraints_natural_map_test {
namespace {

using testing::dense_to_csr;

DelassusProblem single(BlockKind kind, const Eigen::VectorXd& q, double mu = 0.0) {
  DelassusProblem p;
  p.W = dense_to_csr(Eigen::MatrixXd::Identity(q.size(), q.size()));
  p.q = q;
  p.blocks = {{kind, mu}};
  return p;
}

TEST(NaturalMap, ContactByHand) {
  // r = 0 against an approaching contact (u = q = (-2, 0, 0)): r - (u + mu |u_T| e_n) = (2, 0, 0)
  // lies in K, so res = r - (2, 0, 0): the error is 2, relative 2 / ||q|| = 1.
  const DelassusProblem p = single(BlockKind::kContact, Eigen::Vector3d(-2.0, 0.0, 0.0), 0.5);
  NaturalMapError e = natural_map_error(p, Eigen::Vector3d(0.0, 0.0, 0.0));
  EXPECT_DOUBLE_EQ(e.absolute, 2.0);
  EXPECT_DOUBLE_EQ(e.relative, 1.0);
  EXPECT_DOUBLE_EQ(e.fclib_merit, 2.0 / (1.0 + std::sqrt(2.0)));
  // The stick solution r = (2, 0, 0) (u = 0) is exact.
  EXPECT_EQ(natural_map_error(p, Eigen::Vector3d(2.0, 0.0, 0.0)).absolute, 0.0);
  // Sliding: q = (-1, 3, 0), mu = 0.5: r = (1, -0.5, 0), u = (0, 2.5, 0) is Coulomb's answer.
  const DelassusProblem s = single(BlockKind::kContact, Eigen::Vector3d(-1.0, 3.0, 0.0), 0.5);
  EXPECT_NEAR(natural_map_error(s, Eigen::Vector3d(1.0, -0.5, 0.0)).absolute, 0.0, 1e-15);
  // Friction along the slip is wrong and measured so.
  EXPECT_GT(natural_map_error(s, Eigen::Vector3d(1.0, 0.5, 0.0)).absolute, 0.5);
  // Too much friction (outside the cone) is wrong too.
  EXPECT_GT(natural_map_error(s, Eigen::Vector3d(1.0, -0.9, 0.0)).absolute, 0.1);
}

TEST(NaturalMap, BilateralUnilateralAndBox) {
  // Bilateral: the residual is u itself.
  EXPECT_DOUBLE_EQ(natural_map_error(single(BlockKind::kBilateral, Eigen::VectorXd::Constant(1, 3.0)),
                                     Eigen::VectorXd::Constant(1, 1.0))
                       .absolute,
                   4.0);
  // Unilateral: r = 0 with u = -1 < 0 violates, error = |min(r, u)| = 1; r = 1 solves.
  const DelassusProblem u = single(BlockKind::kUnilateral, Eigen::VectorXd::Constant(1, -1.0));
  EXPECT_DOUBLE_EQ(natural_map_error(u, Eigen::VectorXd::Zero(1)).absolute, 1.0);
  EXPECT_EQ(natural_map_error(u, Eigen::VectorXd::Constant(1, 1.0)).absolute, 0.0);
  // Box friction bounds each tangent by mu r_n: q = (-1, 3, 3), mu = 0.5 slides on both axes.
  const DelassusProblem b = single(BlockKind::kContactBoxFriction, Eigen::Vector3d(-1.0, 3.0, 3.0), 0.5);
  EXPECT_NEAR(natural_map_error(b, Eigen::Vector3d(1.0, -0.5, -0.5)).absolute, 0.0, 1e-15);
  EXPECT_GT(natural_map_error(b, Eigen::Vector3d(1.0, -0.5, 0.0)).absolute, 0.4);
}

TEST(NaturalMap, ZeroFreeVelocityIsNotDivided) {
  const DelassusProblem p = single(BlockKind::kContact, Eigen::Vector3d::Zero(), 0.5);
  const NaturalMapError e = natural_map_error(p, Eigen::Vector3d(1.0, 0.0, 0.0));
  EXPECT_EQ(e.norm_q, 0.0);
  EXPECT_DOUBLE_EQ(e.relative, e.absolute);  // Siconos divides only when ||q|| > DBL_EPSILON
  EXPECT_GT(e.absolute, 0.5);
}

}  // namespace
}  // namespace sinew::constraints::constraints_natural_map_test
