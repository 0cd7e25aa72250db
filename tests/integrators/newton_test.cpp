// The Newton solve and its failure reports: quadratic convergence on a stiff nonlinear spring,
// non-convergence with the residual, NaN forces, a rejected Newton matrix, both linear solvers,
// and fixed DOFs under the compliant alpha/beta scheme.
#include <gtest/gtest.h>

#include <cmath>
#include <cstdio>
#include <memory>
#include <string>
#include <vector>

#include "expect_error.hpp"
#include "integration_helpers.hpp"
#include "sinew/integrators/bridson_marino.hpp"
#include "sinew/integrators/compliant_alpha_beta.hpp"
#include "sinew/integrators/implicit_euler.hpp"
#include "sinew/integrators/make_integrator.hpp"
#include "sinew/integrators/symplectic_euler.hpp"
#include "sinew/integrators/theta_method.hpp"
#include "sinew/integrators/trapezoidal.hpp"
#include "sinew/model/kinematic_tree.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "test_systems.hpp"

namespace sinew::integrators::integrators_newton_test {
namespace {

using testing::run_steps;

// @p count rigid bodies under gravity, spinning about tilted axes with offset centres of mass:
// gyroscopic force and gravity torque make each implicit step nonlinear.
void add_tumbling_bodies(model::MechanicalSystem& bodies, int count) {
  bodies.set_gravity(Vec3{{0, 0, -9.81}});
  for (int b = 0; b < count; ++b) {
    const SpatialInertia I = make_spatial_inertia(1.0 + b, Vec3{{0.05 * (b + 1), -0.02, 0.03}},
                                                  Mat3{{0.02, 0.001, 0, 0.001, 0.03 + 0.01 * b, 0, 0, 0, 0.04}});
    bodies.add_body(I, Vec3{{0.5 * b, 0, 1}}, quat_from_axis_angle(Vec3{{0.6, 0, 0.8}}, 0.3 * b), "", Vec3{{0.1, 0, 0}},
                    Vec3{{3.0 - b, 1.0 + b, 2.0}});
  }
}

std::string detail_sci(double x) {
  char buf[32];
  std::snprintf(buf, sizeof buf, "%.3e", x);
  return buf;
}

// One particle on a stiff cubic spring (k = 1e4, k3 = 1e7), stretched by 0.2 along a skew
// direction with a transverse velocity, and a large step h = 0.02 (omega h ~ 2 at rest length,
// far more at the stretch): the Newton solve is strongly nonlinear.
testing::SpringChain stiff_spring() {
  testing::SpringChain s;
  s.n = 1;
  s.k = 1e4;
  s.k3 = 1e7;
  s.g = 9.81;
  return s;
}

State stiff_start() {
  const Eigen::Vector3d dir = Eigen::Vector3d(1.0, -2.0, 2.0) / 3.0;
  return State{0.0, Eigen::VectorXd(1.2 * dir), Eigen::VectorXd(Eigen::Vector3d(0.0, 3.0, 3.0))};
}

// Quadratic convergence checks that each scheme's Newton matrix A = M + h^2 w a c K + h w b D
// carries the right coefficients (a wrong one still converges, but linearly).
TEST(IntegratorNewton, QuadraticConvergenceOnStiffNonlinearSpring) {
  const testing::SpringChain spring = stiff_spring();
  CompliantAlphaBetaOptions alpha_beta;
  alpha_beta.alpha = 0.6;
  alpha_beta.beta = 0.8;
  std::vector<std::unique_ptr<Integrator>> integrators;
  for (const char* name : {"implicit_euler", "trapezoidal", "theta_midpoint", "theta_implicit_euler"})
    integrators.push_back(make_integrator(name));
  integrators.push_back(std::make_unique<CompliantAlphaBeta>(alpha_beta));
  for (const auto& integrator : integrators) {
    State s = stiff_start();
    const StepReport report = integrator->step(spring, s, 0.02);
    ASSERT_TRUE(report.ok()) << report.message;
    std::string history;
    for (double r : report.residual_norms) history += " " + detail_sci(r);
    std::printf("[newton] %s, stiff cubic spring: %d iterations, %d line-search steps, |r|:%s\n",
                integrator->name().c_str(), report.iterations, report.line_search_steps, history.c_str());
    EXPECT_LE(report.iterations, 15) << integrator->name();  // a far start: cubic force 40x the linear one
    EXPECT_LE(report.residual_norm, report.tolerance) << integrator->name();
    // In the local regime (|r| < 1e-2 |r_0|, above round-off) c_i = |r_{i+1}| / |r_i|^2 stays
    // nearly constant, where linear convergence at rate rho would make it grow by 1/rho per
    // iteration; and the last contraction is tiny.
    const auto& r = report.residual_norms;
    std::vector<double> c;
    for (std::size_t i = 0; i + 1 < r.size(); ++i)
      if (r[i] < 1e-2 * r[0] && r[i + 1] > 1e-13 * r[0]) c.push_back(r[i + 1] / (r[i] * r[i]));
    ASSERT_GE(c.size(), 2u) << integrator->name();
    for (std::size_t i = 0; i + 1 < c.size(); ++i)
      EXPECT_LT(c[i + 1] / c[i], 2.0) << integrator->name() << " iteration " << i;
    EXPECT_LT(r[r.size() - 1] / r[r.size() - 2], 1e-3) << integrator->name();
  }
}

// Newton on a saturating force (tanh) overshoots from a far start and never converges; the line
// search on the incremental potential brings it home. Implicit Euler, x0 = 3, h = 1, m = 1e-3.
TEST(IntegratorNewton, EnergyLineSearchGlobalizes) {
  const testing::SaturatingSpring spring;
  ImplicitEulerOptions plain_options, searched_options;
  plain_options.newton.merit = LineSearchMerit::kNone;
  plain_options.newton.max_iterations = 50;
  searched_options.newton.max_iterations = 50;
  ImplicitEuler plain(plain_options), searched(searched_options);
  State a{0.0, Eigen::VectorXd::Constant(1, 3.0), Eigen::VectorXd::Zero(1)}, b = a;
  const StepReport plain_report = plain.step(spring, a, 1.0);
  const StepReport searched_report = searched.step(spring, b, 1.0);
  std::printf(
      "[newton] saturating spring: plain Newton %s after %d iterations; energy line search %s in %d "
      "iterations with %d backtracking steps\n",
      to_string(plain_report.status), plain_report.iterations, to_string(searched_report.status),
      searched_report.iterations, searched_report.line_search_steps);
  EXPECT_NE(plain_report.status, StepStatus::kConverged);
  ASSERT_TRUE(searched_report.ok()) << searched_report.message;
  EXPECT_GT(searched_report.line_search_steps, 0);
  // The step's answer: m (u - u0) = -h tanh(x0 + h u) at the root.
  EXPECT_NEAR(spring.m * b.u[0] + std::tanh(b.q[0]), 0.0, 1e-12);
  EXPECT_LT(std::fabs(b.q[0]), 3.0);
}

// The line search measures the incremental potential only when the system has one; both merits
// find the same root.
TEST(IntegratorNewton, MeritFollowsThePotential) {
  struct NoPotential : testing::Pendulum {
    bool has_potential() const override { return false; }
  };
  testing::Pendulum with;
  NoPotential without;
  with.c = without.c = 0.4;
  ImplicitEuler a_integrator, b_integrator;
  State a{0.0, Eigen::VectorXd::Constant(1, 2.5), Eigen::VectorXd::Constant(1, 1.0)}, b = a;
  const StepReport ra = a_integrator.step(with, a, 0.2);
  const StepReport rb = b_integrator.step(without, b, 0.2);
  ASSERT_TRUE(ra.ok() && rb.ok()) << ra.message << " / " << rb.message;
  EXPECT_TRUE(ra.energy_merit);
  EXPECT_FALSE(rb.energy_merit);
  EXPECT_NEAR(a.u[0], b.u[0], 1e-10);
}

TEST(IntegratorNewton, NonConvergenceIsReportedWithTheResidual) {
  const testing::SpringChain spring = stiff_spring();
  ImplicitEulerOptions options;
  options.newton.max_iterations = 2;
  ImplicitEuler integrator(options);
  State s = stiff_start();
  const State before = s;
  const StepReport report = integrator.step(spring, s, 0.02);
  EXPECT_EQ(report.status, StepStatus::kNotConverged);
  EXPECT_EQ(report.iterations, 2);
  ASSERT_EQ(report.residual_norms.size(), 3u);
  EXPECT_GT(report.residual_norm, report.tolerance);
  EXPECT_EQ(report.residual_norm, report.residual_norms.back());
  EXPECT_NE(report.message.find("did not converge in 2 iterations"), std::string::npos) << report.message;
  EXPECT_NE(report.message.find("|r| = "), std::string::npos) << report.message;
  // Nothing half-applied.
  EXPECT_EQ(s.t, before.t);
  EXPECT_EQ(s.q, before.q);
  EXPECT_EQ(s.u, before.u);
}

TEST(IntegratorNewton, NonFiniteForcesAreReported) {
  for (const std::string& name : integrator_names()) {
    testing::NanPendulum p;
    p.t_bad = 0.25;
    auto integrator = make_integrator(name);
    State s{0.0, Eigen::VectorXd::Constant(1, 0.3), Eigen::VectorXd::Zero(1)};
    // Fine until the forces turn NaN at t = 0.25: implicit schemes meet them inside the step
    // from t = 0.2, explicit ones at the start of the step from t = 0.3.
    StepReport report;
    int steps = 0;
    for (; steps < 100; ++steps) {
      report = integrator->step(p, s, 0.1);
      if (!report.ok()) break;
    }
    EXPECT_EQ(report.status, StepStatus::kNonFinite) << name << ": " << report.message;
    EXPECT_GE(steps, 2) << name;
    EXPECT_LE(steps, 3) << name;
    EXPECT_TRUE(s.q.allFinite() && s.u.allFinite()) << name;
    EXPECT_LT(s.t, 0.35) << name;
    EXPECT_NE(report.message.find("not finite"), std::string::npos) << report.message;
  }
}

TEST(IntegratorNewton, NonFiniteStiffnessIsReported) {
  testing::NanPendulum p;
  p.nan_stiffness_only = true;
  ImplicitEuler integrator;
  State s{0.0, Eigen::VectorXd::Constant(1, 0.3), Eigen::VectorXd::Zero(1)};
  const StepReport report = integrator.step(p, s, 0.1);
  EXPECT_EQ(report.status, StepStatus::kNonFinite);
  EXPECT_NE(report.message.find("stiffness"), std::string::npos) << report.message;
  EXPECT_EQ(s.q[0], 0.3);
}

TEST(IntegratorNewton, IndefiniteMatrixIsALinearSolverFailure) {
  const testing::NegativeMassPendulum p;
  for (const std::string& name : integrator_names()) {
    auto integrator = make_integrator(name);
    State s{0.0, Eigen::VectorXd::Constant(1, 0.3), Eigen::VectorXd::Zero(1)};
    const StepReport report = integrator->step(p, s, 0.01);
    EXPECT_EQ(report.status, StepStatus::kLinearSolverFailure) << name << ": " << report.message;
    EXPECT_EQ(s.q[0], 0.3) << name;
    EXPECT_EQ(s.t, 0.0) << name;
  }
}

TEST(IntegratorNewton, CholmodAndEigenAgree) {
  testing::SpringChain chain;
  chain.n = 5;
  chain.k3 = 1e3;
  chain.c = 0.5;
  State s0{0.0, Eigen::VectorXd::Zero(15), Eigen::VectorXd::Zero(15)};
  for (int i = 0; i < 5; ++i) s0.q.segment<3>(3 * i) = Eigen::Vector3d(0.3 * (i + 1), 0.1 * i, -1.1 * (i + 1));
  s0.u.setLinSpaced(15, -1.0, 1.0);
  ImplicitEulerOptions eigen_options, cholmod_options;
  cholmod_options.newton.linear_solver = LinearSolverKind::kCholmod;
  ImplicitEuler with_eigen(eigen_options), with_cholmod(cholmod_options);
  State a = s0, b = s0;
  run_steps(with_eigen, chain, a, 0.01, 20);
  run_steps(with_cholmod, chain, b, 0.01, 20);
  EXPECT_LT((a.q - b.q).norm(), 1e-10);
  EXPECT_LT((a.u - b.u).norm(), 1e-8);
  EXPECT_GT((a.q - s0.q).norm(), 0.01);
}

// Rigid bodies under gravity alone take implicit Euler's stage body by body (rigid_stage.hpp):
// tumbling bodies with offset centres of mass (gyroscopic force and gravity torque both act at
// the force point, a nonlinear stage) end where the general sparse Newton solve puts them, to
// its tolerance, over 100 steps; a fixed body stays put; each step iterates as Newton does.
TEST(IntegratorNewton, RigidBodiesAloneStepBodyByBodyAsTheGeneralSolve) {
  model::MechanicalSystem bodies;
  add_tumbling_bodies(bodies, 4);
  bodies.fix_body(2);
  const State s0{0.0, bodies.initial_positions(), bodies.initial_velocities()};
  ImplicitEuler by_body;  // kAuto: body by body
  ImplicitEulerOptions o;
  o.newton.linear_solver = LinearSolverKind::kEigenLdlt;  // named: the general sparse solve
  ImplicitEuler general(o);
  State a = s0, b = s0;
  for (int k = 0; k < 100; ++k) {
    const StepReport ra = by_body.step(bodies, a, 0.01), rb = general.step(bodies, b, 0.01);
    ASSERT_TRUE(ra.ok()) << ra.message;
    ASSERT_TRUE(rb.ok()) << rb.message;
    EXPECT_GE(ra.iterations, 2) << "step " << k;  // nonlinear: more than one Newton step
    EXPECT_LE(ra.residual_norm, ra.tolerance);
  }
  // Each solve stops at |r| <= 5e-11, up to 5e-11 / 0.02 (the smallest inertia) in u; the
  // tumbling bodies carry the steps' differences on (observed: 5e-10 in u, 1e-10 in q).
  EXPECT_LT((a.q - b.q).lpNorm<Eigen::Infinity>(), 1e-9);
  EXPECT_LT((a.u - b.u).lpNorm<Eigen::Infinity>(), 1e-8);
  EXPECT_GT((a.q - s0.q).norm(), 1.0);  // the bodies did move ...
  const Index p = bodies.body_position_offset(2), d = bodies.body_velocity_offset(2);
  EXPECT_EQ(a.q.segment<7>(p), s0.q.segment<7>(p));  // ... but the fixed one
  EXPECT_EQ(a.u.segment<6>(d), Eigen::VectorXd::Zero(6));
}

// The theta-method's stage takes the same body-by-body path (M at the force point, G explicit at
// the start or implicit at the force point): the midpoint, symplectic Euler (a = 0: a linear
// stage, one Newton step) and a generic theta with implicit G end where the general sparse Newton
// solve puts them, to its tolerance. (Implicit Euler's preset with the seed's explicit G cannot
// step these tumbling bodies at h = 0.01: the general solve stalls at t = 0.78 as well.)
TEST(IntegratorNewton, RigidBodiesAloneTakeTheThetaStageBodyByBodyAsTheGeneralSolve) {
  model::MechanicalSystem bodies;
  add_tumbling_bodies(bodies, 4);
  bodies.fix_body(2);
  const State s0{0.0, bodies.initial_positions(), bodies.initial_velocities()};
  ThetaOptions generic;
  generic.theta_q = 0.7;
  generic.theta_v = 0.6;
  generic.theta_vq = 0.8;
  generic.gyroscopic = GyroscopicTreatment::kImplicit;
  for (const ThetaOptions& options : {ThetaOptions::preset(ThetaPreset::kSymplecticMidpoint),
                                      ThetaOptions::preset(ThetaPreset::kSymplecticEuler), generic}) {
    ThetaMethod by_body(options);  // kAuto: body by body
    ThetaOptions named = options;
    named.newton.linear_solver = LinearSolverKind::kEigenLdlt;  // the general sparse solve
    ThetaMethod general(named);
    State a = s0, b = s0;
    int nonlinear = 0;
    for (int k = 0; k < 100; ++k) {
      const StepReport ra = by_body.step(bodies, a, 0.01), rb = general.step(bodies, b, 0.01);
      ASSERT_TRUE(ra.ok()) << by_body.name() << ": " << ra.message;
      ASSERT_TRUE(rb.ok()) << general.name() << ": " << rb.message;
      EXPECT_LE(ra.residual_norm, ra.tolerance);
      nonlinear += ra.iterations >= 2;
    }
    if (options.theta_q > 0) {
      EXPECT_GT(nonlinear, 50) << by_body.name();  // most steps take several Newton steps
    }
    // Each solve stops at its tolerance; the tumbling bodies carry the steps' differences on
    // (observed for the midpoint: 1.0e-9 in q, 1.5e-8 in u).
    EXPECT_LT((a.q - b.q).lpNorm<Eigen::Infinity>(), 5e-9) << by_body.name();
    EXPECT_LT((a.u - b.u).lpNorm<Eigen::Infinity>(), 5e-8) << by_body.name();
    EXPECT_NE(a.u, b.u) << by_body.name() << ": the same bits, so not the body-by-body path";
    EXPECT_GT((a.q - s0.q).norm(), 1.0) << by_body.name();
    const Index p = bodies.body_position_offset(2), d = bodies.body_velocity_offset(2);
    EXPECT_EQ(a.q.segment<7>(p), s0.q.segment<7>(p)) << by_body.name();
    EXPECT_EQ(a.u.segment<6>(d), Eigen::VectorXd::Zero(6)) << by_body.name();
  }
}

// Tumbling rigid bodies with offset centres of mass (gyroscopic forces make each step nonlinear)
// and a particle: A = M + ... is block diagonal, so kAuto factors it block by block. The result
// is kBlockDiagonal's bit for bit and Eigen's sparse LDL^T's to round-off; a coupled system (the
// spring chain) resolves to LDL^T under kAuto, and kBlockDiagonal refuses it by name.
TEST(IntegratorNewton, UncoupledBodiesAreFactoredBlockByBlock) {
  model::MechanicalSystem bodies;
  add_tumbling_bodies(bodies, 3);
  bodies.add_particle(0.5, Vec3{{0, 1, 0}});
  const State s0{0.0, bodies.initial_positions(), bodies.initial_velocities()};
  std::vector<State> end;
  for (LinearSolverKind kind :
       {LinearSolverKind::kAuto, LinearSolverKind::kBlockDiagonal, LinearSolverKind::kEigenLdlt}) {
    ImplicitEulerOptions o;
    o.newton.linear_solver = kind;
    ImplicitEuler integrator(o);
    State s = s0;
    run_steps(integrator, bodies, s, 0.01, 50);
    end.push_back(s);
  }
  EXPECT_EQ(end[0].q, end[1].q);
  EXPECT_EQ(end[0].u, end[1].u);
  EXPECT_LT((end[0].q - end[2].q).norm(), 1e-12);
  EXPECT_LT((end[0].u - end[2].u).norm(), 1e-10);
  EXPECT_GT((end[0].u - s0.u).norm(), 1.0);  // the bodies did move

  testing::SpringChain chain;
  chain.n = 5;
  State a{0.0, Eigen::VectorXd::LinSpaced(15, -1.0, 1.0), Eigen::VectorXd::Zero(15)}, b = a, c = a;
  ImplicitEulerOptions o;
  ImplicitEuler automatic(o);
  o.newton.linear_solver = LinearSolverKind::kEigenLdlt;
  ImplicitEuler ldlt(o);
  run_steps(automatic, chain, a, 0.01, 5);
  run_steps(ldlt, chain, b, 0.01, 5);
  EXPECT_EQ(a.q, b.q);
  o.newton.linear_solver = LinearSolverKind::kBlockDiagonal;
  ImplicitEuler blocks(o);
  const StepReport r = blocks.step(chain, c, 0.01);
  EXPECT_EQ(r.status, StepStatus::kLinearSolverFailure);
  EXPECT_NE(r.message.find("not block diagonal"), std::string::npos) << r.message;
}

// A kinematic tree's joint-space mass matrix is small and dense: kAuto factors it by one dense
// Cholesky (kDense; up to 12 rows it is one block of kBlockDiagonal), bit for bit as kDense itself
// and to round-off as Eigen's sparse LDL^T, over steps of a swinging 16-link hinge chain by
// implicit Euler (its step matrix M + h^2 K is dense too). Matrices past 64 rows, or with less than 3/4 of their
// entries, go to the sparse factor, and kDense refuses a coupled block past 64 rows by name.
TEST(IntegratorNewton, SmallDenseSystemsAreFactoredDense) {
  constexpr int kLinks = 16;
  const model::KinematicTree chain = testing::hinge_chain_tree(kLinks);
  CsrMatrix M;
  chain.mass_matrix(0.0, Eigen::VectorXd::Zero(kLinks), M);
  EXPECT_EQ(resolve_linear_solver(LinearSolverKind::kAuto, M), LinearSolverKind::kDense);
  std::vector<State> end;
  for (LinearSolverKind kind : {LinearSolverKind::kAuto, LinearSolverKind::kDense, LinearSolverKind::kEigenLdlt}) {
    ImplicitEulerOptions o;
    o.newton.linear_solver = kind;
    ImplicitEuler integrator(o);
    State s{0.0, Eigen::VectorXd::Zero(kLinks), Eigen::VectorXd::Zero(kLinks)};
    run_steps(integrator, chain, s, 0.002, 100);
    end.push_back(s);
  }
  EXPECT_EQ(end[0].q, end[1].q);
  EXPECT_EQ(end[0].u, end[1].u);
  EXPECT_LT((end[0].q - end[2].q).norm(), 1e-10);
  EXPECT_GT(end[0].q.norm(), 0.5);  // the chain did swing down (0.2 s)

  const auto dense_spd = [](Index n) {
    const Eigen::MatrixXd B = Eigen::MatrixXd::Random(n, n);
    const Eigen::MatrixXd A = B * B.transpose() + static_cast<double>(n) * Eigen::MatrixXd::Identity(n, n);
    return from_eigen(EigenCsr(A.sparseView()));
  };
  EXPECT_EQ(resolve_linear_solver(LinearSolverKind::kAuto, dense_spd(64)), LinearSolverKind::kDense);
  EXPECT_EQ(resolve_linear_solver(LinearSolverKind::kAuto, dense_spd(65)), LinearSolverKind::kEigenLdlt);
  testing::SpringChain springs;  // block tridiagonal: 117 of 225 entries
  springs.n = 5;
  springs.mass_matrix(0.0, Eigen::VectorXd::Zero(15), M);
  CsrMatrix K;
  springs.stiffness(0.0, Eigen::VectorXd::LinSpaced(15, -1.0, 1.0), Eigen::VectorXd::Zero(15), false, K);
  EXPECT_EQ(resolve_linear_solver(LinearSolverKind::kAuto, K), LinearSolverKind::kEigenLdlt);
  const std::unique_ptr<LinearSolver> dense = make_linear_solver(LinearSolverKind::kDense);
  EXPECT_SINEW_ERROR(dense->compute(dense_spd(65)), "not block diagonal with blocks of at most 64 rows");
}

// A hanging chain of 4 particles whose first particle is held by fixed velocity DOFs (no
// anchor spring): under gravity the others fall and swing, particle 0 stays exactly put, even
// though the start velocity given for it is not zero.
TEST(IntegratorAlphaBeta, FixedDofsStayPut) {
  testing::SpringChain chain;
  chain.n = 4;
  chain.use_anchor = false;
  chain.k = 500.0;
  chain.k3 = 1e3;
  chain.fixed = {0, 1, 2};
  for (bool linear : {false, true}) {
    CompliantAlphaBetaOptions options;
    options.alpha = 0.6;
    options.beta = 0.8;
    options.linearly_implicit = linear;
    CompliantAlphaBeta integrator(options);
    State s{0.0, Eigen::VectorXd::Zero(12), Eigen::VectorXd::Constant(12, 0.5)};
    for (int i = 0; i < 4; ++i) s.q.segment<3>(3 * i) = Eigen::Vector3d(0.9 * i, 0.0, 0.0);
    const Eigen::Vector3d fixed_position = s.q.head<3>();
    const Eigen::VectorXd start = s.q;
    run_steps(integrator, chain, s, 0.01, 300, [&](const State& now) {
      ASSERT_EQ(Eigen::Vector3d(now.q.head<3>()), fixed_position);
      ASSERT_EQ(Eigen::Vector3d(now.u.head<3>()), Eigen::Vector3d::Zero());
    });
    for (int i = 1; i < 4; ++i)
      EXPECT_LT(s.q[3 * i + 2], start[3 * i + 2] - 0.2) << "particle " << i << (linear ? " (linear)" : "");
  }
}

// Bridson-Marino and symplectic Euler are explicit: one / two solves, no Newton iterations.
TEST(IntegratorExplicit, ReportTheirSolves) {
  testing::Pendulum p;
  p.c = 0.2;
  State s{0.0, Eigen::VectorXd::Constant(1, 0.3), Eigen::VectorXd::Zero(1)};
  SymplecticEuler se;
  BridsonMarino bm;
  const StepReport a = se.step(p, s, 0.01);
  const StepReport b = bm.step(p, s, 0.01);
  EXPECT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a.iterations, 0);
  EXPECT_EQ(a.linear_solves, 1);
  EXPECT_EQ(b.linear_solves, 1);
  EXPECT_NEAR(s.t, 0.02, 1e-15);
}

}  // namespace
}  // namespace sinew::integrators::integrators_newton_test
