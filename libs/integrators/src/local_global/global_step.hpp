// The global step of LocalGlobalIntegrator (private): q = A^-1 b with A = A_s (x) I_3 (seed
// eq. (6)), constant over the run, so built and factored once (Sec. 3.3). Three methods share one
// interface: the sparse inverse of eq. (8), CHOLMOD's substitutions and Jacobi sweeps.
#pragma once

#include <memory>

#include "sinew/core/backend.hpp"
#include "sinew/core/device_array.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/sparse_inverse.hpp"

namespace sinew::integrators::detail {

/// Solves A q = b (eq. (6)) on a backend for the constant A = A_s (x) I_3 it was built from.
class GlobalStep {
 public:
  virtual ~GlobalStep() = default;
  /// q (3n) from b (3n). q holds the previous iterate on entry: Jacobi starts from it.
  virtual void solve(const DeviceArray<double>& b, DeviceArray<double>& q) = 0;
  /// Bytes one solve() moves on the backend; 0 where it runs on the host (CHOLMOD).
  virtual double bytes_per_apply() const = 0;
  /// A_s^-1 = S'^T S' when this step has it (contact and cables need its factor S'), else null.
  virtual const SparseInverse* sparse_inverse() const { return nullptr; }
  /// The backend operator of sparse_inverse(), else null.
  virtual SparseInverseOperator* sparse_inverse_operator() { return nullptr; }
};

/// The global step @p options selects (LocalGlobalOptions::global_step) for the scalar system
/// matrix @p As (n x n, symmetric positive definite), on @p backend (kept by reference).
std::unique_ptr<GlobalStep> make_global_step(Backend& backend, const CsrMatrix& As, const LocalGlobalOptions& options);

}  // namespace sinew::integrators::detail
