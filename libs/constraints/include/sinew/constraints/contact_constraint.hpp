/// @file
/// @brief ContactConstraint: frictional contact between the components of a
/// model::MechanicalSystem (rigid bodies carrying analytic shapes, particles) and static
/// obstacles (analytic shapes, triangle meshes closed or open, signed-distance grids), as Signorini-Coulomb row blocks
/// (realtime-hyperelastic-frictional-contact Sec. 3.2, Appendix A.1 eq. (30)-(31)).
///
/// Each contact found by the collision library's analytic pair functions (box-half-space,
/// box-box, point-shape, ...), or for a mesh or grid obstacle by its signed distance
/// (obstacle_distance(): contact points) and shape_obstacle_contacts() (colliders), becomes one block of kind kContact
/// (or kContactBoxFriction) with friction coefficient mu and the three rows
///   n^T (J_A - J_B),  t1^T (J_A - J_B),  t2^T (J_A - J_B),
/// J_X the 3 x ndof point Jacobian (model::point_jacobian()) of the witness point of X on its
/// component (zero for a static obstacle), n the normal from B to A and (t1, t2) the tangents
/// of the contact frame; phi = gap = n . (point_a - point_b) on the normal row, 0 on the
/// tangents. With assemble_step_problem() (constraint.hpp) the normal row then reads
/// u_n = n . (v_A - v_B) + gap / h >= 0: the linearized gap at the end of the step stays open.
///
/// Contact points (particles, e.g. the surface vertices of an FEM body, and mapped points, e.g. a
/// finer collision surface embedded in its tets) touch the obstacles and the rigid colliders; on
/// a collider both sides move and the block's rows carry both (an FEM body resting on a free
/// rigid box pushes it down). A mapped point's J_A is its mapping Jacobian sum_k w_k J_k
/// (compliant-constraints: a constraint on a mapped state is G_x J).
///
/// Contact surfaces (add_surface()) are triangle meshes over mapped points: an FEM body's
/// boundary over its particles, a rigid body's triangle-mesh shape over markers on the body, a
/// finer collision mesh embedded in tets. Two surfaces touch where a vertex of one comes within
/// the margin of the nearest triangle of the other (vertex_triangle_contacts.hpp) and where sharp
/// edges of the two cross (edge_edge_contacts.hpp): rows n^T (J_A - J_B) with J_B = sum_k b_k J_k
/// over the triangle's vertices (barycentric weights of the closest point) or the two closest
/// points of the edges, the seed's H rows (Sec. 5.1, eq. (11)) for two moving sides, so rigid
/// mesh-mesh, rigid-deformable and deformable-deformable contact are one rule. A surface touches
/// itself only when added with self-contact (a soft body folding onto itself): a vertex against
/// its own surface's nearest triangle away from its neighbourhood (vertex_triangle_contacts.hpp),
/// and its sharp edges against its own edges away from theirs (edge_edge_contacts.hpp).
/// Its vertices touch obstacles and colliders when also added as contact points (add_points());
/// sphere, capsule and box obstacles and colliders also touch its faces and edges
/// (shape_surface_contacts.hpp: a tool between the vertices of a coarse mesh), rows
/// n^T (J_A - J_B) with A the surface's witness sum_k b_k J_k and B the shape's.
///
/// Each contact block comes with its ContactRecord (ConstraintRows::contacts): the world witness
/// points of A and B, the frame of its rows, and its sides (an obstacle by its index, a rigid
/// body, a particle, or a combination of points such as a triangle's point).
///
/// A two-sided sheet obstacle (is_sheet(): an open mesh, a blade) is touched from either side: each
/// point keeps the side of its contact with it in the last add_rows() (SheetSides), else the side
/// it is on. A contact surface touches mesh and grid obstacles only by its vertices added as
/// contact points, not by its faces and edges.
///
/// Friction is per pair of surface materials: every obstacle, collider and set of contact points
/// has a material index (0 unless given), and set_friction() gives the coefficient of a pair;
/// pairs not set use ContactOptions::mu.
///
/// Order (deterministic): first every rigid collider against every obstacle (colliders in the
/// order added, obstacles in the order added), then every pair of colliders (i < k, A = i,
/// B = k) on different bodies whose pair is not excluded (exclude_bodies()), then each particle of each particle set
/// against every obstacle and then every collider, then each mapped point of each set alike, then each surface against
/// every obstacle and then every collider (shape_surface_contacts() order), then the vertex-triangle contacts between
/// surfaces by (vertex, triangle) and the edge-edge contacts by (edge, edge), vertices and triangles numbered surface
/// after surface; within a pair, the pair function's order (a mesh or grid obstacle's: shape_obstacle_contacts()').
#pragma once

