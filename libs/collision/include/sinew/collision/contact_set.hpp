/// @file
/// @brief Contact output: a flat structure of arrays with, per contact, the participants, the
/// signed barycentric weights of their mesh vertices, the gap, the contact frame and the
/// obstacle velocity; and the rows of the contact Jacobian H built from it.
#pragma once

#include <vector>

#include "sinew/collision/contact_frame.hpp"
#include "sinew/core/config.hpp"

namespace sinew {

/// What the two participants of a contact are.
enum class ContactKind : int {
  kPointShape = 0,      ///< A: a mesh vertex; B: an analytic shape (obstacle or rigid body)
  kVertexTriangle = 1,  ///< A: a mesh vertex; B: a point of a mesh triangle
  kEdgeEdge = 2,        ///< A: a point of a mesh edge; B: a point of another mesh edge
  kShapeShape = 3       ///< A and B: analytic shapes (rigid-body points)
};

/// One contact, the unit pushed into and read from a ContactSet.
struct Contact {
  ContactKind kind;        ///< participants' kind
  Index object_a;          ///< id of the mesh or shape instance of participant A
  Index object_b;          ///< id of the mesh or shape instance of participant B
  Index vertices[4];       ///< mesh vertices involved, -1 where unused (see ContactSet::vertices)
  double weights[4];       ///< signed weights, point_a - point_b = sum_k weights[k] x_{vertices[k]}
                           ///< over the mesh vertices (see ContactSet::weights)
  Vec3 point_a;            ///< world witness point on A
  Vec3 point_b;            ///< world witness point on B
  Vec3 local_a;            ///< point_a in A's body frame when A is a shape (rigid-body point), else point_a
  Vec3 local_b;            ///< point_b in B's body frame when B is a shape or grid, else point_b
  double gap;              ///< signed distance along the normal (< 0: penetration)
  ContactFrame frame;      ///< normal (from B to A) and two tangents
  Vec3 obstacle_velocity;  ///< prescribed velocity of B's material point at point_b (u of Eq. 31)
};

/// Contacts as a structure of arrays, in the order they were found (a stable order: the narrow
/// phase walks sorted candidate pairs). Participant A is the one the normal points towards.
struct ContactSet {
  std::vector<int> kind;        ///< (n_contacts) ContactKind as int
  std::vector<Index> object_a;  ///< (n_contacts) mesh / shape id of A
  std::vector<Index> object_b;  ///< (n_contacts) mesh / shape id of B
  /// (n_contacts x 4) mesh vertex indices: vertex-triangle [v, t0, t1, t2]; edge-edge
  /// [a0, a1, b0, b1]; point-shape [v, -1, -1, -1]; shape-shape all -1.
  std::vector<Index> vertices;
  /// (n_contacts x 4) signed barycentric weights matching vertices, such that for mesh-mesh
  /// contacts point_a - point_b = sum_k w_k x_{v_k}: vertex-triangle [1, -b0, -b1, -b2];
  /// edge-edge [1 - s, s, -(1 - t), -t]; point-shape [1, 0, 0, 0].
  std::vector<double> weights;
  std::vector<double> point_a;  ///< (n_contacts x 3) world witness point on A
  std::vector<double> point_b;  ///< (n_contacts x 3) world witness point on B
  /// (n_contacts x 3) point_a in A's body frame for a shape (the rigid-body point whose
  /// Jacobian enters H); equal to point_a for mesh participants.
  std::vector<double> local_a;
  /// (n_contacts x 3) point_b in B's body frame for a shape or grid; point_b for meshes.
  std::vector<double> local_b;
  std::vector<double> gap;                ///< (n_contacts) signed distance n . (point_a - point_b)
  std::vector<double> frame;              ///< (n_contacts x 9) normal, tangent1, tangent2
  std::vector<double> obstacle_velocity;  ///< (n_contacts x 3) prescribed velocity of B at point_b

  /// Number of contacts.
  Index size() const { return static_cast<Index>(gap.size()); }
  /// Removes every contact, keeping the capacity (no allocation in the next step).
  void clear();
  /// Reserves room for @p n contacts.
  void reserve(Index n);
  /// Appends one contact.
  void push_back(const Contact& c);
  /// Contact i as a struct.
  /// @throws sinew::Error if i is out of range.
  Contact at(Index i) const;
};

/// One non-zero of the contact Jacobian H.
struct JacobianEntry {
  Index row;     ///< 3 i + r for contact i and r = 0 (normal), 1 (tangent1), 2 (tangent2)
  Index col;     ///< 3 v + axis for mesh vertex v
  double value;  ///< w_k c[axis] with c the normal or a tangent (Eq. 30-31)
};

/// The rows of H for mesh vertex DOFs (3 n_vertices columns): row 3i + r of contact i is
/// sum_k w_k c_r^T e_{v_k}, with c_0 = n, c_1 = t1, c_2 = t2 (Appendix A.1, Eq. 30-31). For
/// mesh-mesh contacts H_n x reproduces n . (point_a - point_b). Entries are emitted contact by
/// contact, row by row, vertex by vertex (duplicates are not merged).
/// @throws sinew::Error if a contact names a vertex outside [0, n_vertices).
std::vector<JacobianEntry> contact_jacobian(const ContactSet& contacts, Index n_vertices);

}  // namespace sinew
