// Export of one constrained step as an FCLIB global problem (issue 6), so that sinew's scenes
// feed the Siconos fc3d benchmarks: the box stack's step problem is written with its solution,
// read back, and must be the same problem (bit for bit) whose stored solution has the step's
// natural-map error.
#include <gtest/gtest.h>

#include <cstdio>
#include <string>

#include "contact_scenes.hpp"
#include "sinew/constraints/fclib_file.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"
#include "sinew/integrators/contact_step_fclib.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"

namespace sinew::physics_contact_fclib_test {
namespace {

void expect_same(const CsrMatrix& a, const CsrMatrix& b, const char* what) {
  SCOPED_TRACE(what);
  EXPECT_EQ(a.rows, b.rows);
  EXPECT_EQ(a.cols, b.cols);
  EXPECT_EQ(a.row_ptr, b.row_ptr);
  EXPECT_EQ(a.col_idx, b.col_idx);
  EXPECT_EQ(a.values, b.values);
}

TEST(ContactFclib, BoxStackStepRoundTrip) {
  if (!constraints::fclib_supported()) GTEST_SKIP() << "built without FCLIB/HDF5";
  auto backend = make_backend("serial");
  contact_test::ContactScene s = contact_test::stack_scene();
  integrators::ContactStep stepper(contact_test::make_contact_solver("newton_minmap", *backend, 1e-10));
  integrators::ContactStepReport report;
  for (int k = 0; k < 5; ++k) {
    report = stepper.step(*s.system, {s.contact.get()}, s.state, 1e-3);
    ASSERT_TRUE(report.ok()) << report.message;
  }
  const constraints::GlobalProblem& g = stepper.last_problem();
  ASSERT_EQ(report.contacts, 40);  // 4 on the floor, 4 between each pair of boxes

  const std::string path = testing::TempDir() + "sinew_box_stack_step.hdf5";
  integrators::write_step_fclib(path, g, {"box stack", "sinew: 10 boxes, step 5, h = 1 ms, mu = 0.5", ""},
                                stepper.last_velocities(), stepper.last_impulses());
  const constraints::FclibGlobalProblem back = constraints::read_fclib_global(path);
  expect_same(back.M, g.M, "M");
  expect_same(back.H, g.H, "H");
  EXPECT_EQ(back.f, g.f);
  EXPECT_EQ(back.w, g.w);
  ASSERT_EQ(back.contacts(), 40);
  for (int c = 0; c < back.contacts(); ++c) EXPECT_EQ(back.mu[c], 0.5);
  EXPECT_FALSE(back.has_equalities());
  EXPECT_EQ(back.info.title, "box stack");

  const auto solution = constraints::read_fclib_solution(path);
  ASSERT_TRUE(solution.has_value());
  EXPECT_EQ(solution->r, stepper.last_impulses());
  EXPECT_EQ(solution->v, stepper.last_velocities());

  // The problem read back, reduced to the local form, is solved by the stored r to the step's error.
  constraints::GlobalProblem again;
  again.M = back.M;
  again.H = back.H;
  again.f = back.f;
  again.w = back.w;
  for (int c = 0; c < back.contacts(); ++c) again.blocks.push_back({constraints::BlockKind::kContact, back.mu[c]});
  EigenLdltSolver mass_solver;
  const constraints::DelassusProblem local = constraints::to_delassus(again, mass_solver);
  const double error = constraints::natural_map_error(local, solution->r).relative;
  std::printf(
      "box stack step 5 as FCLIB global: n = %ld, m = %ld, natural-map error of the stored r %.3e (step "
      "reported %.3e)\n",
      static_cast<long>(again.velocities()), static_cast<long>(again.rows()), error, report.natural_map_error);
  EXPECT_NEAR(error, report.natural_map_error, 1e-12);
  EXPECT_LT(error, 1e-10);
  std::remove(path.c_str());
}

TEST(ContactFclib, RejectsWhatFclibCannotHold) {
  constraints::GlobalProblem g;
  g.M = from_eigen(EigenCsr(Eigen::MatrixXd::Identity(3, 3).sparseView()));
  g.H = from_eigen(EigenCsr(Eigen::MatrixXd::Identity(3, 3).sparseView()));
  g.f = Eigen::VectorXd::Zero(3);
  g.w = Eigen::VectorXd::Zero(3);
  g.blocks = {{constraints::BlockKind::kContactBoxFriction, 0.3}};
  EXPECT_THROW(integrators::to_fclib_global(g), Error);
  g.blocks = {{constraints::BlockKind::kContact, 0.3}};
  EXPECT_NO_THROW(integrators::to_fclib_global(g));
  g.compliance = Eigen::VectorXd::Constant(3, 1e-6);
  EXPECT_THROW(integrators::to_fclib_global(g), Error);
}

}  // namespace
}  // namespace sinew::physics_contact_fclib_test
