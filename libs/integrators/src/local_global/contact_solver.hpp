// The contact part of LocalGlobalIntegrator (private; contact_solver.cpp, contact_validation.cpp,
// contact_detection.cpp, contact_rows.cpp, cloth_self_contact.cpp): collision once per step (obstacles,
// vertex-triangle and edge-edge contact between bodies, and mesh obstacles' sharp features on the
// bodies' surfaces: obstacle_features.hpp), H, d, the Delassus
// operator W = H S'^T S' H^T (delassus.hpp), the self-contact of the triangles (cloth, cloth_self_contact.cpp),
// and per L-G iteration the indicator-Newton step on
// u = W r + q_loc followed by the correction q = q_free + A^-1 h H^T r (Algorithm 4). The
// formulation and its h factors are in include/sinew/integrators/local_global_contact.hpp.
#pragma once

#include <cstddef>
#include <memory>
#include <string>
#include <utility>
#include <vector>

#include "contact_operator.hpp"
#include "delassus.hpp"
#include "local_problem.hpp"
#include "obstacle_features.hpp"
#include "sinew/collision/cloth_self_contacts.hpp"
#include "sinew/collision/edge_edge_contacts.hpp"
#include "sinew/collision/vertex_triangle_contacts.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/contact_warm_start.hpp"
#include "sinew/constraints/indicator_newton_step.hpp"
#include "sinew/core/backend.hpp"
#include "sinew/core/device_sparse.hpp"
#include "sinew/integrators/local_global.hpp"
#include "sinew/integrators/local_global_cable.hpp"

namespace sinew {
class SparseInverse;
class SparseInverseOperator;
}  // namespace sinew

namespace sinew::integrators::detail {

class CheckpointWriter;
class CheckpointReader;

/// Boundary edges whose faces' normals are more than this apart (10 degrees) take part in
/// edge-edge contacts (EdgeEdgeDetector): a flatter edge meets the other body through its faces.
inline constexpr double kSharpEdgeAngle = 10.0 * 3.14159265358979323846 / 180.0;

/// Throws sinew::Error naming the first invalid contact field of @p d (obstacles, contact
/// vertices, margin, thickness) for a solid of @p n vertices; @p who prefixes the message.
void validate_contact(const LocalGlobalDescription& d, Index n, const std::string& who);

/// Checks an obstacle pose and motion (finite, orthonormal rotation); @p name prefixes the message.
void validate_obstacle_placement(const Pose& pose, const Motion& motion, const std::string& name);

/// The surfaces of a description's bodies for contact between bodies
/// (LocalGlobalDescription::body_contact, vertex_triangle_contacts.hpp).
struct BodySurfaces {
  /// The bodies of the tets; triangles: the boundary faces whose three vertices are contact vertices.
  TetSurfaces surfaces;
  std::vector<Index> queries;  ///< contact vertices on a body's boundary, ascending
  bool active = false;         ///< some query vertex faces a triangle of another body (or of its own)
  /// (bodies) 1 for each body whose surface also touches itself (LocalGlobalDescription::self_contact:
  /// all of them); empty without self-contact.
  std::vector<char> self;
};

/// The BodySurfaces of @p d (tets already checked) for @p n vertices; inactive (and empty)
/// when d.body_contact is false, or with one body unless d.self_contact.
BodySurfaces body_surfaces(const LocalGlobalDescription& d, Index n);

/// Whether @p d asks for the self-contact of its triangles (LocalGlobalDescription::self_contact
/// with triangles).
inline bool cloth_self_contact(const LocalGlobalDescription& d) { return d.self_contact && !d.triangles.empty(); }

/// Contact state and workspace of one LocalGlobalIntegrator (see the file comment).
class LocalGlobalContactSolver {
 public:
  /// Keeps references to @p backend, @p inverse and @p op (they outlive the solver); @p masses (n).
  LocalGlobalContactSolver(Backend& backend, const LocalGlobalDescription& d, const LocalGlobalContactOptions& options,
                           const std::vector<double>& masses, const SparseInverse& inverse, SparseInverseOperator& op,
                           bool timed, BodySurfaces bodies);
  ~LocalGlobalContactSolver();

