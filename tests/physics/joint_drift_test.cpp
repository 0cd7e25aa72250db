// A contact step reports how far its joints have come apart (issue 22: at 20 ms steps a hinge
// chain's joints drift 0.6 m apart while every solve converges): ContactStepReport::joint_error
// is the largest |phi| of the hard position-level bilateral rows at the start of the step, and
// above ContactStepOptions::joint_error_limit the step advances flagged. A joint started off by
// a known offset gives that offset exactly; a compliant joint, whose error is its law, counts
// nothing; a chain at 1 ms holds its joints and is never flagged, at 20 ms it comes apart and is.
#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <limits>
#include <memory>
#include <string>
#include <vector>

#include "hinge_chain.hpp"
#include "sinew/constraints/joint_types.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/model/mechanical_system.hpp"

namespace sinew::physics_joint_drift_test {
namespace {

using constraints::BallJoint;
using constraints::Constraint;
using integrators::ContactStep;
using integrators::ContactStepOptions;
using integrators::ContactStepReport;
using integrators::State;

const SpatialInertia kLinkInertia = physics_test::hinge_chain_link();

// One step of a body hanging from a world pin by a ball joint whose anchors start @p offset
// apart (world axes): the joint's rows are e_i . (p_body - p_world).
ContactStepReport pinned_body_step(const Vec3& offset, const ContactStepOptions& options,
                                   constraints::JointCompliance compliance = {}) {
  model::MechanicalSystem system;
  system.set_gravity(Vec3{{0, 0, -9.81}});
  system.add_body(kLinkInertia, offset, quat_identity());
  const BallJoint pin("pin", constraints::world_side(Vec3{{0, 0, 0}}), constraints::body_side(0, Vec3{{0, 0, 0}}),
                      compliance);
  State state{0.0, system.initial_positions(), system.initial_velocities()};
  ContactStep step(std::make_unique<constraints::PgsSolver>(), options);
  return step.step(system, {&pin}, state, 1e-3);
}

TEST(JointError, IsTheLargestPositionErrorOfTheHardJointRows) {
  const Vec3 offset{{0.03, -0.04, 0.0}};
  ContactStepReport r = pinned_body_step(offset, {});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_DOUBLE_EQ(r.joint_error, 0.04);
  EXPECT_NE(r.joint_error_label.text().find("pin"), std::string::npos) << r.joint_error_label.text();
  EXPECT_TRUE(r.above_joint_error_limit);  // the default limit is 1e-2

  ContactStepOptions lenient;
  lenient.joint_error_limit = 0.05;
  r = pinned_body_step(offset, lenient);
  EXPECT_DOUBLE_EQ(r.joint_error, 0.04);
  EXPECT_FALSE(r.above_joint_error_limit);

  // A compliant joint's error is its law (lambda = -phi / c), not a drift.
  r = pinned_body_step(offset, {}, constraints::JointCompliance{1e-3, 0.0});
  ASSERT_TRUE(r.ok()) << r.message;
  EXPECT_EQ(r.joint_error, 0.0);
  EXPECT_FALSE(r.above_joint_error_limit);

  // A joint in place: the error is round-off.
  r = pinned_body_step(Vec3{{0, 0, 0}}, {});
  EXPECT_EQ(r.joint_error, 0.0);
  EXPECT_FALSE(r.above_joint_error_limit);
}

TEST(JointError, TheLimitMustBePositive) {
  ContactStepOptions bad;
  bad.joint_error_limit = 0.0;
  EXPECT_THROW(bad.validate(), Error);
  bad.joint_error_limit = std::numeric_limits<double>::quiet_NaN();
  EXPECT_THROW(bad.validate(), Error);
  bad.joint_error_limit = std::numeric_limits<double>::infinity();
  EXPECT_NO_THROW(bad.validate());
}

// The largest distance between a chain's joint anchors at @p q, measured from the poses alone.
double largest_anchor_gap(const model::MechanicalSystem& system, const Eigen::VectorXd& q) {
  const Vec3 half{{0.05, 0, 0}};
  double gap = 0.0;
  Vec3 parent_end{{0, 0, 0}};
  for (Index b = 0; b < system.num_bodies(); ++b) {
    Vec3 x;
    Quaternion r;
    system.body_pose(q, b, x, r);
    const Vec3 start = x - rotate(r, half), end = x + rotate(r, half);
    gap = std::max(gap, norm(start - parent_end));
    parent_end = end;
  }
  return gap;
}

struct ChainRun {
  double largest_error = 0.0;  // of the steps' reports
  int flagged = 0;             // steps above the limit
  std::string first_label;     // of the first flagged step
  std::string worst_label;     // of the step with the largest error
};

// 1 s of the 20-link chain at step @p h, every step's joint_error checked against the gap the
// poses show (a hinge's three point rows are the gap's components in its A frame, so the largest
// of them is at least |gap| / sqrt(3)).
ChainRun run_chain(double h, const ContactStepOptions& options) {
  const std::unique_ptr<physics_test::MaximalChain> c = physics_test::make_maximal_chain(20);
  State state{0.0, c->system.initial_positions(), c->system.initial_velocities()};
  ContactStep step(std::make_unique<constraints::PgsSolver>(), options);
  ChainRun run;
  ContactStepReport r;
  const int steps = static_cast<int>(std::lround(1.0 / h));
  for (int k = 0; k < steps; ++k) {
    const double gap = largest_anchor_gap(c->system, state.q);
    step.step(c->system, c->constraints, state, h, r);
    if (!r.ok()) {
      ADD_FAILURE() << "h = " << h << ", step " << k << ": " << r.message;
      break;
    }
    EXPECT_GE(r.joint_error, gap / std::sqrt(3.0) - 1e-12) << "h = " << h << ", step " << k;
    EXPECT_EQ(r.above_joint_error_limit, r.joint_error > options.joint_error_limit);
    if (r.joint_error > run.largest_error) {
      run.largest_error = r.joint_error;
      run.worst_label = r.joint_error_label.text();
    }
    if (r.above_joint_error_limit && run.flagged++ == 0) run.first_label = r.joint_error_label.text();
  }
  return run;
}

// The drift a step leaves is O(h^2) with implicit Euler (rows at the start, positions along
// the chord) and O(h^3) with the midpoint rule (rows at the chord's midpoint): halving h divides
// the largest error by ~4 and by ~8.
TEST(JointError, AChainThatHoldsIsNeverFlaggedOneComingApartIs) {
  ContactStepOptions midpoint;
  midpoint.theta = integrators::ThetaOptions::preset(integrators::ThetaPreset::kSymplecticMidpoint);
  for (const ContactStepOptions& scheme : {ContactStepOptions{}, midpoint}) {
    const char* name = scheme.theta ? "midpoint" : "implicit Euler";
    const ChainRun fine = run_chain(1e-3, scheme), finer = run_chain(0.5e-3, scheme);
    std::printf("%s: largest joint error %.3g at 1 ms (%s), %.3g at 0.5 ms\n", name, fine.largest_error,
                fine.worst_label.c_str(), finer.largest_error);
    EXPECT_EQ(fine.flagged + finer.flagged, 0) << name;
    EXPECT_LT(fine.largest_error, 1e-3) << name;
    const double ratio = finer.largest_error / fine.largest_error;
    if (scheme.theta)
      EXPECT_LT(ratio, 1.0 / 6.0) << name;
    else
      EXPECT_NEAR(ratio, 0.25, 0.05) << name;

    const ChainRun coarse = run_chain(20e-3, scheme);
    std::printf("%s: largest joint error %.3g at 20 ms, %d of 50 steps flagged, the first at %s\n", name,
                coarse.largest_error, coarse.flagged, coarse.first_label.c_str());
    EXPECT_GT(coarse.largest_error, 0.1) << name;
    EXPECT_GT(coarse.flagged, 0) << name;
    EXPECT_NE(coarse.first_label.find("hinge"), std::string::npos) << coarse.first_label;

    ContactStepOptions never = scheme;
    never.joint_error_limit = std::numeric_limits<double>::infinity();
    EXPECT_EQ(run_chain(20e-3, never).flagged, 0) << name;
  }
}

}  // namespace
}  // namespace sinew::physics_joint_drift_test
