// C = P S'^T S' P^T and W = H S'^T S' H^T for LocalGlobalIntegrator's constrained global step.
//
// Every contact row of H touches one vertex, so W_(j,i),(k,l) = C_ab (f_ji . f_kl) with P
// selecting the constrained vertices a, b (nv of them) and f the frame vectors; a cable row
// touches its K vertices with gradients g_v, so its entries are sums of C_vw g_v . f. Column a of
// S' is non-zero exactly on the path from a to its elimination-tree root (Theorem 1), so C_ab is
// non-zero exactly when a and b share a root: C is dense on one connected mesh.
//
// Sparse path (every backend): Y = P S'^T (nv x n), Z = S' P^T (n x nv), C = Y Z, three sparse
// products on the backend (symbolic phases on the host); C's numeric phase is a dense-accumulator
// row product on host backends (the same bits as spgemm_numeric, 7.5x faster on the 16x16x8
// bench block). Its cost grows like the symbolic product's nv^2 index work and scattered sums.
//
// Dense path (host backends): the gathered columns Z = S' P^T split by rows of S'. A row shared
// by at least a quarter of the columns (the separators near the root of nested dissection, which
// every path crosses) goes into a dense panel Zd (rows x nv), and C = Zd^T Zd is a GEMM (Eigen)
// in fixed 128 x 128 tiles of the upper triangle; the other rows add their outer products
// z_k z_k^T row by row of C. Each tile and each row of C is computed by one task in a fixed
// order, so C has the same bits on every host backend and thread count; the upper triangle is
// mirrored, so C is exactly symmetric.
#include "delassus.hpp"

#include <Eigen/Core>
#include <algorithm>
#include <cmath>
#include <limits>
#include <string>

#include "sinew/core/error.hpp"

namespace sinew::integrators::detail {

namespace {

// kAuto: the dense path from this many vertices and this fraction of structurally non-zero C.
// Measured (local_global_bench --schur=sparse,dense, serial, a block resting on a plane): the
// dense path took half the sparse path's time at 16, 25 and 49 contact vertices (0.05 vs 0.10,
// 0.06 vs 0.12, 0.20 vs 0.42 ms) and 3.3x, 5.4x, 7.3x less at 81, 289, 625 (0.50 vs 1.66, 10 vs
// 54, 45 vs 326 ms). Below 16 both take microseconds. The density bound is not measured: the
// dense path's extra work grows like 1 / density (products of columns of different trees are
// zeros), so at a quarter it is still ahead of the sparse path by the margins above.
constexpr Index kDenseMinVertices = 16;
constexpr double kDenseMinDensity = 0.25;
// A row of S' joins the dense panel when at least this fraction of the columns share it.
constexpr double kPanelFraction = 0.25;
// Tile of C computed by one GEMM (fixed: the bits must not depend on the thread count).
constexpr Index kTile = 128;

// A single-entry-per-row selection matrix (rows x cols) with ones at (i, cols_of_row[i]) (-1 = empty row).
CsrMatrix selection(Index rows, Index cols, const std::vector<Index>& col_of_row) {
  CsrMatrix P;
  P.rows = rows;
  P.cols = cols;
  P.row_ptr.assign(static_cast<std::size_t>(rows) + 1, 0);
  for (Index i = 0; i < rows; ++i) {
    P.row_ptr[i + 1] = P.row_ptr[i];
    if (col_of_row[i] >= 0) {
      P.col_idx.push_back(col_of_row[i]);
      P.values.push_back(1.0);
      ++P.row_ptr[i + 1];
    }
  }
  return P;
}

// C = Y Z into C's pattern with a dense accumulator per row (host backends). The generic
// spgemm_numeric finds each product's slot by a binary search in C's row; here the slot is the
// column itself. The products are summed in the same order as spgemm_numeric's (by Y's entries,
// then Z's), so the values are the same bits.
class DenseRowProduct final : public RangeKernel {
 public:
  DenseRowProduct(const DeviceCsr& Y, const DeviceCsr& Z, DeviceCsr& C)
      : Y_(Y.ref()), Z_(Z.ref()), c_ptr_(C.row_ptr.data()), c_col_(C.col_idx.data()), c_val_(C.values.data()) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    std::vector<double> acc(static_cast<std::size_t>(Z_.cols), 0.0);  // (cols of C) one row, zero between rows
    for (std::size_t i = begin; i < end; ++i) {
      for (Index ka = Y_.row_ptr[i]; ka < Y_.row_ptr[i + 1]; ++ka) {
        const double a = Y_.values[ka];
        const Index k = Y_.col_idx[ka];
        for (Index kb = Z_.row_ptr[k]; kb < Z_.row_ptr[k + 1]; ++kb) acc[Z_.col_idx[kb]] += a * Z_.values[kb];
      }
      for (Index p = c_ptr_[i]; p < c_ptr_[i + 1]; ++p) {
        c_val_[p] = acc[c_col_[p]];
        acc[c_col_[p]] = 0.0;
      }
    }
  }

