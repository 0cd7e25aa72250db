// The seed paper's solid reference scenes for LocalGlobalIntegrator (solid_scenes.hpp): meshes,
// materials, targets, obstacles and cables, and the per-step drivers that move them.
#include "sinew/scene/solid_scenes.hpp"

#include <algorithm>
#include <cmath>
#include <memory>

#include "sinew/core/constants.hpp"
#include "sinew/core/error.hpp"

namespace sinew::scene {

namespace {

using integrators::LocalGlobalDescription;
using integrators::LocalGlobalIntegrator;

// Rotation whose third column (the local z axis of a cylinder) is world y: x -> x, y -> -z, z -> y.
Mat3 z_to_y() { return Mat3{{1, 0, 0, 0, 0, 1, 0, -1, 0}}; }

Obstacle cylinder(const Vec3& centre, const Mat3& rotation, double radius, double half_length, const Vec3& angular,
                  double mu) {
  Obstacle o;
  o.shape = Shape{ShapeType::kCylinder, {radius, half_length, 0.0}};
  o.pose = Pose{rotation, centre};
  o.motion = Motion{{{0.0, 0.0, 0.0}}, angular};
  o.friction = mu;
  return o;
}

}  // namespace

integrators::LocalGlobalReport step_scene(const SolidScene& scene, LocalGlobalIntegrator& lg) {
  if (scene.drive) scene.drive(lg, lg.steps());
  return lg.step();
}

Index append_mesh(LocalGlobalDescription& d, const TetMesh& mesh) {
  const Index offset = static_cast<Index>(d.rest_positions.size() / 3);
  for (const Vec3& v : mesh.vertices) d.rest_positions.insert(d.rest_positions.end(), {v[0], v[1], v[2]});
  for (const auto& t : mesh.tets)
    for (Index v : t) d.tets.push_back(v + offset);
  return offset;
}

std::vector<Index> surface_vertices(const TetMesh& mesh, Index offset) {
  std::vector<Index> out;
  for (const auto& tri : boundary_triangles(mesh).triangles)
    for (Index v : tri) out.push_back(v + offset);
  std::sort(out.begin(), out.end());
  out.erase(std::unique(out.begin(), out.end()), out.end());
  return out;
}

SolidScene twisting_bar_scene(int n) {
  require(n >= 1, "twisting_bar_scene: n must be >= 1, got " + std::to_string(n));
  const int nx = static_cast<int>(std::lround(4.4 * n));
  const double length = 0.44, half = 0.05;
  const TetMesh mesh = box_tet_mesh(Vec3{{0.0, -half, -half}}, Vec3{{length, half, half}}, nx, n, n);
  SolidScene s;
  s.name = "twisting_bar";
  LocalGlobalDescription& d = s.description;
  append_mesh(d, mesh);
  d.model = MaterialModel::kArap;
  d.elastic = {1e9, 0.45};
  d.density = 1000.0;
  d.time_step = 0.01;
  // Both end faces held; end x = 0 turns by -omega t, end x = L by +omega t (Fig. 9(a)).
  std::vector<double> sign;  // (targets) -1 at x = 0, +1 at x = L
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j)
      for (int i : {0, nx}) {
        const Index v = i + (nx + 1) * (j + (n + 1) * k);
        d.targets.push_back({v, mesh.vertices[v], 0.0});
        sign.push_back(i == 0 ? -1.0 : 1.0);
      }
  const std::vector<integrators::PositionalTarget> rest = d.targets;
  const double omega = 0.5 * kPi, h = d.time_step;
  s.drive = [rest, sign, omega, h](LocalGlobalIntegrator& lg, long step) {
    // Targets at the end of the step: the angle reached at t_{n+1}.
    const double theta = omega * h * static_cast<double>(step + 1);
    for (std::size_t k = 0; k < rest.size(); ++k) {
      const double a = sign[k] * theta, c = std::cos(a), sn = std::sin(a);
      const Vec3& p = rest[k].target;
      lg.set_target(k, Vec3{{p[0], c * p[1] - sn * p[2], sn * p[1] + c * p[2]}});
    }
  };
  s.frames = 100;
  s.first_body_vertices = static_cast<Index>(mesh.vertices.size());
  return s;
}

