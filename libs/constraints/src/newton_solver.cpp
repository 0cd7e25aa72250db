#include "sinew/constraints/newton_solver.hpp"

#include <cmath>

#include "sinew/constraints/natural_map.hpp"
#include "sinew/core/error.hpp"

namespace sinew::constraints {

namespace {

// y = (Omega W Omega + diag(d)) x on the backend: W formed once per solve, Omega and d per step
// (the seed's eq. (26): only diagonal scalings change between Newton steps).
class ScaledDelassusOperator final : public LinearOperator {
 public:
  ScaledDelassusOperator(Backend& backend, const DeviceCsr& W, const DeviceArray<double>& omega,
                         const DeviceArray<double>& d, DeviceArray<double>& tmp)
      : backend_(&backend), W_(&W), omega_(&omega), d_(&d), tmp_(&tmp) {}
  Index rows() const override { return W_->rows; }
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override {
    backend_->multiply(*omega_, x, *tmp_);                      // tmp = Omega x
    backend_->spmv(1.0, *W_, Op::kNoTranspose, *tmp_, 0.0, y);  // y = W Omega x
    backend_->multiply(*omega_, y, y);                          // y = Omega W Omega x
    backend_->multiply(*d_, x, *tmp_);                          // tmp = d x
    backend_->axpby(1.0, *tmp_, 1.0, y);                        // y += d x
  }

 private:
  Backend* backend_;
  const DeviceCsr* W_;
  const DeviceArray<double>* omega_;
  const DeviceArray<double>* d_;
  DeviceArray<double>* tmp_;
};

// Per-row NCP values and Jacobian split at (u, r); returns 1/2 ||phi||^2.
double evaluate(const DelassusProblem& p, const std::vector<Index>& offsets, const Eigen::VectorXd& rho, NcpFunction fn,
                const Eigen::VectorXd& u, const Eigen::VectorXd& r, Eigen::VectorXd& phi, Eigen::VectorXd& omega,
                Eigen::VectorXd& e) {
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = offsets[b];
    if (p.blocks[b].kind == BlockKind::kBilateral) {
      phi[i] = u[i];
      omega[i] = 1.0;
      e[i] = 0.0;
    } else if (p.blocks[b].kind == BlockKind::kUnilateral) {
      NcpRow row;
      unilateral_ncp(fn, u[i], r[i], rho[i], row);
      phi[i] = row.phi;
      omega[i] = row.omega;
      e[i] = row.e;
    } else {
      NcpRow rows[3];
      contact_ncp(fn, u.data() + i, r.data() + i, p.blocks[b].mu, rho[i], rho[i + 1], rows);
      for (int k = 0; k < 3; ++k) {
        phi[i + k] = rows[k].phi;
        omega[i + k] = rows[k].omega;
        e[i + k] = rows[k].e;
      }
    }
  }
  return 0.5 * phi.squaredNorm();
}

}  // namespace

NewtonSolver::NewtonSolver(Backend& backend, const NewtonOptions& options)
    : backend_(&backend), options_(options), cr_(backend) {
  require(options.stop.max_iterations >= 1, "NewtonSolver: max_iterations must be >= 1");
  require(options.line_search_steps >= 0, "NewtonSolver: line_search_steps must be >= 0");
}

NewtonSolver::~NewtonSolver() = default;

std::string NewtonSolver::name() const {
  return options_.function == NcpFunction::kMinMap ? "newton-minmap" : "newton-fb";
}

void NewtonSolver::check_supported(const DelassusProblem& problem) const {
  for (std::size_t b = 0; b < problem.blocks.size(); ++b)
    require(problem.blocks[b].kind != BlockKind::kContactBoxFriction,
            name() + ": block " + std::to_string(b) +
                " uses box friction, which the NCP functions do not model; use PgsSolver or a circular cone");
}