 private:
  CsrRef Y_, Z_;
  const Index* c_ptr_;
  const Index* c_col_;
  double* c_val_;
};

using RowMajor = Eigen::Matrix<double, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

// C[I, J] = Zd[:, I]^T Zd[:, J] for the listed tile pairs (I <= J), one GEMM per tile.
class PanelTiles final : public RangeKernel {
 public:
  PanelTiles(const double* panel, Index rows, const std::vector<std::pair<Index, Index>>& tiles, double* C, Index nv)
      : panel_(panel, rows, nv), tiles_(tiles), C_(C), nv_(nv) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    Eigen::Map<RowMajor> C(C_, nv_, nv_);
    for (std::size_t t = begin; t < end; ++t) {
      const Index i0 = tiles_[t].first * kTile, j0 = tiles_[t].second * kTile;
      const Index ni = std::min(kTile, nv_ - i0), nj = std::min(kTile, nv_ - j0);
      if (panel_.rows() == 0)
        C.block(i0, j0, ni, nj).setZero();
      else
        C.block(i0, j0, ni, nj).noalias() = panel_.middleCols(i0, ni).transpose() * panel_.middleCols(j0, nj);
    }
  }

 private:
  Eigen::Map<const Eigen::MatrixXd> panel_;  // (rows x nv) column-major
  const std::vector<std::pair<Index, Index>>& tiles_;
  double* C_;
  Index nv_;
};

// Row a of C (b >= a) += sum over the sparse rows k of column a, ascending, of z_ka z_kb.
class SparseRows final : public RangeKernel {
 public:
  SparseRows(const CsrRef& St, const std::vector<Index>& verts, const std::vector<Index>& column_ptr,
             const std::vector<Index>& entry_slot, const std::vector<Index>& sparse_ptr,
             const std::vector<Index>& sparse_col, const std::vector<double>& sparse_val, double* C, Index nv)
      : St_(St),
        verts_(verts),
        column_ptr_(column_ptr),
        entry_slot_(entry_slot),
        sparse_ptr_(sparse_ptr),
        sparse_col_(sparse_col),
        sparse_val_(sparse_val),
        C_(C),
        nv_(nv) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    for (std::size_t a = begin; a < end; ++a) {
      double* row = C_ + a * static_cast<std::size_t>(nv_);
      const Index p0 = St_.row_ptr[verts_[a]];
      for (Index q = column_ptr_[a]; q < column_ptr_[a + 1]; ++q) {
        const Index slot = entry_slot_[q];
        if (slot < 0) continue;  // in the panel
        const Index k = St_.col_idx[p0 + (q - column_ptr_[a])];
        const double z = St_.values[p0 + (q - column_ptr_[a])];
        for (Index s = slot; s < sparse_ptr_[k + 1]; ++s) row[sparse_col_[s]] += z * sparse_val_[s];
      }
    }
  }

 private:
  CsrRef St_;
  const std::vector<Index>& verts_;
  const std::vector<Index>& column_ptr_;
  const std::vector<Index>& entry_slot_;
  const std::vector<Index>& sparse_ptr_;
  const std::vector<Index>& sparse_col_;
  const std::vector<double>& sparse_val_;
  double* C_;
  Index nv_;
};

