// Real frictional contact problems (Siconos' test data: FCLIB files and Siconos .dat files written
// by Siconos and LMGC90, tests/constraints/data/fclib-siconos): every 3-D problem is read in
// its own format and solved to a natural-map error of 1e-8 by the Newton solvers and PGS; the
// 2-D one is refused by name. Non-symmetric W (as these files hold) are solved as they are,
// and the conjugate-residual Newton refuses them, saying what to use instead.
#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "quick_tests.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/contact_problem_file.hpp"
#include "sinew/constraints/indicator_newton_solver.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/siconos_dat_file.hpp"
#include "sinew/constraints/solver_by_name.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_real_problems_test {
namespace {

const std::string kData = std::string(SINEW_CONSTRAINTS_DATA) + "/fclib-siconos/";

struct RealProblem {
  const char* file;
  const char* form;  // "local" or "global"
  int contacts;
  bool symmetric;  // W symmetric to round-off (1e-10)
};

// The development set: what each file holds, from Siconos' test data README and the files' headers.
const std::vector<RealProblem> kProblems = {
    {"Capsules-i125-1213.hdf5", "local", 286, false},
    {"LMGC_100_PR_PerioBox-i00361-60-03000.hdf5", "local", 60, true},
    {"Box_Stacks-i0122-82-5.hdf5", "global", 82, true},
    {"LMGC_GlobalFrictionContactProblem00046.hdf5", "global", 9, true},
    {"Capsules-i100-889.dat", "local", 276, false},
    {"Confeti-ex13-4contact-Fc3D-SBM.dat", "local", 4, true},
    {"FC3D_Example1.dat", "local", 3, true},
    {"GFC3D_TwoRods1.dat", "global", 3, true},
    {"OneObject-i1028-138.hdf5.dat", "local", 23, false},
    {"Rover4144.dat", "local", 4, false},
};

// The local problem of a file (global ones through the sparse H^T M^-1 H).
DelassusProblem local_of(const ContactProblemFile& file) {
  if (file.local) return to_delassus_problem(*file.local);
  EigenLdltSolver mass;
  return to_delassus(to_global_problem(*file.global), mass);
}

std::unique_ptr<ConstraintSolver> make(const std::string& name, Backend& backend) {
  return make_constraint_solver(name, backend, 1e-8);
}

TEST(RealProblems, EveryThreeDimensionalProblemIsReadAndSolvedToTheTolerance) {
  auto backend = make_backend("serial");
  for (const RealProblem& rp : kProblems) {
    SCOPED_TRACE(rp.file);
    const ContactProblemFile file = read_contact_problem_file(kData + rp.file);
    EXPECT_EQ(file.format,
              std::string(rp.file).find(".hdf5") == std::string(rp.file).size() - 5 ? "fclib" : "siconos-dat");
    ASSERT_EQ(file.global.has_value(), std::string(rp.form) == "global");
    const DelassusProblem p = local_of(file);
    ASSERT_EQ(p.blocks.size(), static_cast<std::size_t>(rp.contacts));
    EXPECT_EQ(asymmetry(p.W).relative <= 1e-10, rp.symmetric) << asymmetry(p.W).relative;
    for (const std::string solver : {"newton-fb", "newton-minmap", "pgs"}) {
      SCOPED_TRACE(solver);
      // Under the sanitizers the big problems are only read: the Release stage solves them all.
      if (test::quick_tests() && rp.contacts > 100) continue;
      Eigen::VectorXd r;
      const SolverReport report = make(solver, *backend)->solve(p, r);
      EXPECT_TRUE(report.converged()) << report.message;
      // The error recomputed from the answer, independently of the solver's own bookkeeping.
      EXPECT_LE(natural_map_error(p, r).relative, 1e-8);
    }
  }
}

TEST(RealProblems, GlobalSolutionsSatisfyTheGlobalEquations) {
  for (const char* name : {"Box_Stacks-i0122-82-5.hdf5", "GFC3D_TwoRods1.dat"}) {
    SCOPED_TRACE(name);
    const ContactProblemFile file = read_contact_problem_file(kData + name);
    ASSERT_TRUE(file.global);
    const GlobalProblem g = to_global_problem(*file.global);
    EigenLdltSolver mass;
    const DelassusProblem p = to_delassus(g, mass);
    auto backend = make_backend("serial");
    Eigen::VectorXd r;
    ASSERT_TRUE(make("newton-minmap", *backend)->solve(p, r).converged());
    const Eigen::VectorXd v = global_velocity(g, mass, r);
    // M v = H r + f and u = H^T v + w equal the local form's W r + q.
    const Eigen::VectorXd residual = to_eigen(g.M) * v - to_eigen(g.H) * r - g.f;
    EXPECT_LE(residual.norm(), 1e-10 * (g.f.norm() + (to_eigen(g.H) * r).norm()));
    const Eigen::VectorXd u_global = to_eigen(g.H).transpose() * v + g.w;
    const Eigen::VectorXd u_local = to_eigen(p.W) * r + p.q;
    EXPECT_LE((u_global - u_local).norm(), 1e-9 * (1.0 + u_local.norm()));
  }
}

TEST(RealProblems, TheSparseLocalFormEqualsTheDenseProduct) {
  // Box stacks: 450 velocities of separate bodies, so W = H^T M^-1 H is mostly exact zeros.
  const ContactProblemFile file = read_contact_problem_file(kData + "Box_Stacks-i0122-82-5.hdf5");
  const GlobalProblem g = to_global_problem(*file.global);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  const Eigen::MatrixXd H = Eigen::MatrixXd(to_eigen(g.H));
  const Eigen::MatrixXd dense = H.transpose() * Eigen::MatrixXd(to_eigen(g.M)).ldlt().solve(H);
  const Eigen::MatrixXd W = Eigen::MatrixXd(to_eigen(p.W));
  EXPECT_LE((W - dense).cwiseAbs().maxCoeff(), 1e-12 * dense.cwiseAbs().maxCoeff());
  EXPECT_LT(p.W.nnz(), p.rows() * p.rows() / 20) << "W kept the zeros between unrelated bodies";
  const Eigen::VectorXd q = g.w + H.transpose() * Eigen::MatrixXd(to_eigen(g.M)).ldlt().solve(g.f);
  EXPECT_LE((p.q - q).norm(), 1e-12 * q.norm());
}

TEST(RealProblems, TheUpperTriangleOfAnLmgcMassMatrixIsMirrored) {
  const ContactProblemFile file = read_contact_problem_file(kData + "LMGC_GlobalFrictionContactProblem00046.hdf5");
  ASSERT_TRUE(file.global);
  const CsrMatrix& M = file.global->M;
  Index lower = 0;
  for (Index r = 0; r < M.rows; ++r)
    for (Index k = M.row_ptr[r]; k < M.row_ptr[r + 1]; ++k) lower += M.col_idx[k] < r;
  EXPECT_GT(lower, 1000);  // the file stores 3006 entries above the diagonal and none below
  EXPECT_EQ(asymmetry(M).relative, 0.0);
}

TEST(RealProblems, TheTwoDimensionalProblemIsRefusedByName) {
  EXPECT_SINEW_ERROR(read_contact_problem_file(kData + "FrictionContactProblem00071.dat"),
                     "FrictionContactProblem00071.dat", "line 2", "dimension is 2", "3-D");
}

// The CR Newton on every symmetric problem of the set: its indicators stall on two (LMGC90's 60
// contacts, Confeti's 4), and exact Newton steps from where it stalled finish the solve; without
// that hand-over (stall_steps = 0) the seed's iteration alone stays far above the tolerance there.
TEST(RealProblems, ConjugateResidualNewtonConvergesOnEverySymmetricProblem) {
  auto backend = make_backend("serial");
  int stalled = 0;
  for (const RealProblem& rp : kProblems) {
    if (!rp.symmetric) continue;
    SCOPED_TRACE(rp.file);
    const DelassusProblem p = local_of(read_contact_problem_file(kData + rp.file));
    for (const NcpFunction fn : {NcpFunction::kFischerBurmeister, NcpFunction::kMinMap}) {
      if (test::quick_tests() && fn == NcpFunction::kMinMap) continue;  // the sanitizers need one pass
      IndicatorNewtonOptions o;
      o.function = fn;
      Eigen::VectorXd r;
      const SolverReport report = IndicatorNewtonSolver(*backend, o).solve(p, r);
      EXPECT_TRUE(report.converged()) << report.message;
      EXPECT_LE(natural_map_error(p, r).relative, 1e-8);
      if (report.message.find("stalled") == std::string::npos) continue;
      ++stalled;
      if (test::quick_tests()) continue;
      o.stall_steps = 0;
      o.stop.max_iterations = 300;
      r.resize(0);
      const SolverReport alone = IndicatorNewtonSolver(*backend, o).solve(p, r);
      EXPECT_FALSE(alone.converged());
      EXPECT_GT(alone.error, 1e-5);
    }
  }
  EXPECT_EQ(stalled, test::quick_tests() ? 2 : 4);  // two problems, two NCP functions
}

TEST(RealProblems, ConjugateResidualNewtonRefusesANonSymmetricW) {
  auto backend = make_backend("serial");
  const DelassusProblem p = local_of(read_contact_problem_file(kData + "Rover4144.dat"));
  IndicatorNewtonSolver cr(*backend);
  Eigen::VectorXd r;
  EXPECT_SINEW_ERROR(cr.solve(p, r), "newton-cr-fb", "needs a symmetric W", "at (", "NewtonSolver", "PgsSolver");
}

// A generated non-symmetric problem: W = H M^-1 H^T with every off-diagonal entry perturbed by a
// relative 1e-3 (the size of the real files' asymmetry). Newton's exact generalized Jacobian
// and PGS's block sweeps need no symmetry; both solve it, and their answers agree.
TEST(NonSymmetricW, NewtonAndPgsSolveAPerturbedDelassusOperator) {
  std::vector<ConstraintBlock> blocks(12, ConstraintBlock{BlockKind::kContact, 0.4});
  GlobalProblem g = testing::random_global(77, blocks, 40);
  EigenLdltSolver mass;
  DelassusProblem p = to_delassus(g, mass);
  std::mt19937 gen(5);
  std::uniform_real_distribution<double> uni(-1.0, 1.0);
  for (Index i = 0; i < p.W.rows; ++i)
    for (Index k = p.W.row_ptr[i]; k < p.W.row_ptr[i + 1]; ++k)
      if (p.W.col_idx[k] != i) p.W.values[k] *= 1.0 + 1e-3 * uni(gen);
  const Asymmetry a = asymmetry(p.W);
  EXPECT_GT(a.relative, 1e-4);
  EXPECT_GE(a.row, 0);
  auto backend = make_backend("serial");
  std::vector<Eigen::VectorXd> answers;
  for (const std::string solver : {"newton-fb", "newton-minmap", "pgs"}) {
    SCOPED_TRACE(solver);
    Eigen::VectorXd r;
    const SolverReport report = make(solver, *backend)->solve(p, r);
    EXPECT_TRUE(report.converged()) << report.message;
    EXPECT_LE(natural_map_error(p, r).relative, 1e-8);
    answers.push_back(r);
  }
  EXPECT_LE((answers[0] - answers[1]).norm(), 1e-6 * answers[0].norm());
  // The symmetrized operator's answer does not solve the problem given: asymmetry matters.
  DelassusProblem symmetrized = p;
  symmetrized.W = from_eigen(EigenCsr(0.5 * (to_eigen(p.W) + EigenCsr(to_eigen(p.W).transpose()))));
  Eigen::VectorXd rs;
  ASSERT_TRUE(make("newton-minmap", *backend)->solve(symmetrized, rs).converged());
  EXPECT_GT(natural_map_error(p, rs).relative, 1e-7);
}

TEST(Asymmetry, FindsTheLargestDifferenceAndEntriesWithoutAMirror) {
  Eigen::MatrixXd A(3, 3);
  A << 4, 1, 0, 1.001, 5, 2, 0, 2, 6;
  Asymmetry a = asymmetry(testing::dense_to_csr(A));
  EXPECT_NEAR(a.relative, 0.001 / 6.0, 1e-15);
  EXPECT_EQ(a.row, 0);
  EXPECT_EQ(a.col, 1);
  // An entry below the diagonal whose mirror is not stored at all.
  EigenCsr B(3, 3);
  B.insert(0, 0) = 2.0;
  B.insert(2, 0) = 0.5;
  B.insert(1, 1) = 2.0;
  B.insert(2, 2) = 2.0;
  a = asymmetry(from_eigen(B));
  EXPECT_DOUBLE_EQ(a.relative, 0.25);
  EXPECT_EQ(a.row, 2);
  EXPECT_EQ(a.col, 0);
  EXPECT_EQ(asymmetry(testing::dense_to_csr(Eigen::Matrix3d::Identity())).relative, 0.0);
}

TEST(Asymmetry, ExpandingOneStoredTriangleGivesTheSymmetricMatrix) {
  Eigen::MatrixXd S(3, 3);
  S << 4, 1, 2, 1, 5, 3, 2, 3, 6;
  for (const bool upper : {true, false}) {
    Eigen::MatrixXd T = S;
    if (upper)
      T.triangularView<Eigen::StrictlyLower>().setZero();
    else
      T.triangularView<Eigen::StrictlyUpper>().setZero();
    CsrMatrix A = from_eigen(EigenCsr(T.sparseView()));
    EXPECT_TRUE(expand_symmetric_triangle(A));
    EXPECT_EQ(Eigen::MatrixXd(to_eigen(A)), S);
  }
  CsrMatrix full = from_eigen(EigenCsr(S.sparseView()));
  EXPECT_FALSE(expand_symmetric_triangle(full));  // both triangles stored: left as it is
  CsrMatrix diagonal = from_eigen(EigenCsr(Eigen::MatrixXd(Eigen::Matrix3d::Identity()).sparseView()));
  EXPECT_FALSE(expand_symmetric_triangle(diagonal));
}

}  // namespace
}  // namespace sinew::constraints::constraints_real_problems_test
