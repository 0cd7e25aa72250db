#include "sinew/linalg/cholmod_solver.hpp"

#include <cholmod.h>

#include <cstring>
#include <string>

namespace sinew {

struct CholmodSolver::Impl {
  cholmod_common c;
  cholmod_factor* L = nullptr;
  // Reusable solve workspace (cholmod_solve2): allocated on first solve, kept across solves.
  mutable cholmod_dense* X = nullptr;
  mutable cholmod_dense* Y = nullptr;
  mutable cholmod_dense* E = nullptr;

  Impl() { cholmod_start(&c); }
  ~Impl() {
    cholmod_free_dense(&X, &c);
    cholmod_free_dense(&Y, &c);
    cholmod_free_dense(&E, &c);
    cholmod_free_factor(&L, &c);
    cholmod_finish(&c);
  }

  // A CSC view of A without copying: CSR of symmetric A is CSC of A^T = A; stype = -1 reads the
  // lower triangle only.
  static cholmod_sparse view(const CsrMatrix& A) {
    cholmod_sparse s;
    std::memset(&s, 0, sizeof(s));
    s.nrow = static_cast<std::size_t>(A.rows);
    s.ncol = static_cast<std::size_t>(A.cols);
    s.nzmax = A.values.size();
    s.p = const_cast<Index*>(A.row_ptr.data());
    s.i = const_cast<Index*>(A.col_idx.data());
    s.x = const_cast<double*>(A.values.data());
    s.stype = -1;
    s.itype = CHOLMOD_INT;
    s.xtype = CHOLMOD_REAL;
    s.dtype = CHOLMOD_DOUBLE;
    s.sorted = 1;
    s.packed = 1;
    return s;
  }
};

namespace {
const char* ordering_name(CholmodOrdering o) {
  switch (o) {
    case CholmodOrdering::kNestedDissection:
      return "nesdis";
    case CholmodOrdering::kMetis:
      return "metis";
    case CholmodOrdering::kAmd:
      return "amd";
    case CholmodOrdering::kNatural:
      return "natural";
  }
  return "?";
}
}  // namespace

CholmodSolver::CholmodSolver(const CholmodOptions& options) : impl_(std::make_unique<Impl>()), options_(options) {
  cholmod_common& c = impl_->c;
  c.nmethods = 1;
  switch (options.ordering) {
    case CholmodOrdering::kNestedDissection:
      c.method[0].ordering = CHOLMOD_NESDIS;
      break;
    case CholmodOrdering::kMetis:
      c.method[0].ordering = CHOLMOD_METIS;
      break;
    case CholmodOrdering::kAmd:
      c.method[0].ordering = CHOLMOD_AMD;
      break;
    case CholmodOrdering::kNatural:
      c.method[0].ordering = CHOLMOD_NATURAL;
      break;
  }
  c.postorder = options.ordering != CholmodOrdering::kNatural;
  c.supernodal = options.kind == CholmodKind::kSupernodal   ? CHOLMOD_SUPERNODAL
                 : options.kind == CholmodKind::kSimplicial ? CHOLMOD_SIMPLICIAL
                                                            : CHOLMOD_AUTO;
  c.final_ll = 1;  // simplicial factors stay LL^T, as the sparse inverse expects
  c.print = 0;
  c.error_handler = nullptr;
}

CholmodSolver::~CholmodSolver() = default;

std::string CholmodSolver::name() const {
  const char* kind = options_.kind == CholmodKind::kSupernodal   ? "supernodal"
                     : options_.kind == CholmodKind::kSimplicial ? "simplicial"
                                                                 : "auto";
  return std::string("cholmod-") + kind + "-" + ordering_name(options_.ordering);
}

void CholmodSolver::do_analyze(const CsrMatrix& A) {
  cholmod_common& c = impl_->c;
  cholmod_free_factor(&impl_->L, &c);
  cholmod_sparse s = Impl::view(A);
  impl_->L = cholmod_analyze(&s, &c);
  if (!impl_->L || c.status < CHOLMOD_OK)
    throw Error(name() + ": symbolic analysis failed (CHOLMOD status " + std::to_string(c.status) + ")");
}

void CholmodSolver::do_factorize(const CsrMatrix& A) {
  cholmod_common& c = impl_->c;
  cholmod_sparse s = Impl::view(A);
  const int ok = cholmod_factorize(&s, impl_->L, &c);
  if (c.status == CHOLMOD_NOT_POSDEF) {
    const std::size_t k = impl_->L->minor;
    const Index* perm = static_cast<const Index*>(impl_->L->Perm);
    throw Error(name() + ": matrix is not positive definite: pivot " + std::to_string(k) + " (row " +
                std::to_string(perm && k < impl_->L->n ? perm[k] : static_cast<Index>(k)) +
                " of the input) is not positive");
  }
  if (!ok || c.status < CHOLMOD_OK)
    throw Error(name() + ": numeric factorization failed (CHOLMOD status " + std::to_string(c.status) + ")");
}

void CholmodSolver::do_solve(const Eigen::MatrixXd& B, Eigen::MatrixXd& X) const {
  cholmod_common& c = impl_->c;
  X.resize(B.rows(), B.cols());
  if (B.rows() == 0 || B.cols() == 0) return;
  cholmod_dense b;
  std::memset(&b, 0, sizeof(b));
  b.nrow = static_cast<std::size_t>(B.rows());
  b.ncol = static_cast<std::size_t>(B.cols());
  b.nzmax = b.nrow * b.ncol;
  b.d = b.nrow;
  b.x = const_cast<double*>(B.data());
  b.xtype = CHOLMOD_REAL;
  b.dtype = CHOLMOD_DOUBLE;
  if (!cholmod_solve2(CHOLMOD_A, impl_->L, &b, nullptr, &impl_->X, nullptr, &impl_->Y, &impl_->E, &c))
    throw Error(name() + ": solve failed (CHOLMOD status " + std::to_string(c.status) + ")");
  std::memcpy(X.data(), impl_->X->x, sizeof(double) * b.nzmax);
}

std::size_t CholmodSolver::factor_nnz() const {
  if (!impl_->L) return 0;
  const cholmod_factor* L = impl_->L;
  if (L->is_super) return L->xsize;
  const Index* nz = static_cast<const Index*>(L->nz);
  std::size_t total = 0;
  for (std::size_t j = 0; j < L->n; ++j) total += static_cast<std::size_t>(nz[j]);
  return total;
}

bool CholmodSolver::supernodal() const { return impl_->L && impl_->L->is_super; }

CholeskyFactor CholmodSolver::factor() const {
  if (!factored()) throw Error(name() + ": factor() before a successful compute()");
  cholmod_common& c = impl_->c;
  cholmod_factor* F = cholmod_copy_factor(impl_->L, &c);
  // Simplicial, LL^T, packed, monotonic; then as a sparse matrix (which empties F).
  if (!F || !cholmod_change_factor(CHOLMOD_REAL, 1, 0, 1, 1, F, &c)) {
    cholmod_free_factor(&F, &c);
    throw Error(name() + ": could not convert the factor to simplicial LL^T");
  }
  cholmod_sparse* S = cholmod_factor_to_sparse(F, &c);
  cholmod_free_factor(&F, &c);
  if (!S) throw Error(name() + ": could not export the factor");
  CholeskyFactor out;
  out.n = static_cast<Index>(S->ncol);
  const Index* p = static_cast<const Index*>(S->p);
  const Index* i = static_cast<const Index*>(S->i);
  const double* x = static_cast<const double*>(S->x);
  out.col_ptr.assign(p, p + out.n + 1);
  out.row_idx.assign(i, i + p[out.n]);
  out.values.assign(x, x + p[out.n]);
  cholmod_free_sparse(&S, &c);
  const Index* perm = static_cast<const Index*>(impl_->L->Perm);
  out.perm.assign(perm, perm + out.n);
  return out;
}

}  // namespace sinew