// C's lower triangle from its upper one.
class Mirror final : public RangeKernel {
 public:
  Mirror(double* C, Index nv) : C_(C), nv_(static_cast<std::size_t>(nv)) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    for (std::size_t a = begin; a < end; ++a)
      for (std::size_t b = a + 1; b < nv_; ++b) C_[b * nv_ + a] = C_[a * nv_ + b];
  }

 private:
  double* C_;
  std::size_t nv_;
};

// Rows 3j + i of W for the contacts j in [begin, end): the contacts of j's group, then the cable
// columns; the diagonal into diag. A contact's entries (a column of C and a weight each,
// contact_entries()) are ent_col / ent_w [ent_ptr[j], ent_ptr[j + 1]); a single-vertex contact
// has weight 1, so K_jk = 0 + 1 * 1 * C_ab = C_ab exactly and W keeps the bits it had before
// body contacts existed.
class ContactRows final : public RangeKernel {
 public:
  const double* C = nullptr;  // (nv x nv)
  Index nv = 0;
  const std::vector<VertexContact>* contacts = nullptr;
  const std::vector<Index>* ent_ptr = nullptr;        // (nc + 1) offsets of each contact's entries
  const std::vector<Index>* ent_col = nullptr;        // column of C of each entry
  const std::vector<double>* ent_w = nullptr;         // weight of each entry
  const std::vector<Index>* col_of_vertex = nullptr;  // (n)
  const std::vector<Index>* group = nullptr;          // (nc) group of each contact
  const std::vector<Index>* group_ptr = nullptr;      // (groups + 1) offsets into members
  const std::vector<Index>* members = nullptr;        // contacts of each group, ascending
  const CableRows* cables = nullptr;
  const Index* row_ptr = nullptr;
  Index* col_idx = nullptr;
  double* values = nullptr;
  double* diag = nullptr;
  // K_jk = sum_a sum_b w_a w_b C_ab over the entries of contacts j and k.
  double coupling(std::size_t j, std::size_t k) const {
    double sum = 0.0;
    for (Index p = (*ent_ptr)[j]; p < (*ent_ptr)[j + 1]; ++p) {
      const double* c_row = C + static_cast<std::size_t>((*ent_col)[p]) * static_cast<std::size_t>(nv);
      for (Index q = (*ent_ptr)[k]; q < (*ent_ptr)[k + 1]; ++q) sum += (*ent_w)[p] * (*ent_w)[q] * c_row[(*ent_col)[q]];
    }
    return sum;
  }
  void operator()(std::size_t begin, std::size_t end) const override {
    const std::vector<VertexContact>& cs = *contacts;
    const Index nc = static_cast<Index>(cs.size());
    for (std::size_t j = begin; j < end; ++j) {
      const Index g = (*group)[j];
      const double kjj = coupling(j, j);
      for (int i = 0; i < 3; ++i) {
        const Vec3& f = cs[j].frame[i];
        const std::size_t row = 3 * j + i;
        Index p = row_ptr[row];
        for (Index q = (*group_ptr)[g]; q < (*group_ptr)[g + 1]; ++q) {
          const Index k = (*members)[q];
          const double c = coupling(j, static_cast<std::size_t>(k));
          for (int l = 0; l < 3; ++l, ++p) {
            col_idx[p] = 3 * k + l;
            values[p] = c * dot(f, cs[k].frame[l]);
          }
        }
        diag[row] = kjj * dot(f, f);
        for (std::size_t t = 0; t < cables->size(); ++t, ++p) {
          double value = 0.0;
          for (Index e = (*ent_ptr)[j]; e < (*ent_ptr)[j + 1]; ++e) {
            const double* c_row = C + static_cast<std::size_t>((*ent_col)[e]) * static_cast<std::size_t>(nv);
            for (const auto& [w, gw] : (*cables)[t]) value += (*ent_w)[e] * c_row[(*col_of_vertex)[w]] * dot(f, gw);
          }
          col_idx[p] = 3 * nc + static_cast<Index>(t);
          values[p] = value;
        }
      }
    }
  }
};

}  // namespace

