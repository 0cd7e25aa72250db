// Constraint solvers on physics with closed-form answers, on random well-posed problems where
// every solver must reach the same Signorini-Coulomb solution, and on failure modes.
#include <gtest/gtest.h>

#include <cmath>
#include <iostream>
#include <limits>
#include <memory>

#include "sinew/backends/registry.hpp"
#include "sinew/constraints/kkt_solver.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/core/error.hpp"
#include "sinew/linalg/cholmod_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_solvers_test {
namespace {

using testing::dense_to_csr;

// A particle of mass m on the plane z = 0 with free velocity (vx, vy, vz): local problem with
// rows (normal z, tangent x, tangent y), W = I / m, q = (vz, vx, vy).
DelassusProblem particle_on_plane(double m, double vx, double vy, double vz, double mu, BlockKind kind) {
  DelassusProblem p;
  p.W = dense_to_csr(Eigen::Matrix3d::Identity() / m);
  p.q = Eigen::Vector3d(vz, vx, vy);
  p.blocks = {{kind, mu}};
  return p;
}

struct Named {
  std::string name;
  std::unique_ptr<ConstraintSolver> solver;
};

std::vector<Named> all_solvers(Backend& backend, double tolerance, bool box) {
  std::vector<Named> s;
  PgsOptions pgs;
  pgs.stop = {tolerance, 20000};
  s.push_back({"pgs", std::make_unique<PgsSolver>(pgs)});
  if (box) return s;
  NewtonOptions fb;
  fb.stop = {tolerance, 200};
  s.push_back({"newton-fb", std::make_unique<NewtonSolver>(backend, fb)});
  NewtonOptions mm = fb;
  mm.function = NcpFunction::kMinMap;
  s.push_back({"newton-minmap", std::make_unique<NewtonSolver>(backend, mm)});
  NewtonOptions mf = mm;  // the matrix-free linear solve reaches the same solutions
  mf.linear = NewtonLinearSolver::kBiCgStab;
  s.push_back({"newton-minmap-bicgstab", std::make_unique<NewtonSolver>(backend, mf)});
  return s;
}

class ParticleOnPlane : public ::testing::Test {
 protected:
  std::unique_ptr<Backend> backend = make_backend("serial");
};

TEST_F(ParticleOnPlane, SticksBelowTheFrictionBound) {
  // Approaching at 2 m/s with 0.5 m/s sideways, mu = 0.5: m |vt| = 1 <= mu m |vz| = 2, so the
  // contact sticks: r = (m |vz|, -m vx, -m vy), u = 0.
  const double m = 2.0;
  for (BlockKind kind : {BlockKind::kContact, BlockKind::kContactBoxFriction}) {
    const DelassusProblem p = particle_on_plane(m, 0.5, 0.0, -2.0, 0.5, kind);
    for (auto& [name, solver] : all_solvers(*backend, 1e-12, kind == BlockKind::kContactBoxFriction)) {
      Eigen::VectorXd r;
      const SolverReport rep = solver->solve(p, r);
      ASSERT_TRUE(rep.converged()) << name << ": " << rep.message;
      EXPECT_NEAR(r[0], m * 2.0, 1e-10) << name;
      EXPECT_NEAR(r[1], -m * 0.5, 1e-10) << name;
      EXPECT_NEAR(r[2], 0.0, 1e-10) << name;
      ASSERT_EQ(rep.states.size(), 1u);
      EXPECT_EQ(rep.states[0], RowState::kStick) << name;
    }
  }
}

TEST_F(ParticleOnPlane, SlipsOnTheConeBoundaryAbove) {
  // Sideways 3 m/s along (0.6, 0.8), mu = 0.25, vz = -2: m |vt| = 6 > mu m |vz| = 1, so it slips:
  // r_n = m |vz| = 2 (u_n = 0), r_T = -mu r_n (0.6, 0.8), u_T = v_T + r_T / m.
  const double m = 1.0, mu = 0.25;
  const DelassusProblem p = particle_on_plane(m, 1.8, 2.4, -2.0, mu, BlockKind::kContact);
  for (auto& [name, solver] : all_solvers(*backend, 1e-12, false)) {
    Eigen::VectorXd r;
    const SolverReport rep = solver->solve(p, r);
    ASSERT_TRUE(rep.converged()) << name << ": " << rep.message;
    EXPECT_NEAR(r[0], 2.0, 1e-10) << name;
    EXPECT_NEAR(r[1], -mu * 2.0 * 0.6, 1e-10) << name;
    EXPECT_NEAR(r[2], -mu * 2.0 * 0.8, 1e-10) << name;
    EXPECT_EQ(rep.states[0], RowState::kSlip) << name;
  }
  // Box friction bounds each tangent separately: r_t = -mu r_n sign(v_t) per axis.
  const DelassusProblem box = particle_on_plane(m, 1.8, 2.4, -2.0, mu, BlockKind::kContactBoxFriction);
  Eigen::VectorXd r;
  ASSERT_TRUE(PgsSolver().solve(box, r).converged());
  EXPECT_NEAR(r[1], -mu * 2.0, 1e-10);
  EXPECT_NEAR(r[2], -mu * 2.0, 1e-10);
}

TEST_F(ParticleOnPlane, SeparatingGivesNoImpulse) {
  const DelassusProblem p = particle_on_plane(1.0, 1.0, 0.0, 0.5, 0.5, BlockKind::kContact);
  for (auto& [name, solver] : all_solvers(*backend, 1e-12, false)) {
    Eigen::VectorXd r = Eigen::Vector3d(1.0, 0.2, 0.0);  // a wrong warm start to undo
    const SolverReport rep = solver->solve(p, r);
    ASSERT_TRUE(rep.converged()) << name << ": " << rep.message;
    EXPECT_NEAR(r.norm(), 0.0, 1e-10) << name;
    EXPECT_EQ(rep.states[0], RowState::kOpen) << name;
  }
}

// Signorini-Coulomb at r within tol (absolute, on the scale of ||q||): r in K, u_hat in K*,
// r . u_hat = 0 per contact; unilateral 0 <= u _|_ r >= 0; bilateral u = 0.
void expect_signorini_coulomb(const DelassusProblem& p, const Eigen::VectorXd& r, double tol, const std::string& who) {
  const Eigen::VectorXd u = to_eigen(p.W) * r + p.q;
  const double scale = p.q.norm() * (1.0 + r.norm());
  Index i = 0;
  for (const ConstraintBlock& b : p.blocks) {
    if (b.kind == BlockKind::kBilateral) {
      EXPECT_NEAR(u[i], 0.0, tol * scale) << who;
    } else if (b.kind == BlockKind::kUnilateral) {
      EXPECT_GE(r[i], -tol * scale) << who;
      EXPECT_GE(u[i], -tol * scale) << who;
      EXPECT_NEAR(r[i] * u[i], 0.0, tol * scale) << who;
    } else {
      const double rt = std::hypot(r[i + 1], r[i + 2]), ut = std::hypot(u[i + 1], u[i + 2]);
      const double un_hat = u[i] + b.mu * ut;
      EXPECT_LE(rt, b.mu * r[i] + tol * scale) << who << " r in K";
      EXPECT_GE(un_hat, -tol * scale) << who << " u_hat in K*";  // K* = {mu ||x_T|| <= x_n}: un >= 0 here
      EXPECT_NEAR(r[i] * un_hat + r[i + 1] * u[i + 1] + r[i + 2] * u[i + 2], 0.0, tol * scale) << who << " r.u_hat";
    }
    i += block_size(b.kind);
  }
}

TEST(RandomProblems, AllSolversAgreeAndSatisfySignoriniCoulomb) {
  auto serial = make_backend("serial");
  const double tol = 1e-10;
  int counts[4] = {0, 0, 0, 0};  // open, closed, stick, slip over all seeds (PGS's answer)
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const int nc = 4;
    const GlobalProblem g = testing::random_global(seed, testing::mixed_blocks(seed, nc), 3 * nc + 10);
    EigenLdltSolver mass;
    const DelassusProblem p = to_delassus(g, mass);
    std::vector<Eigen::VectorXd> answers;
    for (auto& [name, solver] : all_solvers(*serial, tol, false)) {
      Eigen::VectorXd r;
      const SolverReport rep = solver->solve(p, r);
      std::cout << "[figures] seed " << seed << " " << name << ": " << to_string(rep.status) << ", " << rep.iterations
                << " iterations (" << rep.inner_iterations << " inner), error " << rep.error << "\n";
      ASSERT_TRUE(rep.converged()) << name << " seed " << seed << ": " << rep.message;
      EXPECT_LE(rep.error, tol);
      EXPECT_NEAR(natural_map_error(p, r).relative, rep.error, 1e-14) << name;
      if (name == "pgs")  // PGS evaluates its error on a schedule (PgsOptions::scheduled_checks)
        ASSERT_LE(static_cast<int>(rep.error_history.size()), rep.iterations);
      else
        ASSERT_EQ(static_cast<int>(rep.error_history.size()), rep.iterations);
      expect_signorini_coulomb(p, r, 1e-8, name + " seed " + std::to_string(seed));
      answers.push_back(r);
      if (answers.size() == 1)
        for (RowState st : rep.states) ++counts[static_cast<int>(st)];
    }
    for (std::size_t k = 1; k < answers.size(); ++k)
      EXPECT_LT((answers[k] - answers[0]).norm(), 1e-7 * (1.0 + answers[0].norm()))
          << "seed " << seed << " solver " << k;
    // Not a trivial problem: some contact must be active.
    EXPECT_GT(answers[0].head(3 * nc).norm(), 1e-3) << "seed " << seed;
  }
  std::cout << "[figures] branches over all seeds: open " << counts[0] << ", closed " << counts[1] << ", stick "
            << counts[2] << ", slip " << counts[3] << "\n";
  // The random set exercises every contact branch.
  EXPECT_GT(counts[0], 0);
  EXPECT_GT(counts[2], 0);
  EXPECT_GT(counts[3], 0);
}