  /// Collision at @p q_t (3n) and the prediction @p q_tilde (3n); builds H, d, q_loc's constant
  /// part, W and prepares the Newton step. Returns the number of
  /// constraint blocks: contacts plus pulled cables (local_global_cable.hpp).
  std::size_t begin_step(const DeviceArray<double>& q_t, const DeviceArray<double>& q_tilde, LocalGlobalReport& report);
  /// One L-G iteration's contact part: @p x holds q_free = A^-1 b on entry and q on exit.
  void iterate(const DeviceArray<double>& q_t, DeviceArray<double>& x, LocalGlobalReport& report);
  /// Reports the last local problem (error, impulses) and keeps r for the next step's warm start;
  /// when @p advanced, moves the obstacles by their motions over h.
  void end_step(bool advanced, LocalGlobalReport& report);

  /// The obstacles with their current poses.
  const std::vector<Obstacle>& obstacles() const { return obstacles_; }
  /// The bodies and triangles of contact between bodies.
  const TetSurfaces& surfaces() const { return bodies_.surfaces; }
  /// Sets obstacle @p k's pose and motion (checked by the caller).
  void set_obstacle(std::size_t k, const Pose& pose, const Motion& motion);
  /// Number of cables.
  std::size_t cable_count() const { return cables_.size(); }
  /// Rest length of cable @p k (resolved: never automatic).
  double cable_rest_length(std::size_t k) const { return cables_[k].rest_length; }
  /// Sets cable @p k's pull (checked by the caller).
  void set_cable_pull(std::size_t k, double pull) { cables_[k].pull = pull; }

  /// One contact of a step: a (vertex, obstacle) pair and its frame.
  using Contact = VertexContact;
  /// W of the last step (downloaded; assembled here when the step applied it as an operator);
  /// 0 x 0 when it had no constraint rows.
  CsrMatrix delassus() const;
  /// What the next steps depend on beyond the description (LocalGlobalIntegrator::save()).
  struct State {
    std::vector<Pose> poses;             ///< (obstacles) current poses
    std::vector<Motion> motions;         ///< (obstacles) current motions
    std::vector<double> pulls;           ///< (cables) current pulls
    std::vector<double> cable_r_prev;    ///< (cables) previous step's cable impulses (warm start)
    std::vector<Contact> contacts_prev;  ///< the previous step's contacts (warm start)
    std::vector<double> r_prev;          ///< (3 contacts_prev) their impulses
  };
  /// Writes the State to @p out (raw bits).
  void save(CheckpointWriter& out) const;
  /// Reads a State written by save() and checks it fits this solver (counts, indices, finite
  /// values). @throws sinew::Error otherwise; nothing is changed.
  State read(CheckpointReader& in) const;
  /// Installs a State returned by read().
  void restore(State&& state);