SolverReport NewtonSolver::do_solve(const DelassusProblem& p, Eigen::VectorXd& r) {
  SolverReport report;
  const Index m = p.rows();
  const std::vector<Index> offsets = block_offsets(p.blocks);
  const EigenCsr W = to_eigen(p.W);
  const Eigen::VectorXd diagW = Eigen::VectorXd(W.diagonal());
  // Complementarity preconditioner, eq. (28) with FCLIB's scaling: rho = W_jj for normal and
  // unilateral rows, the tangent mean for both friction rows.
  Eigen::VectorXd rho = diagW;
  for (std::size_t b = 0; b < p.blocks.size(); ++b) {
    const Index i = offsets[b];
    if (block_size(p.blocks[b].kind) == 3) rho[i + 1] = rho[i + 2] = 0.5 * (diagW[i + 1] + diagW[i + 2]);
  }
  for (Index i = 0; i < m; ++i) {
    if (!(rho[i] > 0.0)) {
      report.status = SolverStatus::kFailed;
      report.message = name() + ": W(" + std::to_string(i) + ", " + std::to_string(i) +
                       ") is not positive; the complementarity preconditioner (eq. 28) needs W_ii > 0";
      return report;
    }
  }
  DeviceCsr Wd = to_device(*backend_, p.W);
  DeviceArray<double> omega_d = backend_->allocate<double>(m), d_d = backend_->allocate<double>(m);
  DeviceArray<double> tmp_d = backend_->allocate<double>(m), rhs_d = backend_->allocate<double>(m);
  DeviceArray<double> y_d = backend_->allocate<double>(m), inv_d = backend_->allocate<double>(m);
  ScaledDelassusOperator op(*backend_, Wd, omega_d, d_d, tmp_d);

  Eigen::VectorXd u = W * r + p.q, phi(m), omega(m), e(m), z(m), rhs(m), d(m), inv(m), dr(m), Wdr(m);
  Eigen::VectorXd r_try(m), u_try(m), phi_try(m), omega_try(m), e_try(m);
  double psi = evaluate(p, offsets, rho, options_.function, u, r, phi, omega, e);
  report.error = natural_map_error(p, r, u).relative;
  const auto finish = [&](SolverStatus status, const std::string& message) {
    report.status = status;
    report.message = name() + ": " + message;
    report.states = block_states(p, r, u);
    return report;
  };
  if (report.error <= options_.stop.tolerance)
    return finish(SolverStatus::kConverged, "the warm start already solves it");

  for (int it = 0; it < options_.stop.max_iterations; ++it) {
    // Rows with omega = 0 are solved directly (dr_i = -phi_i / e_i, e_i > 0 there); the others
    // form the symmetric system (Omega W Omega + diag(e omega)) y = -phi - Omega W z.
    for (Index i = 0; i < m; ++i) {
      const bool direct = !(omega[i] > 1e-12);
      z[i] = direct ? -phi[i] / e[i] : 0.0;
      d[i] = direct ? 1.0 : e[i] * omega[i];
      if (direct) omega[i] = 0.0;
    }
    const Eigen::VectorXd Wz = W * z;
    for (Index i = 0; i < m; ++i) {
      rhs[i] = omega[i] > 0.0 ? -phi[i] - omega[i] * Wz[i] : 0.0;
      inv[i] = 1.0 / (omega[i] * omega[i] * diagW[i] + d[i]);
    }
    backend_->upload(omega.data(), m, omega_d);
    backend_->upload(d.data(), m, d_d);
    backend_->upload(rhs.data(), m, rhs_d);
    backend_->upload(inv.data(), m, inv_d);
    backend_->fill(y_d, 0.0);
    const KrylovResult inner = cr_.solve(op, rhs_d, y_d, options_.krylov, &inv_d);
    report.inner_iterations += inner.iterations;
    if (inner.status == KrylovStatus::kNonFinite)
      return finish(SolverStatus::kFailed, "conjugate residual produced non-finite values at Newton step " +
                                               std::to_string(it + 1) + ": " + inner.message);
    backend_->download(y_d, dr.data(), m);
    for (Index i = 0; i < m; ++i) dr[i] = omega[i] * dr[i] + z[i];
    Wdr = W * dr;

    // Backtracking on 1/2 ||phi||^2 (Armijo, sigma = 1e-4); the best trial is kept when none
    // satisfies Armijo (the friction split is a fixed-point Jacobian, not always a descent one).
    double alpha = 1.0, best_alpha = 1.0, best_psi = INFINITY;
    for (int ls = 0; ls <= options_.line_search_steps; ++ls, alpha *= 0.5) {
      r_try = r + alpha * dr;
      u_try = u + alpha * Wdr;
      const double psi_try = evaluate(p, offsets, rho, options_.function, u_try, r_try, phi_try, omega_try, e_try);
      if (psi_try < best_psi) {
        best_psi = psi_try;
        best_alpha = alpha;
      }
      if (psi_try <= (1.0 - 2e-4 * alpha) * psi) break;
    }
    if (!(best_psi < psi)) best_alpha = 1.0;  // no decrease anywhere: take the full step to move on
    r += best_alpha * dr;
    u += best_alpha * Wdr;
    psi = evaluate(p, offsets, rho, options_.function, u, r, phi, omega, e);
    report.iterations = it + 1;
    report.error = natural_map_error(p, r, u).relative;
    report.error_history.push_back(report.error);
    if (!std::isfinite(report.error))
      return finish(SolverStatus::kFailed, "non-finite iterate at Newton step " + std::to_string(it + 1));
    if (report.error <= options_.stop.tolerance)
      return finish(SolverStatus::kConverged, "converged in " + std::to_string(it + 1) + " Newton steps");
  }
  return finish(SolverStatus::kNotConverged, "natural-map error " + std::to_string(report.error) + " > tolerance " +
                                                 std::to_string(options_.stop.tolerance) + " after " +
                                                 std::to_string(report.iterations) + " Newton steps");
}

}  // namespace sinew::constraints
