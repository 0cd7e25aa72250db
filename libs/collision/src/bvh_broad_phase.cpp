// The "bvh" broad phase: an AABB tree (Bvh) refitted on update, rebuilt when it degrades.
#include <algorithm>

#include "broad_phase_impls.hpp"
#include "parallel_chunks.hpp"
#include "sinew/collision/bvh.hpp"

namespace sinew {
namespace {

// Queries per parallel chunk: enough work to amortise a task, small enough to balance.
constexpr Index kChunk = 256;

class BvhBroadPhase final : public BroadPhase {
 public:
  explicit BvhBroadPhase(const BroadPhaseOptions& p) : params_(p) {}
  std::string name() const override { return "bvh"; }

 protected:
  void do_build(const std::vector<Aabb>& boxes) override { tree_.build(boxes, BvhOptions{params_.leaf_size}); }

  void do_update(const std::vector<Aabb>& boxes) override {
    tree_.refit(boxes);
    if (tree_.quality_ratio() > params_.rebuild_ratio) tree_.build(boxes, BvhOptions{params_.leaf_size});
  }

  std::vector<CandidatePair> do_self_pairs(double margin) const override {
    const std::vector<Aabb>& boxes = tree_.boxes();
    return collect(static_cast<Index>(boxes.size()), margin, boxes, true);
  }

  std::vector<CandidatePair> do_query_pairs(const std::vector<Aabb>& queries, double margin) const override {
    return collect(static_cast<Index>(queries.size()), margin, queries, false);
  }

  void do_self_pairs_into(double margin, std::vector<CandidatePair>& out) override {
    const std::vector<Aabb>& boxes = tree_.boxes();
    collect_into(static_cast<Index>(boxes.size()), margin, boxes, true, out);
  }

  void do_query_pairs_into(const std::vector<Aabb>& queries, double margin, std::vector<CandidatePair>& out) override {
    collect_into(static_cast<Index>(queries.size()), margin, queries, false, out);
  }

 private:
  // collect() with per-chunk buffers kept in the object between calls: the outer vectors only
  // grow, the inner ones are cleared, so once grown nothing is allocated.
  void collect_into(Index n, double margin, const std::vector<Aabb>& queries, bool self,
                    std::vector<CandidatePair>& out) {
    const size_t n_chunks = static_cast<size_t>((n + kChunk - 1) / kChunk);
    if (scratch_parts_.size() < n_chunks) {
      scratch_parts_.resize(n_chunks);
      scratch_hits_.resize(n_chunks);
    }
    detail::for_each_chunk(n, kChunk, [&](Index c, Index begin, Index end) {
      std::vector<Index>& hits = scratch_hits_[c];
      std::vector<CandidatePair>& part = scratch_parts_[c];
      part.clear();
      for (Index q = begin; q < end; ++q) {
        hits.clear();
        tree_.query(queries[q], margin, hits);
        std::sort(hits.begin(), hits.end());
        for (Index i : hits) {
          if (!self || i > q) part.push_back({q, i});
        }
      }
    });
    out.clear();
    for (size_t c = 0; c < n_chunks; ++c) out.insert(out.end(), scratch_parts_[c].begin(), scratch_parts_[c].end());
  }

  // Each query box q searches the tree; per-chunk results are concatenated in chunk order and
  // each query's hits are sorted, so the output is sorted and independent of the thread count.
  std::vector<CandidatePair> collect(Index n, double margin, const std::vector<Aabb>& queries, bool self) const {
    std::vector<std::vector<CandidatePair>> parts((n + kChunk - 1) / kChunk);
    detail::for_each_chunk(n, kChunk, [&](Index c, Index begin, Index end) {
      std::vector<Index> hits;
      for (Index q = begin; q < end; ++q) {
        hits.clear();
        tree_.query(queries[q], margin, hits);
        std::sort(hits.begin(), hits.end());
        for (Index i : hits) {
          if (!self || i > q) parts[c].push_back({q, i});
        }
      }
    });
    return detail::concatenate(parts);
  }

  BroadPhaseOptions params_;
  Bvh tree_;
  std::vector<std::vector<CandidatePair>> scratch_parts_;  // (>= n_chunks) pairs per chunk, *_into only
  std::vector<std::vector<Index>> scratch_hits_;           // (>= n_chunks) tree hits per chunk, *_into only
};

}  // namespace

namespace detail {
std::unique_ptr<BroadPhase> make_bvh_broad_phase(const BroadPhaseOptions& params) {
  return std::make_unique<BvhBroadPhase>(params);
}
}  // namespace detail

}  // namespace sinew