 private:
  void detect_contacts();
  /// +1 or -1: the side of the two-sided sheet @p obstacle that vertex @p v keeps, given its signed
  /// distance @p d at the step's start (the side of its contact with the sheet in the last step, else
  /// the side it is on).
  double sheet_side(Index v, int obstacle, const SignedDistance& d) const;
  void detect_body_contacts();
  /// The cloth's self-contacts at q_t (cloth_self_contact.cpp), their sides kept from contacts_prev_.
  void detect_cloth_contacts();
  /// Makes cloth_ from @p d's triangles (all of them) and adds their vertices to order_.
  void build_cloth(const LocalGlobalDescription& d);
  /// Appends vertex @p v's cloth self-contacts (its vertex-triangle ones from @p next_vt, its edge-edge
  /// ones as edge a's first vertex from @p next_ee) to contacts_, witness_ and e_host_.
  void append_cloth_contacts(Index v, std::size_t& next_vt, std::size_t& next_ee);
  // Appends the edge-edge contact of vertex v = a[0] (key @p key): rows over a0, a1, b0, b1 with
  // weights 1 - s, s, -(1 - t), -t along @p normal's frame, its witness points and its e entry.
  void append_edge_edge(Index v, int key, const std::array<Index, 2>& a, const std::array<Index, 2>& b, double s,
                        double t, const Vec3& normal, double distance);
  void gather_cables(LocalGlobalReport& report);
  void assemble_rows();
  void warm_start();
  constraints::KeyedContactFrame keyed(const Contact& c) const;
  void build_delassus(LocalGlobalReport& report);
  bool use_operator(const std::vector<Index>& verts) const;
  void relinearize_cables(const std::vector<double>& xk);
  double now_seconds();
  /// Whether @p c is an edge-edge contact between bodies (its key is past the obstacles' and
  /// triangles', before the obstacle features').
  bool is_edge_contact(const Contact& c) const {
    return static_cast<std::size_t>(c.obstacle) >= obstacles_.size() + bodies_.surfaces.triangles.size() &&
           c.obstacle < first_feature_key_;
  }
  /// Whether @p c is a contact between bodies (vertex-triangle or edge-edge) within one body: a tet
  /// body's self-contact (LocalGlobalDescription::self_contact).
  bool is_body_self_contact(const Contact& c) const {
    const int key = c.obstacle - static_cast<int>(obstacles_.size());
    if (key < 0 || c.obstacle >= first_feature_key_) return false;
    const Index other = is_edge_contact(c) ? c.tri[1] : c.tri[0];  // edge b's first vertex, or the triangle's
    return bodies_.surfaces.vertex_body[c.vertex] == bodies_.surfaces.vertex_body[other];
  }
  /// Whether @p c is an obstacle feature's contact with a body's surface (obstacle_features.hpp).
  bool is_feature_contact(const Contact& c) const {
    return c.obstacle >= first_feature_key_ && c.obstacle < first_cloth_key_;
  }
  /// Whether @p c is a self-contact of the cloth (keys past the features': first_cloth_key_ + its
  /// triangle, then + triangles + its edge b).
  bool is_cloth_contact(const Contact& c) const { return c.obstacle >= first_cloth_key_; }
  /// Whether @p c is an edge-edge self-contact of the cloth.
  bool is_cloth_edge_contact(const Contact& c) const { return c.obstacle >= first_cloth_key_ + cloth_triangles_; }
  /// The second part of @p c's key (VertexContact::obstacle): tri[0] for an edge-edge contact (between
  /// bodies or of the cloth) and a feature edge's, else -1.
  Index second_key(const Contact& c) const {
    return is_edge_contact(c) || is_cloth_edge_contact(c) || (is_feature_contact(c) && c.tri[1] < 0) ? c.tri[0]
                                                                                                     : Index{-1};
  }
  /// The obstacle of @p c, or -1 for a contact between bodies.
  int obstacle_of(const Contact& c) const {
    if (is_feature_contact(c)) return features_->obstacle_of(c.obstacle - first_feature_key_);
    return c.obstacle < static_cast<int>(obstacles_.size()) ? c.obstacle : -1;
  }

  Backend* be_;
  LocalGlobalContactOptions options_;
  std::vector<Obstacle> obstacles_;
  std::vector<Index> candidates_;  // contact vertices, ascending
  std::vector<Index> order_;       // the vertices whose contacts are gathered: candidates_ and the cloth's, ascending
  std::vector<char> touches_obstacles_;  // (n) whether a vertex is a contact vertex (touches obstacles)
  std::vector<double> masses_;           // (n)
  double h_, margin_, thickness_;
  Index n_;
  bool timed_;
  SparseInverseOperator* op_;
  DeviceCsr St_;                            // (n x n) S'^T, uploaded once: row a is column a of S'
  std::unique_ptr<SchurComplement> schur_;  // C = P S'^T S' P^T (delassus.hpp)
  std::vector<Index> col_of_vertex_;        // (n) column of C of each constrained vertex, -1 otherwise
  std::vector<double> diag_;                // (rows) diag(W)
  CsrMatrix St_host_;                       // S'^T on the host for a backend that does not run host code
  std::unique_ptr<DelassusOperator> wop_;   // W through its factors (contact_operator.hpp)
  bool operator_used_ = false;              // this step applies W as wop_ (W_ not assembled)
  std::vector<Index> verts_;                // the rows' vertices of this step, ascending
  // W reuse (LocalGlobalContactOptions::reuse_delassus): the contacts and cable rows that W_ (or
  // wop_) and diag_ were built from, and whether they hold a W.
  std::vector<Contact> delassus_contacts_;
  CableRows delassus_cables_;
  bool delassus_kept_ = false;
  bool same_rows_ = false;  // this step's contacts and cable rows are those of delassus_contacts_, _cables_

