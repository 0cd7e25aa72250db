// Baraff primary + auxiliary with a constraint solver on the auxiliary rows: the same answer as
// the whole problem (primary rows as bilateral blocks) solved in one local problem.
#include "sinew/constraints/baraff_adapter.hpp"

#include <gtest/gtest.h>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_baraff_adapter_test {
namespace {

using testing::dense_to_csr;

// Two particles (masses 1 and 2): body 0 may not move along x (1 row to the world), body 1 is
// welded to body 0 (3 rows), body 1 touches the ground z = 0 (contact n = z, t1 = x, t2 = y).
// Gravity pulls down, and body 1 is pushed along y: with mu = 0.3 the pair slides.
struct Chain {
  Eigen::MatrixXd M = Eigen::MatrixXd::Zero(6, 6);
  Eigen::MatrixXd J = Eigen::MatrixXd::Zero(4, 6);   // primary rows
  Eigen::MatrixXd Ja = Eigen::MatrixXd::Zero(3, 6);  // auxiliary rows
  Eigen::VectorXd momentum = Eigen::VectorXd::Zero(6);
  Chain(double push) {
    M.diagonal() << 1, 1, 1, 2, 2, 2;
    J(0, 0) = 1.0;
    J.block<3, 3>(1, 0) = Eigen::Matrix3d::Identity();
    J.block<3, 3>(1, 3) = -Eigen::Matrix3d::Identity();
    Ja(0, 5) = 1.0;  // normal z of body 1
    Ja(1, 3) = 1.0;  // tangent x
    Ja(2, 4) = 1.0;  // tangent y
    const double h = 0.01, g = 9.81;
    momentum << 0, 0, -h * g * 1.0, 0, h * push, -h * g * 2.0;  // free momentum over a step
  }
  BaraffProblem baraff() const {
    std::vector<BaraffBody> bodies{{M.topLeftCorner(3, 3)}, {M.bottomRightCorner(3, 3)}};
    BaraffConstraint to_world;
    to_world.body_a = 0;
    to_world.jacobian_a = J.block(0, 0, 1, 3);
    BaraffConstraint weld;
    weld.body_a = 0;
    weld.body_b = 1;
    weld.jacobian_a = J.block(1, 0, 3, 3);
    weld.jacobian_b = J.block(1, 3, 3, 3);
    std::vector<BaraffAuxiliaryConstraint> aux(3);
    for (int i = 0; i < 3; ++i) {
      BaraffAuxiliaryBlock block;
      block.body = 1;
      block.jacobian = Ja.block(i, 3, 1, 3);
      aux[i].blocks.push_back(block);
    }
    return BaraffProblem(bodies, {to_world, weld}, aux);
  }
  // The whole problem in FCLIB's global form: H = [J^T, Ja^T], f = momentum, w = 0.
  GlobalProblem global(double mu) const {
    GlobalProblem g;
    g.M = dense_to_csr(M);
    Eigen::MatrixXd H(6, 7);
    H << J.transpose(), Ja.transpose();
    g.H = dense_to_csr(H);
    g.f = momentum;
    g.w = Eigen::VectorXd::Zero(7);
    g.blocks = {{BlockKind::kBilateral, 0.0},
                {BlockKind::kBilateral, 0.0},
                {BlockKind::kBilateral, 0.0},
                {BlockKind::kBilateral, 0.0},
                {BlockKind::kContact, mu}};
    return g;
  }
};

TEST(BaraffAdapter, MatchesTheMonolithicProblem) {
  for (double push : {0.5, 20.0}) {  // sticks, then slides (mu (m0 + m1) g = 8.8 N)
    const Chain chain(push);
    const BaraffProblem problem = chain.baraff();
    BaraffSolver baraff(problem);
    PgsOptions options;
    options.stop.tolerance = 1e-13;
    PgsSolver pgs(options);
    BaraffConstraintAdapter adapter(pgs, {{BlockKind::kContact, 0.3}});
    BaraffWorkspace ws;
    BaraffSolution out;
    const SolverReport rep =
        adapter.solve(baraff, chain.momentum, Eigen::VectorXd::Zero(4), Eigen::VectorXd::Zero(3), ws, out);
    ASSERT_TRUE(rep.converged()) << rep.message;
    EXPECT_EQ(rep.states[0], push < 1.0 ? RowState::kStick : RowState::kSlip);

    EigenLdltSolver mass;
    const GlobalProblem g = chain.global(0.3);
    const DelassusProblem local = to_delassus(g, mass);
    Eigen::VectorXd r;
    ASSERT_TRUE(pgs.solve(local, r).converged());
    const Eigen::VectorXd v = global_velocity(g, mass, r);
    EXPECT_LT((out.lambda - r.head(4)).norm(), 1e-9 * r.norm()) << "push " << push;
    EXPECT_LT((out.mu - r.tail(3)).norm(), 1e-9 * r.norm()) << "push " << push;
    EXPECT_LT((out.acceleration - v).norm(), 1e-9 * (1.0 + v.norm())) << "push " << push;
    // Physics: the pair rests on the ground (u_n = 0) with normal impulse = weight impulse.
    EXPECT_NEAR(out.aux_value[0], 0.0, 1e-10);
    EXPECT_NEAR(out.mu[0], 0.01 * 9.81 * 3.0, 1e-10);
  }
}

TEST(BaraffAdapter, AuxiliaryBlocksMustCoverTheRows) {
  const Chain chain(1.0);
  const BaraffProblem problem = chain.baraff();
  BaraffSolver baraff(problem);
  PgsSolver pgs;
  BaraffConstraintAdapter adapter(pgs, {{BlockKind::kUnilateral, 0.0}});
  BaraffWorkspace ws;
  BaraffSolution out;
  EXPECT_THROW(adapter.solve(baraff, chain.momentum, Eigen::VectorXd::Zero(4), Eigen::VectorXd::Zero(3), ws, out),
               Error);
}

}  // namespace
}  // namespace sinew::constraints::constraints_baraff_adapter_test