SchurComplement::SchurComplement(Backend& backend, const DeviceCsr& S, const DeviceCsr& St, const CsrMatrix& S_host)
    : be_(&backend), S_(&S), St_(&St), n_(S_host.cols) {
  root_.assign(static_cast<std::size_t>(n_), -1);  // rows ascend: the last row of a column is its root
  for (Index k = 0; k < S_host.rows; ++k)
    for (Index p = S_host.row_ptr[k]; p < S_host.row_ptr[k + 1]; ++p) root_[S_host.col_idx[p]] = k;
}

namespace {
bool same(const Vec3& a, const Vec3& b) { return a[0] == b[0] && a[1] == b[1] && a[2] == b[2]; }
}  // namespace

bool same_delassus_rows(const std::vector<VertexContact>& a, const std::vector<VertexContact>& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t j = 0; j < a.size(); ++j) {
    const VertexContact &x = a[j], &y = b[j];
    if (x.vertex != y.vertex || x.obstacle != y.obstacle || !(x.self == y.self)) return false;
    for (int k = 0; k < 3; ++k)
      if (!same(x.frame[k], y.frame[k]) || x.tri[k] != y.tri[k] || !(x.bary[k] == y.bary[k])) return false;
  }
  return true;
}

bool same_delassus_rows(const CableRows& a, const CableRows& b) {
  if (a.size() != b.size()) return false;
  for (std::size_t t = 0; t < a.size(); ++t) {
    if (a[t].size() != b[t].size()) return false;
    for (std::size_t e = 0; e < a[t].size(); ++e)
      if (a[t][e].first != b[t][e].first || !same(a[t][e].second, b[t][e].second)) return false;
  }
  return true;
}

bool SchurComplement::dense_for(SchurAssembly mode, const std::vector<Index>& verts) const {
  if (mode == SchurAssembly::kSparse || !be_->runs_host_code()) return false;
  if (mode == SchurAssembly::kDense) return true;
  const Index nv = static_cast<Index>(verts.size());
  if (nv < kDenseMinVertices) return false;
  // Structural density of C: sum over trees of (vertices in it)^2 / nv^2.
  std::vector<Index> roots;
  roots.reserve(verts.size());
  for (Index v : verts) roots.push_back(root_[v]);
  std::sort(roots.begin(), roots.end());
  double pairs = 0.0;
  for (std::size_t i = 0; i < roots.size();) {
    std::size_t j = i;
    while (j < roots.size() && roots[j] == roots[i]) ++j;
    pairs += static_cast<double>(j - i) * static_cast<double>(j - i);
    i = j;
  }
  return pairs >= kDenseMinDensity * static_cast<double>(nv) * static_cast<double>(nv);
}

bool SchurComplement::compute(SchurAssembly mode, const std::vector<Index>& verts, bool reuse) {
  if (reuse && computed_ && verts == verts_) return false;
  computed_ = false;  // until this one is complete
  nv_ = static_cast<Index>(verts.size());
  verts_ = verts;
  col_root_.resize(verts.size());
  for (std::size_t a = 0; a < verts.size(); ++a) col_root_[a] = root_[verts[a]];
  if (dense_for(mode, verts))
    dense(verts);
  else
    sparse(verts);
  computed_ = true;
  return true;
}

void SchurComplement::sparse(const std::vector<Index>& verts) {
  const Index nv = nv_;
  col_of_row_.assign(static_cast<std::size_t>(n_), -1);
  for (Index a = 0; a < nv; ++a) col_of_row_[verts[a]] = a;
  const DeviceCsr P = to_device(*be_, selection(nv, n_, verts));
  const DeviceCsr Pt = to_device(*be_, selection(n_, nv, col_of_row_));
  DeviceCsr Y = be_->spgemm_symbolic(P, *St_);
  be_->spgemm_numeric(P, *St_, Y);
  DeviceCsr Z = be_->spgemm_symbolic(*S_, Pt);
  be_->spgemm_numeric(*S_, Pt, Z);
  DeviceCsr Cd = be_->spgemm_symbolic(Y, Z);
  if (be_->runs_host_code())
    be_->for_each_range(static_cast<std::size_t>(nv), DenseRowProduct(Y, Z, Cd));
  else
    be_->spgemm_numeric(Y, Z, Cd);
  const CsrMatrix Ch = to_host(*be_, Cd);
  C_.assign(static_cast<std::size_t>(nv) * static_cast<std::size_t>(nv), 0.0);
  for (Index a = 0; a < nv; ++a)
    for (Index p = Ch.row_ptr[a]; p < Ch.row_ptr[a + 1]; ++p)
      C_[static_cast<std::size_t>(a) * nv + Ch.col_idx[p]] = Ch.values[p];
}

