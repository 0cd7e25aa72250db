// IndicatorNewtonStep: one step of the seed's non-smooth Newton method on a Backend (eq. (26) by CR).
#include "sinew/constraints/indicator_newton_step.hpp"

#include <cmath>
#include <string>

#include "indicator_newton_kernels.hpp"
#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

namespace sinew::constraints {

namespace {

using detail::IndicatorBlock;
using detail::IndicatorKind;
using detail::IndicatorRowsOut;

// W as the step holds it: a stored CSR matrix or an operator (exactly one is set).
struct DelassusRef {
  const DeviceCsr* csr = nullptr;
  LinearOperator* op = nullptr;
  Index rows() const { return csr ? csr->rows : op ? op->rows() : 0; }
  // y = W x (x and y distinct).
  void apply(Backend& be, const DeviceArray<double>& x, DeviceArray<double>& y) const {
    if (csr)
      be.spmv(1.0, *csr, Op::kNoTranspose, x, 0.0, y);
    else
      op->apply(x, y);
  }
};

// y = Omega W Omega x + diag_add .* x (diag_add = E Omega on coupled rows, 1 on decoupled ones):
// the seed's eq. (26) matrix in the multipliers y of the coupled rows (indicator_newton_solver.hpp).
class IndicatorOperator final : public LinearOperator {
 public:
  IndicatorOperator(Backend& backend, const DelassusRef& W, const DeviceArray<double>& omega,
                    const DeviceArray<double>& diag_add, DeviceArray<double>& t)
      : be_(&backend), W_(W), omega_(&omega), diag_add_(&diag_add), t_(&t) {}
  Index rows() const override { return W_.rows(); }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    be_->multiply(*omega_, x, *t_);     // t = Omega x
    W_.apply(*be_, *t_, y);             // y = W Omega x
    be_->multiply(*omega_, y, y);       // y = Omega W Omega x
    be_->multiply(*diag_add_, x, *t_);  // t = (E Omega) x
    be_->axpby(1.0, *t_, 1.0, y);       // y += t
  }

 private:
  Backend* be_;
  DelassusRef W_;
  const DeviceArray<double>*omega_, *diag_add_;
  DeviceArray<double>* t_;
};

}  // namespace

void indicator_preconditioner(const Eigen::VectorXd& diag_w, const std::vector<ConstraintBlock>& blocks,
                              Eigen::VectorXd& rho) {
  rho = diag_w;
  Index i = 0;
  for (const ConstraintBlock& b : blocks) {
    const int size = block_size(b.kind);
    if (size == 3 && i + 2 < rho.size()) rho[i + 1] = rho[i + 2] = 0.5 * (diag_w[i + 1] + diag_w[i + 2]);
    i += size;
  }
}

std::vector<double> indicator_preconditioner(const std::vector<double>& diag_w,
                                             const std::vector<ConstraintBlock>& blocks) {
  Eigen::VectorXd rho;
  indicator_preconditioner(Eigen::Map<const Eigen::VectorXd>(diag_w.data(), static_cast<Eigen::Index>(diag_w.size())),
                           blocks, rho);
  return std::vector<double>(rho.data(), rho.data() + rho.size());
}

struct IndicatorNewtonStep::Impl {
  Backend* be = nullptr;
  IndicatorStepOptions options;
  ConjugateResidual cr;
  DelassusRef W;  // set by prepare()
  std::size_t n_blocks = 0;
  std::vector<double> rho_host;
  DeviceArray<IndicatorBlock> blocks;             // (n_blocks) first row, law, mu
  DeviceArray<double> rho, diag_w;                // (m) eq. (28) preconditioner, W_ii
  DeviceArray<double> omega, diag_add, inv_diag;  // (m) indicators and CR quantities
  DeviceArray<double> rhs, dr_open, y, dr, t;     // (m) right-hand side, steps, CR unknown, scratch
  explicit Impl(Backend& backend) : be(&backend), cr(backend) {}
  // prepare() for either form of W.
  void prepare(const DelassusRef& W, const std::vector<double>& diag_w, const std::vector<ConstraintBlock>& blocks,
               const std::vector<double>& rho);
};

