/// @file
/// @brief NarrowPhaseWorkspace: the reusable per-step buffers of mesh-mesh proximity (broad
/// phases, boxes, candidate pairs, edge lists, per-chunk contacts), kept apart from the meshes.
#pragma once

#include <array>
#include <memory>
#include <vector>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/contact_set.hpp"

namespace sinew {

class NarrowPhase;

/// Mutable buffers of NarrowPhase::mesh_mesh_contacts(), owned by the caller and passed back on
/// every step. Vectors are cleared, never shrunk, and the broad phases are refitted (rebuilt only
/// when BroadPhaseOptions::rebuild_ratio is exceeded) while their primitive count is unchanged, so
/// that with the "bvh" broad phase repeated calls on meshes of unchanged topology allocate
/// nothing after the first. Every field is written by the narrow phase only; reading them is for
/// tests and diagnostics. One workspace serves one pair of meshes with one NarrowPhase at a time
/// (using it with another NarrowPhase resets its broad phases); it is not thread-safe.
struct NarrowPhaseWorkspace {
  /// One broad-phase query: primitives of one mesh in a broad phase, boxes of the other queried.
  struct Query {
    std::unique_ptr<BroadPhase> broad;  ///< over `boxes`; made on first use, then updated
    std::vector<Aabb> boxes;            ///< (n_primitives) primitive boxes
    std::vector<Aabb> query_boxes;      ///< (n_queries) query boxes (unused for self edge pairs)
    ElementVertices query_vertices;     ///< (n_queries x 3) self-contact only: vertices per query element
    std::vector<CandidatePair> pairs;   ///< candidate pairs (query, primitive), sorted
  };
  Query vertex_a_triangle_b;  ///< A's vertices against B's triangles (A's own when self-contact)
  Query vertex_b_triangle_a;  ///< B's vertices against A's triangles (unused for self-contact)
  Query edge_edge;            ///< A's edges (queries) against B's edges (primitives)
  /// (n_triangles_a x 3) copy of A's triangles from which edges_a was made (recomputed on change).
  std::vector<std::array<Index, 3>> triangles_a;
  /// (n_triangles_b x 3) copy of B's triangles from which edges_b was made.
  std::vector<std::array<Index, 3>> triangles_b;
  std::vector<std::array<Index, 2>> edges_a;         ///< (n_edges_a x 2) mesh_edges() of A
  std::vector<std::array<Index, 2>> edges_b;         ///< (n_edges_b x 2) mesh_edges() of B
  std::vector<std::vector<Contact>> chunk_contacts;  ///< (>= n_chunks) contacts of each parallel chunk
  const NarrowPhase* owner = nullptr;                ///< the NarrowPhase whose broad phases these are
};

}  // namespace sinew
