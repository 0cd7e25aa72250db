/// @file
/// @brief Bounding-volume hierarchy (AABB tree) over primitive boxes: parallel build, refit for
/// deforming meshes with a quality measure, and box queries with a contact margin.
#pragma once

#include <vector>

#include "sinew/collision/aabb.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// Parameters of Bvh::build().
struct BvhOptions {
  /// Most primitives per leaf. 4 keeps leaves small enough that the exact box tests at a leaf
  /// cost less than descending further, and the tree shallow (depth ~ log2(n / 4)).
  int leaf_size = 4;
};

/// AABB tree over n primitive boxes, built by median split of the centroids along the longest
/// axis. Nodes are stored in depth-first pre-order: a node's children have larger indices, so a
/// reverse sweep refits bottom-up, and the layout depends only on the input (not on threads).
class Bvh {
 public:
  /// One tree node; a leaf owns primitives order()[first, first + count).
  struct Node {
    Aabb box;     ///< bounds of every primitive below
    Index left;   ///< index of the left child, -1 for a leaf
    Index right;  ///< index of the right child, -1 for a leaf
    Index first;  ///< leaf: first slot in order(); internal: first slot of its subtree
    Index count;  ///< number of primitives below
  };

  /// Builds the tree over @p boxes (n primitive boxes); parallel with oneTBB when available.
  /// @throws sinew::Error if leaf_size < 1 or a box has lo > hi or is not finite.
  void build(const std::vector<Aabb>& boxes, const BvhOptions& params = {});

  /// Recomputes every node box from new primitive boxes (same count, same topology): O(n).
  /// @throws sinew::Error if the count differs from the one built, or a box is invalid.
  void refit(const std::vector<Aabb>& boxes);

  /// Surface-area cost of the tree, sum over internal nodes of area(node) / area(root); grows
  /// when refits let nodes swell while the topology stays fixed.
  double cost() const;

  /// cost() relative to its value right after build(): 1 just after a build; a ratio well above
  /// 1 (e.g. 2) says the refitted tree has degraded and a rebuild will pay off.
  double quality_ratio() const { return build_cost_ > 0.0 ? cost() / build_cost_ : 1.0; }

  /// Appends to @p out the primitives whose boxes are within @p margin of @p box (criterion of
  /// overlaps()), in traversal order.
  void query(const Aabb& box, double margin, std::vector<Index>& out) const;

  /// Nearest primitive to @p p by branch and bound: @p primitive_distance2(i) returns the squared
  /// distance from p to primitive i (at least the squared distance to its box); nodes whose box
  /// is farther than the best so far are skipped. Returns -1 when the tree is empty.
  /// @param p the query point.
  /// @param primitive_distance2 callable Index -> double, squared distance from p to a primitive.
  /// @param best_d2 out: the squared distance of the returned primitive.
  template <class Distance2>
  Index nearest(const Vec3& p, Distance2&& primitive_distance2, double& best_d2) const {
    best_d2 = HUGE_VAL;
    Index best = -1;
    if (nodes_.empty()) return best;
    Index stack[128];
    int top = 0;
    stack[top++] = 0;
    while (top > 0) {
      const Node& nd = nodes_[stack[--top]];
      if (box_distance2(nd.box, p) >= best_d2) continue;
      if (nd.left < 0) {
        for (Index k = nd.first; k < nd.first + nd.count; ++k) {
          const double d2 = primitive_distance2(order_[k]);
          if (d2 < best_d2 || (d2 == best_d2 && order_[k] < best)) {
            best_d2 = d2;
            best = order_[k];
          }
        }
      } else {
        // Nearer child last, so that it is popped first and tightens the bound early.
        const bool left_first = box_distance2(nodes_[nd.left].box, p) <= box_distance2(nodes_[nd.right].box, p);
        stack[top++] = left_first ? nd.right : nd.left;
        stack[top++] = left_first ? nd.left : nd.right;
      }
    }
    return best;
  }

  /// Number of primitives.
  Index size() const { return static_cast<Index>(boxes_.size()); }
  /// The nodes, root first ((2 n_leaves - 1) entries; empty when size() == 0).
  const std::vector<Node>& nodes() const { return nodes_; }
  /// Primitive indices in leaf order (n entries).
  const std::vector<Index>& order() const { return order_; }
  /// The primitive boxes of the last build() or refit() (n entries).
  const std::vector<Aabb>& boxes() const { return boxes_; }

 private:
  void build_node(Index node, Index first, Index count, int depth);
  Index subtree_nodes(Index count) const;

  int leaf_size_ = 4;
  std::vector<Aabb> boxes_;    // (n) primitive boxes
  std::vector<Vec3> centers_;  // (n) primitive box centres, build only
  std::vector<Index> order_;   // (n) primitive indices in leaf order
  std::vector<Node> nodes_;    // (n_nodes) pre-order nodes
  double build_cost_ = 0.0;
};

/// Checks that every box is finite with lo <= hi; @p what names the array in the message.
/// @throws sinew::Error naming the first bad box.
void check_boxes(const std::vector<Aabb>& boxes, const char* what);

}  // namespace sinew