IndicatorNewtonStep::IndicatorNewtonStep(Backend& backend, const IndicatorStepOptions& options)
    : impl_(std::make_unique<Impl>(backend)) {
  require(options.cr_iterations >= 1,
          "IndicatorNewtonStep: cr_iterations must be >= 1, got " + std::to_string(options.cr_iterations));
  require(options.cr_tolerance >= 0.0 && options.cr_tolerance < 1.0,
          "IndicatorNewtonStep: cr_tolerance must be in [0, 1), got " + number_text(options.cr_tolerance));
  require(can_run_kernel<detail::IndicatorNewtonKernel>(backend),
          cannot_run_kernel_message(backend, "IndicatorNewtonStep's indicator kernel"));
  impl_->options = options;
}

IndicatorNewtonStep::~IndicatorNewtonStep() = default;

void IndicatorNewtonStep::prepare(const DeviceCsr& W, const std::vector<double>& diag_w,
                                  const std::vector<ConstraintBlock>& blocks, const std::vector<double>& rho) {
  require(W.rows == W.cols, "IndicatorNewtonStep::prepare: W must be square, got " + std::to_string(W.rows) + " x " +
                                std::to_string(W.cols));
  DelassusRef ref;
  ref.csr = &W;
  impl_->prepare(ref, diag_w, blocks, rho);
}

void IndicatorNewtonStep::prepare(LinearOperator& W, const std::vector<double>& diag_w,
                                  const std::vector<ConstraintBlock>& blocks, const std::vector<double>& rho) {
  DelassusRef ref;
  ref.op = &W;
  impl_->prepare(ref, diag_w, blocks, rho);
}

void IndicatorNewtonStep::Impl::prepare(const DelassusRef& W, const std::vector<double>& diag_w,
                                        const std::vector<ConstraintBlock>& blocks, const std::vector<double>& rho) {
  Impl& m = *this;
  Backend& be = *m.be;
  const std::size_t n = static_cast<std::size_t>(W.rows());
  require(diag_w.size() == n, "IndicatorNewtonStep::prepare: diag_w must have " + std::to_string(n) + " entries");
  require(rho.empty() || rho.size() == n, "IndicatorNewtonStep::prepare: rho must be empty or have " +
                                              std::to_string(n) + " entries, got " + std::to_string(rho.size()));
  validate_blocks(blocks, W.rows(), "IndicatorNewtonStep::prepare");
  std::vector<IndicatorBlock> kernel_blocks(blocks.size());
  Index row = 0;
  for (std::size_t b = 0; b < blocks.size(); ++b) {
    require(blocks[b].kind != BlockKind::kContactBoxFriction,
            "IndicatorNewtonStep::prepare: block " + std::to_string(b) +
                " uses box friction, which the seed's indicators do not model; use a circular cone");
    kernel_blocks[b].row = row;
    kernel_blocks[b].mu = blocks[b].mu;
    kernel_blocks[b].kind = blocks[b].kind == BlockKind::kBilateral    ? IndicatorKind::kBilateral
                            : blocks[b].kind == BlockKind::kUnilateral ? IndicatorKind::kUnilateral
                                                                       : IndicatorKind::kContact;
    row += block_size(blocks[b].kind);
  }
  m.rho_host = rho.empty() ? indicator_preconditioner(diag_w, blocks) : rho;
  for (std::size_t i = 0; i < n; ++i) {
    require(diag_w[i] > 0.0, "IndicatorNewtonStep::prepare: W(" + std::to_string(i) + ", " + std::to_string(i) +
                                 ") is not positive; the complementarity preconditioner (eq. 28) needs W_ii > 0");
    require(m.rho_host[i] > 0.0 && std::isfinite(m.rho_host[i]),
            "IndicatorNewtonStep::prepare: rho[" + std::to_string(i) + "] must be finite and > 0");
  }
  m.W = W;
  m.n_blocks = blocks.size();
  m.blocks = be.upload(kernel_blocks);
  if (m.rho.size() != n) {
    for (auto* a : {&m.rho, &m.diag_w, &m.omega, &m.diag_add, &m.inv_diag, &m.rhs, &m.dr_open, &m.y, &m.dr, &m.t})
      *a = be.allocate<double>(n);
  }
  be.upload(m.rho_host.data(), n, m.rho);
  be.upload(diag_w.data(), n, m.diag_w);
}