TEST(RandomProblems, NewtonGivesTheSameAnswerOnEveryBackend) {
  const GlobalProblem g = testing::random_global(11, testing::mixed_blocks(11, 5), 25);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  auto serial = make_backend("serial");
  // The matrix-free path is the one that runs on the backend (the LU path is host-only).
  NewtonOptions options;
  options.linear = NewtonLinearSolver::kBiCgStab;
  NewtonSolver reference(*serial, options);
  Eigen::VectorXd r_ref;
  const SolverReport rep_ref = reference.solve(p, r_ref);
  ASSERT_TRUE(rep_ref.converged()) << rep_ref.message;
  int compared = 0;
  for (const std::string& name : builtin_backends().names()) {
    std::unique_ptr<Backend> backend;
    try {
      backend = make_backend(name);
    } catch (const Error&) {
      continue;  // not built or no device here: the registry says which
    }
    NewtonSolver solver(*backend, options);
    Eigen::VectorXd r;
    const SolverReport rep = solver.solve(p, r);
    ASSERT_TRUE(rep.converged()) << name << ": " << rep.message;
    EXPECT_LT((r - r_ref).norm(), 1e-9 * (1.0 + r_ref.norm())) << name;
    ++compared;
  }
  EXPECT_GE(compared, 2) << "serial and at least one other backend (tbb) should be available";
}

