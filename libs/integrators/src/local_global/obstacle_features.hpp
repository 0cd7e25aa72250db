// Contacts of mesh obstacles' sharp features with the bodies' surfaces in the local-global step
// (LocalGlobalDescription::obstacle_features; issue 24: knife edges without thickness). The
// bodies' vertices touch an obstacle by its signed distance (contact_detection.cpp); a blade thinner
// than the spacing of a body's vertices passes between them. So, besides:
// - each obstacle vertex on a sharp edge (a blade's tip or ends, a box's corner) touches the
//   nearest boundary triangle of each body (VertexTriangleDetector over the bodies' triangles, the
//   obstacle's vertices as another body): the rows n^T sum_k b_k v_k over the triangle's three
//   vertices with its closest point's barycentric weights;
// - each sharp obstacle edge (faces more than 10 degrees apart; a sheet's rim: a blade) touches the
//   boundary edges of the bodies it crosses, where the closest points of the two segments are
//   inside both and they are not nearly parallel (edge_edge_contacts.hpp's rules, but against
//   every body edge, flat ones too, since a blade crosses a flat face's inner edges): the rows
//   n^T ((1 - t) v_a + t v_b) over the body edge's two vertices, n = +-(e_obstacle x e_body)
//   pointing into the body (against the body edge's pseudo-normal; for an obstacle edge with two
//   faces, also along their pseudo-normal).
// The obstacle side is rigid: its velocity at the contact enters the rows' constant term.
// Private to the integrators library.
#pragma once

#include <array>
#include <vector>

#include "delassus.hpp"
#include "sinew/collision/bvh.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::integrators::detail {

/// One contact of an obstacle feature with a body's surface point.
struct FeatureContact {
  /// Its rows: vertex, self and tri/bary hold the surface point's two or three vertices (ascending)
  /// and weights +b_k (VertexContact with weights self, -bary); obstacle is the key, set by the
  /// caller's numbering; the frame's normal points from the obstacle into the body.
  VertexContact rows;
  Vec3 body_point;         ///< the surface point at q_t (side A)
  Vec3 obstacle_point;     ///< the obstacle's vertex or edge point at q_t (side B)
  Vec3 obstacle_velocity;  ///< the obstacle's velocity at obstacle_point
  double gap = 0.0;        ///< signed distance along the normal at q_t (< 0: crossed)
  int obstacle = -1;       ///< the obstacle's index
};

/// The sharp features of a description's mesh obstacles and the bodies' boundary, and the
/// detection of their contacts (see the file comment); buffers kept between steps.
class ObstacleFeatureContacts {
 public:
  /// The features of @p obstacles' meshes (vertices and edges more than @p sharp_angle apart) and
  /// the boundary triangles of the tets @p tets over @p n vertices whose three vertices are in
  /// @p candidates (ascending); inactive when there is no mesh obstacle or no such triangle.
  ObstacleFeatureContacts(const std::vector<Obstacle>& obstacles, const std::vector<Index>& tets,
                          const std::vector<Index>& candidates, Index n, double sharp_angle);
  /// Whether any feature can touch any body.
  bool active() const { return active_; }
  /// Number of keys: the features (obstacle vertices, then obstacle edges, over all obstacles).
  int keys() const { return static_cast<int>(feature_obstacle_.size()); }
  /// The obstacle of feature key @p k (0 <= k < keys()).
  int obstacle_of(int k) const { return feature_obstacle_[static_cast<std::size_t>(k)]; }
  /// Finds the contacts at @p x (3n: q_t) and @p y (3n: q~), @p obstacles at their poses (moving
  /// over @p h by their motions for the prediction): those whose gap minus @p thickness at q_t or at
  /// the prediction is below @p margin. Their rows' keys are @p first_key + the feature's number,
  /// with the body edge's second vertex as the second key of an edge's (tri[0]); sorted by
  /// (vertex, key, tri[0]).
  void detect(const std::vector<Obstacle>& obstacles, const std::vector<double>& x, const std::vector<double>& y,
              double h, double margin, double thickness, int first_key);
  /// The contacts of the last detect().
  const std::vector<FeatureContact>& found() const { return found_; }

 private:
  void detect_vertices(const std::vector<Obstacle>& obstacles, double margin, double thickness, int first_key);
  void detect_edges(const std::vector<Obstacle>& obstacles, double h, double margin, double thickness, int first_key);

  bool active_ = false;
  Index n_ = 0;
  std::vector<int> feature_obstacle_;                 // (keys) the obstacle of each feature
  std::vector<std::array<Index, 2>> feature_vertex_;  // (feature vertices) (obstacle, mesh vertex)
  std::vector<std::array<Index, 2>> feature_edge_;    // (feature edges) (obstacle, mesh edge)
  std::vector<Vec3> feature_edge_normal_;             // (feature edges) local pseudo-normal; 0 on a rim
  TetSurfaces mesh_;            // the bodies' triangles over n + feature vertices (each obstacle a body)
  std::vector<Index> queries_;  // n ... n + feature vertices - 1
  std::vector<std::array<Index, 2>> body_edges_;  // the triangles' edges (u < w), sorted
  std::vector<std::array<Index, 2>> edge_faces_;  // (body edges) their one or two triangles (-1: one)
  std::vector<Vec3> xs_, ys_;                     // (n + feature vertices) at q_t and the prediction
  VertexTriangleDetector vertex_detector_;
  std::vector<VertexTriangleContact> vertex_found_;
  Bvh edge_bvh_;                  // over the body edges' swept boxes
  std::vector<Aabb> edge_boxes_;  // (body edges)
  std::vector<Index> near_;       // scratch of the BVH queries
  std::vector<FeatureContact> found_;
};

}  // namespace sinew::integrators::detail
