// The "hash" broad phase: a uniform grid whose non-empty cells are kept as a sorted list of
// (cell key, primitive) entries, rebuilt on every update.
#include <algorithm>
#include <cmath>
#include <cstdint>
#include <utility>

#include "broad_phase_impls.hpp"
#include "parallel_chunks.hpp"

namespace sinew {
namespace {

constexpr Index kChunk = 256;          // queries per parallel chunk (see bvh_broad_phase.cpp)
constexpr double kMaxCells = 1 << 20;  // cells per axis; keeps the packed 64-bit key exact

class HashBroadPhase final : public BroadPhase {
 public:
  explicit HashBroadPhase(const BroadPhaseOptions& p) : params_(p) {}
  std::string name() const override { return "hash"; }

 protected:
  void do_build(const std::vector<Aabb>& boxes) override {
    boxes_ = boxes;
    entries_.clear();
    if (boxes.empty()) return;
    Aabb all = empty_aabb();
    double extent_sum = 0.0;
    for (const Aabb& b : boxes) {
      all = merge(all, b);
      extent_sum += std::max({b.hi[0] - b.lo[0], b.hi[1] - b.lo[1], b.hi[2] - b.lo[2]});
    }
    origin_ = all.lo;
    cell_ = params_.cell_size > 0.0 ? params_.cell_size : extent_sum / static_cast<double>(boxes.size());
    double span = 0.0;
    for (int k = 0; k < 3; ++k) span = std::max(span, all.hi[k] - all.lo[k]);
    // Points only (zero extents) or a tiny cell: fall back to a grid of at most kMaxCells per axis.
    if (!(cell_ > 0.0)) cell_ = span > 0.0 ? span / 64.0 : 1.0;
    cell_ = std::max(cell_, span / (kMaxCells - 1));
    for (int k = 0; k < 3; ++k) dims_[k] = static_cast<std::int64_t>(std::floor((all.hi[k] - origin_[k]) / cell_)) + 1;
    for (Index i = 0; i < static_cast<Index>(boxes.size()); ++i) {
      std::int64_t lo[3], hi[3];
      cell_range(boxes[i], 0.0, lo, hi);
      for (std::int64_t x = lo[0]; x <= hi[0]; ++x)
        for (std::int64_t y = lo[1]; y <= hi[1]; ++y)
          for (std::int64_t z = lo[2]; z <= hi[2]; ++z) entries_.push_back({key(x, y, z), i});
    }
    std::sort(entries_.begin(), entries_.end());
  }

  void do_update(const std::vector<Aabb>& boxes) override { do_build(boxes); }

  std::vector<CandidatePair> do_self_pairs(double margin) const override {
    return collect(static_cast<Index>(boxes_.size()), margin, boxes_, true);
  }

  std::vector<CandidatePair> do_query_pairs(const std::vector<Aabb>& queries, double margin) const override {
    return collect(static_cast<Index>(queries.size()), margin, queries, false);
  }

 private:
  std::int64_t key(std::int64_t x, std::int64_t y, std::int64_t z) const { return (x * dims_[1] + y) * dims_[2] + z; }

  // Cells touched by box inflated by margin, clamped to the grid; empty (lo > hi) when outside.
  void cell_range(const Aabb& b, double margin, std::int64_t lo[3], std::int64_t hi[3]) const {
    for (int k = 0; k < 3; ++k) {
      const double l = std::floor((b.lo[k] - margin - origin_[k]) / cell_);
      const double h = std::floor((b.hi[k] + margin - origin_[k]) / cell_);
      lo[k] = static_cast<std::int64_t>(std::max(l, 0.0));
      hi[k] = static_cast<std::int64_t>(std::min(h, static_cast<double>(dims_[k] - 1)));
    }
  }

  std::vector<CandidatePair> collect(Index n, double margin, const std::vector<Aabb>& queries, bool self) const {
    std::vector<std::vector<CandidatePair>> parts((n + kChunk - 1) / kChunk);
    if (entries_.empty()) return {};
    detail::for_each_chunk(n, kChunk, [&](Index c, Index begin, Index end) {
      std::vector<Index> hits;
      for (Index q = begin; q < end; ++q) {
        hits.clear();
        std::int64_t lo[3], hi[3];
        cell_range(queries[q], margin, lo, hi);
        for (std::int64_t x = lo[0]; x <= hi[0]; ++x)
          for (std::int64_t y = lo[1]; y <= hi[1]; ++y)
            for (std::int64_t z = lo[2]; z <= hi[2]; ++z) {
              const std::int64_t k = key(x, y, z);
              auto it = std::lower_bound(entries_.begin(), entries_.end(), std::make_pair(k, Index{0}));
              for (; it != entries_.end() && it->first == k; ++it) {
                const Index i = it->second;
                if ((!self || i > q) && overlaps(queries[q], boxes_[i], margin)) hits.push_back(i);
              }
            }
        std::sort(hits.begin(), hits.end());
        hits.erase(std::unique(hits.begin(), hits.end()), hits.end());
        for (Index i : hits) parts[c].push_back({q, i});
      }
    });
    return detail::concatenate(parts);
  }

  BroadPhaseOptions params_;
  std::vector<Aabb> boxes_;                              // (n) primitive boxes
  std::vector<std::pair<std::int64_t, Index>> entries_;  // (n_entries) (cell key, primitive), sorted
  Vec3 origin_{{0, 0, 0}};
  double cell_ = 1.0;
  std::int64_t dims_[3] = {1, 1, 1};
};

}  // namespace

namespace detail {
std::unique_ptr<BroadPhase> make_hash_broad_phase(const BroadPhaseOptions& params) {
  return std::make_unique<HashBroadPhase>(params);
}
}  // namespace detail

}  // namespace sinew
