// Per-node block kernels of Baraff's sparsefactor / sparsesolve (Appendix A), private to
// sinew::linalg. Blocks are column-major.
//
// A node's pivot block D_n (footnote 8: positive definite for a body, negative definite for a
// constraint) is kept as D_n = L_n E_n L_n^T with L_n unit lower triangular and E_n diagonal,
// stored in place: L_n strictly below the diagonal, E_n^-1 on it. A node's link to its parent is
// kept as V_n = E_n^-1 L_n^-1 H_{n,par}, so that H = R^T E R with R unit upper triangular (L_n^T
// on the diagonal, V_n beside it): Baraff's LDL^T of H at scalar granularity, without inverted
// blocks. The sweeps then only run unit triangular solves, whose dependency chains are short.
//
// Bodies and constraints of rigid-body systems have dimensions <= 6, so each kernel is
// instantiated for every (d, d_parent) in 1..6 x 0..6 (d_parent = 0: a root) with the loops
// fully unrolled, plus one run-time-sized fallback (template arguments -1) for larger blocks.
#pragma once

#include <array>
#include <cmath>
#include <cstddef>
#include <utility>

namespace sinew::baraff_detail {

/// Fully unrolls the next loop (fixed-size kernels: the node vector then stays in registers).
#define SINEW_UNROLL _Pragma("GCC unroll 8")

/// Largest dimension with a fixed-size kernel.
inline constexpr int kMaxFixed = 6;

template <int N>
inline int size_or(int runtime) {
  return N >= 0 ? N : runtime;
}

/// Overwrites the lower triangle of `a` (d x d, with sign * a symmetric positive definite) by its
/// L E L^T factors: L strictly below the diagonal, 1 / E_jj on it. Returns -1, or the column whose
/// pivot |E_jj| fell to tol * |a_jj| or below (a rank-deficient block).
template <int D>
int ldlt(double* a, int d_rt, double sign, double tol) {
  const int d = size_or<D>(d_rt);
  double e_fixed[D > 0 ? D : 1];  // sign * E_jj > 0, kept for fixed sizes
  // sign * E_kk, recovered from the stored reciprocal in the run-time-sized fallback.
  auto e = [&](int k) { return D > 0 ? e_fixed[k] : sign / a[k + k * d]; };
  SINEW_UNROLL
  for (int j = 0; j < d; ++j) {
    const double diag = sign * a[j + j * d];
    double s = diag;
    SINEW_UNROLL
    for (int k = 0; k < j; ++k) s -= a[j + k * d] * a[j + k * d] * e(k);
    if (!(diag > 0.0) || !(s > tol * diag) || !std::isfinite(s)) return j;
    if (D > 0) e_fixed[j] = s;
    SINEW_UNROLL
    for (int i = j + 1; i < d; ++i) {
      double v = sign * a[i + j * d];
      SINEW_UNROLL
      for (int k = 0; k < j; ++k) v -= a[i + k * d] * a[j + k * d] * e(k);
      a[i + j * d] = v / s;
    }
    a[j + j * d] = sign / s;  // E_jj^-1 with E_jj = sign * s
  }
  return -1;
}

/// x <- L^-1 x (unit lower, column order).
template <int D>
inline void unit_lower_solve(const double* __restrict l, int d_rt, double* __restrict x) {
  const int d = size_or<D>(d_rt);
  SINEW_UNROLL
  for (int j = 0; j < d; ++j) {
    const double xj = x[j];
    SINEW_UNROLL
    for (int i = j + 1; i < d; ++i) x[i] -= l[i + j * d] * xj;
  }
}

/// x <- L^-T x (unit upper, column order: each x_j feeds independent updates, not a serial dot
/// product, which keeps the dependency chain short).
template <int D>
inline void unit_lower_transpose_solve(const double* __restrict l, int d_rt, double* __restrict x) {
  const int d = size_or<D>(d_rt);
  SINEW_UNROLL
  for (int j = d - 1; j > 0; --j) {
    const double xj = x[j];
    SINEW_UNROLL
    for (int k = 0; k < j; ++k) x[k] -= l[j + k * d] * xj;
  }
}

/// Arguments of one node's solve step.
struct SolveStep {
  const double* pivot;  ///< L_n and E_n^-1 (d x d)
  const double* link;   ///< V_n (d x dq)
  double* x;            ///< x_n (d)
  double* x_parent;     ///< x_par (dq)
  int d;                ///< node dimension
  int dq;               ///< parent dimension, 0 at a root
};

/// Arguments of one node's factor step.
struct FactorStep {
  const double* pivot;   ///< L_n and E_n^-1 (d x d), factored
  double* link;          ///< H_{n,par} (d x dq) on entry, V_n on exit
  double* parent_pivot;  ///< D_par accumulator (dq x dq), lower triangle
  int d;                 ///< node dimension
  int dq;                ///< parent dimension
};

/// Working copy of a node vector: a local array (kept in registers once the loops are unrolled)
/// for a fixed D, the vector itself for the run-time-sized fallback.
template <int D>
struct Local {
  double v[D > 0 ? D : 1];
  double* p;
  double* x;
  Local(double* x_, int d_) : p(D > 0 ? v : x_), x(x_) {
    static_cast<void>(d_);
    if (D > 0) SINEW_UNROLL
    for (int k = 0; k < D; ++k) v[k] = x_[k];
  }
  void store() const {
    if (D > 0) SINEW_UNROLL
    for (int k = 0; k < D; ++k) x[k] = v[k];
  }
};

/// Forward sweep step (R^T y = z; "n.soln -= c.J^T c.soln", pushed to the parent):
/// y_n = L_n^-1 x_n, x_par -= V_n^T y_n.
template <int D, int DQ>
struct Forward {
  static void run(const SolveStep& s) {
    const int d = size_or<D>(s.d), dq = size_or<DQ>(s.dq);
    Local<D> x(s.x, d);
    unit_lower_solve<D>(s.pivot, d, x.p);
    x.store();
    const double* __restrict w = s.link;
    SINEW_UNROLL
    for (int i = 0; i < dq; ++i) {
      double acc = 0.0;
      SINEW_UNROLL
      for (int k = 0; k < d; ++k) acc += w[k + i * d] * x.p[k];
      s.x_parent[i] -= acc;
    }
  }
};

/// Backward sweep step (E^-1 then R x = y; "n.soln = Dinv n.soln - n.J parent(n).soln"):
/// x_n = L_n^-T (E_n^-1 y_n - V_n x_par).
template <int D, int DQ>
struct Backward {
  static void run(const SolveStep& s) {
    const int d = size_or<D>(s.d), dq = size_or<DQ>(s.dq);
    Local<D> x(s.x, d);
    const double* __restrict w = s.link;
    SINEW_UNROLL
    for (int k = 0; k < d; ++k) x.p[k] *= s.pivot[k + k * d];
    SINEW_UNROLL
    for (int i = 0; i < dq; ++i) {
      const double xi = s.x_parent[i];
      SINEW_UNROLL
      for (int k = 0; k < d; ++k) x.p[k] -= w[k + i * d] * xi;
    }
    unit_lower_transpose_solve<D>(s.pivot, d, x.p);
    x.store();
  }
};

/// Factor step of a non-root node whose pivot is factored ("par.D -= n.J^T n.D n.J" after
/// "n.J = n.Dinv n.J"): U = L_n^-1 H_{n,par}; D_par -= U^T E_n^-1 U; V_n = E_n^-1 U.
template <int D, int DQ>
struct Link {
  static void run(const FactorStep& s) {
    const int d = size_or<D>(s.d), dq = size_or<DQ>(s.dq);
    double* __restrict w = s.link;
    SINEW_UNROLL
    for (int col = 0; col < dq; ++col) unit_lower_solve<D>(s.pivot, d, w + col * d);
    double* __restrict dp = s.parent_pivot;
    SINEW_UNROLL
    for (int b = 0; b < dq; ++b) {
      SINEW_UNROLL
      for (int a = b; a < dq; ++a) {  // lower triangle: the only one ldlt() reads
        double acc = 0.0;
        SINEW_UNROLL
        for (int k = 0; k < d; ++k) acc += w[k + a * d] * s.pivot[k + k * d] * w[k + b * d];
        dp[a + b * dq] -= acc;
      }
    }
    SINEW_UNROLL
    for (int b = 0; b < dq; ++b) SINEW_UNROLL
    for (int k = 0; k < d; ++k) w[k + b * d] *= s.pivot[k + k * d];
  }
};

/// Arguments of one node's share of the residual r = z - H x (iterative refinement).
struct ResidualStep {
  const double* diag;      ///< H_nn (d x d): the mass block of a body, zero for a constraint
  const double* link;      ///< H_{n,par} (d x dq)
  const double* x;         ///< x_n (d)
  const double* x_parent;  ///< x_par (dq)
  double* r;               ///< r_n (d): z_n on entry of the diagonal step
  double* r_parent;        ///< r_par (dq)
  int d;                   ///< node dimension
  int dq;                  ///< parent dimension, 0 at a root
};

/// r_n -= H_nn x_n (the diagonal part of the residual; DQ unused).
template <int D, int DQ>
struct ResidualDiagonal {
  static void run(const ResidualStep& s) {
    const int d = size_or<D>(s.d);
    SINEW_UNROLL
    for (int i = 0; i < d; ++i) {
      double acc = 0.0;
      SINEW_UNROLL
      for (int k = 0; k < d; ++k) acc += s.diag[i + k * d] * s.x[k];
      s.r[i] -= acc;
    }
  }
};

/// r_n -= H_{n,par} x_par and r_par -= H_{n,par}^T x_n (the off-diagonal blocks of a node).
template <int D, int DQ>
struct ResidualLink {
  static void run(const ResidualStep& s) {
    const int d = size_or<D>(s.d), dq = size_or<DQ>(s.dq);
    const double* __restrict h = s.link;
    SINEW_UNROLL
    for (int i = 0; i < d; ++i) {
      double acc = 0.0;
      SINEW_UNROLL
      for (int k = 0; k < dq; ++k) acc += h[i + k * d] * s.x_parent[k];
      s.r[i] -= acc;
    }
    SINEW_UNROLL
    for (int k = 0; k < dq; ++k) {
      double acc = 0.0;
      SINEW_UNROLL
      for (int i = 0; i < d; ++i) acc += h[i + k * d] * s.x[i];
      s.r_parent[k] -= acc;
    }
  }
};

/// Kernel table index of a (d, dq) pair; the last entry is the run-time-sized fallback.
inline std::size_t kernel_index(int d, int dq) {
  constexpr int kCols = kMaxFixed + 1;
  return d >= 1 && d <= kMaxFixed && dq <= kMaxFixed ? static_cast<std::size_t>(d * kCols + dq)
                                                     : static_cast<std::size_t>(kCols * kCols);
}

template <template <int, int> class K>
using StepFn = decltype(&K<-1, -1>::run);

inline constexpr std::size_t kTableSize = (kMaxFixed + 1) * (kMaxFixed + 1) + 1;

/// Template arguments of table entry I: d = I / (kMaxFixed + 1), dq = I % (kMaxFixed + 1); the
/// unused d = 0 row and the last entry are the run-time-sized fallback (-1, -1).
template <std::size_t I>
struct TableEntry {
  static constexpr std::size_t kCols = kMaxFixed + 1;
  static constexpr bool kFixed = I < kCols * kCols && I / kCols > 0;
  static constexpr int kD = kFixed ? static_cast<int>(I / kCols) : -1;
  static constexpr int kDq = kFixed ? static_cast<int>(I % kCols) : -1;
};

template <template <int, int> class K, std::size_t... I>
constexpr std::array<StepFn<K>, sizeof...(I)> make_table(std::index_sequence<I...>) {
  return {{&K<TableEntry<I>::kD, TableEntry<I>::kDq>::run...}};
}

/// One function per (d, dq) pair for kernel K, indexed by kernel_index().
template <template <int, int> class K>
const std::array<StepFn<K>, kTableSize>& table() {
  static constexpr auto t = make_table<K>(std::make_index_sequence<kTableSize>{});
  return t;
}

using LdltFn = int (*)(double*, int, double, double);

/// ldlt<D> for d in 1..kMaxFixed, the run-time-sized version otherwise.
inline LdltFn ldlt_for(int d) {
  static constexpr std::array<LdltFn, kMaxFixed + 1> t{&ldlt<-1>, &ldlt<1>, &ldlt<2>, &ldlt<3>,
                                                       &ldlt<4>,  &ldlt<5>, &ldlt<6>};
  return d >= 1 && d <= kMaxFixed ? t[static_cast<std::size_t>(d)] : &ldlt<-1>;
}

}  // namespace sinew::baraff_detail