#include <array>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "sinew/collision/narrow_phase.hpp"
#include "sinew/collision/obstacle.hpp"
#include "sinew/collision/shape.hpp"
#include "sinew/collision/shape_surface_contacts.hpp"
#include "sinew/collision/sheet_sides.hpp"
#include "sinew/constraints/constraint.hpp"
#include "sinew/model/mapped_points.hpp"

namespace sinew::constraints {

/// Parameters of ContactConstraint.
struct ContactOptions {
  /// Coulomb friction coefficient of every contact (>= 0).
  double mu = 0.5;
  /// Contacts are kept while their gap <= margin. Open contacts keep their whole gap in the
  /// step (u_n = v_n + gap / h), so a margin larger than the distance travelled in one step
  /// (|v| h) catches an approaching surface before it is crossed; 5 mm covers 5 m/s at 1 ms.
  double margin = 5e-3;
  /// Friction cone: circular (kContact, the seeds' Coulomb law) or the box/pyramid of PGS
  /// solvers (kContactBoxFriction).
  bool box_friction = false;
  /// Edges of two contact surfaces cross-check (edge-edge contacts) when at least one is sharp:
  /// its two faces' normals more than this angle apart (radians, in [0, pi]).
  double sharp_edge_angle = 10.0 * 3.14159265358979323846 / 180.0;
  /// Throws sinew::Error unless mu and margin are finite and >= 0 and sharp_edge_angle is in
  /// [0, pi].
  void validate() const;
};

/// A rigid collider: an analytic shape fixed in a rigid body, centred at the body origin with
/// the body's axes (the shape's local frame is the body frame).
struct BodyCollider {
  Index body = -1;     ///< rigid-body index in the system
  Shape shape;         ///< shape in body coordinates
  Index material = 0;  ///< surface material (friction pairs)
};

/// Contact between rigid colliders, contact points (particles, mapped points) and static
/// obstacles, friction per pair of materials: one contact block (n, t1, t2) per contact point
/// (see the file comment). add_rows() reuses the surfaces' detection buffers: one constraint
/// must not be asked for rows from two threads at once.
class ContactConstraint final : public Constraint {
 public:
  /// A contact constraint named @p name with @p params (checked: sinew::Error when invalid).
  explicit ContactConstraint(const ContactOptions& params = {}, std::string name = "contact");
  ~ContactConstraint() override;
  /// Not copyable: its surfaces keep detection state between steps.
  ContactConstraint(const ContactConstraint&) = delete;
  /// Not assignable (see the copy constructor).
  ContactConstraint& operator=(const ContactConstraint&) = delete;

  /// Adds a static obstacle of surface material @p material; returns its index.
  Index add_obstacle(const Shape& shape, const Pose& pose, Index material = 0);
  /// Adds the static obstacle @p obstacle (an analytic shape, a mesh or a grid at its pose; its
  /// friction and motion are not used: friction is per material pair, obstacles do not move) of
  /// surface material @p material; returns its index. Throws sinew::Error for an invalid shape or
  /// pose, an unbuilt mesh or grid, or a non-zero motion.
  Index add_obstacle(const Obstacle& obstacle, Index material = 0);
  /// Adds a collider @p shape carried by rigid body @p body; returns its index.
  Index add_body_collider(Index body, const Shape& shape, Index material = 0);
  /// Adds the particles [first, first + count) as contact points against the obstacles and the
  /// colliders (e.g. the vertices of a deformable body from scene::add_deformable_body()).
  /// Throws sinew::Error when first or count is negative.
  void add_particles(Index first, Index count, Index material = 0);
  /// Adds the mapped points @p points (over the constrained system) as contact points against the
  /// obstacles and the colliders, and with @p touch_surfaces also against the contact surfaces:
  /// each point against the nearest triangle of each surface within the margin, as a surface's
  /// vertex (a cloth's particles on a soft or a rigid mesh body; not for a surface's own
  /// vertices, which touch the other surfaces already). Throws sinew::Error for null points.
  void add_points(std::shared_ptr<const model::MappedPoints> points, Index material = 0, bool touch_surfaces = false);
  /// Adds a contact surface: @p triangles (vertex indices into @p vertices, counter-clockwise seen
  /// from outside) over the mapped points @p vertices (of the constrained system), of surface
  /// material @p material; returns its index. Its triangle vertices touch the other surfaces'
  /// triangles, and its sharp edges (faces more than ContactOptions::sharp_edge_angle apart)
  /// their sharp edges; with @p self_contact also its own triangles away from each vertex's
  /// neighbourhood. Throws sinew::Error for null vertices or a vertex index out of range.
  Index add_surface(std::shared_ptr<const model::MappedPoints> vertices, std::vector<std::array<Index, 3>> triangles,
                    Index material = 0, bool self_contact = false);
  /// Sets the friction coefficient between materials @p a and @p b (either order; finite, >= 0).
  void set_friction(Index a, Index b, double mu);
  /// Colliders of bodies @p a and @p b (either order) make no contacts with each other: the links
  /// of a chain that meet at their joint, where the joint holds them and a contact would fight it
  /// (MuJoCo's `exclude` element). Colliders of one body never touch each other. Throws sinew::Error when
  /// an index is negative or a == b; check() refuses bodies missing from the system.
  void exclude_bodies(Index a, Index b);
  /// Whether the colliders of bodies @p a and @p b may touch (a != b and the pair not excluded).
  bool bodies_collide(Index a, Index b) const;
  /// The friction coefficient between materials @p a and @p b.
  double friction(Index a, Index b) const;

