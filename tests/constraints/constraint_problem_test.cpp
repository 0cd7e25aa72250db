// The constraint problem: FCLIB's global -> local reduction against dense algebra, compliance,
// and clear errors for bad input.
#include "sinew/constraints/constraint_problem.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <limits>
#include <random>

#include "sinew/constraints/compliance.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/block_diagonal_solver.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_constraint_problem_test {
namespace {

using testing::dense_to_csr;
using testing::random_global;

Eigen::MatrixXd dense(const CsrMatrix& A) { return Eigen::MatrixXd(to_eigen(A)); }

TEST(ToDelassus, MatchesDenseReduction) {
  const GlobalProblem g = random_global(7, testing::mixed_blocks(7, 3), 16);
  CholmodSolver cholmod;
  const DelassusProblem local = to_delassus(g, cholmod);
  const Eigen::MatrixXd M = dense(g.M), H = dense(g.H);
  const Eigen::MatrixXd W = H.transpose() * M.ldlt().solve(H);  // FCLIB: W = H^T M^-1 H
  const Eigen::VectorXd q = g.w + H.transpose() * M.ldlt().solve(g.f);
  EXPECT_LT((dense(local.W) - W).norm(), 1e-12 * W.norm());
  EXPECT_LT((local.q - q).norm(), 1e-12 * q.norm());
  EXPECT_EQ(local.blocks.size(), g.blocks.size());
  // v from any r satisfies M v = H r + f, and H^T v + w equals the local W r + q.
  const Eigen::VectorXd r = Eigen::VectorXd::LinSpaced(g.rows(), -1.0, 2.0);
  const Eigen::VectorXd v = global_velocity(g, cholmod, r);
  EXPECT_LT((M * v - H * r - g.f).norm(), 1e-11);
  EXPECT_LT((H.transpose() * v + g.w - (W * r + q)).norm(), 1e-11);
}

// Uncoupled bodies (a block-diagonal M): the body-by-body W of a BlockDiagonalSolver equals the
// panels' W of a general solver and the dense H^T M^-1 H, is exactly symmetric, and leaves a body
// that no row touches out; with compliance on the diagonal. Two layouts take the two ways of
// summing W: seven bodies each met by many rows (W is dense enough to be summed densely) and a
// chain of 60 bodies whose rows each join two neighbours (summed as sorted triplets).
TEST(ToDelassus, BodyByBodyEqualsThePanelsForUncoupledBodies) {
  struct Layout {
    Index bodies, contacts;
    bool chain;
  };
  for (const Layout& layout : {Layout{7, 9, false}, Layout{60, 59, true}}) {
    SCOPED_TRACE(layout.chain ? "chain of 60 bodies" : "7 bodies");
    std::mt19937 gen(5);
    std::uniform_real_distribution<double> uni(-1.0, 1.0);
    const Index n = 3 * layout.bodies;
    GlobalProblem g = random_global(9, testing::mixed_blocks(9, layout.contacts), n);
    // 3 x 3 blocks (the fifth untouched by any row in the first layout), each row of H on two.
    Eigen::MatrixXd M = Eigen::MatrixXd::Zero(n, n), H = Eigen::MatrixXd::Zero(n, g.rows());
    for (Index b = 0; b < layout.bodies; ++b) {
      Eigen::Matrix3d B;
      for (int i = 0; i < 9; ++i) B(i / 3, i % 3) = uni(gen);
      M.block<3, 3>(3 * b, 3 * b) = B * B.transpose() + Eigen::Matrix3d::Identity();
    }
    Index block = 0, first = 0;  // the chain: the rows of contact k join bodies k and k + 1
    for (Index j = 0; j < g.rows(); ++j) {
      if (j == first + block_size(g.blocks[static_cast<std::size_t>(block)].kind)) first = j, ++block;
      const Index k = std::min(block, layout.bodies - 2);
      const std::array<Index, 2> bodies =
          layout.chain ? std::array<Index, 2>{k, k + 1} : std::array<Index, 2>{j % 4, 5 + j % 2};
      for (Index b : bodies)
        for (int i = 0; i < 3; ++i) H(3 * b + i, j) = uni(gen);
    }
    g.M = from_eigen(EigenCsr(M.sparseView()));  // the zeros left out: M's pattern is block diagonal
    g.H = from_eigen(EigenCsr(H.sparseView()));
    g.compliance = Eigen::VectorXd::Constant(g.rows(), 1e-3);
    BlockDiagonalSolver blocks;
    EigenLdltSolver ldlt;
    const DelassusProblem by_body = to_delassus(g, blocks), panels = to_delassus(g, ldlt);
    const Eigen::MatrixXd W = H.transpose() * M.ldlt().solve(H) + 1e-3 * Eigen::MatrixXd::Identity(g.rows(), g.rows());
    EXPECT_LT((dense(by_body.W) - W).norm(), 1e-13 * W.norm());
    EXPECT_LT((dense(by_body.W) - dense(panels.W)).norm(), 1e-13 * W.norm());
    EXPECT_TRUE(dense(by_body.W) == dense(by_body.W).transpose());
    EXPECT_LT((by_body.q - panels.q).norm(), 1e-13 * panels.q.norm());
    // The untouched body costs nothing and adds nothing: the pattern is the panels'.
    EXPECT_EQ(by_body.W.row_ptr, panels.W.row_ptr);
    EXPECT_EQ(by_body.W.col_idx, panels.W.col_idx);
    // A step's own problem, trusted, gives the same bits.
    DelassusProblem trusted;
    to_delassus(g, blocks, trusted, InputCheck::kTrusted);
    EXPECT_EQ(trusted.W.values, by_body.W.values);
    EXPECT_EQ(trusted.W.col_idx, by_body.W.col_idx);
    EXPECT_TRUE(trusted.q == by_body.q);
  }
}

TEST(ConstraintProblem, BadInputIsAClearError) {
  DelassusProblem p;
  p.W = dense_to_csr(Eigen::Matrix3d::Identity());
  p.q = Eigen::Vector3d(-1.0, 0.2, 0.0);
  p.blocks = {{BlockKind::kContact, 0.3}};
  EXPECT_NO_THROW(p.validate());
  const auto message = [](const DelassusProblem& bad) -> std::string {
    try {
      bad.validate();
    } catch (const Error& e) {
      return e.what();
    }
    return "";
  };
  DelassusProblem neg = p;
  neg.blocks[0].mu = -0.1;
  EXPECT_NE(message(neg).find("mu >= 0"), std::string::npos) << message(neg);
  DelassusProblem sizes = p;
  sizes.q = Eigen::Vector2d(1.0, 2.0);
  EXPECT_NE(message(sizes).find("W must be 2x2"), std::string::npos) << message(sizes);
  DelassusProblem blocks = p;
  blocks.blocks.push_back({BlockKind::kBilateral, 0.0});
  EXPECT_NE(message(blocks).find("cover 4 rows"), std::string::npos) << message(blocks);
  DelassusProblem nan = p;
  nan.W.values[4] = std::numeric_limits<double>::quiet_NaN();
  EXPECT_NE(message(nan).find("not finite"), std::string::npos) << message(nan);
  DelassusProblem asym = p;  // real problem files hold non-symmetric W: accepted, and measured
  asym.W.values[1] = 0.5;
  EXPECT_NO_THROW(asym.validate());
  EXPECT_GT(asymmetry(asym.W).relative, 0.0);
  DelassusProblem inf_q = p;
  inf_q.q[2] = std::numeric_limits<double>::infinity();
  EXPECT_NE(message(inf_q).find("q: entry 2"), std::string::npos) << message(inf_q);

  GlobalProblem g = random_global(3, {{BlockKind::kBilateral, 0.0}}, 4);
  g.f = Eigen::VectorXd::Zero(5);
  EXPECT_THROW(g.validate(), Error);
}

TEST(Compliance, TermsFollowTheAveragedLaw) {
  // Against a body that does not move (W = 0 apart from the compliance), the impulse over the
  // step is r = -h (phi + (d + alpha h) phidot) / c: the seed's lambda = -(phi + d phidot)/c with
  // phidot's damping time lengthened by alpha h through the implicit average.
  const double c = 1e-3, d = 0.05, h = 0.01, phi = 0.02, phidot = -0.3;
  DelassusProblem p;
  p.W = dense_to_csr(Eigen::MatrixXd::Zero(1, 1));
  p.q = Eigen::VectorXd::Constant(1, phidot);  // u = J v = phidot: the body keeps its velocity
  p.blocks = {{BlockKind::kBilateral, 0.0}};
  add_compliance(p, 0, CompliantRow{c, d, phi, phidot, h, 1.0, 1.0});
  Eigen::VectorXd r;
  KktSolver kkt;
  ASSERT_TRUE(kkt.solve(p, r).converged());
  EXPECT_NEAR(compliant_force(r[0], h), -(phi + (d + h) * phidot) / c, 1e-9 * std::fabs(phi / c));
  // Without velocity it is lambda = -phi / c exactly.
  p.W = dense_to_csr(Eigen::MatrixXd::Zero(1, 1));
  p.q = Eigen::VectorXd::Zero(1);
  add_compliance(p, 0, CompliantRow{c, d, phi, 0.0, h, 1.0, 1.0});
  r.resize(0);
  ASSERT_TRUE(kkt.solve(p, r).converged());
  EXPECT_NEAR(compliant_force(r[0], h), -phi / c, 1e-12 * phi / c);
  EXPECT_THROW(compliant_terms(CompliantRow{-1.0, 0.0, 0.0, 0.0, h, 1.0, 1.0}), Error);
  EXPECT_THROW(compliant_terms(CompliantRow{c, 0.0, 0.0, 0.0, 0.0, 1.0, 1.0}), Error);
}

TEST(Compliance, HangingParticleSettlesAtStaticDeflection) {
  // A particle of mass m under gravity hangs from a compliant, damped constraint phi = x: the
  // implicit steps settle where lambda = m g and phi = -c m g (Hooke's law with k = 1/c).
  const double m = 2.0, g = 9.81, c = 1e-4, d = 0.02, h = 0.005;
  double x = 0.0, v = 0.0;
  KktSolver kkt;
  double r_last = 0.0;
  for (int step = 0; step < 4000; ++step) {
    DelassusProblem p;
    p.W = dense_to_csr(Eigen::MatrixXd::Constant(1, 1, 1.0 / m));  // H M^-1 H^T with H = 1
    p.q = Eigen::VectorXd::Constant(1, v - h * g);                 // free velocity after gravity
    p.blocks = {{BlockKind::kBilateral, 0.0}};
    add_compliance(p, 0, CompliantRow{c, d, x, v, h, 1.0, 1.0});
    Eigen::VectorXd r;
    ASSERT_TRUE(kkt.solve(p, r).converged());
    v = v - h * g + r[0] / m;
    x += h * v;
    r_last = r[0];
  }
  EXPECT_NEAR(compliant_force(r_last, h), m * g, 1e-8 * m * g);
  EXPECT_NEAR(x, -c * m * g, 1e-10);
}

}  // namespace
}  // namespace sinew::constraints::constraints_constraint_problem_test