void SchurComplement::dense(const std::vector<Index>& verts) {
  const Index nv = nv_;
  const CsrRef St = St_->ref();  // host memory on host backends
  // Columns per row of S' and the gathered columns' offsets.
  count_.assign(static_cast<std::size_t>(n_), 0);
  column_ptr_.assign(static_cast<std::size_t>(nv) + 1, 0);
  for (Index a = 0; a < nv; ++a) {
    const Index v = verts[a];
    column_ptr_[a + 1] = column_ptr_[a] + (St.row_ptr[v + 1] - St.row_ptr[v]);
    for (Index p = St.row_ptr[v]; p < St.row_ptr[v + 1]; ++p) ++count_[St.col_idx[p]];
  }
  // Panel rows (shared by >= kPanelFraction nv columns) and the sparse rows' offsets.
  const Index threshold = std::max<Index>(1, static_cast<Index>(std::ceil(kPanelFraction * nv)));
  panel_of_.assign(static_cast<std::size_t>(n_), -1);
  sparse_ptr_.assign(static_cast<std::size_t>(n_) + 1, 0);
  Index panel_rows = 0;
  for (Index k = 0; k < n_; ++k) {
    const bool in_panel = count_[k] >= threshold;
    if (in_panel) panel_of_[k] = panel_rows++;
    sparse_ptr_[k + 1] = sparse_ptr_[k] + (in_panel ? 0 : count_[k]);
  }
  sparse_col_.resize(static_cast<std::size_t>(sparse_ptr_[n_]));
  sparse_val_.resize(sparse_col_.size());
  entry_slot_.resize(static_cast<std::size_t>(column_ptr_[nv]));
  panel_.assign(static_cast<std::size_t>(panel_rows) * static_cast<std::size_t>(nv), 0.0);  // keeps its capacity
  std::vector<Index>& cursor = count_;  // reused: next free slot of each sparse row
  for (Index k = 0; k < n_; ++k) cursor[k] = sparse_ptr_[k];
  for (Index a = 0; a < nv; ++a) {  // ascending columns: each sparse row's entries ascend
    const Index v = verts[a];
    for (Index p = St.row_ptr[v], q = column_ptr_[a]; p < St.row_ptr[v + 1]; ++p, ++q) {
      const Index k = St.col_idx[p];
      if (panel_of_[k] >= 0) {
        panel_[static_cast<std::size_t>(a) * panel_rows + panel_of_[k]] = St.values[p];
        entry_slot_[q] = -1;
      } else {
        const Index s = cursor[k]++;
        sparse_col_[s] = a;
        sparse_val_[s] = St.values[p];
        entry_slot_[q] = s;
      }
    }
  }
  C_.resize(static_cast<std::size_t>(nv) * static_cast<std::size_t>(nv));
  const Index tiles = (nv + kTile - 1) / kTile;
  tiles_.clear();
  for (Index I = 0; I < tiles; ++I)
    for (Index J = I; J < tiles; ++J) tiles_.emplace_back(I, J);
  be_->for_each_range(tiles_.size(), PanelTiles(panel_.data(), panel_rows, tiles_, C_.data(), nv));
  be_->for_each_range(static_cast<std::size_t>(nv), SparseRows(St, verts, column_ptr_, entry_slot_, sparse_ptr_,
                                                               sparse_col_, sparse_val_, C_.data(), nv));
  be_->for_each_range(static_cast<std::size_t>(nv), Mirror(C_.data(), nv));
}

