// The Delassus operator of LocalGlobalIntegrator's constrained global step (private): the scalar
// Schur complement C = P S'^T S' P^T at the constrained vertices, by sparse products or by a dense
// panel product, and its expansion into W = H S'^T S' H^T (local_global_contact.hpp, "Where the
// work runs", states the choice; local_global_delassus.cpp the algorithms).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global_contact.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::integrators::detail {

/// One contact of a step: a (vertex, obstacle) pair and its frame.
struct VertexContact {
  Index vertex;   ///< vertex of the solid
  int obstacle;   ///< index into the obstacles
  Vec3 frame[3];  ///< n, t1, t2 (world frame)
};

/// (active cables) H's entries of each pulled cable's row: (vertex, dL/dx_vertex), by vertex.
using CableRows = std::vector<std::vector<std::pair<Index, Vec3>>>;

/// C = P S'^T S' P^T (nv x nv, dense row-major, exactly symmetric) for ascending vertices; its
/// buffers are kept between steps and only grow.
class SchurComplement {
 public:
  /// @p S = S' and @p St = S'^T (n x n) on @p backend, kept by reference; @p S_host = S' on the host.
  SchurComplement(Backend& backend, const DeviceCsr& S, const DeviceCsr& St, const CsrMatrix& S_host);
  /// Whether @p mode (kAuto resolved by backend, size and density) computes C densely for @p verts.
  bool dense_for(SchurAssembly mode, const std::vector<Index>& verts) const;
  /// C for the ascending vertices @p verts (nv), by the path dense_for(@p mode, verts) picks.
  void compute(SchurAssembly mode, const std::vector<Index>& verts);
  /// (nv x nv) C, row-major, from the last compute().
  const std::vector<double>& c() const { return C_; }
  /// (nv) the elimination-tree root of each vertex of the last compute(): C_ab is structurally
  /// non-zero exactly when a and b share a root (their paths in S' meet).
  const std::vector<Index>& roots() const { return col_root_; }
  /// Elimination-tree root of vertex @p v (the last row of column v of S').
  Index root(Index v) const { return root_[v]; }
  /// Number of vertices of the last compute().
  Index size() const { return nv_; }

 private:
  void sparse(const std::vector<Index>& verts);
  void dense(const std::vector<Index>& verts);

  Backend* be_;
  const DeviceCsr* S_;
  const DeviceCsr* St_;
  Index n_;
  std::vector<Index> root_;      // (n) root of each vertex's path in S' (its largest row)
  Index nv_ = 0;                 // vertices of the last compute()
  std::vector<double> C_;        // (nv x nv) row-major
  std::vector<Index> col_root_;  // (nv) root per column
  // Dense path workspace: rows of S' shared by >= a quarter of the columns form the panel.
  std::vector<Index> count_;       // (n) columns per row of S'
  std::vector<Index> panel_of_;    // (n) panel row of a row of S', -1 when sparse
  std::vector<Index> sparse_ptr_;  // (n + 1) offsets of the sparse rows' entries
  std::vector<Index> sparse_col_;  // entries of the sparse rows: column (ascending per row)
  std::vector<double> sparse_val_;
  std::vector<Index> entry_slot_;  // (entries of the gathered columns) slot in its sparse row, -1 in the panel
  std::vector<Index> column_ptr_;  // (nv + 1) offsets of each gathered column's entries
  std::vector<double> panel_;      // (panel rows x nv) column-major
  std::vector<Index> col_of_row_;  // (n) sparse path: column of a vertex, -1 if none
  std::vector<std::pair<Index, Index>> tiles_;  // (I, J) tile pairs with I <= J
};

/// Expands C into W (3 nc + na square, CSR; row (j, i) is frame vector i of contact j, then the
/// pulled cables' rows): W_(j,i),(k,l) = C_ab f_ji . f_kl over the contacts k whose vertex shares
/// a's root, W_(j,i),t = sum_(w,g) C_aw f_ji . g, W_t,s = sum_(v,g) sum_(w,f) C_vw g . f (upper
/// triangle mirrored). @p col_of_vertex (n) maps a vertex to its column of C. W's arrays are
/// reused when its size does not change; @p diag (3 nc + na) gets W's diagonal.
void expand_delassus(Backend& backend, const SchurComplement& schur, const std::vector<Index>& col_of_vertex,
                     const std::vector<VertexContact>& contacts, const CableRows& cables, DeviceCsr& W,
                     std::vector<double>& diag);

}  // namespace sinew::integrators::detail
