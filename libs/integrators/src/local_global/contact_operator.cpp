// DelassusOperator: W = G (C (x) I_3) G^T applied through Y = P S'^T and Z = S' P^T (no stored W).
//
// Y's rows are rows of S'^T (copied on the host), Z = Y^T and G^T are transposed on the host by
// counting (columns ascending per row), and all four are uploaded; each product of an apply is a
// row-wise backend kernel, so the result does not depend on the thread count. On a host backend
// the uploads are copies in host memory; on CUDA they are the step's only transfers besides H's.
#include "contact_operator.hpp"

#include <algorithm>
#include <limits>

#include "sinew/collision/vec3_ops.hpp"
#include "sinew/core/error.hpp"

namespace sinew::integrators::detail {

namespace {

// At = A^T (columns ascending per row: A's rows are visited in order); @p cursor is scratch.
void transpose_into(const CsrMatrix& A, CsrMatrix& At, std::vector<Index>& cursor) {
  At.rows = A.cols;
  At.cols = A.rows;
  At.row_ptr.assign(static_cast<std::size_t>(A.cols) + 1, 0);
  for (Index c : A.col_idx) ++At.row_ptr[c + 1];
  for (Index c = 0; c < A.cols; ++c) At.row_ptr[c + 1] += At.row_ptr[c];
  cursor.assign(At.row_ptr.begin(), At.row_ptr.end() - 1);
  At.col_idx.resize(A.col_idx.size());
  At.values.resize(A.values.size());
  for (Index i = 0; i < A.rows; ++i)
    for (Index p = A.row_ptr[i]; p < A.row_ptr[i + 1]; ++p) {
      const Index q = cursor[A.col_idx[p]]++;
      At.col_idx[q] = i;
      At.values[q] = A.values[p];
    }
}

// D = A on the backend, re-using D's arrays when the sizes hold.
void assign(Backend& be, const CsrMatrix& A, DeviceCsr& D) {
  if (D.rows != A.rows || D.cols != A.cols || D.nnz() != A.nnz() || D.row_ptr.size() != A.row_ptr.size()) {
    D = to_device(be, A);
    return;
  }
  D.transpose.reset();
  be.upload(A.row_ptr.data(), A.row_ptr.size(), D.row_ptr);
  if (A.nnz() == 0) return;
  be.upload(A.col_idx.data(), A.col_idx.size(), D.col_idx);
  be.upload(A.values.data(), A.values.size(), D.values);
}

}  // namespace

DelassusOperator::DelassusOperator(Backend& backend, const CsrRef& St_host) : be_(&backend), St_(St_host) {
  T_ = backend.allocate<double>(3 * static_cast<std::size_t>(St_.rows));
}

std::size_t DelassusOperator::y_entries(const std::vector<Index>& verts) const {
  std::size_t n = 0;
  for (Index v : verts) n += static_cast<std::size_t>(St_.row_ptr[v + 1] - St_.row_ptr[v]);
  return n;
}

double DelassusOperator::c_entry(Index v, Index w) const {
  Index p = St_.row_ptr[v], q = St_.row_ptr[w];
  const Index pe = St_.row_ptr[v + 1], qe = St_.row_ptr[w + 1];
  double sum = 0.0;
  while (p < pe && q < qe) {
    if (St_.col_idx[p] < St_.col_idx[q])
      ++p;
    else if (St_.col_idx[q] < St_.col_idx[p])
      ++q;
    else
      sum += St_.values[p++] * St_.values[q++];
  }
  return sum;
}

void DelassusOperator::build(const std::vector<Index>& verts, const std::vector<Index>& col_of_vertex,
                             const CsrMatrix& H, const std::vector<VertexContact>& contacts, const CableRows& cables,
                             std::vector<double>& diag) {
  const Index nv = static_cast<Index>(verts.size());
  const Index n = St_.rows;
  // Y = P S'^T: the vertices' rows of S'^T; C_aa = ||Y_a||^2 on the way.
  const std::size_t entries = y_entries(verts);
  require(entries <= static_cast<std::size_t>(std::numeric_limits<Index>::max()),
          "LocalGlobalIntegrator: the gathered columns of S' have more than 2^31 entries");
  y_host_.rows = nv;
  y_host_.cols = n;
  y_host_.row_ptr.assign(1, 0);
  y_host_.col_idx.resize(entries);
  y_host_.values.resize(entries);
  std::vector<double>& c_diag = c_diag_;
  c_diag.assign(static_cast<std::size_t>(nv), 0.0);
  Index q = 0;
  for (Index a = 0; a < nv; ++a) {
    double sum = 0.0;
    for (Index p = St_.row_ptr[verts[a]]; p < St_.row_ptr[verts[a] + 1]; ++p, ++q) {
      y_host_.col_idx[q] = St_.col_idx[p];
      y_host_.values[q] = St_.values[p];
      sum += St_.values[p] * St_.values[p];
    }
    c_diag[a] = sum;
    y_host_.row_ptr.push_back(q);
  }
  transpose_into(y_host_, z_host_, cursor_);
  // G = H P_3^T: column 3 v + k of H becomes 3 a + k (monotone: the vertices ascend).
  g_host_.rows = H.rows;
  g_host_.cols = 3 * nv;
  g_host_.row_ptr = H.row_ptr;
  g_host_.values = H.values;
  g_host_.col_idx.resize(H.col_idx.size());
  for (std::size_t p = 0; p < H.col_idx.size(); ++p) {
    const Index v = H.col_idx[p] / 3;
    g_host_.col_idx[p] = 3 * col_of_vertex[v] + (H.col_idx[p] - 3 * v);
  }
  transpose_into(g_host_, gt_host_, cursor_);
  assign(*be_, y_host_, Y_);
  assign(*be_, z_host_, Z_);
  assign(*be_, g_host_, G_);
  assign(*be_, gt_host_, Gt_);
  if (X_.size() != 3 * static_cast<std::size_t>(nv)) X_ = be_->allocate<double>(3 * static_cast<std::size_t>(nv));
  // diag(W): contact rows C_aa |f|^2, cable rows g^T C g over the cable's vertices.
  const std::size_t nc = contacts.size(), na = cables.size();
  diag.assign(3 * nc + na, 0.0);
  for (std::size_t j = 0; j < nc; ++j) {
    // K_jj = sum_a sum_b w_a w_b C_ab over the contact's entries; C_aa for a single vertex.
    Index v[kMaxContactVertices];
    double w[kMaxContactVertices];
    const int count = contact_entries(contacts[j], v, w);
    double kjj = 0.0;
    if (count == 1) {
      kjj = c_diag[col_of_vertex[v[0]]];
    } else {
      for (int a = 0; a < count; ++a)
        for (int b = 0; b < count; ++b)
          kjj += w[a] * w[b] * (a == b ? c_diag[col_of_vertex[v[a]]] : c_entry(v[a], v[b]));
    }
    for (int i = 0; i < 3; ++i) {
      const Vec3& f = contacts[j].frame[i];
      diag[3 * j + i] = kjj * dot(f, f);
    }
  }
  for (std::size_t t = 0; t < na; ++t) {
    double sum = 0.0;
    for (const auto& [v, g] : cables[t])
      for (const auto& [w, f] : cables[t]) sum += c_entry(v, w) * dot(g, f);
    diag[3 * nc + t] = sum;
  }
}

void DelassusOperator::apply(const DeviceArray<double>& x, DeviceArray<double>& y) {
  Backend& be = *be_;
  be.spmv(1.0, Gt_, Op::kNoTranspose, x, 0.0, X_);   // X = G^T x: per-vertex sums of frame vectors
  be.spmv3(1.0, Z_, Op::kNoTranspose, X_, 0.0, T_);  // T = S' P^T X (n x 3)
  be.spmv3(1.0, Y_, Op::kNoTranspose, T_, 0.0, X_);  // X = P S'^T T = (C (x) I_3) G^T x
  be.spmv(1.0, G_, Op::kNoTranspose, X_, 0.0, y);    // y = G X
}

}  // namespace sinew::integrators::detail
