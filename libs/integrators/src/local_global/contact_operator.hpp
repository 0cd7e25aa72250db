// The Delassus operator of LocalGlobalIntegrator's constrained global step applied through its
// sparse factors (private): W r = G (C (x) I_3) G^T r with C = Y Z, Y = P S'^T, Z = S' P^T, instead
// of the stored W of delassus.hpp. local_global_contact.hpp ("Where the work runs")
// states when each form is used.
#pragma once

#include <cstddef>
#include <vector>

#include "delassus.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/linalg/csr_matrix.hpp"
#include "sinew/linalg/linear_operator.hpp"

namespace sinew::integrators::detail {

/// W = H A^-1 H^T = G (C (x) I_3) G^T as a LinearOperator on a Backend, where the nv constrained
/// vertices (ascending) are selected by P, G = H P_3^T (m x 3 nv: H with its columns restricted to
/// those vertices' xyz) and C = Y Z (nv x nv) with Y = P S'^T (nv x n: the rows of S'^T at the
/// vertices) and Z = Y^T. One apply is four products on the backend, in a fixed order (the same
/// bits on every host backend and thread count):
///   X = G^T r (3 nv),  T = Z X (n x 3, spmv3),  X = Y T (nv x 3, spmv3),  y = G X (m).
/// Its cost is about 2 nnz(Y) multi-vector entries and 2 nnz(G) scalar ones, against nnz(W) =
/// 9 nc^2 for the stored W of one connected mesh (whose every elimination-tree path meets the root).
class DelassusOperator final : public LinearOperator {
 public:
  /// @p St = S'^T (n x n) host view (rows of S'^T: columns of S'), kept by reference.
  DelassusOperator(Backend& backend, const CsrRef& St_host);
  /// Number of entries of Y for the ascending vertices @p verts: sum of their column counts of S'.
  std::size_t y_entries(const std::vector<Index>& verts) const;
  /// Builds G, Y, Z for the ascending vertices @p verts, @p col_of_vertex (n: column of each
  /// vertex in @p verts, -1 otherwise) and the constraint rows @p H (m x 3n, host, columns in the
  /// vertices' xyz); @p contacts and @p cables give the rows' structure for diag(W): @p diag (m)
  /// gets W_(j,i),(j,i) = K_jj f_ji . f_ji on contact rows (K_jj = C_aa = ||Y_a||^2 for one
  /// vertex, sum_ab w_a w_b C_ab over a body contact's four, contact_entries()) and
  /// sum_(v,g),(w,f) C_vw g . f on cable rows. Arrays are reused while their sizes hold.
  void build(const std::vector<Index>& verts, const std::vector<Index>& col_of_vertex, const CsrMatrix& H,
             const std::vector<VertexContact>& contacts, const CableRows& cables, std::vector<double>& diag);
  /// Rows m of W.
  Index rows() const override { return G_.rows; }
  /// y = W x (x, y: m entries on the backend, distinct).
  void apply(const DeviceArray<double>& x, DeviceArray<double>& y) override;

 private:
  // C_vw = row v of S'^T . row w of S'^T (merge of two ascending rows).
  double c_entry(Index v, Index w) const;

  Backend* be_;
  CsrRef St_;                   // (n x n) S'^T on the host
  CsrMatrix y_host_, z_host_;   // Y (nv x n), Z (n x nv)
  CsrMatrix g_host_, gt_host_;  // G (m x 3 nv), G^T (3 nv x m)
  std::vector<Index> cursor_;   // (n) transposition cursors
  std::vector<double> c_diag_;  // (nv) C_aa
  DeviceCsr Y_, Z_, G_, Gt_;    // on the backend
  DeviceArray<double> X_, T_;   // (3 nv), (3 n) scratch
};

}  // namespace sinew::integrators::detail
