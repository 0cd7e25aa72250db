// Krylov solves from host data in one call (krylov.hpp): upload, solve, download.
#include <string>
#include <vector>

#include "sinew/core/error.hpp"
#include "sinew/linalg/krylov.hpp"

namespace sinew {
namespace {

std::vector<double> host(const Eigen::VectorXd& v) { return std::vector<double>(v.data(), v.data() + v.size()); }

template <class Solver>
KrylovResult solve_on(const char* who, Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b,
                      Eigen::VectorXd& x, const KrylovOptions& options, const Eigen::VectorXd* inverse_diagonal) {
  const Index n = A.rows;
  require(A.cols == n, [&] {
    return std::string(who) + ": expected a square matrix, got " + std::to_string(A.rows) + " x " +
           std::to_string(A.cols);
  });
  require(b.size() == n, [&] {
    return std::string(who) + ": b has " + std::to_string(b.size()) + " entries, expected " + std::to_string(n);
  });
  require(x.size() == 0 || x.size() == n, [&] {
    return std::string(who) + ": x has " + std::to_string(x.size()) + " entries, expected " + std::to_string(n) +
           " (or 0: start from zero)";
  });
  if (inverse_diagonal && inverse_diagonal->size() != n)
    throw Error(std::string(who) + ": the inverse diagonal has " + std::to_string(inverse_diagonal->size()) +
                " entries, expected " + std::to_string(n));
  if (x.size() == 0) x.setZero(n);
  const DeviceCsr device_A = to_device(backend, A);
  CsrOperator op(backend, device_A);
  const DeviceArray<double> device_b = backend.upload(host(b));
  DeviceArray<double> device_x = backend.upload(host(x));
  DeviceArray<double> diagonal;
  if (inverse_diagonal) diagonal = backend.upload(host(*inverse_diagonal));
  Solver solver(backend);
  KrylovResult result = solver.solve(op, device_b, device_x, options, inverse_diagonal ? &diagonal : nullptr);
  const std::vector<double> out = backend.download(device_x);
  x = Eigen::Map<const Eigen::VectorXd>(out.data(), static_cast<Eigen::Index>(out.size()));
  return result;
}

}  // namespace

KrylovResult conjugate_gradient(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options, const Eigen::VectorXd* inverse_diagonal) {
  return solve_on<ConjugateGradient>("conjugate_gradient", backend, A, b, x, options, inverse_diagonal);
}

KrylovResult conjugate_residual(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options, const Eigen::VectorXd* inverse_diagonal) {
  return solve_on<ConjugateResidual>("conjugate_residual", backend, A, b, x, options, inverse_diagonal);
}

KrylovResult minres(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                    const KrylovOptions& options, const Eigen::VectorXd* inverse_diagonal) {
  return solve_on<Minres>("minres", backend, A, b, x, options, inverse_diagonal);
}

}  // namespace sinew
