#include "sinew/collision/bvh.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/core/number_text.hpp"

#if SINEW_HAVE_TBB
#include <tbb/parallel_invoke.h>
#endif

namespace sinew {

void check_boxes(const std::vector<Aabb>& boxes, const char* what) {
  for (size_t i = 0; i < boxes.size(); ++i) {
    const Aabb& b = boxes[i];
    for (int k = 0; k < 3; ++k) {
      if (!(std::isfinite(b.lo[k]) && std::isfinite(b.hi[k]) && b.lo[k] <= b.hi[k]))
        throw Error(std::string(what) + ": box " + std::to_string(i) +
                    " must be finite with lo <= hi on every axis (axis " + std::to_string(k) + ": lo " +
                    number_text(b.lo[k]) + ", hi " + number_text(b.hi[k]) + ")");
    }
  }
}

Index Bvh::subtree_nodes(Index count) const {
  // Median split halves the count, so the node count depends on the count alone; this lets the
  // parallel build place both subtrees at known pre-order offsets.
  if (count <= leaf_size_) return 1;
  return 1 + subtree_nodes(count / 2) + subtree_nodes(count - count / 2);
}

void Bvh::build(const std::vector<Aabb>& boxes, const BvhOptions& params) {
  // Messages are built only on failure, so that a valid call allocates nothing.
  if (params.leaf_size < 1)
    throw Error("Bvh::build: leaf_size must be at least 1, got " + std::to_string(params.leaf_size));
  check_boxes(boxes, "Bvh::build");
  leaf_size_ = params.leaf_size;
  boxes_ = boxes;
  const Index n = static_cast<Index>(boxes.size());
  centers_.resize(n);
  order_.resize(n);
  for (Index i = 0; i < n; ++i) {
    centers_[i] = center(boxes[i]);
    order_[i] = i;
  }
  nodes_.clear();
  build_cost_ = 0.0;
  if (n == 0) return;
  nodes_.resize(subtree_nodes(n));
  build_node(0, 0, n, 0);
  // centers_ keeps its capacity, so that a rebuild of the same size allocates nothing.
  build_cost_ = cost();
}

void Bvh::build_node(Index node, Index first, Index count, int depth) {
  (void)depth;  // used only to bound task spawning in the parallel build
  Node& nd = nodes_[node];
  nd.first = first;
  nd.count = count;
  Aabb box = empty_aabb(), cbox = empty_aabb();
  for (Index k = first; k < first + count; ++k) {
    box = merge(box, boxes_[order_[k]]);
    cbox = merge(cbox, centers_[order_[k]]);
  }
  nd.box = box;
  if (count <= leaf_size_) {
    nd.left = nd.right = -1;
    return;
  }
  int axis = 0;
  const Vec3 ext = v3::sub(cbox.hi, cbox.lo);
  if (ext[1] > ext[axis]) axis = 1;
  if (ext[2] > ext[axis]) axis = 2;
  const Index half = count / 2;
  // Ties broken by primitive index: a strict total order makes the split unique.
  auto less = [&](Index a, Index b) {
    const double ca = centers_[a][axis], cb = centers_[b][axis];
    return ca < cb || (ca == cb && a < b);
  };
  std::nth_element(order_.begin() + first, order_.begin() + first + half, order_.begin() + first + count, less);
  const Index left = node + 1, right = node + 1 + subtree_nodes(half);
  nd.left = left;
  nd.right = right;
#if SINEW_HAVE_TBB
  // Spawn tasks only for large subtrees near the root; below that a task costs more than it saves.
  if (count > 4096 && depth < 16) {
    tbb::parallel_invoke([&] { build_node(left, first, half, depth + 1); },
                         [&] { build_node(right, first + half, count - half, depth + 1); });
    return;
  }
#endif
  build_node(left, first, half, depth + 1);
  build_node(right, first + half, count - half, depth + 1);
}

void Bvh::refit(const std::vector<Aabb>& boxes) {
  if (boxes.size() != boxes_.size())
    throw Error("Bvh::refit: expected " + std::to_string(boxes_.size()) + " boxes (the count of the last build), got " +
                std::to_string(boxes.size()));
  check_boxes(boxes, "Bvh::refit");
  boxes_ = boxes;
  for (size_t i = nodes_.size(); i-- > 0;) {
    Node& nd = nodes_[i];
    if (nd.left < 0) {
      Aabb box = empty_aabb();
      for (Index k = nd.first; k < nd.first + nd.count; ++k) box = merge(box, boxes_[order_[k]]);
      nd.box = box;
    } else {
      nd.box = merge(nodes_[nd.left].box, nodes_[nd.right].box);
    }
  }
}

double Bvh::cost() const {
  if (nodes_.empty()) return 0.0;
  const double root = surface_area(nodes_[0].box);
  if (root <= 0.0) return 0.0;
  double sum = 0.0;
  for (const Node& nd : nodes_) {
    if (nd.left >= 0) sum += surface_area(nd.box);
  }
  return sum / root;
}

void Bvh::query(const Aabb& box, double margin, std::vector<Index>& out) const {
  if (nodes_.empty()) return;
  // Depth is at most ~log2(n) + 1 for a median split; 128 covers any Index-sized tree.
  Index stack[128];
  int top = 0;
  stack[top++] = 0;
  while (top > 0) {
    const Node& nd = nodes_[stack[--top]];
    if (!overlaps(box, nd.box, margin)) continue;
    if (nd.left < 0) {
      for (Index k = nd.first; k < nd.first + nd.count; ++k) {
        if (overlaps(box, boxes_[order_[k]], margin)) out.push_back(order_[k]);
      }
    } else {
      stack[top++] = nd.right;
      stack[top++] = nd.left;
    }
  }
}

}  // namespace sinew
