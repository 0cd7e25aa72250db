/// @file
/// @brief The evaluated state of a mechanical system (world poses and velocities of particles and
/// rigid bodies) and references to points on its components, the vocabulary force fields and
/// mappings are written in.
///
/// Velocity convention (the whole model library): a particle has velocity v (world, 3 DOFs); a
/// rigid body has the twist (v, w) in WORLD coordinates, v the velocity of the body-frame origin
/// and w the angular velocity (6 DOFs, translational first as in core's Twist). The conjugate
/// generalized force is the wrench (f, tau) in world coordinates with tau about the body origin,
/// and the mass matrix is core's spatial inertia rotated to world axes (rotate_inertia(I, R)),
/// so that the offset centre of mass and the fictitious force of core's fictitious_force() apply
/// unchanged (mechanics notes sec. 0.1, 0.19). Positions of a body are (x, q): its origin and a
/// unit quaternion (s, v) (7 numbers); a velocity-space perturbation (dx, dtheta) moves
/// x -> x + dx and q -> exp(dtheta) q (world-frame exponential map, sec. 0.2, eq. 0.1).
#pragma once

#include <Eigen/Core>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/quaternion.hpp"
#include "sinew/core/small_matrix.hpp"

namespace sinew::model {

/// Kind of a component of a mechanical system.
enum class ComponentKind {
  kParticle,  ///< a point mass: 3 position and 3 velocity coordinates
  kBody       ///< a rigid body: 7 position (origin, quaternion) and 6 velocity coordinates
};

/// World pose and velocity of one rigid body, evaluated from (q, u).
struct BodyState {
  Vec3 x;        ///< origin, world coordinates
  Quaternion q;  ///< orientation (body to world), unit
  Mat3 R;        ///< rotation_matrix(q), body to world
  Vec3 v;        ///< velocity of the origin, world coordinates
  Vec3 w;        ///< angular velocity, world coordinates
};

/// World positions and velocities of every particle and body at one (t, q, u); force fields read
/// it, the system fills it once per evaluation.
struct SystemState {
  double t = 0.0;                   ///< time
  std::vector<Vec3> x;              ///< (n_particles) particle positions
  std::vector<Vec3> v;              ///< (n_particles) particle velocities
  std::vector<BodyState> bodies;    ///< (n_bodies) body poses and twists
  std::vector<Index> particle_dof;  ///< (n_particles) first velocity DOF of each particle
  std::vector<Index> body_dof;      ///< (n_bodies) first velocity DOF of each body
};

/// A point force fields and mappings act on: a particle, a point fixed in a rigid body (a
/// marker, given in body coordinates) or a fixed world point (an anchor without DOFs).
struct PointRef {
  /// What the point is attached to.
  enum class Kind {
    kParticle,  ///< particle `index`
    kBody,      ///< point `local` (body coordinates) of body `index`
    kWorld      ///< fixed world point `local`
  };
  Kind kind = Kind::kWorld;      ///< what the point is attached to
  Index index = -1;              ///< particle or body index (unused for kWorld)
  Vec3 local = Vec3{{0, 0, 0}};  ///< body coordinates (kBody) or world position (kWorld)
};

/// The particle @p i as a point.
inline PointRef particle_point(Index i) { return PointRef{PointRef::Kind::kParticle, i, Vec3{{0, 0, 0}}}; }
/// The point with body coordinates @p local fixed in body @p b (a marker).
inline PointRef body_point(Index b, const Vec3& local) { return PointRef{PointRef::Kind::kBody, b, local}; }
/// A fixed world point at @p x (no DOFs).
inline PointRef world_point(const Vec3& x) { return PointRef{PointRef::Kind::kWorld, -1, x}; }

}  // namespace sinew::model
