#include "sinew/linalg/krylov.hpp"

#include <cmath>
#include <limits>
#include <string>
#include <utility>

#include "sinew/core/number_text.hpp"

namespace sinew {

KrylovResult KrylovSolver::solve(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x,
                                 const KrylovOptions& options, const DeviceArray<double>* inverse_diagonal) {
  const std::size_t n = static_cast<std::size_t>(A.rows());
  const std::string who = name() + ": ";
  if (b.size() != n || x.size() != n)
    throw Error(who + "b and x must have " + std::to_string(n) + " entries (the operator's size), got " +
                std::to_string(b.size()) + " and " + std::to_string(x.size()));
  if (inverse_diagonal && inverse_diagonal->size() != n)
    throw Error(who + "inverse diagonal has " + std::to_string(inverse_diagonal->size()) + " entries, expected " +
                std::to_string(n));
  if (!(options.tolerance >= 0.0) || options.max_iterations < 0)
    throw Error(who + "expected tolerance >= 0 and max_iterations >= 0");
  for (DeviceArray<double>& w : work_)
    if (w.size() != n) w = backend_->allocate<double>(n);

  KrylovResult result;
  const double b_norm = backend_->nrm2(b);
  auto residual = [&] {  // work(0) = b - A x, returns its norm
    A.apply(x, work(1));
    backend_->copy(b, work(0));
    backend_->axpby(-1.0, work(1), 1.0, work(0));
    return backend_->nrm2(work(0));
  };
  const double scale = b_norm > 0.0 ? b_norm : 1.0;
  if (b_norm == 0.0) {
    backend_->fill(x, 0.0);  // the exact solution
    result.status = KrylovStatus::kConverged;
    result.message = "b = 0: x = 0";
    return result;
  }
  const double r0 = residual();
  if (!std::isfinite(r0)) {
    result.status = KrylovStatus::kNonFinite;
    result.message = "the initial residual is not finite (NaN or infinity in A, b or x)";
  } else if (r0 <= options.tolerance * scale) {
    result.status = KrylovStatus::kConverged;
    result.message = "the initial guess already meets the tolerance";
  } else {
    iterate(A, b, x, options, inverse_diagonal, b_norm, result);
  }
  result.residual_norm = residual();
  result.relative_residual = result.residual_norm / scale;
  if (result.status == KrylovStatus::kConverged && result.relative_residual > 10.0 * options.tolerance) {
    result.status = KrylovStatus::kBreakdown;
    result.message = "the residual recurrence reached the tolerance but the true relative residual is " +
                     number_text(result.relative_residual, 4);
  }
  if (result.status == KrylovStatus::kMaxIterations)
    result.message = "did not converge in " + std::to_string(options.max_iterations) +
                     " iterations: relative residual " + number_text(result.relative_residual, 4) + " > " +
                     number_text(options.tolerance);
  return result;
}

void KrylovSolver::precondition(const DeviceArray<double>* inverse_diagonal, const DeviceArray<double>& r,
                                DeviceArray<double>& z) {
  if (inverse_diagonal) {
    backend_->multiply(*inverse_diagonal, r, z);
  } else {
    backend_->copy(r, z);
  }
}

bool KrylovSolver::record(double relative, const KrylovOptions& options, KrylovResult& result) {
  ++result.iterations;
  if (options.record_history) result.history.push_back(relative);
  if (!std::isfinite(relative)) {
    result.status = KrylovStatus::kNonFinite;
    result.message =
        "the residual became " + number_text(relative) + " at iteration " + std::to_string(result.iterations);
    return true;
  }
  if (relative <= options.tolerance) {
    result.status = KrylovStatus::kConverged;
    return true;
  }
  return false;
}

namespace {
void breakdown(KrylovResult& result, const std::string& what, double value) {
  result.status = std::isfinite(value) ? KrylovStatus::kBreakdown : KrylovStatus::kNonFinite;
  result.message = what + " = " + number_text(value) + " at iteration " + std::to_string(result.iterations + 1);
}
}  // namespace

void ConjugateGradient::iterate(LinearOperator& A, const DeviceArray<double>&, DeviceArray<double>& x,
                                const KrylovOptions& options, const DeviceArray<double>* Minv, double b_norm,
                                KrylovResult& result) {
  Backend& be = *backend_;
  DeviceArray<double>&r = work(0), &z = work(1), &p = work(2), &Ap = work(3);
  precondition(Minv, r, z);
  be.copy(z, p);
  double rz = be.dot(r, z);
  for (int it = 0; it < options.max_iterations; ++it) {
    A.apply(p, Ap);
    const double pAp = be.dot(p, Ap);
    if (!(pAp > 0.0)) return breakdown(result, "p^T A p (A must be positive definite)", pAp);
    const double alpha = rz / pAp;
    be.axpby(alpha, p, 1.0, x);
    be.axpby(-alpha, Ap, 1.0, r);
    if (record(be.nrm2(r) / b_norm, options, result)) return;
    precondition(Minv, r, z);
    const double rz_new = be.dot(r, z);
    if (!(rz_new > 0.0)) return breakdown(result, "r^T M^-1 r (the preconditioner must be positive)", rz_new);
    be.axpby(1.0, z, rz_new / rz, p);
    rz = rz_new;
  }
}

void ConjugateResidual::iterate(LinearOperator& A, const DeviceArray<double>&, DeviceArray<double>& x,
                                const KrylovOptions& options, const DeviceArray<double>* Minv, double b_norm,
                                KrylovResult& result) {
  Backend& be = *backend_;
  DeviceArray<double>&r = work(0), &z = work(1), &p = work(2), &Ap = work(3), &Az = work(4), &q = work(5);
  precondition(Minv, r, z);
  be.copy(z, p);
  A.apply(z, Az);
  be.copy(Az, Ap);
  double zAz = be.dot(z, Az);
  for (int it = 0; it < options.max_iterations; ++it) {
    precondition(Minv, Ap, q);
    const double denom = be.dot(Ap, q);
    if (!(denom > 0.0)) return breakdown(result, "(A p)^T M^-1 (A p)", denom);
    if (zAz == 0.0) return breakdown(result, "z^T A z", zAz);
    const double alpha = zAz / denom;
    be.axpby(alpha, p, 1.0, x);
    be.axpby(-alpha, Ap, 1.0, r);
    be.axpby(-alpha, q, 1.0, z);
    if (record(be.nrm2(r) / b_norm, options, result)) return;
    A.apply(z, Az);
    const double zAz_new = be.dot(z, Az);
    const double beta = zAz_new / zAz;
    zAz = zAz_new;
    be.axpby(1.0, z, beta, p);
    be.axpby(1.0, Az, beta, Ap);
  }
}

void Minres::iterate(LinearOperator& A, const DeviceArray<double>&, DeviceArray<double>& x,
                     const KrylovOptions& options, const DeviceArray<double>* Minv, double b_norm,
                     KrylovResult& result) {
  Backend& be = *backend_;
  // Lanczos vectors r1, r2, y; search directions w, w1, w2 (rotated by pointer); v.
  DeviceArray<double>*r1 = &work(0), *r2 = &work(5), *y = &work(1), *v = &work(6);
  DeviceArray<double>*w = &work(2), *w1 = &work(3), *w2 = &work(4);
  const double r0_norm = be.nrm2(*r1);
  precondition(Minv, *r1, *y);
  const double ry = be.dot(*r1, *y);
  if (!(ry > 0.0)) return breakdown(result, "r^T M^-1 r (the preconditioner must be positive)", ry);
  const double beta1 = std::sqrt(ry);
  be.copy(*r1, *r2);
  be.fill(*w, 0.0);
  be.fill(*w2, 0.0);
  double oldb = 0.0, beta = beta1, dbar = 0.0, epsln = 0.0, phibar = beta1, cs = -1.0, sn = 0.0;
  for (int it = 0; it < options.max_iterations; ++it) {
    // Lanczos step: v = y / beta, y = A v - (beta / oldb) r1 - (alfa / beta) r2.
    be.copy(*y, *v);
    be.scale(1.0 / beta, *v);
    A.apply(*v, *y);
    if (it > 0) be.axpby(-beta / oldb, *r1, 1.0, *y);
    const double alfa = be.dot(*v, *y);
    be.axpby(-alfa / beta, *r2, 1.0, *y);
    std::swap(r1, r2);
    be.copy(*y, *r2);
    precondition(Minv, *r2, *y);
    oldb = beta;
    const double r2y = be.dot(*r2, *y);
    if (r2y < 0.0) return breakdown(result, "r^T M^-1 r (the preconditioner must be positive)", r2y);
    beta = std::sqrt(r2y);
    // Apply the previous rotation, then make the next one (QR of the tridiagonal matrix).
    const double oldeps = epsln;
    const double delta = cs * dbar + sn * alfa;
    const double gbar = sn * dbar - cs * alfa;
    epsln = sn * beta;
    dbar = -cs * beta;
    const double gamma = std::max(std::hypot(gbar, beta), std::numeric_limits<double>::min());
    cs = gbar / gamma;
    sn = beta / gamma;
    const double phi = cs * phibar;
    phibar *= sn;
    // w = (v - oldeps w1 - delta w2) / gamma with (w1, w2) <- (w2, w).
    std::swap(w1, w2);
    std::swap(w2, w);
    be.copy(*v, *w);
    be.axpby(-oldeps, *w1, 1.0, *w);
    be.axpby(-delta, *w2, 1.0, *w);
    be.scale(1.0 / gamma, *w);
    be.axpby(phi, *w, 1.0, x);
    // phibar is the M^-1-norm of the residual; scale it to an estimate of ||r|| / ||b||.
    if (record(phibar / beta1 * r0_norm / b_norm, options, result)) return;
    if (beta == 0.0) {  // the Krylov space is exhausted: x is exact
      result.status = KrylovStatus::kConverged;
      return;
    }
  }
}

}  // namespace sinew
