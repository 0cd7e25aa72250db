// IndicatorNewtonStep (indicator_newton_step.hpp), the per-step machinery shared by IndicatorNewtonSolver and the
// constrained local-global integrator: k undamped steps are bitwise the undamped solver's k
// iterations, W given as an operator (a product of factors) takes the same steps as W stored to
// rounding, a custom preconditioner rho changes the path but not the closed-form solution, and bad
// input to prepare() is named.
#include "sinew/constraints/indicator_newton_step.hpp"

#include <gtest/gtest.h>

#include <Eigen/Dense>
#include <algorithm>
#include <cmath>
#include <cstring>

#include "expect_error.hpp"
#include "sinew/backends/registry.hpp"
#include "sinew/constraints/indicator_newton_solver.hpp"
#include "sinew/constraints/natural_map.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/eigen_ldlt_solver.hpp"
#include "test_problems.hpp"

namespace sinew::constraints::constraints_indicator_newton_step_test {
namespace {

std::vector<double> diagonal(const CsrMatrix& W) {
  std::vector<double> d(W.rows, 0.0);
  for (Index i = 0; i < W.rows; ++i)
    for (Index k = W.row_ptr[i]; k < W.row_ptr[i + 1]; ++k)
      if (W.col_idx[k] == i) d[i] = W.values[k];
  return d;
}

TEST(IndicatorNewtonStep, UndampedStepsAreTheUndampedSolversIterations) {
  const GlobalProblem g = testing::random_global(7, testing::mixed_blocks(7, 6), 30);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  auto backend = make_backend("serial");
  for (NcpFunction fn : {NcpFunction::kFischerBurmeister, NcpFunction::kMinMap}) {
    IndicatorNewtonOptions o;
    o.function = fn;
    o.globalization.line_search_steps = 0;  // the seed's undamped iteration
    o.globalization.proximal = 0.0;
    o.stop = {0.0, 7};
    IndicatorNewtonSolver solver(*backend, o);
    Eigen::VectorXd r_solver = Eigen::VectorXd::Zero(p.rows());
    solver.solve(p, r_solver);

    IndicatorNewtonStep step(*backend, IndicatorStepOptions{fn, o.cr_iterations, 0.0});
    const DeviceCsr W = to_device(*backend, p.W);
    step.prepare(W, diagonal(p.W), p.blocks);
    DeviceArray<double> q = backend->upload(std::vector<double>(p.q.data(), p.q.data() + p.rows()));
    DeviceArray<double> r = backend->allocate<double>(p.rows()), u = backend->allocate<double>(p.rows());
    backend->fill(r, 0.0);
    for (int k = 0; k < 7; ++k) step.step(q, r, u);
    const std::vector<double> r_step = backend->download(r);
    EXPECT_EQ(std::memcmp(r_step.data(), r_solver.data(), r_step.size() * sizeof(double)), 0);
  }
}

// A unit mass on the plane z = 0 moving at (2, 0, -1) with mu = 0.5: r_n = 1 stops the normal
// velocity and the friction r_T = (-0.5, 0) slides at the cone's edge. The solution does not
// depend on rho, the undamped path does: rho = 0.2, 0.5, 1 (eq. (28)) and 2 times W_ii reach it
// to 1e-8 within 60 steps (1 x: 6 steps), while 5 x W_ii (the kind of over-estimate the mass
// inverse makes on stiff bodies, Sec. 7.5) makes the fixed-point friction overshoot the cone
// every step: measured |r_t1 + 0.5| = 0.026 after 60 steps and 0.015 after 300.
TEST(IndicatorNewtonStep, CustomPreconditionerChangesThePathNotTheSolution) {
  const std::vector<ConstraintBlock> blocks{{BlockKind::kContact, 0.5}};
  auto backend = make_backend("serial");
  const DeviceCsr W = to_device(*backend, testing::dense_to_csr(Eigen::Matrix3d::Identity()));
  DeviceArray<double> q = backend->upload(std::vector<double>{-1.0, 2.0, 0.0});
  for (double factor : {0.2, 0.5, 1.0, 2.0, 5.0}) {
    IndicatorNewtonStep step(*backend);
    step.prepare(W, {1.0, 1.0, 1.0}, blocks, {factor, factor, factor});
    EXPECT_EQ(step.rho()[1], factor);
    DeviceArray<double> r = backend->allocate<double>(3), u = backend->allocate<double>(3);
    backend->fill(r, 0.0);
    for (int k = 0; k < 60; ++k) step.step(q, r, u);
    const std::vector<double> rh = backend->download(r);
    EXPECT_NEAR(rh[0], 1.0, 1e-8) << factor;
    EXPECT_NEAR(rh[2], 0.0, 1e-8) << factor;
    if (factor < 5.0) {
      EXPECT_NEAR(rh[1], -0.5, 1e-8) << factor;
    } else {
      EXPECT_GT(std::abs(rh[1] + 0.5), 1e-2) << "the over-estimated rho still oscillates";
    }
  }
  EXPECT_EQ(indicator_preconditioner({1.0, 2.0, 4.0}, blocks), (std::vector<double>{1.0, 3.0, 3.0}));
}

// W = B^T B applied through B (upper Cholesky factor of a mixed-block problem's W, stored as B
// and B^T): the form the local-global integrator uses on rich contact. Two applies of B instead
// of one of W change only the rounding: 7 undamped steps agree with the stored W's to 1e-12 of
// max |r| (both NCP functions), while the iterates move by far more than that from step to step.
class FactoredW final : public LinearOperator {
 public:
  FactoredW(Backend& backend, const CsrMatrix& B, const CsrMatrix& Bt)
      : be_(&backend), B_(to_device(backend, B)), Bt_(to_device(backend, Bt)), t_(backend.allocate<double>(B.rows)) {}
  Index rows() const override { return B_.cols; }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    be_->spmv(1.0, B_, Op::kNoTranspose, x, 0.0, t_);
    be_->spmv(1.0, Bt_, Op::kNoTranspose, t_, 0.0, y);
  }

