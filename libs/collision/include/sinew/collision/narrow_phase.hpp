/// @file
/// @brief Narrow phase: the abstract NarrowPhase that turns shapes and meshes into contacts
/// (ContactSet), its factory, and the shape-pair function table it dispatches through.
#pragma once

#include <array>
#include <memory>
#include <string>
#include <vector>

#include "sinew/collision/broad_phase.hpp"
#include "sinew/collision/contact_set.hpp"
#include "sinew/collision/narrow_phase_workspace.hpp"
#include "sinew/collision/shape_pairs.hpp"
#include "sinew/collision/signed_distance_grid.hpp"

namespace sinew {

/// An analytic shape placed in the world, static or moving with a prescribed rigid motion.
struct ShapeInstance {
  Index id;       ///< id written to ContactSet::object_a / object_b
  Shape shape;    ///< type and sizes
  Pose pose;      ///< placement at the current time
  Motion motion;  ///< prescribed velocity (zero for a static obstacle or a dynamic body whose
                  ///< velocity enters through H instead)
};

/// A rigid object described by a signed-distance grid (in its body frame), placed by a pose.
struct GridInstance {
  Index id;                        ///< id written to ContactSet::object_b
  const SignedDistanceGrid* grid;  ///< the grid, built beforehand (not owned)
  Pose pose;                       ///< placement at the current time
  Motion motion;                   ///< prescribed velocity (zero when static)
};

/// A triangle mesh (or a point cloud with no triangles) by reference to its current positions.
struct MeshInstance {
  Index id;                                            ///< id written to the ContactSet
  const std::vector<Vec3>* positions;                  ///< (n_vertices) world positions
  const std::vector<std::array<Index, 3>>* triangles;  ///< (n_triangles x 3) vertex indices
  /// Offset added to this mesh's vertex indices in ContactSet::vertices, so that several meshes
  /// share one global vertex numbering (the DOF columns of H).
  Index first_vertex = 0;
};

/// Parameters of the narrow phase.
struct NarrowPhaseOptions {
  /// Broad phase used for mesh-mesh proximity; "bvh" because meshes are refitted each step.
  std::string broad_phase = "bvh";
  /// Its parameters (defaults explained in BroadPhaseOptions).
  BroadPhaseOptions broad;
};

/// The pair function for shape types (a, b), or nullptr when the pair has none yet.
ShapePairFunction shape_pair_function(ShapeType a, ShapeType b);

/// Turns geometry into contacts with gap <= margin, appended to a ContactSet in a stable order.
/// Public methods check their inputs and throw sinew::Error; do_* may assume valid input.
class NarrowPhase {
 public:
  virtual ~NarrowPhase() = default;
  /// Name given to make_narrow_phase().
  virtual std::string name() const = 0;

  /// Every vertex of @p mesh (A) against every shape (B): ContactKind::kPointShape contacts.
  /// @throws sinew::Error on a bad margin, a null mesh or an invalid shape (naming its index).
  void point_shape_contacts(const MeshInstance& mesh, const std::vector<ShapeInstance>& shapes, double margin,
                            ContactSet& out) const;

  /// Every vertex of @p mesh (A) against every grid (B): ContactKind::kPointShape contacts whose
  /// gap, normal and closest point come from the interpolated grid (sdf_grid_query()).
  /// @throws sinew::Error on a bad margin, a null mesh or grid, an unbuilt grid or a bad pose.
  void point_grid_contacts(const MeshInstance& mesh, const std::vector<GridInstance>& grids, double margin,
                           ContactSet& out) const;

  /// Every pair i < j of shapes (A = shapes[i], B = shapes[j]): ContactKind::kShapeShape.
  /// @throws sinew::Error on an invalid shape or a pair of types with no pair function (naming
  /// both shapes), before any contact is appended.
  void shape_shape_contacts(const std::vector<ShapeInstance>& shapes, double margin, ContactSet& out) const;

  /// Vertex-triangle (both ways) and edge-edge proximity between meshes @p a and @p b; when
  /// they have the same id, self-contact of one mesh, skipping elements that share a vertex.
  /// Mesh gaps are unsigned distances (thin sheets have no inside).
  ///
  /// Each geometric proximity is reported once, by these rules (which do not depend on the
  /// broad phase or the thread count):
  /// - Vertex-triangle: a vertex p and a triangle t within the margin give a contact according
  ///   to the feature of t holding the closest point (TriangleRegion). A face: always. An edge
  ///   or a vertex f of the other mesh: only when every triangle incident to f (within the
  ///   margin, not incident to p in self-contact) also has its closest point on f, i.e. the
  ///   distance has a local minimum on f rather than at a point of f shadowed by a nearer face
  ///   or edge; then once, by the lowest-indexed such triangle.
  /// - Vertex-vertex (p's closest feature is vertex w, and w's is p): once, as the contact of
  ///   the vertex of @p a (self-contact: of the lower-indexed vertex).
  /// - Edge-edge: only when both closest points are strictly inside their edges (0 < s < 1 and
  ///   0 < t < 1); at an edge end the proximity is a vertex-triangle contact. Parallel edges
  ///   always have an end among their closest points, so they give no edge-edge contact.
  /// Every vertex whose nearest point of the other mesh is within the margin thus has a contact
  /// at that distance (possibly the reverse vertex-vertex one).
  /// @throws sinew::Error on a bad margin, a null pointer, a triangle with an index out of range
  /// (naming the triangle), or two different meshes with the same id.
  /// This overload uses a temporary NarrowPhaseWorkspace, so it allocates on every call.
  void mesh_mesh_contacts(const MeshInstance& a, const MeshInstance& b, double margin, ContactSet& out) const;

  /// As the overload above, reusing @p workspace between calls: with the "bvh" broad phase, a
  /// call on meshes whose vertex and triangle counts did not change since the previous call with
  /// this workspace allocates nothing (provided @p out has the capacity, e.g. after clear()).
  /// The contacts are the same, in the same order, as without a workspace.
  /// @throws sinew::Error as the overload above.
  void mesh_mesh_contacts(const MeshInstance& a, const MeshInstance& b, double margin, NarrowPhaseWorkspace& workspace,
                          ContactSet& out) const;

 protected:
  /// Implementation of point_shape_contacts() on valid input.
  virtual void do_point_shape(const MeshInstance& mesh, const std::vector<ShapeInstance>& shapes, double margin,
                              ContactSet& out) const = 0;
  /// Implementation of point_grid_contacts() on valid input.
  virtual void do_point_grid(const MeshInstance& mesh, const std::vector<GridInstance>& grids, double margin,
                             ContactSet& out) const = 0;
  /// Implementation of shape_shape_contacts() on valid input.
  virtual void do_shape_shape(const std::vector<ShapeInstance>& shapes, double margin, ContactSet& out) const = 0;
  /// Implementation of mesh_mesh_contacts() on valid input.
  virtual void do_mesh_mesh(const MeshInstance& a, const MeshInstance& b, double margin,
                            NarrowPhaseWorkspace& workspace, ContactSet& out) const = 0;
};

/// Makes a narrow phase by name: "table" (analytic pair table + BroadPhase for meshes).
/// @throws sinew::Error for an unknown name or an unknown params.broad_phase.
std::unique_ptr<NarrowPhase> make_narrow_phase(const std::string& name = "table",
                                               const NarrowPhaseOptions& params = {});

/// Checks a shape's sizes and pose (rotation orthonormal within 1e-9).
/// @throws sinew::Error naming @p what and the offending value.
void check_shape(const ShapeInstance& s, const std::string& what);

}  // namespace sinew