Index IndicatorNewtonStep::rows() const { return impl_->W.rows(); }
const DeviceArray<double>& IndicatorNewtonStep::dr() const { return impl_->dr; }
const std::vector<double>& IndicatorNewtonStep::rho() const { return impl_->rho_host; }

void IndicatorNewtonStep::velocity(const DeviceArray<double>& q, const DeviceArray<double>& r, DeviceArray<double>& u) {
  Impl& m = *impl_;
  require(m.W.csr != nullptr || m.W.op != nullptr, "IndicatorNewtonStep: prepare() was not called");
  if (m.W.csr) {
    m.be->copy(q, u);
    m.be->spmv(1.0, *m.W.csr, Op::kNoTranspose, r, 1.0, u);
  } else {
    m.W.op->apply(r, u);
    m.be->axpby(1.0, q, 1.0, u);
  }
}

KrylovResult IndicatorNewtonStep::direction(const DeviceArray<double>& u, const DeviceArray<double>& r,
                                            double proximal) {
  Impl& m = *impl_;
  Backend& be = *m.be;
  require(m.W.csr != nullptr || m.W.op != nullptr, "IndicatorNewtonStep: prepare() was not called");
  const IndicatorRowsOut out{m.omega.data(), m.diag_add.data(), m.inv_diag.data(), m.rhs.data(), m.dr_open.data()};
  // Indicators, eqs. (46)-(57), one block per index, at (u, r).
  const detail::IndicatorNewtonKernel kernel{m.options.function, m.blocks.data(), u.data(), r.data(),
                                             m.rho.data(),       m.diag_w.data(), proximal, out};
  for_each_index(be, m.n_blocks, kernel, "IndicatorNewtonStep's indicator kernel");
  // rhs = -phi_C - Omega W dr_O (decoupled rows' steps moved to the right-hand side).
  m.W.apply(be, m.dr_open, m.t);
  be.multiply(m.omega, m.t, m.t);
  be.axpby(-1.0, m.t, 1.0, m.rhs);
  be.fill(m.y, 0.0);
  IndicatorOperator op(be, m.W, m.omega, m.diag_add, m.t);
  KrylovOptions cr_options;
  cr_options.tolerance = m.options.cr_tolerance;
  cr_options.max_iterations = m.options.cr_iterations;
  cr_options.record_history = false;
  // A breakdown (A p = 0 on a singular semi-definite system) or the iteration cap leaves y at
  // CR's last iterate, still a residual-decreasing step: the callers take it, as the seed does.
  KrylovResult result = m.cr.solve(op, m.rhs, m.y, cr_options, &m.inv_diag);
  be.multiply(m.omega, m.y, m.dr);  // dr = Omega y + dr_O
  be.axpby(1.0, m.dr_open, 1.0, m.dr);
  return result;
}

KrylovResult IndicatorNewtonStep::step(const DeviceArray<double>& q, DeviceArray<double>& r, DeviceArray<double>& u) {
  velocity(q, r, u);
  KrylovResult result = direction(u, r, 0.0);
  impl_->be->axpby(1.0, impl_->dr, 1.0, r);
  velocity(q, r, u);
  return result;
}

}  // namespace sinew::constraints
