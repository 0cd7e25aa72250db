// Cross-checks with linalg's LCP solvers: a frictionless (unilateral-only) problem is an LCP that
// Lemke's pivoting solves exactly, and box friction is linalg's box LCP with friction rows.
#include <gtest/gtest.h>

#include "sinew/backends/registry.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "sinew/linalg/lcp_lemke.hpp"
#include "sinew/linalg/lcp_pgs.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_lcp_agreement_test {
namespace {

TEST(LcpAgreement, UnilateralRowsMatchLemke) {
  auto serial = make_backend("serial");
  for (unsigned seed = 30; seed < 34; ++seed) {
    const std::vector<ConstraintBlock> blocks(8, ConstraintBlock{BlockKind::kUnilateral, 0.0});
    GlobalProblem g = testing::random_global(seed, blocks, 12);
    g.w = g.w.array() - 0.2;  // more rows pushed closed
    EigenLdltSolver mass;
    const DelassusProblem p = to_delassus(g, mass);
    LcpProblem lcp{Eigen::MatrixXd(to_eigen(p.W)), p.q};
    Eigen::VectorXd z;
    ASSERT_TRUE(LemkeLcpSolver().solve(lcp, z).solved());
    ASSERT_GT(z.maxCoeff(), 1e-3) << "seed " << seed << ": some row must be closed";
    ASSERT_LT(z.minCoeff(), 1e-12) << "seed " << seed << ": some row must be open";
    NewtonOptions minmap;
    minmap.function = NcpFunction::kMinMap;
    minmap.stop.tolerance = 1e-12;
    NewtonOptions fb = minmap;
    fb.function = NcpFunction::kFischerBurmeister;
    PgsOptions pgs;
    pgs.stop = {1e-12, 5000};
    NewtonSolver a(*serial, minmap), b(*serial, fb);
    PgsSolver c(pgs);
    for (ConstraintSolver* s :
         {static_cast<ConstraintSolver*>(&a), static_cast<ConstraintSolver*>(&b), static_cast<ConstraintSolver*>(&c)}) {
      Eigen::VectorXd r;
      const SolverReport rep = s->solve(p, r);
      ASSERT_TRUE(rep.converged()) << s->name() << ": " << rep.message;
      EXPECT_LT((r - z).norm(), 1e-9 * (1.0 + z.norm())) << s->name() << " seed " << seed;
      // Min-map Newton on an LCP is a semismooth Newton with the exact generalized Jacobian
      // (Omega W Omega + E is the whole story): it ends in a handful of active-set changes.
      if (s == &a) {
        EXPECT_LE(rep.iterations, 10) << "seed " << seed;
      }
    }
  }
}

TEST(LcpAgreement, BoxFrictionMatchesLinalgBoxLcp) {
  std::vector<ConstraintBlock> blocks(3, ConstraintBlock{BlockKind::kContactBoxFriction, 0.4});
  const GlobalProblem g = testing::random_global(40, blocks, 14);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  BoxLcpProblem box{Eigen::MatrixXd(to_eigen(p.W)), p.q, LcpBounds::standard(p.rows())};
  for (Index c = 0; c < 3; ++c)
    for (Index k = 1; k < 3; ++k) box.bounds.set_friction(3 * c + k, 3 * c, 0.4);
  PgsLcpSolver::Options params;
  params.tolerance = 1e-13;
  params.max_iterations = 20000;
  Eigen::VectorXd z;
  ASSERT_TRUE(PgsLcpSolver(params).solve(box, z).solved());
  PgsOptions options;
  options.stop = {1e-13, 20000};
  Eigen::VectorXd r;
  const SolverReport rep = PgsSolver(options).solve(p, r);
  ASSERT_TRUE(rep.converged()) << rep.message;
  EXPECT_LT((r - z).norm(), 1e-9 * (1.0 + z.norm()));
  EXPECT_GT(r.norm(), 1e-3);
}

}  // namespace
}  // namespace sinew::constraints::constraints_lcp_agreement_test
