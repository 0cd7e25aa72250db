/// @file
/// @brief Broad phase: the abstract BroadPhase that finds candidate pairs of primitives whose
/// boxes lie within a contact margin, its factory ("bvh", "hash"), and primitive-box helpers.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/aabb.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// A candidate pair of primitives. Self queries: first < second, both primitive indices.
/// Queries of external boxes: first is the query box, second the primitive.
struct CandidatePair {
  Index first;   ///< first primitive (or query box) index
  Index second;  ///< second primitive index
  /// Lexicographic order, the order in which every broad phase returns its pairs.
  bool operator<(const CandidatePair& o) const { return first < o.first || (first == o.first && second < o.second); }
  /// Equality of both indices.
  bool operator==(const CandidatePair& o) const { return first == o.first && second == o.second; }
};

/// Mesh vertices of each element, used to skip adjacent elements (those sharing a vertex) in
/// self-collision: (n_elements x 3) vertex indices, unused slots -1 (edges use 2, points 1).
using ElementVertices = std::vector<std::array<Index, 3>>;

/// Parameters of the broad phases; each says which implementation reads it.
struct BroadPhaseOptions {
  /// "bvh": most primitives per leaf (see BvhOptions::leaf_size).
  int leaf_size = 4;
  /// "bvh": update() rebuilds instead of refitting when Bvh::quality_ratio() would exceed this;
  /// 2 means the refitted tree's nodes have twice the surface area of a fresh one, the point at
  /// which traversal cost usually outweighs the O(n log n) rebuild.
  double rebuild_ratio = 2.0;
  /// "hash": edge length of a grid cell; 0 picks the mean of the primitives' largest extents,
  /// so a typical primitive touches a few cells.
  double cell_size = 0.0;
};

/// Finds pairs of primitive boxes within a contact margin. Public methods check their inputs and
/// throw sinew::Error; the protected do_* implementations may assume valid input. Every query
/// returns its pairs sorted (CandidatePair::operator<), the same whatever the thread count.
class BroadPhase {
 public:
  virtual ~BroadPhase() = default;

  /// Name given to make_broad_phase() ("bvh" or "hash").
  virtual std::string name() const = 0;

  /// Builds the structure over @p boxes (n primitive boxes).
  /// @throws sinew::Error if a box is not finite or has lo > hi.
  void build(const std::vector<Aabb>& boxes);

  /// Updates the structure after the primitives moved (same n): a refit or a rebuild.
  /// @throws sinew::Error before build(), if the count differs from build() or a box is invalid.
  void update(const std::vector<Aabb>& boxes);

  /// Pairs (i, j), i < j, of primitives within @p margin (overlaps(box_i, box_j, margin)).
  /// With @p vertices ((n x 3), see ElementVertices) pairs that share a vertex are skipped.
  /// @throws sinew::Error before build(), if margin < 0 or is not finite, or vertices has the wrong size.
  std::vector<CandidatePair> self_pairs(double margin, const ElementVertices* vertices = nullptr) const;

  /// Pairs (q, i) of query box q and primitive i within @p margin. With both @p query_vertices
  /// ((n_queries x 3)) and @p vertices ((n x 3)), pairs sharing a vertex are skipped (e.g. a
  /// mesh vertex against its own incident triangles).
  /// @throws sinew::Error before build(), on a bad margin, an invalid query box or wrongly sized
  /// vertex lists.
  std::vector<CandidatePair> query_pairs(const std::vector<Aabb>& queries, double margin,
                                         const ElementVertices* query_vertices = nullptr,
                                         const ElementVertices* vertices = nullptr) const;

  /// As self_pairs(), but writes the pairs into @p out (cleared first), reusing its capacity and
  /// the broad phase's own scratch buffers: with "bvh", a repeated call allocates nothing once
  /// the buffers have grown to the largest result. Not safe to call concurrently on one object.
  /// @throws sinew::Error as self_pairs().
  void self_pairs_into(double margin, const ElementVertices* vertices, std::vector<CandidatePair>& out);

  /// As query_pairs(), but writes the pairs into @p out (cleared first), reusing its capacity
  /// and the broad phase's scratch buffers (see self_pairs_into()).
  /// @throws sinew::Error as query_pairs().
  void query_pairs_into(const std::vector<Aabb>& queries, double margin, const ElementVertices* query_vertices,
                        const ElementVertices* vertices, std::vector<CandidatePair>& out);

  /// Number of primitives of the last build().
  Index size() const { return size_; }

 protected:
  /// Builds over valid boxes.
  virtual void do_build(const std::vector<Aabb>& boxes) = 0;
  /// Updates with valid boxes of the same count.
  virtual void do_update(const std::vector<Aabb>& boxes) = 0;
  /// Self pairs (i < j) within margin, sorted.
  virtual std::vector<CandidatePair> do_self_pairs(double margin) const = 0;
  /// Query pairs (q, i) within margin, sorted.
  virtual std::vector<CandidatePair> do_query_pairs(const std::vector<Aabb>& queries, double margin) const = 0;
  /// Self pairs into @p out (sorted); the default calls do_self_pairs(), which allocates.
  virtual void do_self_pairs_into(double margin, std::vector<CandidatePair>& out) { out = do_self_pairs(margin); }
  /// Query pairs into @p out (sorted); the default calls do_query_pairs(), which allocates.
  virtual void do_query_pairs_into(const std::vector<Aabb>& queries, double margin, std::vector<CandidatePair>& out) {
    out = do_query_pairs(queries, margin);
  }

 private:
  void check_query(const char* where, const std::vector<Aabb>* queries, double margin,
                   const ElementVertices* query_vertices, const ElementVertices* vertices) const;

  Index size_ = 0;
  bool built_ = false;
};

/// Makes a broad phase by name: "bvh" (AABB tree, Bvh) or "hash" (uniform spatial hash).
/// @throws sinew::Error naming the known names for any other name, or when leaf_size < 1,
/// rebuild_ratio < 1 or cell_size is negative or not finite.
std::unique_ptr<BroadPhase> make_broad_phase(const std::string& name, const BroadPhaseOptions& params = {});

/// Boxes of triangles: (n_triangles) boxes of the positions ((n_vertices) points) indexed by
/// @p triangles ((n_triangles x 3) vertex indices).
/// @throws sinew::Error naming the first triangle with a vertex index out of range.
std::vector<Aabb> triangle_boxes(const std::vector<Vec3>& positions,
                                 const std::vector<std::array<Index, 3>>& triangles);

/// Boxes of edges: (n_edges) boxes of @p edges ((n_edges x 2) vertex indices).
/// @throws sinew::Error naming the first edge with a vertex index out of range.
std::vector<Aabb> edge_boxes(const std::vector<Vec3>& positions, const std::vector<std::array<Index, 2>>& edges);

/// Boxes of points: (n_vertices) degenerate boxes [p, p].
std::vector<Aabb> point_boxes(const std::vector<Vec3>& positions);

/// The unique undirected edges of a triangle mesh, (n_edges x 2) with e[0] < e[1], sorted.
/// @throws sinew::Error naming the first triangle with a vertex index out of range.
std::vector<std::array<Index, 2>> mesh_edges(const std::vector<std::array<Index, 3>>& triangles, Index n_vertices);

}  // namespace sinew
