#include "sinew/linalg/run_csr.hpp"

#include <algorithm>
#include <string>

#if defined(__SSE2__)
#include <emmintrin.h>
#include <xmmintrin.h>
#endif

namespace sinew {

RunCsr to_run_csr(const CsrMatrix& A) {
  A.validate();
  RunCsr R;
  R.rows = A.rows;
  R.cols = A.cols;
  R.row_ptr.reserve(static_cast<std::size_t>(A.rows) + 1);
  R.values = A.values;
  for (Index i = 0; i < A.rows; ++i) {
    for (Index p = A.row_ptr[i]; p < A.row_ptr[i + 1]; ++p) {
      if (p > A.row_ptr[i] && A.col_idx[p] == A.col_idx[p - 1] + 1) continue;  // extends the current run
      if (p > A.row_ptr[i]) R.run_ptr.push_back(p);
      R.run_col.push_back(A.col_idx[p]);
    }
    if (A.row_ptr[i + 1] > A.row_ptr[i]) R.run_ptr.push_back(A.row_ptr[i + 1]);
    R.row_ptr.push_back(static_cast<Index>(R.run_col.size()));
  }
  return R;
}

CsrMatrix to_csr(const RunCsr& A) {
  CsrMatrix C;
  C.rows = A.rows;
  C.cols = A.cols;
  C.row_ptr.reserve(static_cast<std::size_t>(A.rows) + 1);
  C.col_idx.reserve(A.nnz());
  C.values = A.values;
  for (Index i = 0; i < A.rows; ++i) {
    for (Index q = A.row_ptr[i]; q < A.row_ptr[i + 1]; ++q)
      for (Index p = A.run_ptr[q]; p < A.run_ptr[q + 1]; ++p) C.col_idx.push_back(A.run_col[q] + (p - A.run_ptr[q]));
    C.row_ptr.push_back(static_cast<Index>(C.col_idx.size()));
  }
  return C;
}

namespace {

// Work blocks per matrix: enough that 4 ranges per thread (LoopBackend's for_each_range) of up
// to 64 threads stay balanced to a few percent, few enough that the cut is computed in no time.
constexpr std::size_t kBlocks = 256;

// Four partial sums per component, lanes l = t mod 4 of each run (t counted from the run's
// start): lanes 0-1 in lo, 2-3 in hi. A row's sum is (l0 + l2) + (l1 + l3). The SSE2 and the
// scalar code below perform the same additions in the same order, so they agree bit for bit.
#if defined(__SSE2__)
// Software prefetch distance on the value stream. A product of these factors is one sequential
// read stream (the vectors stay in cache), and the hardware prefetcher alone keeps too few lines
// in flight for one stream (it restarts at every 4 KiB page): on the 2-core development VM a
// read-only stream reached 11 GB/s on one thread and 19 GB/s on two without it, 14 and 25 GB/s
// with it, and the bar's global step went from ~48% to ~85% of the triad. 2-16 KiB all did.
constexpr std::size_t kPrefetchBytes = 4096;

template <int B>
struct Lanes {
  __m128d lo[B], hi[B];
  Lanes() {
    for (int c = 0; c < B; ++c) lo[c] = hi[c] = _mm_setzero_pd();
  }
  // Adds v[t] x_c[t], t < len, for each component c.
  void add_run(const double* v, Index len, const double* const x[B]) {
    Index t = 0;
    for (; t + 4 <= len; t += 4) {
      _mm_prefetch(reinterpret_cast<const char*>(v + t) + kPrefetchBytes, _MM_HINT_T0);
      const __m128d va = _mm_loadu_pd(v + t), vb = _mm_loadu_pd(v + t + 2);
      for (int c = 0; c < B; ++c) {
        lo[c] = _mm_add_pd(lo[c], _mm_mul_pd(va, _mm_loadu_pd(x[c] + t)));
        hi[c] = _mm_add_pd(hi[c], _mm_mul_pd(vb, _mm_loadu_pd(x[c] + t + 2)));
      }
    }
    const Index rest = len - t;
    if (rest >= 2) {
      const __m128d va = _mm_loadu_pd(v + t);
      for (int c = 0; c < B; ++c) lo[c] = _mm_add_pd(lo[c], _mm_mul_pd(va, _mm_loadu_pd(x[c] + t)));
      if (rest == 3) {
        const __m128d vc = _mm_load_sd(v + t + 2);
        for (int c = 0; c < B; ++c) hi[c] = _mm_add_sd(hi[c], _mm_mul_sd(vc, _mm_load_sd(x[c] + t + 2)));
      }
    } else if (rest == 1) {
      const __m128d va = _mm_load_sd(v + t);
      for (int c = 0; c < B; ++c) lo[c] = _mm_add_sd(lo[c], _mm_mul_sd(va, _mm_load_sd(x[c] + t)));
    }
  }
  // (l0 + l2) + (l1 + l3) of component c.
  double sum(int c) const {
    const __m128d s = _mm_add_pd(lo[c], hi[c]);
    return _mm_cvtsd_f64(s) + _mm_cvtsd_f64(_mm_unpackhi_pd(s, s));
  }
};
#else
template <int B>
struct Lanes {
  double l[B][4] = {};
  void add_run(const double* v, Index len, const double* const x[B]) {
    for (Index t = 0; t < len; ++t)
      for (int c = 0; c < B; ++c) l[c][t % 4] += v[t] * x[c][t];
  }
  double sum(int c) const { return (l[c][0] + l[c][2]) + (l[c][1] + l[c][3]); }
};
#endif

// Rows of blocks [begin, end) of Y = A X (B components, column-major).
template <int B>
class RunRows final : public RangeKernel {
 public:
  RunRows(const Index* blocks, const Index* row_ptr, const Index* run_col, const Index* run_ptr, const double* values,
          const double* X, Index cols, double* Y, Index rows)
      : blocks_(blocks),
        row_ptr_(row_ptr),
        run_col_(run_col),
        run_ptr_(run_ptr),
        values_(values),
        X_(X),
        cols_(cols),
        Y_(Y),
        rows_(rows) {}
  void operator()(std::size_t begin, std::size_t end) const override {
    for (Index i = blocks_[begin]; i < blocks_[end]; ++i) {
      Lanes<B> acc;
      for (Index q = row_ptr_[i]; q < row_ptr_[i + 1]; ++q) {
        const double* x[B];
        for (int c = 0; c < B; ++c) x[c] = X_ + static_cast<std::size_t>(c) * cols_ + run_col_[q];
        acc.add_run(values_ + run_ptr_[q], run_ptr_[q + 1] - run_ptr_[q], x);
      }
      for (int c = 0; c < B; ++c) Y_[static_cast<std::size_t>(c) * rows_ + i] = acc.sum(c);
    }
  }

