// The bending of LocalGlobalIntegrator's triangles (private; LocalGlobalDescription::bending,
// BendingModel states the two forms): the constant rows G_b (one per interior edge for the
// quadratic form, K_e; one per interior vertex for the Laplace-Beltrami form, the cotangent
// Laplacian) with their weights W_r, their share h^2 sum W_r G_r^T G_r of A (eq. (6)), and per
// L-G iteration the local pass (bending_kernels.hpp), its h^2 G_b^T p_w share of b and its energy.
#pragma once

#include <Eigen/SparseCore>
#include <cstddef>
#include <string>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::integrators::detail {

/// The bending rows of one LocalGlobalIntegrator; empty with BendingModel::kNone.
class BendingElements {
 public:
  /// Checks description.bending and bending_stiffness against the triangles (which
  /// TriangleElements::check() has checked: indices and non-degenerate rest triangles) and builds
  /// the rows. @throws sinew::Error prefixed by @p who naming the field: bending without
  /// triangles, a stiffness not finite or < 0, an edge of more than two triangles, a triangle
  /// given twice, a mesh without an interior edge (quadratic) or vertex (Laplace-Beltrami).
  void build(const LocalGlobalDescription& d, Index n, const std::string& who);
  /// Number of rows (0 without bending).
  std::size_t size() const { return weights_.size(); }
  /// Appends h^2 W_r G_r^T G_r to @p triplets (A_s) and W_r (G_r^T G_r)_vv to
  /// @p elastic_diagonal (n, what automatic pin weights scale with).
  void assemble(double h, std::vector<Eigen::Triplet<double, Index>>& triplets,
                std::vector<double>& elastic_diagonal) const;
  /// Uploads the rows and allocates the per-iteration arrays on @p backend.
  void upload(Backend& backend);
  /// y = G_b x and the kernel in LocalMode @p mode. The quadratic form has nothing to project
  /// (p = 0), so it runs only when the mode asks for the energy.
  void local_pass(Backend& backend, int mode, const DeviceArray<double>& x);
  /// b = alpha G_b^T p_w + b (the Laplace-Beltrami form's share of the right-hand side; the
  /// quadratic form has none).
  void add_rhs(Backend& backend, double alpha, DeviceArray<double>& b);
  /// Sum of the row energies of the last pass that computed them.
  double energy(Backend& backend);
  /// E_b(x) and its gradient G_b^T W (G_b x - p(x)) into @p gradient (3n), on @p backend.
  double energy_and_gradient(Backend& backend, const DeviceArray<double>& x, DeviceArray<double>& gradient);

 private:
  void run_kernel(Backend& backend, int mode, bool residual, const DeviceArray<double>& x);
  bool projects_ = false;          // Laplace-Beltrami: p_r from the rest norms; quadratic: p = 0
  CsrMatrix G_host_;               // (rows x n) the stencils
  std::vector<double> weights_;    // (rows) W_r
  std::vector<double> rest_norm_;  // (rows) |G_r x_rest| (Laplace-Beltrami only)
  DeviceCsr G_;
  DeviceArray<double> weights_dev_, rest_norm_dev_;
  DeviceArray<double> Gx_, p_w_;       // (3 rows)
  DeviceArray<double> energy_, ones_;  // (rows)
};

}  // namespace sinew::integrators::detail
