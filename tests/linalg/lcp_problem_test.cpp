// LCP problem types: input checks and their messages, friction bounds, the natural residual,
// column access.
#include "sinew/linalg/lcp_problem.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <cmath>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"
#include "sinew/linalg/lcp_solver.hpp"

namespace sinew::linalg_lcp_problem_test {
namespace {

using test::kInf;

TEST(LcpProblem, ValidateNamesWhatIsWrong) {
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(2, 2);
  p.q = Eigen::VectorXd::Zero(3);
  EXPECT_SINEW_ERROR(p.validate(), "LcpProblem: M is 2x2", "expected 3x3 to match q");
  p.q = Eigen::VectorXd::Zero(2);
  EXPECT_NO_THROW(p.validate());
  p.M(0, 1) = std::nan("");
  EXPECT_SINEW_ERROR(p.validate(), "LcpProblem: M has non-finite entries");
}

TEST(LcpProblem, StandardBoundsAreZeroToInfinity) {
  const LcpBounds b = LcpBounds::standard(3);
  EXPECT_NO_THROW(b.validate(3));
  EXPECT_FALSE(b.has_friction());
  const Eigen::VectorXd z = Eigen::VectorXd::Ones(3);
  EXPECT_EQ(b.lower(1, z), 0.0);
  EXPECT_EQ(b.upper(1, z), kInf);
  EXPECT_SINEW_ERROR(b.validate(4), "lo has 3 and hi 3 entries, expected 4 each");
  EXPECT_SINEW_ERROR(LcpBounds::standard(-1), "expected n >= 0");
}

TEST(LcpProblem, FrictionBoundsFollowTheNormalVariable) {
  LcpBounds b = LcpBounds::standard(3);
  b.set_friction(1, 0, 0.5);
  b.set_friction(2, 0, 0.25);
  EXPECT_TRUE(b.has_friction());
  EXPECT_TRUE(b.is_friction(1));
  EXPECT_FALSE(b.is_friction(0));
  EXPECT_NO_THROW(b.validate(3));
  Eigen::VectorXd z(3);
  z << 2.0, 0.0, 0.0;
  EXPECT_EQ(b.lower(1, z), -1.0);
  EXPECT_EQ(b.upper(1, z), 1.0);
  EXPECT_EQ(b.upper(2, z), 0.5);
  z[0] = -1.0;  // an infeasible normal value never makes the box inverted
  EXPECT_EQ(b.lower(1, z), 0.0);
  EXPECT_EQ(b.upper(1, z), 0.0);
  EXPECT_SINEW_ERROR(b.set_friction(3, 0, 0.1), "row 3 and normal 0 must lie in [0, 3)");
}

TEST(LcpProblem, FrictionChecks) {
  LcpBounds b = LcpBounds::standard(3);
  b.set_friction(1, 0, -0.1);
  EXPECT_SINEW_ERROR(b.validate(3), "row 1 has friction coefficient mu = -0.1", "expected finite mu >= 0");
  b.mu[1] = 0.1;
  b.friction_normal[1] = 1;
  EXPECT_SINEW_ERROR(b.validate(3), "row 1 has friction normal 1", "expected another row");
  b.friction_normal[1] = 7;
  EXPECT_SINEW_ERROR(b.validate(3), "row 1 has friction normal 7");
  b.friction_normal[1] = 2;
  b.set_friction(2, 0, 0.1);
  EXPECT_SINEW_ERROR(b.validate(3), "row 1 has friction normal 2, which is itself a friction row");
  b.friction_normal[2] = -1;
  b.mu[2] = 0.0;
  b.lo[2] = -1.0;
  EXPECT_SINEW_ERROR(b.validate(3), "row 1 has friction normal 2 with lo = -1", "expected a normal row with lo >= 0");
  b.lo[2] = 0.0;
  b.friction_normal[2] = -3;
  EXPECT_SINEW_ERROR(b.validate(3), "row 2 has friction normal -3", "expected -1");
  LcpBounds c = LcpBounds::standard(2);
  c.mu = Eigen::VectorXd::Zero(2);
  EXPECT_SINEW_ERROR(c.validate(2), "mu is set but friction_normal is empty");
  c.friction_normal = {-1};
  EXPECT_SINEW_ERROR(c.validate(2), "friction_normal has 1 and mu 2 entries, expected 2 each");
}

TEST(LcpProblem, BoxBoundsChecks) {
  LcpBounds b = LcpBounds::standard(2);
  b.lo[0] = kInf;
  b.hi[0] = kInf;
  EXPECT_SINEW_ERROR(b.validate(2), "row 0 has bounds [inf, inf]", "lo < +inf");
  b.lo[0] = std::nan("");
  EXPECT_SINEW_ERROR(b.validate(2), "row 0 has bounds [nan, inf]");
  b.lo[0] = -kInf;
  b.hi[0] = -kInf;
  EXPECT_SINEW_ERROR(b.validate(2), "row 0 has bounds [-inf, -inf]", "hi > -inf");
  b.hi[0] = 1.0;
  EXPECT_NO_THROW(b.validate(2));
}

TEST(LcpProblem, NaturalResidualByHand) {
  // Standard LCP: ||min(z, w)||_inf.
  LcpProblem p;
  p.M = Eigen::MatrixXd::Identity(2, 2);
  p.q = Eigen::Vector2d(-1.0, 2.0);
  EXPECT_DOUBLE_EQ(natural_residual(p, Eigen::Vector2d(0.0, 0.0)), 1.0);  // w0 = -1
  EXPECT_DOUBLE_EQ(natural_residual(p, Eigen::Vector2d(1.0, 0.5)), 0.5);  // z1 = 0.5 > 0 with w1 = 2.5
  EXPECT_DOUBLE_EQ(natural_residual(p, Eigen::Vector2d(1.0, 0.0)), 0.0);
  EXPECT_SINEW_ERROR(natural_residual(p, Eigen::Vector3d::Zero()), "z has 3 entries, expected 2");
  // Box: z - mid(lo, hi, z - w).
  BoxLcpProblem b;
  b.M = Eigen::MatrixXd::Identity(2, 2);
  b.q = Eigen::Vector2d(-5.0, 0.0);
  b.bounds = LcpBounds::standard(2);
  b.bounds.hi[0] = 1.0;
  EXPECT_DOUBLE_EQ(natural_residual(b, Eigen::Vector2d(1.0, 0.0)), 0.0);  // at hi with w = -4 <= 0
  EXPECT_DOUBLE_EQ(natural_residual(b, Eigen::Vector2d(0.5, 0.0)), 0.5);  // interior with w = -4.5
  // Friction row bounded by mu z_n.
  b.bounds = LcpBounds::standard(2);
  b.bounds.set_friction(1, 0, 0.5);
  b.q = Eigen::Vector2d(-2.0, -3.0);
  EXPECT_DOUBLE_EQ(natural_residual(b, Eigen::Vector2d(2.0, 1.0)), 0.0);  // z_t = mu z_n, w_t = -2 <= 0
  EXPECT_DOUBLE_EQ(natural_residual(b, Eigen::Vector2d(2.0, 0.5)), 0.5);
}

TEST(LcpProblem, DenseColumnsAndStatusNames) {
  Eigen::MatrixXd M(2, 2);
  M << 1, 2, 3, 4;
  const DenseLcpColumns columns(M);
  EXPECT_EQ(columns.size(), 2);
  Eigen::VectorXd c(2);
  columns.column(1, c);
  EXPECT_EQ(c, Eigen::Vector2d(2, 4));
  EXPECT_SINEW_ERROR(DenseLcpColumns(Eigen::MatrixXd(2, 3)), "M is 2x3, expected a square matrix");
  EXPECT_STREQ(to_string(LcpStatus::kSolved), "solved");
  EXPECT_STREQ(to_string(LcpStatus::kNotConverged), "not_converged");
  EXPECT_STREQ(to_string(LcpStatus::kFailed), "failed");
}

}  // namespace
}  // namespace sinew::linalg_lcp_problem_test
