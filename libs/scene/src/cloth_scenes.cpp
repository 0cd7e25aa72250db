// The realtime paper's cloth scenes (Table 3: Cloth Extension, Cloth on Knives, Sharp Corner) and
// issue 24's Cloth Fold as LocalGlobalDescription + options; see cloth_scenes.hpp for each scene's
// geometry.
#include "sinew/scene/cloth_scenes.hpp"

#include <algorithm>
#include <cmath>
#include <string>

#include "sinew/core/error.hpp"
#include "sinew/scene/procedural_mesh.hpp"
#include "target_rotation.hpp"

namespace sinew::scene {

namespace {

// Contact gap in units of the vertex spacing: vertex-against-obstacle contact cannot see a cloth
// edge crossing a blade or a corner between two vertices; keeping the vertices 0.75 spacing
// away turns the blade into a rounded edge that an edge of length ~spacing cannot straddle.
constexpr double kGapPerSpacing = 0.75;

// A square cloth [-L/2, L/2]^2 (shifted by @p centre) of side x side vertices at height z, with
// the seed's cloth material (rho = 1000 kg/m^3, 1 mm thick: 1 kg/m^2), h and iteration counts.
ClothScene square_cloth(const std::string& name, int side, double L, const Vec3& centre, MaterialModel model,
                        double poisson) {
  require(side >= 2, name + ": side (vertices per side) must be >= 2, got " + std::to_string(side));
  ClothScene s;
  s.name = name + "_" + std::to_string(side);
  s.side = side;
  s.spacing = L / (side - 1);
  const TriangleMesh mesh = rectangle_triangle_mesh(centre[0] - 0.5 * L, centre[1] - 0.5 * L, centre[0] + 0.5 * L,
                                                    centre[1] + 0.5 * L, centre[2], side - 1, side - 1);
  integrators::LocalGlobalDescription& d = s.description;
  d.rest_positions = interleaved(mesh.vertices);
  d.triangles.reserve(3 * mesh.triangles.size());
  for (const auto& t : mesh.triangles) d.triangles.insert(d.triangles.end(), t.begin(), t.end());
  d.model = model;
  d.elastic = ElasticParameters{1e5, poisson};  // Table 3's cloth
  d.density = 1000.0;
  d.thickness = 1e-3;
  d.time_step = 0.01;                    // Table 3
  s.options.iterations = 5;              // Table 3: 5 L-G iterations
  s.options.contact.cr_iterations = 10;  // Table 3: 10 CR iterations
  s.options.record_energy = false;       // a scene runs for speed; tests turn it on
  return s;
}

Obstacle box(const Vec3& centre, const Vec3& half, double mu) {
  Obstacle o;
  o.shape = Shape{ShapeType::kBox, {half[0], half[1], half[2]}};
  o.pose = identity_pose();
  o.pose.translation = centre;
  o.friction = mu;
  return o;
}

}  // namespace

std::vector<Vec3> target_positions(const ClothScene& scene, double t) {
  std::vector<Vec3> out;
  out.reserve(scene.motions.size());
  for (const TargetMotion& m : scene.motions) {
    const double tau = std::min(std::max(t, 0.0), m.duration);
    Vec3 p = m.start;
    if (m.angular_velocity != 0.0) {
      p = detail::rotate_about(p, m.point, m.axis, m.angular_velocity * tau);  // as the scene files' "rotate"
    }
    out.push_back(Vec3{{p[0] + tau * m.velocity[0], p[1] + tau * m.velocity[1], p[2] + tau * m.velocity[2]}});
  }
  return out;
}

void drive_targets(const ClothScene& scene, integrators::LocalGlobalIntegrator& integrator) {
  const std::vector<Vec3> p = target_positions(scene, integrator.time() + scene.description.time_step);
  for (std::size_t k = 0; k < p.size(); ++k) integrator.set_target(scene.motions[k].target, p[k]);
}

ClothScene cloth_extension_scene(MaterialModel model, int side, double speed, double duration) {
  require(std::isfinite(speed) && speed >= 0.0, "cloth_extension_scene: speed must be finite and >= 0");
  require(std::isfinite(duration) && duration >= 0.0, "cloth_extension_scene: duration must be finite and >= 0");
  require(model == MaterialModel::kArap || model == MaterialModel::kCorotational ||
              model == MaterialModel::kStableNeoHookean,
          std::string("cloth_extension_scene: model must be arap, corotational or stable_neo_hookean, got ") +
              material_model_name(model));
  ClothScene s = square_cloth("cloth_extension", side, 1.0, Vec3{{0.5, 0.5, 0.0}}, model, 0.45);
  s.description.gravity = Vec3{{0.0, 0.0, 0.0}};  // only the membrane model acts
  for (int j = 0; j < side; ++j)
    for (int edge : {0, side - 1}) {
      const Index v = edge + side * j;
      const Vec3 x{{s.description.rest_positions[3 * v], s.description.rest_positions[3 * v + 1],
                    s.description.rest_positions[3 * v + 2]}};
      TargetMotion m;
      m.target = s.description.targets.size();
      m.start = x;
      m.velocity = Vec3{{edge == 0 ? -speed : speed, 0.0, 0.0}};
      m.duration = duration;
      s.motions.push_back(m);
      s.description.targets.push_back(integrators::PositionalTarget{v, x, 0.0});
    }
  s.steps = static_cast<int>(std::ceil(duration / s.description.time_step));
  return s;
}

ClothScene cloth_on_knives_scene(int side, int knives) {
  require(knives >= 1, "cloth_on_knives_scene: knives must be >= 1, got " + std::to_string(knives));
  constexpr double kTop = 0.2, kDrop = 0.1, kMu = 0.3;
  ClothScene s =
      square_cloth("cloth_on_knives", side, 1.0, Vec3{{0.0, 0.0, 0.0}}, MaterialModel::kStableNeoHookean, 0.4);
  integrators::LocalGlobalDescription& d = s.description;
  d.contact_thickness = kGapPerSpacing * s.spacing;
  for (std::size_t k = 2; k < d.rest_positions.size(); k += 3) d.rest_positions[k] = kTop + kDrop + d.contact_thickness;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, kMu));
  for (int k = 0; k < knives; ++k) {
    const double x = knives == 1 ? 0.0 : -0.3 + 0.6 * k / (knives - 1);
    d.obstacles.push_back(box(Vec3{{x, 0.0, 0.5 * kTop}}, Vec3{{0.002, 0.6, 0.5 * kTop}}, kMu));
  }
  s.steps = 60;
  return s;
}