SolidScene slope_scene(int n, double mu) {
  require(n >= 1, "slope_scene: n must be >= 1, got " + std::to_string(n));
  require(std::isfinite(mu) && mu >= 0.0, "slope_scene: mu must be finite and >= 0");
  const TetMesh mesh = box_tet_mesh(Vec3{{0.0, 0.0, 0.0}}, Vec3{{0.1, 0.1, 0.1}}, n, n, n);
  SolidScene s;
  s.name = "slope";
  LocalGlobalDescription& d = s.description;
  append_mesh(d, mesh);
  d.model = MaterialModel::kArap;
  d.elastic = {1e8, 0.3};
  d.density = 1000.0;
  d.time_step = 0.01;
  // The slope is the plane z = 0 and gravity is tilted by 10 degrees (downhill +x): the same
  // mechanics as a tilted plane, with an axis-aligned mesh.
  const double angle = 10.0 * kPi / 180.0;
  d.gravity = Vec3{{9.81 * std::sin(angle), 0.0, -9.81 * std::cos(angle)}};
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, mu));
  d.contact_vertices = surface_vertices(mesh);
  s.options.iterations = 10;             // Sec. 7.5: 10 L-G iterations ...
  s.options.contact.cr_iterations = 24;  // ... and 24 CR iterations for the stick/slip test
  s.frames = 100;
  s.first_body_vertices = static_cast<Index>(mesh.vertices.size());
  return s;
}

SolidScene squeezing_ball_scene(int n) {
  require(n >= 1, "squeezing_ball_scene: n must be >= 1, got " + std::to_string(n));
  const TetMesh mesh = ball_tet_mesh(Vec3{{0.0, 0.0, 0.2}}, 0.1, n);
  SolidScene s;
  s.name = "squeezing_ball";
  LocalGlobalDescription& d = s.description;
  append_mesh(d, mesh);
  d.model = MaterialModel::kStableNeoHookean;
  d.elastic = {1e4, 0.4};
  d.density = 1000.0;
  d.time_step = 0.01;
  // Rollers of radius R turning at omega = v / R, the left one (x < 0) about +y so that its
  // surface facing the gap (r = +R x) moves down at omega x r = -omega R z, the right one about -y.
  const double R = 0.1, speed = 0.5, mu = 0.5;
  d.obstacles.push_back(cylinder(Vec3{{-0.15, 0, 0}}, z_to_y(), R, 0.2, Vec3{{0, speed / R, 0}}, mu));
  d.obstacles.push_back(cylinder(Vec3{{0.15, 0, 0}}, z_to_y(), R, 0.2, Vec3{{0, -speed / R, 0}}, mu));
  d.contact_vertices = surface_vertices(mesh);
  // The ADMM weight at least twice the element stiffness (LocalGlobalOptions::
  // neo_hookean_weight_floor): with the default quarter the iteration on the squeezed elements is
  // not a contraction and a 1e-12 m change of the start grew ~10x a step to 4-7 mm (n = 8, 10);
  // with 2 it stays below 1e-11 m over 40 steps (docs/lib_integrators.md).
  s.options.neo_hookean_weight_floor = 2.0;
  s.frames = 150;
  s.first_body_vertices = static_cast<Index>(mesh.vertices.size());
  return s;
}

SolidScene pulled_through_gap_scene(int n, double youngs) {
  require(n >= 1, "pulled_through_gap_scene: n must be >= 1, got " + std::to_string(n));
  require(std::isfinite(youngs) && youngs > 0.0, "pulled_through_gap_scene: youngs must be finite and > 0");
  const TetMesh mesh = box_tet_mesh(Vec3{{-0.27, -0.05, -0.05}}, Vec3{{-0.07, 0.05, 0.05}}, 2 * n, n, n);
  SolidScene s;
  s.name = youngs >= 1e7 ? "pulled_wooper" : "pulled_gingerbread";
  LocalGlobalDescription& d = s.description;
  append_mesh(d, mesh);
  d.model = MaterialModel::kStableNeoHookean;
  d.elastic = {youngs, 0.3};
  d.density = 1000.0;
  d.time_step = 0.01;
  d.gravity = Vec3{{0, 0, 0}};
  // The handle: front-face vertices within 2 cm of y = 0, narrower than the 7 cm gap.
  for (int k = 0; k <= n; ++k)
    for (int j = 0; j <= n; ++j) {
      const Index v = 2 * n + (2 * n + 1) * (j + (n + 1) * k);
      if (std::abs(mesh.vertices[v][1]) <= 0.02 + 1e-12) d.targets.push_back({v, mesh.vertices[v], 0.0});
    }
  const double post = 0.05, gap = 0.07, mu = 0.2;
  for (double side : {-1.0, 1.0})
    d.obstacles.push_back(
        cylinder(Vec3{{0.0, side * (0.5 * gap + post), 0.0}}, identity3(), post, 0.2, Vec3{{0, 0, 0}}, mu));
  d.contact_vertices = surface_vertices(mesh);
  // The ADMM weight at least twice the element stiffness (squeezing_ball_scene() says why): with
  // the default quarter the positions at frame 50 stayed ~2 mm apart from K = 10 to K = 320 L-G
  // iterations (n = 4); with it they converge as K grows.
  s.options.neo_hookean_weight_floor = 2.0;
  const std::vector<integrators::PositionalTarget> rest = d.targets;
  const double speed = 0.5, h = d.time_step;
  s.drive = [rest, speed, h](LocalGlobalIntegrator& lg, long step) {
    const double dx = speed * h * static_cast<double>(step + 1);  // the handle's place at t_{n+1}
    for (std::size_t k = 0; k < rest.size(); ++k)
      lg.set_target(k, Vec3{{rest[k].target[0] + dx, rest[k].target[1], rest[k].target[2]}});
  };
  s.frames = 100;
  s.first_body_vertices = static_cast<Index>(mesh.vertices.size());
  return s;
}

