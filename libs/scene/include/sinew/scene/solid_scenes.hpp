/// @file
/// @brief The seed paper's solid reference scenes (Sec. 7.3-7.8, Figs. 1-3, 5, 7, 9, 11 and
/// Table 3) for LocalGlobalIntegrator, built from procedural meshes: the twisting bar, the
/// stick/slip block on a 10 degree slope, the soft ball squeezed between rolling cylinders, a
/// soft body pulled through a narrow gap by a moving positional constraint (the stand-in of the
/// "wooper" and the "gingerbread man"), and a cable-driven soft finger closing on a soft ball.
///
/// Each scene is a ready description and options, plus a driver that moves its targets,
/// obstacles and cable pulls before each step; step_scene() applies the driver and steps. Sizes
/// are one resolution parameter per scene; the defaults give Table 3's vertex counts (the
/// twisting bar, the squeezing ball, the pulled body, the finger's ball) or a small block (the
/// slope, which is not in Table 3).
#pragma once

#include <functional>
#include <string>
#include <vector>

#include "sinew/integrators/local_global.hpp"
#include "sinew/scene/procedural_mesh.hpp"

namespace sinew::scene {

/// A solid scene for LocalGlobalIntegrator: what to build it from and how it is driven.
struct SolidScene {
  std::string name;                                 ///< short id, e.g. "twisting_bar"
  integrators::LocalGlobalDescription description;  ///< the solid(s), targets, obstacles, cables
  integrators::LocalGlobalOptions options;          ///< L-G and contact options (the seed's Table 3 settings)
  /// Moves targets, obstacles and cable pulls before step @p step (0-based) of @p lg; empty =
  /// nothing is driven. Reads only the integrator it is given (two scenes may run in one process).
  std::function<void(integrators::LocalGlobalIntegrator& lg, long step)> drive;
  int frames = 100;  ///< frames (steps of h) over which the scene shows its behaviour
  /// Vertices of the first body and of the second (the finger's ball; empty otherwise), so that
  /// tests and benchmarks can follow each: [0, first_body_vertices) and the rest.
  Index first_body_vertices = 0;
};

/// Runs @p scene's driver for the integrator's next step, then steps it.
integrators::LocalGlobalReport step_scene(const SolidScene& scene, integrators::LocalGlobalIntegrator& lg);

/// Appends @p mesh to @p d (rest positions and tets, indices shifted); returns the index of its
/// first vertex.
Index append_mesh(integrators::LocalGlobalDescription& d, const TetMesh& mesh);

/// The boundary vertices of @p mesh (vertices of its boundary faces), ascending, shifted by @p offset.
std::vector<Index> surface_vertices(const TetMesh& mesh, Index offset = 0);

/// Twisting bar (Sec. 7.3, Fig. 9(a); Table 3 rows 1-3): a bar of round(4.4 n) x n x n cubes,
/// 0.1 m square section and 0.44 m long at every n, ARAP, rho = 1000, E = 1e9 Pa, nu = 0.45,
/// both end faces held by positional targets that rotate about the bar's axis in opposite
/// directions at pi/2 rad/s each (half a turn of twist per second). n = 10, 13, 16 give 5445,
/// 11368 and 20519 vertices (Table 3: 5.3k, 11.3k, 20.8k). No contact.
/// @throws sinew::Error when n < 1.
SolidScene twisting_bar_scene(int n = 10);

/// Stick/slip (Sec. 7.5, Fig. 7): a 0.1 m cube of n^3 cubes (ARAP, rho = 1000, E = 1e8 Pa,
/// nu = 0.3) resting on the plane z = 0 with friction @p mu, gravity tilted by 10 degrees about
/// y (the slope is the plane, downhill +x): it slides with a = g (sin 10 - mu cos 10) for
/// mu < tan 10 = 0.17633 and sticks above. 10 L-G and 24 CR iterations as in Sec. 7.5.
/// @throws sinew::Error when n < 1 or mu is not finite and >= 0.
SolidScene slope_scene(int n = 4, double mu = 0.1);

/// Squeezing ball (Sec. 7.7, Fig. 5; Table 3 rows "Squeezing Ball"): a ball of radius 0.1 m
/// (ball_tet_mesh(n), stable Neo-Hookean, rho = 1000, E = 1e4 Pa, nu = 0.4) dropped from rest at
/// 0.2 m onto two cylinders (radius 0.1 m, axes along y at x = +-0.15 m, z = 0: a 0.1 m gap,
/// half the ball's diameter) rolling inward at a 0.5 m/s surface speed, friction 0.5: the
/// rollers squeeze the ball and pull it through. n = 18, 24 give 6859 and 15625 vertices
/// (Table 3: 7.1k, 14.7k). Options: the Neo-Hookean ADMM weight floor 2 (LocalGlobalOptions::
/// neo_hookean_weight_floor; solid_scenes.cpp says why). @throws sinew::Error when n < 1.
SolidScene squeezing_ball_scene(int n = 18);

/// A soft body pulled through a narrow gap (Sec. 7.7, Figs. 1 and 3; Table 3 "Pulling Wooper",
/// "Gingerbread Man"): a 0.2 x 0.1 x 0.1 m block of 2n x n x n cubes (stable Neo-Hookean,
/// rho = 1000, E = @p youngs, nu = 0.3, no gravity; x in [-0.27, -0.07]) whose front-face
/// vertices within 2 cm of its mid-plane y = 0 are pulled along +x at 0.5 m/s by moving
/// positional targets, through the 7 cm gap between two vertical posts (cylinders of radius 5 cm
/// on the axes x = 0, y = +-8.5 cm, friction 0.2): the block must narrow by 30% to pass, from
/// about frame 5 (its front starts 2 cm before the posts) to frame ~70. Options: the Neo-Hookean ADMM
/// weight floor 2, as the squeezing ball's. n = 12 gives 4225 vertices (the wooper's 5.3k;
/// E = 1e7), n = 16 9537 (the gingerbread man's 11.1k; E = 1e6). @throws sinew::Error when n < 1 or youngs <= 0.
SolidScene pulled_through_gap_scene(int n = 12, double youngs = 1e7);

/// Cable-driven soft finger (Sec. 7.8, Figs. 2 and 11; Table 3 "Grabbing Raptor"): a hanging
/// 0.04 x 0.04 x 0.2 m finger (2 x 2 x 10 cubes, 99 vertices, clamped at its top) with a cable
/// along its +x face, pulled by 1.5 cm over the first 50 frames, closes on a soft ball of radius
/// 8 cm (ball_tet_mesh(n)) resting on the plane z = 0 beside it (1 cm gap). Both bodies are
/// stable Neo-Hookean, rho = 1000, E = 1e5 Pa, nu = 0.3 (one material per description; the
/// raptor's rho = 10, E = 2e4 made the 3 g finger fold over and blow up once pressed against the
/// ball by a 3 cm pull). The ball's bottom cap (z < 2 cm) is held by targets (it rests on the
/// plane). The finger and the ball touch through the integrator's contact between bodies
/// (LocalGlobalDescription::body_contact, friction 0.5): both bodies' surface vertices are
/// contact vertices, each against the other's boundary triangles, so the ball is dented and
/// pushed by the finger and the finger is stopped by the ball.
/// Options: 3 indicator-Newton steps per L-G iteration (solid_scenes.cpp says why; Table 3 uses 1).
/// n = 21 gives 10648 ball vertices (the raptor's 10.3k). @throws sinew::Error when n < 1.
SolidScene cable_finger_scene(int n = 21);

/// Two-finger grab (Sec. 7.8, Fig. 2, with a body of a second material): two fingers of
/// cable_finger_scene() on either side of a ball of radius 8 cm (ball_tet_mesh(n)) resting on a
/// table (the plane z = 0, friction 0.5), 1 cm from it. The fingers are the finger's material
/// (stable Neo-Hookean, rho = 1000, E = 1e5 Pa, nu = 0.3); the ball is the raptor's (Table 3:
/// rho = 10, E = 2e4 Pa, nu = 0.1; LocalGlobalDescription::materials). Both cables are pulled
/// by 2 cm over the first 50 frames, closing the fingers on the ball; from frame 60 the clamps
/// rise by 5 cm over 50 frames, and the ball, held only by the fingers' friction (0.5, contact
/// between bodies), is lifted off the table. 20 L-G iterations (solid_scenes.cpp says why).
/// first_body_vertices counts both fingers.
/// @throws sinew::Error when n < 1.
SolidScene two_finger_grab_scene(int n = 21);

}  // namespace sinew::scene
