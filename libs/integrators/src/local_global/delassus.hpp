// The Delassus operator of LocalGlobalIntegrator's constrained global step (private): the scalar
// Schur complement C = P S'^T S' P^T at the constrained vertices, by sparse products or by a dense
// panel product, and its expansion into W = H S'^T S' H^T (local_global_contact.hpp, "Where the
// work runs", states the choice; delassus.cpp the algorithms).
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global_contact.hpp"
#include "sinew/linalg/csr_matrix.hpp"

namespace sinew::integrators::detail {

/// One contact of a step: a vertex against an obstacle or against another body's surface
/// triangle, and its frame. Its three rows of H are frame vector i times the relative
/// displacement x_vertex - sum_k bary_k x_tri[k] (vertex_triangle_contacts.hpp): one vertex
/// against an obstacle, four against a triangle.
struct VertexContact {
  Index vertex;  ///< vertex of the solid (an edge-edge contact: edge a's first vertex)
  /// Key of the other side: an obstacle index in [0, obstacles), obstacles + the index of a
  /// body-contact triangle, obstacles + triangles + the index of an edge b (edge-edge, with
  /// tri[0] = a's second vertex completing the key), or obstacles + triangles + edges + the index of
  /// an obstacle feature (obstacle_features.hpp; a feature edge's with tri[0] = the body edge's second
  /// vertex completing the key). Contacts are ordered by (vertex, obstacle,
  /// tri[0]), and the warm start matches contacts of consecutive steps by it.
  int obstacle;
  Vec3 frame[3];                     ///< n, t1, t2 (world frame)
  Index tri[3] = {-1, -1, -1};       ///< the triangle's vertices (body contact), -1 against an obstacle;
                                     ///< edge-edge: a's second vertex, b's two vertices; an
                                     ///< obstacle feature on a body's surface (obstacle_features.hpp):
                                     ///< the surface point's other vertices, then -1
  double bary[3] = {0.0, 0.0, 0.0};  ///< barycentric weights of the triangle's closest point;
                                     ///< edge-edge: -s, 1 - t, t (weights -bary on tri)
  double self = 1.0;                 ///< weight of vertex in the rows: 1, 1 - s on edge a, or its weight
                                     ///< in an obstacle feature's surface point
};

/// Most vertices of one contact row (a vertex and a triangle).
constexpr int kMaxContactVertices = 4;

/// The entries of @p c's rows: vertices @p v (ascending) with weights @p w (self on the contact
/// vertex, -bary on tri's up to the first -1; 1 on a vertex against an obstacle); returns their
/// count, 1 to 4.
int contact_entries(const VertexContact& c, Index* v, double* w);

/// Contacts grouped by the elimination-tree roots of their vertices: two contacts share a group
/// when their vertices' roots are connected (a body contact joins the two bodies' roots), since
/// C_ab = 0 structurally between vertices of different roots. @p root_of (n) gives each vertex's
/// root; @p group (contacts) receives 0 ... groups - 1, numbered in order of first contact.
/// Returns the number of groups.
Index contact_groups(const std::vector<VertexContact>& contacts, const std::vector<Index>& root_of,
                     std::vector<Index>& group);

/// (active cables) H's entries of each pulled cable's row: (vertex, dL/dx_vertex), by vertex.
using CableRows = std::vector<std::vector<std::pair<Index, Vec3>>>;

/// Whether two steps' contacts give the same rows of H, hence (with the same cable rows) the same
/// W bit for bit: the same vertices, keys, frames and weights, compared exactly.
bool same_delassus_rows(const std::vector<VertexContact>& a, const std::vector<VertexContact>& b);
/// Whether two steps' pulled cables give the same rows of H, compared exactly.
bool same_delassus_rows(const CableRows& a, const CableRows& b);

/// C = P S'^T S' P^T (nv x nv, dense row-major, exactly symmetric) for ascending vertices; its
/// buffers are kept between steps and only grow.
class SchurComplement {
 public:
  /// @p S = S' and @p St = S'^T (n x n) on @p backend, kept by reference; @p S_host = S' on the host.
  SchurComplement(Backend& backend, const DeviceCsr& S, const DeviceCsr& St, const CsrMatrix& S_host);
  /// Whether @p mode (kAuto resolved by backend, size and density) computes C densely for @p verts.
  bool dense_for(SchurAssembly mode, const std::vector<Index>& verts) const;
  /// C for the ascending vertices @p verts (nv), by the path dense_for(@p mode, verts) picks. With
  /// @p reuse, the last C is kept when verts are the last compute()'s (S' does not change, so
  /// neither does C); returns whether C was computed.
  bool compute(SchurAssembly mode, const std::vector<Index>& verts, bool reuse);
  /// (nv x nv) C, row-major, from the last compute().
  const std::vector<double>& c() const { return C_; }
  /// (nv) the elimination-tree root of each vertex of the last compute(): C_ab is structurally
  /// non-zero exactly when a and b share a root (their paths in S' meet).
  const std::vector<Index>& roots() const { return col_root_; }
  /// Elimination-tree root of vertex @p v (the last row of column v of S').
  Index root(Index v) const { return root_[v]; }
  /// (n) the elimination-tree root of every vertex.
  const std::vector<Index>& vertex_roots() const { return root_; }
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
  std::vector<Index> verts_;     // (nv) and those vertices
  bool computed_ = false;        // whether C_ holds the C of verts_
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
/// pulled cables' rows): W_(j,i),(k,l) = K_jk f_ji . f_kl with K_jk = sum_(a in j) sum_(b in k)
/// w_a w_b C_ab (contact_entries(); K_jk = C_ab for two single-vertex contacts) over the contacts
/// k of j's group (contact_groups()), W_(j,i),t = sum_(a in j) w_a sum_(w,g) C_aw f_ji . g,
/// W_t,s = sum_(v,g) sum_(w,f) C_vw g . f (upper triangle mirrored). @p col_of_vertex (n) maps a vertex to its column
/// of C. W's arrays are reused when its size does not change; @p diag (3 nc + na) gets W's diagonal.
void expand_delassus(Backend& backend, const SchurComplement& schur, const std::vector<Index>& col_of_vertex,
                     const std::vector<VertexContact>& contacts, const CableRows& cables, DeviceCsr& W,
                     std::vector<double>& diag);

}  // namespace sinew::integrators::detail