 private:
  const Index* blocks_;
  const Index *row_ptr_, *run_col_, *run_ptr_;
  const double* values_;
  const double* X_;
  Index cols_;
  double* Y_;
  Index rows_;
};

}  // namespace

DeviceRunCsr::DeviceRunCsr(Backend& backend, const RunCsr& A) : rows_(A.rows), cols_(A.cols) {
  if (!backend.runs_host_code())
    throw Error("DeviceRunCsr: backend '" + backend.name() + "' does not run host code (runs_host_code() is false)");
  require(static_cast<Index>(A.row_ptr.size()) == A.rows + 1 && A.run_ptr.size() == A.run_col.size() + 1 &&
              static_cast<std::size_t>(A.row_ptr.back()) == A.runs() &&
              static_cast<std::size_t>(A.run_ptr.back()) == A.nnz(),
          "DeviceRunCsr: offsets and arrays of the RunCsr disagree");
  row_ptr_ = backend.upload(A.row_ptr);
  run_ptr_ = backend.upload(A.run_ptr);
  if (A.runs() > 0) run_col_ = backend.upload(A.run_col);
  if (A.nnz() > 0) values_ = backend.upload(A.values);
  // Block boundaries: the first row whose work (entries + runs + 1 per row) before it reaches
  // b / blocks of the total.
  const std::size_t blocks = std::min<std::size_t>(kBlocks, static_cast<std::size_t>(std::max<Index>(A.rows, 1)));
  auto work_before = [&](Index i) {
    return static_cast<double>(A.run_ptr[A.row_ptr[i]]) + static_cast<double>(A.row_ptr[i]) + static_cast<double>(i);
  };
  const double total = work_before(A.rows);
  blocks_.assign(1, 0);
  for (std::size_t b = 1; b < blocks; ++b) {
    const double target = total * static_cast<double>(b) / static_cast<double>(blocks);
    Index lo = blocks_.back(), hi = A.rows;
    while (lo < hi) {
      const Index mid = lo + (hi - lo) / 2;
      if (work_before(mid) < target)
        lo = mid + 1;
      else
        hi = mid;
    }
    blocks_.push_back(lo);
  }
  blocks_.push_back(A.rows);
}

void DeviceRunCsr::multiply(Backend& backend, int components, const DeviceArray<double>& X,
                            DeviceArray<double>& Y) const {
  // Checks without building messages on the hot path (an apply is two of these per L-G iteration).
  if (components != 1 && components != 3)
    throw Error("DeviceRunCsr::multiply: components must be 1 or 3, got " + std::to_string(components));
  if (row_ptr_.backend() != &backend) throw Error("DeviceRunCsr::multiply: the matrix lives on another backend");
  const auto k = static_cast<std::size_t>(components);
  if (X.size() != static_cast<std::size_t>(cols_) * k || Y.size() != static_cast<std::size_t>(rows_) * k)
    throw Error("DeviceRunCsr::multiply: X must hold cols * components and Y rows * components entries");
  if (X.data() == Y.data() && !X.empty()) throw Error("DeviceRunCsr::multiply: Y must not alias X");
  const std::size_t blocks = blocks_.size() - 1;
  if (components == 1)
    backend.for_each_range(blocks, RunRows<1>(blocks_.data(), row_ptr_.data(), run_col_.data(), run_ptr_.data(),
                                              values_.data(), X.data(), cols_, Y.data(), rows_));
  else
    backend.for_each_range(blocks, RunRows<3>(blocks_.data(), row_ptr_.data(), run_col_.data(), run_ptr_.data(),
                                              values_.data(), X.data(), cols_, Y.data(), rows_));
}

}  // namespace sinew
