// Snapshot pieces (snapshot.hpp): body colours, obstacle meshes, the ground patch and the run's
// fixed camera.
#include "sinew/render/snapshot.hpp"

#include <algorithm>
#include <cmath>
#include <iterator>
#include <limits>
#include <utility>

#include "sinew/collision/shape.hpp"
#include "sinew/core/constants.hpp"
#include "sinew/core/small_matrix_ops.hpp"

namespace sinew::render {

namespace {

const Rgb kPalette[] = {{86, 132, 196}, {214, 122, 74}, {104, 168, 110}, {170, 104, 168}, {200, 178, 80}};

}  // namespace

Rgb body_color(std::size_t b) { return kPalette[b % std::size(kPalette)]; }

RenderMesh shape_mesh(const Shape& shape) {
  RenderMesh m;
  m.color = Rgb{150, 160, 175};
  const int nu = 32, nv = 16;
  auto grid = [&](auto&& point) {  // a (nu x (nv + 1)) latitude-longitude grid, closed in u
    for (int j = 0; j <= nv; ++j)
      for (int i = 0; i < nu; ++i) m.vertices.push_back(point(2.0 * kPi * i / nu, static_cast<double>(j) / nv));
    for (int j = 0; j < nv; ++j)
      for (int i = 0; i < nu; ++i) {
        const Index a = j * nu + i, b = j * nu + (i + 1) % nu, c = a + nu, d = b + nu;
        m.triangles.push_back({a, b, d});
        m.triangles.push_back({a, d, c});
      }
  };
  const double r = shape.size[0], l = shape.size[1];
  switch (shape.type) {
    case ShapeType::kSphere:
      grid([&](double u, double t) {
        const double th = kPi * t;
        return Vec3{{r * std::sin(th) * std::cos(u), r * std::sin(th) * std::sin(u), -r * std::cos(th)}};
      });
      break;
    case ShapeType::kCapsule:
      grid([&](double u, double t) {  // bottom cap, side, top cap along t
        const double th = kPi * t;
        const double z = -r * std::cos(th) + (t < 0.5 ? -l : (t > 0.5 ? l : 0.0));
        return Vec3{{r * std::sin(th) * std::cos(u), r * std::sin(th) * std::sin(u), z}};
      });
      break;
    case ShapeType::kCylinder:
      grid([&](double u, double t) {  // rings: bottom centre, nv - 1 rims from z = -l to l, top centre
        const int j = static_cast<int>(std::lround(t * nv));
        const double z = j == 0 ? -l : (j == nv ? l : -l + 2.0 * l * (j - 1) / (nv - 2));
        const double rr = (j == 0 || j == nv) ? 0.0 : r;
        return Vec3{{rr * std::cos(u), rr * std::sin(u), z}};
      });
      break;
    case ShapeType::kBox: {
      const double h[3] = {shape.size[0], shape.size[1], shape.size[2]};
      for (int k = 0; k < 8; ++k)
        m.vertices.push_back(Vec3{{(k & 1) ? h[0] : -h[0], (k & 2) ? h[1] : -h[1], (k & 4) ? h[2] : -h[2]}});
      const Index f[6][4] = {{0, 2, 3, 1}, {4, 5, 7, 6}, {0, 1, 5, 4}, {2, 6, 7, 3}, {0, 4, 6, 2}, {1, 3, 7, 5}};
      for (const auto& q : f) {
        m.triangles.push_back({q[0], q[1], q[2]});
        m.triangles.push_back({q[0], q[2], q[3]});
      }
      break;
    }
    default:
      break;
  }
  return m;
}

GroundPatch ground_under(const std::vector<RenderMesh>& bodies) {
  Vec3 lo{{std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), std::numeric_limits<double>::max()}};
  Vec3 hi{{-lo[0], -lo[1], -lo[2]}};
  bool any = false;
  for (const RenderMesh& m : bodies)
    for (const Vec3& p : m.vertices) {
      any = true;
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], p[k]);
        hi[k] = std::max(hi[k], p[k]);
      }
    }
  GroundPatch g;
  if (!any) return g;
  double extent = 0.0;
  for (int k = 0; k < 3; ++k) {
    g.centre[k] = 0.5 * (lo[k] + hi[k]);
    extent = std::max(extent, hi[k] - lo[k]);
  }
  g.side = std::max(3.0 * extent, 2.0);
  return g;
}