  /// The parameters in use.
  const ContactOptions& params() const { return params_; }
  /// Sets the friction coefficient of every pair not given by set_friction() (checked like
  /// ContactOptions::mu).
  void set_mu(double mu);

  std::string name() const override { return name_; }
  /// Throws sinew::Error for a collider body or particle missing from @p system, mapped points of
  /// another system, or a shape pair (collider-obstacle, collider-collider) without a contact
  /// function (a half-space collider and a mesh or grid obstacle).
  void check(const model::MechanicalSystem& system) const override;
  void add_rows(const model::MechanicalSystem& system, const model::SystemState& s, ConstraintRows& out) const override;

 private:
  // A set of contact points: a particle range or mapped points.
  struct PointSet {
    Index first = 0, count = 0;                         // particles [first, first + count)
    std::shared_ptr<const model::MappedPoints> mapped;  // or these
    Index material = 0;
  };
  // Contacts of the point x (side A = @p a) against every obstacle and collider; @p key names
  // the point to the sheets' side memory (its first entry is set to each obstacle's index).
  void add_point_contacts(const model::SystemState& s, const model::MappedPoint& a, const Vec3& x, Index material,
                          SheetSides::Key key, ConstraintRows& out) const;
  // Contacts of every collider against every obstacle.
  void add_collider_obstacle_contacts(const model::SystemState& s, ConstraintRows& out) const;

  // A contact surface: triangles (with their edges) over mapped points.
  struct Surface {
    std::shared_ptr<const model::MappedPoints> points;
    SurfaceEdges edges;
    Index material = 0;
  };
  // Registers a surface; with @p every_vertex all its vertices query the other surfaces (a set
  // of points without triangles), else those of its triangles.
  Index register_surface(std::shared_ptr<const model::MappedPoints> vertices,
                         std::vector<std::array<Index, 3>> triangles, Index material, bool self_contact,
                         bool every_vertex);
  // The surfaces' vertex positions at @p s into the detection buffers.
  void evaluate_surfaces(const model::SystemState& s) const;
  // Face and edge contacts of the obstacles' and colliders' shapes with the surfaces.
  void add_shape_surface_contacts(const model::SystemState& s, ConstraintRows& out) const;
  // Vertex-triangle and edge-edge contacts between the surfaces.
  void add_surface_contacts(const model::SystemState& s, ConstraintRows& out) const;

  // The surfaces as one body-labelled mesh and the detectors' state (kept between steps).
  struct SurfaceWork;
  // The mesh and grid obstacles' buffers and the sheets' side memory (kept between steps).
  struct ObstacleWork;

  ContactOptions params_;
  std::string name_;
  RowLabel row_label_;  // name_, shared by the labels of the contact rows (no text copied per step)
  std::vector<Obstacle> obstacles_;
  std::vector<Index> obstacle_materials_;  // (obstacles)
  std::vector<double> obstacle_radius_;    // (obstacles) bounding radius about the pose's origin
  std::vector<BodyCollider> colliders_;
  std::vector<std::pair<Index, Index>> excluded_;  // body pairs (smaller first), sorted
  std::vector<PointSet> particle_sets_, mapped_sets_;
  std::vector<std::pair<std::pair<Index, Index>, double>> friction_;  // ((a <= b), mu) set by set_friction()
  std::vector<Surface> surfaces_;
  std::unique_ptr<SurfaceWork> surface_work_;    // detection buffers, reused by each add_rows()
  std::unique_ptr<ObstacleWork> obstacle_work_;  // likewise
};

}  // namespace sinew::constraints