  BodySurfaces bodies_;                                // contact between bodies
  double body_friction_;                               // its Coulomb coefficient
  VertexTriangleDetector detector_;                    // its collision (buffers kept between steps)
  std::vector<VertexTriangleContact> found_;           // its contacts of this step, by (vertex, triangle)
  EdgeEdgeDetector edge_detector_;                     // its edge-edge collision
  std::vector<EdgeEdgeContact> found_edges_;           // its contacts of this step, by (a0, edge b, a1)
  std::vector<Vec3> xs_, ys_;                          // (n) q_t and q~ as points, for the detector
  std::unique_ptr<ObstacleFeatureContacts> features_;  // obstacle features on the bodies' surfaces
  int first_feature_key_ = 0;                          // obstacles + triangles + body edges
  // The cloth's self-contact (LocalGlobalDescription::self_contact; cloth_self_contact.cpp).
  std::unique_ptr<ClothSelfContactDetector> cloth_;        // null without
  double self_friction_ = 0.0;                             // its Coulomb coefficient
  int first_cloth_key_ = 0;                                // first_feature_key_ + the features' keys
  int cloth_triangles_ = 0;                                // the detector's triangles
  std::vector<ClothVertexTriangleContact> cloth_vt_;       // this step's, by (vertex, triangle)
  std::vector<ClothEdgeEdgeContact> cloth_ee_;             // this step's, by (a0, edge b, a1)
  std::vector<ClothVertexTriangleContact> cloth_vt_prev_;  // the last step's keys and normals (their sides)
  std::vector<ClothEdgeEdgeContact> cloth_ee_prev_;        // likewise
  mutable std::vector<Index> group_;                       // (contacts) scratch of use_operator()
  std::vector<Contact> contacts_;                          // this step's, ordered by vertex then obstacle key
  std::vector<Vec3> witness_;                              // (2 contacts) points on A (the solid) and B at q_t
  std::vector<Cable> cables_;                              // rest lengths resolved, current pulls
  std::vector<std::size_t> active_;                        // cables with pull > 0 this step: rows 3c + i
  CableRows cable_rows_;                                   // (active) row entries of H, by vertex
  std::vector<double> cable_r_prev_;                       // (cables) previous step's impulses, 0 if slack
  std::size_t rows_ = 0;                                   // rows of this step: 3 contacts + pulled cables
  std::vector<constraints::ConstraintBlock> blocks_;       // (contacts) circular-cone blocks
  std::vector<double> r_prev_;                             // (3 contacts of the previous step) impulses
  std::vector<Contact> contacts_prev_;                     // the previous step's contacts (warm start)
  std::vector<double> x_host_, y_host_;                    // (3n) q_t and q~ downloaded for collision
  CsrMatrix H_host_;                                       // (3c + a x 3n) H on the host
  DeviceCsr H_, W_;                                        // (3c x 3n), (3c x 3c)
  DeviceArray<double> e_;                                  // (3c + a) d/h - H v_obs; cables: relinearize_cables()
  std::vector<double> e_host_;                             // (3c + a) e_ on the host
  DeviceArray<double> q_loc_, r_, u_;                      // (3c) local free velocity, impulses, velocity
  DeviceArray<double> t3n_, c3n_;                          // (3n) scratch
  std::unique_ptr<constraints::IndicatorNewtonStep> step_;
  // ContactSolve::kConverged and kAuto: the converged solve, and whether this step uses it.
  std::unique_ptr<ConvergedLocalSolve> converged_;
  bool converged_used_ = false;
};

}  // namespace sinew::integrators::detail
