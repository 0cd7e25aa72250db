/// @file
/// @brief The cloth scenes of the realtime paper ("realtime hyperelastic frictional contact",
/// Table 3 and Figures 6 and 8) as ready LocalGlobalIntegrator inputs: a square cloth pulled
/// apart by moving positional targets (Cloth Extension; ARAP, co-rotational or Neo-Hookean
/// membranes, E = 1e5 Pa, nu = 0.45, rho = 1000 kg/m^3), a cloth falling on knife blades (Cloth
/// on Knives) and a cloth falling onto the sharp top corner of a static cube (Sharp Corner; both
/// Neo-Hookean, E = 1e5 Pa, nu = 0.4), with the seed's h = 0.01 s, 5 L-G iterations and 10 CR
/// iterations per contact Newton step. Sizes are vertices per side: the defaults give Table 3's
/// 10.2k (extension) and 5.1k (knives, corner) vertices.
#pragma once

#include <cstddef>
#include <string>
#include <vector>

#include "sinew/core/config.hpp"
#include "sinew/core/small_matrix.hpp"
#include "sinew/integrators/local_global.hpp"

namespace sinew::scene {

/// A positional target of a cloth scene moving at constant velocity, or turning at a constant rate
/// about an axis, for a while, then held.
struct TargetMotion {
  std::size_t target = 0;          ///< index into description.targets
  Vec3 start{{0.0, 0.0, 0.0}};     ///< target position at t = 0 (m)
  Vec3 velocity{{0.0, 0.0, 0.0}};  ///< target velocity (m/s) while 0 <= t <= duration
  double duration = 0.0;           ///< s; afterwards the target stays where it is at t = duration
  /// Turn rate (rad/s, right-handed about axis) while 0 <= t <= duration; 0 = no turn. A turning
  /// target is start turned about the line along axis through point (then moved by velocity).
  double angular_velocity = 0.0;
  Vec3 axis{{0.0, 0.0, 1.0}};   ///< unit axis of the turn
  Vec3 point{{0.0, 0.0, 0.0}};  ///< a point of the turn's axis (m)
};

/// A cloth scene: what a LocalGlobalIntegrator needs, plus its driven targets and facts for checks.
struct ClothScene {
  std::string name;                                 ///< short id, e.g. "cloth_extension_101"
  integrators::LocalGlobalDescription description;  ///< the cloth (triangles only), targets, obstacles
  integrators::LocalGlobalOptions options;          ///< the seed's iteration counts (Table 3)
  int side = 0;                                     ///< vertices per side of the square cloth
  double spacing = 0.0;                             ///< rest distance between neighbouring vertices (m)
  std::vector<TargetMotion> motions;                ///< driven targets (cloth extension); empty elsewhere
  int steps = 0;  ///< steps of h after which the scene shows what it is for (pulled, draped)
};

/// The positions of every driven target of @p scene at time @p t (s): with tau = min(t, duration),
/// start + tau velocity, or for a turning target start turned by tau angular_velocity about its
/// axis (the scene files' "rotate" motion, the same formula), plus tau velocity. Pass them to
/// LocalGlobalIntegrator::set_target() before each step (drive_targets()).
std::vector<Vec3> target_positions(const ClothScene& scene, double t);

/// Sets every driven target of @p scene on @p integrator for the step that ends at t + h, where
/// t = integrator.time(): the targets lead the step they constrain.
void drive_targets(const ClothScene& scene, integrators::LocalGlobalIntegrator& integrator);

/// Cloth Extension (Table 3, Fig. 8): a 1 m square cloth of @p side x @p side vertices in the
/// plane z = 0, no gravity (only the membrane model acts), its two edges x = 0 and x = 1 held by
/// positional targets that move apart at @p speed (m/s, each edge) for @p duration (s), then hold:
/// with the defaults the cloth is stretched by 40% over 1 s.
/// @param model     kArap, kCorotational or kStableNeoHookean (the three rows of Table 3).
/// @param side      vertices per side (101: 10,201 vertices, 20,000 triangles).
/// @param speed     speed of each held edge (m/s), outwards along x.
/// @param duration  time the edges move (s), then they hold.
/// @throws sinew::Error when side < 2, speed or duration is not finite and >= 0, or the model has
///         no local step.
ClothScene cloth_extension_scene(MaterialModel model = MaterialModel::kStableNeoHookean, int side = 101,
                                 double speed = 0.2, double duration = 1.0);

/// Cloth on Knives (Table 3): a 1 m square Neo-Hookean cloth of @p side x @p side vertices
/// dropped flat from 0.1 m above the edges of @p knives parallel knife blades (boxes 4 mm thick,
/// 1.2 m long, 0.2 m high, along y, evenly spaced over x in [-0.3, 0.3]) standing on the floor
/// z = 0; friction 0.3. The contact is vertex against obstacle (local_global_contact.hpp), and a
/// blade thinner than a cloth edge could pass between two vertices, so the vertices keep a gap
/// (contact_thickness) of 0.75 spacing from every obstacle: a blade acts as a rounded edge of
/// that radius. The cloth lands on the blades at t ~ 0.14 s; steps = 60.
/// @param side    vertices per side (71: 5,041 vertices).
/// @param knives  number of blades.
/// @throws sinew::Error when side < 2 or knives < 1.
ClothScene cloth_on_knives_scene(int side = 71, int knives = 3);

/// Sharp Corner (Table 3, Fig. 6): a 1 m square Neo-Hookean cloth of @p side x @p side vertices
/// dropped flat from 0.05 m above a static 0.5 m cube standing on the floor, centred over the
/// cube's top corner (the cube occupies [-0.5, 0] x [-0.5, 0] x [0, 0.5]), so that it drapes over
/// a sharp corner, two edges and the top face and touches the floor; friction 0.3, the same
/// contact gap as cloth_on_knives_scene(). steps = 60.
/// @param side  vertices per side (71: 5,041 vertices).
/// @throws sinew::Error when side < 2.
ClothScene cloth_sharp_corner_scene(int side = 71);

/// Cloth Fold (issue 24's self-contact): a 0.32 m square ARAP cloth (E = 1e5 Pa, nu = 0.45,
/// 1 kg/m^2, quadratic bending) of @p side x @p side vertices lying on a table (the half-space
/// z = 0, friction 0.5) 2 mm above it, its edge x = 0.32 m held by soft targets (20 N/m) that turn
/// it by a half-turn over 1 s about the line along -y through (0.184, 0, 0.002), so that its right
/// half is lifted, turned over and laid on its left half, the edge coming down at x = 0.048 m;
/// then held. Self-contact (LocalGlobalDescription::self_contact) keeps the folded half on the
/// bottom layer, contact_thickness = 2 mm apart, margin 3 mm. steps = 200.
/// @param side  vertices per side (17: 2 cm cells, the self-contact test's cloth; 200 steps take
///              about 4 s serial in Release. Every vertex touches the table, so W grows fast: at
///              33, 1 cm cells, about 2 s a step with its ~1,000 table contacts). The 2 mm thickness
///              plus the 3 mm margin must stay below 0.7 of a cell, so side <= 33, or the flat
///              cloth touches itself.
/// @throws sinew::Error when side < 2 or side > 33.
ClothScene cloth_fold_scene(int side = 17);

}  // namespace sinew::scene