std::vector<RenderMesh> obstacle_meshes(const std::vector<Obstacle>& obstacles, const GroundPatch& ground) {
  std::vector<RenderMesh> out;
  for (const Obstacle& o : obstacles) {
    std::vector<RenderMesh> parts;
    if (o.mesh) {
      RenderMesh m;
      m.vertices = o.mesh->positions();
      m.triangles = o.mesh->triangles();
      parts.push_back(std::move(m));
    } else if (o.shape.type == ShapeType::kHalfSpace) {
      const Vec3 c = to_local(o.pose, ground.centre);  // the patch is centred under the bodies
      parts = checker_ground(Vec3{{c[0], c[1], 0.0}}, 0.0, ground.side, ground.checks);
    } else {
      parts.push_back(shape_mesh(o.shape));
    }
    for (RenderMesh& m : parts) {
      for (Vec3& p : m.vertices) p = to_world(o.pose, p);
      out.push_back(std::move(m));
    }
  }
  return out;
}

RenderCamera frame_camera(const RenderCamera& camera, const std::vector<RenderMesh>& meshes, std::size_t bodies) {
  RenderCamera cam = camera;
  if (!cam.auto_frame) return cam;
  auto used = [&](std::size_t from, std::size_t to) {
    std::vector<Vec3> out;
    for (std::size_t b = from; b < to; ++b)
      for (const auto& t : meshes[b].triangles)
        for (Index i : t)
          if (i >= 0 && static_cast<std::size_t>(i) < meshes[b].vertices.size())
            out.push_back(meshes[b].vertices[static_cast<std::size_t>(i)]);
    return out;
  };
  auto bounds = [](const std::vector<Vec3>& points, Vec3& lo, Vec3& hi) {
    for (int k = 0; k < 3; ++k) {
      lo[k] = std::numeric_limits<double>::infinity();
      hi[k] = -lo[k];
    }
    for (const Vec3& p : points)
      for (int k = 0; k < 3; ++k) {
        lo[k] = std::min(lo[k], p[k]);
        hi[k] = std::max(hi[k], p[k]);
      }
  };
  std::vector<Vec3> points = used(0, bodies);
  const std::vector<Vec3> others = used(bodies, meshes.size());
  Vec3 lo{}, hi{};
  if (points.empty()) {
    points = others;
  } else {
    bounds(points, lo, hi);
    double extent = 0.0;
    for (int k = 0; k < 3; ++k) extent = std::max(extent, hi[k] - lo[k]);
    for (Vec3 p : others) {
      for (int k = 0; k < 3; ++k) p[k] = std::min(std::max(p[k], lo[k] - extent), hi[k] + extent);
      points.push_back(p);
    }
  }
  if (points.empty()) return cam;
  bounds(points, lo, hi);
  const Vec3 target = cam.target.value_or(Vec3{{0.5 * (lo[0] + hi[0]), 0.5 * (lo[1] + hi[1]), 0.5 * (lo[2] + hi[2])}});
  double radius = 0.0;
  for (const Vec3& p : points) radius = std::max(radius, norm(p - target));
  if (!(radius > 0.0)) radius = 1.0;
  cam.target = target;
  const double half_fov = 0.5 * cam.fov_degrees * 3.14159265358979323846 / 180.0;
  if (cam.perspective && !cam.distance) cam.distance = 1.05 * radius / std::sin(std::min(half_fov, 1.2));
  if (!cam.perspective && !cam.view_height) cam.view_height = 2.2 * radius;
  cam.auto_frame = false;
  return cam;
}

}  // namespace sinew::render
