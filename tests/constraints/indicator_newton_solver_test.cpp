// The seed's non-smooth Newton with diagonal indicators and conjugate residual
// (indicator_newton_solver.hpp): closed-form single contacts, agreement with NewtonSolver and PGS on
// the random problems, the stick/slip threshold of a rigid block on a 10 degree incline, bitwise
// equality across host backends, and clear failures.
#include "sinew/constraints/indicator_newton_solver.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <iostream>

#include "expect_error.hpp"
#include "host_backends.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/constraints/newton_solver.hpp"
#include "sinew/constraints/pgs_solver.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_indicator_newton_solver_test {
namespace {

using testing::dense_to_csr;

// A particle of mass m on the plane z = 0 with free velocity (vx, vy, vz): rows (z, x, y),
// W = I / m, q = (vz, vx, vy).
DelassusProblem particle(double m, double vx, double vy, double vz, double mu) {
  DelassusProblem p;
  p.W = dense_to_csr(Eigen::Matrix3d::Identity() / m);
  p.q = Eigen::Vector3d(vz, vx, vy);
  p.blocks = {{BlockKind::kContact, mu}};
  return p;
}

DelassusProblem random_problem(unsigned seed, int contacts) {
  const GlobalProblem g = testing::random_global(seed, testing::mixed_blocks(seed, contacts), 3 * contacts + 10);
  EigenLdltSolver mass;
  return to_delassus(g, mass);
}

IndicatorNewtonOptions indicator_options(NcpFunction fn, double tolerance = 1e-8) {
  IndicatorNewtonOptions o;
  o.function = fn;
  o.stop.tolerance = tolerance;
  return o;
}

TEST(IndicatorNewton, SingleContactStickSlipAndSeparation) {
  auto serial = make_backend("serial");
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    IndicatorNewtonSolver solver(*serial, indicator_options(fn, 1e-12));
    // Stick: m = 2, mu = 0.5, v_free = (0.5, 0, -2): r = m (2, -0.5, 0) with ||r_T|| = 1 < mu r_n = 2.
    Eigen::VectorXd r;
    SolverReport rep = solver.solve(particle(2.0, 0.5, 0.0, -2.0, 0.5), r);
    ASSERT_TRUE(rep.converged()) << rep.message;
    EXPECT_NEAR(r[0], 4.0, 1e-10);
    EXPECT_NEAR(r[1], -1.0, 1e-10);
    EXPECT_NEAR(r[2], 0.0, 1e-10);
    EXPECT_EQ(rep.states[0], RowState::kStick);
    // Slip: m = 1, mu = 0.25, v_free = (1.8, 2.4, -2): r_n = 2, r_T = -0.5 (0.6, 0.8).
    r.resize(0);
    rep = solver.solve(particle(1.0, 1.8, 2.4, -2.0, 0.25), r);
    ASSERT_TRUE(rep.converged()) << rep.message;
    EXPECT_NEAR(r[0], 2.0, 1e-10);
    EXPECT_NEAR(r[1], -0.3, 1e-10);
    EXPECT_NEAR(r[2], -0.4, 1e-10);
    EXPECT_EQ(rep.states[0], RowState::kSlip);
    // Separating: r = 0.
    r.resize(0);
    rep = solver.solve(particle(1.0, 1.0, 0.0, 0.5, 0.5), r);
    ASSERT_TRUE(rep.converged()) << rep.message;
    EXPECT_NEAR(r.norm(), 0.0, 1e-12);
    EXPECT_EQ(rep.states[0], RowState::kOpen);
  }
}

