// Constraints on mapped points (mapped_constraint.hpp): rows G_x J against finite differences of
// phi, against the product of the proxy rows and the mapping Jacobian, and against the same joint
// written directly on body frames.
#include "sinew/constraints/mapped_constraint.hpp"

#include <gtest/gtest.h>

#include <memory>
#include <random>

#include "expect_error.hpp"
#include "joint_test_support.hpp"
#include "sinew/constraints/joint_point.hpp"

namespace sinew::constraints::mapped_constraint_test {
namespace {

using testing::dense_jacobian;
using testing::random_system;
using testing::random_vec;
using testing::rows_at;

DistanceOptions compliant_rod(double length) {
  DistanceOptions o;
  o.length = length;
  o.compliance = JointCompliance{1e-3, 0.02};
  return o;
}

TEST(MappedConstraint, RowsOfMultimappedPointsMatchFiniteDifferencesAndTheProductGxJ) {
  std::mt19937 rng(11);
  auto sys = random_system(rng);
  auto points = std::make_shared<model::MappedPoints>(
      *sys,
      std::vector<model::MappedPoint>{
          model::rigid_point(0, random_vec(rng, 0.5)),
          model::MappedPoint{{model::particle_point(0), 0.3}, {model::body_point(1, random_vec(rng, 0.5)), 0.7}}},
      "tool tips");
  auto rod = std::make_shared<DistanceJoint>("rod", particle_side(0), particle_side(1), compliant_rod(0.8));
  const MappedConstraint mapped(points, rod);
  mapped.check(*sys);
  const Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  EXPECT_LT(testing::jacobian_fd_error(mapped, *sys, q, 1), 1e-7);
  // G = G_x J: the proxy's rows times the mapping's Jacobian; phi and compliance kept.
  const ConstraintRows rows = rows_at(mapped, *sys, q, u);
  model::SystemState s, p;
  sys->evaluate_state(0.0, q, u, s);
  points->evaluate(s, p);
  ConstraintRows proxy_rows;
  rod->add_rows(points->proxy(), p, proxy_rows);
  CsrMatrix J;
  points->jacobian(s, J);
  const Eigen::MatrixXd expected =
      dense_jacobian(proxy_rows, points->proxy().num_velocities()) * Eigen::MatrixXd(to_eigen(J));
  const Eigen::MatrixXd got = dense_jacobian(rows, sys->num_velocities());
  EXPECT_LE((got - expected).cwiseAbs().maxCoeff(), 1e-14 * expected.cwiseAbs().maxCoeff());
  EXPECT_GT(expected.cwiseAbs().maxCoeff(), 0.1);
  ASSERT_EQ(rows.rows(), 1);
  EXPECT_EQ(rows.phi[0], proxy_rows.phi[0]);
  EXPECT_EQ(rows.compliance[0], 1e-3);
  EXPECT_EQ(rows.damping[0], 0.02);
  EXPECT_NE(mapped.name().find("tool tips"), std::string::npos);
}

TEST(MappedConstraint, AJointOnMappedMarkersIsTheJointOnTheBodies) {
  std::mt19937 rng(12);
  auto sys = random_system(rng, false);
  const Vec3 a = random_vec(rng, 0.4), b = random_vec(rng, 0.4);
  auto points = std::make_shared<model::MappedPoints>(
      *sys, std::vector<model::MappedPoint>{model::rigid_point(0, a), model::rigid_point(1, b)});
  const MappedConstraint mapped(
      points, std::make_shared<DistanceJoint>("rod", particle_side(0), particle_side(1), compliant_rod(1.1)));
  const DistanceJoint direct("rod", body_side(0, a), body_side(1, b), compliant_rod(1.1));
  const Eigen::VectorXd q = sys->initial_positions(), u = sys->initial_velocities();
  const ConstraintRows rm = rows_at(mapped, *sys, q, u), rd = rows_at(direct, *sys, q, u);
  ASSERT_EQ(rm.rows(), rd.rows());
  const Eigen::MatrixXd Jm = dense_jacobian(rm, sys->num_velocities()), Jd = dense_jacobian(rd, sys->num_velocities());
  EXPECT_LE((Jm - Jd).cwiseAbs().maxCoeff(), 1e-13);
  EXPECT_NEAR(rm.phi[0], rd.phi[0], 1e-14);
  EXPECT_EQ(rm.compliance, rd.compliance);
}

TEST(MappedConstraint, ItsReferencesAndItsSystemAreChecked) {
  std::mt19937 rng(13);
  auto sys = random_system(rng), other = random_system(rng);
  auto points = std::make_shared<model::MappedPoints>(
      *sys, std::vector<model::MappedPoint>{model::rigid_point(0, Vec3{{0, 0, 0}})});
  EXPECT_SINEW_ERROR(
      MappedConstraint(points, std::make_shared<DistanceJoint>("rod", particle_side(0), particle_side(3))),
      "particle index 3");
  const MappedConstraint ok(points,
                            std::make_shared<DistanceJoint>("rod", particle_side(0), world_side(Vec3{{0, 0, 1}})));
  EXPECT_SINEW_ERROR(ok.check(*other), "another MechanicalSystem");
}

}  // namespace
}  // namespace sinew::constraints::mapped_constraint_test
