// Projected Gauss-Seidel: friction boxes (ArtiSynth notes 0.16) with closed-form answers for
// every branch (contact open / closed, stick / slip), a resting box pushed sideways, coupled
// random contacts, warm start, relaxation and honest non-convergence.
#include "sinew/linalg/lcp_pgs.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <string>

#include "expect_error.hpp"
#include "lcp_test_problems.hpp"
#include "sinew/linalg/lcp_lemke.hpp"

namespace sinew::linalg_lcp_pgs_test {
namespace {

PgsLcpSolver::Options tight() {
  PgsLcpSolver::Options p;
  p.max_iterations = 100000;
  p.tolerance = 1e-13;
  return p;
}

// One contact of a particle of mass m: W = I / m, rows (normal, t1, t2), q the free relative
// velocity. Closed form: z_n = max(0, -m q_n); each tangent is clamped to the friction box,
// z_t = mid(-mu z_n, mu z_n, -m q_t) (notes 0.16: the impulse that cancels v_t if it can).
BoxLcpProblem particle_contact(double m, double mu, const Eigen::Vector3d& q) {
  BoxLcpProblem p;
  p.M = Eigen::MatrixXd::Identity(3, 3) / m;
  p.q = q;
  p.bounds = LcpBounds::standard(3);
  p.bounds.set_friction(1, 0, mu);
  p.bounds.set_friction(2, 0, mu);
  return p;
}

Eigen::Vector3d particle_contact_answer(double m, double mu, const Eigen::Vector3d& q) {
  const double zn = std::max(0.0, -m * q[0]);
  return {zn, std::clamp(-m * q[1], -mu * zn, mu * zn), std::clamp(-m * q[2], -mu * zn, mu * zn)};
}

struct ParticleCase {
  const char* name;
  double mu;
  Eigen::Vector3d q;
  int interior, at_bound, collapsed;  // expected branch counts over the three rows
};

TEST(LcpPgs, ParticleContactEveryBranch) {
  const double m = 2.0;
  const ParticleCase cases[] = {
      // open contact: no impulse, the friction box collapses to [0, 0]
      {"open", 0.5, {0.3, 1.0, -2.0}, 0, 1, 2},
      // touching with no approach: still open
      {"grazing", 0.5, {0.0, 1.0, -2.0}, 0, 1, 2},
      // closed, both tangents inside the cone: stick, w_t = 0
      {"stick", 0.5, {-1.0, 0.1, -0.2}, 3, 0, 0},
      // closed, both tangents outside: slip at the box faces, w_t keeps the sign of q_t
      {"slip", 0.5, {-1.0, 1.0, -0.8}, 1, 2, 0},
      // one tangent sticks, the other slips
      {"stick and slip", 0.5, {-1.0, 0.3, 2.0}, 2, 1, 0},
      // exactly on the cone boundary |m q_t| = mu z_n
      {"cone boundary", 0.5, {-1.0, 0.5, 0.0}, 2, 1, 0},
      // frictionless: tangents collapse to 0 while the contact is closed
      {"frictionless", 0.0, {-1.0, 1.0, 1.0}, 1, 0, 2},
  };
  for (const ParticleCase& c : cases) {
    SCOPED_TRACE(c.name);
    const BoxLcpProblem p = particle_contact(m, c.mu, c.q);
    PgsLcpSolver solver(tight());
    Eigen::VectorXd z;
    const LcpResult r = solver.solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    const Eigen::Vector3d want = particle_contact_answer(m, c.mu, c.q);
    EXPECT_LT((z - want).lpNorm<Eigen::Infinity>(), 1e-12) << "z = " << z.transpose();
    test::BoxBranches b;
    EXPECT_TRUE(test::satisfies_box_conditions(p.M, p.q, p.bounds, z, 1e-12, &b));
    EXPECT_EQ(b.interior, c.interior);
    EXPECT_EQ(b.at_lower + b.at_upper, c.at_bound);
    EXPECT_EQ(b.collapsed, c.collapsed);
  }
  // Slip: the remaining tangential velocity keeps the direction of the free one.
  const Eigen::Vector3d q(-1.0, 1.0, -0.8);
  const BoxLcpProblem p = particle_contact(m, 0.5, q);
  PgsLcpSolver solver(tight());
  Eigen::VectorXd z;
  ASSERT_TRUE(solver.solve(p, z).solved());
  const Eigen::VectorXd w = p.M * z + p.q;
  EXPECT_NEAR(w[1], 0.5, 1e-12);
  EXPECT_NEAR(w[2], -0.3, 1e-12);
}

// A rigid box (mass m, diagonal inertia) resting on the ground on its four bottom corners,
// pushed sideways: 12 contact rows on 6 DOFs, so W is only positive semi-definite.
struct RestingBox {
  double m = 3.0, mu = 0.5, h = 0.01, g = 9.81;
  Eigen::MatrixXd J{12, 6};
  Eigen::VectorXd minv{6};
  RestingBox() {
    minv << 1 / m, 1 / m, 1 / m, 1 / 0.4, 1 / 0.5, 1 / 0.6;
    const Eigen::Vector3d dirs[3] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY()};
    int row = 0;
    for (double x : {-0.5, 0.5})
      for (double y : {-0.4, 0.4}) {
        const Eigen::Vector3d r(x, y, -0.2);
        for (const Eigen::Vector3d& d : dirs) {
          J.row(row).head<3>() = d.transpose();
          J.row(row).tail<3>() = r.cross(d).transpose();
          ++row;
        }
      }
  }
  BoxLcpProblem problem(const Eigen::VectorXd& v_free) const {
    BoxLcpProblem p;
    p.M = J * minv.asDiagonal() * J.transpose();
    p.q = J * v_free;
    p.bounds = LcpBounds::standard(12);
    for (Index c = 0; c < 4; ++c) {
      p.bounds.set_friction(3 * c + 1, 3 * c, mu);
      p.bounds.set_friction(3 * c + 2, 3 * c, mu);
    }
    return p;
  }
};

TEST(LcpPgs, RestingBoxSticksSlipsAndLifts) {
  const RestingBox box;
  const double slip_limit = box.mu * box.g * box.h;  // largest tangential speed friction removes in a step
  struct Case {
    const char* name;
    double vx, vz;
    Eigen::VectorXd v_after;
  };
  Eigen::VectorXd rest = Eigen::VectorXd::Zero(6), slide = Eigen::VectorXd::Zero(6), lift = Eigen::VectorXd::Zero(6);
  slide[0] = 3.0 * slip_limit - slip_limit;
  lift << 0.05, 0.0, 0.02, 0.0, 0.0, 0.0;
  const Case cases[] = {
      {"stick", 0.5 * slip_limit, -box.g * box.h, rest},
      {"slip", 3.0 * slip_limit, -box.g * box.h, slide},
      {"slip backwards", -3.0 * slip_limit, -box.g * box.h, -slide},
      {"lift off", 0.05, 0.02, lift},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.name);
    Eigen::VectorXd v_free = Eigen::VectorXd::Zero(6);
    v_free[0] = c.vx;
    v_free[2] = c.vz;
    const BoxLcpProblem p = box.problem(v_free);
    ASSERT_LT(Eigen::FullPivLU<Eigen::MatrixXd>(p.M).rank(), 12);
    PgsLcpSolver solver(tight());
    Eigen::VectorXd z;
    const LcpResult r = solver.solve(p, z);
    ASSERT_TRUE(r.solved()) << r.message;
    EXPECT_TRUE(test::satisfies_box_conditions(p.M, p.q, p.bounds, z, 1e-11));
    const Eigen::VectorXd v_after = v_free + box.minv.asDiagonal() * (box.J.transpose() * z);
    EXPECT_LT((v_after - c.v_after).lpNorm<Eigen::Infinity>(), 1e-9) << "v+ = " << v_after.transpose();
    const double normal_total = z[0] + z[3] + z[6] + z[9];
    EXPECT_NEAR(normal_total, c.vz < 0 ? box.m * box.g * box.h : 0.0, 1e-9);
  }
}