// The random problems of solvers_test (4-9 contacts, a unilateral and a bilateral row): the
// seed's iteration reaches the same solution as exact Newton and PGS, and reports like them.
TEST(IndicatorNewton, AgreesWithNewtonAndPgsOnRandomProblems) {
  auto serial = make_backend("serial");
  const double tol = 1e-10;
  for (unsigned seed = 1; seed <= 6; ++seed) {
    const DelassusProblem p = random_problem(seed, 3 + static_cast<int>(seed));
    NewtonOptions no;
    no.stop = {tol, 200};
    NewtonSolver newton(*serial, no);
    Eigen::VectorXd r_newton;
    const SolverReport rep_newton = newton.solve(p, r_newton);
    ASSERT_TRUE(rep_newton.converged()) << rep_newton.message;
    PgsOptions po;
    po.stop = {tol, 100000};
    PgsSolver pgs(po);
    Eigen::VectorXd r_pgs;
    ASSERT_TRUE(pgs.solve(p, r_pgs).converged());
    // The default (damped, proximal) iteration and the seed's own undamped one: W has full
    // rank here, so the plain fixed-point iteration converges too.
    for (bool undamped : {false, true})
      for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
        IndicatorNewtonOptions o = indicator_options(fn, tol);
        if (undamped) {
          o.globalization.line_search_steps = 0;
          o.globalization.proximal = 0.0;
        }
        IndicatorNewtonSolver solver(*serial, o);
        Eigen::VectorXd r;
        const SolverReport rep = solver.solve(p, r);
        std::cout << "[figures] seed " << seed << " " << solver.name() << (undamped ? " undamped" : "") << ": "
                  << rep.iterations << " steps, " << rep.inner_iterations << " CR iterations, error " << rep.error
                  << "; newton-fb " << rep_newton.iterations << " steps, error " << rep_newton.error << "\n";
        ASSERT_TRUE(rep.converged()) << solver.name() << " seed " << seed << ": " << rep.message;
        EXPECT_LE(rep.error, tol);
        EXPECT_NEAR(natural_map_error(p, r).relative, rep.error, 1e-14);
        ASSERT_EQ(static_cast<int>(rep.error_history.size()), rep.iterations);
        EXPECT_EQ(rep.inner_iterations > 0, rep.iterations > 0);
        EXPECT_EQ(rep.states.size(), p.blocks.size());
        EXPECT_LT((r - r_newton).norm(), 1e-7 * (1.0 + r_newton.norm())) << solver.name() << " seed " << seed;
        EXPECT_LT((r - r_pgs).norm(), 1e-7 * (1.0 + r_pgs.norm())) << solver.name() << " seed " << seed;
      }
  }
}

// A rigid box (half sizes 0.5, 0.5, 0.25, mass 1) resting on its four bottom corners on a plane
// inclined at 10 degrees, one implicit step of h = 0.01 s from rest under gravity: W = J M^-1 J^T
// (12 rows of rank 6, so the corner impulses are not unique but the box's velocity is). It
// sticks for mu > mu* = tan(10 deg) and slides down at h g (sin - mu cos) below (realtime paper
// Sec. 7.5: the diag(W) preconditioner resolves mu* to 0.001).
struct Incline {
  DelassusProblem problem;
  Eigen::MatrixXd J, Minv;  // (12 x 6) contact Jacobian in the incline frame; (6 x 6) inverse mass
  Eigen::VectorXd v_free;   // (6) linear and angular velocity after the free step
};

Incline incline(double mu) {
  const double theta = 10.0 * 3.14159265358979323846 / 180.0, g = 9.81, h = 0.01, m = 1.0;
  const double a = 0.5, b = 0.25;  // half sizes: along the slope / across, and up
  Incline s;
  s.Minv = Eigen::MatrixXd::Zero(6, 6);
  const double Ixx = m * (4 * a * a + 4 * b * b) / 12.0, Izz = m * (8 * a * a) / 12.0;
  s.Minv.diagonal() << 1 / m, 1 / m, 1 / m, 1 / Ixx, 1 / Ixx, 1 / Izz;
  s.v_free = Eigen::VectorXd::Zero(6);
  s.v_free.head<3>() = h * g * Eigen::Vector3d(-std::sin(theta), 0.0, -std::cos(theta));  // downhill is -x
  s.J.resize(12, 6);
  int c = 0;
  for (double x : {-a, a})
    for (double y : {-a, a}) {
      const Eigen::Vector3d p(x, y, -b);
      const Eigen::Vector3d dirs[3] = {Eigen::Vector3d::UnitZ(), Eigen::Vector3d::UnitX(), Eigen::Vector3d::UnitY()};
      for (int k = 0; k < 3; ++k) {
        s.J.block<1, 3>(3 * c + k, 0) = dirs[k].transpose();
        s.J.block<1, 3>(3 * c + k, 3) = p.cross(dirs[k]).transpose();  // u = v . d + w . (p x d)
      }
      s.problem.blocks.push_back({BlockKind::kContact, mu});
      ++c;
    }
  s.problem.W = dense_to_csr(s.J * s.Minv * s.J.transpose());
  s.problem.q = s.J * s.v_free;
  return s;
}

