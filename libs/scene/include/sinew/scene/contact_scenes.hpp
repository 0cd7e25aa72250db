/// @file
/// @brief Built-in frictional-contact scenes (issue 6): a stack of boxes, a rigid block on an
/// incline, a dropped sliding cube, a stiff FEM block on an incline, a chain of rigid links
/// draped over a box and a cloth dropped on the corner of a box. Each scene is a system, its
/// contact constraint (and joints), an initial state, and the step size and number of steps after
/// which it is in rich contact (what export_contact_problem() uses), so that tests, benchmarks
/// and the FCLIB export all step the same scenes.
#pragma once

#include <memory>
#include <string>
#include <vector>

#include "sinew/constraints/constraint.hpp"
#include "sinew/constraints/constraint_problem.hpp"
#include "sinew/constraints/contact_constraint.hpp"
#include "sinew/integrators/contact_step.hpp"
#include "sinew/model/mechanical_system.hpp"
#include "sinew/scene/deformable_body.hpp"

namespace sinew::scene {

/// Standard gravity (m/s^2) of every contact scene, along -z.
constexpr double kGravity = 9.81;

/// Spatial inertia of a solid box of @p mass with half extents @p e, centre of mass at the origin.
SpatialInertia box_inertia(double mass, const Vec3& e);

/// A box shape of half extents @p e.
Shape box_shape(const Vec3& e);

/// A static box obstacle of half extents @p e centred at @p centre, axis-aligned.
Obstacle box_obstacle(const Vec3& centre, const Vec3& e);

/// A system with its contact constraint, joints and state: the unit a test or benchmark steps.
struct ContactScene {
  std::string name;  ///< short id, e.g. "box_stack_10"
  std::unique_ptr<model::MechanicalSystem> system = std::make_unique<model::MechanicalSystem>();  ///< the components
  std::unique_ptr<constraints::ContactConstraint> contact;       ///< the frictional contacts
  std::vector<std::unique_ptr<constraints::Constraint>> joints;  ///< bilateral constraints (the chain's ball joints)
  std::vector<DeformableBody> deformables;                       ///< FEM bodies added by the builder, in order
  integrators::State state;                                      ///< current state (set by init())
  double time_step = 1e-3;                                       ///< h, the step size (s) the scene is meant for
  int rich_contact_steps = 0;  ///< steps of time_step after which the scene is in rich contact

  /// Sets the state from the system's initial positions and velocities (after adding components).
  void init();
  /// The constraints to pass to ContactStep::step(): the contact, then the joints.
  std::vector<const constraints::Constraint*> constraints() const;
  /// Origin of body @p b at the current state.
  Vec3 body_position(Index b) const;
  /// Orientation of body @p b at the current state.
  Quaternion body_orientation(Index b) const;
  /// Velocity of the origin of body @p b.
  Vec3 body_velocity(Index b) const;
};

/// A box of half extents @p e and @p mass resting with its bottom face on the plane through the
/// origin tilted by @p angle about y (downhill: (cos a, 0, -sin a)), friction @p mu.
/// Rich contact: 4 corner contacts from the first step (rich_contact_steps = 10).
ContactScene incline_scene(double angle, double mu, const Vec3& e = Vec3{{0.1, 0.1, 0.05}}, double mass = 1.0);

/// Half width of box @p k of box_stack_scene(): 0.100 - 0.002 k m.
double stack_half_width(int k);

/// @p boxes boxes 0.1 m high (1 kg each), box k of half width stack_half_width(k), resting on the
/// floor z = 0; friction @p mu, 1 mm margin. 4 contacts on the floor and 4 between each pair of
/// boxes (40 for 10 boxes) from the first step; rich_contact_steps = 5.
ContactScene box_stack_scene(int boxes = 10, double mu = 0.5);

/// A cube of half size @p half (1 kg) dropped flat from @p drop (bottom face height) while moving
/// at @p speed along x onto the floor z = 0 with friction @p mu. With the defaults it lands at
/// t = 0.2 s and slides to rest at t ~ 0.4 s; rich_contact_steps = 300 (sliding on 4 corners).
ContactScene drop_scene(double half = 0.1, double drop = 0.2, double speed = 2.0, double mu = 0.5);

/// A stiff FEM block (a 0.1 m cube of 6 corotational tets, E = 1e8 Pa, nu = 0.3, rho = 1000) on
/// the plane through the origin tilted by @p angle about y, friction @p mu; particle contacts on
/// its bottom vertices (deformables[0]). rich_contact_steps = 10.
ContactScene fem_incline_scene(double angle, double mu);

/// A chain of @p links rigid links (0.1 m long, 0.2 kg, ball joints between consecutive links,
/// none to the world) released flat and centred across the top of a static box (0.4 m wide, top
/// at z = 1 m), friction @p mu: the ends fall over two edges and the links on the top and
/// around the edges are in contact. Link colliders are 0.08 m long so that neighbours never
/// touch. rich_contact_steps = 250 (h = 1 ms): the ends are falling over the edges; 21 contacts
/// for 20 links (several per link on the top, redundant with the joints). Throws sinew::Error when links < 2.
ContactScene chain_over_box_scene(int links = 20, double mu = 0.3);

/// A square cloth of @p n x @p n particles (0.6 m side, 0.1 kg/m^2, StVK membrane E = 1e3 N/m,
/// nu = 0.3) dropped from 1 cm onto the top corner of a static box (the corner at the origin,
/// the box in x, y, z < 0) with friction @p mu: a quarter of the cloth lands on the top face, the
/// rest falls past the two top edges. rich_contact_steps = 150: every particle over the top face
/// in contact (100 at 20 x 20, 21 at 10 x 10). Throws sinew::Error when n < 2.
ContactScene cloth_on_corner_scene(int n = 20, double mu = 0.3);

/// Every scene above at its default size (for the solver benchmarks and the FCLIB export). Not
/// the cloth at 30 x 30 (225 contacts, W dense 675 x 675): Siconos' NSN_FB grows past 19 GB on it.
std::vector<ContactScene> benchmark_scenes();

/// The contact-only local problem of a local problem @p p with bilateral (joint) blocks,
/// condensed out exactly by their Schur complement: r_j is free and u_j = 0, so the contacts see
/// W_cc - W_cj W_jj^-1 W_jc and q_c - W_cj W_jj^-1 q_j. @p p itself when it has no bilateral block.
/// @throws sinew::Error for other block kinds (unilateral, box friction) or a singular W_jj.
constraints::DelassusProblem condense_bilateral_blocks(const constraints::DelassusProblem& p);

/// Steps @p scene rich_contact_steps times with a ContactStep of the non-smooth Newton min-map
/// solver (tolerance 1e-10; PGS to 1e-8 redoes a step it fails; the state advances) and returns the last step's contact
/// problem in the local (Delassus) form with contact blocks only (condense_bilateral_blocks(): FCLIB's local format
/// holds contacts only) and only the nonzero entries of W; @p full, when given, receives the problem before the
/// condensation (blocks in the step's order).
/// @throws sinew::Error when a step fails or the last step has no contacts.
constraints::DelassusProblem export_contact_problem(ContactScene& scene, Backend& backend,
                                                    constraints::DelassusProblem* full = nullptr);

}  // namespace sinew::scene