 private:
  Backend* be_;
  DeviceCsr B_, Bt_;
  DeviceArray<double> t_;
};

TEST(IndicatorNewtonStep, OperatorFormTakesTheStoredMatrixsSteps) {
  const GlobalProblem g = testing::random_global(11, testing::mixed_blocks(11, 6), 30);
  EigenLdltSolver mass;
  const DelassusProblem p = to_delassus(g, mass);
  const Eigen::MatrixXd Wd = Eigen::MatrixXd(to_eigen(p.W));
  const Eigen::LLT<Eigen::MatrixXd> llt(Wd);
  ASSERT_EQ(llt.info(), Eigen::Success);
  const Eigen::MatrixXd U = llt.matrixU();  // W = U^T U
  auto backend = make_backend("serial");
  FactoredW op(*backend, testing::dense_to_csr(U), testing::dense_to_csr(U.transpose()));
  const DeviceCsr W = to_device(*backend, p.W);
  const Index m = p.rows();
  for (NcpFunction fn : {NcpFunction::kFischerBurmeister, NcpFunction::kMinMap}) {
    std::vector<double> results[2], first_step;
    for (int form = 0; form < 2; ++form) {
      IndicatorNewtonStep step(*backend, IndicatorStepOptions{fn, 10, 0.0});
      if (form == 0)
        step.prepare(W, diagonal(p.W), p.blocks);
      else
        step.prepare(op, diagonal(p.W), p.blocks);
      EXPECT_EQ(step.rows(), m);
      DeviceArray<double> q = backend->upload(std::vector<double>(p.q.data(), p.q.data() + m));
      DeviceArray<double> r = backend->allocate<double>(m), u = backend->allocate<double>(m);
      backend->fill(r, 0.0);
      for (int k = 0; k < 7; ++k) {
        step.step(q, r, u);
        if (k == 0 && form == 0) first_step = backend->download(r);
      }
      results[form] = backend->download(r);
    }
    double scale = 0.0, diff = 0.0, moved = 0.0;
    for (Index i = 0; i < m; ++i) {
      scale = std::max(scale, std::abs(results[0][i]));
      diff = std::max(diff, std::abs(results[0][i] - results[1][i]));
      moved = std::max(moved, std::abs(results[0][i] - first_step[i]));
    }
    EXPECT_GT(scale, 0.0);
    EXPECT_GT(moved, 1e-6 * scale) << "the steps after the first must change r";
    EXPECT_LE(diff, 1e-12 * scale) << "NCP function " << static_cast<int>(fn);
  }
}

TEST(IndicatorNewtonStep, BadInputIsNamed) {
  auto backend = make_backend("serial");
  const DeviceCsr W = to_device(*backend, testing::dense_to_csr(Eigen::Matrix3d::Identity()));
  IndicatorNewtonStep step(*backend);
  const std::vector<ConstraintBlock> contact{{BlockKind::kContact, 0.5}};
  EXPECT_SINEW_ERROR(step.prepare(W, {1.0, 1.0, 1.0}, contact, {1.0, 0.0, 1.0}), "rho[1]");
  EXPECT_SINEW_ERROR(step.prepare(W, {1.0, -1.0, 1.0}, contact), "W(1, 1)");
  EXPECT_SINEW_ERROR(step.prepare(W, {1.0, 1.0, 1.0}, {{BlockKind::kContactBoxFriction, 0.5}}), "box friction");
  EXPECT_SINEW_ERROR(step.prepare(W, {1.0, 1.0}, contact), "diag_w");
  EXPECT_SINEW_ERROR(IndicatorNewtonStep(*backend, IndicatorStepOptions{NcpFunction::kMinMap, 0, 0.0}),
                     "cr_iterations");
}

}  // namespace
}  // namespace sinew::constraints::constraints_indicator_newton_step_test