TEST(IndicatorNewton, StickSlipThresholdOnATenDegreeIncline) {
  auto serial = make_backend("serial");
  const double theta = 10.0 * 3.14159265358979323846 / 180.0, g = 9.81, h = 0.01;
  const double mu_star = std::tan(theta);  // 0.17632698...
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister})
    for (double dmu : {-0.001, 0.001}) {
      const Incline s = incline(mu_star + dmu);
      // 1e-8 (of ||q|| ~ 0.1): r to ~1e-9, far below the 1e-4 m/s that separates the answers.
      IndicatorNewtonSolver solver(*serial, indicator_options(fn, 1e-8));
      Eigen::VectorXd r;
      const SolverReport rep = solver.solve(s.problem, r);
      std::cout << "[figures] incline mu* " << (dmu > 0 ? "+" : "-") << " 0.001 " << solver.name() << ": "
                << rep.iterations << " steps, " << rep.inner_iterations << " CR iterations, error " << rep.error
                << "\n";
      ASSERT_TRUE(rep.converged()) << solver.name() << " dmu " << dmu << ": " << rep.message;
      const Eigen::VectorXd v = s.v_free + s.Minv * s.J.transpose() * r;
      const double slide = dmu < 0 ? -h * g * (std::sin(theta) - (mu_star + dmu) * std::cos(theta)) : 0.0;
      // The two answers differ by h g cos(theta) 0.001 ~ 1e-4 m/s; resolve them to 1% of that.
      EXPECT_NEAR(v[0], slide, 1e-6) << solver.name() << " dmu " << dmu;
      EXPECT_NEAR(v.segment<5>(1).norm(), 0.0, 1e-6) << solver.name() << " dmu " << dmu;
      for (RowState st : rep.states) EXPECT_EQ(st, dmu < 0 ? RowState::kSlip : RowState::kStick) << solver.name();
    }
}

// Bitwise determinism: the same input gives the same bits run after run, and every host backend
// (tbb, kokkos where usable, any thread count) gives the serial backend's bits, because the
// indicator kernel is per-block and the backends' reductions have a fixed order.
TEST(IndicatorNewton, HostBackendsGiveBitwiseIdenticalIterates) {
  const DelassusProblem p = random_problem(9, 8);
  for (NcpFunction fn : {NcpFunction::kMinMap, NcpFunction::kFischerBurmeister}) {
    // Iteration counts, the error history and r, run twice on each backend.
    auto solve = [&](Backend& backend) {
      std::vector<double> out;
      for (int repeat = 0; repeat < 2; ++repeat) {
        IndicatorNewtonSolver solver(backend, indicator_options(fn));
        Eigen::VectorXd r;
        const SolverReport rep = solver.solve(p, r);
        EXPECT_TRUE(rep.converged()) << rep.message;
        out.insert(out.end(), {static_cast<double>(rep.iterations), static_cast<double>(rep.inner_iterations)});
        out.insert(out.end(), rep.error_history.begin(), rep.error_history.end());
        out.insert(out.end(), r.data(), r.data() + r.size());
      }
      return out;
    };
    const std::vector<double> twice = solve(*make_backend("serial"));
    const std::size_t half = twice.size() / 2;
    EXPECT_TRUE(std::equal(twice.begin(), twice.begin() + half, twice.begin() + half)) << "serial run to run";
    test::expect_host_backends_bitwise_equal(solve, "indicator-Newton", {1, 2, 3});
  }
}