SolidScene cable_finger_scene(int n) {
  require(n >= 1, "cable_finger_scene: n must be >= 1, got " + std::to_string(n));
  const int fx = 2, fz = 10;
  const TetMesh finger = box_tet_mesh(Vec3{{-0.02, -0.02, 0.06}}, Vec3{{0.02, 0.02, 0.26}}, fx, fx, fz);
  const double radius = 0.08;
  const Vec3 centre{{0.11, 0.0, radius}};
  const TetMesh ball = ball_tet_mesh(centre, radius, n);
  SolidScene s;
  s.name = "cable_finger";
  LocalGlobalDescription& d = s.description;
  append_mesh(d, finger);
  const Index ball0 = append_mesh(d, ball);
  d.model = MaterialModel::kStableNeoHookean;
  d.elastic = {1e5, 0.3};
  d.density = 1000.0;
  d.time_step = 0.01;
  auto fid = [&](int i, int j, int k) { return static_cast<Index>(i + (fx + 1) * (j + (fx + 1) * k)); };
  for (int j = 0; j <= fx; ++j)  // the clamp: the finger's top face
    for (int i = 0; i <= fx; ++i) d.targets.push_back({fid(i, j, fz), finger.vertices[fid(i, j, fz)], 0.0});
  // The ball rests on the plane: its bottom cap (z < R / 4) held, wide enough (a 5.3 cm disc)
  // that the finger's push dents the ball instead of tipping it over a few held vertices (with
  // z < R / 10 the n = 4 ball swung +-8 cm about its cap once pushed).
  for (std::size_t v = 0; v < ball.vertices.size(); ++v)
    if (ball.vertices[v][2] < 0.25 * radius)
      d.targets.push_back({ball0 + static_cast<Index>(v), ball.vertices[v], 0.0});
  integrators::Cable cable;  // along the +x face's mid-line, from the clamp to the tip (Fig. 11)
  for (int k = fz; k >= 0; --k) cable.vertices.push_back(fid(fx, fx / 2, k));
  d.cables.push_back(cable);
  // Contact between the two bodies (LocalGlobalDescription::body_contact, on by default with
  // its friction 0.5): the finger's surface vertices against the ball's boundary triangles and
  // the ball's against the finger's, so both deform where they touch.
  d.contact_vertices = surface_vertices(finger);
  for (Index v : surface_vertices(ball, ball0)) d.contact_vertices.push_back(v);
  // Three indicator-Newton steps per L-G iteration instead of Algorithm 4's one: with the cable's
  // bilateral row pressing the tip on the ball, one undamped step per iteration drifted after
  // ~90 frames of sustained pressing (cable length 2e-4 m off at frame 99, 1e-2 m with adhesive
  // normal impulses by frame 110, n = 4); three held it to 3e-8 m and a natural-map error of
  // 3e-6 over 250 frames.
  s.options.contact.newton_steps = 3;
  const Index n_finger = static_cast<Index>(finger.vertices.size());
  s.drive = [](LocalGlobalIntegrator& lg, long step) {
    lg.set_cable_pull(0, 0.015 * std::min(1.0, static_cast<double>(step + 1) / 50.0));
  };
  s.frames = 100;
  s.first_body_vertices = n_finger;
  return s;
}