TEST(Failures, IterationLimitIsReportedNotHidden) {
  const GlobalProblem g = testing::random_global(5, testing::mixed_blocks(5, 4), 22);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  auto serial = make_backend("serial");
  PgsOptions pgs;
  pgs.stop = {1e-12, 1};
  NewtonOptions nn;
  nn.stop = {1e-12, 1};
  PgsSolver a(pgs);
  NewtonSolver b(*serial, nn);
  for (ConstraintSolver* s : {static_cast<ConstraintSolver*>(&a), static_cast<ConstraintSolver*>(&b)}) {
    Eigen::VectorXd r;
    const SolverReport rep = s->solve(p, r);
    EXPECT_EQ(rep.status, SolverStatus::kNotConverged) << s->name();
    EXPECT_EQ(rep.iterations, 1) << s->name();
    EXPECT_GT(rep.error, 1e-12) << s->name();
    // The tolerance as given, not std::to_string's "0.000000".
    EXPECT_NE(rep.message.find("tolerance 1e-12"), std::string::npos) << rep.message;
    EXPECT_EQ(rep.message.find("0.000000"), std::string::npos) << rep.message;
  }
}

TEST(Failures, BadInputAndUnsupportedKindsAreClearErrors) {
  auto serial = make_backend("serial");
  DelassusProblem p = particle_on_plane(1.0, 1.0, 0.0, -1.0, 0.3, BlockKind::kContact);
  PgsSolver pgs;
  NewtonSolver newton(*serial);
  KktSolver kkt;
  Eigen::VectorXd r = Eigen::Vector2d(0.0, 0.0);
  EXPECT_THROW(pgs.solve(p, r), Error);  // warm start of the wrong size
  r = Eigen::Vector3d(0.0, std::numeric_limits<double>::quiet_NaN(), 0.0);
  EXPECT_THROW(newton.solve(p, r), Error);
  r.resize(0);
  try {
    kkt.solve(p, r);
    ADD_FAILURE() << "the KKT solver accepted a contact";
  } catch (const Error& e) {
    EXPECT_NE(std::string(e.what()).find("bilateral-only"), std::string::npos) << e.what();
  }
  DelassusProblem box = particle_on_plane(1.0, 1.0, 0.0, -1.0, 0.3, BlockKind::kContactBoxFriction);
  EXPECT_THROW(newton.solve(box, r), Error);
  p.blocks[0].mu = -1.0;
  EXPECT_THROW(pgs.solve(p, r), Error);
  EXPECT_THROW(PgsSolver(PgsOptions{{}, 2.0}), Error);
}