TEST(LcpPgs, CoupledContactsSatisfyFrictionConditionsAndAgreeWithLemke) {
  int open = 0, closed = 0, stick = 0, slip = 0;
  for (double mu : {0.2, 1.0}) {
    for (std::uint64_t seed : {1u, 2u, 3u, 4u, 5u}) {
      SCOPED_TRACE("mu = " + std::to_string(mu) + ", seed = " + std::to_string(seed));
      const BoxLcpProblem p = test::random_contact_problem(4, 14, mu, 300 + seed);
      PgsLcpSolver solver(tight());
      Eigen::VectorXd z;
      const LcpResult r = solver.solve(p, z);
      ASSERT_TRUE(r.solved()) << r.message;
      ASSERT_TRUE(test::satisfies_box_conditions(p.M, p.q, p.bounds, z, 1e-11));
      const Eigen::VectorXd w = p.M * z + p.q;
      for (Index c = 0; c < 4; ++c) {
        if (z[3 * c] > 1e-9) {
          ++closed;
          for (Index t : {3 * c + 1, 3 * c + 2}) (std::abs(w[t]) <= 1e-9 ? stick : slip)++;
        } else {
          ++open;
        }
      }
      // With the friction bounds frozen at mu z_n the problem is a fixed box LCP with SPD M,
      // whose unique solution Lemke computes independently.
      BoxLcpProblem frozen = p;
      frozen.bounds = LcpBounds::standard(12);
      for (Index i = 0; i < 12; ++i) {
        frozen.bounds.lo[i] = p.bounds.lower(i, z);
        frozen.bounds.hi[i] = p.bounds.upper(i, z);
      }
      LemkeLcpSolver lemke;
      Eigen::VectorXd zl;
      const LcpResult rl = lemke.solve(frozen, zl);
      ASSERT_TRUE(rl.solved()) << rl.message;
      EXPECT_LT((zl - z).lpNorm<Eigen::Infinity>(), 1e-9);
    }
  }
  EXPECT_GT(open, 0);
  EXPECT_GT(closed, 0);
  EXPECT_GT(stick, 0);
  EXPECT_GT(slip, 0);
}

