/// @file
/// @brief Krylov solvers written once against sinew::Backend: conjugate gradient (with optional
/// Jacobi preconditioning), conjugate residual and MINRES, each with a tolerance, an iteration
/// limit, a residual history and an explicit "did not converge" result.
#pragma once

#include <Eigen/Core>
#include <string>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/linear_operator.hpp"

namespace sinew {

/// Stopping rules shared by the Krylov solvers.
struct KrylovOptions {
  /// Relative residual ||b - A x|| / ||b|| to reach; 1e-10 is well above round-off for the
  /// well-conditioned systems of implicit steps and tight enough for Newton inner solves.
  double tolerance = 1e-10;
  /// Iteration limit; 1000 is generous for preconditioned systems of up to ~10^6 unknowns.
  int max_iterations = 1000;
  /// Record the relative residual of every iteration (cheap: one double per iteration).
  bool record_history = true;
};

/// How a Krylov solve ended.
enum class KrylovStatus {
  kConverged,      ///< the relative residual reached the tolerance
  kMaxIterations,  ///< the iteration limit was reached first: did not converge
  kBreakdown,      ///< a division by a zero or negative curvature (A or M not as required)
  kNonFinite       ///< NaN or infinity appeared in the iteration
};

/// Outcome of a Krylov solve; x holds the last iterate whatever the status.
struct KrylovResult {
  KrylovStatus status = KrylovStatus::kMaxIterations;  ///< how it ended
  int iterations = 0;                                  ///< iterations performed
  double residual_norm = 0.0;                          ///< ||b - A x|| of the returned x, recomputed at the end
  double relative_residual = 0.0;                      ///< residual_norm / ||b|| (residual_norm when b = 0)
  std::vector<double> history;                         ///< relative residual estimate after each iteration
  std::string message;                                 ///< what happened, e.g. why it did not converge

  /// True when status is kConverged.
  bool converged() const { return status == KrylovStatus::kConverged; }
};

/// Common workspace and checks of the Krylov solvers: each solver keeps its vectors between
/// solves, so repeated solves of the same size allocate nothing.
class KrylovSolver {
 public:
  virtual ~KrylovSolver() = default;
  /// A solver on @p backend.
  explicit KrylovSolver(Backend& backend) : backend_(&backend) {}

  /// Solves A x = b starting from the given x (n = A.rows() entries each). With
  /// @p inverse_diagonal (n positive entries, e.g. 1 / diag(A)), the solve is preconditioned by
  /// M^-1 = diag(inverse_diagonal). Vectors live on this solver's backend. Throws sinew::Error
  /// on size mismatches, tolerance < 0 or max_iterations < 0 only; numerical trouble is reported
  /// in the result.
  KrylovResult solve(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x,
                     const KrylovOptions& options = {}, const DeviceArray<double>* inverse_diagonal = nullptr);
  /// Short name, e.g. "cg".
  virtual std::string name() const = 0;

 protected:
  /// The iteration itself; vectors are sized, x holds the initial guess, r = b - A x.
  virtual void iterate(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x,
                       const KrylovOptions& options, const DeviceArray<double>* inverse_diagonal, double b_norm,
                       KrylovResult& result) = 0;
  /// A work vector of n entries (index < 8), kept between solves.
  DeviceArray<double>& work(int index) { return work_[index]; }
  /// z = M^-1 r (a copy when there is no preconditioner).
  void precondition(const DeviceArray<double>* inverse_diagonal, const DeviceArray<double>& r, DeviceArray<double>& z);
  /// Records one iteration's relative residual; returns true when it has converged and sets the
  /// status to kNonFinite when it is not a number.
  bool record(double relative, const KrylovOptions& options, KrylovResult& result);

  Backend* backend_;  ///< where the vectors live

 private:
  DeviceArray<double> work_[8];
};

/// Conjugate gradient for symmetric positive-definite A (Hestenes-Stiefel), Jacobi-
/// preconditioned when an inverse diagonal is given. Reports a breakdown when p^T A p <= 0.
class ConjugateGradient final : public KrylovSolver {
 public:
  using KrylovSolver::KrylovSolver;
  std::string name() const override { return "cg"; }

 protected:
  void iterate(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x, const KrylovOptions& options,
               const DeviceArray<double>* inverse_diagonal, double b_norm, KrylovResult& result) override;
};

/// Conjugate residual for symmetric A (minimises ||b - A x|| over the Krylov space; the
/// constraint-space solver of the real-time hyperelastic paper, Section 5), optionally
/// preconditioned by a positive diagonal.
class ConjugateResidual final : public KrylovSolver {
 public:
  using KrylovSolver::KrylovSolver;
  std::string name() const override { return "cr"; }

 protected:
  void iterate(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x, const KrylovOptions& options,
               const DeviceArray<double>* inverse_diagonal, double b_norm, KrylovResult& result) override;
};

/// MINRES (Paige and Saunders, 1975) for symmetric, possibly indefinite A (KKT systems),
/// optionally preconditioned by a positive diagonal.
class Minres final : public KrylovSolver {
 public:
  using KrylovSolver::KrylovSolver;
  std::string name() const override { return "minres"; }

 protected:
  void iterate(LinearOperator& A, const DeviceArray<double>& b, DeviceArray<double>& x, const KrylovOptions& options,
               const DeviceArray<double>* inverse_diagonal, double b_norm, KrylovResult& result) override;
};

/// Solves A x = b by conjugate gradient on @p backend from host data, in one call: uploads @p A,
/// @p b, the initial guess @p x (empty: zero) and @p inverse_diagonal (a Jacobi preconditioner
/// of n positive entries, or null), runs ConjugateGradient and downloads the last iterate into
/// @p x. With make_serial_backend() (core/serial_backend.hpp) it needs no backend registry.
/// @throws sinew::Error when A is not square or b, x or the diagonal have the wrong size.
KrylovResult conjugate_gradient(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options = {}, const Eigen::VectorXd* inverse_diagonal = nullptr);

/// conjugate_gradient() with ConjugateResidual (symmetric A).
KrylovResult conjugate_residual(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                                const KrylovOptions& options = {}, const Eigen::VectorXd* inverse_diagonal = nullptr);

/// conjugate_gradient() with Minres (symmetric, possibly indefinite A).
KrylovResult minres(Backend& backend, const CsrMatrix& A, const Eigen::VectorXd& b, Eigen::VectorXd& x,
                    const KrylovOptions& options = {}, const Eigen::VectorXd* inverse_diagonal = nullptr);

}  // namespace sinew