TEST(Kkt, BilateralOnlyMatchesDenseKkt) {
  std::vector<ConstraintBlock> blocks(6, ConstraintBlock{BlockKind::kBilateral, 0.0});
  const GlobalProblem g = testing::random_global(21, blocks, 15);
  KktSolver kkt;
  SolverReport rep;
  const GlobalSolution s = kkt.solve_global(g, &rep);
  ASSERT_TRUE(rep.converged()) << rep.message;
  // CHOLMOD on M gives the same answer as the default Eigen LDL^T.
  KktSolver cholmod(std::make_unique<CholmodSolver>());
  const GlobalSolution c = cholmod.solve_global(g);
  EXPECT_LT((c.r - s.r).norm(), 1e-12 * (1.0 + s.r.norm()));
  // Dense [M -H; H^T 0] [v; r] = [f; -w] (FCLIB: M v = H r + f, u = H^T v + w = 0).
  const Eigen::MatrixXd M = Eigen::MatrixXd(to_eigen(g.M)), H = Eigen::MatrixXd(to_eigen(g.H));
  const Index n = g.velocities(), m = g.rows();
  Eigen::MatrixXd K = Eigen::MatrixXd::Zero(n + m, n + m);
  K.topLeftCorner(n, n) = M;
  K.topRightCorner(n, m) = -H;
  K.bottomLeftCorner(m, n) = H.transpose();
  Eigen::VectorXd rhs(n + m);
  rhs << g.f, -g.w;
  const Eigen::VectorXd x = K.fullPivLu().solve(rhs);
  EXPECT_LT((s.v - x.head(n)).norm(), 1e-10 * (1.0 + x.norm()));
  EXPECT_LT((s.r - x.tail(m)).norm(), 1e-10 * (1.0 + x.norm()));
  EXPECT_LT(rep.error, 1e-12);
  // The iterative solvers agree with it.
  auto serial = make_backend("serial");
  const DelassusProblem local = [&] {
    EigenLdltSolver mass;
    return to_delassus(g, mass);
  }();
  for (auto& [name, solver] : all_solvers(*serial, 1e-12, false)) {
    Eigen::VectorXd r;
    ASSERT_TRUE(solver->solve(local, r).converged()) << name;
    EXPECT_LT((r - s.r).norm(), 1e-8 * (1.0 + s.r.norm())) << name;
  }
}

}  // namespace
}  // namespace sinew::constraints::constraints_solvers_test