TEST(IndicatorNewton, FailuresAreReportedAndBadOptionsAreErrors) {
  auto serial = make_backend("serial");
  const DelassusProblem p = random_problem(3, 6);
  IndicatorNewtonOptions o = indicator_options(NcpFunction::kFischerBurmeister, 1e-14);
  o.stop.max_iterations = 2;
  o.globalization.line_search_steps = 0;  // undamped: one CR solve (at most cr_iterations) per step
  IndicatorNewtonSolver short_solver(*serial, o);
  Eigen::VectorXd r;
  const SolverReport rep = short_solver.solve(p, r);
  EXPECT_EQ(rep.status, SolverStatus::kNotConverged);
  EXPECT_EQ(rep.iterations, 2);
  EXPECT_GT(rep.inner_iterations, 0);
  EXPECT_LE(rep.inner_iterations, 2 * o.cr_iterations);
  EXPECT_EQ(rep.error_history.size(), 2u);
  EXPECT_EQ(rep.error, rep.error_history.back());
  EXPECT_NE(rep.message.find("tolerance"), std::string::npos) << rep.message;
  // W_ii = 0 breaks eq. (28)'s preconditioner: a reported failure, not a throw.
  DelassusProblem zero = particle(1.0, 0.0, 0.0, -1.0, 0.5);
  zero.W = dense_to_csr(Eigen::Matrix3d::Zero());
  r.resize(0);
  const SolverReport failed = IndicatorNewtonSolver(*serial).solve(zero, r);
  EXPECT_EQ(failed.status, SolverStatus::kFailed);
  EXPECT_NE(failed.message.find("W(0, 0)"), std::string::npos) << failed.message;
  // Unsupported kinds and bad options are clear errors.
  DelassusProblem box = particle(1.0, 0.0, 0.0, -1.0, 0.5);
  box.blocks[0].kind = BlockKind::kContactBoxFriction;
  r.resize(0);
  EXPECT_THROW(IndicatorNewtonSolver(*serial).solve(box, r), Error);
  IndicatorNewtonOptions bad;
  bad.cr_iterations = 0;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  bad = {};
  bad.cr_tolerance = -1.0;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  bad = {};
  bad.stop.max_iterations = 0;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  bad = {};
  bad.globalization.proximal = -1.0;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  bad = {};
  bad.globalization.proximal_growth = 0.5;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  bad = {};
  bad.globalization.line_search_steps = -1;
  EXPECT_THROW(IndicatorNewtonSolver(*serial, bad), Error);
  EXPECT_EQ(IndicatorNewtonSolver(*serial, indicator_options(NcpFunction::kMinMap)).name(), "newton-cr-minmap");
  EXPECT_EQ(IndicatorNewtonSolver(*serial).name(), "newton-cr-fb");
}

// Both Newton solvers check their shared globalization options alike (newton_globalization.hpp),
// naming the solver, the key and the value; and a shift that cannot grow (proximal_growth = 1)
// ends the indicator Newton's damped steps instead of re-solving with the same shift for ever: on
// the rank-deficient incline, with 2 CR iterations per step and one halving, steps fail the line
// search (with growth 10 the solver re-solves with larger shifts: more CR solves than steps).
TEST(IndicatorNewton, SharesNewtonSolversGlobalization) {
  auto serial = make_backend("serial");
  IndicatorNewtonOptions io;
  NewtonOptions no;
  io.globalization.proximal_range = no.globalization.proximal_range = 0.5;
  EXPECT_SINEW_ERROR(IndicatorNewtonSolver(*serial, io),
                     "IndicatorNewtonSolver: globalization.proximal_range must be finite and >= 1, got 0.5");
  EXPECT_SINEW_ERROR(NewtonSolver(*serial, no),
                     "NewtonSolver: globalization.proximal_range must be finite and >= 1, got 0.5");
  io = {};
  no = {};
  io.stop.tolerance = no.stop.tolerance = -1.0;
  EXPECT_SINEW_ERROR(IndicatorNewtonSolver(*serial, io),
                     "IndicatorNewtonSolver: stop.tolerance must be finite and >= 0");
  EXPECT_SINEW_ERROR(NewtonSolver(*serial, no), "NewtonSolver: stop.tolerance must be finite and >= 0");

  const Incline s = incline(std::tan(10.0 * 3.14159265358979323846 / 180.0) - 0.001);
  for (double growth : {1.0, 10.0}) {
    IndicatorNewtonOptions o = indicator_options(NcpFunction::kMinMap, 1e-12);
    o.cr_iterations = 2;
    o.globalization.line_search_steps = 1;
    o.globalization.proximal_growth = growth;
    o.stop.max_iterations = 40;
    Eigen::VectorXd r;
    const SolverReport rep = IndicatorNewtonSolver(*serial, o).solve(s.problem, r);
    std::cout << "[figures] incline, 2 CR iterations, proximal_growth " << growth << ": " << rep.iterations
              << " steps, " << rep.inner_iterations << " CR iterations, error " << rep.error << "\n";
    EXPECT_NE(rep.status, SolverStatus::kFailed) << rep.message;
    EXPECT_TRUE(std::isfinite(rep.error));
    if (growth == 1.0) {
      EXPECT_LE(rep.inner_iterations, 2 * rep.iterations);  // one CR solve (2 iterations) per step
    } else {
      EXPECT_GT(rep.inner_iterations, 2 * rep.iterations);  // the failing steps this case is about
    }
  }
}

}  // namespace
}  // namespace sinew::constraints::constraints_indicator_newton_solver_test