void expand_delassus(Backend& backend, const SchurComplement& schur, const std::vector<Index>& col_of_vertex,
                     const std::vector<VertexContact>& contacts, const CableRows& cables, DeviceCsr& W,
                     std::vector<double>& diag) {
  const std::size_t nc = contacts.size(), na = cables.size(), m = 3 * nc + na;
  const Index nv = schur.size();
  const std::vector<double>& C = schur.c();
  // Each contact's entries (columns of C and weights), and the contacts grouped by connected
  // roots (C_ab = 0 structurally across roots), each group ascending; one group on one
  // connected mesh, one for two meshes that touch.
  std::vector<Index> ent_ptr(nc + 1, 0), ent_col, group, group_ptr, members(nc);
  std::vector<double> ent_w;
  ent_col.reserve(nc);
  ent_w.reserve(nc);
  for (std::size_t j = 0; j < nc; ++j) {
    Index v[kMaxContactVertices];
    double w[kMaxContactVertices];
    const int count = contact_entries(contacts[j], v, w);
    for (int e = 0; e < count; ++e) {
      ent_col.push_back(col_of_vertex[v[e]]);
      ent_w.push_back(w[e]);
    }
    ent_ptr[j + 1] = static_cast<Index>(ent_col.size());
  }
  const Index groups = contact_groups(contacts, schur.vertex_roots(), group);
  group_ptr.assign(static_cast<std::size_t>(groups) + 1, 0);
  for (std::size_t j = 0; j < nc; ++j) ++group_ptr[group[j] + 1];
  for (Index g = 0; g < groups; ++g) group_ptr[g + 1] += group_ptr[g];
  {
    std::vector<Index> cursor(group_ptr.begin(), group_ptr.end() - 1);
    for (std::size_t j = 0; j < nc; ++j) members[cursor[group[j]]++] = static_cast<Index>(j);
  }
  // Row offsets; the entries must fit the 32-bit Index of DeviceCsr.
  std::vector<Index> row_ptr(m + 1, 0);
  std::size_t nnz = 0;
  for (std::size_t row = 0; row < m; ++row) {
    const std::size_t j = row / 3;
    nnz += row < 3 * nc ? 3 * static_cast<std::size_t>(group_ptr[group[j] + 1] - group_ptr[group[j]]) + na : m;
    require(nnz <= static_cast<std::size_t>(std::numeric_limits<Index>::max()),
            "LocalGlobalIntegrator: W = H S'^T S' H^T of " + std::to_string(nc) + " contacts and " +
                std::to_string(na) + " cables has more than 2^31 entries");
    row_ptr[row + 1] = static_cast<Index>(nnz);
  }
  // W's arrays only grow (allocated when the contacts outgrow them); on host backends written in place.
  W.rows = W.cols = static_cast<Index>(m);
  W.row_ptr.grow_to(backend, m + 1);
  W.col_idx.grow_to(backend, nnz);
  W.values.grow_to(backend, nnz);
  W.transpose.reset();  // the pattern may have changed
  const bool host = backend.runs_host_code();
  std::vector<Index> col_host(host ? 0 : nnz);
  std::vector<double> val_host(host ? 0 : nnz);
  Index* col_idx = host ? W.col_idx.data() : col_host.data();
  double* values = host ? W.values.data() : val_host.data();
  diag.assign(m, 0.0);
  ContactRows rows;
  rows.C = C.data();
  rows.nv = nv;
  rows.contacts = &contacts;
  rows.ent_ptr = &ent_ptr;
  rows.ent_col = &ent_col;
  rows.ent_w = &ent_w;
  rows.col_of_vertex = &col_of_vertex;
  rows.group = &group;
  rows.group_ptr = &group_ptr;
  rows.members = &members;
  rows.cables = &cables;
  rows.row_ptr = row_ptr.data();
  rows.col_idx = col_idx;
  rows.values = values;
  rows.diag = diag.data();
  if (host)
    backend.for_each_range(nc, rows);
  else
    rows(0, nc);
  // Cable-cable block sum_{(v, g) in t} sum_{(w, f) in s} C_vw g . f, upper triangle mirrored so
  // that W is exactly symmetric; cable rows' contact columns mirror the contact rows' cable columns.
  std::vector<double> cc(na * na, 0.0);
  for (std::size_t t = 0; t < na; ++t)
    for (const auto& [v, g] : cables[t]) {
      const double* c_row = C.data() + static_cast<std::size_t>(col_of_vertex[v]) * static_cast<std::size_t>(nv);
      for (std::size_t s = t; s < na; ++s)
        for (const auto& [w, f] : cables[s]) cc[t * na + s] += c_row[col_of_vertex[w]] * dot(g, f);
    }
  for (std::size_t t = 0; t < na; ++t) {
    const std::size_t row = 3 * nc + t;
    Index p = row_ptr[row];
    for (std::size_t j = 0; j < 3 * nc; ++j, ++p) {
      col_idx[p] = static_cast<Index>(j);
      values[p] = values[row_ptr[j + 1] - static_cast<Index>(na) + static_cast<Index>(t)];
    }
    for (std::size_t s = 0; s < na; ++s, ++p) {
      col_idx[p] = static_cast<Index>(3 * nc + s);
      values[p] = s >= t ? cc[t * na + s] : cc[s * na + t];
    }
    diag[row] = cc[t * na + t];
  }
  if (host) {
    std::copy(row_ptr.begin(), row_ptr.end(), W.row_ptr.data());
  } else {
    backend.upload(row_ptr.data(), row_ptr.size(), W.row_ptr);
    backend.upload(col_host.data(), nnz, W.col_idx);
    backend.upload(val_host.data(), nnz, W.values);
  }
}