TEST(LcpPgs, WarmStartFromTheSolutionNeedsOneSweep) {
  LcpProblem p;
  p.M = test::random_dense_spd(30, 50.0, 5);
  p.q = test::random_dense_vector(30, 6);
  PgsLcpSolver::Options params = tight();
  params.tolerance = 1e-10;
  PgsLcpSolver warm(params);
  Eigen::VectorXd z;
  const LcpResult cold = warm.solve(p, z);
  ASSERT_TRUE(cold.solved());
  ASSERT_GT(cold.iterations, 5);
  const Eigen::VectorXd solution = z;
  const LcpResult again = warm.solve(p, z);
  ASSERT_TRUE(again.solved());
  EXPECT_EQ(again.iterations, 1);
  params.warm_start = false;
  PgsLcpSolver ignoring(params);
  z = solution;
  EXPECT_EQ(ignoring.solve(p, z).iterations, cold.iterations);
}

TEST(LcpPgs, RelaxationChangesTheRateNotTheAnswer) {
  LcpProblem p;
  p.M = test::random_dense_spd(25, 30.0, 8);
  p.q = test::random_dense_vector(25, 9);
  Eigen::VectorXd reference;
  ASSERT_TRUE(PgsLcpSolver(tight()).solve(p, reference).solved());
  for (double omega : {0.6, 1.4}) {
    PgsLcpSolver::Options params = tight();
    params.omega = omega;
    Eigen::VectorXd z;
    const LcpResult r = PgsLcpSolver(params).solve(p, z);
    ASSERT_TRUE(r.solved()) << "omega = " << omega << ": " << r.message;
    EXPECT_LT((z - reference).lpNorm<Eigen::Infinity>(), 1e-10) << "omega = " << omega;
  }
}

TEST(LcpPgs, ReportsNonConvergence) {
  LcpProblem p;
  p.M = test::random_dense_spd(60, 1e3, 10);
  p.q = test::random_dense_vector(60, 11);
  PgsLcpSolver::Options params;
  params.max_iterations = 3;
  params.tolerance = 1e-12;
  Eigen::VectorXd z;
  const LcpResult r = PgsLcpSolver(params).solve(p, z);
  EXPECT_EQ(r.status, LcpStatus::kNotConverged);
  EXPECT_EQ(r.iterations, 3);
  EXPECT_GT(r.residual, 1e-12);
  EXPECT_NEAR(r.residual, natural_residual(p, z), 1e-14);
  EXPECT_NE(r.message.find("after 3 sweeps"), std::string::npos) << r.message;
}

TEST(LcpPgs, RejectsBadParametersAndDiagonal) {
  PgsLcpSolver::Options params;
  params.omega = 2.0;
  EXPECT_SINEW_ERROR(PgsLcpSolver{params}, "omega = 2", "expected 0 < omega < 2");
  params.omega = 1.0;
  params.tolerance = 0.0;
  EXPECT_SINEW_ERROR(PgsLcpSolver{params}, "tolerance = 0", "expected a finite value > 0");
  params.tolerance = 1e-8;
  params.max_iterations = 0;
  EXPECT_SINEW_ERROR(PgsLcpSolver{params}, "max_iterations = 0", "expected at least 1");
  LcpProblem p;
  p.M = Eigen::Matrix2d(Eigen::Vector2d(1.0, 0.0).asDiagonal());
  p.q = Eigen::Vector2d(-1.0, -1.0);
  Eigen::VectorXd z;
  EXPECT_SINEW_ERROR(PgsLcpSolver().solve(p, z), "M(1,1) = 0", "expected a positive diagonal");
}

}  // namespace
}  // namespace sinew::linalg_lcp_pgs_test