ClothScene cloth_sharp_corner_scene(int side) {
  constexpr double kHalf = 0.25, kDrop = 0.05, kMu = 0.3;
  ClothScene s =
      square_cloth("cloth_sharp_corner", side, 1.0, Vec3{{0.0, 0.0, 0.0}}, MaterialModel::kStableNeoHookean, 0.4);
  integrators::LocalGlobalDescription& d = s.description;
  d.contact_thickness = kGapPerSpacing * s.spacing;
  for (std::size_t k = 2; k < d.rest_positions.size(); k += 3)
    d.rest_positions[k] = 2.0 * kHalf + kDrop + d.contact_thickness;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, kMu));
  d.obstacles.push_back(
      box(Vec3{{-kHalf, -kHalf, kHalf}}, Vec3{{kHalf, kHalf, kHalf}}, kMu));  // top corner at (0, 0, 0.5)
  s.steps = 60;
  return s;
}

ClothScene cloth_fold_scene(int side) {
  require(side <= 33,
          "cloth_fold_scene: side must be <= 33 (cells of at least 1 cm: the 2 mm gap and 3 mm margin "
          "stay below a cell), got " +
              std::to_string(side));
  constexpr double kL = 0.32, kGap = 0.002, kLand = 0.15 * kL, kMu = 0.5;
  ClothScene s = square_cloth("cloth_fold", side, kL, Vec3{{0.5 * kL, 0.5 * kL, kGap}}, MaterialModel::kArap, 0.45);
  integrators::LocalGlobalDescription& d = s.description;
  d.bending = integrators::BendingModel::kQuadratic;
  d.contact_thickness = kGap;
  d.contact_margin = 0.003;
  d.self_contact = true;
  d.obstacles.push_back(half_space_obstacle(Vec3{{0, 0, 0}}, Vec3{{0, 0, 1}}, kMu));
  // The edge x = L turned by pi over 1 s about the line along -y through ((L + land) / 2, 0, gap):
  // up first, over the cloth, down onto its left half at x = land, then held there.
  const double pi = 3.14159265358979323846;
  for (int j = 0; j < side; ++j) {
    const Index v = (side - 1) + side * j;
    const Vec3 x{{d.rest_positions[3 * v], d.rest_positions[3 * v + 1], d.rest_positions[3 * v + 2]}};
    TargetMotion m;
    m.target = d.targets.size();
    m.start = x;
    m.duration = 1.0;
    m.axis = Vec3{{0.0, -1.0, 0.0}};
    m.point = Vec3{{0.5 * (kL + kLand), 0.0, kGap}};
    m.angular_velocity = pi;
    s.motions.push_back(m);
    d.targets.push_back(integrators::PositionalTarget{v, x, 20.0});  // N/m: soft, the fold lies on the layer
  }
  s.steps = 200;
  return s;
}

}  // namespace sinew::scene