int contact_entries(const VertexContact& c, Index* v, double* w) {
  if (c.tri[0] < 0) {
    v[0] = c.vertex;
    w[0] = 1.0;
    return 1;
  }
  // The vertex and tri's vertices up to the first -1, ascending (insertion sort of at most four),
  // so that H's rows have ascending columns.
  Index vs[4] = {c.vertex, c.tri[0], c.tri[1], c.tri[2]};
  double ws[4] = {c.self, -c.bary[0], -c.bary[1], -c.bary[2]};
  int count = 1;
  while (count < 4 && vs[count] >= 0) ++count;
  for (int i = 1; i < count; ++i)
    for (int k = i; k > 0 && vs[k] < vs[k - 1]; --k) {
      std::swap(vs[k], vs[k - 1]);
      std::swap(ws[k], ws[k - 1]);
    }
  for (int i = 0; i < count; ++i) {
    v[i] = vs[i];
    w[i] = ws[i];
  }
  return count;
}

Index contact_groups(const std::vector<VertexContact>& contacts, const std::vector<Index>& root_of,
                     std::vector<Index>& group) {
  // Union-find over the distinct roots of the contacts' vertices.
  std::vector<Index> roots;
  for (const VertexContact& c : contacts) {
    Index v[kMaxContactVertices];
    double w[kMaxContactVertices];
    const int count = contact_entries(c, v, w);
    for (int e = 0; e < count; ++e) roots.push_back(root_of[v[e]]);
  }
  std::sort(roots.begin(), roots.end());
  roots.erase(std::unique(roots.begin(), roots.end()), roots.end());
  auto slot = [&](Index r) {
    return static_cast<Index>(std::lower_bound(roots.begin(), roots.end(), r) - roots.begin());
  };
  std::vector<Index> parent(roots.size());
  for (std::size_t i = 0; i < parent.size(); ++i) parent[i] = static_cast<Index>(i);
  auto find = [&](Index a) {
    while (parent[a] != a) a = parent[a] = parent[parent[a]];
    return a;
  };
  for (const VertexContact& c : contacts) {
    Index v[kMaxContactVertices];
    double w[kMaxContactVertices];
    const int count = contact_entries(c, v, w);
    const Index a = find(slot(root_of[v[0]]));
    for (int e = 1; e < count; ++e) {
      const Index b = find(slot(root_of[v[e]]));
      if (a != b) parent[std::max(a, b)] = std::min(a, b);
    }
  }
  // Groups numbered in order of their first contact.
  std::vector<Index> number(roots.size(), -1);
  Index groups = 0;
  group.resize(contacts.size());
  for (std::size_t j = 0; j < contacts.size(); ++j) {
    const Index r = find(slot(root_of[contacts[j].vertex]));
    if (number[r] < 0) number[r] = groups++;
    group[j] = number[r];
  }
  return groups;
}

}  // namespace sinew::integrators::detail