SolidScene two_finger_grab_scene(int n) {
  require(n >= 1, "two_finger_grab_scene: n must be >= 1, got " + std::to_string(n));
  const int fx = 2, fz = 10;
  const double radius = 0.08, gap = 0.01, inner = radius + gap;
  // The fingers of cable_finger_scene() on either side of the ball, 1 cm from it.
  const TetMesh left = box_tet_mesh(Vec3{{-inner - 0.04, -0.02, 0.06}}, Vec3{{-inner, 0.02, 0.26}}, fx, fx, fz);
  const TetMesh right = box_tet_mesh(Vec3{{inner, -0.02, 0.06}}, Vec3{{inner + 0.04, 0.02, 0.26}}, fx, fx, fz);
  const TetMesh ball = ball_tet_mesh(Vec3{{0.0, 0.0, radius}}, radius, n);
  SolidScene s;
  s.name = "two_finger_grab";
  LocalGlobalDescription& d = s.description;
  const Index left0 = append_mesh(d, left), right0 = append_mesh(d, right), ball0 = append_mesh(d, ball);
  // Two materials: the fingers' (cable_finger_scene's) and the raptor's (Table 3: rho = 10,
  // E = 2e4 Pa, nu = 0.1), a 21 g ball that the fingers' friction must lift.
  d.model = MaterialModel::kStableNeoHookean;
  d.elastic = {1e5, 0.3};
  d.materials = {{MaterialModel::kStableNeoHookean, {1e5, 0.3}, 1000.0, 1e-3},
                 {MaterialModel::kStableNeoHookean, {2e4, 0.1}, 10.0, 1e-3}};
  d.tet_material.assign(d.tets.size() / 4, 0);
  std::fill(d.tet_material.begin() + static_cast<std::ptrdiff_t>((left.tets.size() + right.tets.size())),
            d.tet_material.end(), 1);
  d.time_step = 0.01;
  auto fid = [&](int i, int j, int k) { return static_cast<Index>(i + (fx + 1) * (j + (fx + 1) * k)); };
  for (const auto& [first, mesh] : {std::pair<Index, const TetMesh*>{left0, &left}, {right0, &right}})
    for (int j = 0; j <= fx; ++j)  // the clamps: each finger's top face
      for (int i = 0; i <= fx; ++i) d.targets.push_back({first + fid(i, j, fz), mesh->vertices[fid(i, j, fz)], 0.0});
  // Each finger's cable runs along its face towards the ball (Fig. 11), clamp to tip.
  integrators::Cable left_cable, right_cable;
  for (int k = fz; k >= 0; --k) {
    left_cable.vertices.push_back(left0 + fid(fx, fx / 2, k));
    right_cable.vertices.push_back(right0 + fid(0, fx / 2, k));
  }
  d.cables = {left_cable, right_cable};
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, 0.5));  // the table
  d.contact_vertices = surface_vertices(left, left0);
  for (Index v : surface_vertices(right, right0)) d.contact_vertices.push_back(v);
  for (Index v : surface_vertices(ball, ball0)) d.contact_vertices.push_back(v);
  s.options.contact.newton_steps = 3;  // cable_finger_scene() says why
  // 20 L-G iterations: with the default 5 the squeezed ball's iterates are far from converged
  // (n = 6: the ball slipped 2 cm out of a 1.5 cm grip after the lift, and with the 2 cm grip
  // below it was thrown out at frame ~105 with contact errors up to 0.2); with 20 it rises
  // with the clamps and stays.
  s.options.iterations = 20;
  const std::vector<integrators::PositionalTarget> clamps = d.targets;
  s.drive = [clamps](LocalGlobalIntegrator& lg, long step) {
    // Close by a 2 cm pull over 50 frames, hold 10, then lift the clamps by 5 cm over 50
    // frames and hold.
    const double pull = 0.02 * std::min(1.0, static_cast<double>(step + 1) / 50.0);
    lg.set_cable_pull(0, pull);
    lg.set_cable_pull(1, pull);
    const double lift = 0.05 * std::clamp(static_cast<double>(step + 1 - 60) / 50.0, 0.0, 1.0);
    for (std::size_t k = 0; k < clamps.size(); ++k) {
      const Vec3& t = clamps[k].target;
      lg.set_target(k, Vec3{{t[0], t[1], t[2] + lift}});
    }
  };
  s.frames = 150;
  s.first_body_vertices = static_cast<Index>(left.vertices.size() + right.vertices.size());
  return s;
}

}  // namespace sinew::scene
